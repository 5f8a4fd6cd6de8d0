"""`TableStore`: get a table from the cheapest place that has it, computing it at most once.

Lookup order: process memory, the local disk cache, Redis (when configured), then the
compute function.  A table found further down is written back up (a Redis hit goes to disk,
a computed table to Redis and disk), and whatever comes from disk is served memory-mapped,
so the workers of one host share its pages.

Within a process, concurrent gets of one key share a single load.  Across replicas, a Redis
lock makes one replica compute while the others poll Redis for the result; without Redis, a
lock file does the same for the workers of one host (which share the disk cache).  Redis is an
optimisation, never a dependency: any Redis failure falls back to computing locally.

The memory, disk and lock-file steps are those of `HostTables` (`diceref.tables.host`),
which runs them without an event loop for a synchronous command without Redis; this class
runs them in threads, so the event loop keeps serving, and adds Redis and the sharing of
concurrent gets.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Collection
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from diceref.core.arrays import FloatArray
from diceref.tables.codec import CorruptTable, decode, encode
from diceref.tables.config import TableSettings
from diceref.tables.host import Compute, HostTables, LoadedTable, Shape, _Found
from diceref.tables.key import TableKey
from diceref.tables.outage import RedisDown
from diceref.tables.stats import Source, StoreStats

if TYPE_CHECKING:
    from diceref.tables.redis_store import RedisTables

log = logging.getLogger(__name__)

T = TypeVar("T")


async def in_daemon_thread(work: Callable[[], T], name: str = "table-solve") -> T:
    """`work()` in a daemon thread of its own, awaited like `asyncio.to_thread`.

    A solve takes seconds to minutes and cannot be interrupted from outside.  In the loop's
    default executor it would run in a non-daemon thread, which the process joins before it
    exits: a server told to stop (SIGTERM) while a table was being solved waited for the
    solve, until granian killed the worker after DICEREF_SHUTDOWN_TIMEOUT (20 s).  A daemon
    thread is left behind instead; the registry also asks the solve to stop at its next
    progress report (`registry.SolveStopped`).
    """
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if done.done():  # the awaiting coroutine was cancelled (a stop)
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        result: T | None = None
        error: BaseException | None = None
        try:
            result = work()
        except BaseException as exc:  # handed to the awaiting coroutine
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name=name, daemon=True).start()
    return await done


class TableStore(HostTables):
    def __init__(self, settings: TableSettings) -> None:
        super().__init__(settings)
        self.redis: RedisTables | None = None
        if settings.redis_url is not None:
            from diceref.tables.redis_store import RedisTables  # redis-py: only when used

            self.redis = RedisTables(
                settings.redis_url,
                settings.redis_prefix,
                connect_timeout=settings.redis_connect_timeout,
                timeout=settings.redis_timeout,
                lock_ttl=settings.lock_ttl,
                on_demand_bytes=settings.on_demand_redis_bytes,
            )
        self._loading: dict[TableKey, asyncio.Task[tuple[FloatArray, Source]]] = {}
        self._saving: set[asyncio.Task[FloatArray | None]] = set()

    async def get(
        self,
        key: TableKey,
        compute: Compute,
        *,
        shape: Shape | None = None,
        ttl: int | None = None,
    ) -> LoadedTable:
        """The table for `key`, from wherever it is cheapest; `compute` runs in a thread.

        `shape`, when given, is what the table must have: a stored table of another shape
        is treated as corrupt, and a computed one raises ValueError.  `ttl`: Redis keeps
        the table this many seconds (an on-demand table), else for good.
        """
        if ttl is not None:
            self._ttl[key] = ttl
        return await self._timed_get(key, compute, shape)

    async def _get(
        self, key: TableKey, compute: Compute, shape: Shape | None
    ) -> tuple[FloatArray, Source]:
        array = self._memory.get(key)
        if array is not None:
            return array, "memory"
        task = self._loading.get(key)
        if task is not None:  # another get of this key is under way: share its result
            shared, _ = await asyncio.shield(task)
            return shared, "memory"
        task = asyncio.create_task(self._load(key, compute, shape))
        self._loading[key] = task
        task.add_done_callback(partial(self._loaded, key))
        # Shielded: a caller that gives up must not cancel the load for the others.
        return await asyncio.shield(task)

    def get_sync(
        self, key: TableKey, compute: Compute, *, shape: Shape | None = None
    ) -> LoadedTable:
        """`get` for synchronous callers (the CLI); not from inside a running event loop."""

        async def run() -> LoadedTable:
            try:
                return await self.get(key, compute, shape=shape)
            finally:
                await self.aclose()  # disk writes finish; the Redis client dies with the loop

        return asyncio.run(run())

    # The blocking steps of `HostTables`' lookup, in threads: the event loop goes on.
    async def _blocking(self, work: Callable[[], T]) -> T:
        return await asyncio.to_thread(work)

    async def _solving(self, work: Callable[[], T]) -> T:
        return await in_daemon_thread(work)

    async def _pause(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def redis_ping(self) -> bool | None:
        """None without a Redis layer; else whether Redis answers now.

        A failure is counted in `stats().redis_errors` and logged once per outage; a success
        after an outage logs `Redis back at ...` (redis-py reconnects by itself).
        """
        if self.redis is None:
            return None
        try:
            return await self.redis.ping()
        except RedisDown:
            return False

    async def publish(self, keys: Collection[TableKey] | None = None) -> int:
        """Write the tables this process holds (all, or those in `keys`) to Redis where Redis
        lacks them, e.g. after a Redis restart without persistence; returns how many.

        `SET NX`, so a table another replica published meanwhile is left alone; stops at the
        first Redis failure (counted and logged like any other).
        """
        if self.redis is None:
            return 0
        written = 0
        for key, array in list(self._memory.items()):
            if keys is not None and key not in keys:
                continue
            try:
                if await self.redis.exists(key):
                    continue
                blob = await asyncio.to_thread(encode, key, array)
                if await self.redis.put_if_absent(key, blob, self._ttl.get(key)):
                    written += 1
                    self._counters.published += 1
                    log.info("published table %s to Redis", key)
            except RedisDown:
                break
        return written

    def forget(self, key: TableKey) -> None:
        """Drop the process's copy of a table (an evicted on-demand table); the disk cache
        and Redis keep theirs."""
        self._memory.pop(key, None)
        self.disk.forget(key)

    def trim_disk(self, keep: Collection[TableKey]) -> int:
        """Delete the least recently used table files beyond the on-demand disk bound,
        whoever wrote them, sparing those of `keep` (the built-in tables); returns how many
        (`DiskCache.trim`)."""
        return self.disk.trim(self.settings.on_demand_disk_bytes, keep)

    def stats(self) -> StoreStats:
        return self._counters.snapshot(0 if self.redis is None else self.redis.errors)

    async def drain(self) -> None:
        """Wait for pending disk write-backs (tests, shutdown)."""
        while self._saving:
            await asyncio.wait(set(self._saving))

    async def aclose(self) -> None:
        """Finish pending disk writes and close the Redis connection."""
        await self.drain()
        if self.redis is not None:
            await self.redis.aclose()

    def _loaded(self, key: TableKey, task: asyncio.Task[tuple[FloatArray, Source]]) -> None:
        if self._loading.get(key) is task:
            del self._loading[key]
        if not task.cancelled():
            task.exception()  # retrieved here, so nobody gets "exception never retrieved"

    async def _write_back(self, key: TableKey, blob: bytes) -> None:
        self._save_later(key, blob)

    async def _from_replicas(
        self, key: TableKey, compute: Compute, shape: Shape | None
    ) -> _Found | None:
        if self.redis is None:
            return None
        try:
            return await self._through_redis(self.redis, key, compute, shape)
        except RedisDown:
            return None  # logged by RedisTables; compute here and leave Redis alone this time

    async def _through_redis(
        self, redis: RedisTables, key: TableKey, compute: Compute, shape: Shape | None
    ) -> _Found:
        """Redis hit, or compute under the lock, or wait for the replica holding it."""
        deadline = time.monotonic() + self.settings.wait_timeout
        waiting = False
        while True:
            found = await self._from_redis(redis, key, shape)
            if found is not None:
                return found
            token = await redis.try_lock(key)
            if token is not None:
                try:
                    # The holder may have finished between our GET and our lock.
                    found = await self._from_redis(redis, key, shape)
                    if found is not None:
                        return found
                    return await self._compute_shared(redis, key, compute, shape, token)
                finally:
                    with contextlib.suppress(RedisDown):
                        await redis.unlock(key, token)
            if time.monotonic() >= deadline:
                log.warning(
                    "waited %.0f s for another replica to compute table %s; computing it here",
                    self.settings.wait_timeout,
                    key,
                )
                return await self._compute_shared(redis, key, compute, shape, None)
            if not waiting:
                waiting = True
                self._counters.waits += 1
                log.info("another replica is computing table %s; waiting for it", key)
            await asyncio.sleep(self.settings.poll_interval)

    async def _compute_shared(
        self,
        redis: RedisTables,
        key: TableKey,
        compute: Compute,
        shape: Shape | None,
        token: str | None,
    ) -> _Found:
        """Compute (keeping the lock alive if we hold it), then publish to Redis."""
        keeper = None if token is None else asyncio.create_task(self._hold(redis, key, token))
        try:
            array = await self._compute(key, compute, shape)
        finally:
            if keeper is not None:
                keeper.cancel()
                await asyncio.wait([keeper])
        blob = await asyncio.to_thread(encode, key, array)
        with contextlib.suppress(RedisDown):
            await redis.put(key, blob, self._ttl.get(key))  # before the lock goes
        return _Found(array, "computed", blob)

    async def _hold(self, redis: RedisTables, key: TableKey, token: str) -> None:
        """Refresh the compute lock every ttl/3 so a long solve does not lose it."""
        while True:
            await asyncio.sleep(self.settings.lock_ttl / 3)
            try:
                still_ours = await redis.refresh(key, token)
            except RedisDown:
                return
            if not still_ours:
                log.warning(
                    "lost the compute lock for table %s; another replica may compute it", key
                )
                return

    async def _from_redis(
        self, redis: RedisTables, key: TableKey, shape: Shape | None
    ) -> _Found | None:
        blob = await redis.get(key)
        if blob is None:
            return None
        try:
            array = await asyncio.to_thread(decode, key, blob, shape)
        except CorruptTable as exc:
            self._counters.corrupt["redis"] += 1
            log.warning("discarded a corrupt table in Redis: %s", exc)
            await redis.delete(key)
            return None
        return _Found(array, "redis", blob)

    def _save_later(self, key: TableKey, blob: bytes) -> None:
        """Write to disk off the request's path (an fsync can take 100+ ms under load)."""
        task = asyncio.create_task(self._save(key, blob))
        self._saving.add(task)
        task.add_done_callback(self._saving.discard)
