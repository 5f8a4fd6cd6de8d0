"""The lookup policy on its own, driven step by step by hand: which steps it asks for, in
which order, and what it makes of the errors thrown back into it."""

from __future__ import annotations

import asyncio
import time
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from diceref.tables import TableKey, TableSettings
from diceref.tables.codec import CorruptTable, encode
from diceref.tables.lookup import (
    Blocking,
    Join,
    Later,
    Pause,
    RedisCall,
    Solve,
    Step,
    Steps,
    TableLookup,
)
from diceref.tables.outage import RedisDown
from diceref.tables.store import TableStore

KEY = TableKey("value", "yahtzee", "c0ffee", "1")


def drive(steps: Steps[Any], answer: Any) -> tuple[Any, list[str]]:
    """Run the policy with `answer(step)` as its I/O; returns the table and the steps' names
    (a `Blocking` step by its work's name)."""
    seen: list[str] = []
    reply: Any = None
    error: BaseException | None = None
    while True:
        try:
            step: Step = steps.send(reply) if error is None else steps.throw(error)
        except StopIteration as done:
            return done.value, seen
        seen.append(
            f"Blocking:{work_name(step)}" if isinstance(step, Blocking) else type(step).__name__
        )
        reply, error = None, None
        try:
            reply = answer(step)
        except Exception as exc:
            error = exc


def work_name(step: Blocking) -> str:
    """`load`, `save`, `encode`, `decode`, `touch`: every blocking step is a partial."""
    assert isinstance(step.work, partial)
    return str(step.work.func.__name__)


def test_a_corrupt_file_is_a_miss_and_a_redis_outage_computes_on_the_host(
    tmp_path: Path,
) -> None:
    tables = TableLookup(TableSettings(cache_dir=tmp_path), shared=True)

    def answer(step: Step) -> Any:
        if isinstance(step, Blocking) and work_name(step) == "load":
            raise CorruptTable("damaged")
        if isinstance(step, RedisCall):
            raise RedisDown
        if isinstance(step, (Solve, Blocking)):
            return step.work()
        return None

    loaded, seen = drive(tables.lookup(KEY, lambda: np.ones(4), (4,)), answer)
    assert loaded.source == "computed"
    assert seen[:3] == ["Join", "Blocking:load", "RedisCall"]
    assert "Solve" in seen and "Blocking:save" in seen
    assert tables.stats().corrupt["disk"] == 2  # read again once the host lock is held
    again, seen = drive(tables.lookup(KEY, lambda: np.zeros(4), (4,)), answer)
    assert (again.source, seen) == ("memory", [])


def test_a_redis_hit_is_written_to_disk_later(tmp_path: Path) -> None:
    tables = TableLookup(TableSettings(cache_dir=tmp_path), shared=True)
    blob = encode(KEY, np.arange(4.0))
    later: list[Steps[Any]] = []

    def answer(step: Step) -> Any:
        if isinstance(step, RedisCall):
            return blob  # the GET
        if isinstance(step, Later):
            later.append(step.steps)
            return None
        if isinstance(step, Blocking):
            return step.work()
        return None  # Join: no other load

    loaded, seen = drive(tables.lookup(KEY, lambda: np.ones(4), (4,)), answer)
    assert loaded.source == "redis" and loaded.array.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert seen == ["Join", "Blocking:load", "RedisCall", "Blocking:decode", "Later"]
    assert not tables.disk.path(KEY).exists()
    drive(later[0], answer)
    assert tables.disk.path(KEY).exists()


def test_a_joined_load_reports_memory(tmp_path: Path) -> None:
    tables = TableLookup(TableSettings(cache_dir=tmp_path), shared=False)
    shared = np.arange(3.0)

    def answer(step: Step) -> Any:
        assert isinstance(step, Join)
        return shared

    loaded, seen = drive(tables.lookup(KEY, lambda: np.ones(3), None), answer)
    assert (loaded.source, seen) == ("memory", ["Join"]) and loaded.array is shared


def test_a_waited_host_lock_pauses(tmp_path: Path) -> None:
    """Another worker holds the host lock: the policy polls it with `Pause`, never sleeps."""
    settings = TableSettings(cache_dir=tmp_path, poll_interval=0.01, wait_timeout=0.05)
    holder = TableLookup(settings, shared=False).disk.lock(KEY)
    assert holder.try_acquire()
    try:
        tables = TableLookup(settings, shared=False)
        pauses: list[float] = []

        def answer(step: Step) -> Any:
            if isinstance(step, Pause):
                pauses.append(step.seconds)
                time.sleep(step.seconds)
                return None
            if isinstance(step, (Solve, Blocking)):
                return step.work()
            return None

        loaded, _ = drive(tables.lookup(KEY, lambda: np.ones(2), (2,)), answer)
    finally:
        holder.release()
    assert loaded.source == "computed"
    assert pauses and set(pauses) == {0.01}
    assert tables.stats().waits == 1


@pytest.mark.parametrize("shared", [False, True])
def test_a_solve_of_the_wrong_shape_raises(tmp_path: Path, shared: bool) -> None:
    tables = TableLookup(TableSettings(cache_dir=tmp_path), shared=shared)

    def answer(step: Step) -> Any:
        if isinstance(step, RedisCall):
            raise RedisDown
        if isinstance(step, (Solve, Blocking)):
            return step.work()
        return None

    with pytest.raises(ValueError, match="expected"):
        drive(tables.lookup(KEY, lambda: np.ones(3), (4,)), answer)
    assert tables.peek(KEY) is None


def test_a_get_that_gives_up_leaves_the_load_to_the_others(tmp_path: Path) -> None:
    """The async driver: the first get of a key runs the load in a task the later gets join;
    cancelling the first caller must not cancel that task (a guard for the driver's `Join`)."""
    calls: list[int] = []

    def compute() -> np.ndarray:
        calls.append(1)
        time.sleep(0.3)
        return np.ones(4)

    tables = TableStore(TableSettings(cache_dir=tmp_path))

    async def main() -> tuple[str, bool, str]:
        first = asyncio.create_task(tables.get(KEY, compute, shape=(4,)))
        await asyncio.sleep(0.05)
        second = asyncio.create_task(tables.get(KEY, compute, shape=(4,)))
        await asyncio.sleep(0.05)
        first.cancel()
        joined = await second
        await tables.drain()
        later = await tables.get(KEY, compute, shape=(4,))
        return joined.source, first.cancelled(), later.source

    assert asyncio.run(main()) == ("memory", True, "memory")
    assert len(calls) == 1
    assert tables.disk.path(KEY).exists()  # the write-back ran in the background
