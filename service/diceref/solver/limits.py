"""The most points a scorecard game can give: every throw chosen, the bonuses included.

Solved with the same placement step as the expectation (max over throws instead of the
mean over a turn), so Joker and bonus rules are counted exactly as they are played.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from diceref.rules.ruleset import Ruleset
from diceref.solver.engine import solve_max
from diceref.solver.statespace import state_space


@cache
def max_score(ruleset: Ruleset) -> int:
    space = state_space(ruleset)
    zero = np.zeros(1, dtype=np.int64)
    start = space.index(zero, zero, zero)[0]
    return round(float(solve_max(ruleset)[start]))
