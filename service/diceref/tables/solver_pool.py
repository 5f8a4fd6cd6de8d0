"""Solves of tables asked for on demand (house rules), in worker processes of their own.

A built-in game's tables are solved at most once per deployment, mostly before the service
takes requests; a house-rules table is solved while the service answers other requests.
Solved in a thread of the serving process it would share the interpreter lock with every
request, and a request could wait up to a switch interval (5 ms) for it on each step.  So a
solve asked for on demand runs in one of `workers` spawned processes, at a lower CPU
priority (`nice`), and the serving process only waits for its result in a thread:
`/score` and the built-in games' `/holds` keep their latency while a flood of house rules is
being solved (a test floods and measures both).

Progress crosses the process boundary as `(token, fraction)` messages on one queue, read by
a thread that calls the callback registered for the token.  A `solve` must pickle (a
module-level function, or a `functools.partial` of one over picklable rules); one that does
not is solved in the calling thread, as before this module existed.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import pickle
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.queues import Queue
from typing import Any

import numpy as np
import numpy.typing as npt

log = logging.getLogger(__name__)

Solve = Callable[[Callable[[int, int], None] | None], npt.ArrayLike]
# A fraction is reported when it has moved this much since the last report.
PROGRESS_STEP = 0.01

_progress: Queue[Any] | None = None  # the worker side of the progress queue


def _start_worker(queue: Queue[Any], nice: int) -> None:
    global _progress
    _progress = queue
    with contextlib.suppress(OSError):
        os.nice(nice)


def _solve_in_worker(token: str, solve: Solve) -> npt.NDArray[np.float64]:
    last = [-1.0]

    def report(done: int, total: int) -> None:
        fraction = done / total if total else 1.0
        if fraction - last[0] >= PROGRESS_STEP or done == total:
            last[0] = fraction
            if _progress is not None:
                _progress.put((token, fraction))

    return np.asarray(solve(report), dtype=np.float64)


class SolverPool:
    """`workers` processes solving tables; `solve` blocks its calling thread until done."""

    def __init__(self, workers: int, nice: int = 10) -> None:
        self.workers = workers
        self._nice = nice
        self._executor: ProcessPoolExecutor | None = None
        self._queue: Queue[Any] | None = None
        self._reader: threading.Thread | None = None
        self._callbacks: dict[str, Callable[[float], None]] = {}
        self._lock = threading.Lock()

    def _ensure_started(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                context = multiprocessing.get_context("spawn")
                self._queue = context.Queue()
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    mp_context=context,
                    initializer=_start_worker,
                    initargs=(self._queue, self._nice),
                )
                self._reader = threading.Thread(
                    target=self._read_progress, name="solver-progress", daemon=True
                )
                self._reader.start()
            return self._executor

    def _read_progress(self) -> None:
        assert self._queue is not None
        while True:
            message = self._queue.get()
            if message is None:
                return
            token, fraction = message
            callback = self._callbacks.get(token)
            if callback is not None:
                callback(fraction)

    def solve(
        self, solve: Solve, progress: Callable[[float], None] | None = None
    ) -> npt.NDArray[np.float64]:
        """The table `solve` gives, solved in a worker process (blocking this thread)."""
        try:
            pickle.dumps(solve)
        except (pickle.PicklingError, AttributeError, TypeError):
            log.warning("a table solve does not pickle; solving it in this process")
            report = None if progress is None else (lambda d, t: progress(d / t if t else 1.0))
            return np.asarray(solve(report), dtype=np.float64)
        executor = self._ensure_started()
        token = uuid.uuid4().hex
        if progress is not None:
            self._callbacks[token] = progress
        try:
            return executor.submit(_solve_in_worker, token, solve).result()
        finally:
            self._callbacks.pop(token, None)

    def shutdown(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
            queue, self._queue = self._queue, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        if queue is not None:
            queue.put(None)
