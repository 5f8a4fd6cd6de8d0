"""Which solved tables this process holds, and loading the missing ones in the background.

The request path only ever *reads* value tables here (`values_or_none`): a table that is not
loaded yet gets a 503 with Retry-After and a background load, never an inline solve.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from diceref.rules.games import SCORECARD_GAMES
from diceref.tables.catalog import load_max_score, load_value_table
from diceref.tables.store import TableStore

log = logging.getLogger("diceref.tables")
FloatArray = npt.NDArray[np.float64]


@dataclass
class TableState:
    game: str
    status: str = "missing"  # missing, queued, loading, ready, failed
    source: str | None = None
    seconds: float | None = None
    error: str | None = None


class TableRegistry:
    def __init__(self, store: TableStore, owns_store: bool = True) -> None:
        self.store = store
        self._owns_store = owns_store
        self._values: dict[str, FloatArray] = {}
        self._max: dict[str, int] = {}
        self.states: dict[str, TableState] = {g: TableState(g) for g in SCORECARD_GAMES}
        self._queue: asyncio.Queue[str] | None = None
        self._worker: asyncio.Task[None] | None = None

    def values_or_none(self, game: str) -> FloatArray | None:
        """The table if loaded; otherwise ask for it in the background and return None."""
        values = self._values.get(game)
        if values is None and self.states[game].status in ("missing", "failed"):
            self.request(game)
        return values

    async def max_score(self, game: str) -> int:
        """A game's maximum score: from the caches, else solved once in a worker thread."""
        if game not in self._max:
            self._max[game] = await load_max_score(self.store, SCORECARD_GAMES[game])
        return self._max[game]

    def request(self, game: str) -> None:
        if self._queue is None:
            return  # not started: nothing may load before the app's startup
        state = self.states[game]
        if state.status in ("queued", "loading", "ready"):
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
        if self._owns_store:
            await self.store.aclose()
        else:
            await self.store.drain()

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
                loaded = await load_value_table(self.store, SCORECARD_GAMES[game])
            except Exception as exc:  # a failed load must not kill the worker
                log.exception("loading the %s table failed", game)
                state.status, state.error = "failed", repr(exc)
                continue
            state.seconds = time.perf_counter() - started
            self.put(game, loaded.array, loaded.source)
            log.info("table %s ready from %s in %.2f s", game, loaded.source, state.seconds)
