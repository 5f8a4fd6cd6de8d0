"""Yardkle routes: score a throw, referee a turn or a game, and coach a set-aside.

The handlers decode, call the rules (or the solved table) and encode; every rule broken comes
back from the rules layer as a `RuleViolation`, answered as a 422 problem naming the field.
"""

from __future__ import annotations

from functools import partial

from litestar import Request
from litestar.params import JSONBody

from diceref.core.dice import canonical
from diceref.core.errors import RuleViolation
from diceref.games.yardkle import FAMILY
from diceref.games.yardkle.api.models import (
    BestOut,
    GameRequest,
    GameResponse,
    HoldsRequest,
    HoldsResponse,
    ThrowIn,
    ThrowsRequest,
    ThrowsResponse,
    TurnRequest,
    TurnResponse,
    game_out,
    hold_out,
    set_aside_out,
    turn_out,
)
from diceref.games.yardkle.rules.games import GameResult, GameTurn, adjudicate_game
from diceref.games.yardkle.rules.ruleset import YardkleGame
from diceref.games.yardkle.rules.scoring import YardkleRules, set_asides, validate_throw
from diceref.games.yardkle.rules.turns import (
    ThrowRecord,
    adjudicate_turn,
    validate_banked_total,
    validate_turn_state,
)
from diceref.games.yardkle.solver.advice import advise, advise_duel
from diceref.games.yardkle.solver.duel import open_levels
from diceref.games.yardkle.solver.race import check_need, effective_need
from diceref.games.yardkle.tables import (
    GAME,
    check_duel_solvable,
    duel_of,
    duel_spec,
    policy_spec,
)
from diceref.http.family import operation, registry_of, ruleset_id_of
from diceref.tables.registry import SolveQueueFull

# Yardkle under a request's house rules (the built-in game for none); a refused override
# raises `RuleParameterError`, a 422 naming `rules.<name>`.
_game = partial(FAMILY.game_of, YardkleGame, GAME)


def _records(throws: list[ThrowIn]) -> tuple[ThrowRecord, ...]:
    return tuple(ThrowRecord(tuple(t.dice), tuple(t.set_aside)) for t in throws)


@operation("/throws", summary="Every set-aside a Yardkle throw allows", problems=(400, 422))
def yardkle_throws(data: JSONBody[ThrowsRequest]) -> ThrowsResponse:
    """Every multiset of the thrown dice that scores completely, with its points and its best
    split into combinations (best first), the most the throw can score, and whether it is a
    Yardkle (nothing to set aside)."""
    game = _game(data.rules)
    rules = game.rules
    validate_throw(data.dice, "dice", rules)
    options = set_asides(data.dice, rules)
    n = len(data.dice)
    return ThrowsResponse(
        dice=list(canonical(data.dice)),
        yardkle=not options,
        max_points=options[0].points if options else 0,
        set_asides=[set_aside_out(o, n, rules.dice) for o in options],
        ruleset_id=ruleset_id_of(game, data.rules),
    )


@operation("/turns", summary="Referee a Yardkle turn", problems=(400, 422))
def yardkle_turn(data: JSONBody[TurnRequest]) -> TurnResponse:
    """Replays the turn against the player's banked total: the points earned, the new total
    and the entry rule; the first illegal step (dice not thrown, a set-aside that does not
    score completely, nothing set aside, banking under the entry minimum off the pad,
    throwing after a Yardkle) is refused naming the throw and the rule."""
    game = _game(data.rules)
    result = adjudicate_turn(_records(data.throws), data.end, data.banked_total, game.rules)
    return turn_out(result, ruleset_id_of(game, data.rules))


@operation("/games", summary="Referee a Yardkle game", problems=(400, 422))
def yardkle_game(data: JSONBody[GameRequest], request: Request) -> GameResponse:  # type: ignore[type-arg]
    """Standings after the turns given, the turn that reached the target, the last turns
    owed and played, and the winners once every other player has had a last turn.  With
    `chances` (two players only, a 422 beyond), each standing of a game in progress also
    gives the player's `win_probability` under optimal play by both, from the rules'
    two-player table once it is loaded; until then it is left out (the table is solved
    in the background), never a 503."""
    game = _game(data.rules)
    if data.chances:
        if len(data.players) != 2:
            raise RuleViolation(
                "chances",
                f"the chance to win is solved for two players; this game has {len(data.players)}",
                "two_players_only",
            )
        check_duel_solvable(game.rules)
    turns = tuple(GameTurn(t.player, _records(t.throws), t.end) for t in data.turns)
    result = adjudicate_game(data.players, turns, game.rules)
    chances = _chances(result, data.players[0], game.rules, request) if data.chances else None
    return game_out(result, ruleset_id_of(game, data.rules), chances)


def _chances(
    result: GameResult,
    starter: str,
    rules: YardkleRules,
    request: Request,  # type: ignore[type-arg]
) -> dict[str, float] | None:
    """Each of the two players' chance to win, None when the game is over or the duel
    table is not loaded (asked for in the background: a full queue only leaves it out).
    The `starter` (the first listed) started every round: the mover's seat under
    `complete_the_round`."""
    if result.finished or result.next_player is None:
        return None
    try:
        table = registry_of(request).table(duel_spec(rules))
    except SolveQueueFull:
        return None
    if table is None:
        return None
    duel = duel_of(rules, table)
    by_player = {s.player: s for s in result.standings}
    mover = by_player[result.next_player]
    other = next(s for s in result.standings if s.player != mover.player)
    a, b = mover.total // rules.unit, other.total // rules.unit
    if result.reached is None:  # both under the target: the mover's turn starts at (a, b)
        chance = float(duel.seat_values[duel.seat(mover.player == starter), a, b])
    else:  # the mover's last turn, behind the leader
        gap = b - a
        if gap >= duel.last_turn.shape[1]:
            return None
        chance = float(duel.last_turn[int(mover.on_pad or not duel.entry_levels), gap])
    return {mover.player: chance, other.player: 1.0 - chance}


def _duel_state(data: HoldsRequest, rules: YardkleRules) -> tuple[int, int, int]:
    """(a, b, seat) for a request with an `opponent`: the thrower's and the opponent's
    banked totals in units and the thrower's seat, each checked against the rules (a 422
    naming the field), and the rules against what the two-player table is solved for."""
    assert data.opponent is not None
    check_duel_solvable(rules)
    a = duel_levels(rules, data.total or 0, data.on_pad, "total", "on_pad")
    b = duel_levels(
        rules, data.opponent.total, data.opponent.on_pad, "opponent.total", "opponent.on_pad"
    )
    seat = duel_seat(rules, data.first_in_round, "first_in_round")
    return a, b, seat


def duel_seat(rules: YardkleRules, first_in_round: bool | None, field: str) -> int:
    """The thrower's seat in the two-player table: under `complete_the_round` whether he
    started the round decides who gets a last turn, so it must be given (a 422 naming
    `field`); under the other readings there is one seat and the field changes nothing."""
    if rules.last_turns != "complete_the_round":
        return 0
    if first_in_round is None:
        raise RuleViolation(
            field,
            "under last_turns complete_the_round the chance to win depends on the seat: "
            "say whether the thrower started the round (his reaching the target gives the "
            "opponent a last turn, the opponent's ends the game)",
            "seat_needed",
        )
    return 0 if first_in_round else 1


def duel_levels(rules: YardkleRules, total: int, on_pad: bool, field: str, pad_field: str) -> int:
    """A banked total in the two-player table's units, checked (a 422 naming `field` or
    `pad_field`): a multiple of the unit, 0 or at least the entry minimum, under the
    target, on the pad as the entry minimum says."""
    validate_banked_total(total, field, rules)
    if total // rules.unit >= open_levels(rules):
        raise RuleViolation(
            field,
            f"a total of {total:,} has reached the target ({rules.target:,}): the game is "
            "in its last turns (ask with `need`)",
            "goal_reached",
        )
    if rules.entry_minimum > 0 and on_pad != (total > 0):
        raise RuleViolation(
            pad_field,
            f"with the entry minimum {rules.entry_minimum}, a banked total of {total} "
            f"means the player is {'' if total > 0 else 'not '}on the pad",
            "pad_mismatch",
        )
    return total // rules.unit


@operation("/holds", summary="Coach a Yardkle set-aside", problems=(400, 422, 429, 503))
def yardkle_holds(data: JSONBody[HoldsRequest], request: Request) -> HoldsResponse:  # type: ignore[type-arg]
    """Every legal set-aside with the expected turn points of banking and of throwing on under
    the optimal policy (maximum expected points per turn, entry rule included when off the
    pad), ranked, and the best decision.  With `need` (the turn points to reach: to pass the
    leader on a last turn, or to get on the pad), every option also gives its exact
    `win_probability` of ending the turn with at least `need`, and the ranking, the
    decision and the loss follow it; the expected points stay beside it (a need is raced up
    to 2,000 scoring units: every need at the built-in unit of 50; under a finer unit a
    larger one is a 422).  With an `opponent` (a two-player game, beside the thrower's
    banked `total`), each option's `win_probability` is instead the chance to win the game
    under optimal play by both, and the ranking, the decision and the loss follow it, from
    the rules' two-player table (solved when first asked for: a 503 with `progress` until
    then); under `last_turns: complete_the_round` the chance depends on whether the
    thrower started the round, `first_in_round` (required there, ignored otherwise).  Any
    turn points are answered: with hot dice forced a throw after hot dice can come past
    the turn's cap, where keeping dice back banks and hot dice throw again.
    Under house rules the coach reads the tables solved for them (503 with
    Retry-After while they are not ready) and races by their scoring."""
    game = _game(data.rules)
    rules = game.rules
    validate_turn_state(data.dice, data.turn_points, rules)
    if data.need is not None and data.opponent is not None:
        raise RuleViolation(
            "opponent",
            "`need` races one turn, `opponent` plays the whole game for two: give one",
            "exclusive_fields",
        )
    if data.need is not None:  # a need the race is not solved for is a 422, table or not
        check_need(rules, effective_need(rules, data.need, data.on_pad))
    duel_state = None if data.opponent is None else _duel_state(data, rules)
    registry = registry_of(request)
    table = registry.require(policy_spec(rules))
    options = advise(table, rules, data.dice, data.turn_points, data.on_pad, data.need)
    if duel_state is not None:
        duel = duel_of(rules, registry.require(duel_spec(rules)))
        a, b, seat = duel_state
        # Past the turn's cap (with hot dice forced, a throw after hot dice there) the
        # options' chances are the closed forms of the turn (`Turn.worth`).
        bank, _, _ = duel.game.bank(a, b, duel.seat_values, seat)
        options = advise_duel(options, rules, duel.turn(a, b, seat), bank)
    best = options[0] if options else None
    top = 0.0 if best is None else best.value
    if best is not None and best.win_probability is not None:
        top = best.win_probability
    return HoldsResponse(
        dice=list(canonical(data.dice)),
        turn_points=data.turn_points,
        on_pad=data.on_pad,
        yardkle=not options,
        options=[hold_out(h, top) for h in options],
        best_option=None
        if best is None
        else BestOut(list(best.set_aside.dice), best.decision, best.value, best.win_probability),
        ruleset_id=ruleset_id_of(game, data.rules),
    )
