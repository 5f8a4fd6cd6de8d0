"""The game documents of `GET /games` and `GET /games/{game}`, shared by every family.

The common part is every game's `GameInfo`; a family fills its own optional parts (a
scorecard game's boxes, bonuses and table figures) through its `FamilyApi` hooks.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from diceref.core.game import GameInfo


class BoxSummary(msgspec.Struct):
    id: str
    name: str
    section: str


class GameSummary(msgspec.Struct, omit_defaults=True):
    id: str
    name: str
    family: str
    dice_count: int
    throws_per_turn: int
    min_players: int
    max_players: int | None
    boxes: list[BoxSummary] | None = None


class ParameterOut(msgspec.Struct, omit_defaults=True):
    """A rule setting as a client reads it, and may set it per request under `rules`."""

    # Bounded, as every text a request may carry: a client sends this document back in a
    # custom `ruleset` (where it is ignored).
    name: Annotated[str, Meta(max_length=64)]
    value: int | bool | Annotated[str, Meta(max_length=64)] | list[int]
    description: Annotated[str, Meta(max_length=2000)]
    reading: bool
    value_type: Literal["boolean", "integer", "string", "integer_list"]
    settable: bool
    choices: list[Annotated[str, Meta(max_length=64)]] | None = None
    minimum: int | None = None
    maximum: int | None = None
    length: int | None = None


# A box's structured fields: those its pattern and scoring take (docs/rules/house-rules.md
# lists the vocabulary); absent where they do not apply.
Face = Annotated[int, Meta(ge=1, le=6)]
Run = Annotated[list[Face], Meta(min_length=1, max_length=5)]


class BoxRules(msgspec.Struct, omit_defaults=True):
    """A box as a client reads it, and may send it back in a custom `ruleset`."""

    id: str
    name: str
    section: Literal["upper", "lower"]
    pattern: Literal[
        "face", "n_of_a_kind", "pair", "two_pairs", "full_house", "straight", "chance", "sum_over"
    ]
    scoring: Literal["face_sum", "face_relative", "notches", "sum_all", "sum_formed", "fixed"]
    how: str
    max_points: int
    face: Face | msgspec.UnsetType = msgspec.UNSET
    of_a_kind_count: int | msgspec.UnsetType = msgspec.UNSET
    runs: list[Run] | msgspec.UnsetType = msgspec.UNSET
    total_over: int | msgspec.UnsetType = msgspec.UNSET
    fixed_points: int | msgspec.UnsetType = msgspec.UNSET
    target_count: int | msgspec.UnsetType = msgspec.UNSET
    notches: list[int] | msgspec.UnsetType = msgspec.UNSET
    two_pairs_distinct: bool | msgspec.UnsetType = msgspec.UNSET
    full_house_distinct: bool | msgspec.UnsetType = msgspec.UNSET
    first_throw_multiplier: int | msgspec.UnsetType = msgspec.UNSET
    premium: int | msgspec.UnsetType = msgspec.UNSET
    premium_doubled: bool | msgspec.UnsetType = msgspec.UNSET


class UpperBonusOut(msgspec.Struct):
    threshold: int
    strictly_greater: bool
    points: int


class FiveOfAKindOut(msgspec.Struct):
    box: str
    extra_bonus: int
    joker: Literal["forced", "free_choice", "none"]
    joker_when_scratched: bool
    matching_upper_forced: bool


class GameRules(msgspec.Struct, omit_defaults=True):
    id: str
    name: str
    family: str
    dice_count: int
    throws_per_turn: int
    min_players: int
    max_players: int | None
    source: str
    summary: str
    face_labels: list[str]
    parameters: list[ParameterOut]
    boxes: list[BoxRules] | None = None
    upper_bonus_rule: UpperBonusOut | None = None
    five_of_a_kind: FiveOfAKindOut | None = None
    series_order: bool | None = None
    order: Literal["free", "series", "forced"] | None = None
    # A game with solved tables (a scorecard game) always gives these three: while a table
    # is not loaded yet, `tables` is "loading" and the figure it gives is null (the request
    # never waits for a load; it starts one in the background).  Other games omit them.
    max_score: (
        Annotated[int, Meta(description="The highest score the rules allow; null while loading")]
        | msgspec.UnsetType
        | None
    ) = msgspec.UNSET
    optimal_expected_score: (
        Annotated[
            float,
            Meta(
                description="Expected final score of optimal play from an empty card; null "
                "while loading"
            ),
        ]
        | msgspec.UnsetType
        | None
    ) = msgspec.UNSET
    tables: (
        Annotated[
            Literal["ready", "loading"],
            Meta(
                description="`loading` while the game's solved tables are being loaded (in "
                "the background: ask again later), then `ready`"
            ),
        ]
        | msgspec.UnsetType
    ) = msgspec.UNSET


def parameters_out(game: GameInfo) -> list[ParameterOut]:
    return [
        ParameterOut(
            p.name,
            list(p.value) if isinstance(p.value, tuple) else p.value,
            p.description,
            p.reading,
            p.type,
            p.settable,
            list(p.choices) or None,
            p.minimum,
            p.maximum,
            p.length,
        )
        for p in game.parameters
    ]


def base_summary(game: GameInfo) -> GameSummary:
    return GameSummary(
        id=game.id,
        name=game.name,
        family=game.family,
        dice_count=game.dice,
        throws_per_turn=game.throws_per_turn,
        min_players=game.min_players,
        max_players=game.max_players,
    )


def base_rules(game: GameInfo) -> GameRules:
    return GameRules(
        id=game.id,
        name=game.name,
        family=game.family,
        dice_count=game.dice,
        throws_per_turn=game.throws_per_turn,
        min_players=game.min_players,
        max_players=game.max_players,
        source=game.source,
        summary=game.summary,
        face_labels=list(game.face_labels),
        parameters=parameters_out(game),
    )
