"""Which solved tables this process holds, and loading the missing ones in the background.

The request path only ever *reads* tables here (`values_or_none`, `policy_table`): a table
that is not loaded yet gets a 503 with Retry-After and a background load, never an inline
solve.  Each scorecard game has a value table (the big one) and a max table (one number);
Yardkle has its policy table (32 KB), which `start` loads before the service takes requests.

While the service runs, a watchdog pings Redis every `redis_check_interval` seconds: the
`diceref_redis_up` gauge and the Redis error counter follow it, and when Redis answers again
after an outage the tables this process holds are written back to it where it lost them (a
restart without persistence), so that no replica has to solve them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.tables import (
    load_max_table,
    load_policy_table,
    load_value_table,
    value_key,
)
from diceref.games.yardkle import tables as yardkle
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES as YARDKLE_RULES
from diceref.http import metrics
from diceref.tables.key import TableKey
from diceref.tables.store import LoadedTable, TableStore

log = logging.getLogger("diceref.tables")
FloatArray = npt.NDArray[np.float64]


@dataclass
class TableState:
    kind: str  # value, max (scorecard games) or policy (Yardkle)
    game: str
    status: str = "missing"  # missing, queued, loading, ready, failed
    source: str | None = None  # memory, disk, redis or computed
    seconds: float | None = None
    error: str | None = None


class TableRegistry:
    def __init__(self, store: TableStore, owns_store: bool = True) -> None:
        self.store = store
        self._owns_store = owns_store
        self._values: dict[str, FloatArray] = {}
        self._max: dict[str, int] = {}
        self.states: dict[str, TableState] = {g: TableState("value", g) for g in SCORECARD_GAMES}
        self.max_states: dict[str, TableState] = {g: TableState("max", g) for g in SCORECARD_GAMES}
        self.policy_state = TableState("policy", yardkle.GAME)
        self.preload: tuple[str, ...] = ()
        self.redis_up: bool | None = None  # None: no Redis configured, or not checked yet
        self.exporter = metrics.StoreStatsExporter()
        self._queue: asyncio.Queue[str] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = asyncio.Event()

    # --- the request path: reads only ---------------------------------------------------

    def values_or_none(self, game: str) -> FloatArray | None:
        """The table if loaded; otherwise ask for it in the background and return None."""
        values = self._values.get(game)
        if values is None and self.states[game].status in ("missing", "failed"):
            self.request(game)
        return values

    async def max_score(self, game: str) -> int:
        """A game's maximum score: from the caches, else solved once in a worker thread
        (two seconds at most; the background load does it first for preloaded games)."""
        best = self._max.get(game)
        if best is None:
            state = self.max_states[game]
            started = time.perf_counter()
            loaded = await load_max_table(self.store, SCORECARD_GAMES[game])
            best = self._max[game] = round(float(loaded.array[0]))
            if state.status != "ready":
                self._record(state, loaded, time.perf_counter() - started)
                state.status = "ready"
        return best

    def request(self, game: str) -> None:
        """Queue a background load of `game`'s tables (a scorecard game, or "yardkle")."""
        if self._queue is None:
            return  # not started: nothing may load before the app's startup
        state = self.policy_state if game == yardkle.GAME else self.states[game]
        if state.status in ("queued", "loading", "ready"):
            return
        state.status = "queued"
        self._queue.put_nowait(game)

    # --- what /readyz reports -------------------------------------------------------------

    def all_states(self) -> list[TableState]:
        """Every table this process knows of, Yardkle's first, then by game."""
        rows = [self.policy_state]
        for game in SCORECARD_GAMES:
            rows += [self.states[game], self.max_states[game]]
        return rows

    def required(self) -> list[TableState]:
        """The tables readiness waits for: Yardkle's and the preloaded games' (both kinds)."""
        rows = [self.policy_state]
        for game in self.preload:
            rows += [self.states[game], self.max_states[game]]
        return rows

    def ready(self) -> bool:
        return all(s.status == "ready" for s in self.required())

    # --- lifecycle ------------------------------------------------------------------------

    async def start(self, games: tuple[str, ...], redis_check_interval: float = 5.0) -> None:
        self.preload = tuple(games)
        self._stopping = asyncio.Event()
        self._queue = asyncio.Queue()
        # Yardkle's table is tiny (a solve takes 0.1 s): loaded before requests come in, so
        # /yardkle/holds answers from the first request on.
        await self._load_policy()
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

    def put(self, game: str, values: FloatArray, source: str) -> None:
        self._values[game] = values
        state = self.states[game]
        state.status, state.source = "ready", source

    # --- loading --------------------------------------------------------------------------

    async def _work(self) -> None:
        """One game at a time: two solves at once would only share the same two cores."""
        assert self._queue is not None
        while not self._stopping.is_set():
            game = await self._queue.get()
            if game == yardkle.GAME:
                await self._load_policy()
                continue
            ruleset = SCORECARD_GAMES[game]
            state = self.states[game]
            loaded = await self._load(state, load_value_table(self.store, ruleset))
            if loaded is not None:
                self.put(game, loaded.array, loaded.source)
                await self._share_mapping(game, value_key(ruleset), loaded)
            max_state = self.max_states[game]
            if game not in self._max:
                best = await self._load(max_state, load_max_table(self.store, ruleset))
                if best is not None:
                    self._max[game] = round(float(best.array[0]))
                    max_state.status = "ready"
            self.exporter.sync(self.store.stats())

    async def _load_policy(self) -> None:
        state = self.policy_state
        state.status = "loading"
        loaded = await self._load(state, load_policy_table(self.store, YARDKLE_RULES))
        if loaded is not None:
            yardkle.install(YARDKLE_RULES, loaded.array)
            state.status, state.source = "ready", loaded.source
        self.exporter.sync(self.store.stats())

    async def _load(self, state: TableState, job: Awaitable[LoadedTable]) -> LoadedTable | None:
        """Await one table's load, recording state, metrics and a log line; None if it failed
        (the failure is logged, and the next request for the table tries again)."""
        state.status = "loading"
        started = time.perf_counter()
        try:
            loaded = await job
        except Exception as exc:  # a failed load must not kill the worker
            log.exception("loading the %s %s table failed", state.game, state.kind)
            state.status, state.error = "failed", repr(exc)
            metrics.TABLE_LOAD_FAILURES.labels(state.kind, state.game).inc()
            return None
        self._record(state, loaded, time.perf_counter() - started)
        return loaded

    @staticmethod
    def _record(state: TableState, loaded: LoadedTable, seconds: float) -> None:
        state.seconds, state.source, state.error = seconds, loaded.source, None
        metrics.observe_table_load(state.kind, state.game, loaded.source, seconds)
        log.info(
            "table %s/%s loaded from %s in %.3f s",
            state.kind,
            state.game,
            loaded.source,
            seconds,
            extra={"table": state.kind, "game": state.game, "source": loaded.source},
        )

    async def _share_mapping(self, game: str, key: TableKey, loaded: LoadedTable) -> None:
        """Serve the disk file's memory mapping instead of a private copy.

        A table that came from Redis or a solve is first held privately; the store writes it
        to disk in the background and then maps the file.  Switching to that mapping lets the
        workers of a host share one copy of the table in the page cache.
        """
        if loaded.source in ("disk", "memory"):
            return
        await self.store.drain()
        mapped = self.store.peek(key)
        if mapped is not None and mapped is not loaded.array:
            self._values[game] = mapped

    async def _watch_redis(self, interval: float) -> None:
        """Ping Redis every `interval` s; after an outage, publish what Redis lost."""
        while not self._stopping.is_set():
            up = await self.store.redis_ping()
            if up is not None:
                if up and self.redis_up is False:
                    log.info("Redis answers again; publishing the tables it lacks")
                    with contextlib.suppress(Exception):
                        await self.store.publish()
                self.redis_up = up
                metrics.REDIS_UP.set(1 if up else 0)
            for game in self.preload:  # a preload that failed (e.g. a full disk) retries
                if self.states[game].status == "failed":
                    self.request(game)
            self.exporter.sync(self.store.stats())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), interval)
