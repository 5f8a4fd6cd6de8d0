"""Tables shared between replicas through the real Redis.

Two `diceref serve` processes start at once on empty disk caches: exactly one computes each
table and the other loads it from Redis (asserted on /metrics and /readyz of both).  A table
in Redis that is damaged or foreign (wrong key hash, wrong size, truncated, wrong checksum)
is never served: the service discards it, computes the table and answers correctly.
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import redis
from litestar import Litestar
from litestar.testing import TestClient

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.solver.engine import SOLVER_VERSION
from diceref.games.scorecard.tables import value_spec
from diceref.http.app import create_app
from diceref.http.metrics import render
from diceref.settings import Settings
from diceref.tables import TableKey, TableSettings, TableStore, decode, encode
from helpers import values_of
from live_server import LiveServer, parse_metrics

pytestmark = [pytest.mark.redis, pytest.mark.slow]

GAME = "chute-5"  # solves in about a second
TABLES = [("policy", "yardkle"), ("value", GAME), ("max", GAME)]
HOLDS = {"game": GAME, "dice": [2, 2, 5, 6, 1], "throws_left": 2}


def sources(server: LiveServer) -> dict[tuple[str, str], str]:
    body = server.client.get("/readyz").json()
    return {(t["kind"], t["game"]): t["source"] for t in body["tables"]}


def test_two_services_compute_each_table_once(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    def server(name: str) -> LiveServer:
        env = {
            "REDIS_URL": redis_url,
            "DICEREF_REDIS_PREFIX": redis_prefix,
            "DICEREF_CACHE_DIR": str(tmp_path / name),
            "DICEREF_PRELOAD": GAME,
            "DICEREF_REDIS_POLL_INTERVAL": "0.05",
        }
        return LiveServer(tmp_path / f"{name}.log", env)

    with server("a") as a, server("b") as b:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda s: s.wait("/readyz", timeout=90), (a, b)))
        seen = [sources(a), sources(b)]
        metrics = [a.metrics(), b.metrics()]
        for kind, game in TABLES:
            assert sorted(s[(kind, game)] for s in seen) == ["computed", "redis"], (kind, game)
            for source, expected in (("computed", 1), ("redis", 1), ("disk", 0)):
                labels = frozenset({"kind": kind, "game": game, "source": source}.items())
                count = sum(m.get(("diceref_table_loads_total", labels), 0) for m in metrics)
                assert count == expected, (kind, game, source)
        # the same answers from both, and from nowhere but memory (no Redis on this path)
        first, second = (s.client.post("/holds", json=HOLDS) for s in (a, b))
        assert first.status_code == second.status_code == 200
        assert first.json() == second.json()
        # through granian too, a body over the limit is a 413 problem
        big = a.client.post(
            "/score", content=b" " * 70_000, headers={"content-type": "application/json"}
        )
        assert big.status_code == 413
        assert big.headers["content-type"].startswith("application/problem+json")
        logs = a.log_records() + b.log_records()  # every line is JSON
    computing = [r for r in logs if r["message"].startswith("computing table")]
    assert sorted(r["message"].split()[-1].split("-")[0] for r in computing) == [
        "max",
        "policy",
        "value",
    ]


def _corrupt(kind: str, good: FloatArray) -> bytes:
    key = value_spec(SCORECARD_GAMES[GAME]).key
    if kind == "foreign hash":  # a table solved for other rules, stored under this name
        return encode(TableKey("value", GAME, "0123456789abcdef", SOLVER_VERSION), good)
    if kind == "wrong size":  # the right name, a table of another length
        return encode(key, good[:-1])
    blob = bytearray(encode(key, good))
    if kind == "truncated":
        return bytes(blob[:-8])
    blob[-100] ^= 0x01  # "checksum": one flipped bit in the payload
    return bytes(blob)


@pytest.mark.parametrize("kind", ["foreign hash", "wrong size", "truncated", "checksum"])
def test_a_damaged_table_in_redis_is_never_served(
    tmp_path: Path,
    redis_url: str,
    redis_prefix: str,
    solved: Callable[[str], FloatArray],
    coach: TestClient[Litestar],
    kind: str,
) -> None:
    good = solved(GAME)
    key = value_spec(SCORECARD_GAMES[GAME]).key
    name = f"{redis_prefix}table:{key.id}"
    with redis.Redis.from_url(redis_url) as client:
        client.set(name, _corrupt(kind, good))
    store = TableStore(
        TableSettings(cache_dir=tmp_path, redis_url=redis_url, redis_prefix=redis_prefix)
    )
    app = create_app(Settings(preload=(GAME,), retry_after_seconds=1), store=store)
    # The counters are the process's: read before this app starts, since its preload may
    # find the damaged table before any request of the test could ask /metrics.
    before = parse_metrics(render()[0].decode())
    with TestClient(app) as client:
        deadline = time.monotonic() + 60
        while client.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        rows = {(t["kind"], t["game"]): t for t in client.get("/readyz").json()["tables"]}
        assert rows[("value", GAME)]["source"] == "computed"
        after = parse_metrics(client.get("/metrics").text)
        corrupt = ("diceref_tables_corrupt_total", frozenset({("layer", "redis")}))
        assert after[corrupt] - before.get(corrupt, 0.0) == 1
        served = client.post("/holds", json=HOLDS)
        expected: Any = coach.post("/holds", json=HOLDS)
        assert served.status_code == 200 and served.json() == expected.json()
        np.testing.assert_array_equal(values_of(app, GAME), good)
    with redis.Redis.from_url(redis_url) as client:
        blob = client.get(name)
    assert blob is not None
    np.testing.assert_array_equal(decode(key, blob), good)  # replaced by the good table
