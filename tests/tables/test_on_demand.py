"""The registry's tables asked for on demand (house rules): admitted behind a bounded queue,
held in memory and on disk up to byte bounds (least recently used evicted), kept in Redis
with a TTL, and never listed by `/readyz`."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from pathlib import Path

import numpy as np
import pytest
import redis

from diceref.core.arrays import FloatArray
from diceref.tables.config import TableSettings
from diceref.tables.registry import SolveQueueFull, TableRegistry, group_of
from diceref.tables.spec import TableSpec
from diceref.tables.store import TableStore
from helpers import registry_table

N = 1000  # floats: 8,000 bytes a table


def spec(n: int = N, value: float = 1.0) -> TableSpec:
    """A table of a ruleset of its own (a fresh hash), solved in the registry's thread
    (a lambda does not pickle, so the solver pool solves it in place)."""
    return TableSpec(
        "value", "house", uuid.uuid4().hex[:16], "t", (n,), lambda _: np.full(n, value)
    )


async def wait_ready(registry: TableRegistry, s: TableSpec) -> FloatArray:
    return await registry_table(registry, s)


def test_least_recently_used_tables_leave_memory(tmp_path: Path) -> None:
    """Room for two tables: the third evicts the one not used for longest, and its states
    go with it (a flood cannot grow the registry), while a used one stays."""
    settings = TableSettings(cache_dir=tmp_path, on_demand_memory_bytes=2 * N * 8)
    registry = TableRegistry(TableStore(settings), [])
    a, b, c = spec(), spec(), spec()
    for s in (a, b):
        registry.put(s, np.ones(N), "computed")
    assert registry.table(a) is not None  # a used now: b is the least recently used
    registry.put(c, np.ones(N), "computed")
    assert b.key not in registry.specs and b.key not in registry.states
    assert a.key in registry.specs and c.key in registry.specs
    assert registry.all_states() == []  # on-demand tables are never listed by /readyz
    assert registry.on_demand_counts() == {"ready": 2}


def test_queue_is_bounded_and_a_refusal_queues_nothing(tmp_path: Path) -> None:
    async def run() -> None:
        settings = TableSettings(cache_dir=tmp_path, solve_queue_size=1)
        registry = TableRegistry(TableStore(settings), [])
        await registry.start(())
        try:
            gate = asyncio.Event()
            loop = asyncio.get_running_loop()

            def slow(_: object) -> FloatArray:
                asyncio.run_coroutine_threadsafe(gate.wait(), loop).result(30)
                return np.zeros(1)

            first = TableSpec("value", "house", uuid.uuid4().hex[:16], "t", (1,), slow)
            registry.admit((first,))
            await asyncio.sleep(0.05)  # the worker takes it: the queue is empty again
            assert registry.status_of(first).status == "solving"
            second = spec()
            assert registry.admit((second,)).status == "queued"
            third = spec()
            with pytest.raises(SolveQueueFull):
                registry.admit((third,))
            assert third.key not in registry.specs
            gate.set()
            await wait_ready(registry, second)
            assert registry.status_of(first).status == "ready"
        finally:
            await registry.stop()

    asyncio.run(run())


def test_disk_keeps_the_newest_tables_within_its_bound(tmp_path: Path) -> None:
    async def run() -> None:
        settings = TableSettings(cache_dir=tmp_path, on_demand_disk_bytes=int(2.5 * N * 8))
        store = TableStore(settings)
        registry = TableRegistry(store, [])
        await registry.start(())
        try:
            specs = [spec() for _ in range(4)]
            for i, s in enumerate(specs):
                registry.admit((s,))
                await wait_ready(registry, s)
                await store.drain()
                os.utime(store.disk.path(s.key), (1000 + i, 1000 + i))  # written in order
            await asyncio.sleep(0)
            on_disk = [s for s in specs if store.disk.path(s.key).exists()]
            assert on_disk == specs[-2:]
        finally:
            await registry.stop()

    asyncio.run(run())


def test_files_written_at_one_instant_are_trimmed_without_error(tmp_path: Path) -> None:
    """Tables whose files tie on time and size (written within the clock's resolution) are
    trimmed in a fixed order: the keys themselves are not ordered (a TypeError killed the
    solver's worker and stalled its queue)."""
    store = TableStore(TableSettings(cache_dir=tmp_path, on_demand_disk_bytes=int(1.5 * N * 8)))
    from diceref.tables.codec import encode

    specs = [spec() for _ in range(3)]
    for s in specs:
        store.disk.save(s.key, encode(s.key, np.ones(N)))
        os.utime(store.disk.path(s.key), (1000, 1000))
    assert store.trim_disk(keep=()) == 2
    kept = [s for s in specs if store.disk.path(s.key).exists()]
    assert kept == [max(specs, key=lambda s: s.key.id)]


def on_disk(directory: Path) -> dict[str, int]:
    return {p.name: p.stat().st_size for p in directory.iterdir() if p.is_file()}


def test_the_disk_bound_holds_across_workers_and_restarts(tmp_path: Path) -> None:
    """Two workers (two stores and registries on one cache directory) each solve rulesets
    of their own, then a restarted worker solves more: after each, the on-demand files on
    disk hold at most the bound, whoever wrote them, and no lock file is left.  A built-in
    table, older than all of them, is never trimmed.  (Before, a worker trimmed only the
    keys it still remembered: 10 rulesets left 88 MB for a 30 MB bound, and two lock files
    per ruleset stayed.)"""
    bound = int(3.5 * N * 8)
    builtin = TableSpec("value", "game", "0" * 16, "t", (N,), lambda _: np.full(N, 7.0))

    async def worker(rulesets: int, bound: int = bound) -> None:
        settings = TableSettings(cache_dir=tmp_path, on_demand_disk_bytes=bound)
        registry = TableRegistry(TableStore(settings), [builtin])
        await registry.start(())
        try:
            registry.request("game")
            await wait_ready(registry, builtin)
            for _ in range(rulesets):
                s = spec()
                registry.admit((s,))
                await wait_ready(registry, s)
                await asyncio.sleep(0.01)  # the next file is newer
        finally:
            await registry.stop()

    async def two_workers() -> None:
        await asyncio.gather(worker(5), worker(5))

    asyncio.run(two_workers())
    tables = on_disk(tmp_path / "tables")
    builtin_file = f"{builtin.key.id}.dtbl"
    assert builtin_file in tables
    assert sum(size for name, size in tables.items() if name != builtin_file) <= bound, tables
    assert len(tables) == 1 + 3, tables
    assert on_disk(tmp_path / "locks") == {}

    asyncio.run(worker(4))  # a restart: the files of the run before are trimmed too
    tables = on_disk(tmp_path / "tables")
    assert builtin_file in tables and len(tables) == 1 + 3, tables
    assert on_disk(tmp_path / "locks") == {}

    asyncio.run(worker(0, bound=int(1.5 * N * 8)))  # a restart with a lower bound trims at once
    tables = on_disk(tmp_path / "tables")
    assert builtin_file in tables and len(tables) == 1 + 1, tables


def test_trimming_sweeps_stale_lock_and_temporary_files(tmp_path: Path) -> None:
    """A worker killed while computing leaves its lock file, one killed while writing its
    temporary file: a trim deletes those nobody holds and those long unfinished."""
    from diceref.tables.disk import STALE_TEMPORARY_SECONDS

    store = TableStore(TableSettings(cache_dir=tmp_path))
    held = store.disk.lock(spec().key)
    assert held.try_acquire()
    orphan = tmp_path / "locks" / f"{spec().key.id}.lock"
    orphan.touch()
    (tmp_path / "tables").mkdir()
    old, fresh = tmp_path / "tables" / ".a.1.tmp", tmp_path / "tables" / ".b.2.tmp"
    for path in (old, fresh):
        path.write_bytes(b"x")
    then = time.time() - STALE_TEMPORARY_SECONDS - 1
    os.utime(old, (then, then))
    store.trim_disk(keep=())
    assert sorted(p.name for p in (tmp_path / "locks").iterdir()) == [held.path.name]
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == [fresh.name]
    held.release()
    assert list((tmp_path / "locks").iterdir()) == []


def test_a_lock_file_deleted_by_its_holder_is_not_a_second_lock(tmp_path: Path) -> None:
    """A taker that opened the lock file just before its holder deleted it (on letting go)
    must not hold the lock alongside the next taker of the new file."""
    from diceref.tables.disk import HostLock

    path = tmp_path / "locks" / "x.lock"
    first, late, next_one = HostLock(path), HostLock(path), HostLock(path)
    assert first.try_acquire()
    fd = late._open()  # late opened the old file, then was descheduled
    first.release()
    assert not path.exists()
    assert next_one.try_acquire()
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the old file: nobody holds it
    assert not late._is_current(fd)
    os.close(fd)
    assert not late.try_acquire()  # the path's file is next_one's
    next_one.release()


def test_a_failing_load_costs_its_group_not_the_worker(tmp_path: Path) -> None:
    """An unexpected error while loading one ruleset marks that ruleset failed; the worker
    goes on with the queue (before, the worker died and every later ruleset stayed queued)."""

    async def run() -> None:
        store = TableStore(TableSettings(cache_dir=tmp_path))
        registry = TableRegistry(store, [])
        await registry.start(())
        trim = store.trim_disk
        calls: list[int] = []

        def trim_once_broken(keys: object) -> int:
            calls.append(1)
            if len(calls) == 1:
                raise TypeError("a bug")
            return trim(keys)  # type: ignore[arg-type]

        store.trim_disk = trim_once_broken  # type: ignore[method-assign]
        try:
            first, second = spec(), spec()
            registry.admit((first,))
            registry.admit((second,))
            await wait_ready(registry, second)
            assert registry.status_of(first).status == "failed"
        finally:
            await registry.stop()

    asyncio.run(run())


@pytest.mark.redis
def test_redis_keeps_an_on_demand_table_for_its_ttl(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    async def run() -> None:
        settings = TableSettings(
            cache_dir=tmp_path,
            redis_url=redis_url,
            redis_prefix=redis_prefix,
            on_demand_redis_ttl=600,
        )
        registry = TableRegistry(TableStore(settings), [])
        await registry.start((), redis_check_interval=60)
        try:
            s = spec()
            registry.admit((s,))
            await wait_ready(registry, s)
        finally:
            await registry.stop()
        client = redis.Redis.from_url(redis_url)
        ttl = client.ttl(f"{redis_prefix}table:{s.key.id}")
        assert 590 <= ttl <= 600, ttl

    asyncio.run(run())


@pytest.mark.redis
def test_redis_keeps_on_demand_tables_within_their_byte_budget(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    """A flood of on-demand tables from two replicas leaves at most the budget's bytes of
    them in Redis, the newest; a built-in table (stored without a TTL) is never trimmed.
    Publishing the tables a replica holds (SET NX, after a Redis restart) keeps the budget
    too.  (Before,
    Redis had no byte bound: 1.08 MB grew to 1.39 GB in 30 s of a flood.)"""
    from diceref.tables.codec import encode

    blob_bytes = len(encode(spec().key, np.ones(N)))
    budget = int(3.5 * blob_bytes)

    def replica(name: str) -> TableStore:
        settings = TableSettings(
            cache_dir=tmp_path / name,
            redis_url=redis_url,
            redis_prefix=redis_prefix,
            on_demand_redis_bytes=budget,
        )
        return TableStore(settings)

    builtin, flood = spec(), [spec() for _ in range(10)]

    client = redis.Redis.from_url(redis_url)
    name = f"{redis_prefix}table:{{}}".format

    def on_demand_in_redis() -> dict[str, int]:
        tables = {
            found.decode(): int(client.strlen(found))
            for found in client.scan_iter(f"{redis_prefix}table:*")
        }
        assert name(builtin.key.id) in tables and client.ttl(name(builtin.key.id)) == -1
        del tables[name(builtin.key.id)]
        assert sum(tables.values()) <= budget, tables
        listed = {m.decode() for m in client.zrange(f"{redis_prefix}on-demand", 0, -1)}
        assert listed == set(tables)
        return tables

    async def run() -> None:
        stores = [replica("a"), replica("b")]
        try:
            await stores[0].get(builtin.key, lambda: np.ones(N), shape=(N,))
            for i, s in enumerate(flood):
                await stores[i % 2].get(s.key, lambda: np.ones(N), shape=(N,), ttl=600)
            assert set(on_demand_in_redis()) == {name(s.key.id) for s in flood[-3:]}
            assert await stores[0].publish() > 0  # the five it holds, where Redis lost them
            on_demand_in_redis()
        finally:
            for store in stores:
                await store.aclose()

    asyncio.run(run())


@pytest.mark.redis
def test_an_on_demand_table_over_the_whole_redis_budget_is_not_kept(
    redis_url: str, redis_prefix: str
) -> None:
    from diceref.tables.redis_store import RedisTables

    async def run() -> None:
        tables = RedisTables(redis_url, redis_prefix, on_demand_bytes=100)
        try:
            small, big = spec(), spec()
            await tables.put(small.key, b"s" * 60, ttl=600)
            await tables.put(big.key, b"b" * 101, ttl=600)
            assert await tables.get(big.key) is None
            assert await tables.get(small.key) == b"s" * 60
            await tables.put(big.key, b"b" * 101)  # no TTL: a built-in table, not budgeted
            assert await tables.get(big.key) == b"b" * 101
        finally:
            await tables.aclose()

    asyncio.run(run())


@pytest.mark.redis
def test_two_replicas_solve_one_ruleset_once(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    """The store's Redis lock covers on-demand tables: of two replicas asked for the same
    house rules at once, one solves and the other loads its result from Redis."""
    solves: list[int] = []

    def solve(_: object) -> FloatArray:
        solves.append(1)
        time.sleep(0.5)
        return np.full(N, 3.0)

    key_hash = uuid.uuid4().hex[:16]

    async def run() -> None:
        registries = [
            TableRegistry(
                TableStore(
                    TableSettings(
                        cache_dir=tmp_path / name, redis_url=redis_url, redis_prefix=redis_prefix
                    )
                ),
                [],
            )
            for name in ("a", "b")
        ]
        for registry in registries:
            await registry.start((), redis_check_interval=60)
        try:
            shared = TableSpec("value", "house", key_hash, "t", (N,), solve)
            for registry in registries:
                registry.admit((shared,))
            tables = [await wait_ready(registry, shared) for registry in registries]
            assert all(float(t[0]) == 3.0 for t in tables)
            sources = sorted(r.states[shared.key].source or "" for r in registries)
            assert sources == ["computed", "redis"], sources
        finally:
            for registry in registries:
                await registry.stop()

    asyncio.run(run())
    assert len(solves) == 1


@pytest.mark.parametrize("max_solves", [1, 2])
def test_at_most_max_solves_run_at_once(tmp_path: Path, max_solves: int) -> None:
    """Five rulesets admitted together are solved `max_solves` at a time: never more (the
    CPU bound DICEREF_MAX_SOLVES sets), and that many (the bound is used, not serialised)."""
    import threading

    lock = threading.Lock()
    running: list[int] = [0]
    peaks: list[int] = []

    def solve(_: object) -> FloatArray:
        with lock:
            running[0] += 1
            peaks.append(running[0])
        time.sleep(0.15)  # long enough for every free worker to start its own solve
        with lock:
            running[0] -= 1
        return np.zeros(1)

    async def run() -> None:
        settings = TableSettings(cache_dir=tmp_path, max_solves=max_solves, solve_queue_size=8)
        registry = TableRegistry(TableStore(settings), [])
        await registry.start(())
        try:
            specs = [
                TableSpec("value", "house", uuid.uuid4().hex[:16], "t", (1,), solve)
                for _ in range(5)
            ]
            for s in specs:
                registry.admit((s,))
            deadline = time.monotonic() + 120  # each load also writes its file (an fsync)
            while not all(registry.status_of(s).status == "ready" for s in specs):
                assert time.monotonic() < deadline, [registry.status_of(s) for s in specs]
                await asyncio.sleep(0.02)
        finally:
            await registry.stop()

    asyncio.run(run())
    assert len(peaks) == 5  # every ruleset solved once
    assert max(peaks) == max_solves, peaks


def test_a_group_whose_tables_are_all_in_is_ready_when_loaded_again(tmp_path: Path) -> None:
    """Loading a group whose tables are all in already (asked for again after a restart
    reset its status, its tables kept) leaves it ready: it was reported `failed` for
    ever, as no table was put, while its table served every request."""

    async def run() -> None:
        s = spec()
        s = TableSpec(
            s.kind, s.game, s.rules_hash, s.solver_version, (N,), s.solve, at_startup=True
        )
        registry = TableRegistry(TableStore(TableSettings(cache_dir=tmp_path)), [s])
        await registry.start(())
        try:
            assert registry.status_of(s).status == "ready"
            registry.put(s, np.ones(N), "memory")  # a test's table, or a load's
        finally:
            await registry.stop()
        # a restart while the group was queued (the status start() resets), tables kept
        registry._group_status[group_of(s)] = "queued"
        await registry.start(())
        try:
            assert registry.status_of(s).status == "ready", registry.status_of(s)
            assert registry.admit((s,)).status == "ready"
        finally:
            await registry.stop()

    asyncio.run(run())


def test_a_ruleset_that_evicts_two_others_is_ready_with_both_its_tables(tmp_path: Path) -> None:
    """Memory bound 20 MB; Yahtzee with the upper bonus at 64, at 65, then at 300 (8.5, 8.7
    and 39.5 MB value tables).  The third's value table must evict both others; eviction
    read the spec of the first ruleset's max table after evicting that ruleset with it
    (a KeyError), stopped partway and left the third `failed` with no max table while its
    value table served `/holds`."""
    from diceref.games.scorecard.rules.games import variant
    from diceref.games.scorecard.tables import max_spec, value_spec

    def zeros_like(real: TableSpec) -> TableSpec:
        shape = real.shape
        fields = (real.kind, real.game, real.rules_hash, real.solver_version)
        return TableSpec(*fields, shape, lambda _: np.zeros(shape))

    rulesets = [variant("yahtzee", upper_bonus_threshold=t) for t in (64, 65, 300)]
    groups = [(zeros_like(value_spec(r)), zeros_like(max_spec(r))) for r in rulesets]

    async def run() -> None:
        settings = TableSettings(cache_dir=tmp_path, on_demand_memory_bytes=20_000_000)
        registry = TableRegistry(TableStore(settings), [])
        await registry.start(())
        try:
            for value, maximum in groups:
                registry.admit((value, maximum))
                await wait_ready(registry, maximum)
                assert registry.status_of(value).status == "ready", registry.status_of(value)
            value, maximum = groups[-1]
            assert registry.table(value) is not None and registry.table(maximum) is not None
            for earlier in groups[:2]:
                assert all(s.key not in registry.specs for s in earlier)
                assert registry.status_of(earlier[0]).status == "missing"
            assert set(registry.states) == {value.key, maximum.key}
        finally:
            await registry.stop()

    asyncio.run(run())


def test_a_spare_table_missing_from_disk_is_solved_in_the_solver_pool(tmp_path: Path) -> None:
    """A built-in game's play-to-win table (a spare one) that is not on disk is solved as
    house rules' tables are: in the solver pool's processes, which a stop can end, and not
    in the registry's thread as a built-in table is."""

    async def run() -> None:
        spare = spec(value=3.0)
        registry = TableRegistry(TableStore(TableSettings(cache_dir=tmp_path)), [], spare=[spare])
        solved_in_pool: list[TableSpec] = []
        pool = registry._pool
        real_solve = pool.solve

        def recording_solve(solve: object, progress: object = None) -> FloatArray:
            solved_in_pool.append(spare)
            return real_solve(solve, progress)  # type: ignore[arg-type]

        pool.solve = recording_solve  # type: ignore[method-assign]
        await registry.start(())
        try:
            assert not registry.store.disk.path(spare.key).is_file()
            registry.admit((spare,))
            table = await wait_ready(registry, spare)
            assert np.all(table == 3.0)
            assert solved_in_pool == [spare]
            assert registry.states[spare.key].on_demand
        finally:
            await registry.stop()

    asyncio.run(run())
