"""The packed play-to-win tables read back what was solved, within their grid.

`packed.pack` rounds a win table's chances to multiples of 2**-24 (so each within 2**-25)
and a distribution's cumulative chances likewise (each probability within 2**-24, their sum
exactly 1), and keeps a distribution's mean and second moment exact.  Bands of every width
around the 32-value blocks, spikes that need the widest codes, and lookups in any order.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diceref.games.scorecard.solver.bands import BandTable
from diceref.games.scorecard.solver.packed import pack, unpack

WIDTHS = [0, 1, 2, 31, 32, 33, 63, 64, 65, 300, 1200]


def tables(rng: np.random.Generator, widths: list[int]) -> tuple[BandTable, BandTable]:
    """A win table (each band non-increasing from below 1) and a distribution table (each
    band a probability vector, some a single spike) over the same bands."""
    w = np.array(widths, dtype=np.int64)
    lo = rng.integers(-5, 200, len(w))
    start = np.concatenate([[0], np.cumsum(w)[:-1]]).astype(np.int64)
    win, dist = [], []
    for i, k in enumerate(w.tolist()):
        win.append(np.sort(rng.random(k))[::-1])
        p = rng.random(k) ** 8 if i % 3 else np.eye(1, k, rng.integers(0, max(k, 1)))[0][:k]
        dist.append(p / p.sum() if k else p)
    return (
        BandTable(lo, lo + w, start, np.concatenate(win), 1.0),
        BandTable(lo, lo + w, start, np.concatenate(dist), 0.0),
    )


def every_point(table: BandTable) -> tuple[np.ndarray, np.ndarray]:
    index = np.repeat(np.arange(table.size), 40)
    offsets = np.tile(np.arange(-3, 37), table.size)
    width = (table.hi - table.lo)[index]
    n = table.lo[index] + np.where(offsets < 0, offsets, offsets * np.maximum(width, 1) // 33)
    n = np.concatenate([n, table.hi - 1, table.hi, table.lo - 1])
    index = np.concatenate(
        [index, np.arange(table.size), np.arange(table.size), np.arange(table.size)]
    )
    return index, n


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_stored_values_are_the_solved_ones_within_their_grid(seed: int) -> None:
    rng = np.random.default_rng(seed)
    win, dist = tables(rng, WIDTHS * 3)
    for table, bound in ((win, 2.0**-25), (dist, 2.0**-24)):
        stored = unpack(pack(table))
        index, n = every_point(table)
        want = table.lookup(index, n)
        got = stored.lookup(index, n)
        assert np.abs(got - want).max() <= bound
        outside = (n < table.lo[index]) | (n >= table.hi[index])
        assert np.array_equal(got[outside], want[outside])  # below, or 0: exact
        # any order of the pairs, repeats and backward steps included, reads the same
        shuffled = rng.permutation(len(index))
        assert np.array_equal(stored.lookup(index[shuffled], n[shuffled]), got[shuffled])
        for i in range(table.size):
            lo, hi = int(table.lo[i]), int(table.hi[i])
            row = stored.row(i, lo - 2, hi + 2)
            assert np.abs(row - table.row(i, lo - 2, hi + 2)).max(initial=0.0) <= bound
            if table is dist and hi > lo:
                assert row.sum() == 1.0  # the rounded cumulative chances end on 1 exactly
                assert row.min() >= 0.0
                assert stored.at(i, lo + (hi - lo) // 2) == row[2 + (hi - lo) // 2]


def test_a_distribution_keeps_its_exact_moments() -> None:
    win, dist = tables(np.random.default_rng(7), WIDTHS)
    stored = unpack(pack(dist))
    index = np.arange(dist.size)
    first, second = stored.mean_and_second(index)
    want_first, want_second = dist.mean_and_second(index)
    assert np.allclose(first, want_first, rtol=0, atol=1e-9)
    assert np.allclose(second, want_second, rtol=1e-12, atol=1e-9)
    with pytest.raises(TypeError):
        unpack(pack(win)).mean_and_second(index)  # a win table has none


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=140),
    st.integers(-50, 400),
)
def test_any_win_band_reads_back_within_half_a_grid_step(chances: list[float], lo: int) -> None:
    values = np.sort(np.array(chances))[::-1]
    n = len(values)
    table = BandTable(np.array([lo]), np.array([lo + n]), np.array([0]), values, 1.0)
    stored = unpack(pack(table))
    points = np.arange(lo - 2, lo + n + 2)
    got = stored.lookup(np.zeros(len(points), dtype=np.int64), points)
    assert (
        np.abs(got - table.lookup(np.zeros(len(points), dtype=np.int64), points)).max() <= 2.0**-25
    )


def test_a_stored_array_of_another_form_is_refused() -> None:
    win, _ = tables(np.random.default_rng(3), [5, 40])
    array = pack(win)
    with pytest.raises(ValueError, match="packed"):
        unpack(np.zeros(16, dtype=np.float32))
    with pytest.raises(ValueError, match="length"):
        unpack(array[:-2])
