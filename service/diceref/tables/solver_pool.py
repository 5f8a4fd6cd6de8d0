"""Solves of tables asked for on demand (house rules), in worker processes of their own.

A house-rules table is solved while the service answers other requests; in a thread of the
serving process it would share the interpreter lock with every request.  So it runs in one
of `workers` spawned processes at a lower CPU priority (`nice`), and the serving process
only waits for its result in a thread.  Progress crosses back as `(token, fraction)`
messages on one queue.  A `solve` must pickle (a module-level function, or a
`functools.partial` of one); one that does not is solved in the calling thread.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import multiprocessing
import os
import pickle
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from diceref.core import kernel

log = logging.getLogger(__name__)

Solve = Callable[[Callable[[int, int], None] | None], npt.ArrayLike]
# A fraction is reported when it has moved this much since the last report.
PROGRESS_STEP = 0.01

_progress: Queue[Any] | None = None  # the worker side of the progress queue


def _start_worker(queue: Queue[Any], nice: int, kernel_dir: Path | None) -> None:
    global _progress
    _progress = queue
    kernel.use_cache(kernel_dir)  # a spawned worker has none of the parent's set-up
    with contextlib.suppress(OSError):
        os.nice(nice)
    parent = os.getppid()
    threading.Thread(target=_exit_with, args=(parent,), name="parent-watch", daemon=True).start()


def _exit_with(parent: int) -> None:
    """End this worker once the serving process is gone (killed, or exited without shutting
    the pool down): an orphaned worker would hold its inherited stdout, and the memory of a
    solve nobody waits for."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def _solve_in_worker(token: str, solve: Solve) -> npt.NDArray[np.float64]:
    last = [-1.0]

    def report(done: int, total: int) -> None:
        fraction = done / total if total else 1.0
        if fraction - last[0] >= PROGRESS_STEP or done == total:
            last[0] = fraction
            if _progress is not None:
                _progress.put((token, fraction))

    return np.asarray(solve(report), dtype=np.float64)


# Arrays from this size up get memory of their own from the system (glibc's
# M_MMAP_THRESHOLD), given back when freed; see `return_large_arrays`.
LARGE_ARRAY_BYTES = 4 * 1024 * 1024
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters


def return_large_arrays() -> None:
    """Have glibc give a large freed array's memory back to the system.

    A solved table arrives from a worker pickled, is unpickled and encoded for the disk
    (three copies of tens of MiB), then served from its file's mapping.  By default glibc
    raises its mmap threshold to the size of the largest block freed, so from the second
    hand-over on those copies come from the heap, which keeps them once freed, and a flood
    of house rules grows the process (tests/operations/test_flood.py).  A fixed threshold
    keeps blocks of `LARGE_ARRAY_BYTES` and more out of the heap; smaller ones (a
    request's arrays) are unaffected.  Fixing it also fixes the heap's trim threshold, at
    its 128 KiB default unless set: the heap would be given back and faulted in again on
    every request, so it is set as glibc's own adjustment would, to twice the mmap
    threshold.  Not glibc (musl, macOS): nothing to do."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None)
        libc.mallopt(M_MMAP_THRESHOLD, LARGE_ARRAY_BYTES)
        libc.mallopt(M_TRIM_THRESHOLD, 2 * LARGE_ARRAY_BYTES)


class SolverPool:
    """`workers` processes solving tables; `solve` blocks its calling thread until done."""

    def __init__(self, workers: int, nice: int = 10, kernel_dir: Path | None = None) -> None:
        return_large_arrays()  # this process receives the solved tables
        self.workers = workers
        self._nice = nice
        self._kernel_dir = kernel_dir
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
                    initargs=(self._queue, self._nice, self._kernel_dir),
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
            # Not waiting for a solve under way (seconds): its worker is ended instead.
            workers = list(getattr(executor, "_processes", {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                with contextlib.suppress(Exception):
                    worker.terminate()
        if queue is not None:
            queue.put(None)
