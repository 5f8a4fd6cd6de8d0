"""The tables store's lookup policy, written once and blocking on nothing: process memory, a
load of the key already under way, the disk cache, Redis, then the solve, with the host lock
file and the Redis lock that make one worker or replica compute a table.

`TableLookup.lookup` is a generator (as the SDK's `exchange` is): it yields the steps below,
is sent each one's result or has its error thrown in, and returns the `LoadedTable`.
`HostTables` (`diceref.tables.host`) drives it inline, `TableStore` (`diceref.tables.store`)
under asyncio; see docs/tables.md for the order, the write-backs and the locks.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray
from diceref.tables.codec import DTYPE, CorruptTable, Shape, decode, encode, fits
from diceref.tables.config import TableSettings
from diceref.tables.disk import DiskCache, HostLock
from diceref.tables.key import TableKey
from diceref.tables.outage import RedisDown
from diceref.tables.stats import Counters, Source, StoreStats

if TYPE_CHECKING:
    from diceref.tables.redis_store import RedisTables

# One logger for every message of the store, whichever module writes it.
log = logging.getLogger("diceref.tables.store")

T = TypeVar("T")

Compute = Callable[[], npt.ArrayLike]


@dataclass(frozen=True)
class Layout:
    """What a table must be: its shape when known (None: any; a None axis: any length)
    and its dtype.  A stored table of another layout is treated as corrupt, a computed one
    raises ValueError."""

    shape: Shape | None = None
    dtype: str = DTYPE


@dataclass(frozen=True)
class Join:
    """Is a load of `key` under way in this process?  Its table, or None: then this lookup
    is the load that later lookups of the key join."""

    key: TableKey


@dataclass(frozen=True)
class Blocking:
    """Blocking work (disk I/O, encoding, decoding): `work()`, off the event loop if any."""

    work: Callable[[], Any]


@dataclass(frozen=True)
class Solve:
    """The solve, in a daemon thread (a stop or Ctrl-C leaves it behind rather than waiting
    for it); `alongside`, when given, is driven concurrently until the solve ends."""

    work: Callable[[], FloatArray]
    alongside: Steps[None] | None = None


@dataclass(frozen=True)
class Pause:
    """A wait before polling a lock again."""

    seconds: float


@dataclass(frozen=True)
class Later:
    """Steps the answer need not wait for (a disk write-back): run now, or in the background."""

    steps: Steps[Any]


@dataclass(frozen=True)
class RedisCall:
    """One call on the Redis client (raises `RedisDown`); only a lookup with Redis yields it."""

    call: Callable[[RedisTables], Awaitable[Any]]


Step = Join | Blocking | Solve | Pause | Later | RedisCall
Steps = Generator[Step, Any, T]


@dataclass(frozen=True)
class Outcome:
    """What a step gave the driver: its result, or the error it raised."""

    value: Any = None
    error: BaseException | None = None


@dataclass(frozen=True)
class Done(Generic[T]):
    """The policy's answer: the steps are over."""

    value: T


def advance(steps: Steps[T], outcome: Outcome) -> Step | Done[T]:
    """The next step once the last one's outcome is sent in (its error thrown in, so that
    the policy decides what it means), or the policy's answer."""
    try:
        return steps.send(outcome.value) if outcome.error is None else steps.throw(outcome.error)
    except StopIteration as done:
        return Done(done.value)


@dataclass(frozen=True)
class LoadedTable:
    array: FloatArray  # read-only
    source: Source  # where this get found it ("memory" also when it joined another get)
    seconds: float  # wall time of this get, waiting included


class SyncTables(Protocol):
    """A store a synchronous caller (the CLI, tests) gets tables from."""

    def get_sync(
        self,
        key: TableKey,
        compute: Compute,
        *,
        shape: Shape | None = None,
        dtype: str = DTYPE,
        in_redis: bool = True,
    ) -> LoadedTable: ...

    def forget(self, key: TableKey) -> None: ...


@dataclass(frozen=True)
class _Found:
    array: FloatArray
    source: Source
    blob: bytes | None  # the encoded table, when it still has to be written to disk


class TableLookup:
    """What every driver shares: the tables in memory, the disk cache, the counters, and
    the lookup.  `shared` says whether the lookup goes through Redis (the driver's client)."""

    def __init__(self, settings: TableSettings, *, shared: bool) -> None:
        self.settings = settings
        self.disk = DiskCache(settings.cache_dir)
        self.shared = shared
        self._memory: dict[TableKey, FloatArray] = {}
        self._counters = Counters()
        self._ttl: dict[TableKey, int] = {}  # Redis expiry of on-demand tables, seconds

    def peek(self, key: TableKey) -> FloatArray | None:
        """The table if this process already holds it; never loads or computes.

        For request handlers: a request must not be able to trigger a solve.  Not counted
        in `stats()`, which would otherwise count requests rather than loads.
        """
        return self._memory.get(key)

    def stats(self) -> StoreStats:
        return self._counters.snapshot(redis_errors=0)

    def forget(self, key: TableKey) -> None:
        """Drop the process's copy of a table (an evicted on-demand table, or one
        `diceref precompute` has written); the disk cache and Redis keep theirs."""
        self._memory.pop(key, None)
        self._ttl.pop(key, None)  # asked for again, the lookup is told its TTL again
        self.disk.forget(key)

    def lookup(
        self,
        key: TableKey,
        compute: Compute,
        shape: Shape | None,
        ttl: int | None = None,
        dtype: str = DTYPE,
        in_redis: bool = True,
    ) -> Steps[LoadedTable]:
        """The table for `key`.  `shape`, when given, is what the table must have, and
        `dtype` its dtype (`Layout`).  `ttl`: Redis keeps the table this many seconds (an
        on-demand table), else for good.  `in_redis` False: Redis is left out (the table is
        found on disk or computed on this host), as for a store without Redis."""
        start = time.perf_counter()
        if ttl is not None:
            self._ttl[key] = ttl
        layout = Layout(shape, dtype)
        array, source = yield from self._get(key, compute, layout, in_redis)
        seconds = time.perf_counter() - start
        self._counters.loaded(source, seconds)
        return LoadedTable(array, source, seconds)

    def _get(
        self, key: TableKey, compute: Compute, layout: Layout, in_redis: bool
    ) -> Steps[tuple[FloatArray, Source]]:
        array = self._memory.get(key)
        if array is not None:
            return array, "memory"
        shared: FloatArray | None = yield Join(key)
        if shared is not None:
            return shared, "memory"
        found = yield from self._find(key, compute, layout, in_redis)
        self._memory[key] = found.array
        if found.blob is not None:  # found elsewhere than on disk: written there
            yield Later(self._save(key, found.blob))
        return found.array, found.source

    def _find(
        self, key: TableKey, compute: Compute, layout: Layout, in_redis: bool
    ) -> Steps[_Found]:
        array = yield from self._from_disk(key, layout)
        if array is not None:
            if key in self._ttl:  # an on-demand table: used now, so trimmed last
                yield Blocking(partial(self.disk.touch, key))
            return _Found(array, "disk", None)
        if self.shared and in_redis:
            try:
                return (yield from self._through_redis(key, compute, layout))
            except RedisDown:
                pass  # logged by RedisTables; compute here and leave Redis alone this time
        return (yield from self._compute_on_host(key, compute, layout))

    def _compute_on_host(self, key: TableKey, compute: Compute, layout: Layout) -> Steps[_Found]:
        """Compute with no Redis to coordinate (none configured, or down): the workers of
        this host take turns through a lock file, and the one that computes writes the disk
        cache before letting go, so the others load its file instead of solving again."""
        lock = self.disk.lock(key)
        try:
            yield from self._take_host_lock(key, lock)
            if lock.held:
                array = yield from self._from_disk(key, layout)  # the last holder's work
                if array is not None:
                    return _Found(array, "disk", None)
            array = yield from self._compute(key, compute, layout)
            blob: bytes = yield Blocking(partial(encode, key, array, layout.dtype))
            if not lock.held:
                return _Found(array, "computed", blob)
            mapped = yield from self._save(key, blob)
            return _Found(array if mapped is None else mapped, "computed", None)
        finally:
            lock.release()

    def _take_host_lock(self, key: TableKey, lock: HostLock) -> Steps[None]:
        """Wait for the host lock up to `wait_timeout`; past it, or if the lock cannot be
        taken at all, go on without it.  The lock file is locked and closed here, not in a
        step: neither blocks, and a get that gave up must not take the lock afterwards."""
        deadline = time.monotonic() + self.settings.wait_timeout
        waiting = False
        try:
            while not lock.try_acquire():
                if time.monotonic() >= deadline:
                    log.warning(
                        "waited %.0f s for another worker to compute table %s; computing it here",
                        self.settings.wait_timeout,
                        key,
                    )
                    return
                if not waiting:
                    waiting = True
                    self._counters.waits += 1
                    log.info("another worker of this host is computing table %s; waiting", key)
                yield Pause(self.settings.poll_interval)
        except OSError as exc:
            log.warning("cannot lock table %s (%s); computing it without the host lock", key, exc)

    def _through_redis(self, key: TableKey, compute: Compute, layout: Layout) -> Steps[_Found]:
        """Redis hit, or compute under the Redis lock, or wait for the replica holding it."""
        deadline = time.monotonic() + self.settings.wait_timeout
        waiting = False
        while True:
            found = yield from self._from_redis(key, layout)
            if found is not None:
                return found
            token: str | None = yield RedisCall(lambda redis: redis.try_lock(key))
            if token is not None:
                try:
                    # The holder may have finished between our GET and our lock.
                    found = yield from self._from_redis(key, layout)
                    if found is not None:
                        return found
                    return (yield from self._compute_shared(key, compute, layout, token))
                finally:
                    yield from self._unlock(key, token)
            if time.monotonic() >= deadline:
                log.warning(
                    "waited %.0f s for another replica to compute table %s; computing it here",
                    self.settings.wait_timeout,
                    key,
                )
                return (yield from self._compute_shared(key, compute, layout, None))
            if not waiting:
                waiting = True
                self._counters.waits += 1
                log.info("another replica is computing table %s; waiting for it", key)
            yield Pause(self.settings.poll_interval)

    def _compute_shared(
        self, key: TableKey, compute: Compute, layout: Layout, token: str | None
    ) -> Steps[_Found]:
        """Compute (keeping the Redis lock alive if we hold it), then publish to Redis."""
        keeper = None if token is None else self._hold(key, token)
        array = yield from self._compute(key, compute, layout, keeper)
        blob: bytes = yield Blocking(partial(encode, key, array, layout.dtype))
        ttl = self._ttl.get(key)
        with contextlib.suppress(RedisDown):
            yield RedisCall(lambda redis: redis.put(key, blob, ttl))  # before the lock goes
        return _Found(array, "computed", blob)

    def _unlock(self, key: TableKey, token: str) -> Steps[None]:
        with contextlib.suppress(RedisDown):
            yield RedisCall(lambda redis: redis.unlock(key, token))

    def _hold(self, key: TableKey, token: str) -> Steps[None]:
        """Refresh the Redis lock every ttl/3 so a long solve does not lose it."""
        while True:
            yield Pause(self.settings.lock_ttl / 3)
            try:
                still_ours = yield RedisCall(lambda redis: redis.refresh(key, token))
            except RedisDown:
                return
            if not still_ours:
                log.warning(
                    "lost the compute lock for table %s; another replica may compute it", key
                )
                return

    def _from_redis(self, key: TableKey, layout: Layout) -> Steps[_Found | None]:
        blob: bytes | None = yield RedisCall(lambda redis: redis.get(key))
        if blob is None:
            return None
        try:
            array: FloatArray = yield Blocking(
                partial(decode, key, blob, layout.shape, layout.dtype)
            )
        except CorruptTable as exc:
            self._counters.corrupt["redis"] += 1
            log.warning("discarded a corrupt table in Redis: %s", exc)
            yield RedisCall(lambda redis: redis.delete(key))
            return None
        return _Found(array, "redis", blob)

    def _compute(
        self,
        key: TableKey,
        compute: Compute,
        layout: Layout,
        alongside: Steps[None] | None = None,
    ) -> Steps[FloatArray]:
        log.info("computing table %s", key)
        start = time.perf_counter()

        def run() -> FloatArray:
            array: FloatArray = np.asarray(compute(), dtype=layout.dtype, order="C")
            return array

        array: FloatArray = yield Solve(run, alongside)
        if layout.shape is not None and not fits(array.shape, layout.shape):
            raise ValueError(
                f"computing table {key} gave shape {array.shape}, expected {layout.shape}"
            )
        array.flags.writeable = False
        log.info("computed table %s in %.2f s", key, time.perf_counter() - start)
        return array

    def _from_disk(self, key: TableKey, layout: Layout) -> Steps[FloatArray | None]:
        try:
            array: FloatArray | None = yield Blocking(
                partial(self.disk.load, key, layout.shape, layout.dtype)
            )
        except CorruptTable as exc:
            self._counters.corrupt["disk"] += 1
            log.warning("discarded a corrupt table file: %s", exc)
        except OSError as exc:
            self._counters.disk_errors += 1
            log.warning("could not read table %s from %s: %s", key, self.disk.directory, exc)
        else:
            return array
        return None

    def _save(self, key: TableKey, blob: bytes) -> Steps[FloatArray | None]:
        """Write the table to disk; the table mapped from its file, None if it failed."""
        try:
            mapped: FloatArray = yield Blocking(partial(self.disk.save, key, blob))
        except (OSError, CorruptTable) as exc:
            self._counters.disk_errors += 1
            log.warning(
                "could not write table %s to %s: %s; serving it from memory only",
                key,
                self.disk.directory,
                exc,
            )
            return None
        if key in self._memory:
            # From now on serve the file's mapping, which all workers of the host share;
            # the private copy goes away once the callers holding it let go.
            self._memory[key] = mapped
        return mapped
