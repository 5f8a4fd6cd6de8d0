"""One state (a request's) takes scalar shortcuts through `engine.turn_values`; they must
give what the same state gives inside a batch (the numpy path the reference solve uses),
Joker and extra-bonus states included: the placements exactly (maxima and one addition
each), the keep values to rounding (numpy sums six values in another order for one column
than for many)."""

from __future__ import annotations

import numpy as np
import pytest

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.solver.engine import turn_values
from diceref.games.scorecard.solver.statespace import state_space


@pytest.mark.parametrize("game", sorted(SCORECARD_GAMES))
def test_one_state_equals_the_same_state_in_a_batch(game: str, solved: object) -> None:
    ruleset = SCORECARD_GAMES[game]
    values: FloatArray = solved(game)  # type: ignore[operator]
    space = state_space(ruleset)
    mask, sub, flag = space.all_states()
    open_states = np.flatnonzero(mask != (1 << space.n_boxes) - 1)
    rng = np.random.default_rng(3)
    pick = rng.choice(open_states, size=40, replace=False)
    five = ruleset.five_box_index
    if five is not None:  # make sure some have the five-of-a-kind box used (Joker rows)
        used = open_states[(mask[open_states] >> five & 1) == 1]
        pick = np.concatenate([pick, rng.choice(used, size=20, replace=False)])
    batch = turn_values(space, values, mask[pick], sub[pick], flag[pick])
    for j, i in enumerate(pick.tolist()):
        one = turn_values(space, values, mask[i : i + 1], sub[i : i + 1], flag[i : i + 1])
        np.testing.assert_array_equal(one.placements.later[:, 0], batch.placements.later[:, j])
        np.testing.assert_array_equal(one.placements.first[:, 0], batch.placements.first[:, j])
        assert one.start[0] == pytest.approx(batch.start[j], rel=1e-13)
        for got, want in zip(one.keep_after_first, batch.keep_after_first, strict=True):
            np.testing.assert_allclose(got[:, 0], want[:, j], rtol=1e-13)
        for got, want in zip(one.keep_after_second, batch.keep_after_second, strict=True):
            np.testing.assert_allclose(got[:, 0], want[:, j], rtol=1e-13)
