"""The fast play-to-win solves (`win_solve`: the kernel over groups of states;
`dist_kernel`: compiled turn ends; both on two threads) against the state-by-state numpy
solves of the same recursion (`target`), band by band on sub-games of every kind of turn;
each table packed part by part as the whole table packed at once; and target play's
distribution against the win table it follows."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver import dist_kernel, win_solve
from diceref.games.scorecard.solver.bands import BandTable
from diceref.games.scorecard.solver.packed import pack, pack_parts, unpack
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.scorecard.solver.target import (
    TooManyTurns,
    final_distribution,
    solve_distribution,
    solve_win,
    target_distribution,
)


def open_mask(ruleset: Ruleset, *open_boxes: str) -> int:
    """The filled boxes of a card whose only open boxes are `open_boxes`."""
    mask = (1 << len(ruleset.boxes)) - 1
    for box in open_boxes:
        mask &= ~(1 << ruleset.box_index[box])
    return mask


CASES = [
    ("yahtzee", {}, ("threes", "three_of_a_kind", "yahtzee", "chance")),
    (
        "yahtzee",
        {"joker": "free_choice", "matching_upper_forced": False},
        ("fives", "full_house", "sixes"),
    ),
    ("yardzee", {}, ("ones", "yahtzee", "large_straight")),
    ("yahtzee", {"joker": "none", "throws_per_turn": 2}, ("fours", "yahtzee", "chance")),
    ("dice-poker", {}, ("pair", "two_pairs", "sixes")),
    # its last boxes in their order, the first throw's points doubled
    ("russian-poker", {}, ("large_straight", "full_house", "four_of_a_kind", "poker", "chance")),
    ("chute-5", {"throws_per_turn": 4}, ("sixes", "chute_5", "break")),
    ("yatzy", {"order": "forced"}, ()),
]


def rows_equal(a: BandTable, b: BandTable, indices: np.ndarray) -> float:
    worst = 0.0
    for i in indices.tolist():
        lo, hi = min(a.lo[i], b.lo[i]) - 2, max(a.hi[i], b.hi[i]) + 2
        worst = max(worst, float(np.abs(a.row(i, lo, hi) - b.row(i, lo, hi)).max()))
    return worst


@pytest.mark.parametrize(("game", "rules", "open_boxes"), CASES, ids=lambda c: str(c))
def test_the_fast_solves_equal_the_numpy_ones(
    game: str,
    rules: dict[str, object],
    open_boxes: tuple[str, ...],
    solved_ruleset: Callable[[Ruleset], FloatArray],
) -> None:
    ruleset = variant(game, **rules)
    within = open_mask(ruleset, *open_boxes) if open_boxes else 0
    values = solved_ruleset(ruleset)
    space = state_space(ruleset)
    mask, sub, flag = space.all_states()
    indices = space.index(mask, sub, flag)[(mask & within) == within][::5]
    assert len(indices) >= 5  # a sub-game of reachable states
    fast, slow = (
        win_solve.solve_win_fast(ruleset, within=within),
        solve_win(ruleset, within=within),
    )
    assert rows_equal(fast, slow, indices) < 1e-12
    fast_d = dist_kernel.solve_distribution_fast(ruleset, values, within=within)
    slow_d = solve_distribution(ruleset, values, within=within)
    assert rows_equal(fast_d, slow_d, indices) < 1e-12


@pytest.mark.parametrize(
    ("game", "open_boxes"),
    [("russian-poker", ()), ("yahtzee", ("threes", "three_of_a_kind", "yahtzee", "chance"))],
)
@pytest.mark.parametrize("kind", ["win", "distribution"])
def test_a_table_packed_part_by_part_reads_as_the_whole_table_packed(
    game: str,
    open_boxes: tuple[str, ...],
    kind: str,
    solved_ruleset: Callable[[Ruleset], FloatArray],
) -> None:
    """As `diceref precompute` stores them (`pack_parts`, each part coded as it is
    solved) and as the float64 table packed at once: the same bounds, values and moments."""
    ruleset = variant(game)
    within = open_mask(ruleset, *open_boxes) if open_boxes else 0
    size = state_space(ruleset).size
    if kind == "win":
        whole = unpack(pack(win_solve.solve_win_fast(ruleset, within=within)))
        layered = unpack(pack_parts(size, 1.0, win_solve.win_layers(ruleset, within=within)))
    else:
        values = solved_ruleset(ruleset)
        table = dist_kernel.solve_distribution_fast(ruleset, values, within=within)
        whole = unpack(pack(table))
        parts = dist_kernel.distribution_layers(ruleset, values, within=within)
        layered = unpack(pack_parts(size, 0.0, parts))
    assert np.array_equal(whole.lo, layered.lo) and np.array_equal(whole.hi, layered.hi)
    banded = np.flatnonzero(whole.hi > whole.lo)
    if kind == "distribution":
        assert np.array_equal(whole.mean_and_second(banded), layered.mean_and_second(banded))
    assert len(banded) > 200  # bands to read
    lo, hi = whole.lo[banded].astype(np.int64), whole.hi[banded].astype(np.int64)
    inside = np.random.default_rng(5).integers(lo, hi)
    for n in (lo - 1, lo, inside, hi - 1, hi):
        assert np.array_equal(whole.lookup(banded, n), layered.lookup(banded, n))


def test_target_play_reaches_the_target_with_the_win_tables_chance(
    solved_ruleset: Callable[[Ruleset], FloatArray],
) -> None:
    """Target play's distribution, followed turn by turn, gives the target the chance the
    win table gives it, and is a distribution (it differs from expected-points play's)."""
    ruleset = variant("yahtzee")
    within = open_mask(ruleset, "threes", "three_of_a_kind", "yahtzee", "chance")
    values = solved_ruleset(ruleset)
    win = win_solve.solve_win_fast(ruleset, within=within)
    dist = dist_kernel.solve_distribution_fast(ruleset, values, within=within)
    index = state_space(ruleset).index_one(within, 40, 0)
    for need in (40, 60, 80, 120):
        got = target_distribution(ruleset, values, win, dist, within, 40, 0, 200, 200 + need)
        assert got.at_least(200 + need) == pytest.approx(win.at(index, need), abs=1e-9)
        assert got.probabilities.sum() == pytest.approx(1.0, abs=1e-9)
        points = final_distribution(ruleset, values, dist, within, 40, 0, 200)
        assert got.at_least(200 + need) > points.at_least(200 + need) + 1e-3
        assert got.mean < points.mean
    with pytest.raises(TooManyTurns):
        target_distribution(ruleset, values, win, dist, within, 40, 0, 200, 260, limit=5)
