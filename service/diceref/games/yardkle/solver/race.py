"""Playing a Yardkle turn to win: the exact chance of ending it with at least `need` points.

On a last turn, or to get on the pad, what counts is reaching a number, not the expected
points (`policy.py`).  The chance W(r, n) depends only on the r units still missing and the
n dice to throw, and every set-aside scores, so W(r, .) needs only smaller r: one sweep from
r = 1 up, a few array operations a level, solved on the spot.  The levels a request solves
are the first of every later request's, so they are kept per ruleset (`_MEMO`) and a request
solves only the levels no earlier one has; `MAX_LEVELS` bounds them.  The recurrence and
the figures: docs/reviews.md, "The race: `need`".
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray, IndexArray
from diceref.core.cache import PerRuleset, per_ruleset
from diceref.core.errors import RuleViolation
from diceref.games.yardkle.rules.ruleset import RULESETS_KEPT
from diceref.games.yardkle.rules.scoring import YardkleRules
from diceref.games.yardkle.solver.policy import hot_dice_reach, kept_chance, throw_options
from diceref.games.yardkle.solver.throws import scoring_key

MAX_LEVELS = 2_000  # units a race may miss: a need of 100,000 at the built-in unit (50)
MEMO_RULESETS = 16  # rulesets whose solved levels are kept (least recently raced leave)
CHUNK = 64  # levels solved at least, and whose gather positions are built, at a time


@dataclass(frozen=True)
class RaceOptions:
    """The throws and set-asides that matter to the race, merged exactly, as a grid.

    Within a throw, of the set-asides leaving the same number of dice only the one with
    the most points matters (the chance of making r more units never grows with r), and
    throws whose remaining options are the same are one throw with their chances added:
    852 scoring throws and 3,006 set-asides become 231 throws of at most one option per
    count of dice left.  Row j of the grid holds every merged throw's j-th option (a throw
    with fewer is padded with a cell worth 0), so a level is one gather of the grid, a max
    down its columns and one product with the chances.
    """

    offsets: IndexArray  # (width, throws) flat position of the option's next value, less r x dice
    floors: IndexArray  # (width, throws) its position once the set-aside makes the need
    padding: npt.NDArray[np.bool_]  # (width, throws) cells without an option
    chance: FloatArray  # (throws, dice): the merged throw's chance, in its dice's column


def race_options(rules: YardkleRules) -> RaceOptions:
    """The race's grid of options, kept per scoring rules (another target reuses it)."""
    return _race_options(scoring_key(rules))


@per_ruleset(RULESETS_KEPT)
def _race_options(rules: YardkleRules) -> RaceOptions:
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
    d = rules.dice
    width = max(len(options) for _, options in merged)
    shape = (width, len(merged))
    # The solved chances lie flat, `d` to a level, after one row of zeros (the padding's
    # cell): W(r, n) at (r + 1) x d + n - 1.
    offsets = np.zeros(shape, dtype=np.intp)
    floors = np.zeros(shape, dtype=np.intp)
    padding = np.ones(shape, dtype=np.bool_)
    chance = np.zeros((len(merged), d))
    for j, ((dice, options), p) in enumerate(sorted(merged.items())):
        chance[j, dice - 1] = p
        for i, (step, col) in enumerate(options):
            offsets[i, j] = (1 - step) * d + col
            floors[i, j] = d + col
            padding[i, j] = False
    return RaceOptions(offsets, floors, padding, chance)


def effective_need(rules: YardkleRules, need: int, on_pad: bool) -> int:
    """The turn points that win: `need`, and off the pad at least the entry minimum (a
    turn under it cannot bank)."""
    return need if on_pad else max(need, rules.entry_minimum)


def missing_levels(rules: YardkleRules, need: int, turn_points: int) -> int:
    """Units still missing with `turn_points` in hand (0: the need is met)."""
    return max(0, math.ceil((need - turn_points) / rules.unit))


def check_need(rules: YardkleRules, need: int, field: str = "need") -> None:
    """Refuse a need beyond the levels a race is solved for (only a house rule with a
    scoring unit under 50 can ask for one: at 50, every need a request may send fits)."""
    if missing_levels(rules, need, 0) > MAX_LEVELS:
        raise RuleViolation(
            field,
            f"with a scoring unit of {rules.unit} the race is solved for needs up to "
            f"{MAX_LEVELS * rules.unit:,} ({MAX_LEVELS:,} units), got {need:,}",
            "out_of_range",
        )


_MEMO: PerRuleset[YardkleRules, FloatArray] = PerRuleset(MEMO_RULESETS)
_MEMO_LOCK = threading.Lock()  # requests run on one event loop, the CLI and tests may not


def forget_chances() -> None:
    """Drop every kept level (the benchmark's cold start: a process's first race)."""
    with _MEMO_LOCK:
        _MEMO.clear()


def _solve_levels(rules: YardkleRules, known: FloatArray | None, levels: int) -> FloatArray:
    """The flat chances through level `levels` (see `race_options`), the rows of `known`
    copied and the rest solved level by level from there."""
    race = race_options(rules)
    d = rules.dice
    flat = np.zeros((levels + 2) * d)
    if known is None:
        flat[d : 2 * d] = 1.0  # W(0, n) = 1: the need is met
        flat[2 * d - 1] = hot_dice_reach(rules)  # met by hot dice: forced on, may be lost
        start = 1
    else:
        flat[: len(known)] = known
        start = len(known) // d - 1
    rows = flat.reshape(levels + 2, d)
    take, best, dot, chance = flat.take, np.maximum.reduce, np.dot, race.chance
    for lo in range(start, levels + 1, CHUNK):
        hi = min(lo + CHUNK, levels + 1)
        at = np.maximum(
            race.offsets[None] + (np.arange(lo, hi) * d)[:, None, None], race.floors[None]
        )
        at[:, race.padding] = 0
        for where, out in zip(at, rows[lo + 1 : hi + 1], strict=True):
            dot(best(take(where), 0), chance, out)
    flat.setflags(write=False)
    return flat


def win_chances(rules: YardkleRules, levels: int) -> FloatArray:
    """(levels + 1, dice) read-only array: W[r, n - 1], the chance of making r more units
    with n dice to throw, playing to make them (W[0] = 1).  The levels no earlier request
    of the ruleset solved are solved now (at least `CHUNK` at a time, so a few requests
    solve all the levels a game asks for; docs/reviews.md has the cost of a level)."""
    if levels > MAX_LEVELS:
        raise ValueError(f"a race is solved for at most {MAX_LEVELS} levels, not {levels}")
    d = rules.dice
    with _MEMO_LOCK:
        known = _MEMO.peek(rules)
        if known is None or len(known) < (levels + 2) * d:
            solved = 0 if known is None else len(known) // d - 2
            known = _solve_levels(rules, known, min(MAX_LEVELS, max(levels, solved + CHUNK)))
            _MEMO.put(rules, known)
    return known[d : (levels + 2) * d].reshape(levels + 1, d)


class Race:
    """The chances of one turn's race: solved for the most units any option can be
    missing (those of the points in hand), read for each option."""

    def __init__(self, rules: YardkleRules, need: int, on_pad: bool, turn_points: int) -> None:
        self.rules = rules
        self.need = effective_need(rules, need, on_pad)
        check_need(rules, self.need)
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
