"""`POST /score`: every box a throw may fill now, with its points and bonus."""

from __future__ import annotations

import msgspec
from litestar import post
from litestar.params import JSONBody

from diceref.games.scorecard.api.models import (
    FiveDice,
    OptionOut,
    ScorecardGame,
    ScorecardIn,
    ThrowNumber,
)
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import (
    Scorecard,
    card_total,
    is_complete,
    legal_options,
    validate_scorecard,
)
from diceref.http.lean import lean_json
from diceref.http.problems import problem_responses, unprocessable


class ScoreRequest(msgspec.Struct, forbid_unknown_fields=True):
    game: ScorecardGame
    dice: FiveDice
    throw: ThrowNumber = 3
    scorecard: ScorecardIn | None = None


class ScoreResponse(msgspec.Struct):
    game: str
    dice: list[int]
    options: list[OptionOut]
    total: int


def open_card(game_id: str, card_in: ScorecardIn | None) -> tuple[Ruleset, Scorecard]:
    """The ruleset and a validated scorecard that still has a box to fill."""
    ruleset = SCORECARD_GAMES[game_id]
    card = Scorecard() if card_in is None else Scorecard(card_in.boxes, card_in.extra_bonus)
    validate_scorecard(ruleset, card)
    if is_complete(ruleset, card.boxes):
        raise unprocessable("scorecard.boxes", "the scorecard is full: no box left to fill")
    return ruleset, card


@post(
    "/score",
    operation_id="score",
    responses=problem_responses(400, 422),
    summary="Score a throw",
    tags=["scorecard"],
    status_code=200,
    sync_to_thread=False,
    middleware=[lean_json],
)
def score(data: JSONBody[ScoreRequest]) -> ScoreResponse:
    """Every box the throw may legally fill now (Joker and series order applied), a scratch
    listed with 0 points, and the card's total before the throw."""
    game_id = data.game.value
    ruleset, card = open_card(game_id, data.scorecard)
    options = legal_options(ruleset, card, data.dice, data.throw)
    return ScoreResponse(
        game=game_id,
        dice=data.dice,
        options=[OptionOut(o.box, o.points, o.bonus) for o in options],
        total=card_total(ruleset, card),
    )
