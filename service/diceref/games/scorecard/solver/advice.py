"""Per-request coaching from a solved value table: every keep and every box, ranked.

Nothing here solves a game: it evaluates one turn of one state against the table, which
costs a few thousand array operations (well under a millisecond), so the request path can
never start a backward induction.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from diceref.core.arrays import FloatArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import KEEP_INDEX, canonical, sub_multisets
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import (
    Scorecard,
    card_total,
    five_box_holds_top,
    legal_options,
)
from diceref.games.scorecard.solver.engine import TurnValues, turn_values
from diceref.games.scorecard.solver.keeps import keep_graph
from diceref.games.scorecard.solver.request_turn import RequestTurn, handles, request_turn
from diceref.games.scorecard.solver.statespace import StateSpace, state_space


# Plain slotted classes, not frozen ones: /holds makes some 35 a request, and a frozen
# dataclass pays an object.__setattr__ per field.
@dataclass(slots=True)
class KeepAdvice:
    keep: tuple[int, ...]
    expected_total: float


@dataclass(slots=True)
class BoxAdvice:
    box: str
    points: int
    bonus: int  # upper_bonus + extra_bonus
    expected_total: float
    upper_bonus: int = 0
    extra_bonus: int = 0


Advice = KeepAdvice | BoxAdvice


@dataclass(frozen=True)
class CardState:
    mask: int
    sub: int
    flag: int


def card_state(ruleset: Ruleset, card: Scorecard) -> CardState:
    filled = card.boxes
    mask = sum(1 << i for i, b in enumerate(ruleset.boxes) if b.id in filled)
    sub = sum(filled.get(ruleset.boxes[i].id, 0) for i in ruleset.upper_indices)
    flag = 1 if five_box_holds_top(ruleset, filled) else 0
    return CardState(mask, sub, flag)


def state_value(space: StateSpace, values: FloatArray, state: CardState) -> float:
    idx = space.index(np.array([state.mask]), np.array([state.sub]), np.array([state.flag]))
    return float(values[idx[0]])


def expected_final_score(ruleset: Ruleset, values: FloatArray, card: Scorecard) -> float:
    """Card total now plus the expected points still to come under optimal play."""
    space = state_space(ruleset)
    return card_total(ruleset, card) + state_value(space, values, card_state(ruleset, card))


TURN_CACHE_SIZE = 512  # ~8 KB each: a turn's keep values, reused by its next decisions
_TURNS: PerRuleset[tuple[str, int, CardState], RequestTurn | TurnValues] = PerRuleset(
    TURN_CACHE_SIZE
)


def _turn(space: StateSpace, values: FloatArray, state: CardState) -> RequestTurn | TurnValues:
    """A turn's keep values, cached: a frontend asks after each throw of the same turn.
    One state's turn is `request_turn` (a dozen numpy calls over all keeps at once) where
    the compiled solver takes the ruleset, else `engine.turn_values`."""
    key = (space.ruleset.rules_hash, id(values), state)

    def make() -> RequestTurn | TurnValues:
        if handles(space.ruleset):
            return request_turn(space.ruleset, values, state.mask, state.sub, state.flag)
        return turn_values(
            space, values, np.array([state.mask]), np.array([state.sub]), np.array([state.flag])
        )

    return _TURNS.get(key, make)


def _keep_values(
    turn: RequestTurn | TurnValues, throws_left: int, keeps: list[tuple[int, ...]]
) -> list[float]:
    if isinstance(turn, RequestTurn):
        flat = [KEEP_INDEX[keep] for keep in keeps]
        values: list[float] = turn.keeps_with(throws_left)[flat].tolist()
        return values
    levels = turn.keeps_with(throws_left)
    index = keep_graph().index
    return [float(levels[len(keep)][index[len(keep)][keep], 0]) for keep in keeps]


def advise(
    ruleset: Ruleset,
    values: FloatArray,
    card: Scorecard,
    dice: list[int] | tuple[int, ...],
    throws_left: int,
    throw: int | None = None,
) -> list[Advice]:
    """Every distinct keep (when a throw is left) and every legal box, best first."""
    space = state_space(ruleset)
    throw = ruleset.throws_per_turn - throws_left if throw is None else throw
    state = card_state(ruleset, card)
    total = card_total(ruleset, card)
    options: list[Advice] = []
    five = ruleset.five_box_index
    box_index, upper = ruleset.box_index, ruleset.upper_set
    for option in legal_options(ruleset, card, dice, throw):
        i = box_index[option.box]
        after_sub = state.sub + option.points if i in upper else state.sub
        after_flag = 1 if i == five and option.points == ruleset.five_box_top else state.flag
        future = float(values[space.index_one(state.mask | 1 << i, after_sub, after_flag)])
        options.append(
            BoxAdvice(
                option.box,
                option.points,
                option.bonus,
                total + option.points + option.bonus + future,
                option.upper_bonus,
                option.extra_bonus,
            )
        )
    if throws_left > 0:
        keeps = sub_multisets(canonical(dice))
        turn_keeps = _keep_values(_turn(space, values, state), throws_left, keeps)
        options += [KeepAdvice(k, total + v) for k, v in zip(keeps, turn_keeps, strict=True)]
    options.sort(key=lambda o: -o.expected_total)
    return options


__all__ = ["Advice", "BoxAdvice", "KeepAdvice", "advise", "card_state"]
