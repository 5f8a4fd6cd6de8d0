"""Playing a Yardkle turn to win: the exact chance of ending it with at least `need` points.

The expected-points policy (`policy.py`) is the right coach while a game is long; on a last
turn, or to get on the pad, what counts is reaching a number.  A player who needs 2,000 to
pass the leader gains nothing by banking 400.

The chance depends on the points still missing, not on the points in hand: with r units
still to make and n dice to throw, the turn is won by setting aside s >= r units (then
banking, which is always allowed there: off the pad, `need` is raised to the entry minimum)
or else by going on with r - s units missing and the dice left (all six again after hot
dice).  A Yardkle loses.  So

    W(r, n) = sum over scoring throws of n dice: p(throw) * max over set-asides
              [1 if s >= r else W(r - s, n')],          W(0, n) = 1,

and since every set-aside scores (s >= 1), W(r, .) needs only smaller r: one sweep from
r = 1 up, each level a gather over every (throw, set-aside) pair, a max per throw and one
product with the throws' chances (the arrays of `policy.throw_options`).  No simulation,
no table: a request's `need` up to the target is a few hundred levels, solved on the spot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

import numpy as np

from diceref.core.arrays import FloatArray, IndexArray
from diceref.games.yardkle.rules.scoring import YardkleRules
from diceref.games.yardkle.solver.policy import hot_dice_reach, kept_chance, throw_options


@dataclass(frozen=True)
class RaceOptions:
    """The throws and set-asides that matter to the race, merged exactly.

    Within a throw, of the set-asides leaving the same number of dice only the one with
    the most points matters (the chance of making r more units never grows with r), and
    throws whose remaining options are the same are one throw with their chances added:
    852 scoring throws and 3,006 set-asides become a few hundred of each, with the same
    answer.  `index[r]` is, for every option, where its next value lies in the flat
    (level, dice) array with r units missing (level 0 once the set-aside makes them), for
    r up to the target's levels; rows beyond are built when asked.
    """

    steps: IndexArray  # (options,) units the set-aside scores
    cols: IndexArray  # (options,) dice left after it, minus one (all again after hot dice)
    starts: IndexArray  # (throws,) first option of each merged throw
    chance: FloatArray  # (throws, dice): the merged throw's chance, in its dice's column
    index: IndexArray  # (levels + 1, options) flat positions, see above


@cache
def race_options(rules: YardkleRules) -> RaceOptions:
    opts = throw_options(rules)
    bounds = [*opts.starts.tolist(), len(opts.option_steps)]
    merged: dict[tuple[int, tuple[tuple[int, int], ...]], float] = {}
    for k, (lo, hi) in enumerate(pairwise(bounds)):
        most: dict[int, int] = {}
        for i in range(lo, hi):
            n, step = int(opts.option_next[i]), int(opts.option_steps[i])
            most[n] = max(most.get(n, 0), step)
        key = (int(opts.scoring_dice[k]), tuple(sorted((s, n - 1) for n, s in most.items())))
        merged[key] = merged.get(key, 0.0) + float(opts.scoring_probability[k])
    steps: list[int] = []
    cols: list[int] = []
    starts: list[int] = []
    chance = np.zeros((len(merged), rules.dice))
    for j, ((dice, options), p) in enumerate(sorted(merged.items())):
        starts.append(len(steps))
        chance[j, dice - 1] = p
        for step, col in options:
            steps.append(step)
            cols.append(col)
    s, c = np.array(steps, dtype=np.intp), np.array(cols, dtype=np.intp)
    levels = math.ceil(max(rules.target, rules.entry_minimum) / rules.unit)
    index = _index_rows(rules, s, c, np.arange(levels + 1))
    return RaceOptions(s, c, np.array(starts, dtype=np.intp), chance, index)


def _index_rows(
    rules: YardkleRules, steps: IndexArray, cols: IndexArray, levels: IndexArray
) -> IndexArray:
    d = rules.dice
    rows: IndexArray = np.maximum(
        (cols - steps * d)[None, :] + (levels * d)[:, None], cols[None, :]
    ).astype(np.intp)
    return rows


def effective_need(rules: YardkleRules, need: int, on_pad: bool) -> int:
    """The turn points that win: `need`, and off the pad at least the entry minimum (a
    turn under it cannot bank)."""
    return need if on_pad else max(need, rules.entry_minimum)


def missing_levels(rules: YardkleRules, need: int, turn_points: int) -> int:
    """Units still missing with `turn_points` in hand (0: the need is met)."""
    return max(0, math.ceil((need - turn_points) / rules.unit))


def win_chances(rules: YardkleRules, levels: int) -> FloatArray:
    """(levels + 1, dice) array: W[r, n - 1], the chance of making r more units with n dice
    to throw, playing to make them (W[0] = 1).  Solved on each call: for a need up to the
    target, a few hundred levels of three array operations each (about 1 ms)."""
    race = race_options(rules)
    d = rules.dice
    index, base = race.index, race.cols - race.steps * d
    w = np.zeros((levels + 1) * d)
    w[:d] = 1.0
    w[d - 1] = hot_dice_reach(rules)  # need met by hot dice: forced on, it may still be lost
    take, best, dot, chance, starts = w.take, np.maximum.reduceat, np.dot, race.chance, race.starts
    for r in range(1, levels + 1):
        at = index[r] if r < len(index) else np.maximum(base + r * d, race.cols)
        dot(best(take(at), starts), chance, out=w[r * d : (r + 1) * d])
    return w.reshape(levels + 1, d)


class Race:
    """The chances of one turn's race: solved once for the most units any option can be
    missing (those of the points in hand), read for each option."""

    def __init__(self, rules: YardkleRules, need: int, on_pad: bool, turn_points: int) -> None:
        self.rules = rules
        self.need = effective_need(rules, need, on_pad)
        self.w = win_chances(rules, missing_levels(rules, self.need, turn_points))

    def won(self, turn_points: int) -> bool:
        """Whether banking `turn_points` wins (banking is then allowed: see above)."""
        return turn_points >= self.need

    def throw_on(self, turn_points: int, dice: int) -> float:
        """Chance of ending with at least the need by throwing `dice` with `turn_points`
        in hand, playing to win from there (once the need is met: not throwing a Yardkle)."""
        r = missing_levels(self.rules, self.need, turn_points)
        if r == 0:
            return kept_chance(self.rules, dice)
        return float(self.w[r, dice - 1])
