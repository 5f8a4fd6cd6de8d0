"""Every box's points for every throw, precomputed once per ruleset.

Scoring a request and solving a game both reduce to lookups in these arrays, which is why
they are built from the box descriptions and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import IntArray
from diceref.core.dice import DICE_PER_THROW, N_THROWS, THROWS, face_counts
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


_CACHE: dict[str, PointsTable] = {}


def points_table(ruleset: Ruleset) -> PointsTable:
    key = ruleset.rules_hash
    table = _CACHE.get(key)
    if table is None:
        table = _CACHE[key] = _build(ruleset)
    return table


@cache
def box_points(box: Box) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A box's points for every throw: natural (later throws, the first throw) and Joker.

    Per box, not per ruleset: most games share most boxes (and a house rule changes one or
    two), and a process builds the table of every built-in game at start-up, where the
    scalar rules' 50,000 calls per game were a quarter of a second."""
    later = tuple(box.natural_points(dice, first_throw=False) for dice in THROWS)
    if box.first_throw_multiplier == 1:
        first = later
    else:
        first = tuple(box.natural_points(dice, first_throw=True) for dice in THROWS)
    return later, first, tuple(box.joker_points(dice) for dice in THROWS)


@cache
def upper_extremes(ruleset: Ruleset) -> tuple[dict[int, int], dict[int, int]]:
    """The least and the most points each upper box can record (a scratch included).

    An upper box scores by how many dice show its face, so one throw per count (0..5) says
    it all: the state space's size needs only this, and a process lists every game's
    tables (their shapes) at start-up without building each game's points table."""
    low: dict[int, int] = {}
    high: dict[int, int] = {}
    for b in ruleset.upper_indices:
        box = ruleset.boxes[b]
        other = 1 if box.face != 1 else 2
        got = {0}
        for count in range(DICE_PER_THROW + 1):
            dice = tuple(sorted((box.face,) * count + (other,) * (DICE_PER_THROW - count)))
            got |= {box.natural_points(dice, first) for first in (False, True)}
        low[b], high[b] = min(got), max(got)
    return low, high


def _build(ruleset: Ruleset) -> PointsTable:
    n_boxes = len(ruleset.boxes)
    rows = [box_points(box) for box in ruleset.boxes]
    natural = [
        np.array([r[v] for r in rows], dtype=np.int64).reshape(n_boxes, N_THROWS) for v in (0, 1)
    ]
    joker = np.array([r[2] for r in rows], dtype=np.int64).reshape(n_boxes, N_THROWS)
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
    upper_min, upper_max = upper_extremes(ruleset)
    for b in ruleset.upper_indices:  # the shortcut below agrees with every throw's points
        held = achievable[ruleset.boxes[b].id]
        assert (upper_min[b], upper_max[b]) == (min(held), max(held))
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
