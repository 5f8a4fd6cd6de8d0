"""What the policy's layout needs of every throw, for any points, as array work.

The layout (`policy.layout`: the banking bound, hence the table's levels) needs per throw
its best set-aside, its best keeping dice back and the points of setting all aside; per dice
count, the chance of a Yardkle and the expected best set-aside.  `policy.throw_options`
enumerates every set-aside, which checking a request's house rules must not pay for.  The
best set-aside is the best *packing* of disjoint combinations, and which packings a throw
has depends only on which combinations exist (and `groups_distinct_faces`), not the points:
so the packings of all 923 throws of one to six dice are listed once per process, and a
ruleset's figures are one matrix product with its points and a few segment maxima (a
packing using a combination the ruleset does not score is left out).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from diceref.core.arrays import FloatArray, IndexArray
from diceref.core.cache import per_ruleset
from diceref.core.dice import counts, multiset_probability, multisets
from diceref.games.yardkle.rules.ruleset import (
    POINTS_PARAMETERS,
    RULESETS_KEPT,
    Combination,
    YardkleRules,
)
from diceref.games.yardkle.rules.scoring import placements

MAX_DICE = 6


@dataclass(frozen=True)
class Packings:
    """Every packing of every throw of 1..6 dice, for one `groups_distinct_faces`.

    Row k is one packing: how many of each combination it uses (`uses`, columns in the
    order of `ids`), how many dice it covers and which throw it belongs to.  Throws are in
    `multisets` order by size, rows grouped by throw; row `starts[t]` is throw t's empty
    packing (every throw has one, so no segment is empty)."""

    ids: tuple[str, ...]
    uses: IndexArray  # (K, C)
    covered: IndexArray  # (K,)
    row_dice: IndexArray  # (K,) dice of the packing's throw
    starts: IndexArray  # (T,)
    throw_dice: IndexArray  # (T,)
    throw_probability: FloatArray  # (T,)


def _placed(combos: tuple[Combination, ...]) -> tuple[list[list[int]], list[tuple[int, ...]]]:
    """Every packing of at most six dice with the faces it takes: (how many of each
    combination, the dice counts it uses), combinations taken in index order."""
    uses: list[list[int]] = []
    taken: list[tuple[int, ...]] = []

    def grow(low: int, row: list[int], used: tuple[int, ...]) -> None:
        uses.append(list(row))
        taken.append(used)
        room = MAX_DICE - sum(used)
        for i in range(low, len(combos)):
            if combos[i].size > room:
                continue
            free = (room,) * 6  # any face may take the dice left
            for more in placements(combos[i], free):
                row[i] += 1
                grow(i, row, tuple(a + b for a, b in zip(used, more, strict=True)))
                row[i] -= 1

    grow(0, [0] * len(combos), (0,) * 6)
    return uses, taken


@lru_cache(maxsize=2)
def packings(groups_distinct_faces: bool) -> Packings:
    every = YardkleRules(groups_distinct_faces=groups_distinct_faces).combinations
    uses, taken = _placed(every)
    all_uses = np.array(uses, dtype=np.intp)
    all_taken = np.array(taken, dtype=np.intp)
    throws = [throw for n in range(1, MAX_DICE + 1) for throw in multisets(n)]
    throw_counts = np.array([counts(t) for t in throws], dtype=np.intp)
    fits = (all_taken[None, :, :] <= throw_counts[:, None, :]).all(axis=2)  # (T, P)
    which, index = np.nonzero(fits)  # by throw, the empty packing (row 0) first
    per_throw = fits.sum(axis=1)
    starts = np.concatenate([[0], np.cumsum(per_throw)[:-1]])
    return Packings(
        ids=tuple(c.id for c in every),
        uses=all_uses[index],
        covered=all_taken[index].sum(axis=1),
        row_dice=throw_counts[which].sum(axis=1),
        starts=starts.astype(np.intp),
        throw_dice=np.array([len(t) for t in throws], dtype=np.intp),
        throw_probability=np.array([multiset_probability(t) for t in throws]),
    )


@dataclass(frozen=True)
class ThrowSummary:
    """Per throw of 1..D dice and per dice count, what the layout needs (the tests check
    every figure, throw by throw, against `set_asides`)."""

    yardkle_chance: FloatArray  # (D,) q_n
    best_gain: FloatArray  # (D,) a_n
    # Per scoring throw: dice, chance, best set-aside keeping dice back (-inf: none) and
    # the points of setting all its dice aside (-inf: they do not all score).
    dice: IndexArray
    probability: FloatArray
    kept_back: FloatArray
    whole: FloatArray
    max_points: int  # the largest set-aside of any throw


def scoring_key(rules: YardkleRules) -> YardkleRules:
    """The rules with every field that does not change a throw's set-asides at its
    default: the key of what depends on the throws alone, so that another target or entry
    minimum reuses it."""
    return YardkleRules(
        dice=rules.dice,
        groups_distinct_faces=rules.groups_distinct_faces,
        **{c: getattr(rules, c) for c in POINTS_PARAMETERS},
    )


def throw_summary(rules: YardkleRules) -> ThrowSummary:
    return _summary(scoring_key(rules))


@per_ruleset(RULESETS_KEPT)
def _summary(rules: YardkleRules) -> ThrowSummary:
    table = packings(rules.groups_distinct_faces)
    points = {c.id: c.points for c in rules.combinations}
    value = np.array([points.get(i, 0) for i in table.ids], dtype=np.float64)
    present = np.array([i in points for i in table.ids])
    valid = ~(table.uses[:, ~present] > 0).any(axis=1) & (table.covered > 0)
    worth = np.where(valid, table.uses @ value, -np.inf)
    n_throws = int(np.searchsorted(table.throw_dice, rules.dice, side="right"))
    end = int(table.starts[n_throws]) if n_throws < len(table.starts) else len(worth)
    worth, covered, dice_of_row = worth[:end], table.covered[:end], table.row_dice[:end]
    starts = table.starts[:n_throws]
    best = np.maximum.reduceat(worth, starts)
    back = np.maximum.reduceat(np.where(covered < dice_of_row, worth, -np.inf), starts)
    whole = np.maximum.reduceat(np.where(covered == dice_of_row, worth, -np.inf), starts)
    dice, probability = table.throw_dice[:n_throws], table.throw_probability[:n_throws]
    scores = best > -np.inf
    q = np.bincount(dice[~scores] - 1, probability[~scores], minlength=rules.dice).astype(float)
    gains = (probability * np.where(scores, best, 0))[scores]
    a = np.bincount(dice[scores] - 1, gains, minlength=rules.dice).astype(float)
    return ThrowSummary(
        yardkle_chance=q[: rules.dice],
        best_gain=a[: rules.dice],
        dice=dice[scores],
        probability=probability[scores],
        kept_back=back[scores],
        whole=whole[scores],
        max_points=int(best[scores].max()),
    )
