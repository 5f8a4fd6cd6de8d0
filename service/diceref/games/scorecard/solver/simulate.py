"""Seeded simulation of optimal play: the check that a table's expectation is what optimal
play really scores, independent of the backward induction's bookkeeping.

Every decision (keep or stand, which box) is taken from the same advice the API gives, so
a mean that drifts from the table's value beyond its standard error exposes a disagreement
between the solve and the per-request evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray
from diceref.core.dice import DICE_PER_THROW
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import (
    Scorecard,
    card_total,
    extra_bonus_for,
    is_complete,
)
from diceref.games.scorecard.solver.advice import BoxAdvice, KeepAdvice, advise


@dataclass(frozen=True)
class SimulationSummary:
    games: int
    seed: int
    mean: float
    std: float
    standard_error: float
    percentiles: dict[int, float]
    minimum: int
    maximum: int


def play_one(ruleset: Ruleset, values: FloatArray, rng: np.random.Generator) -> int:
    """One game played optimally; returns the final score (bonuses included)."""
    card = Scorecard()
    while not is_complete(ruleset, card.boxes):
        dice = sorted(rng.integers(1, 7, size=DICE_PER_THROW).tolist())
        throw = 1
        while True:
            left = ruleset.throws_per_turn - throw
            best = advise(ruleset, values, card, dice, left, throw)[0]
            if isinstance(best, KeepAdvice) and left > 0 and len(best.keep) < 5:
                rolled = rng.integers(1, 7, size=DICE_PER_THROW - len(best.keep)).tolist()
                dice = sorted([*best.keep, *rolled])
                throw += 1
                continue
            if isinstance(best, KeepAdvice):  # keeping all five is standing: take the box
                best = next(
                    a
                    for a in advise(ruleset, values, card, dice, 0, throw)
                    if isinstance(a, BoxAdvice)
                )
            assert isinstance(best, BoxAdvice)
            extra = extra_bonus_for(ruleset, card.boxes, dice)
            card = Scorecard({**card.boxes, best.box: best.points}, card.extra_bonus + extra)
            break
    return card_total(ruleset, card)


def simulate(ruleset: Ruleset, values: FloatArray, games: int, seed: int) -> SimulationSummary:
    rng = np.random.default_rng(seed)
    scores: npt.NDArray[np.int64] = np.array(
        [play_one(ruleset, values, rng) for _ in range(games)], dtype=np.int64
    )
    std = float(scores.std(ddof=1)) if games > 1 else 0.0
    return SimulationSummary(
        games=games,
        seed=seed,
        mean=float(scores.mean()),
        std=std,
        standard_error=std / games**0.5,
        percentiles={p: float(np.percentile(scores, p)) for p in (5, 25, 50, 75, 95)},
        minimum=int(scores.min()),
        maximum=int(scores.max()),
    )
