"""`HostTables`: a table from process memory, the local disk cache, or computed on this host
under its lock file; the store without Redis, and the part of `TableStore` that needs none.

The lookup is written once, as coroutines whose blocking steps (disk I/O, encoding, the
solve, the wait for the host lock) go through three methods.  Here each one is done before
it returns (the solve in a daemon thread the caller waits for), so that `get_sync`
(`diceref precompute` without `REDIS_URL`) drives the coroutines to their end without an
event loop: this module does not import asyncio, which costs a command some 25 ms (with
ssl and socket) to import.  `TableStore`
(`diceref.tables.store`) runs the same steps in threads under asyncio and adds Redis and
the sharing of concurrent gets.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray
from diceref.tables.codec import DTYPE, CorruptTable, encode
from diceref.tables.config import TableSettings
from diceref.tables.disk import DiskCache
from diceref.tables.key import TableKey
from diceref.tables.stats import Counters, Source, StoreStats

# One logger for every message of the store, whichever module writes it.
log = logging.getLogger("diceref.tables.store")

T = TypeVar("T")

Compute = Callable[[], npt.ArrayLike]
Shape = tuple[int, ...]


@dataclass(frozen=True)
class _Found:
    array: FloatArray
    source: Source
    blob: bytes | None  # the encoded table, when it still has to be written to disk


@dataclass(frozen=True)
class LoadedTable:
    array: FloatArray  # read-only
    source: Source  # where this get found it ("memory" also when it joined another get)
    seconds: float  # wall time of this get, waiting included


def sync_store(settings: TableSettings) -> HostTables:
    """The store for a synchronous command: `HostTables` without Redis (no event loop, no
    asyncio), a `TableStore` (whose `get_sync` runs one) with it."""
    if settings.redis_url is None:
        return HostTables(settings)
    from diceref.tables.store import TableStore

    return TableStore(settings)


class HostTables:
    def __init__(self, settings: TableSettings) -> None:
        self.settings = settings
        self.disk = DiskCache(settings.cache_dir)
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

    def get_sync(
        self, key: TableKey, compute: Compute, *, shape: Shape | None = None
    ) -> LoadedTable:
        """The table for `key` from memory or disk, or computed here (a lock file makes
        the processes of this host compute it once); `shape` as `TableStore.get` takes it.
        No event loop: the disk steps run in the calling thread, the solve in a daemon
        thread it waits for."""
        return _run_inline(self._timed_get(key, compute, shape))

    # The blocking steps of a load, each done before it returns; `TableStore` awaits them
    # in threads instead.
    async def _blocking(self, work: Callable[[], T]) -> T:
        """Disk I/O and encoding."""
        return work()

    async def _solving(self, work: Callable[[], T]) -> T:
        """The solve, in a daemon thread this one waits for (as `TableStore` solves in
        one): Ctrl-C then stops the command at once, where raised inside the solve it would
        first wait for the solver's queued work (2 s into a dice-poker solve)."""
        return _in_daemon_thread(work)

    async def _pause(self, seconds: float) -> None:
        """A wait for the host lock another process holds."""
        time.sleep(seconds)

    async def _timed_get(self, key: TableKey, compute: Compute, shape: Shape | None) -> LoadedTable:
        start = time.perf_counter()
        array, source = await self._get(key, compute, shape)
        seconds = time.perf_counter() - start
        self._counters.loaded(source, seconds)
        return LoadedTable(array, source, seconds)

    async def _get(
        self, key: TableKey, compute: Compute, shape: Shape | None
    ) -> tuple[FloatArray, Source]:
        array = self._memory.get(key)
        if array is not None:
            return array, "memory"
        return await self._load(key, compute, shape)

    async def _load(
        self, key: TableKey, compute: Compute, shape: Shape | None
    ) -> tuple[FloatArray, Source]:
        found = await self._find(key, compute, shape)
        self._memory[key] = found.array
        if found.blob is not None:
            await self._write_back(key, found.blob)
        return found.array, found.source

    async def _write_back(self, key: TableKey, blob: bytes) -> None:
        """Write a table found elsewhere than on disk to the disk cache: here before the
        get returns (`TableStore` does it off the request's path)."""
        await self._save(key, blob)

    async def _find(self, key: TableKey, compute: Compute, shape: Shape | None) -> _Found:
        array = await self._from_disk(key, shape)
        if array is not None:
            if key in self._ttl:  # an on-demand table: used now, so trimmed last
                await self._blocking(partial(self.disk.touch, key))
            return _Found(array, "disk", None)
        found = await self._from_replicas(key, compute, shape)
        if found is not None:
            return found
        return await self._compute_on_host(key, compute, shape)

    async def _from_replicas(
        self, key: TableKey, compute: Compute, shape: Shape | None
    ) -> _Found | None:
        """The table through what the replicas share (Redis, in `TableStore`); None to
        compute it on this host."""
        return None

    async def _compute_on_host(
        self, key: TableKey, compute: Compute, shape: Shape | None
    ) -> _Found:
        """Compute with no Redis to coordinate (none configured, or down): the workers of
        this host take turns through a lock file, and the one that computes writes the disk
        cache before letting go, so the others load its file instead of solving again."""
        lock = self.disk.lock(key)
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
                    break
                if not waiting:
                    waiting = True
                    self._counters.waits += 1
                    log.info("another worker of this host is computing table %s; waiting", key)
                await self._pause(self.settings.poll_interval)
        except OSError as exc:
            log.warning("cannot lock table %s (%s); computing it without the host lock", key, exc)
        try:
            if lock.held:
                array = await self._from_disk(key, shape)  # the previous holder's work
                if array is not None:
                    return _Found(array, "disk", None)
            array = await self._compute(key, compute, shape)
            blob = await self._blocking(partial(encode, key, array))
            if not lock.held:
                return _Found(array, "computed", blob)
            mapped = await self._save(key, blob)
            return _Found(array if mapped is None else mapped, "computed", None)
        finally:
            lock.release()

    async def _compute(self, key: TableKey, compute: Compute, shape: Shape | None) -> FloatArray:
        log.info("computing table %s", key)
        start = time.perf_counter()

        def run() -> FloatArray:
            array: FloatArray = np.asarray(compute(), dtype=DTYPE, order="C")
            return array

        array = await self._solving(run)
        if shape is not None and array.shape != tuple(shape):
            raise ValueError(f"computing table {key} gave shape {array.shape}, expected {shape}")
        array.flags.writeable = False
        log.info("computed table %s in %.2f s", key, time.perf_counter() - start)
        return array

    async def _from_disk(self, key: TableKey, shape: Shape | None) -> FloatArray | None:
        try:
            return await self._blocking(partial(self.disk.load, key, shape))
        except CorruptTable as exc:
            self._counters.corrupt["disk"] += 1
            log.warning("discarded a corrupt table file: %s", exc)
        except OSError as exc:
            self._counters.disk_errors += 1
            log.warning("could not read table %s from %s: %s", key, self.disk.directory, exc)
        return None

    async def _save(self, key: TableKey, blob: bytes) -> FloatArray | None:
        """Write the table to disk; the table mapped from its file, None if it failed."""
        try:
            mapped = await self._blocking(partial(self.disk.save, key, blob))
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


def _in_daemon_thread(work: Callable[[], T]) -> T:
    """`work()` in a daemon thread, waited for (interruptibly) by the calling thread."""
    done: Future[T] = Future()

    def run() -> None:
        try:
            done.set_result(work())
        except BaseException as exc:  # handed to the waiting thread
            done.set_exception(exc)

    threading.Thread(target=run, name="table-solve", daemon=True).start()
    return done.result()


def _run_inline(load: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never suspends (each of `HostTables`' steps is done
    before it returns), without an event loop."""
    try:
        load.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    load.close()
    raise RuntimeError("a table load waited for an event loop: use TableStore.get")
