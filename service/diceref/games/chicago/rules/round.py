"""Chicago's referee for one round: replays every player's throws and rules on the lives.

A round record is replayed throw by throw in turn order, because every rule depends on what
came before: the starter's throws set the limit for everyone, kept dice must reappear, a
Chicago ends the round at once and a 1-6-5 can knock out a player who has not thrown yet.
The first illegal step raises `RuleViolation` naming the player, the throw and the rule.
Which players sit in the round, with how many lives, is checked by `chicago_games`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from diceref.core.dice import FACES, Dice, canonical
from diceref.core.errors import RuleViolation
from diceref.games.chicago.rules.moves import contains, move_error
from diceref.games.chicago.rules.ruleset import (
    CHICAGO_DICE,
    CONVERSION_ONES,
    Call,
    ChicagoRules,
    Conversion,
    NextStarter,
    Special,
    ThrowLimit,
    TieLoser,
    Victim,
    WorstOutStarter,
    special,
)


@dataclass(frozen=True)
class ThrowRecord:
    """One throw as recorded: the dice as they lie after it, then what the player did."""

    dice: Dice
    kept: Dice = ()  # dice left on the table for the next throw (set-aside 1s included)
    conversion: Conversion | None = None
    call: Call | None = None  # the starter's call, on the starter's last throw
    victim: str | None = None  # the opponent of a 1-6-5, on the throw the player stands on


@dataclass(frozen=True)
class Turn:
    name: str
    throws: tuple[ThrowRecord, ...] = ()


class EventKind(StrEnum):
    CHICAGO = "chicago"
    ONE_SIX_FIVE = "one_six_five"
    WORST_SCORE = "worst_score"


LABELS = {
    EventKind.CHICAGO: "Chicago",
    EventKind.ONE_SIX_FIVE: "1-6-5",
    EventKind.WORST_SCORE: "worst score",
}


@dataclass(frozen=True)
class Event:
    kind: EventKind
    player: str  # the thrower (Chicago, 1-6-5) or the worst score
    losers: tuple[str, ...]  # who lost a life through it
    knocked_out: tuple[str, ...]  # who of them lost their last life
    throw: int | None = None  # the throw (1-based) of a Chicago or 1-6-5
    score: int | None = None  # the worst score


@dataclass(frozen=True)
class PlayerResult:
    name: str
    lives: int
    throws: int
    dice: Dice | None
    score: int | None  # None without dice or without a call (the starter's Chicago)
    special: Special | None
    lives_lost: int
    lives_after: int


@dataclass(frozen=True)
class RoundRuling:
    call: Call | None
    throw_limit: int  # the starter's throws
    players: tuple[PlayerResult, ...]
    events: tuple[Event, ...]
    ended_by: EventKind
    next_starter: str | None  # None: drawn by lot, or the game is over
    winner: str | None

    @property
    def knocked_out(self) -> tuple[str, ...]:
        return tuple(n for e in self.events for n in e.knocked_out)


@dataclass(frozen=True)
class _TurnResult:
    dice: Dice  # the dice the player stands on
    throws: int
    call: Call | None
    # Every 1-6-5 that counts in the turn: (its 1-based throw, the victim named on it).
    one_six_fives: tuple[tuple[int, str | None], ...]


def _check_dice(dice: Dice, path: str, who: str) -> None:
    """The API types already guarantee this; the rules layer does not rely on them."""
    if len(dice) != CHICAGO_DICE or any(d not in FACES for d in dice):
        raise RuleViolation(
            path, f"{who}: a throw shows three dice, 1 to 6 each", "wrong_dice_count"
        )


def play_turn(
    rules: ChicagoRules, turn: Turn, allowed: int, starter: bool, path: str
) -> _TurnResult:
    """Replay one player's throws; `allowed` is 3 for the starter, and for later players
    the starter's count (or 3 under `throw_limit` 'free')."""
    name = turn.name
    one_six_fives: list[tuple[int, str | None]] = []
    aside = 0  # 1s set aside by conversions: never thrown again this turn
    on_table: Dice = ()  # what the next throw must still show
    n = len(turn.throws)
    if n > allowed:
        why = (
            f"a turn has at most {rules.throws_per_turn} throws"
            if starter or rules.throw_limit is ThrowLimit.FREE
            else "no player may throw more times than the starter"
        )
        raise RuleViolation(
            f"{path}.throws[{allowed}]",
            f"{name}: throw {allowed + 1} of {allowed} allowed: {why}",
            "throws_exceeded",
        )
    for j, t in enumerate(turn.throws):
        tp = f"{path}.throws[{j}]"
        who = f"{name}: throw {j + 1}"
        dice = canonical(t.dice)
        _check_dice(dice, f"{tp}.dice", who)
        if not contains(dice, on_table):
            raise RuleViolation(
                f"{tp}.dice",
                f"{who} shows {list(dice)}, but {list(on_table)} stayed on the table after "
                f"throw {j}: kept dice cannot change",
                "kept_dice_changed",
            )
        last = j == n - 1
        error = move_error(
            rules, dice, aside, j + 1 < allowed, t.conversion, None if last else t.kept, on_table
        )
        if error is not None:
            field, reason, code = error
            if field == "next":
                raise RuleViolation(
                    f"{path}.throws[{j + 1}]", f"{name}: throw {j + 2}: {reason}", code
                )
            raise RuleViolation(f"{tp}.{field}", f"{who}: {reason}", code)
        kind = special(dice)
        _check_call(rules, t, kind, starter, last, tp, who)
        counts = last or not rules.specials_on_final_dice
        _check_victim(rules, t, kind, counts, tp, who)
        if counts and kind is Special.ONE_SIX_FIVE:
            one_six_fives.append((j + 1, t.victim))
        if not last:
            on_table = canonical(t.kept)
            aside += 0 if t.conversion is None else CONVERSION_ONES[t.conversion]
    final = turn.throws[-1]
    return _TurnResult(canonical(final.dice), n, final.call, tuple(one_six_fives))


def _check_call(
    rules: ChicagoRules,
    t: ThrowRecord,
    kind: Special | None,
    starter: bool,
    last: bool,
    tp: str,
    who: str,
) -> None:
    no_call = kind is Special.CHICAGO and not rules.chicago_call_due()
    if t.call is not None:
        if not starter:
            raise RuleViolation(
                f"{tp}.call",
                f"{who}: late call: only the starter calls, after their own last throw and "
                "before the next player throws",
                "late_call",
            )
        if not last:
            raise RuleViolation(
                f"{tp}.call",
                f"{who}: the starter called and threw again: the call comes once, after the "
                "starter's last throw",
                "call_before_last_throw",
            )
        if no_call:
            raise RuleViolation(
                f"{tp}.call",
                f"{who}: no call after a Chicago: 1-1-1 ends the round before a call is due",
                "call_after_chicago",
            )
    elif starter and last and not no_call:
        raise RuleViolation(
            f"{tp}.call",
            f"{who}: missing call: the starter calls high or low after the last throw",
            "missing_call",
        )


def _check_victim(
    rules: ChicagoRules, t: ThrowRecord, kind: Special | None, counts: bool, tp: str, who: str
) -> None:
    """`counts`: a 1-6-5 on this throw would count (the throw stood on, or any throw when
    specials count as they lie)."""
    if t.victim is not None:
        if not counts:
            raise RuleViolation(
                f"{tp}.victim",
                f"{who}: a 1-6-5 counts only on the dice the player stands on, and this throw "
                "was thrown on",
                "victim_thrown_on",
            )
        if kind is not Special.ONE_SIX_FIVE:
            raise RuleViolation(
                f"{tp}.victim",
                f"{who}: an opponent is named, but the dice are not 1-6-5",
                "victim_without_one_six_five",
            )
    elif (
        counts
        and kind is Special.ONE_SIX_FIVE
        and rules.one_six_five_victim is Victim.ROLLER_CHOICE
    ):
        raise RuleViolation(
            f"{tp}.victim",
            f"{who}: {'stands on' if rules.specials_on_final_dice else 'throws'} "
            "1-6-5 but names no opponent to lose a life",
            "missing_victim",
        )


def worst_player(
    rules: ChicagoRules, contenders: Sequence[tuple[str, Dice]], call: Call
) -> tuple[str, Dice]:
    """The worst score among players in turn order; a tie goes by `worst_tie_loser`."""
    later = rules.worst_tie_loser is TieLoser.LATER
    worst = contenders[0]
    for entry in contenders[1:]:
        a, b = rules.strength(entry[1], call), rules.strength(worst[1], call)
        if a < b or (a == b and later):
            worst = entry
    return worst


def rule_round(
    rules: ChicagoRules, turns: Sequence[Turn], lives: Mapping[str, int], path: str
) -> RoundRuling:
    """Rule on a round whose line-up is already checked: turn order, starter first, every
    player in with at least one life, at least two players."""
    names = [t.name for t in turns]
    left = {n: lives[n] for n in names}
    results: dict[str, _TurnResult] = {}
    events: list[Event] = []
    closed: str | None = None  # why nobody throws any more, once the round is over
    gone: dict[str, str] = {}  # why a player knocked out this round throws no more
    call: Call | None = None
    limit = rules.throws_per_turn

    def still_in() -> list[str]:
        return [n for n in names if left[n] > 0]

    def take(kind: EventKind, player: str, losers: Sequence[str], **extra: int) -> None:
        for loser in losers:
            left[loser] -= 1
        out = tuple(n for n in losers if left[n] == 0)
        events.append(Event(kind, player, tuple(losers), out, **extra))
        for n in out:
            gone[n] = f"{n} lost their last life to {player}'s {LABELS[kind]}"

    for i, turn in enumerate(turns):
        p = f"{path}[{i}]"
        stopped = closed or gone.get(turn.name)
        if stopped is not None:
            if turn.throws:
                raise RuleViolation(
                    f"{p}.throws[0]", f"{turn.name}: throw 1: {stopped}", "throw_after_round_end"
                )
            continue
        if not turn.throws:
            raise RuleViolation(
                f"{p}.throws",
                f"{turn.name}: no throw recorded: every player still in throws at least once",
                "no_throw",
            )
        res = play_turn(rules, turn, limit, i == 0, p)
        if i == 0:
            call = res.call
            if rules.throw_limit is ThrowLimit.STARTER:
                limit = res.throws
        results[turn.name] = res
        for throw, given in res.one_six_fives:
            tp = f"{p}.throws[{throw - 1}]"
            victim = _victim(rules, names, turn.name, throw, given, left, gone, tp)
            take(EventKind.ONE_SIX_FIVE, turn.name, [victim], throw=throw)
            if not rules.one_six_five_round_goes_on:
                closed = f"the round ended at {turn.name}'s 1-6-5 (throw {throw})"
            if closed is None and len(still_in()) == 1:
                closed = f"the game is over: {still_in()[0]} is the last player with lives"
            if closed is not None and throw < res.throws:
                raise RuleViolation(
                    f"{p}.throws[{throw}]",
                    f"{turn.name}: throw {throw + 1}: {closed}",
                    "throw_after_round_end",
                )
        if special(res.dice) is Special.CHICAGO:
            opponents = [n for n in still_in() if n != turn.name]
            take(EventKind.CHICAGO, turn.name, opponents, throw=res.throws)
            if rules.chicago_ends_round:
                closed = f"the round ended at {turn.name}'s Chicago (throw {res.throws})"
        if closed is None and len(still_in()) == 1:
            closed = f"the game is over: {still_in()[0]} is the last player with lives"

    ended_by = events[-1].kind if closed is not None else EventKind.WORST_SCORE
    worst: str | None = None
    if closed is None:
        assert call is not None  # only a starter's Chicago leaves the round without a call
        worst, dice = worst_player(rules, [(n, results[n].dice) for n in still_in()], call)
        take(EventKind.WORST_SCORE, worst, [worst], score=rules.value(dice, call))
    return RoundRuling(
        call=call,
        throw_limit=limit,
        players=tuple(_result(rules, n, lives[n], left[n], results.get(n), call) for n in names),
        events=tuple(events),
        ended_by=ended_by,
        next_starter=_next_starter(rules, names, left, worst, events[-1].player),
        winner=still_in()[0] if len(still_in()) == 1 else None,
    )


def _after(names: Sequence[str], left: Mapping[str, int], who: str) -> str:
    """The next player still in after `who` in turn order (round the table)."""
    at = names.index(who) + 1
    return next(n for n in (*names[at:], *names[:at]) if left[n] > 0 and n != who)


def _victim(
    rules: ChicagoRules,
    names: Sequence[str],
    roller: str,
    throw: int,
    given: str | None,
    left: Mapping[str, int],
    gone: Mapping[str, str],
    path: str,
) -> str:
    """Who loses the 1-6-5's life: the opponent named, or under `one_six_five_victim`
    'next_in_turn' the next player still in (a name given must be that player)."""
    if rules.one_six_five_victim is Victim.NEXT_IN_TURN:
        due = _after(names, left, roller)
        if given is not None and given != due:
            raise RuleViolation(
                f"{path}.victim",
                f"{roller}: throw {throw}: under one_six_five_victim 'next_in_turn' the life "
                f"goes to {due}, the next player still in after {roller}, not '{given}'",
                "invalid_victim",
            )
        return due
    victim = given
    assert victim is not None  # play_turn insists on a victim for a 1-6-5 that counts
    why = None
    if victim == roller:
        why = "the roller cannot pick themselves"
    elif victim not in left:
        why = f"'{victim}' does not play in this round"
    elif victim in gone:
        why = f"'{victim}' is already out ({gone[victim]})"
    if why is not None:
        raise RuleViolation(
            f"{path}.victim",
            f"{roller}: throw {throw}: the 1-6-5 victim must be an opponent still in the "
            f"game: {why}",
            "invalid_victim",
        )
    return victim


def _result(
    rules: ChicagoRules,
    name: str,
    lives: int,
    lives_after: int,
    res: _TurnResult | None,
    call: Call | None,
) -> PlayerResult:
    return PlayerResult(
        name=name,
        lives=lives,
        throws=0 if res is None else res.throws,
        dice=None if res is None else res.dice,
        score=None if res is None or call is None else rules.value(res.dice, call),
        special=None if res is None else special(res.dice),
        lives_lost=lives - lives_after,
        lives_after=lives_after,
    )


def _next_starter(
    rules: ChicagoRules,
    names: Sequence[str],
    left: Mapping[str, int],
    worst: str | None,
    thrower: str,
) -> str | None:
    """Who starts the next round, None when drawn by lot or once the game is over.

    After a worst score (`worst`): that player, or if the life was their last, as
    `next_starter_when_worst_out` says.  After a round a Chicago or 1-6-5 of `thrower`
    ended: as `next_starter_after_chicago` says."""
    alive = [n for n in names if left[n] > 0]
    if len(alive) < 2:
        return None
    if worst is None:
        after = rules.next_starter_after_chicago
        if after is NextStarter.LOT:
            return None
        return thrower if after is NextStarter.THROWER else _after(names, left, thrower)
    if left[worst] > 0:
        return worst
    if rules.next_starter_when_worst_out is WorstOutStarter.LOT:
        return None
    return _after(names, left, worst)
