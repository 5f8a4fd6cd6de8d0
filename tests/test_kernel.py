"""The compiled kernel (`core/kernel.py`) against numpy doing the same reductions.

The kernel is machine code written with llvmlite's IR builder: a wrong index or loop bound
would not raise, it would read or write the wrong cells.  So every kind of reduction is
checked cell by cell against numpy on random buffers (with -inf in them, as the tables
have), including a row that reads its own output row, columns computed in part (a layer's
short last batch), and the gathers from a table.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diceref.core.kernel import LANES, Gather, Program, Reduction, padded

ROWS = 40


def buffer(seed: int, cols: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    buf = rng.normal(50, 30, (ROWS, cols))
    buf[rng.random((ROWS, cols)) < 0.1] = -np.inf
    return buf


def numpy_reduce(buf: np.ndarray, red: Reduction, cols: int) -> None:
    for g, rows in enumerate(red.sources):
        got = buf[list(rows), :cols]
        if red.kind == "max":
            value = np.maximum.reduce(got, axis=0)
        elif red.kind == "mean":
            value = np.add.reduce(got, axis=0) * red.scale
        elif red.kind == "plus":
            value = np.add.reduce(got, axis=0) + red.scale
        else:  # the first source above -inf
            value = got[-1]
            for row in got[-2::-1]:
                value = np.where(row > -np.inf, row, value)
        buf[red.start + g, :cols] = value


@st.composite
def reductions(draw: st.DrawFn) -> list[Reduction]:
    out = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["max", "mean", "plus", "first"]))
        n_out = draw(st.integers(1, 6))
        start = draw(st.integers(0, ROWS - n_out))
        outputs = range(start, start + n_out)
        readable = [r for r in range(ROWS) if r not in outputs]
        sources = []
        for g in range(n_out):
            rows = draw(st.lists(st.sampled_from(readable), min_size=1, max_size=7))
            if draw(st.booleans()):  # reads its own output row (a keep's best over its mean)
                rows.insert(draw(st.integers(0, len(rows))), start + g)
            sources.append(rows)
        scale = draw(st.sampled_from([1.0 / 6.0, 25.0, 0.5]))
        out.append(Reduction(kind, start, sources, scale))
    return out


@settings(max_examples=60, deadline=None)
@given(reductions(), st.integers(0, 2**32 - 1), st.sampled_from([16, 48, 64]))
def test_programs_equal_numpy_cell_by_cell(reds: list[Reduction], seed: int, cols: int) -> None:
    width = 64
    got = buffer(seed, width)
    want = got.copy()
    Program(reds, ROWS).bind(got)(cols)
    for red in reds:
        numpy_reduce(want, red, cols)
    np.testing.assert_array_equal(got, want)  # bit for bit: the same order of operations
    np.testing.assert_array_equal(got[:, cols:], buffer(seed, width)[:, cols:])  # untouched


def test_a_short_batch_computes_whole_groups_of_columns() -> None:
    assert padded(1) == LANES
    assert padded(LANES) == LANES
    assert padded(LANES + 1) == 2 * LANES
    buf = buffer(1, 64)
    call = Program([Reduction("max", 0, [[1, 2]])], ROWS).bind(buf)
    with pytest.raises(AssertionError):
        call(LANES + 1)  # not a whole group
    with pytest.raises(AssertionError):
        call(128)  # wider than the buffer


@pytest.mark.parametrize(
    "bad",
    [
        Reduction("max", 0, [[1], [0]]),  # row 1 reads row 0, written before it
        Reduction("max", 5, [[ROWS]]),  # a source outside the buffer
        Reduction("max", ROWS - 1, [[0], [1]]),  # outputs past the buffer
        Reduction("mean", 0, [[]]),  # no source
    ],
)
def test_unsafe_programs_are_refused(bad: Reduction) -> None:
    """The kernel checks nothing: the program does, before any machine code runs."""
    with pytest.raises(AssertionError):
        Program([bad], ROWS)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 64))
def test_gathers_equal_numpy(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    table = rng.normal(100, 50, 500)
    table[rng.random(500) < 0.2] = -np.inf
    keys, rows = 7, 5
    delta = rng.integers(0, 200, (keys, rows), dtype=np.int64)
    add = rng.normal(10, 5, (keys, rows))
    add[rng.random((keys, rows)) < 0.3] = -np.inf
    base = rng.integers(0, 300, n, dtype=np.int64)
    key = rng.integers(0, keys, n, dtype=np.int64)
    buf = np.zeros((ROWS, 64))
    first = 3
    Gather(delta, add).bind(table, buf, first)(base.ctypes.data, key.ctypes.data, n)
    want = table[base[None, :] + delta[key].T] + add[key].T
    np.testing.assert_array_equal(buf[first : first + rows, :n], want)
    assert not buf[first : first + rows, n:].any() and not buf[:first].any()


CACHED_RUN = """
import pathlib, sys
import numpy as np
from diceref.core import kernel
kernel.use_cache(pathlib.Path(sys.argv[1]))
buf = np.arange(4 * 16, dtype=float).reshape(4, 16)
kernel.Program([kernel.Reduction("mean", 0, [[1, 2, 3]], 0.5)], 4).bind(buf)(16)
print(kernel.kernel().cached, buf[0, 0])
"""


def run_cached(directory: Path) -> tuple[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", CACHED_RUN, str(directory)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip(), done.stderr


def test_the_compiled_kernel_is_cached_for_later_processes(tmp_path: Path) -> None:
    """The first process compiles and writes the machine code; the next loads it (the
    container image ships it so); a damaged file is ignored, never run."""
    want = (16 + 32 + 48) * 0.5
    assert run_cached(tmp_path / "kernels")[0] == f"False {want}"
    (stored,) = (tmp_path / "kernels").iterdir()
    assert run_cached(tmp_path / "kernels")[0] == f"True {want}"
    stored.write_bytes(stored.read_bytes()[:-40] + b"\0" * 40)
    out, err = run_cached(tmp_path / "kernels")
    assert out == f"False {want}" and "damaged compiled kernel" in err
    assert run_cached(tmp_path / "kernels")[0] == f"True {want}"  # written again


def test_a_cache_that_cannot_be_written_only_costs_a_compile(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    want = (16 + 32 + 48) * 0.5
    assert run_cached(blocked / "kernels")[0] == f"False {want}"
    assert run_cached(blocked / "kernels")[0] == f"False {want}"
