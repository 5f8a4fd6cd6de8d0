"""Per-request coaching from a solved value table: every keep and every box, ranked.

Nothing here solves a game: it evaluates one turn of one state against the table, which
costs a few thousand array operations (well under a millisecond), so the request path can
never start a backward induction.  Given a target and the win table, every option also
carries its chance to reach the target, and they are ranked by it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from diceref.core.arrays import FloatArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import KEEP_INDEX, canonical, sub_multisets, throw_index
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import Scorecard, card_total
from diceref.games.scorecard.rules.turn import card_state as turn_card_state
from diceref.games.scorecard.rules.turn import turn_model
from diceref.games.scorecard.solver.bands import Bands
from diceref.games.scorecard.solver.request_turn import RequestTurn, request_turn
from diceref.games.scorecard.solver.statespace import StateSpace, state_space
from diceref.games.scorecard.solver.target import win_turn


# Plain slotted classes, not frozen ones: /holds makes some 35 a request, and a frozen
# dataclass pays an object.__setattr__ per field.
@dataclass(slots=True)
class KeepAdvice:
    keep: tuple[int, ...]
    expected_total: float
    win_probability: float | None = None  # the chance to reach the target (with one)


@dataclass(slots=True)
class BoxAdvice:
    box: str
    points: int
    bonus: int  # upper_bonus + extra_bonus
    expected_total: float
    upper_bonus: int = 0
    extra_bonus: int = 0
    win_probability: float | None = None


Advice = KeepAdvice | BoxAdvice


@dataclass(frozen=True)
class CardState:
    mask: int
    sub: int
    flag: int


def card_state(ruleset: Ruleset, card: Scorecard) -> CardState:
    return CardState(*turn_card_state(ruleset, card.boxes))


def state_value(space: StateSpace, values: FloatArray, state: CardState) -> float:
    idx = space.index(np.array([state.mask]), np.array([state.sub]), np.array([state.flag]))
    return float(values[idx[0]])


def expected_final_score(ruleset: Ruleset, values: FloatArray, card: Scorecard) -> float:
    """Card total now plus the expected points still to come under optimal play."""
    space = state_space(ruleset)
    return card_total(ruleset, card) + state_value(space, values, card_state(ruleset, card))


TURN_CACHE_SIZE = 512  # ~8 KB each: a turn's keep values, reused by its next decisions
_TURNS: PerRuleset[tuple[str, int, CardState], RequestTurn] = PerRuleset(TURN_CACHE_SIZE)


def _turn(ruleset: Ruleset, values: FloatArray, state: CardState) -> RequestTurn:
    """A turn's keep values, cached: a frontend asks after each throw of the same turn."""
    key = (ruleset.rules_hash, id(values), state)
    return _TURNS.get(key, lambda: request_turn(ruleset, values, state.mask, state.sub, state.flag))


_WIN_TURNS: PerRuleset[tuple[str, int, CardState, int], RequestTurn] = PerRuleset(TURN_CACHE_SIZE)


def _win_turn(ruleset: Ruleset, win: Bands, state: CardState, need: int) -> RequestTurn:
    """A turn's keeps' chances to reach `need` more points, cached as `_turn` is."""
    key = (ruleset.rules_hash, win.identity, state, need)
    return _WIN_TURNS.get(
        key, lambda: win_turn(ruleset, win, state.mask, state.sub, state.flag, need)
    )


@dataclass(frozen=True)
class Target:
    """Play to win: the total to reach and the ruleset's win table."""

    total: int
    win: Bands


def advise(
    ruleset: Ruleset,
    values: FloatArray,
    card: Scorecard,
    dice: list[int] | tuple[int, ...],
    throws_left: int,
    throw: int | None = None,
    target: Target | None = None,
) -> list[Advice]:
    """Every distinct keep (when a throw is left) and every legal box, best expected total
    first; with a `target` each option's chance to reach it in its `win_probability`
    (`by_chance` ranks them by it)."""
    space = state_space(ruleset)
    throw = ruleset.throws_per_turn - throws_left if throw is None else throw
    state = card_state(ruleset, card)
    total = card_total(ruleset, card)
    options: list[Advice] = []
    ids = ruleset.box_ids
    placements = turn_model(ruleset).placements(
        state.mask, state.sub, state.flag, throw_index(dice), throw == 1
    )
    need = None if target is None else target.total - total
    boxes: list[BoxAdvice] = []
    nexts: list[int] = []
    for p in placements:
        index = space.index_one(p.mask, p.sub, p.flag)
        future = float(values[index])
        bonus = p.upper_bonus + p.extra_bonus
        boxes.append(
            BoxAdvice(
                ids[p.box],
                p.points,
                bonus,
                total + p.points + bonus + future,
                p.upper_bonus,
                p.extra_bonus,
            )
        )
        nexts.append(index)
    if target is not None and need is not None and boxes:  # one lookup for every box
        gains = np.array([b.points + b.bonus for b in boxes], dtype=np.int64)
        chances = target.win.lookup(np.array(nexts, dtype=np.int64), need - gains)
        for box, chance in zip(boxes, chances.tolist(), strict=True):
            box.win_probability = chance
    options += boxes
    if throws_left > 0:
        keeps = sub_multisets(canonical(dice))
        flat = [KEEP_INDEX[keep] for keep in keeps]
        turn_keeps: list[float] = (
            _turn(ruleset, values, state).keeps_with(throws_left)[flat].tolist()
        )
        kept = [KeepAdvice(k, total + v) for k, v in zip(keeps, turn_keeps, strict=True)]
        if target is not None and need is not None:
            chances = _win_turn(ruleset, target.win, state, need).keeps_with(throws_left)
            for option, chance in zip(kept, chances[flat].tolist(), strict=True):
                option.win_probability = chance
        options += kept
    options.sort(key=lambda o: -o.expected_total)
    return options


# Chances this close rank as equal (ties by expected total): float rounding must not reorder
# options the win table values alike.
CHANCE_DIGITS = 12


def by_chance(options: list[Advice]) -> list[Advice]:
    """`advise`'s options (best expected total first) ranked by their chance to reach the
    target instead, ties by expected total."""
    return sorted(options, key=lambda o: -round(o.win_probability or 0.0, CHANCE_DIGITS))


__all__ = ["Advice", "BoxAdvice", "KeepAdvice", "Target", "advise", "by_chance", "card_state"]
