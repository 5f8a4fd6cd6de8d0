"""A scorecard game's parts of `GET /games` and `GET /games/{game}`: its boxes with how each
scores, its bonuses and order, and the figures its solved tables give."""

from __future__ import annotations

import msgspec

from diceref.core.game import GameInfo
from diceref.games.scorecard.rules.boxes import describe as describe_box
from diceref.games.scorecard.rules.document import RulesetDocument, box_fields
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import Scorecard
from diceref.games.scorecard.solver.advice import expected_final_score
from diceref.games.scorecard.tables import max_score, max_spec, value_spec
from diceref.http.game_models import (
    BoxRules,
    BoxSummary,
    FiveOfAKindOut,
    GameRules,
    GameSummary,
    UpperBonusOut,
)
from diceref.tables.registry import TableRegistry


def summarize(game: GameInfo, summary: GameSummary) -> GameSummary:
    assert isinstance(game, Ruleset)
    summary.boxes = [BoxSummary(b.id, b.name, b.section.value) for b in game.boxes]
    return summary


def describe(game: GameInfo, rules: GameRules) -> GameRules:
    assert isinstance(game, Ruleset)
    table = points_table(game)
    assert isinstance(game.document, RulesetDocument)  # every ruleset is compiled from one
    rules.boxes = [
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
    rules.upper_bonus_rule = UpperBonusOut(bonus.threshold, bonus.strictly_greater, bonus.points)
    if game.five_of_a_kind is not None:
        f = game.five_of_a_kind
        rules.five_of_a_kind = FiveOfAKindOut(
            f.box,
            f.extra_bonus,
            f.joker.value,
            f.joker_when_scratched,
            f.matching_upper_forced,
        )
    rules.series_order = game.series_order
    rules.order = game.order.value
    return rules


async def with_tables(game: GameInfo, rules: GameRules, registry: TableRegistry) -> GameRules:
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
