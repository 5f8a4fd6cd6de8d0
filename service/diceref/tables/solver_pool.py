"""Solves of tables asked for on demand (house rules), in worker processes of their own.

A house-rules table is solved while the service answers other requests; in a thread of the
serving process it would share the interpreter lock with every request.  So it runs in one
of `workers` spawned processes at the lowest CPU priority (`nice` 19), and the serving
process only waits for its result in a thread.  Progress crosses back as `(token, fraction)`
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
import queue
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
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


def _stored(table: npt.ArrayLike) -> npt.NDArray[np.floating[Any]]:
    """A solved table as it crosses back: float32 kept (half the bytes), else float64."""
    array = np.asarray(table)
    return array if array.dtype == np.float32 else np.asarray(array, dtype=np.float64)


def _solve_in_worker(token: str, solve: Solve) -> npt.NDArray[np.floating[Any]]:
    last = [-1.0]

    def report(done: int, total: int) -> None:
        fraction = done / total if total else 1.0
        if fraction - last[0] >= PROGRESS_STEP or done == total:
            last[0] = fraction
            if _progress is not None:
                _progress.put((token, fraction))

    return _stored(solve(report))


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


# A solve whose worker died (killed, out of memory) is solved again this many times in a
# fresh worker; one that kills its worker every time then fails instead of looping.
LOST_SOLVE_RETRIES = 1
# Seconds the progress reader waits for a message before it looks whether it should stop
# (its end-of-queue marker may never come: a killed worker can die holding the queue's
# write lock), and that `end` waits for it.
READER_POLL_SECONDS = 0.25


class _Generation:
    """One executor with its progress queue and the thread reading it.  A dead worker
    breaks the whole executor (`BrokenProcessPool`) and may have died holding the queue's
    write lock, so both are replaced together."""

    def __init__(self, pool: SolverPool) -> None:
        context = multiprocessing.get_context("spawn")
        self.queue: Queue[Any] = context.Queue()
        self.executor = ProcessPoolExecutor(
            pool.workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(self.queue, pool._nice, pool._kernel_dir),
            max_tasks_per_child=pool.solves_per_process,
        )
        self.ended = threading.Event()
        self.reader = threading.Thread(
            target=pool._read_progress, args=(self,), name="solver-progress", daemon=True
        )
        self.reader.start()

    def end(self) -> None:
        """Stop the executor without waiting for a solve under way (seconds): its worker
        is ended instead; then let the reader go and wait for it briefly."""
        workers = list(getattr(self.executor, "_processes", {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            with contextlib.suppress(Exception):
                worker.terminate()
        self.ended.set()
        with contextlib.suppress(Exception):
            self.queue.put(None)  # wakes the reader at once where the queue still works
        self.reader.join(2 * READER_POLL_SECONDS)
        with contextlib.suppress(Exception):
            self.queue.close()
            self.queue.cancel_join_thread()  # a feeder stuck on a dead worker's lock


class SolverPool:
    """`workers` processes solving tables; `solve` blocks its calling thread until done.

    A worker that dies (`kill -9`, the kernel's out-of-memory killer) breaks its executor
    and fails every solve it held; the pool then starts a new executor, solves those again
    (`LOST_SOLVE_RETRIES`) and calls `on_replaced`, so that house rules keep working.

    A worker leaves after `solves_per_process` solves (None: never) and a fresh one takes
    its place: a solve leaves its process holding hundreds of MiB (the solver's workspace,
    its caches, a heap the allocator keeps), which a process kept for the next solve would
    hold while idle; a fresh one costs a spawn and the imports, a fraction of a second
    against a solve's seconds (`benchmarks/bench_solver_memory.py` measures both)."""

    def __init__(
        self,
        workers: int,
        nice: int = 19,
        kernel_dir: Path | None = None,
        on_replaced: Callable[[], None] | None = None,
        solves_per_process: int | None = 1,
    ) -> None:
        return_large_arrays()  # this process receives the solved tables
        self.workers = workers
        self.solves_per_process = solves_per_process
        self._nice = nice
        self._kernel_dir = kernel_dir
        self._on_replaced = on_replaced
        self._generation: _Generation | None = None
        self._callbacks: dict[str, Callable[[float], None]] = {}
        self._lock = threading.Lock()
        self.replaced = 0  # executors replaced after a worker died
        self._shutdowns = 0  # a solve cut by a shutdown is not solved again

    def _current(self) -> _Generation:
        with self._lock:
            if self._generation is None:
                self._generation = _Generation(self)
            return self._generation

    def worker_pids(self) -> list[int]:
        """The process ids of the workers now running (tests, benchmarks)."""
        generation = self._generation
        if generation is None:
            return []
        processes = dict(getattr(generation.executor, "_processes", None) or {})
        return [pid for pid, process in processes.items() if process.is_alive()]

    def _read_progress(self, generation: _Generation) -> None:
        """Hand each progress message to its solve's callback until `generation` ends.

        The thread ends by itself, before the queue is closed: one left blocked in `get`
        while the interpreter shut down printed a traceback on every shutdown."""
        while not generation.ended.is_set():
            try:
                message = generation.queue.get(timeout=READER_POLL_SECONDS)
            except queue.Empty:
                continue
            except (EOFError, OSError, ValueError):  # the queue was closed under it
                return
            if message is None:
                return
            token, fraction = message
            callback = self._callbacks.get(token)
            if callback is not None:
                callback(fraction)

    def _replace(self, broken: _Generation) -> None:
        """Put a new executor in place of `broken` (once, however many solves saw it)."""
        with self._lock:
            if self._generation is not broken:
                return
            self._generation = None
            self.replaced += 1
        log.warning("a solver process died; replacing the solver pool's processes")
        broken.end()
        if self._on_replaced is not None:
            self._on_replaced()

    def solve(
        self, solve: Solve, progress: Callable[[float], None] | None = None
    ) -> npt.NDArray[np.floating[Any]]:
        """The table `solve` gives, solved in a worker process (blocking this thread)."""
        try:
            pickle.dumps(solve)
        except (pickle.PicklingError, AttributeError, TypeError):
            log.warning("a table solve does not pickle; solving it in this process")
            report = None if progress is None else (lambda d, t: progress(d / t if t else 1.0))
            return _stored(solve(report))
        token = uuid.uuid4().hex
        if progress is not None:
            self._callbacks[token] = progress
        shutdowns = self._shutdowns
        try:
            for attempt in range(LOST_SOLVE_RETRIES + 1):
                generation = self._current()
                try:
                    return generation.executor.submit(_solve_in_worker, token, solve).result()
                except BrokenProcessPool:
                    if self._shutdowns != shutdowns:
                        raise  # its worker was ended by `shutdown`, not lost
                    self._replace(generation)
                    if attempt == LOST_SOLVE_RETRIES:
                        raise
                    log.warning("solving again a table whose solver process died")
            raise AssertionError("unreachable")
        finally:
            self._callbacks.pop(token, None)

    def shutdown(self) -> None:
        with self._lock:
            generation, self._generation = self._generation, None
            self._shutdowns += 1
        if generation is not None:
            generation.end()
