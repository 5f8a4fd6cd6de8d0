"""A scorecard game's parts of `GET /games` and `GET /games/{game}`: its boxes with how each
scores, its bonuses and order, and the figures its solved tables give."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from diceref.core.game import GameInfo
from diceref.games.scorecard.rules.boxes import describe as describe_box
from diceref.games.scorecard.rules.document import RulesetDocument, box_fields
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import Scorecard
from diceref.games.scorecard.solver.advice import expected_final_score
from diceref.games.scorecard.tables import max_score, max_spec, value_spec
from diceref.tables.registry import TableRegistry


class BoxSummary(msgspec.Struct):
    id: str
    name: str
    section: str


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


class SummaryFields(msgspec.Struct, omit_defaults=True):
    """A scorecard game's fields of `GET /games`."""

    boxes: list[BoxSummary] | None = None


class RulesFields(msgspec.Struct, omit_defaults=True):
    """A scorecard game's fields of `GET /games/{game}`."""

    boxes: list[BoxRules] | None = None
    upper_bonus_rule: UpperBonusOut | None = None
    five_of_a_kind: FiveOfAKindOut | None = None
    series_order: bool | None = None
    order: Literal["free", "series", "forced"] | None = None


def summarize(game: GameInfo) -> dict[str, Any]:
    assert isinstance(game, Ruleset)
    return {"boxes": [BoxSummary(b.id, b.name, b.section.value) for b in game.boxes]}


def describe(game: GameInfo) -> dict[str, Any]:
    assert isinstance(game, Ruleset)
    table = points_table(game)
    assert isinstance(game.document, RulesetDocument)  # every ruleset is compiled from one
    rules: dict[str, Any] = {}
    rules["boxes"] = [
        BoxRules(
            b.id,
            b.name,
            b.section.value,
            b.pattern.value,
            b.points.value,
            describe_box(b),
            max(table.achievable[b.id]),
            **box_fields(given),
        )
        for b, given in zip(game.boxes, game.document.boxes, strict=True)
    ]
    bonus = game.upper_bonus
    rules["upper_bonus_rule"] = UpperBonusOut(bonus.threshold, bonus.strictly_greater, bonus.points)
    if game.five_of_a_kind is not None:
        f = game.five_of_a_kind
        rules["five_of_a_kind"] = FiveOfAKindOut(
            f.box,
            f.extra_bonus,
            f.joker.value,
            f.joker_when_scratched,
            f.matching_upper_forced,
        )
    rules["series_order"] = game.series_order
    rules["order"] = game.order.value
    return rules


async def with_tables(game: GameInfo, rules: Any, registry: TableRegistry) -> Any:
    """The maximum score (from the max table) and the optimal expected score from an empty
    card (from the value table), from what is loaded: a missing table is asked for in the
    background (`registry.table`) and its figure is null, with `tables: "loading"`.  Never
    awaited: with an empty cache the max table is solved first, and with another replica's
    Redis lock held a load waits up to DICEREF_REDIS_WAIT_TIMEOUT."""
    assert isinstance(game, Ruleset)
    ruleset = game
    maxima = registry.table(max_spec(ruleset))
    values = registry.table(value_spec(ruleset))
    best = None if maxima is None else max_score(maxima)
    expected = None if values is None else expected_final_score(ruleset, values, Scorecard())
    loaded = maxima is not None and values is not None
    return msgspec.structs.replace(
        rules,
        max_score=best,
        optimal_expected_score=expected,
        tables="ready" if loaded else "loading",
    )
