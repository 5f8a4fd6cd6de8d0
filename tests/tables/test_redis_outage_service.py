"""A running service whose Redis is killed, then restarted empty.

Requests keep succeeding from memory while Redis is down; a table first needed during the
outage is computed locally and served; once Redis is back the service reconnects by itself
(`Redis back` logged once, the error counter stops growing) and writes back every table it
holds, so a new replica with an empty disk loads them from Redis: nothing a request needs is
lost.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.tables import max_spec, value_spec
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES
from diceref.games.yardkle.tables import policy_spec
from live_server import LiveServer
from redis_server import PrivateRedis

pytestmark = [pytest.mark.redis, pytest.mark.slow]

GAME = "chute-5"
HOLDS = {"game": GAME, "dice": [3, 3, 4, 5, 6], "throws_left": 1}
YARDKLE = {"dice": [1, 5, 5, 2, 3, 3], "turn_points": 0, "on_pad": False}
SCORE = {"game": "yahtzee", "dice": [6, 6, 6, 6, 6], "throw": 2}


def until(check: Callable[[], bool], timeout: float = 30, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what} not met after {timeout} s"
        time.sleep(0.05)


class Traffic(threading.Thread):
    """Requests in a loop, each answer compared with the one given before the outage."""

    def __init__(self, server: LiveServer, calls: list[tuple[str, dict[str, Any]]]) -> None:
        super().__init__(daemon=True)
        self.server, self.stop = server, threading.Event()
        self.expected = {path: server.client.post(path, json=body).json() for path, body in calls}
        self.calls = calls
        self.answers = 0
        self.wrong: list[str] = []

    def run(self) -> None:
        deadline = time.monotonic() + 120  # bounded even if the test fails to stop it
        while not self.stop.is_set() and time.monotonic() < deadline:
            for path, body in self.calls:
                # How fast they answer meanwhile is benchmarks/bench_redis_outage.py's; the
                # test asserts that each answer comes and is right.
                try:
                    response = self.server.client.post(path, json=body)  # 10 s hang guard
                except httpx.HTTPError as exc:
                    self.wrong.append(f"{path}: {exc!r}")
                    continue
                if response.status_code != 200 or response.json() != self.expected[path]:
                    self.wrong.append(f"{path}: {response.status_code} {response.text[:200]}")
                self.answers += 1
            time.sleep(0.01)


def test_redis_killed_while_serving_then_back(tmp_path: Path, private_redis: PrivateRedis) -> None:
    env = {
        "REDIS_URL": private_redis.url,
        "DICEREF_PRELOAD": "none",
        "DICEREF_REDIS_CHECK_INTERVAL": "0.2",
        "DICEREF_REDIS_CONNECT_TIMEOUT": "0.2",
        "DICEREF_REDIS_TIMEOUT": "1",
        "DICEREF_RETRY_AFTER": "1",
    }
    names = [
        f"diceref:table:{policy_spec(DEFAULT_RULES).key.id}",
        f"diceref:table:{value_spec(SCORECARD_GAMES[GAME]).key.id}",
        f"diceref:table:{max_spec(SCORECARD_GAMES[GAME]).key.id}",
    ]
    a = LiveServer(tmp_path / "a.log", env | {"DICEREF_CACHE_DIR": str(tmp_path / "a")})
    with a:
        a.wait("/readyz")
        assert a.client.get("/readyz").json()["redis"] == "up"
        assert private_redis.has(names[0])  # Yardkle's table, computed and shared
        traffic = Traffic(a, [("/yardkle/holds", YARDKLE), ("/score", SCORE)])
        traffic.start()
        try:
            private_redis.stop()
            until(lambda: a.client.get("/readyz").json()["redis"] == "down", what="redis down")
            errors = a.metric("diceref_redis_errors_total")
            until(lambda: a.metric("diceref_redis_errors_total") > errors, what="errors grow")
            assert a.client.get("/readyz").status_code == 200  # ready without Redis

            # a table first needed now: 503 + Retry-After, then computed here and served
            response = a.client.post("/holds", json=HOLDS)
            assert response.status_code == 503 and response.headers["retry-after"] == "1"
            until(lambda: a.client.post("/holds", json=HOLDS).status_code == 200, 60, "holds")
            until(
                lambda: a.metric("diceref_table_loads_total", game=GAME, source="computed") == 2,
                what="value and max tables computed",
            )
            holds = a.client.post("/holds", json=HOLDS).json()

            private_redis.start()  # empty: no persistence
            until(lambda: a.client.get("/readyz").json()["redis"] == "up", what="redis up")
            until(lambda: all(private_redis.has(n) for n in names), what="tables published")
            settled = a.metric("diceref_redis_errors_total")
            time.sleep(1.0)  # five checks: none fails any more
            assert a.metric("diceref_redis_errors_total") == settled
            assert a.metric("diceref_tables_published_total") == 3
            assert a.metric("diceref_redis_up") == 1
        finally:
            traffic.stop.set()
            traffic.join(10)
        assert traffic.wrong == []
        assert traffic.answers > 20
    records = a.log_records()
    assert sum("unreachable" in r["message"] for r in records) == 1
    assert sum(r["message"].startswith("Redis back") for r in records) == 1
    warning = next(r for r in records if "unreachable" in r["message"])
    assert warning["level"] == "WARNING" and warning["logger"] == "diceref.tables.redis_store"

    # a new replica with an empty disk gets every table from Redis
    b = LiveServer(
        tmp_path / "b.log",
        env | {"DICEREF_CACHE_DIR": str(tmp_path / "b"), "DICEREF_PRELOAD": GAME},
    )
    with b:
        body = b.wait("/readyz").json()
        assert {t["source"] for t in body["tables"]} == {"redis"}
        assert b.client.post("/holds", json=HOLDS).json() == holds
