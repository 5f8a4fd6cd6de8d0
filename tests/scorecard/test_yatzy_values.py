"""Known optimal expected scores from an empty card (issue 13, item 7), solved with the
real solver: the values published with the peer solver yatzy-solver, which
`test_yatzy_reference.py` also reproduces with the package itself, option by option.

The tables come from the shared disk cache (`solved_ruleset`), keyed by the rules' hash,
so each variant is solved once (a few seconds) and loaded in milliseconds afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import Scorecard
from diceref.games.scorecard.solver.advice import expected_final_score

pytestmark = pytest.mark.slow

FH5 = {"full_house_accepts_five_of_a_kind": True}
TP4 = {"two_pairs_accepts_four_of_a_kind": True}
KNOWN: list[tuple[str, dict[str, Any], float]] = [
    ("yatzy", {}, 248.4399894),
    ("yatzy", FH5, 248.4680909),
    ("yatzy", TP4, 248.6440589),
    ("yatzy", {**FH5, **TP4}, 248.6748827),
    ("yahtzee", {"joker": "free_choice", "matching_upper_forced": False}, 254.5896095),
    ("yahtzee", {"joker": "none"}, 253.9702412),
    ("yahtzee", {"joker": "none", "extra_bonus": 0}, 245.8707745),
]


@pytest.mark.parametrize(
    ("build", "rules", "value"),
    KNOWN,
    ids=[f"{b}-{'-'.join(f'{k}={v}' for k, v in r.items()) or 'default'}" for b, r, _ in KNOWN],
)
def test_known_optimal_expected_score(
    build: str,
    rules: dict[str, Any],
    value: float,
    solved_ruleset: Callable[[Ruleset], FloatArray],
) -> None:
    ruleset = variant(build, **rules)
    got = expected_final_score(ruleset, solved_ruleset(ruleset), Scorecard())
    assert got == pytest.approx(value, abs=5e-8)  # the values are given to 7 decimals


def test_the_readings_only_add_choices(solved_ruleset: Callable[[Ruleset], FloatArray]) -> None:
    """Each reading lets a throw score in one more box, so no optimum can go down."""
    start = {
        name: expected_final_score(r, solved_ruleset(r), Scorecard())
        for name, r in {
            "plain": variant("yatzy"),
            "fh5": variant("yatzy", **FH5),
            "tp4": variant("yatzy", **TP4),
            "both": variant("yatzy", **FH5, **TP4),
        }.items()
    }
    assert start["plain"] < start["fh5"] < start["both"]
    assert start["plain"] < start["tp4"] < start["both"]
