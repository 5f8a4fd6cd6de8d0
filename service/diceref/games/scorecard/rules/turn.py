"""A scorecard turn's rules, compiled once per ruleset: where a throw may go and what it earns.

This is the one place that says which open boxes the order lets a throw fill, where a Joker
may go in each reading, and when the extra five-of-a-kind bonus and the upper bonus are
earned.  `/score`, reviews and the coach read `TurnModel.placements`; the solver builds its
kernel programs and the one-state evaluation behind `/holds` from the same model (`fives`
says what each five of a kind may fill), so a new reading changes this module only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray, IntArray
from diceref.core.cache import PerRuleset
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Joker, Order, Ruleset

BoolArray = npt.NDArray[np.bool_]


class Candidate(NamedTuple):
    """A box a throw may fill and the points it records there."""

    box: int
    points: int


Tiers = tuple[tuple[Candidate, ...], ...]
"""Where a Joker may go, in order of precedence: the legal boxes are those of the first tier
that has a box the order lets the throw fill (the forced Joker: a lower box, else an upper
one)."""


@dataclass(frozen=True)
class FiveThrow:
    """A five of a kind once the five-of-a-kind box is filled (or scratched), when the Joker
    applies: where it may go while its face's upper box is open, and once that box is filled.
    `None` there means it scores like any other throw (the dice's own points, first-throw
    multipliers included)."""

    face: int
    throw: int  # index in `THROWS`
    matching: int  # the upper box of its face
    matching_open: Tiers | None
    matching_filled: Tiers | None

    def tiers(self, mask: int) -> Tiers | None:
        return self.matching_filled if mask >> self.matching & 1 else self.matching_open


class Placement(NamedTuple):
    """A legal placement with what it earns (bonuses included) and the state it leads to."""

    box: int
    points: int
    upper_bonus: int
    extra_bonus: int
    mask: int  # the state after it: boxes filled, raw upper subtotal, five box holds its top
    sub: int
    flag: int


@dataclass(frozen=True)
class TurnModel:
    """A ruleset's turn as plain data and a few functions of a state (mask, upper subtotal,
    flag: the five-of-a-kind box holds its top score) and a throw."""

    ruleset: Ruleset
    box_range: range  # every box, in scorecard order
    n_upper: int  # the upper boxes lead the scorecard
    five: int | None  # the five-of-a-kind box, in a game with a five-of-a-kind rule
    five_top: int
    natural: tuple[list[list[int]], list[list[int]]]  # [first throw][throw][box]
    five_face: list[int]  # per throw: the face of a five of a kind, else 0
    fives: dict[int, FiveThrow]  # by throw; empty without a Joker
    extra_bonus: int  # per further five of a kind once the box holds its top score
    joker_when_scratched: bool
    upper_least: tuple[int, ...]  # per upper box: the least points it can record
    open_least: tuple[int, ...]  # per upper mask: what its open upper boxes add at least
    upper_all: int  # the mask of the upper boxes

    def fillable(self, mask: int) -> list[int]:
        """The open boxes the order lets a throw fill, in scorecard order."""
        open_boxes = [b for b in self.box_range if not mask >> b & 1]
        order = self.ruleset.order
        if order is Order.SERIES:
            upper = [b for b in open_boxes if b < self.n_upper]
            return upper or open_boxes
        if order is Order.FORCED:
            return open_boxes[:1]
        return open_boxes

    def joker_on(self, mask: int, flag: int) -> bool:
        """The Joker applies: its box is used, holding its top score (or scratched, in the
        reading where a scratch still counts)."""
        five = self.five
        return (
            bool(self.fives)
            and five is not None
            and bool(mask >> five & 1)
            and (flag == 1 or self.joker_when_scratched)
        )

    def joker_on_each(self, mask: IntArray, flag: IntArray) -> BoolArray:
        """`joker_on` for arrays of states."""
        five = self.five
        if not self.fives or five is None:
            return np.zeros(len(mask), dtype=bool)
        on: BoolArray = ((mask >> five & 1) == 1) & ((flag == 1) | self.joker_when_scratched)
        return on

    def extra_each(self, flag: IntArray) -> FloatArray:
        """The extra bonus a five of a kind earns from each of an array of states."""
        extra: FloatArray = np.where(flag == 1, float(self.extra_bonus), 0.0)
        return extra

    def extra_for(self, flag: int, throw: int) -> int:
        """The extra bonus a five of a kind earns: its box already holds the top score."""
        return self.extra_bonus if flag == 1 and self.five_face[throw] else 0

    def candidates(
        self, mask: int, flag: int, throw: int, first_throw: bool
    ) -> list[tuple[int, int]]:
        """Every box the throw may fill from this state, with its points (box, points)."""
        fillable = self.fillable(mask)
        five = self.fives.get(throw)
        tiers = five.tiers(mask) if five is not None and self.joker_on(mask, flag) else None
        if tiers is None:
            points = self.natural[1 if first_throw else 0][throw]
            return [(b, points[b]) for b in fillable]
        allowed = set(fillable)
        for tier in tiers:
            legal = [(box, points) for box, points in tier if box in allowed]
            if legal:
                return legal
        return []

    def upper_bonus_each(self, mask: IntArray, sub: IntArray, box: int, points: int) -> IntArray:
        """The upper bonus that `points` in upper box `box` earns from each of an array of
        states (the box open): it secures the bonus, which was not secured before."""
        worst = sub + np.asarray(self.open_least)[mask & self.upper_all]
        reached = self._reached_each
        earned: IntArray = np.where(
            ~reached(worst) & reached(worst - self.upper_least[box] + points),
            self.ruleset.upper_bonus.points,
            0,
        )
        return earned

    def _reached_each(self, subtotal: IntArray) -> BoolArray:
        bonus = self.ruleset.upper_bonus
        out: BoolArray = (
            subtotal > bonus.threshold if bonus.strictly_greater else subtotal >= bonus.threshold
        )
        return out

    def scored(
        self, mask: int, sub: int, flag: int, throw: int, first_throw: bool
    ) -> list[tuple[int, int, int, int]]:
        """Every legal placement of the throw as (box, points, upper bonus, extra bonus).

        The upper bonus counts once no open upper box can take it away (russian-poker's boxes
        go below zero): a placement earns it when it secures it."""
        bonus = self.ruleset.upper_bonus
        least = self.upper_least
        worst = sub + self.open_least[mask & self.upper_all]
        extra = self.extra_for(flag, throw)
        options = self.candidates(mask, flag, throw, first_throw)
        if bonus.reached(worst):  # secured already: no placement earns it
            return [(box, points, 0, extra) for box, points in options]
        n_upper, reached, earn = self.n_upper, bonus.reached, bonus.points
        return [
            (
                box,
                points,
                earn if box < n_upper and reached(worst - least[box] + points) else 0,
                extra,
            )
            for box, points in options
        ]

    def placements(
        self, mask: int, sub: int, flag: int, throw: int, first_throw: bool
    ) -> list[Placement]:
        """`scored`, each placement with the state it leads to."""
        out = []
        for box, points, upper_bonus, extra in self.scored(mask, sub, flag, throw, first_throw):
            upper = box < self.n_upper
            after_flag = 1 if box == self.five and points == self.five_top else flag
            out.append(
                Placement(
                    box,
                    points,
                    upper_bonus,
                    extra,
                    mask | 1 << box,
                    sub + points if upper else sub,
                    after_flag,
                )
            )
        return out


def card_state(ruleset: Ruleset, boxes: Mapping[str, int]) -> tuple[int, int, int]:
    """A card's state: (boxes filled as a mask, upper subtotal, five box holds its top)."""
    mask = sub = 0
    n_upper = len(ruleset.upper_indices)
    index = ruleset.box_index
    for box_id, points in boxes.items():
        b = index.get(box_id)
        if b is not None:
            mask |= 1 << b
            if b < n_upper:
                sub += points
    rule = ruleset.five_of_a_kind
    flag = 1 if rule is not None and boxes.get(rule.box) == ruleset.five_box_top else 0
    return mask, sub, flag


def _tiers(ruleset: Ruleset, throw: int, face: int) -> tuple[Tiers | None, Tiers | None]:
    """The Joker readings: what a five of a kind may fill while its upper box is open, and
    once it is filled."""
    rule = ruleset.five_of_a_kind
    assert rule is not None and rule.joker is not Joker.NONE
    joker = points_table(ruleset).joker_by_throw[throw]
    matching = ruleset.upper_box_of_face[face]
    # While the matching box is open: it alone, or (Verhoeff's free choice) any open box at
    # natural value, the Joker values applying once it is filled.
    when_open = ((Candidate(matching, joker[matching]),),) if rule.matching_upper_forced else None
    five = ruleset.five_box_index
    lower = tuple(Candidate(b, joker[b]) for b in ruleset.lower_indices if b != five)
    # An upper box records what these dice score there (0 in most games: none of its face).
    upper = tuple(Candidate(b, joker[b]) for b in ruleset.upper_indices if b != matching)
    if rule.joker is Joker.FORCED:  # a lower box at full value, else an upper one
        return when_open, tuple(tier for tier in (lower, upper) if tier)
    return when_open, (tuple(sorted(upper + lower)),)


def _build(ruleset: Ruleset) -> TurnModel:
    table = points_table(ruleset)
    upper = ruleset.upper_indices
    assert upper == tuple(range(len(upper))), "upper boxes must lead the scorecard"
    rule = ruleset.five_of_a_kind
    least = tuple(table.upper_min[b] for b in upper)
    fives: dict[int, FiveThrow] = {}
    if rule is not None and rule.joker is not Joker.NONE:
        for throw, face in enumerate(table.five_face_of):
            if face:
                when_open, when_filled = _tiers(ruleset, throw, face)
                fives[throw] = FiveThrow(
                    face, throw, ruleset.upper_box_of_face[face], when_open, when_filled
                )
    return TurnModel(
        ruleset=ruleset,
        box_range=range(len(ruleset.boxes)),
        n_upper=len(upper),
        five=ruleset.five_box_index,
        five_top=ruleset.five_box_top,
        natural=table.by_throw,
        five_face=table.five_face_of,
        fives=fives,
        extra_bonus=0 if rule is None else rule.extra_bonus,
        joker_when_scratched=rule is not None and rule.joker_when_scratched,
        upper_least=least,
        open_least=tuple(
            sum(least[b] for b in upper if not key >> b & 1) for key in range(1 << len(upper))
        ),
        upper_all=(1 << len(upper)) - 1,
    )


_MODELS: PerRuleset[str, TurnModel] = PerRuleset(256)


def turn_model(ruleset: Ruleset) -> TurnModel:
    """The ruleset's compiled turn (kept for the rulesets used most recently)."""
    return _MODELS.get(ruleset.rules_hash, lambda: _build(ruleset))


__all__ = ["Candidate", "FiveThrow", "Placement", "Tiers", "TurnModel", "card_state", "turn_model"]
