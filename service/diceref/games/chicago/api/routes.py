"""Chicago: `POST /chicago/throws`, `/chicago/rounds`, `/chicago/games` and `/chicago/holds`.

The handlers only translate: request Structs into the rules layer's records, rulings back
into response Structs.  Every rule, and every rejection, lives in `diceref.games.chicago.rules`.
"""

from __future__ import annotations

from functools import partial

import msgspec
from litestar.params import JSONBody

from diceref.core.dice import canonical
from diceref.games.chicago import FAMILY
from diceref.games.chicago.api.models import (
    ConversionOut,
    EventOut,
    GameRequest,
    GameResponse,
    HoldOut,
    HoldsRequest,
    HoldsResponse,
    PlayerOut,
    RankingOut,
    RoundRequest,
    RoundResponse,
    StandingOut,
    ThrowIn,
    ThrowsRequest,
    ThrowsResponse,
)
from diceref.games.chicago.rules.games import referee_game, referee_round
from diceref.games.chicago.rules.moves import (
    check_turn_so_far,
    conversion_offer,
    throws_left_after,
)
from diceref.games.chicago.rules.round import EventKind, RoundRuling, ThrowRecord, Turn
from diceref.games.chicago.rules.ruleset import Call, ChicagoRules, special
from diceref.games.chicago.solver.coach import Advice, advise
from diceref.http.family import operation, ruleset_id_of

# Chicago under a request's house rules (the built-in game for none); a refused override
# raises `RuleParameterError`, a 422 naming `rules.<name>`.
_rules = partial(FAMILY.game_of, ChicagoRules, "chicago")


@operation("/throws", summary="Value a Chicago throw", problems=(400, 422))
def chicago_throw(data: JSONBody[ThrowsRequest]) -> ThrowsResponse:
    """The throw's score under high and low (or the call given), whether it is a Chicago or
    a 1-6-5, and the conversion it allows or forces; without a throw number the conversion
    is listed as it would apply with a throw left.  Mid-turn, `kept` and `set_aside_count`
    say what stayed on the table: the set-aside 1s are then not among `may_keep`."""
    rules = _rules(data.rules)
    throws_left = throws_left_after(data.throw, data.throws_allowed)
    dice = canonical(data.dice)
    check_turn_so_far(dice, tuple(data.kept), data.set_aside_count, data.throw)
    offer = conversion_offer(rules, dice, data.set_aside_count, tuple(data.kept))
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
    return ThrowsResponse(
        dice=list(dice),
        scores={c.value: rules.value(dice, c) for c in calls},
        special=special(dice),
        throws_left=throws_left,
        conversions=conversions,
        ruleset_id=ruleset_id_of(rules, data.rules),
    )


def _throws(throws: list[ThrowIn]) -> tuple[ThrowRecord, ...]:
    return tuple(
        ThrowRecord(tuple(t.dice), tuple(t.kept), t.conversion, t.call, t.victim) for t in throws
    )


def _round_out(
    ruling: RoundRuling, ruleset_id: str | msgspec.UnsetType = msgspec.UNSET
) -> RoundResponse:
    return RoundResponse(
        call=ruling.call,
        throw_limit=ruling.throw_limit,
        turns=[
            PlayerOut(
                player=p.name,
                lives=p.lives,
                throw_count=p.throws,
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
        ruleset_id=ruleset_id,
    )


@operation("/rounds", summary="Rule on a Chicago round", problems=(400, 422))
def chicago_round(data: JSONBody[RoundRequest]) -> RoundResponse:
    """Each player's final dice and score, the Chicago, 1-6-5 and worst-score events, lives
    lost and left, who is out, who starts next (null when drawn by lot) and the winner.
    An illegal record is a 422 naming the player, the throw and the rule broken."""
    rules = _rules(data.rules)
    ruling = referee_round(
        rules,
        [Turn(p.player, _throws(p.throws)) for p in data.turns],
        [p.lives for p in data.turns],
        data.players_at_start,
    )
    return _round_out(ruling, ruleset_id_of(rules, data.rules))


@operation("/games", summary="Rule on a Chicago game", problems=(400, 422))
def chicago_game(data: JSONBody[GameRequest]) -> GameResponse:
    """Every round's ruling with the lives carried from round to round, and the standings.
    A round must start with the player the previous ruling named and go round the table."""
    rules = _rules(data.rules)
    ruling = referee_game(
        rules,
        data.players,
        [[Turn(t.player, _throws(t.throws)) for t in r.turns] for r in data.rounds],
    )
    return GameResponse(
        players=data.players,
        starting_lives=ruling.starting_lives,
        rounds=[_round_out(r) for r in ruling.rounds],
        standings=[StandingOut(s.place, s.name, s.lives, s.out_in_round) for s in ruling.standings],
        next_starter=ruling.next_starter,
        game_over=ruling.winner is not None,
        winner=ruling.winner,
        ruleset_id=ruleset_id_of(rules, data.rules),
    )


@operation("/holds", summary="Coach a Chicago throw", problems=(400, 422))
def chicago_holds(data: JSONBody[HoldsRequest]) -> HoldsResponse:
    """Every legal keep and conversion, ranked by the exact chance of ending strictly better
    than the target (then by expected score), with the expected final score under best play
    after it.  Without a call (the starter) there is one ranking per call, by expected score."""
    rules = _rules(data.rules)
    rankings = advise(
        rules,
        tuple(data.dice),
        data.throws_left,
        data.call,
        data.target,
        data.set_aside_count,
        tuple(data.kept),
    )
    return HoldsResponse(
        dice=sorted(data.dice),
        throws_left=data.throws_left,
        set_aside_count=data.set_aside_count,
        call=data.call,
        target=data.target,
        rankings=[RankingOut(call, _ranked(advice)) for call, advice in rankings.items()],
        ruleset_id=ruleset_id_of(rules, data.rules),
    )


def _ranked(advice: list[Advice]) -> list[HoldOut]:
    """The options as ranked, the best marked (every option equal to the first on the
    ranking, ties included) and each one's loss against it: in probability when a target
    ranks them, else in points (high: fewer, low: more)."""
    if not advice:
        return []
    top = advice[0]
    out = []
    for a in advice:
        if a.probability is not None and top.probability is not None:
            loss = top.probability - a.probability
        else:
            loss = abs(top.expected_score - a.expected_score)
        same = (a.probability, a.expected_score) == (top.probability, top.expected_score)
        out.append(
            HoldOut(
                keep=list(a.move.kept),
                conversion=a.move.conversion,
                set_aside_count=a.move.aside,
                rethrow_count=a.move.rethrow,
                win_probability=None if a.probability is None else float(a.probability),
                win_probability_exact=None if a.probability is None else str(a.probability),
                expected_points=float(a.expected_score),
                expected_points_exact=str(a.expected_score),
                best=same,
                loss=float(loss),
            )
        )
    return out
