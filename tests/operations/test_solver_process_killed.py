"""A house-rules solver process killed mid-solve (`kill -9`, as the out-of-memory killer
does) costs neither that solve nor any later one.

A dead worker breaks its `ProcessPoolExecutor` for good: every later solve on it raised
`BrokenProcessPool`, so every ruleset asked for on that worker reported `failed` until the
service was restarted, while `/readyz` (built-in tables only) kept answering 200.  Here a
real server solves a ruleset, its solver process is killed for real, and the ruleset must
still be solved (in a new process), a later ruleset too, `/metrics` must count the loss
and `/readyz` must stay ready with no ruleset counted as failed.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from live_server import LiveServer

pytestmark = pytest.mark.slow


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def solver_processes(master: int) -> list[int]:
    """The serving worker's spawned solver processes (not multiprocessing's resource
    tracker, which `spawn` also starts)."""
    (worker,) = children(master)
    return [
        pid
        for pid in children(worker)
        if "spawn_main" in (line := command_line(pid)) and "resource_tracker" not in line
    ]


def ruleset(server: LiveServer, points: int) -> dict[str, Any]:
    rules = {"upper_bonus_points": points, "upper_bonus_threshold": 50}
    answer = server.client.post("/rulesets", json={"game": "yatzy", "rules": rules})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def wait_until_ready(server: LiveServer, points: int) -> dict[str, Any]:
    deadline = time.monotonic() + 240
    while (answer := ruleset(server, points))["status"] != "ready":
        assert answer["status"] in ("queued", "solving"), (answer, server.log())
        assert time.monotonic() < deadline, answer
        time.sleep(0.2)
    return answer


def test_a_killed_solver_process_is_replaced_and_its_solve_done_again(tmp_path: Path) -> None:
    env = {"DICEREF_CACHE_DIR": str(tmp_path / "cache"), "DICEREF_PRELOAD": "none"}
    with LiveServer(tmp_path / "server.log", env) as server:
        server.wait("/readyz")
        assert server.process is not None
        first = ruleset(server, 11)
        deadline = time.monotonic() + 120
        while not (victims := solver_processes(server.process.pid)) or first["progress"] == 0:
            assert first["status"] in ("queued", "solving"), first
            assert time.monotonic() < deadline, (first, server.log())
            time.sleep(0.05)
            first = ruleset(server, 11)
        assert first["status"] == "solving", first  # killed mid-solve
        # at the lowest priority, so that a request waking up gets a core before a solve
        assert {os.getpriority(os.PRIO_PROCESS, pid) for pid in victims} == {19}
        for pid in victims:
            os.kill(pid, signal.SIGKILL)

        assert wait_until_ready(server, 11)["optimal_expected_score"] > 200
        assert wait_until_ready(server, 12)["optimal_expected_score"] > 200
        readiness = server.client.get("/readyz")
        restarts = server.metric("diceref_solver_pool_restarts_total")
    assert readiness.status_code == 200, readiness.text
    assert readiness.json()["on_demand"] == {"ready": 4}  # a value and a max table each
    assert restarts == 1
