"""A scorecard ruleset as one typed document: the shape `GET /games/{game}` publishes, a
request's `ruleset` sends, and the built-in games are written in.

A box is a tagged union on `pattern`: each pattern's Struct carries the fields that pattern
and its scoring rules take, under their public names, so a field that would change nothing
(a run on a pair) has nowhere to go.  `boxes.Box` is what a box compiles to: the form the
scoring code and the solver read.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

import msgspec
from msgspec import UNSET, Meta, UnsetType

from diceref.games.scorecard.rules.boxes import Box, Pattern, Points, Section
from diceref.games.scorecard.rules.ruleset import (
    MAX_BONUS_THRESHOLD,
    MAX_POINTS,
    MAX_THROWS,
    MIN_THROWS,
    Joker,
    Order,
)

DICE = 5
T = TypeVar("T")
Face = Annotated[int, Meta(ge=1, le=6)]
PointsValue = Annotated[int, Meta(ge=0, le=MAX_POINTS)]
Run = Annotated[list[Face], Meta(min_length=1, max_length=DICE)]
# Bounded in the type, so the published document says it and no refusal echoes a huge value;
# what else an id or a name must be is `description`'s to check.
Id = Annotated[str, Meta(max_length=40)]
Name = Annotated[str, Meta(max_length=100)]
FaceLabel = Annotated[str, Meta(max_length=10)]
FaceScoring = Literal["face_sum", "face_relative", "notches"]
LowerScoring = Literal["sum_all", "sum_formed", "fixed"]


# What the service computes and publishes beside the rules; a document fetched and sent back
# carries it, so it is accepted and ignored.
IGNORED = "Output only: accepted in a request and ignored"
Prose = Annotated[str, Meta(max_length=2000, description=IGNORED)]


class _Box(
    msgspec.Struct, tag_field="pattern", forbid_unknown_fields=True, frozen=True, kw_only=True
):
    id: Id
    name: Name | UnsetType = UNSET  # the id when left out
    section: Section | UnsetType = UNSET  # the pattern's; checked when given
    how: Prose | UnsetType = UNSET
    max_points: Annotated[int, Meta(description=IGNORED)] | UnsetType = UNSET


class FaceBox(_Box, tag="face", frozen=True):
    """An upper box: points by how many dice show `face`."""

    scoring: FaceScoring
    face: Face
    target_count: Annotated[int, Meta(ge=0, le=DICE)] | UnsetType = UNSET  # face_relative
    notches: Annotated[list[PointsValue], Meta(min_length=2, max_length=2)] | UnsetType = UNSET

    def compile(self, name: str) -> Box:
        return Box(
            self.id,
            name,
            Section.UPPER,
            Pattern.FACE,
            Points(self.scoring),
            face=self.face,
            target=0 if isinstance(self.target_count, UnsetType) else self.target_count,
            notches=(0, 0) if isinstance(self.notches, UnsetType) else _pair(self.notches),
        )


def _pair(values: list[int]) -> tuple[int, int]:
    return (values[0], values[1])


class _LowerBox(_Box, frozen=True, kw_only=True):
    """A lower box: a combination, scored by all five dice, the dice forming it, or fixed
    points; optionally multiplied when made on the turn's first throw, plus a premium."""

    scoring: LowerScoring
    fixed_points: PointsValue | UnsetType = UNSET  # fixed
    first_throw_multiplier: Annotated[int, Meta(ge=1, le=10)] | UnsetType = UNSET
    premium: PointsValue | UnsetType = UNSET
    premium_doubled: bool | UnsetType = UNSET

    def compile(self, name: str) -> Box:
        return Box(
            self.id,
            name,
            Section.LOWER,
            Pattern(str(type(self).__struct_config__.tag)),
            Points(self.scoring),
            fixed=_given(self.fixed_points, 0),
            first_throw_multiplier=_given(self.first_throw_multiplier, 1),
            premium=_given(self.premium, 0),
            premium_doubled=_given(self.premium_doubled, False),
            **self._combination(),
        )

    def _combination(self) -> dict[str, Any]:
        """The pattern's own fields, as `Box` takes them."""
        return {}


def _given(value: T | UnsetType, default: T) -> T:
    return default if isinstance(value, UnsetType) else value


class OfAKindBox(_LowerBox, tag="n_of_a_kind", frozen=True):
    of_a_kind_count: Annotated[int, Meta(ge=1, le=DICE)]

    def _combination(self) -> dict[str, Any]:
        return {"n": self.of_a_kind_count}


class PairBox(_LowerBox, tag="pair", frozen=True):
    pass


class TwoPairsBox(_LowerBox, tag="two_pairs", frozen=True):
    two_pairs_distinct: bool = True  # False: four (or five) of a kind also counts

    def _combination(self) -> dict[str, Any]:
        return {"two_pairs_distinct": self.two_pairs_distinct}


class FullHouseBox(_LowerBox, tag="full_house", frozen=True):
    full_house_distinct: bool = True  # False: five of a kind also counts

    def _combination(self) -> dict[str, Any]:
        return {"full_house_distinct": self.full_house_distinct}


class StraightBox(_LowerBox, tag="straight", frozen=True):
    runs: Annotated[list[Run], Meta(min_length=1, max_length=20)]

    def _combination(self) -> dict[str, Any]:
        return {"runs": tuple(tuple(run) for run in self.runs)}


class ChanceBox(_LowerBox, tag="chance", frozen=True):
    pass


class SumOverBox(_LowerBox, tag="sum_over", frozen=True):
    total_over: Annotated[int, Meta(ge=0, le=6 * DICE - 1)]

    def _combination(self) -> dict[str, Any]:
        return {"over": self.total_over}


BoxDocument = (
    FaceBox
    | OfAKindBox
    | PairBox
    | TwoPairsBox
    | FullHouseBox
    | StraightBox
    | ChanceBox
    | SumOverBox
)
LowerBox = OfAKindBox | PairBox | TwoPairsBox | FullHouseBox | StraightBox | ChanceBox | SumOverBox
# Every field some box takes: one a box does not take is `not_applicable`, not unknown.
BOX_VOCABULARY = frozenset(name for kind in BoxDocument.__args__ for name in kind.__struct_fields__)
BOX_OUTPUT_ONLY = frozenset({"how", "max_points"})
# A lower box's modifiers, and the value each has when a document leaves it out.
MODIFIER_DEFAULTS: dict[str, object] = {
    "first_throw_multiplier": 1,
    "premium": 0,
    "premium_doubled": False,
}


class UpperBonusRule(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    threshold: Annotated[int, Meta(ge=0, le=MAX_BONUS_THRESHOLD)]
    points: PointsValue
    strictly_greater: bool = False


class FiveOfAKindDocument(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    box: Id
    extra_bonus: PointsValue
    joker: Joker
    joker_when_scratched: bool = False
    matching_upper_forced: bool = True


class RulesetDocument(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A complete scorecard ruleset.  The limits a type can say are here; the rules between
    fields (the upper section's shape, the five-of-a-kind box, the table's size) are
    `description.compile_document`'s."""

    id: Id
    name: Name
    dice_count: int
    throws_per_turn: Annotated[int, Meta(ge=MIN_THROWS, le=MAX_THROWS)]
    boxes: list[BoxDocument]
    upper_bonus_rule: UpperBonusRule
    order: Order
    five_of_a_kind: FiveOfAKindDocument | None = None
    series_order: bool | None = None  # the name `order: series` had first
    family: Literal["scorecard"] = "scorecard"
    min_players: Annotated[int, Meta(ge=1, le=100)] = 1
    max_players: int | None = None
    face_labels: list[FaceLabel] | None = None


# What a document may carry beside the rules: figures and prose the service computes.  A
# client sends back what it fetched, so these are accepted and ignored (the request's Struct
# adds them to `RulesetDocument`; a box's are `_Box`'s).
OUTPUT_ONLY = frozenset(
    {"max_score", "optimal_expected_score", "tables", "parameters", "summary", "source"}
)


def box_fields(box: BoxDocument) -> dict[str, Any]:
    """What the published document shows of a box beyond its identity, pattern and scoring:
    the fields it sets, a modifier only where it changes a score."""
    fields: dict[str, Any] = msgspec.to_builtins(box)
    for key in ("id", "name", "section", "pattern", "scoring", *BOX_OUTPUT_ONLY):
        fields.pop(key, None)
    return {k: v for k, v in fields.items() if MODIFIER_DEFAULTS.get(k, UNSET) != v}
