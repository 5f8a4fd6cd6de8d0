"""Seeded simulations of optimal play land on the table's expected score."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import Scorecard
from diceref.games.scorecard.solver.advice import expected_final_score
from diceref.games.scorecard.solver.simulate import simulate


@pytest.mark.parametrize("game", sorted(SCORECARD_GAMES))
def test_simulated_mean_within_four_standard_errors(
    game: str, solved: Callable[[str], FloatArray]
) -> None:
    ruleset = SCORECARD_GAMES[game]
    values = solved(game)
    summary = simulate(ruleset, values, games=120, seed=2026)
    expected = expected_final_score(ruleset, values, Scorecard())
    assert summary.standard_error > 0
    assert abs(summary.mean - expected) < 4 * summary.standard_error, (summary, expected)
    assert summary.minimum <= summary.percentiles[50] <= summary.maximum


def test_simulation_is_reproducible(solved: Callable[[str], FloatArray]) -> None:
    ruleset = SCORECARD_GAMES["chute-5"]
    first = simulate(ruleset, solved("chute-5"), games=20, seed=5)
    again = simulate(ruleset, solved("chute-5"), games=20, seed=5)
    assert first == again
