"""Which tables go through Redis between replicas (`TableSpec.in_redis`): Yardkle's
two-player table (a megabyte) does, so a replica loads what another solved; a scorecard
game's play-to-win tables (up to a GB, over what a Redis string holds) never do, neither
stored after a solve nor published from a disk.  Here the small Yatzy in forced order and
three-dice Yardkle to 1,000 stand in for the full-size tables."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path

import pytest
import redis

from diceref.core.arrays import FloatArray
from diceref.games.yardkle import FAMILY
from diceref.games.yardkle.rules.ruleset import YardkleGame
from diceref.games.yardkle.solver import duel_array
from diceref.games.yardkle.solver.duel_fast import solve_duel_fast
from diceref.games.yardkle.tables import duel_spec
from diceref.tables.config import TableSettings
from diceref.tables.registry import TableRegistry
from diceref.tables.spec import TableSpec, load_sync
from diceref.tables.store import TableStore

pytestmark = [pytest.mark.redis]


@pytest.fixture(scope="module")
def tables(play_to_win: list[tuple[TableSpec, FloatArray]]) -> list[tuple[TableSpec, FloatArray]]:
    """The distribution and win tables of the small scorecard game, and a duel table."""
    rules = FAMILY.game_of(YardkleGame, "yardkle", {"dice": 3, "target": 1000}).rules
    duel = (duel_spec(rules), duel_array.to_array(solve_duel_fast(rules)))
    return [*play_to_win[1:], duel]


def given(spec: TableSpec, table: FloatArray) -> TableSpec:
    """`spec` whose solve returns `table` at once (the store sees a solve)."""
    return dataclasses.replace(spec, solve=lambda _progress: table)


def in_redis(redis_url: str, prefix: str, specs: list[TableSpec]) -> set[str]:
    with redis.Redis.from_url(redis_url) as client:
        return {s.kind for s in specs if client.exists(f"{prefix}table:{s.key.id}")}


def test_a_solved_duel_table_reaches_another_replica_and_play_to_win_tables_do_not(
    tmp_path: Path,
    redis_url: str,
    redis_prefix: str,
    tables: list[tuple[TableSpec, FloatArray]],
) -> None:
    def replica(name: str) -> TableStore:
        return TableStore(
            TableSettings(cache_dir=tmp_path / name, redis_url=redis_url, redis_prefix=redis_prefix)
        )

    specs = [spec for spec, _ in tables]
    assert [s.in_redis for s in specs] == [False, False, True]
    a = replica("a")
    for spec, table in tables:
        assert load_sync(a, given(spec, table)).source == "computed"
    assert in_redis(redis_url, redis_prefix, specs) == {"duel"}

    def refuse(_progress: object) -> FloatArray:
        raise AssertionError("replica B solved the duel table replica A had")

    b = replica("b")
    duel, table = tables[2]
    loaded = load_sync(b, dataclasses.replace(duel, solve=refuse))
    assert loaded.source == "redis"
    assert (loaded.array == table).all()
    for spec, table in tables[:2]:  # solved again here: Redis is not asked for them
        assert load_sync(b, given(spec, table)).source == "computed"
    assert in_redis(redis_url, redis_prefix, specs) == {"duel"}


def test_a_replica_publishes_its_duel_table_from_disk_but_not_play_to_win_tables(
    tmp_path: Path,
    redis_url: str,
    redis_prefix: str,
    tables: list[tuple[TableSpec, FloatArray]],
) -> None:
    """Tables on a replica's disk at start-up (a volume filled by `diceref precompute
    --target`) are mapped there, and only those Redis may hold are published."""
    disk = TableStore(TableSettings(cache_dir=tmp_path))
    for spec, table in tables:
        assert load_sync(disk, given(spec, table)).source == "computed"
    specs = [spec for spec, _ in tables]
    settings = TableSettings(cache_dir=tmp_path, redis_url=redis_url, redis_prefix=redis_prefix)

    async def replica() -> dict[str, str | None]:
        registry = TableRegistry(TableStore(settings), (), spare=specs)
        await registry.start((), redis_check_interval=0.1)
        try:
            deadline = time.monotonic() + 30
            while not all(s.key in registry.states for s in specs) or any(
                registry.states[s.key].status != "ready" for s in specs
            ):
                assert time.monotonic() < deadline, "the tables on disk were not mapped"
                await asyncio.sleep(0.05)
            while "duel" not in in_redis(redis_url, redis_prefix, specs):
                assert time.monotonic() < deadline, "the duel table was not published"
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)  # a few more watchdog ticks
            return {s.kind: registry.states[s.key].source for s in specs}
        finally:
            await registry.stop()

    sources = asyncio.run(replica())
    assert sources == {"distribution": "disk", "win": "disk", "duel": "disk"}
    assert in_redis(redis_url, redis_prefix, specs) == {"duel"}
