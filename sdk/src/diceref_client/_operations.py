"""One function per API operation, building its `Operation`; both clients call these.

The keyword arguments mirror the request body's fields, with the same names and defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from diceref_client._base import Operation
from diceref_client.models import (
    Call,
    CheckRequest,
    CheckResponse,
    ChicagoGameRequest,
    ChicagoGameResponse,
    ChicagoHoldsRequest,
    ChicagoHoldsResponse,
    ChicagoThrowsRequest,
    ChicagoThrowsResponse,
    GameRoundIn,
    GameRules,
    GameSummary,
    GameTurnIn,
    Health,
    PlayerIn,
    RoundRequest,
    RoundResponse,
    RulesetRequest,
    RulesetResponse,
    ScorecardHoldsRequest,
    ScorecardHoldsResponse,
    ScorecardIn,
    ScoreRequest,
    ScoreResponse,
    SheetIn,
    TurnEnd,
    TurnRequest,
    TurnResponse,
    YardkleGameRequest,
    YardkleGameResponse,
    YardkleHoldsRequest,
    YardkleHoldsResponse,
    YardkleThrowIn,
    YardkleThrowsRequest,
    YardkleThrowsResponse,
)

# operation id in the OpenAPI document -> client method name
METHODS = {
    "healthz": "healthz",
    "games": "games",
    "gamesByGame": "games_by_game",
    "rulesets": "rulesets",
    "score": "score",
    "holds": "holds",
    "scorecardsCheck": "scorecards_check",
    "chicagoThrows": "chicago_throws",
    "chicagoRounds": "chicago_rounds",
    "chicagoGames": "chicago_games",
    "chicagoHolds": "chicago_holds",
    "yardkleThrows": "yardkle_throws",
    "yardkleTurns": "yardkle_turns",
    "yardkleGames": "yardkle_games",
    "yardkleHolds": "yardkle_holds",
}


def _rules(rules: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """House rules as the body carries them (None: the game's built-in rules)."""
    return None if rules is None else dict(rules)


def healthz() -> Operation[Health]:
    return Operation("healthz", "GET", "/healthz", None, Health)


def games() -> Operation[list[GameSummary]]:
    return Operation("games", "GET", "/games", None, list[GameSummary])


def games_by_game(game: str) -> Operation[GameRules]:
    return Operation("gamesByGame", "GET", f"/games/{quote(game, safe='')}", None, GameRules)


def rulesets(game: str, *, rules: Mapping[str, Any] | None = None) -> Operation[RulesetResponse]:
    body = RulesetRequest(game=game, rules=_rules(rules))
    return Operation("rulesets", "POST", "/rulesets", body, RulesetResponse)


def score(
    game: str,
    dice: Sequence[int],
    *,
    throw: int | None = None,
    scorecard: ScorecardIn | None = None,
    rules: Mapping[str, Any] | None = None,
) -> Operation[ScoreResponse]:
    body = ScoreRequest(
        game=game, dice=list(dice), throw=throw, scorecard=scorecard, rules=_rules(rules)
    )
    return Operation("score", "POST", "/score", body, ScoreResponse)


def holds(
    game: str,
    dice: Sequence[int],
    throws_left: int,
    *,
    throw: int | None = None,
    scorecard: ScorecardIn | None = None,
    rules: Mapping[str, Any] | None = None,
) -> Operation[ScorecardHoldsResponse]:
    body = ScorecardHoldsRequest(
        game=game,
        dice=list(dice),
        throws_left=throws_left,
        throw=throw,
        scorecard=scorecard,
        rules=_rules(rules),
    )
    return Operation("holds", "POST", "/holds", body, ScorecardHoldsResponse)


def scorecards_check(
    game: str, sheets: Sequence[SheetIn], *, rules: Mapping[str, Any] | None = None
) -> Operation[CheckResponse]:
    body = CheckRequest(game=game, sheets=list(sheets), rules=_rules(rules))
    return Operation("scorecardsCheck", "POST", "/scorecards/check", body, CheckResponse)


def chicago_throws(
    dice: Sequence[int],
    *,
    call: Call | None = None,
    throw: int | None = None,
    throws_allowed: int = 3,
    kept: Sequence[int] = (),
    set_aside_count: int = 0,
    rules: Mapping[str, Any] | None = None,
) -> Operation[ChicagoThrowsResponse]:
    body = ChicagoThrowsRequest(
        dice=list(dice),
        call=call,
        throw=throw,
        throws_allowed=throws_allowed,
        kept=list(kept),
        set_aside_count=set_aside_count,
        rules=_rules(rules),
    )
    return Operation("chicagoThrows", "POST", "/chicago/throws", body, ChicagoThrowsResponse)


def chicago_rounds(
    turns: Sequence[PlayerIn],
    *,
    players_at_start: int | None = None,
    rules: Mapping[str, Any] | None = None,
) -> Operation[RoundResponse]:
    body = RoundRequest(turns=list(turns), players_at_start=players_at_start, rules=_rules(rules))
    return Operation("chicagoRounds", "POST", "/chicago/rounds", body, RoundResponse)


def chicago_games(
    players: Sequence[str],
    rounds: Sequence[GameRoundIn],
    *,
    rules: Mapping[str, Any] | None = None,
) -> Operation[ChicagoGameResponse]:
    body = ChicagoGameRequest(players=list(players), rounds=list(rounds), rules=_rules(rules))
    return Operation("chicagoGames", "POST", "/chicago/games", body, ChicagoGameResponse)


def chicago_holds(
    dice: Sequence[int],
    throws_left: int,
    *,
    call: Call | None = None,
    target: int | None = None,
    set_aside_count: int = 0,
    rules: Mapping[str, Any] | None = None,
) -> Operation[ChicagoHoldsResponse]:
    body = ChicagoHoldsRequest(
        dice=list(dice),
        throws_left=throws_left,
        call=call,
        target=target,
        set_aside_count=set_aside_count,
        rules=_rules(rules),
    )
    return Operation("chicagoHolds", "POST", "/chicago/holds", body, ChicagoHoldsResponse)


def yardkle_throws(
    dice: Sequence[int], *, rules: Mapping[str, Any] | None = None
) -> Operation[YardkleThrowsResponse]:
    body = YardkleThrowsRequest(dice=list(dice), rules=_rules(rules))
    return Operation("yardkleThrows", "POST", "/yardkle/throws", body, YardkleThrowsResponse)


def yardkle_turns(
    throws: Sequence[YardkleThrowIn],
    end: TurnEnd,
    *,
    banked_total: int = 0,
    rules: Mapping[str, Any] | None = None,
) -> Operation[TurnResponse]:
    body = TurnRequest(throws=list(throws), end=end, banked_total=banked_total, rules=_rules(rules))
    return Operation("yardkleTurns", "POST", "/yardkle/turns", body, TurnResponse)


def yardkle_games(
    players: Sequence[str],
    turns: Sequence[GameTurnIn] = (),
    *,
    rules: Mapping[str, Any] | None = None,
) -> Operation[YardkleGameResponse]:
    body = YardkleGameRequest(players=list(players), turns=list(turns), rules=_rules(rules))
    return Operation("yardkleGames", "POST", "/yardkle/games", body, YardkleGameResponse)


def yardkle_holds(
    dice: Sequence[int],
    on_pad: bool,
    *,
    turn_points: int = 0,
    rules: Mapping[str, Any] | None = None,
) -> Operation[YardkleHoldsResponse]:
    body = YardkleHoldsRequest(
        dice=list(dice), on_pad=on_pad, turn_points=turn_points, rules=_rules(rules)
    )
    return Operation("yardkleHolds", "POST", "/yardkle/holds", body, YardkleHoldsResponse)
