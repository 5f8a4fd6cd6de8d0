"""`TableStore`: the lookup (`diceref.tables.lookup`) driven under asyncio, with Redis: the
service's store.  Blocking steps run in threads so the event loop keeps serving, concurrent
gets of one key share one load, and disk write-backs happen off the request's path.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Collection
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar, cast

import diceref.tables.lookup as policy
from diceref.core.arrays import FloatArray
from diceref.tables.codec import DTYPE, Shape, encode, stored_dtype
from diceref.tables.config import TableSettings
from diceref.tables.key import TableKey
from diceref.tables.lookup import Compute, LoadedTable, TableLookup
from diceref.tables.outage import RedisDown
from diceref.tables.stats import StoreStats

if TYPE_CHECKING:
    from diceref.tables.redis_store import RedisTables

log = logging.getLogger(__name__)

T = TypeVar("T")


async def in_daemon_thread(work: Callable[[], T], name: str = "table-solve") -> T:
    """`work()` in a daemon thread of its own, awaited like `asyncio.to_thread`.

    A solve takes seconds to minutes and cannot be interrupted from outside.  In the loop's
    default executor it would run in a non-daemon thread, which the process joins before it
    exits: a server told to stop (SIGTERM) during a solve would wait for it until granian
    kills the worker (DICEREF_SHUTDOWN_TIMEOUT).  A daemon thread is left behind instead;
    the registry also asks the solve to stop at its next progress report
    (`registry.SolveStopped`).
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


class TableStore(TableLookup):
    def __init__(self, settings: TableSettings) -> None:
        super().__init__(settings, shared=settings.redis_url is not None)
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
        self._loading: dict[TableKey, asyncio.Task[LoadedTable]] = {}
        self._saving: set[asyncio.Task[Any]] = set()

    async def get(
        self,
        key: TableKey,
        compute: Compute,
        *,
        shape: Shape | None = None,
        ttl: int | None = None,
        dtype: str = DTYPE,
        in_redis: bool = True,
    ) -> LoadedTable:
        """The table for `key`, from wherever it is cheapest; `compute` runs in a thread.
        `shape`, `ttl`, `dtype` and `in_redis` as `TableLookup.lookup` takes them."""
        return await self._drive(self.lookup(key, compute, shape, ttl, dtype, in_redis))

    def get_sync(
        self,
        key: TableKey,
        compute: Compute,
        *,
        shape: Shape | None = None,
        dtype: str = DTYPE,
        in_redis: bool = True,
    ) -> LoadedTable:
        """`get` for synchronous callers (the CLI); not from inside a running event loop."""

        async def run() -> LoadedTable:
            try:
                return await self.get(key, compute, shape=shape, dtype=dtype, in_redis=in_redis)
            finally:
                await self.aclose()  # disk writes finish; the Redis client dies with the loop

        return asyncio.run(run())

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

    async def publish(
        self, keys: Collection[TableKey] | None = None, skip: Collection[TableKey] = ()
    ) -> int:
        """Write the tables this process holds (all, or those in `keys`; never those in
        `skip`) to Redis where Redis lacks them, e.g. after a Redis restart without
        persistence; returns how many.

        `SET NX`, so a table another replica published meanwhile is left alone; stops at the
        first Redis failure (counted and logged like any other).
        """
        if self.redis is None:
            return 0
        written = 0
        for key, array in list(self._memory.items()):
            if (keys is not None and key not in keys) or key in skip:
                continue
            try:
                if await self.redis.exists(key):
                    continue
                blob = await asyncio.to_thread(encode, key, array, stored_dtype(array))
                if await self.redis.put_if_absent(key, blob, self._ttl.get(key)):
                    written += 1
                    self._counters.published += 1
                    log.info("published table %s to Redis", key)
            except RedisDown:
                break
        return written

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

    async def _drive(self, steps: policy.Steps[T]) -> T:
        """Run the steps to their end (a cancellation is thrown into the policy too, so
        that its locks are released)."""
        outcome = policy.Outcome()
        while not isinstance(step := policy.advance(steps, outcome), policy.Done):
            if isinstance(step, policy.Join) and step.key not in self._loading:
                # This get is the key's load: the rest runs in a task the later gets join,
                # shielded, so a caller that gives up does not cancel it for the others.
                task = asyncio.create_task(self._drive(steps))
                self._loading[step.key] = cast("asyncio.Task[LoadedTable]", task)
                task.add_done_callback(partial(self._loaded, step.key))
                return await asyncio.shield(task)
            try:
                outcome = policy.Outcome(await self._perform(step))
            except BaseException as exc:
                outcome = policy.Outcome(error=exc)
        return step.value

    async def _perform(self, step: policy.Step) -> Any:
        if isinstance(step, policy.Join):  # another get of this key is under way: share its table
            return (await asyncio.shield(self._loading[step.key])).array
        if isinstance(step, policy.Blocking):
            return await asyncio.to_thread(step.work)
        if isinstance(step, policy.Solve):
            return await self._solve(step)
        if isinstance(step, policy.Pause):
            await asyncio.sleep(step.seconds)
            return None
        if isinstance(step, policy.Later):
            self._later(step.steps)
            return None
        if self.redis is None:
            raise TypeError(f"no Redis configured: cannot perform {step!r}")
        return await step.call(self.redis)

    async def _solve(self, step: policy.Solve) -> FloatArray:
        """The solve in a daemon thread, with its keeper (of the Redis lock) alongside."""
        if step.alongside is None:
            return await in_daemon_thread(step.work)
        keeper = asyncio.create_task(self._drive(step.alongside))
        try:
            return await in_daemon_thread(step.work)
        finally:
            keeper.cancel()
            await asyncio.wait([keeper])

    def _loaded(self, key: TableKey, task: asyncio.Task[LoadedTable]) -> None:
        if self._loading.get(key) is task:
            del self._loading[key]
        if not task.cancelled():
            task.exception()  # retrieved here, so nobody gets "exception never retrieved"

    def _later(self, steps: policy.Steps[Any]) -> None:
        """Write to disk off the request's path: an fsync can take long under load."""
        task = asyncio.create_task(self._drive(steps))
        self._saving.add(task)
        task.add_done_callback(self._saving.discard)
