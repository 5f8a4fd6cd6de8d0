"""Chicago's coach: every legal move ranked by its exact chance of beating a score.

Three dice and at most three throws make the whole game tree small (56 throws, at most 8
moves, at most 56 outcomes per rethrow), so it is walked exactly rather than simulated.
Every outcome of a rethrow of n dice is weighted to a common total of 6^3 = 216, so a value
`left` throws from the end is an integer over 216^left: comparisons between moves are exact
and ties are real ties, which matters because the player maximises the chance first and
the expected score only among moves with the same chance.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import factorial, prod

from diceref.core.cache import PerRuleset
from diceref.core.dice import Dice, canonical, counts, multisets
from diceref.core.errors import RuleViolation
from diceref.games.chicago.rules.moves import Move, contains, legal_moves
from diceref.games.chicago.rules.ruleset import CHICAGO_DICE, Call, ChicagoRules

SCALE = 6**CHICAGO_DICE

# (chance of ending strictly better than the target, expected score signed so that larger
# is better), both as numerators over 216 ** throws_left.
Value = tuple[int, int]
# A position within a turn: the dice, the 1s set aside, the throws left, the kept dice the
# rules look at (`_held`).
Position = tuple[Dice, int, int, Dice]
# Objectives whose positions' values are kept: a call and a score to beat under a ruleset.
OBJECTIVES_KEPT = 256


@dataclass(frozen=True)
class Objective:
    rules: ChicagoRules
    call: Call
    target: int | None  # the score to beat on the `strength` scale; None: score only


@dataclass(frozen=True)
class Advice:
    move: Move
    probability: Fraction | None  # None without a target
    expected_score: Fraction


@lru_cache(maxsize=CHICAGO_DICE + 1)
def outcomes(n: int) -> tuple[tuple[Dice, int], ...]:
    """What n thrown dice can show, each weighted so that one throw's weights sum to 216."""
    return tuple(
        (m, factorial(n) // prod(factorial(c) for c in counts(m)) * 6 ** (CHICAGO_DICE - n))
        for m in multisets(n)
    )


def _final(objective: Objective, dice: Dice) -> Value:
    rules, call = objective.rules, objective.call
    beats = objective.target is not None and rules.strength(dice, call) > objective.target
    return int(beats), rules.signed_value(dice, call)


def _held(rules: ChicagoRules, kept: Dice) -> Dice:
    """What of the kept dice the rules look at next throw: nothing when sixes count as they
    lie (so the built-in game's positions share one cache entry), else the kept dice."""
    return () if rules.sixes_counted_as_they_lie else canonical(kept)


def move_value(
    objective: Objective, memo: dict[Position, Value], dice: Dice, aside: int, left: int, move: Move
) -> Value:
    """The value of `move`; `memo` holds the objective's positions already valued."""
    if move.rethrow == 0:
        chance, score = _final(objective, dice)
        return chance * SCALE**left, score * SCALE**left
    chance = score = 0
    held = _held(objective.rules, move.kept)
    for shown, weight in outcomes(move.rethrow):
        position = (canonical(move.kept + shown), move.aside, left - 1, held)
        found = memo.get(position)
        c, s = best_value(objective, memo, position) if found is None else found
        chance += weight * c
        score += weight * s
    return chance, score


def best_value(objective: Objective, memo: dict[Position, Value], position: Position) -> Value:
    """The value of a position under best play (kept in `memo`), its `held` being the dice
    kept from the previous throw (the conversions look at them when only the sixes just
    thrown count)."""
    dice, aside, left, held = position
    value = max(
        move_value(objective, memo, dice, aside, left, m)
        for m in legal_moves(objective.rules, dice, aside, left > 0, held)
    )
    memo[position] = value
    return value


# The positions valued for each objective: a ruleset, a call and a score to beat all come
# from the request, so they are kept per objective within the byte budget.
_MEMOS: PerRuleset[Objective, dict[Position, Value]] = PerRuleset(OBJECTIVES_KEPT)


def _check(
    rules: ChicagoRules, dice: Dice, aside: int, left: int, call: Call | None, kept: Dice
) -> None:
    if Counter(dice)[1] < aside:
        raise RuleViolation(
            "set_aside_count",
            f"{aside} set-aside 1s, but the dice show fewer 1s",
            "set_aside_without_ones",
        )
    if aside and left > rules.throws_per_turn - 2:
        raise RuleViolation(
            "set_aside_count",
            "set-aside 1s come from a conversion on an earlier throw, so at most "
            f"{rules.throws_per_turn - 2} throw can be left",
            "set_aside_too_early",
        )
    if not 0 <= left < rules.throws_per_turn:
        raise RuleViolation(
            "throws_left", f"0 to {rules.throws_per_turn - 1} throws can be left", "throws_exceeded"
        )
    if kept and left >= rules.throws_per_turn - 1:
        raise RuleViolation(
            "kept",
            "dice kept from a previous throw mean at least one throw is done, so at most "
            f"{rules.throws_per_turn - 2} throw can be left",
            "kept_before_first_throw",
        )
    if not contains(dice, kept):
        raise RuleViolation(
            "dice",
            f"{list(kept)} stayed on the table, but the dice show {list(dice)}: kept dice "
            "cannot change",
            "kept_dice_changed",
        )


def advise(
    rules: ChicagoRules,
    dice: Dice,
    throws_left: int,
    call: Call | None,
    target: int | None = None,
    aside: int = 0,
    kept: Dice = (),
) -> dict[Call, list[Advice]]:
    """Every legal move, best first, for the call given or, for the starter who has not
    called yet, for each call.  With a target the rank is the chance of ending strictly
    better than it (then the expected score); without one, the expected score.  `kept` is
    what stayed on the table from the previous throw, set-aside 1s included."""
    dice = canonical(dice)
    kept = canonical(kept)
    _check(rules, dice, aside, throws_left, call, kept)
    if call is None and target is not None:
        raise RuleViolation(
            "target",
            "the starter throws first and has no score to beat: give the call too",
            "target_without_call",
        )
    calls = list(Call) if call is None else [call]
    moves = legal_moves(rules, dice, aside, throws_left > 0, _held(rules, kept))
    scale = SCALE**throws_left
    out: dict[Call, list[Advice]] = {}
    for c in calls:
        to_beat = None if target is None else rules.target_strength(target, c)
        objective = Objective(rules, c, to_beat)
        memo = _MEMOS.get(objective, dict)
        known = len(memo)
        values = [move_value(objective, memo, dice, aside, throws_left, m) for m in moves]
        if len(memo) > known:  # counted again against the budget, as it now is
            _MEMOS.put(objective, memo)
        ranked = sorted(range(len(moves)), key=lambda i: values[i], reverse=True)
        sign = 1 if c is Call.HIGH else -1
        out[c] = [
            Advice(
                moves[i],
                None if target is None else Fraction(values[i][0], scale),
                Fraction(sign * values[i][1], scale),
            )
            for i in ranked
        ]
    return out
