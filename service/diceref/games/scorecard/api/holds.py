"""`POST /holds`: the coach for scorecard games, read from the solved tables."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Request, post
from litestar.params import JSONBody
from msgspec import Meta

from diceref.games.scorecard.api.models import FiveDice, ScorecardGame, ScorecardIn, ThrowNumber
from diceref.games.scorecard.api.score import open_card
from diceref.games.scorecard.rules.scorecard import card_total
from diceref.games.scorecard.solver.advice import BoxAdvice, advise
from diceref.http.lean import lean_json
from diceref.http.problems import problem_responses, table_loading, unprocessable
from diceref.tables.registry import TableRegistry

ThrowsLeft = Annotated[int, Meta(ge=0, le=2, description="Throws still allowed this turn")]


class HoldsRequest(msgspec.Struct, forbid_unknown_fields=True):
    game: ScorecardGame
    dice: FiveDice
    throws_left: ThrowsLeft
    throw: ThrowNumber | None = None
    scorecard: ScorecardIn | None = None


class KeepOption(msgspec.Struct, tag_field="kind", tag="keep"):
    """Keep these dice (ascending) and throw the others."""

    keep: list[int]
    expected_total: float


class BoxOption(msgspec.Struct, tag_field="kind", tag="box"):
    """End the turn now in this box."""

    box: str
    points: int
    bonus: int
    expected_total: float


class HoldsResponse(msgspec.Struct):
    game: str
    dice: list[int]
    throws_left: int
    total: int
    options: list[KeepOption | BoxOption]


@post(
    "/holds",
    operation_id="holds",
    responses=problem_responses(400, 422, 503),
    summary="Rank every keep and every box",
    tags=["scorecard"],
    status_code=200,
    sync_to_thread=False,
    middleware=[lean_json],
)
def holds(data: JSONBody[HoldsRequest], request: Request) -> HoldsResponse:  # type: ignore[type-arg]
    """Every distinct keep (none to all five, when a throw is left) and every legal box, by
    exact expected final score under optimal play (`expected_total`, bonuses included)."""
    game_id = data.game.value
    ruleset, card = open_card(game_id, data.scorecard)
    natural = ruleset.throws_per_turn - data.throws_left  # the throw that produced the dice
    throw = natural if data.throw is None else data.throw
    if data.throws_left > 0 and throw != natural:
        raise unprocessable(
            "throw",
            f"with {data.throws_left} throw(s) left the dice come from throw "
            f"{natural}, not {throw}",
        )
    registry: TableRegistry = request.app.state.tables
    values = registry.values_or_none(game_id)
    if values is None:
        raise table_loading(request, game_id)
    total = card_total(ruleset, card)
    options: list[KeepOption | BoxOption] = [
        BoxOption(o.box, o.points, o.bonus, o.expected_total)
        if isinstance(o, BoxAdvice)
        else KeepOption(list(o.keep), o.expected_total)
        for o in advise(ruleset, values, card, data.dice, data.throws_left, throw)
    ]
    return HoldsResponse(game_id, data.dice, data.throws_left, total, options)
