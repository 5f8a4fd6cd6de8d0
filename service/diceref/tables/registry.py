"""Which solved tables this process holds, and loading the missing ones in the background.

Every family describes its tables as `TableSpec`s; the registry serves them all alike and
knows no family.  The request path only ever *reads* tables here (`table`, `require`): a
table that is not loaded yet gets a 503 with Retry-After and a background load, never an
inline solve.  Specs marked `at_startup` (Yardkle's 32 KB policy table) are loaded by
`start`, before the service takes requests; the others when a request or `DICEREF_PRELOAD`
asks for their game, one game at a time (all of its tables in the order the family lists).

While the service runs, a watchdog pings Redis every `redis_check_interval` seconds: the
observer's Redis gauge follows it, and the tables this process holds are written to Redis
where it lacks them, at the first answer (tables loaded from disk at start-up), after each
load from disk, and when Redis answers again after an outage (a restart without
persistence), so that no replica has to solve them again.

The registry reports loads to a `LoadObserver` (the HTTP layer's Prometheus metrics), so that
this layer imports no web or metrics framework.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from diceref.core.arrays import FloatArray
from diceref.tables.key import TableKey
from diceref.tables.spec import TableNotLoaded, TableSpec
from diceref.tables.stats import StoreStats
from diceref.tables.store import LoadedTable, TableStore

log = logging.getLogger("diceref.tables")


class LoadObserver(Protocol):
    """What the registry tells the outside world (metrics) about its loads."""

    def loaded(self, kind: str, game: str, source: str, seconds: float) -> None: ...
    def failed(self, kind: str, game: str) -> None: ...
    def redis_up(self, up: bool) -> None: ...
    def store_stats(self, stats: StoreStats) -> None: ...


class NoObserver:
    """Observe nothing (tests, the CLI)."""

    def loaded(self, kind: str, game: str, source: str, seconds: float) -> None:
        pass

    def failed(self, kind: str, game: str) -> None:
        pass

    def redis_up(self, up: bool) -> None:
        pass

    def store_stats(self, stats: StoreStats) -> None:
        pass


@dataclass
class TableState:
    kind: str
    game: str
    status: str = "missing"  # missing, queued, loading, ready, failed
    source: str | None = None  # memory, disk, redis or computed
    seconds: float | None = None
    error: str | None = None


class TableRegistry:
    def __init__(
        self,
        store: TableStore,
        specs: Iterable[TableSpec],
        observer: LoadObserver | None = None,
        owns_store: bool = True,
    ) -> None:
        self.store = store
        self.observer: LoadObserver = observer or NoObserver()
        self._owns_store = owns_store
        self.specs: dict[TableKey, TableSpec] = {}
        self._by_game: dict[str, list[TableSpec]] = {}
        for spec in specs:
            self.specs[spec.key] = spec
            self._by_game.setdefault(spec.game, []).append(spec)
        self._tables: dict[TableKey, FloatArray] = {}
        self.states: dict[TableKey, TableState] = {
            key: TableState(s.kind, s.game) for key, s in self.specs.items()
        }
        self._game_status: dict[str, str] = dict.fromkeys(self._by_game, "missing")
        self.preload: tuple[str, ...] = ()
        self.redis_up: bool | None = None  # None: no Redis configured, or not checked yet
        self._queue: asyncio.Queue[str] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = asyncio.Event()
        # Tables this process loaded without Redis seeing them (from its disk, or computed
        # while Redis was down): published by the watchdog's next tick.
        self._unpublished: set[TableKey] = set()

    # --- the request path: reads only ---------------------------------------------------

    def table(self, spec: TableSpec) -> FloatArray | None:
        """The table if loaded; otherwise ask for its game in the background and return
        None."""
        table = self._tables.get(spec.key)
        if table is None:
            self.request(spec.game)
        return table

    def require(self, spec: TableSpec) -> FloatArray:
        """The table; `TableNotLoaded` (a 503 for the client) while it is loading."""
        table = self.table(spec)
        if table is None:
            raise TableNotLoaded(spec)
        return table

    def request(self, game: str) -> None:
        """Queue a background load of `game`'s tables."""
        if self._queue is None:
            return  # not started: nothing may load before the app's startup
        if self._game_status.get(game, "ready") in ("queued", "loading", "ready"):
            return
        self._game_status[game] = "queued"
        for spec in self._by_game[game]:
            if self.states[spec.key].status in ("missing", "failed"):
                self.states[spec.key].status = "queued"
        self._queue.put_nowait(game)

    def put(self, spec: TableSpec, table: FloatArray, source: str) -> None:
        """Serve `table` for `spec` from now on (tests, and the loads below)."""
        if table.flags.writeable:
            table.setflags(write=False)
        self._tables[spec.key] = table
        state = self.states[spec.key]
        state.status, state.source = "ready", source
        if all(self.states[s.key].status == "ready" for s in self._by_game[spec.game]):
            self._game_status[spec.game] = "ready"

    # --- what /readyz reports -------------------------------------------------------------

    def all_states(self) -> list[TableState]:
        """Every table this process knows of: the start-up ones first, then by game."""
        first = [self.states[k] for k, s in self.specs.items() if s.at_startup]
        return first + [self.states[k] for k, s in self.specs.items() if not s.at_startup]

    def required(self) -> list[TableState]:
        """The tables readiness waits for: the start-up ones and the preloaded games'."""
        return [
            self.states[k] for k, s in self.specs.items() if s.at_startup or s.game in self.preload
        ]

    def ready(self) -> bool:
        return all(s.status == "ready" for s in self.required())

    def preloadable(self) -> tuple[str, ...]:
        """The games DICEREF_PRELOAD may name: those with tables not loaded at start-up."""
        return tuple(g for g, specs in self._by_game.items() if not specs[0].at_startup)

    # --- lifecycle ------------------------------------------------------------------------

    async def start(self, games: tuple[str, ...], redis_check_interval: float = 5.0) -> None:
        self.preload = tuple(games)
        self._stopping = asyncio.Event()
        self._queue = asyncio.Queue()
        # Started again after a stop (a test's app, an ASGI lifespan restarted): loads that
        # were queued on the old queue are lost with it, so those games may be asked again.
        for game, status in self._game_status.items():
            if status in ("queued", "loading"):
                self._game_status[game] = "missing"
        for state in self.states.values():
            if state.status in ("queued", "loading"):
                state.status = "missing"
        # Small tables a route always needs (a solve takes 0.1 s): loaded before requests
        # come in, so those routes answer from the first request on.
        for game, specs in self._by_game.items():
            if any(s.at_startup for s in specs):
                await self._load_game(game)
        self._tasks.append(asyncio.create_task(self._work()))
        if self.store.redis is not None:
            self._tasks.append(asyncio.create_task(self._watch_redis(redis_check_interval)))
        for game in games:
            self.request(game)

    async def stop(self) -> None:
        """Stop the background tasks, within seconds even if a cancellation gets lost.

        redis-py can swallow a cancellation that lands inside a Redis call (the call just
        returns), so one `cancel()` is not enough: the loops also watch a stop flag, and
        the tasks are cancelled again until they are done.
        """
        self._stopping.set()
        for _ in range(50):
            pending = [t for t in self._tasks if not t.done()]
            if not pending:
                break
            for task in pending:
                task.cancel()
            await asyncio.wait(pending, timeout=0.1)
        else:
            log.warning("background table tasks did not stop; leaving them")
        for task in self._tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                log.error("a background table task failed", exc_info=task.exception())
        self._tasks.clear()
        if self._owns_store:
            await self.store.aclose()
        else:
            await self.store.drain()

    # --- loading --------------------------------------------------------------------------

    async def _work(self) -> None:
        """One game at a time: two solves at once would only share the same two cores."""
        assert self._queue is not None
        while not self._stopping.is_set():
            game = await self._queue.get()
            await self._load_game(game)

    async def _load_game(self, game: str) -> None:
        self._game_status[game] = "loading"
        for spec in self._by_game[game]:
            state = self.states[spec.key]
            if state.status == "ready":
                continue
            loaded = await self._load(state, spec)
            if loaded is not None:
                self.put(spec, loaded.array, loaded.source)
                await self._share_mapping(spec, loaded)
                if loaded.source in ("disk", "computed") and self.store.redis is not None:
                    self._unpublished.add(spec.key)
        if self._game_status[game] != "ready":
            self._game_status[game] = "failed"
        self.observer.store_stats(self.store.stats())

    async def _load(self, state: TableState, spec: TableSpec) -> LoadedTable | None:
        """Load one table, recording state, metrics and a log line; None if it failed
        (the failure is logged, and the next request for the table tries again)."""
        state.status = "loading"
        started = time.perf_counter()
        try:
            loaded = await self.store.get(spec.key, spec.compute(), shape=spec.shape)
        except Exception as exc:  # a failed load must not kill the worker
            log.exception("loading the %s %s table failed", state.game, state.kind)
            state.status, state.error = "failed", repr(exc)
            self.observer.failed(state.kind, state.game)
            return None
        self._record(state, loaded, time.perf_counter() - started)
        return loaded

    def _record(self, state: TableState, loaded: LoadedTable, seconds: float) -> None:
        state.seconds, state.source, state.error = seconds, loaded.source, None
        self.observer.loaded(state.kind, state.game, loaded.source, seconds)
        log.info(
            "table %s/%s loaded from %s in %.3f s",
            state.kind,
            state.game,
            loaded.source,
            seconds,
            extra={"table": state.kind, "game": state.game, "source": loaded.source},
        )

    async def _share_mapping(self, spec: TableSpec, loaded: LoadedTable) -> None:
        """Serve the disk file's memory mapping instead of a private copy.

        A table that came from Redis or a solve is first held privately; the store writes it
        to disk in the background and then maps the file.  Switching to that mapping lets the
        workers of a host share one copy of the table in the page cache.
        """
        if loaded.source in ("disk", "memory"):
            return
        await self.store.drain()
        mapped = self.store.peek(spec.key)
        if mapped is not None and mapped is not loaded.array:
            self._tables[spec.key] = mapped

    async def _watch_redis(self, interval: float) -> None:
        """Ping Redis every `interval` s and publish to it the tables this process holds
        that it lacks: all of them at the first answer (start-up: a replica whose tables
        came from its own disk, or were baked into its image, shares them, so that a fresh
        replica elsewhere need not solve them) and after an outage (a Redis restarted
        without persistence); in between, each table loaded from disk since the last tick.
        `publish` asks Redis first, so a table it has is not sent again."""
        while not self._stopping.is_set():
            up = await self.store.redis_ping()
            if up is not None:
                if up and self.redis_up is not True:
                    if self.redis_up is False:
                        log.info("Redis answers again; publishing the tables it lacks")
                    self._unpublished.clear()
                    with contextlib.suppress(Exception):
                        await self.store.publish()
                elif up and self._unpublished:
                    keys, self._unpublished = self._unpublished, set()
                    with contextlib.suppress(Exception):
                        await self.store.publish(keys)
                self.redis_up = up
                self.observer.redis_up(up)
            for game in self.preload:  # a preload that failed (e.g. a full disk) retries
                if self._game_status.get(game) == "failed":
                    self.request(game)
            self.observer.store_stats(self.store.stats())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), interval)
