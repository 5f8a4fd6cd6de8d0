"""A replica shares what it holds (issue 18): tables it loads from its own disk (baked into
its image, say) are pushed to a Redis that lacks them at start-up, so that a fresh replica
elsewhere loads them from Redis instead of solving them."""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

import pytest
import redis

from conftest import TEST_CACHE, make_test_store
from diceref.games.families import table_specs
from diceref.tables.config import TableSettings
from diceref.tables.registry import TableRegistry
from diceref.tables.spec import TableSpec, load_sync
from diceref.tables.store import TableStore

pytestmark = [pytest.mark.redis]

GAME = "chute-5"


def specs_of(game: str) -> list[TableSpec]:
    return [s for s in table_specs() if s.game == game or s.at_startup]


def test_tables_loaded_from_disk_are_published_at_start_up(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    specs = specs_of(GAME)
    baked = tmp_path / "baked"
    (baked / "tables").mkdir(parents=True)
    shared = make_test_store()
    for spec in specs:  # the image's tables, solved at build time
        load_sync(shared, spec)  # on the shared test disk, solved there if a test has not
        name = f"{spec.key.id}.dtbl"
        shutil.copy(TEST_CACHE / "tables" / name, baked / "tables" / name)
    settings = TableSettings(cache_dir=baked, redis_url=redis_url, redis_prefix=redis_prefix)
    names = [f"{redis_prefix}table:{spec.key.id}" for spec in specs]

    async def replica_a() -> dict[str, str | None]:
        registry = TableRegistry(TableStore(settings), table_specs())
        await registry.start((GAME,), redis_check_interval=0.1)
        try:
            deadline = time.monotonic() + 30
            with redis.Redis.from_url(redis_url) as client:
                while not all(client.exists(n) for n in names):
                    assert time.monotonic() < deadline, "not published"
                    await asyncio.sleep(0.05)
            return {s.kind: registry.states[s.key].source for s in specs}
        finally:
            await registry.stop()

    assert asyncio.run(replica_a()) == {"policy": "disk", "value": "disk", "max": "disk"}

    def solve() -> None:
        raise AssertionError("replica B solved a table replica A had")

    fresh = TableStore(
        TableSettings(cache_dir=tmp_path / "b", redis_url=redis_url, redis_prefix=redis_prefix)
    )
    for spec in specs:
        assert fresh.get_sync(spec.key, solve, shape=spec.shape).source == "redis"
