"""Which solved tables this process holds, and loading the missing ones in the background.

The request path only ever *reads* here (`values_or_none`): a table that is not loaded yet
gets a 503 with Retry-After and a background load, never an inline solve.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from diceref.rules.games import SCORECARD_GAMES
from diceref.rules.ruleset import Ruleset
from diceref.solver.engine import solve

log = logging.getLogger("diceref.tables")
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Loaded:
    values: FloatArray
    source: str  # memory, disk, redis or computed


Loader = Callable[[Ruleset], Awaitable[Loaded]]


async def solve_in_thread(ruleset: Ruleset) -> Loaded:
    """Fallback loader without a store: solve in a worker thread."""
    return Loaded(await asyncio.to_thread(solve, ruleset), "computed")


@dataclass
class TableState:
    game: str
    status: str = "missing"  # missing, loading, ready, failed
    source: str | None = None
    seconds: float | None = None
    error: str | None = None


class TableRegistry:
    def __init__(self, loader: Loader = solve_in_thread) -> None:
        self._loader = loader
        self._values: dict[str, FloatArray] = {}
        self.states: dict[str, TableState] = {g: TableState(g) for g in SCORECARD_GAMES}
        self._queue: asyncio.Queue[str] | None = None
        self._worker: asyncio.Task[None] | None = None

    def values_or_none(self, game: str) -> FloatArray | None:
        """The table if loaded; otherwise ask for it in the background and return None."""
        values = self._values.get(game)
        if values is None and self.states[game].status in ("missing", "failed"):
            self.request(game)
        return values

    def request(self, game: str) -> None:
        if self._queue is None:
            return  # not started (e.g. inside a sync test before startup)
        state = self.states[game]
        if state.status in ("loading", "ready", "queued"):
            return
        state.status = "queued"
        self._queue.put_nowait(game)

    async def start(self, games: tuple[str, ...]) -> None:
        self._queue = asyncio.Queue()
        self._worker = asyncio.create_task(self._work())
        for game in games:
            self.request(game)

    async def stop(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker

    async def wait_ready(self, games: tuple[str, ...], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(self.states[g].status == "ready" for g in games):
                return True
            await asyncio.sleep(0.05)
        return False

    def put(self, game: str, values: FloatArray, source: str) -> None:
        self._values[game] = values
        state = self.states[game]
        state.status, state.source = "ready", source

    async def _work(self) -> None:
        """One table at a time: two solves at once would only share the same two cores."""
        assert self._queue is not None
        while True:
            game = await self._queue.get()
            state = self.states[game]
            state.status = "loading"
            started = time.perf_counter()
            try:
                loaded = await self._loader(SCORECARD_GAMES[game])
            except Exception as exc:  # a failed load must not kill the worker
                log.exception("loading the %s table failed", game)
                state.status, state.error = "failed", repr(exc)
                continue
            state.seconds = time.perf_counter() - started
            self.put(game, loaded.values, loaded.source)
            log.info("table %s ready from %s in %.2f s", game, loaded.source, state.seconds)
