"""SIGTERM stops `diceref serve` within seconds, even while a table is being solved.

A solve takes seconds to minutes and cannot be interrupted from outside; run in a non-daemon
thread, the worker process waited for it before exiting, so a server told to stop during
start-up (a preload) or during a house-rules solve only went when granian killed its worker
after DICEREF_SHUTDOWN_TIMEOUT (20 s): the documented-commands test saw `uv run diceref
serve` outlive its SIGTERM.  Here the real server starts with an empty table cache, so that
a solve is under way, and its process group gets SIGTERM as a terminal or an orchestrator
sends it; it must exit without granian killing a worker that refused to stop (which it does
after DICEREF_SHUTDOWN_TIMEOUT), without finishing the solve, its solver processes after it.
Ctrl-C stops `diceref precompute` as promptly.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from live_server import free_port

pytestmark = pytest.mark.slow

# Only a hang guard, not the assertion: beyond the 20 s shutdown timeout, after which
# granian kills a worker that would not stop (and logs it, which the tests assert against).
# Exit takes about 0.5 s, 1.1 s with both cores busy.
HANG_GUARD = 60.0


class Server:
    """`diceref serve` in a session of its own, logging JSON lines to a file."""

    def __init__(self, tmp_path: Path, **env: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp_path / "serve.log"
        environ = {k: v for k, v in os.environ.items() if not k.startswith(("DICEREF_", "REDIS"))}
        environ |= {
            "DICEREF_CACHE_DIR": str(tmp_path / "cache"),  # empty: every table is solved
            "DICEREF_LOG_FORMAT": "json",
            "DICEREF_LOG_LEVEL": "INFO",
            "DICEREF_SHUTDOWN_TIMEOUT": "20",
        } | env
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "diceref.cli", "serve", "--port", str(self.port)],
                env=environ,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def messages(self) -> list[str]:
        lines = self.log_path.read_text(errors="replace").splitlines()
        return [json.loads(line)["message"] for line in lines if line.startswith("{")]

    def wait_for(self, prefix: str, timeout: float = 90) -> None:
        """Until the log has a message starting with `prefix`."""
        deadline = time.monotonic() + timeout
        while not any(m.startswith(prefix) for m in self.messages()):
            assert self.process.poll() is None, f"the server exited:\n{self.log()}"
            assert time.monotonic() < deadline, f"no {prefix!r} in the log:\n{self.log()}"
            time.sleep(0.05)

    def terminate(self) -> float:
        """SIGTERM to the process group; the seconds until the server exited (or fail)."""
        sent = time.monotonic()
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(HANG_GUARD)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"still running {HANG_GUARD} s after SIGTERM:\n{self.log()}"
            ) from None
        return time.monotonic() - sent

    def group_alive(self) -> bool:
        try:
            os.killpg(self.process.pid, 0)
        except ProcessLookupError:
            return False
        return True

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.kill()


def stops_promptly(server: Server) -> None:
    took = server.terminate()
    log = server.log()
    tail = "\n".join(log.splitlines()[-60:])  # what the worker did around the SIGTERM
    # 1 when the worker, which the group's SIGTERM reaches too, is gone before granian's
    # main process stops it: granian then logs "Unexpected exit from worker-1" and exits 1.
    assert server.process.returncode in (0, 1), (server.process.returncode, tail)
    assert "Killing worker-1 after it refused to gracefully stop" not in log, tail
    print(f"stopped {took:.2f} s after SIGTERM")
    # The solve's helper processes (a forked half, the house-rules pool) go by themselves
    # once their parent has: none is left running a solve nobody waits for.
    deadline = time.monotonic() + HANG_GUARD
    while server.group_alive():
        assert time.monotonic() < deadline, "processes of the server outlive it"
        time.sleep(0.1)


def test_sigterm_during_start_up_while_a_preloaded_table_is_solved(
    tmp_path: Path, server_factory: list[Server]
) -> None:
    # Dice Poker's value table: a solve in this process's threads (6 s or more), not one
    # with a forked helper, which the group's SIGTERM reaches and which then fails the solve.
    server = Server(tmp_path, DICEREF_PRELOAD="dice-poker")
    server_factory.append(server)
    server.wait_for("computing table value-dice-poker-")
    stops_promptly(server)
    assert not any(m.startswith("computed table value-dice-poker-") for m in server.messages())


def test_sigterm_while_a_house_rules_table_is_solved(
    tmp_path: Path, server_factory: list[Server]
) -> None:
    server = Server(tmp_path, DICEREF_PRELOAD="none")
    server_factory.append(server)
    server.wait_for("Started worker-1")
    deadline = time.monotonic() + 30
    while True:
        with contextlib.suppress(httpx.HTTPError):
            answer = httpx.post(
                server.base + "/rulesets",
                json={"game": "yahtzee", "rules": {"joker": "none", "extra_bonus": 0}},
                timeout=5,
            )
            break
        assert time.monotonic() < deadline, server.log()
        time.sleep(0.1)
    assert answer.status_code == 200 and answer.json()["status"] in ("queued", "solving")
    ruleset = answer.json()["ruleset_id"]
    server.wait_for(f"computing table value-yahtzee-{ruleset}")
    stops_promptly(server)
    computed = f"computed table value-yahtzee-{ruleset}"
    assert not any(m.startswith(computed) for m in server.messages())


def test_ctrl_c_stops_precompute_while_a_table_is_solved(tmp_path: Path) -> None:
    """Without Redis the command solves with no event loop (`diceref.tables.host`), in a
    daemon thread it waits for: SIGINT ends it at once (0.1 s).  Raised in the solve's own
    frames, it first waited for the solver's queued work (0.7-1.7 s)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DICEREF_", "REDIS"))}
    command = subprocess.Popen(
        [sys.executable, "-m", "diceref.cli", "precompute", "dice-poker"],
        env=environ | {"DICEREF_CACHE_DIR": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        # SIGINT handled as at a terminal, even if this run ignores it (a background job)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert command.stderr is not None
        first = command.stderr.readline()
        assert first.startswith("dice-poker value: solving"), first  # the solve is under way
        # at once: with the kernel compiled, the whole solve can end within a second
        sent = time.monotonic()
        command.send_signal(signal.SIGINT)
        command.wait(30)
        took = time.monotonic() - sent
    finally:
        command.kill()
        command.wait(5)
    assert command.returncode == -signal.SIGINT  # stopped by the signal, not finished
    print(f"stopped {took:.2f} s after SIGINT")
    assert not list(tmp_path.glob("tables/*.dtbl"))


def test_a_shutdown_after_house_rules_solves_prints_only_log_lines(
    tmp_path: Path, server_factory: list[Server]
) -> None:
    """The solver pool's progress reader was a daemon thread left blocked on its queue:
    every shutdown of a server that had solved house rules printed "Exception in thread
    solver-progress" and a traceback, lines that are not JSON, to its output."""
    server = Server(tmp_path, DICEREF_PRELOAD="none")
    server_factory.append(server)
    server.wait_for("Started worker-1")
    rules = {"game": "yatzy", "rules": {"upper_bonus_points": 7, "upper_bonus_threshold": 40}}
    deadline = time.monotonic() + 120
    status = None
    while status != "ready":
        assert time.monotonic() < deadline, server.log()
        with contextlib.suppress(httpx.HTTPError):
            status = httpx.post(server.base + "/rulesets", json=rules, timeout=5).json()["status"]
            assert status in ("queued", "solving", "ready"), server.log()
        time.sleep(0.2)
    stops_promptly(server)
    output = server.log()
    assert "Traceback" not in output and "Exception in thread" not in output, output
    lines = [line for line in output.splitlines() if line.strip()]
    assert all(line.startswith("{") for line in lines), output


@pytest.mark.parametrize("handler", ["signal_handler_interrupt", "signal_handler_reload"])
def test_a_signal_landing_while_the_main_thread_holds_the_loop_lock_is_not_a_deadlock(
    handler: str,
) -> None:
    """A second SIGTERM (`uv run` forwards the one a process group gets) lands inside the
    first's handler, which holds the main loop's lock; granian's own handler waits for
    that lock in the same thread for ever, and `diceref serve` never stops."""
    from granian.constants import Interfaces

    from diceref.serving import BoundedSendGranian

    server = BoundedSendGranian("diceref.http.app:app", interface=Interfaces.ASGI, send_timeout=1)
    handled = threading.Event()

    def signal_inside_the_lock() -> None:
        with server.main_loop_interrupt._cond:  # as Event.set and Event.wait hold it
            getattr(server, handler)(signal.SIGTERM, None)
        handled.set()

    threading.Thread(target=signal_inside_the_lock, daemon=True).start()
    assert handled.wait(10), "the handler waited for a lock its own thread holds"
    assert server.main_loop_interrupt.wait(10)
    flag = "interrupt_signal" if handler == "signal_handler_interrupt" else "reload_signal"
    assert getattr(server, flag) is True
