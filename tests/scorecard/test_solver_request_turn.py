"""`request_turn` (the one-state turn behind `/holds`, from the compiled turn) gives the
keep values the box-by-box reference (`reference_solver.turn_values`) gives the same state,
on every game: Joker and extra-bonus states, states with the bonus secured, open or out of
reach, and house rules (free-choice Joker, russian-poker's doubled first throw, series and
forced order) included, to 1e-11 (the same additions in another order)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from reference_solver import turn_values

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver.request_turn import request_turn
from diceref.games.scorecard.solver.statespace import state_space


def _states(ruleset: Ruleset, count: int) -> list[int]:
    """Open states at random, and as many with the five-of-a-kind box used."""
    space = state_space(ruleset)
    mask, _, _ = space.all_states()
    open_states = np.flatnonzero(mask != (1 << space.n_boxes) - 1)
    rng = np.random.default_rng(7)
    pick = rng.choice(open_states, size=min(count, len(open_states)), replace=False)
    five = ruleset.five_box_index
    if five is not None:
        used = open_states[(mask[open_states] >> five & 1) == 1]
        pick = np.concatenate([pick, rng.choice(used, size=min(count, len(used)), replace=False)])
    return [int(i) for i in pick]


def assert_turns_agree(ruleset: Ruleset, values: FloatArray, count: int = 60) -> None:
    space = state_space(ruleset)
    mask, sub, flag = space.all_states()
    for i in _states(ruleset, count):
        want = turn_values(space, values, mask[i : i + 1], sub[i : i + 1], flag[i : i + 1])
        got = request_turn(ruleset, values, int(mask[i]), int(sub[i]), int(flag[i]))
        assert got.rounds == len(want.keeps) == ruleset.throws_per_turn - 1
        # the earliest throw first on every other state: its rounds are then computed
        # before the later throw's is asked (the order a turn's decisions come in)
        lefts = range(1, ruleset.throws_per_turn)
        for left in reversed(lefts) if i % 2 else lefts:
            flat = np.concatenate([level[:, 0] for level in want.keeps_with(left)])
            np.testing.assert_allclose(got.keeps_with(left), flat, rtol=0, atol=1e-11)


@pytest.mark.parametrize("game", sorted(SCORECARD_GAMES))
def test_request_turn_equals_turn_values(game: str, solved: Callable[[str], FloatArray]) -> None:
    ruleset = SCORECARD_GAMES[game]
    assert_turns_agree(ruleset, solved(game))


def test_request_turn_on_a_raw_upper_subtotal(solved: Callable[[str], FloatArray]) -> None:
    """A request's subtotal is the card's, not folded: 80 with the bonus secured reads the
    same values as the table's folded 63."""
    ruleset = SCORECARD_GAMES["yahtzee"]
    values = solved("yahtzee")
    space = state_space(ruleset)
    mask = 0b111111  # the upper section full: the subtotal decides the bonus
    for raw in (80, 63, 40):
        got = request_turn(ruleset, values, mask, raw, 0)
        want = turn_values(space, values, np.array([mask]), np.array([raw]), np.array([0]))
        flat = np.concatenate([level[:, 0] for level in want.keeps_with(2)])
        np.testing.assert_allclose(got.keeps_with(2), flat, rtol=0, atol=1e-11)
    with pytest.raises(ValueError, match="1 to 2 throws"):
        request_turn(ruleset, values, 0, 0, 0).keeps_with(3)


def test_request_turn_under_house_rules(solved_ruleset: Callable[[Ruleset], FloatArray]) -> None:
    """Free-choice Joker at natural value while the matching box is open, no Joker after a
    scratched five of a kind, and every box in scorecard order."""
    house = (
        variant("yardzee", matching_upper_forced=False),
        variant("yardzee", joker_when_scratched=False),
        variant("yatzy", order="forced", throws_per_turn=2),
    )
    for ruleset in house:
        assert_turns_agree(ruleset, solved_ruleset(ruleset), count=30)
