"""Which solved tables this process holds, and loading the missing ones in the background.

Every family describes its tables as `TableSpec`s; the registry serves them all alike and
knows no family.  The request path only ever *reads* tables here (`table`, `require`): a
table not loaded yet gets a 503 with Retry-After and a background load, never an inline
solve.  Specs marked `at_startup` load before the service takes requests; the others when a
request or `DICEREF_PRELOAD` asks for their game.  A watchdog pings Redis and writes back
the tables Redis lacks (docs/tables.md); loads are reported to a `LoadObserver`, so that
this layer imports no web or metrics framework.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy.typing as npt

from diceref.core.arrays import FloatArray
from diceref.core.cache import MemoryBudget
from diceref.tables.key import TableKey
from diceref.tables.lookup import LoadedTable
from diceref.tables.solver_pool import SolverPool
from diceref.tables.spec import TableNotLoaded, TableSpec
from diceref.tables.stats import StoreStats
from diceref.tables.store import TableStore

log = logging.getLogger("diceref.tables")


class LoadObserver(Protocol):
    """What the registry tells the outside world (metrics) about its loads."""

    def loaded(self, kind: str, game: str, source: str, seconds: float) -> None: ...
    def failed(self, kind: str, game: str) -> None: ...
    def redis_up(self, up: bool) -> None: ...
    def store_stats(self, stats: StoreStats) -> None: ...
    def solver_pool_restarted(self) -> None: ...


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

    def solver_pool_restarted(self) -> None:
        pass


@dataclass
class TableState:
    kind: str
    game: str
    status: str = "missing"  # missing, queued, loading, ready, failed
    source: str | None = None  # memory, disk, redis or computed
    seconds: float | None = None
    error: str | None = None
    progress: float = 0.0  # of a solve under way, 0..1 (1 once ready)
    on_demand: bool = False  # asked for by a request (house rules), not a built-in game's


# A group of tables: the tables of one game under one set of rules (its rules hash), loaded
# together and in the order listed; a spec's own `group` (play to win) loads apart.
GroupKey = tuple[str, str, str]


def group_of(spec: TableSpec) -> GroupKey:
    return (spec.game, spec.rules_hash, spec.group)


class SolveStopped(RuntimeError):
    """Raised from a solve's progress report once the registry is stopping: the solve ends
    at its next report instead of running on (seconds to minutes of CPU) for a process
    that is shutting down."""


class SolveQueueFull(RuntimeError):
    """Too many rulesets are waiting for a solve on this replica: the request is refused
    (a 429 with Retry-After), and nothing is queued."""

    def __init__(self, waiting: int) -> None:
        super().__init__(f"{waiting} rulesets are waiting for a solve")
        self.waiting = waiting


@dataclass(frozen=True)
class GroupStatus:
    """Where the tables of one ruleset stand, as `POST /rulesets` and a 503 report it."""

    status: str  # ready, solving, queued, failed, missing
    progress: float  # 0..1 over the group's tables
    error: str | None = None


class TableRegistry:
    def __init__(
        self,
        store: TableStore,
        specs: Iterable[TableSpec],
        observer: LoadObserver | None = None,
        owns_store: bool = True,
        budget: MemoryBudget | None = None,
        spare: Iterable[TableSpec] = (),
    ) -> None:
        """`budget`: the process's byte budget for what it keeps per ruleset (the served
        app's is `diceref.core.cache.BUDGET`); its limit becomes the on-demand memory bound,
        and the on-demand tables held here count against it with the caches' entries.
        `spare`: tables solved on demand that disk trimming keeps as it keeps the built-in
        ones (built-in games' play-to-win tables, which take minutes to solve), and that
        start-up loads when they are already on disk."""
        self._spare_specs = tuple(spare)
        self._spare = frozenset(spec.key for spec in self._spare_specs)
        self.store = store
        self.observer: LoadObserver = observer or NoObserver()
        self._owns_store = owns_store
        self.specs: dict[TableKey, TableSpec] = {}
        self._groups: dict[GroupKey, list[TableSpec]] = {}
        self._builtin: dict[str, GroupKey] = {}  # a built-in game's group
        self.states: dict[TableKey, TableState] = {}
        self._group_status: dict[GroupKey, str] = {}
        for spec in specs:
            self._add(spec, on_demand=False)
            self._builtin.setdefault(spec.game, group_of(spec))
        self._tables: dict[TableKey, FloatArray] = {}
        self.preload: tuple[str, ...] = ()
        self.redis_up: bool | None = None  # None: no Redis configured, or not checked yet
        self._queue: asyncio.Queue[GroupKey] | None = None
        # Tables asked for on demand (house rules): solved by their own workers in their
        # own processes, behind a bounded queue, held in memory up to a byte bound (least
        # recently used evicted), and on disk likewise.
        settings = store.settings
        self._on_demand_queue: asyncio.Queue[GroupKey] | None = None
        self._pool = SolverPool(
            settings.max_solves,
            kernel_dir=settings.kernel_dir,
            on_replaced=lambda: self.observer.solver_pool_restarted(),
        )
        self._recent: OrderedDict[TableKey, int] = OrderedDict()  # on-demand, in memory
        self._budget = budget
        if budget is not None:
            budget.limit = settings.on_demand_memory_bytes
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = asyncio.Event()
        # Tables this process loaded without Redis seeing them (from its disk, or computed
        # while Redis was down): published by the watchdog's next tick.
        self._unpublished: set[TableKey] = set()
        # When each group's last load failed: it is tried again when asked, but not before
        # `retry_failed_after` seconds, so that every client polling learns of the failure
        # (`failed`), and a solve that fails every time is not run again on every request.
        self._failed_at: dict[GroupKey, float] = {}
        self.retry_failed_after = settings.failed_retry_seconds

    # --- the request path: reads only ---------------------------------------------------

    def table(self, spec: TableSpec) -> FloatArray | None:
        """The table if loaded; otherwise ask for it in the background and return None.

        A spec the registry has not seen (a house-rules variant) is admitted on demand:
        `SolveQueueFull` if too many are already waiting."""
        table = self._tables.get(spec.key)
        if table is not None and self.store.disk.changed(spec.key):
            self._unload(spec)
            table = None
        if table is None:
            self.admit((spec,))
        elif spec.key in self._recent:
            self._recent.move_to_end(spec.key)
        return table

    def _unload(self, spec: TableSpec) -> None:
        """Stop serving a table whose file was written or truncated in place since it was
        mapped (its mapping would show the new bytes, or kill the process past the new
        end): it is loaded again, and the load finds the file corrupt (counted, deleted)
        and fetches or solves the table anew."""
        log.warning(
            "the file of table %s changed in place since it was mapped; loading it again",
            spec.key,
        )
        self._tables.pop(spec.key, None)
        self._recent.pop(spec.key, None)
        self.store.forget(spec.key)
        state = self.states[spec.key]
        state.status, state.source, state.progress = "missing", None, 0.0
        group = group_of(spec)
        if self._group_status[group] == "ready":
            self._group_status[group] = "missing"

    def require(self, spec: TableSpec) -> FloatArray:
        """The table; `TableNotLoaded` (a 503 for the client) while it is loading."""
        table = self.table(spec)
        if table is None:
            raise TableNotLoaded(spec)
        return table

    def request(self, game: str) -> None:
        """Queue a background load of a built-in game's tables."""
        self._request_group(self._builtin[game])

    def admit(self, specs: Sequence[TableSpec]) -> GroupStatus:
        """Ask for these tables of one ruleset (loaded or solved in the background, in
        this order) and say where they stand; a spec not seen before is an on-demand one.

        Raises `SolveQueueFull` when the ruleset would have to wait behind more than
        `solve_queue_size` others (nothing is queued then)."""
        group = group_of(specs[0])
        new = [s for s in specs if s.key not in self.specs]
        status = self._group_status.get(group, "missing")
        queues = status not in ("queued", "loading", "ready") or (bool(new) and status == "ready")
        queues = queues and not self._waits_after_failure(group)
        on_demand = bool(new) or self._is_on_demand(group)
        waiting = self._on_demand_queue
        if queues and on_demand and waiting is not None and waiting.full():
            raise SolveQueueFull(waiting.qsize())
        for spec in new:
            self._add(spec, on_demand=True)
        if new and status == "ready":
            self._group_status[group] = "missing"  # a table added to a ready group
        self._request_group(group)
        return self.group_status(group)

    def group_status(self, group: GroupKey) -> GroupStatus:
        specs = self._groups[group]
        states = [self.states[s.key] for s in specs]
        progress = sum(1.0 if t.status == "ready" else t.progress for t in states) / len(states)
        status = self._group_status[group]
        if status == "loading":
            status = "solving"
        error = next((t.error for t in states if t.error), None)
        return GroupStatus(status, round(progress, 4), error if status == "failed" else None)

    def status_of(self, spec: TableSpec) -> GroupStatus:
        """Where the ruleset of `spec` stands (`missing` for one never asked for)."""
        group = group_of(spec)
        if group not in self._groups:
            return GroupStatus("missing", 0.0)
        return self.group_status(group)

    def _add(self, spec: TableSpec, on_demand: bool) -> None:
        group = group_of(spec)
        self.specs[spec.key] = spec
        self._groups.setdefault(group, []).append(spec)
        self.states[spec.key] = TableState(spec.kind, spec.game, on_demand=on_demand)
        self._group_status.setdefault(group, "missing")

    def _request_group(self, group: GroupKey, queue: asyncio.Queue[GroupKey] | None = None) -> None:
        """Queue a background load of `group`: on `queue` if given, else on the built-in
        games' queue or, for an on-demand group, on the bounded on-demand one."""
        if self._queue is None or self._on_demand_queue is None:
            return  # not started: nothing may load before the app's startup
        if self._group_status[group] in ("queued", "loading", "ready"):
            return
        if self._waits_after_failure(group):
            return
        if queue is None:
            on_demand = self._is_on_demand(group)
            queue = self._on_demand_queue if on_demand else self._queue
            if on_demand and queue.full():
                raise SolveQueueFull(queue.qsize())
        self._group_status[group] = "queued"
        for spec in self._groups[group]:
            if self.states[spec.key].status in ("missing", "failed"):
                self.states[spec.key].status = "queued"
        queue.put_nowait(group)

    def _waits_after_failure(self, group: GroupKey) -> bool:
        """Whether a failed on-demand group is still within its wait before being tried
        again (a built-in game's is tried again at once: the watchdog retries a failed
        preload on every tick)."""
        failed_at = self._failed_at.get(group)
        if failed_at is None or self._group_status.get(group) != "failed":
            return False
        if not self._is_on_demand(group):
            return False
        return time.monotonic() - failed_at < self.retry_failed_after

    def _is_on_demand(self, group: GroupKey) -> bool:
        return any(self.states[s.key].on_demand for s in self._groups.get(group, ()))

    def put(self, spec: TableSpec, table: FloatArray, source: str) -> None:
        """Serve `table` for `spec` from now on (tests, and the loads below)."""
        if spec.key not in self.specs:
            self._add(spec, on_demand=True)
        if table.flags.writeable:
            table.setflags(write=False)
        self._tables[spec.key] = table
        state = self.states[spec.key]
        state.status, state.source, state.progress = "ready", source, 1.0
        group = group_of(spec)
        if all(self.states[s.key].status == "ready" for s in self._groups[group]):
            self._group_status[group] = "ready"
            self._failed_at.pop(group, None)
        # The spare tables are not counted: they are few (a built-in game's play-to-win
        # ones), mapped from their files and so shared by the workers in the page cache,
        # whereas the bound keeps a flood of house rules from growing the process.
        if state.on_demand and spec.key not in self._spare:
            self._recent[spec.key] = table.nbytes
            self._recent.move_to_end(spec.key)
            self._evict(keep=spec.key)
            self._charge_budget()

    def _charge_budget(self) -> None:
        """Count the on-demand tables held against the byte budget (the caches' entries
        beyond it are dropped)."""
        if self._budget is not None:
            self._budget.charge(f"tables-{id(self):x}", sum(self._recent.values()))

    def _evict(self, keep: TableKey) -> None:
        """Forget the least recently used on-demand rulesets beyond the memory bound, their
        tables and their states (a later request admits one again, and loads it from disk
        or Redis if they still hold it), so that a flood of house rules cannot grow the
        process without end.

        Whole rulesets go, oldest first, until the bound holds or only the one of `keep`
        and those still loading are left: the candidates are listed before any is evicted,
        so evicting one never leaves a stale entry (its other tables) to trip over."""
        bound = self.store.settings.on_demand_memory_bytes
        if self._budget is not None:  # what the caches hold is taken from the same budget
            bound -= self._budget.cached
        held = sum(self._recent.values())
        kept = group_of(self.specs[keep])
        candidates = dict.fromkeys(group_of(self.specs[key]) for key in self._recent)
        for group in candidates:
            if held <= bound:
                return
            if group == kept or self._group_status[group] in ("queued", "loading"):
                continue
            for spec in self._groups.pop(group):
                held -= self._recent.pop(spec.key, 0)
                self._tables.pop(spec.key, None)
                self.store.forget(spec.key)
                del self.specs[spec.key], self.states[spec.key]
            del self._group_status[group]
            self._failed_at.pop(group, None)
            log.info("evicted the on-demand tables of %s/%s from memory", group[0], group[1])

    # --- what /readyz reports -------------------------------------------------------------

    def all_states(self) -> list[TableState]:
        """Every built-in table this process knows of: the start-up ones first, then by
        game (on-demand tables are counted by `on_demand_counts`, not listed: a flood of
        house rules must not grow `/readyz`)."""
        builtin = {k: s for k, s in self.specs.items() if not self.states[k].on_demand}
        first = [self.states[k] for k, s in builtin.items() if s.at_startup]
        return first + [self.states[k] for k, s in builtin.items() if not s.at_startup]

    def on_demand_counts(self) -> dict[str, int]:
        """How many on-demand tables are in each status."""
        counts: dict[str, int] = {}
        for state in self.states.values():
            if state.on_demand:
                counts[state.status] = counts.get(state.status, 0) + 1
        return counts

    def required(self) -> list[TableState]:
        """The tables readiness waits for: the start-up ones and the preloaded games'."""
        return [
            state
            for k, s in self.specs.items()
            if not (state := self.states[k]).on_demand and (s.at_startup or s.game in self.preload)
        ]

    def ready(self) -> bool:
        return all(s.status == "ready" for s in self.required())

    def preloadable(self) -> tuple[str, ...]:
        """The games DICEREF_PRELOAD may name: those with tables not loaded at start-up."""
        return tuple(
            g for g, group in self._builtin.items() if not self._groups[group][0].at_startup
        )

    # --- lifecycle ------------------------------------------------------------------------

    async def start(self, games: tuple[str, ...], redis_check_interval: float = 5.0) -> None:
        self.preload = tuple(games)
        self._stopping = asyncio.Event()
        self._queue = asyncio.Queue()
        self._on_demand_queue = asyncio.Queue(self.store.settings.solve_queue_size)
        # Started again after a stop (a test's app, an ASGI lifespan restarted): loads that
        # were queued on the old queue are lost with it, so those games may be asked again.
        for group, status in self._group_status.items():
            if status in ("queued", "loading"):
                self._group_status[group] = "missing"
        for state in self.states.values():
            if state.status in ("queued", "loading"):
                state.status = "missing"
        # Small tables a route always needs (quick to solve): loaded before requests
        # come in, so those routes answer from the first request on.
        for group in self._builtin.values():
            if any(s.at_startup for s in self._groups[group]):
                await self._load_group(group)
        # The files earlier runs left (or a bound lowered since) fit the bound before any
        # house rules are asked for.
        await asyncio.to_thread(self.store.trim_disk, self._builtin_keys())
        self._tasks.append(asyncio.create_task(self._work(self._queue)))
        for _ in range(self.store.settings.max_solves):
            self._tasks.append(asyncio.create_task(self._work(self._on_demand_queue)))
        if self.store.redis is not None:
            self._tasks.append(asyncio.create_task(self._watch_redis(redis_check_interval)))
        for game in games:
            self.request(game)
        # Spare tables an earlier run or `diceref precompute --target` left on disk: mapped
        # now, behind the preloaded games, so that their first request is answered rather
        # than a 503 (milliseconds each; readiness does not wait for them).
        for spec in self._spare_specs:
            if self.store.disk.path(spec.key).is_file():
                if spec.key not in self.specs:
                    self._add(spec, on_demand=True)
                self._request_group(group_of(spec), queue=self._queue)

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
        self._pool.shutdown()
        if self._budget is not None:
            self._budget.charge(f"tables-{id(self):x}", 0)
        if self._owns_store:
            await self.store.aclose()
        else:
            await self.store.drain()

    # --- loading --------------------------------------------------------------------------

    async def _work(self, queue: asyncio.Queue[GroupKey]) -> None:
        """One group at a time per worker: the built-in games have one worker (two solves
        at once would only share the same two cores), on-demand rulesets `max_solves`."""
        while not self._stopping.is_set():
            group = await queue.get()
            try:
                await self._load_group(group)
            except Exception:  # a bug must not cost the queue its worker: it would stall
                log.exception("loading the %s tables of %s failed", group[0], group[1])
                self._group_status[group] = "failed"
                self._failed_at[group] = time.monotonic()

    async def _load_group(self, group: GroupKey) -> None:
        self._group_status[group] = "loading"
        for spec in self._groups[group]:
            state = self.states[spec.key]
            if state.status == "ready":
                continue
            loaded = await self._load(state, spec)
            if loaded is not None:
                if spec.warm is None:
                    self.put(spec, loaded.array, loaded.source)
                    await self._share_mapping(spec, loaded)
                else:  # warmed on the array it will be served as, before any request
                    table = await self._mapping(spec, loaded)
                    await self._warm(spec, table)
                    self.put(spec, table, loaded.source)
                shared = self.store.redis is not None and spec.in_redis
                if loaded.source in ("disk", "computed") and shared:
                    self._unpublished.add(spec.key)
        if all(self.states[s.key].status == "ready" for s in self._groups[group]):
            # Every table in, whether loaded now or before (a group asked for again after
            # a restart, or with its tables put by hand): `put` marks a group ready only
            # as it puts its last table, and none was put here.
            self._group_status[group] = "ready"
            self._failed_at.pop(group, None)
        else:
            self._group_status[group] = "failed"
            self._failed_at[group] = time.monotonic()
        if self._is_on_demand(group):
            await asyncio.to_thread(self.store.trim_disk, self._builtin_keys())
        self.observer.store_stats(self.store.stats())

    def _not_in_redis(self) -> set[TableKey]:
        """The tables Redis is never given (`TableSpec.in_redis`), whatever this process
        holds."""
        specs = (*self.specs.values(), *self._spare_specs)
        return {spec.key for spec in specs if not spec.in_redis}

    def _builtin_keys(self) -> set[TableKey]:
        """The tables trimming the disk spares: every other file there is an on-demand one
        (this process's, another worker's, an earlier run's) or a stale one."""
        return {k for k, state in self.states.items() if not state.on_demand} | self._spare

    async def _load(self, state: TableState, spec: TableSpec) -> LoadedTable | None:
        """Load one table, recording state, metrics and a log line; None if it failed
        (the failure is logged; the next request for the table tries again, for an on-demand
        one once `retry_failed_after` has passed).

        An on-demand table is solved in the solver pool's processes (see `solver_pool`)
        and kept in Redis for `on_demand_redis_ttl` seconds."""
        state.status = "loading"
        state.progress = 0.0
        started = time.perf_counter()

        def report(fraction: float) -> None:
            state.progress = fraction

        if state.on_demand:
            pool = self._pool

            def compute() -> npt.ArrayLike:
                return pool.solve(spec.solve, report)

            ttl = self.store.settings.on_demand_redis_ttl
        else:
            stopping = self._stopping  # this run's: a registry started again has a new one

            def report_unless_stopping(done: int, total: int) -> None:
                if stopping.is_set():
                    raise SolveStopped(f"the {spec.game} {spec.kind} solve: the service stops")
                report(done / total if total else 1.0)

            compute = spec.compute(report_unless_stopping)
            ttl = None
        try:
            loaded = await self.store.get(
                spec.key,
                compute,
                shape=spec.shape,
                ttl=ttl,
                dtype=spec.dtype,
                in_redis=spec.in_redis,
            )
        except SolveStopped:
            state.status = "missing"  # not a failure: asked for again after a restart
            return None
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
        mapped = await self._mapping(spec, loaded)
        if mapped is not loaded.array:
            self._tables[spec.key] = mapped

    async def _mapping(self, spec: TableSpec, loaded: LoadedTable) -> FloatArray:
        """The disk file's mapping of a loaded table once the store has written it, or the
        loaded array itself (already a mapping, or held in memory only)."""
        if loaded.source in ("disk", "memory"):
            return loaded.array
        await self.store.drain()
        mapped = self.store.peek(spec.key)
        return loaded.array if mapped is None else mapped

    async def _warm(self, spec: TableSpec, table: FloatArray) -> None:
        """Run the spec's `warm` off the event loop.  A failure is logged, not fatal: the
        table is sound, and the first request does the work instead."""
        assert spec.warm is not None
        try:
            await asyncio.to_thread(spec.warm, table)
        except Exception:
            log.exception("warming the %s %s table failed", spec.game, spec.kind)

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
                        await self.store.publish(skip=self._not_in_redis())
                elif up and self._unpublished:
                    keys, self._unpublished = self._unpublished, set()
                    with contextlib.suppress(Exception):
                        await self.store.publish(keys, skip=self._not_in_redis())
                self.redis_up = up
                self.observer.redis_up(up)
            for game in self.preload:  # a preload that failed (e.g. a full disk) retries
                if self._group_status.get(self._builtin[game]) == "failed":
                    self.request(game)
            self.observer.store_stats(self.store.stats())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), interval)
