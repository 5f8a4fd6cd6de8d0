"""The server's edges against a real two-worker `diceref serve` on 127.0.0.1 (issue 18):
idle and half-sent connections are closed within their timeouts and do not lock clients
out, and SIGTERM drains what is in flight up to its deadline.  Timeouts are made short
through the environment variables a user would set, so the whole file runs in seconds.

The tests assert what happens (the server closes the socket, answers again, exits with
the upload cut), never how long it took: the times are printed, and every wait has only
a generous hang guard, `HANG_GUARD`, which a healthy server never comes near."""

from __future__ import annotations

import contextlib
import json
import selectors
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from conftest import TEST_CACHE
from diceref import __version__
from live_server import LiveServer

HEADER_TIMEOUT = 2.0
BODY_TIMEOUT = 3.0
HANG_GUARD = 60.0  # seconds; only so that a regression fails instead of hanging
SCORE = {"game": "yahtzee", "dice": [2, 2, 5, 5, 5]}
# A request whose head is complete but whose body stops after 10 of its 1,000 bytes.
HALF_BODY = (
    b"POST /score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 1000\r\n\r\n" + b'{"game": "'
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    env = {
        "DICEREF_CACHE_DIR": str(TEST_CACHE),
        "DICEREF_PRELOAD": "none",
        "DICEREF_HEADER_TIMEOUT": str(HEADER_TIMEOUT),
        "DICEREF_BODY_TIMEOUT": str(BODY_TIMEOUT),
        "DICEREF_SHUTDOWN_TIMEOUT": "4",
    }
    with LiveServer(tmp_path / "server.log", env, workers=2) as live:
        live.wait("/healthz")
        yield live


def open_sockets(port: int, count: int, send: bytes = b"") -> list[socket.socket]:
    sockets = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        if send:
            s.sendall(send)
        sockets.append(s)
    return sockets


def wait_closed(sockets: list[socket.socket], timeout: float) -> dict[socket.socket, bytes]:
    """Everything each socket received until the server closed it; fails if any is still
    open after `timeout` seconds."""
    received = {s: b"" for s in sockets}
    with selectors.DefaultSelector() as selector:
        for s in sockets:
            s.setblocking(False)
            selector.register(s, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        while selector.get_map():
            left = deadline - time.monotonic()
            assert left > 0, f"{len(selector.get_map())} of {len(sockets)} still open"
            for key, _ in selector.select(left):
                s = key.fileobj
                assert isinstance(s, socket.socket)
                try:
                    chunk = s.recv(65536)
                except ConnectionResetError:
                    chunk = b""
                if chunk:
                    received[s] += chunk
                else:
                    selector.unregister(s)
    return received


def answers(live: LiveServer) -> bool:
    try:
        health = httpx.get(f"{live.base}/healthz", timeout=1)
        score = httpx.post(f"{live.base}/score", json=SCORE, timeout=1)
    except httpx.HTTPError:
        return False
    return health.json()["status"] == "ok" and score.status_code == 200


def close_all(sockets: list[socket.socket]) -> None:
    for s in sockets:
        s.close()


def test_silent_and_half_sent_connections_do_not_lock_clients_out(server: LiveServer) -> None:
    """1,100 connect-only sockets and 200 half-sent bodies: more than the two workers' 1,024
    connection slots.  /healthz and /score answer again while every one of them is open on
    this side (so the server freed the slots); each silent socket is closed, each half body
    gets a 408 and is closed; no worker dies."""
    idle = open_sockets(server.port, 1100)
    half = open_sockets(server.port, 200, HALF_BODY)
    opened = time.monotonic()
    try:
        while not answers(server):
            assert server.process is not None and server.process.poll() is None, server.log()
            assert time.monotonic() - opened < HANG_GUARD, "still locked out"
        back = time.monotonic() - opened
        silent = wait_closed(idle, HANG_GUARD)
        assert set(silent.values()) == {b""}  # closed by the server, without a word
        slow = wait_closed(half, HANG_GUARD)
        for reply in slow.values():
            head, _, body = reply.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 408"), reply[:200]
            assert json.loads(body)["type"].endswith("/body-timeout")
        closed = time.monotonic() - opened
    finally:
        close_all(idle + half)
    assert answers(server)
    log = server.log()
    assert "Unexpected exit" not in log and log.count("Spawning worker") == 2, log
    print(f"answering again after {back:.2f} s; every socket closed after {closed:.2f} s")


def test_an_idle_keep_alive_connection_is_closed(server: LiveServer) -> None:
    (s,) = open_sockets(server.port, 1, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    started = time.monotonic()
    try:
        (reply,) = wait_closed([s], HANG_GUARD).values()  # the server closes it
    finally:
        s.close()
    health = b'{"status":"ok","api_version":"%s"}' % __version__.encode()
    assert reply.startswith(b"HTTP/1.1 200") and reply.endswith(health)
    assert reply.count(b"HTTP/1.1") == 1  # answered once, then closed when idle
    print(f"closed {time.monotonic() - started:.2f} s after the answer")


def test_a_half_sent_head_is_closed(server: LiveServer) -> None:
    (s,) = open_sockets(server.port, 1, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    started = time.monotonic()
    try:
        (reply,) = wait_closed([s], HANG_GUARD).values()  # the server closes it
    finally:
        s.close()
    assert reply == b""  # never answered
    print(f"closed after {time.monotonic() - started:.2f} s")


def test_sigterm_drains_in_flight_requests_up_to_the_deadline(tmp_path: Path) -> None:
    """SIGTERM with two uploads in flight: the one that finishes within the deadline is
    answered, the one still trickling when it passes is cut before its body is whole (it
    would take 30 s), and no new connection is taken meanwhile."""
    deadline = 4
    env = {
        "DICEREF_CACHE_DIR": str(TEST_CACHE),
        "DICEREF_PRELOAD": "none",
        "DICEREF_SHUTDOWN_TIMEOUT": str(deadline),
        "DICEREF_BODY_TIMEOUT": "60",  # longer than the deadline: the deadline must cut it
    }
    body = json.dumps(SCORE).encode()
    head = (
        b"POST /score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    live = LiveServer(tmp_path / "server.log", env, workers=2).start()
    try:
        live.wait("/healthz")
        assert live.process is not None
        (finishing, trickling) = open_sockets(live.port, 2, head + body[:5])
        time.sleep(0.3)  # both requests are in the app, reading their bodies
        live.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        time.sleep(1)
        finishing.sendall(body[5:])
        trickling.sendall(body[5:6])
        (answer,) = wait_closed([finishing], HANG_GUARD).values()
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", live.port), timeout=1).close()
        sent = 6
        while live.process.poll() is None and sent < len(body):
            time.sleep(0.5)
            with contextlib.suppress(OSError):
                trickling.sendall(body[sent : sent + 1])
            sent += 1
            assert time.monotonic() - signalled < HANG_GUARD, "no exit after the deadline"
        live.process.wait(HANG_GUARD)
        took = time.monotonic() - signalled
        (cut,) = wait_closed([trickling], HANG_GUARD).values()
    finally:
        live.stop()
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    assert b'"options"' in answer
    assert cut == b""  # killed at the deadline, never answered (its body was unfinished)
    assert sent < len(body), "the upload finished: the deadline never cut it"
    print(f"exit {took:.2f} s after SIGTERM with a slow upload in flight (deadline {deadline})")
