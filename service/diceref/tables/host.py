"""`HostTables`: the lookup (`diceref.tables.lookup`) driven inline, without Redis and without
an event loop: memory, the disk cache, or computed on this host under its lock file.

What `diceref precompute` uses without `REDIS_URL`: this module imports no asyncio, which a
command would otherwise pay for at start-up (see docs/tables.md).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from diceref.tables.codec import DTYPE, Shape
from diceref.tables.config import TableSettings
from diceref.tables.key import TableKey
from diceref.tables.lookup import (
    Blocking,
    Compute,
    Done,
    Join,
    Later,
    LoadedTable,
    Outcome,
    Pause,
    Solve,
    Step,
    Steps,
    TableLookup,
    advance,
)

T = TypeVar("T")


class HostTables(TableLookup):
    def __init__(self, settings: TableSettings) -> None:
        super().__init__(settings, shared=False)

    def get_sync(
        self,
        key: TableKey,
        compute: Compute,
        *,
        shape: Shape | None = None,
        dtype: str = DTYPE,
        in_redis: bool = True,
    ) -> LoadedTable:
        """The table for `key` from memory or disk, or computed here (a lock file makes
        the processes of this host compute it once); `shape`, `dtype` and `in_redis` as
        `TableStore.get` takes them (this store has no Redis).  The disk steps run in the
        calling thread, the solve in a daemon thread it waits for, and a table found
        elsewhere than on disk is written there before this returns."""
        return _drive(self.lookup(key, compute, shape, dtype=dtype, in_redis=in_redis))


def _drive(steps: Steps[T]) -> T:
    """Run the steps to their end in this thread."""
    outcome = Outcome()
    while not isinstance(step := advance(steps, outcome), Done):
        try:
            outcome = Outcome(_perform(step))
        except BaseException as exc:  # Ctrl-C too: the policy's locks are released
            outcome = Outcome(error=exc)
    return step.value


def _perform(step: Step) -> Any:
    if isinstance(step, Join):
        return None  # one thread: no other load of the key can be under way
    if isinstance(step, Blocking):
        return step.work()
    if isinstance(step, Solve) and step.alongside is None:  # only a Redis lock has a keeper
        return _in_daemon_thread(step.work)
    if isinstance(step, Pause):
        time.sleep(step.seconds)
        return None
    if isinstance(step, Later):
        return _drive(step.steps)
    raise TypeError(f"HostTables has no Redis: cannot perform {step!r}")


def _in_daemon_thread(work: Callable[[], T]) -> T:
    """`work()` in a daemon thread, waited for (interruptibly) by the calling thread: Ctrl-C
    then stops the command at once, where raised inside the solve it would first wait for
    the solver's queued work."""
    done: Future[T] = Future()

    def run() -> None:
        try:
            done.set_result(work())
        except BaseException as exc:  # handed to the waiting thread
            done.set_exception(exc)

    threading.Thread(target=run, name="table-solve", daemon=True).start()
    return done.result()
