"""`GET /games` and `GET /games/{game}`: the ruleset descriptions as clients see them."""

from __future__ import annotations

from functools import cache
from typing import Annotated

import msgspec
from litestar import Request, get
from litestar.params import Parameter

from diceref.core.game import GameInfo
from diceref.games.scorecard.rules.boxes import describe
from diceref.games.scorecard.rules.games import ALL_GAMES, SCORECARD_GAMES
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import Scorecard
from diceref.games.scorecard.solver.advice import expected_final_score
from diceref.http.problems import not_found, problem_responses


class BoxSummary(msgspec.Struct):
    id: str
    name: str
    section: str


class GameSummary(msgspec.Struct, omit_defaults=True):
    id: str
    name: str
    family: str
    dice: int
    throws_per_turn: int
    min_players: int
    max_players: int | None
    boxes: list[BoxSummary] | None = None


class ParameterOut(msgspec.Struct):
    name: str
    value: int | bool | str | list[int]
    description: str
    reading: bool


class BoxRules(msgspec.Struct):
    id: str
    name: str
    section: str
    pattern: str
    scoring: str
    how: str
    max_points: int


class UpperBonusOut(msgspec.Struct):
    threshold: int
    strictly_greater: bool
    points: int


class FiveOfAKindOut(msgspec.Struct):
    box: str
    extra_bonus: int
    joker: str
    joker_when_scratched: bool


class GameRules(msgspec.Struct, omit_defaults=True):
    id: str
    name: str
    family: str
    dice: int
    throws_per_turn: int
    min_players: int
    max_players: int | None
    source: str
    summary: str
    face_labels: list[str]
    parameters: list[ParameterOut]
    boxes: list[BoxRules] | None = None
    upper_bonus: UpperBonusOut | None = None
    five_of_a_kind: FiveOfAKindOut | None = None
    series_order: bool | None = None
    max_score: int | None = None
    optimal_expected_score: float | None = None


def _summary(game: GameInfo) -> GameSummary:
    boxes = None
    if isinstance(game, Ruleset):
        boxes = [BoxSummary(b.id, b.name, b.section.value) for b in game.boxes]
    return GameSummary(
        id=game.id,
        name=game.name,
        family=game.family,
        dice=game.dice,
        throws_per_turn=game.throws_per_turn,
        min_players=game.min_players,
        max_players=game.max_players,
        boxes=boxes,
    )


def _parameters(game: GameInfo) -> list[ParameterOut]:
    return [
        ParameterOut(
            p.name,
            list(p.value) if isinstance(p.value, tuple) else p.value,
            p.description,
            p.reading,
        )
        for p in game.parameters
    ]


@cache
def game_rules(game_id: str) -> GameRules:
    game = ALL_GAMES[game_id]
    out = GameRules(
        id=game.id,
        name=game.name,
        family=game.family,
        dice=game.dice,
        throws_per_turn=game.throws_per_turn,
        min_players=game.min_players,
        max_players=game.max_players,
        source=game.source,
        summary=game.summary,
        face_labels=list(game.face_labels),
        parameters=_parameters(game),
    )
    if isinstance(game, Ruleset):
        from diceref.games.scorecard.rules.points import points_table

        table = points_table(game)
        out.boxes = [
            BoxRules(
                b.id,
                b.name,
                b.section.value,
                b.pattern.value,
                b.points.value,
                describe(b),
                max(table.achievable[b.id]),
            )
            for b in game.boxes
        ]
        bonus = game.upper_bonus
        out.upper_bonus = UpperBonusOut(bonus.threshold, bonus.strictly_greater, bonus.points)
        if game.five_of_a_kind is not None:
            f = game.five_of_a_kind
            out.five_of_a_kind = FiveOfAKindOut(
                f.box, f.extra_bonus, f.joker.value, f.joker_when_scratched
            )
        out.series_order = game.series_order
    return out


@get(
    "/games",
    operation_id="listGames",
    summary="List the games",
    tags=["games"],
    sync_to_thread=False,
)
def list_games() -> list[GameSummary]:
    """Every game the service referees, with its boxes in scorecard order."""
    return [_summary(g) for g in ALL_GAMES.values()]


GameId = Annotated[str, Parameter(description="A game's id, as listed by `GET /games`")]


@get(
    "/games/{game:str}",
    operation_id="getGame",
    responses=problem_responses(404),
    summary="A game's full ruleset",
    tags=["games"],
)
async def get_game(game: GameId, request: Request) -> GameRules:  # type: ignore[type-arg]
    """Boxes with how each scores, bonuses, every reading with its value, the maximum score
    and, once its table is loaded, the optimal expected score from an empty card."""
    if game not in ALL_GAMES:
        raise not_found("game", f"unknown game '{game}'; see GET /games")
    rules = game_rules(game)
    if game in SCORECARD_GAMES:
        registry = request.app.state.tables
        best = await registry.max_score(game)
        expected = None
        values = registry.values_or_none(game)
        if values is not None:
            expected = expected_final_score(SCORECARD_GAMES[game], values, Scorecard())
        rules = msgspec.structs.replace(rules, max_score=best, optimal_expected_score=expected)
    return rules
