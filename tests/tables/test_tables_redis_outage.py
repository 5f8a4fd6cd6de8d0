"""Redis dies while the service runs, then comes back: a private redis-server we can kill."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import numpy as np
import pytest

from diceref.tables import TableKey, TableSettings, TableStore
from redis_server import PrivateRedis

pytestmark = pytest.mark.redis


def compute() -> np.ndarray:
    return np.arange(1000, dtype=np.float64)


def test_redis_killed_while_serving_then_back(
    tmp_path: Path, private_redis: PrivateRedis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="diceref.tables")
    keys = [TableKey("value", "yahtzee", "0ff1ce", str(v)) for v in range(4)]
    settings = TableSettings(cache_dir=tmp_path / "a", redis_url=private_redis.url)
    store = TableStore(settings)

    async def serve() -> list[str]:
        sources = [(await store.get(keys[0], compute)).source]
        private_redis.stop()
        assert store.peek(keys[0]) is not None  # requests keep succeeding from memory
        sources.append((await store.get(keys[0], compute)).source)
        sources.append((await store.get(keys[1], compute)).source)
        sources.append((await store.get(keys[2], compute)).source)
        private_redis.start()  # an empty Redis, as after a restart without persistence
        sources.append((await store.get(keys[3], compute)).source)
        await store.aclose()
        return sources

    assert asyncio.run(serve()) == ["computed", "memory", "computed", "computed", "computed"]
    assert private_redis.has(f"diceref:table:{keys[3].id}")  # reconnected and shared again
    messages = [r.getMessage() for r in caplog.records if r.name.endswith("redis_store")]
    assert sum("unreachable" in m for m in messages) == 1
    assert sum("Redis back" in m for m in messages) == 1
    assert store.stats().redis_errors >= 2
    other = TableStore(TableSettings(cache_dir=tmp_path / "b", redis_url=private_redis.url))
    assert other.get_sync(keys[3], compute).source == "redis"
