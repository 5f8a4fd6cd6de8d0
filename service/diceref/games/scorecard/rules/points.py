"""Every box's points for every throw, precomputed once per ruleset.

Scoring a request and solving a game both reduce to lookups in these arrays, which is why
they are built from the box descriptions and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import IntArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import N_THROWS, THROWS, face_counts
from diceref.games.scorecard.rules.boxes import Section
from diceref.games.scorecard.rules.ruleset import Joker, Ruleset


@dataclass(frozen=True)
class PointsTable:
    """natural[first_throw][box, throw], joker[box, throw] and derived facts."""

    natural: tuple[IntArray, IntArray]  # index 1: the dice came from the turn's first throw
    joker: IntArray
    five_of_a_kind: npt.NDArray[np.bool_]  # (252,) throws showing five of one face
    five_face: IntArray  # (252,) that face, 0 elsewhere
    achievable: dict[str, frozenset[int]]  # every value a box can legitimately hold
    upper_min: dict[int, int]  # box index -> least points it can record
    upper_max: dict[int, int]
    # The same numbers as Python lists, per throw: scoring one request reads a dozen of
    # them, where numpy's scalar indexing would cost more than the arithmetic.
    by_throw: tuple[list[list[int]], list[list[int]]]  # [first][throw][box]
    joker_by_throw: list[list[int]]  # [throw][box]
    five_face_of: list[int]  # [throw] face of a five of a kind, else 0
    upper_floor: tuple[tuple[str, int], ...]  # (upper box id, least points it can record)


_CACHE: PerRuleset[str, PointsTable] = PerRuleset(256)


def points_table(ruleset: Ruleset) -> PointsTable:
    return _CACHE.get(ruleset.rules_hash, lambda: _build(ruleset))


def _build(ruleset: Ruleset) -> PointsTable:
    n_boxes = len(ruleset.boxes)
    natural = [np.zeros((n_boxes, N_THROWS), dtype=np.int64) for _ in range(2)]
    joker = np.zeros((n_boxes, N_THROWS), dtype=np.int64)
    for b, box in enumerate(ruleset.boxes):
        for t, dice in enumerate(THROWS):
            natural[0][b, t] = box.natural_points(dice, first_throw=False)
            natural[1][b, t] = box.natural_points(dice, first_throw=True)
            joker[b, t] = box.joker_points(dice)
    fc = face_counts()
    five = fc.max(axis=1) == 5
    five_face = np.where(five, fc.argmax(axis=1) + 1, 0)
    achievable: dict[str, frozenset[int]] = {}
    for b, box in enumerate(ruleset.boxes):
        values = {0, *natural[0][b].tolist(), *natural[1][b].tolist()}
        rule = ruleset.five_of_a_kind
        if rule is not None and rule.joker is not Joker.NONE and box.section is Section.LOWER:
            values |= set(joker[b][five].tolist())
        achievable[box.id] = frozenset(values)
    upper_min = {b: min(achievable[ruleset.boxes[b].id]) for b in ruleset.upper_indices}
    upper_max = {b: max(achievable[ruleset.boxes[b].id]) for b in ruleset.upper_indices}
    return PointsTable(
        natural=(natural[0], natural[1]),
        joker=joker,
        five_of_a_kind=five,
        five_face=five_face.astype(np.int64),
        achievable=achievable,
        upper_min=upper_min,
        upper_max=upper_max,
        by_throw=(natural[0].T.tolist(), natural[1].T.tolist()),
        joker_by_throw=joker.T.tolist(),
        five_face_of=five_face.tolist(),
        upper_floor=tuple((ruleset.boxes[b].id, least) for b, least in upper_min.items()),
    )
