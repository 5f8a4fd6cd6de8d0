"""Every box's points for every throw, precomputed once per ruleset.

Scoring a request and solving a game both reduce to lookups in these arrays, which is why
they are built from the box descriptions and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import IntArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import THROWS, face_counts
from diceref.games.scorecard.rules.boxes import Box, Section
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


# A box's points for every throw, by the box's description: house rules mostly change the
# bonuses, the Joker or the order, not the boxes, so a variant reuses its boxes' rows (the
# rows of a new box cost a few milliseconds, on the request path that first names it).
_BOX_ROWS: PerRuleset[Box, tuple[IntArray, IntArray, IntArray]] = PerRuleset(1024)


def _box_rows(box: Box) -> tuple[IntArray, IntArray, IntArray]:
    later = np.array([box.natural_points(d, first_throw=False) for d in THROWS], dtype=np.int64)
    if box.first_throw_multiplier == 1:
        first = later  # the same points whichever throw made them
    else:
        first = np.array([box.natural_points(d, first_throw=True) for d in THROWS], dtype=np.int64)
    joker = np.array([box.joker_points(d) for d in THROWS], dtype=np.int64)
    for row in (later, first, joker):
        row.setflags(write=False)
    return later, first, joker


def _build(ruleset: Ruleset) -> PointsTable:
    rows = [_BOX_ROWS.get(box, partial(_box_rows, box)) for box in ruleset.boxes]
    natural = [np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows])]
    joker = np.stack([r[2] for r in rows])
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
