"""Clients that ask for large answers and never read them, against a real two-worker
`diceref serve` on 127.0.0.1: the send timeout (`DICEREF_SEND_TIMEOUT`) aborts their
connections, so that new clients get a slot again.

Each slow reader opens its socket with a 4 KB receive buffer and pipelines 20 requests
for the OpenAPI document (298 KB each, uncompressed), about 6 MB, more than the kernel's
buffers on both sides hold, and then reads nothing: the server's writes stall on the
shut window, and without a send timeout the connection holds its slot for ever.  The
slots are made few (`DICEREF_MAX_CONNECTIONS`) so that a dozen sockets fill them and the
kernel memory the test ties up stays near 50 MB.  The test asserts what happens (new
clients answered while every slow socket is still open on this side; the server holds
none of their connections afterwards), never how long it took: the times are printed,
and every wait has only a generous hang guard.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from conftest import TEST_CACHE
from live_server import LiveServer

pytestmark = pytest.mark.slow

SEND_TIMEOUT = 2.0
SLOTS_PER_WORKER = 4
WORKERS = 2
SLOW_READERS = 12  # more than the 8 slots: the rest wait in the backlog, ahead of others
PIPELINED = 20
HANG_GUARD = 90.0  # seconds; only so that a regression fails instead of hanging
REQUEST = b"GET /schema/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
ESTABLISHED = "01"  # the state column of /proc/net/tcp


def server_env(send_timeout: float | None) -> dict[str, str]:
    env = {
        "DICEREF_CACHE_DIR": str(TEST_CACHE),
        "DICEREF_PRELOAD": "none",
        "DICEREF_MAX_CONNECTIONS": str(SLOTS_PER_WORKER),
    }
    if send_timeout is not None:
        env["DICEREF_SEND_TIMEOUT"] = str(send_timeout)
    return env


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(tmp_path / "server.log", server_env(SEND_TIMEOUT), workers=WORKERS) as live:
        live.wait("/healthz")
        yield live


def slow_readers(port: int, count: int) -> list[socket.socket]:
    """Sockets with a 4 KB receive buffer, each having sent PIPELINED requests."""
    sockets = []
    for _ in range(count):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting
        s.settimeout(10)
        s.connect(("127.0.0.1", port))
        s.sendall(REQUEST * PIPELINED)
        sockets.append(s)
    return sockets


def server_side_connections(port: int, peers: set[int]) -> int:
    """The established connections of the server's port to any of `peers` (client ports),
    read off the kernel's table without touching the sockets (reading would drain them)."""
    held = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not Path(table).exists():
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote, state = fields[1], fields[2], fields[3]
            if (
                state == ESTABLISHED
                and int(local.rsplit(":", 1)[1], 16) == port
                and int(remote.rsplit(":", 1)[1], 16) in peers
            ):
                held += 1
    return held


def answers(live: LiveServer) -> bool:
    try:
        return httpx.get(f"{live.base}/healthz", timeout=1).json()["status"] == "ok"
    except httpx.HTTPError:
        return False


def test_clients_that_never_read_are_cut_off_and_others_get_in(server: LiveServer) -> None:
    readers = slow_readers(server.port, SLOW_READERS)
    peers = {s.getsockname()[1] for s in readers}
    opened = time.monotonic()
    try:
        # The slow readers hold every slot: a new client waits in the backlog...
        while server_side_connections(server.port, peers) < WORKERS * SLOTS_PER_WORKER:
            assert time.monotonic() - opened < HANG_GUARD, "the slots never filled"
            time.sleep(0.05)
        # ... and is answered once the send timeout has aborted them, while every one of
        # them is still open on this side (so the server cut them, not this test).
        while not answers(server):
            assert server.process is not None and server.process.poll() is None, server.log()
            assert time.monotonic() - opened < HANG_GUARD, "still locked out"
        back = time.monotonic() - opened
        # Every slow reader's connection is aborted in turn, the queued ones too.
        while held := server_side_connections(server.port, peers):
            assert time.monotonic() - opened < HANG_GUARD, f"{held} slow readers still held"
            time.sleep(0.1)
        cut = time.monotonic() - opened
        assert answers(server)
    finally:
        for s in readers:
            s.close()
    log = server.log()
    assert "Unexpected exit" not in log and log.count("Spawning worker") == WORKERS, log
    print(f"answering again after {back:.2f} s; every slow reader cut after {cut:.2f} s")
