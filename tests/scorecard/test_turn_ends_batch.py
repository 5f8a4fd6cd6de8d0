"""The distribution table's compiled solve (`dist_kernel`) against the state-by-state
reference (`target`): the same turn ends as `target.turn_ends` on sampled states of whole
games, and the same distribution table as `target.solve_distribution` on sub-games (Joker
readings, forced order, a first throw that scores otherwise, two and four throws a turn),
with the layers cut in small chunks shared by two threads."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from test_play_to_win_solves import CASES, open_mask, rows_equal

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver import dist_kernel
from diceref.games.scorecard.solver.request_turn import keep_transitions
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.scorecard.solver.target import (
    layers,
    multiplied,
    solve_distribution,
    turn_ends,
)

GAMES = [
    ("yahtzee", {}),
    ("yahtzee", {"joker": "free_choice", "matching_upper_forced": False}),
    ("yahtzee", {"joker": "none", "throws_per_turn": 2}),
    ("yatzy", {}),
    ("yatzy", {"order": "forced"}),
    ("russian-poker", {}),
    ("russian-poker", {"throws_per_turn": 1}),  # the first throw placed: no keeps at all
    ("chute-5", {"throws_per_turn": 4}),
    ("dice-poker", {}),
]


@pytest.mark.parametrize(("game", "rules"), GAMES, ids=lambda c: str(c))
def test_the_compiled_turn_ends_equal_the_reference(
    game: str, rules: dict[str, object], solved_ruleset: Callable[[Ruleset], FloatArray]
) -> None:
    ruleset = variant(game, **rules)
    values = solved_ruleset(ruleset)
    space = state_space(ruleset)
    full = (1 << space.n_boxes) - 1
    every = [s for layer in layers(space) for s in layer if s[0] != full]
    rng = np.random.default_rng(7)
    pick = rng.choice(len(every), min(150, len(every)), replace=False)
    states = [every[i] for i in pick.tolist()]
    start = keep_transitions().throw_probability
    rounds = ruleset.throws_per_turn - 1
    got = dist_kernel.turn_ends_many(ruleset, values, states)
    assert len(got) == len(states)
    for (m, s, f), ends in zip(states, got, strict=True):
        ref = turn_ends(ruleset, values, m, s, f, start, rounds)
        assert np.array_equal(ends.succ, ref.succ)
        assert np.array_equal(ends.shift, ref.shift)
        assert np.abs(ends.probability - ref.probability).max() < 1e-12
        assert ends.probability.sum() == pytest.approx(1.0, abs=1e-12)


def test_the_cases_cover_a_first_throw_that_scores_otherwise() -> None:
    assert any(multiplied(variant(game, **rules)) for game, rules in GAMES)


@pytest.mark.parametrize(("game", "rules", "open_boxes"), CASES, ids=lambda c: str(c))
def test_the_compiled_distribution_table_equals_the_reference(
    game: str,
    rules: dict[str, object],
    open_boxes: tuple[str, ...],
    monkeypatch: pytest.MonkeyPatch,
    solved_ruleset: Callable[[Ruleset], FloatArray],
) -> None:
    ruleset = variant(game, **rules)
    within = open_mask(ruleset, *open_boxes) if open_boxes else 0
    values = solved_ruleset(ruleset)
    space = state_space(ruleset)
    mask, sub, flag = space.all_states()
    indices = space.index(mask, sub, flag)[(mask & within) == within]
    # chunks of a few states, each buffer grown as its bands come: every path taken
    monkeypatch.setattr(dist_kernel, "MIN_CHUNK", 5)
    monkeypatch.setattr(dist_kernel, "MIN_CAPACITY", 16)
    compiled = dist_kernel.solve_distribution_fast(ruleset, values, within=within, threads=2)
    reference = solve_distribution(ruleset, values, within=within)
    assert rows_equal(compiled, reference, indices) < 1e-12
    assert np.array_equal(compiled.lo, reference.lo) and np.array_equal(compiled.hi, reference.hi)
    for i in indices.tolist():  # each band's probabilities sum to 1
        band = compiled.values[
            compiled.start[i] : compiled.start[i] + compiled.hi[i] - compiled.lo[i]
        ]
        assert abs(float(band.sum()) - 1.0) < 1e-11
