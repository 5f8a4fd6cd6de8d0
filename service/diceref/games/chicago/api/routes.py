"""Chicago: `POST /chicago/throws`, `/chicago/rounds`, `/chicago/games` and `/chicago/holds`.

The handlers only translate: request Structs into the rules layer's records, rulings back
into response Structs.  Every rule, and every rejection, lives in `diceref.games.chicago.rules`.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import post
from litestar.params import JSONBody
from msgspec import Meta

from diceref.core.dice import canonical
from diceref.core.errors import RuleViolation
from diceref.games.chicago.rules.games import referee_game, referee_round
from diceref.games.chicago.rules.moves import conversion_offer
from diceref.games.chicago.rules.round import EventKind, RoundRuling, ThrowRecord, Turn
from diceref.games.chicago.rules.ruleset import CHICAGO, Call, Conversion, Special, special
from diceref.games.chicago.solver.coach import advise
from diceref.games.scorecard.api.models import Die, ThrowNumber
from diceref.http.lean import lean_json
from diceref.http.problems import problem_responses

ThreeDice = Annotated[
    list[Die], Meta(min_length=3, max_length=3, description="Three dice, 1 to 6 each")
]
Kept = Annotated[
    list[Die],
    Meta(
        max_length=3,
        description="Dice left on the table for the next throw, set-aside 1s included",
    ),
]
Name = Annotated[str, Meta(min_length=1, max_length=100, description="A player's name")]
Lives = Annotated[int, Meta(ge=0, le=100, description="Lives at the start of the round")]
ThrowsLeft = Annotated[int, Meta(ge=0, le=2, description="Throws still allowed after these dice")]
Score = Annotated[int, Meta(ge=0, le=1000, description="A score, under the call")]
SetAside = Annotated[int, Meta(ge=0, le=2, description="1s set aside by earlier conversions")]
PlayersAtStart = Annotated[
    int, Meta(ge=2, le=6, description="Players the game began with; omit for the first round")
]


# --- /chicago/throws -------------------------------------------------------------------


class ThrowRequest(msgspec.Struct, forbid_unknown_fields=True):
    dice: ThreeDice
    call: Call | None = None
    throw: ThrowNumber | None = None
    throws_allowed: ThrowNumber = 3


class ConversionOut(msgspec.Struct):
    kind: Conversion
    required: bool
    ones_set_aside: int
    must_rethrow: list[int]
    may_keep: list[int]


class ThrowResponse(msgspec.Struct):
    dice: list[int]
    scores: dict[str, int]
    special: Special | None
    throws_left: int | None
    conversions: list[ConversionOut]


@post(
    "/chicago/throws",
    operation_id="chicagoThrow",
    responses=problem_responses(400, 422),
    summary="Value a Chicago throw",
    tags=["chicago"],
    status_code=200,
    sync_to_thread=False,
    middleware=[lean_json],
)
def chicago_throw(data: JSONBody[ThrowRequest]) -> ThrowResponse:
    """The throw's score under high and low (or the call given), whether it is a Chicago or
    a 1-6-5, and the conversion it allows or forces; without a throw number the conversion
    is listed as it would apply with a throw left."""
    if data.throw is not None and data.throw > data.throws_allowed:
        raise RuleViolation(
            "throw", f"throw {data.throw} of {data.throws_allowed} allowed cannot happen"
        )
    dice = canonical(data.dice)
    throws_left = None if data.throw is None else data.throws_allowed - data.throw
    offer = conversion_offer(CHICAGO, dice)
    conversions = []
    if offer is not None and throws_left != 0:
        conversions.append(
            ConversionOut(
                offer.conversion,
                offer.required,
                offer.ones_set_aside,
                list(offer.must_rethrow),
                list(offer.may_keep),
            )
        )
    calls = list(Call) if data.call is None else [data.call]
    return ThrowResponse(
        dice=list(dice),
        scores={c.value: CHICAGO.value(dice, c) for c in calls},
        special=special(dice),
        throws_left=throws_left,
        conversions=conversions,
    )


# --- /chicago/rounds and /chicago/games ----------------------------------------------------


class ThrowIn(msgspec.Struct, forbid_unknown_fields=True):
    """One throw: the three dice as they lie after it, then what the player did with them."""

    dice: ThreeDice
    kept: Kept = []
    conversion: Conversion | None = None
    call: Call | None = None
    victim: Name | None = None


Throws = Annotated[list[ThrowIn], Meta(max_length=6, description="The player's throws in order")]


class PlayerIn(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    lives: Lives
    throws: Throws = []


class RoundRequest(msgspec.Struct, forbid_unknown_fields=True):
    """The players in turn order, the starter first, with their lives and throws."""

    players: Annotated[list[PlayerIn], Meta(min_length=1, max_length=6)]
    players_at_start: PlayersAtStart | None = None


class PlayerOut(msgspec.Struct):
    name: str
    lives: int
    throws: int
    dice: list[int] | None
    score: int | None
    special: Special | None
    lives_lost: int
    lives_after: int
    out: bool


class EventOut(msgspec.Struct):
    kind: str
    player: str
    victim: str | None
    losers: list[str]
    knocked_out: list[str]
    throw: int | None
    score: int | None


class RoundResponse(msgspec.Struct):
    call: Call | None
    throw_limit: int
    players: list[PlayerOut]
    events: list[EventOut]
    knocked_out: list[str]
    ended_by: str
    next_starter: str | None
    game_over: bool
    winner: str | None


def _throws(throws: list[ThrowIn]) -> tuple[ThrowRecord, ...]:
    return tuple(
        ThrowRecord(tuple(t.dice), tuple(t.kept), t.conversion, t.call, t.victim) for t in throws
    )


def _round_out(ruling: RoundRuling) -> RoundResponse:
    return RoundResponse(
        call=ruling.call,
        throw_limit=ruling.throw_limit,
        players=[
            PlayerOut(
                name=p.name,
                lives=p.lives,
                throws=p.throws,
                dice=None if p.dice is None else list(p.dice),
                score=p.score,
                special=p.special,
                lives_lost=p.lives_lost,
                lives_after=p.lives_after,
                out=p.lives_after == 0,
            )
            for p in ruling.players
        ],
        events=[
            EventOut(
                kind=e.kind.value,
                player=e.player,
                victim=e.losers[0] if e.kind is EventKind.ONE_SIX_FIVE else None,
                losers=list(e.losers),
                knocked_out=list(e.knocked_out),
                throw=e.throw,
                score=e.score,
            )
            for e in ruling.events
        ],
        knocked_out=list(ruling.knocked_out),
        ended_by=ruling.ended_by.value,
        next_starter=ruling.next_starter,
        game_over=ruling.winner is not None,
        winner=ruling.winner,
    )


@post(
    "/chicago/rounds",
    operation_id="chicagoRound",
    responses=problem_responses(400, 422),
    summary="Rule on a Chicago round",
    tags=["chicago"],
    status_code=200,
    sync_to_thread=False,
    middleware=[lean_json],
)
def chicago_round(data: JSONBody[RoundRequest]) -> RoundResponse:
    """Each player's final dice and score, the Chicago, 1-6-5 and worst-score events, lives
    lost and left, who is out, who starts next (null when drawn by lot) and the winner.
    An illegal record is a 422 naming the player, the throw and the rule broken."""
    ruling = referee_round(
        CHICAGO,
        [Turn(p.name, _throws(p.throws)) for p in data.players],
        [p.lives for p in data.players],
        data.players_at_start,
    )
    return _round_out(ruling)


class TurnIn(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    throws: Throws = []


class GameRoundIn(msgspec.Struct, forbid_unknown_fields=True):
    """A round's players in turn order, the starter first; lives are carried by the service."""

    players: Annotated[list[TurnIn], Meta(min_length=1, max_length=6)]


class GameRequest(msgspec.Struct, forbid_unknown_fields=True):
    players: Annotated[
        list[Name], Meta(min_length=1, max_length=6, description="The seating order")
    ]
    rounds: Annotated[list[GameRoundIn], Meta(max_length=64)]


class StandingOut(msgspec.Struct):
    place: int
    name: str
    lives: int
    out_in_round: int | None


class GameResponse(msgspec.Struct):
    players: list[str]
    starting_lives: int
    rounds: list[RoundResponse]
    standings: list[StandingOut]
    next_starter: str | None
    game_over: bool
    winner: str | None


@post(
    "/chicago/games",
    operation_id="chicagoGame",
    responses=problem_responses(400, 422),
    summary="Rule on a Chicago game",
    tags=["chicago"],
    status_code=200,
    sync_to_thread=False,
    middleware=[lean_json],
)
def chicago_game(data: JSONBody[GameRequest]) -> GameResponse:
    """Every round's ruling with the lives carried from round to round, and the standings.
    A round must start with the player the previous ruling named and go round the table."""
    ruling = referee_game(
        CHICAGO,
        data.players,
        [[Turn(t.name, _throws(t.throws)) for t in r.players] for r in data.rounds],
    )
    return GameResponse(
        players=data.players,
        starting_lives=ruling.starting_lives,
        rounds=[_round_out(r) for r in ruling.rounds],
        standings=[StandingOut(s.place, s.name, s.lives, s.out_in_round) for s in ruling.standings],
        next_starter=ruling.next_starter,
        game_over=ruling.winner is not None,
        winner=ruling.winner,
    )


# --- /chicago/holds --------------------------------------------------------------------


class HoldsRequest(msgspec.Struct, forbid_unknown_fields=True):
    dice: ThreeDice
    throws_left: ThrowsLeft
    call: Call | None = None
    target: Score | None = None
    set_aside: SetAside = 0


class HoldOut(msgspec.Struct):
    keep: list[int]
    conversion: Conversion | None
    set_aside: int
    rethrow: int
    probability: float | None
    probability_exact: str | None
    expected_score: float
    expected_score_exact: str


class RankingOut(msgspec.Struct):
    call: Call
    options: list[HoldOut]


class HoldsResponse(msgspec.Struct):
    dice: list[int]
    throws_left: int
    set_aside: int
    call: Call | None
    target: int | None
    rankings: list[RankingOut]


@post(
    "/chicago/holds",
    operation_id="chicagoHolds",
    responses=problem_responses(400, 422),
    summary="Coach a Chicago throw",
    tags=["chicago"],
    status_code=200,
    sync_to_thread=False,
    middleware=[lean_json],
)
def chicago_holds(data: JSONBody[HoldsRequest]) -> HoldsResponse:
    """Every legal keep and conversion, ranked by the exact chance of ending strictly better
    than the target (then by expected score), with the expected final score under best play
    after it.  Without a call (the starter) there is one ranking per call, by expected score."""
    rankings = advise(
        CHICAGO, tuple(data.dice), data.throws_left, data.call, data.target, data.set_aside
    )
    return HoldsResponse(
        dice=sorted(data.dice),
        throws_left=data.throws_left,
        set_aside=data.set_aside,
        call=data.call,
        target=data.target,
        rankings=[
            RankingOut(
                call,
                [
                    HoldOut(
                        keep=list(a.move.kept),
                        conversion=a.move.conversion,
                        set_aside=a.move.aside,
                        rethrow=a.move.rethrow,
                        probability=None if a.probability is None else float(a.probability),
                        probability_exact=None if a.probability is None else str(a.probability),
                        expected_score=float(a.expected_score),
                        expected_score_exact=str(a.expected_score),
                    )
                    for a in advice
                ],
            )
            for call, advice in rankings.items()
        ],
    )
