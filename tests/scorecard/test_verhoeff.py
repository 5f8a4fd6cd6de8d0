"""Verhoeff's published figures for optimal solitaire Yahtzee, from the tables as served.

His convention is `yardzee` with the free-choice Joker and no forced matching upper box.
Optimal play has mean 254.5896 and standard deviation 59.6117, median 248; exact ties
between equally good options move the SD by up to 3e-4, and ours follows the tie rule of
docs/solver.md.  The distribution table is solved once (about ten seconds on two cores) and
kept in the test disk cache.
"""

from __future__ import annotations

import pytest

from conftest import make_test_store
from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.rules.turn import card_state
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.scorecard.solver.target import final_distribution
from diceref.games.scorecard.tables import band_table, distribution_spec, value_spec
from diceref.tables.spec import load_sync

pytestmark = pytest.mark.slow


def test_the_empty_card_has_verhoeffs_mean_sd_and_median() -> None:
    ruleset = variant("yardzee", matching_upper_forced=False)
    store = make_test_store()
    values = load_sync(store, value_spec(ruleset)).array
    dist = band_table(load_sync(store, distribution_spec(ruleset)).array)
    mask, sub, flag = card_state(ruleset, {})
    final = final_distribution(ruleset, values, dist, mask, sub, flag, 0)
    assert final.mean == pytest.approx(254.5896, abs=5e-5)
    empty = state_space(ruleset).index_one(mask, sub, flag)
    assert final.mean == pytest.approx(float(values[empty]), abs=1e-7)  # the value table's
    assert final.sd == pytest.approx(59.6117, abs=3e-4)
    assert final.quantile(0.5) == 248
    assert final.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
