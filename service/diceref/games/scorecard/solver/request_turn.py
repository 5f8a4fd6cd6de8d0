"""One state's turn for a request (`POST /holds`), in a dozen numpy calls.

The table solve evaluates a batch of states at a time; here the state is a vector over the
252 throws and the 462 keeps, and each step (next values from the solver's own gathers,
standing on each throw with the `TurnModel`'s Joker choices, the keeps' values, each
throw's best keep) is one call over all of them (docs/solver.md).  Keep values agree with
the box-by-box reference to rounding (`tests/scorecard/test_solver_request_turn.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TypeVar

import numpy as np

from diceref.core.arrays import FloatArray, IndexArray, IntArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import (
    DICE_PER_THROW,
    KEEP_INDEX,
    KEEPS,
    THROWS,
    face_counts,
    multiset_probability,
    multisets,
    sub_multisets,
)
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.turn import Tiers, TurnModel
from diceref.games.scorecard.solver import batched
from diceref.games.scorecard.solver.statespace import StateSpace

NEG = -np.inf
Keys = TypeVar("Keys", int, IntArray)  # one state's, or many states' at once


@dataclass(frozen=True)
class KeepTransitions:
    """The ruleset-free part: keep -> throw probabilities and each throw's sub-keeps."""

    throw_of: IndexArray  # (nnz,) throw completing each keep, keep by keep (KEEPS order)
    probability: FloatArray  # (nnz,) chance of that completion
    starts: IndexArray  # (462,) first entry of each keep
    sub_keeps: IndexArray  # flat KEEPS indices of every throw's distinct sub-keeps
    sub_starts: IndexArray  # (252,) first entry of each throw
    throw_probability: FloatArray  # (252,)
    keep_of: IndexArray  # (nnz,) the keep of each completion
    throw_of_sub: IndexArray  # the throw of each entry of `sub_keeps`


@cache
def keep_transitions() -> KeepTransitions:
    throw_index = {t: i for i, t in enumerate(THROWS)}
    throw_of: list[int] = []
    probability: list[float] = []
    starts: list[int] = []
    for keep in KEEPS:
        starts.append(len(throw_of))
        for rest in multisets(DICE_PER_THROW - len(keep)):
            throw_of.append(throw_index[tuple(sorted(keep + rest))])
            probability.append(multiset_probability(rest))
    sub_keeps: list[int] = []
    sub_starts: list[int] = []
    for t in THROWS:
        sub_starts.append(len(sub_keeps))
        sub_keeps += [KEEP_INDEX[k] for k in sub_multisets(t)]
    return KeepTransitions(
        np.array(throw_of, dtype=np.intp),
        np.array(probability),
        np.array(starts, dtype=np.intp),
        np.array(sub_keeps, dtype=np.intp),
        np.array(sub_starts, dtype=np.intp),
        np.array([multiset_probability(t) for t in THROWS]),
        np.repeat(np.arange(len(starts)), np.diff(starts, append=len(throw_of))),
        np.repeat(np.arange(len(THROWS)), np.diff(sub_starts, append=len(sub_keeps))),
    )


@dataclass(frozen=True)
class RequestPlan:
    """Per ruleset: where every box leads from a state, and what it scores per throw."""

    space: StateSpace
    model: TurnModel
    upper_delta: IndexArray  # (64 * n_sub, 6 * upper boxes) index step to the next state
    upper_add: FloatArray  # points + bonus, -inf if the box may not be filled
    lower_delta: IndexArray  # (lower keys, lower rows)
    lower_add: FloatArray  # 0 if the box may be filled, -inf if not
    n_upper_bits: int
    stand_rows: IndexArray  # (boxes, 252) next-value row each box takes for each throw
    stand_points: FloatArray  # (boxes, 252) points (dice from a throw after the first)
    # per five of a kind where the Joker may apply: (throw, its upper box, the rows and
    # points of each tier of its choices while that box is open and once it is filled)
    fives: tuple[tuple[int, int, tuple[JokerRows | None, JokerRows | None]], ...]
    five_throws: tuple[int, ...]  # the six five-of-a-kind throws (the extra bonus)


JokerRows = tuple[tuple[tuple[int, float], ...], ...]
MAX_PLANS = 32  # 2.4 MB each at the built-in upper-bonus threshold (63), 18.6 MB at 500
_PLANS: PerRuleset[str, RequestPlan] = PerRuleset(MAX_PLANS)  # and within the byte budget


def request_plan(ruleset: Ruleset) -> RequestPlan:
    return _PLANS.get(ruleset.rules_hash, lambda: _build(ruleset))


def _build(ruleset: Ruleset) -> RequestPlan:
    turn = batched.turn_plan(ruleset)
    model = turn.model
    table = points_table(ruleset)
    counts = face_counts()
    upper = ruleset.upper_indices
    n_up = turn.n_upper_rows
    lower_row = {b: n_up + i for i, b in enumerate(turn.lower_boxes)}
    n_boxes = len(ruleset.boxes)
    rows = np.zeros((n_boxes, len(THROWS)), dtype=np.intp)
    points = np.zeros((n_boxes, len(THROWS)))
    five = ruleset.five_box_index if ruleset.five_of_a_kind is not None else None
    for b in range(n_boxes):
        if b in upper:
            rows[b] = 6 * b + counts[:, ruleset.boxes[b].face - 1]
            continue
        points[b] = table.natural[0][b]
        if b == five:
            top_row = n_up + len(turn.lower_boxes)  # (five, flag 1), then (five, flag 0)
            rows[b] = np.where(table.natural[0][b] == ruleset.five_box_top, top_row, top_row + 1)
        else:
            rows[b] = lower_row[b]

    def joker_rows(t: int, tiers: Tiers | None) -> JokerRows | None:
        """Each tier's (row, points): an upper box's row already holds its points."""
        if tiers is None:
            return None
        return tuple(
            tuple(
                (int(rows[c.box, t]), 0.0)
                if c.box in upper
                else (lower_row[c.box], float(c.points))
                for c in tier
            )
            for tier in tiers
        )

    return RequestPlan(
        space=turn.space,
        model=model,
        upper_delta=turn.upper.delta,
        upper_add=turn.upper.add,
        lower_delta=turn.lower.delta,
        lower_add=turn.lower.add,
        n_upper_bits=len(upper),
        stand_rows=rows,
        stand_points=points,
        fives=tuple(
            (t, f.matching, (joker_rows(t, f.matching_open), joker_rows(t, f.matching_filled)))
            for t, f in sorted(model.fives.items())
        ),
        five_throws=tuple(int(t) for t in np.flatnonzero(table.five_of_a_kind)),
    )


class RequestTurn:
    """A turn's keep values (flat, in `KEEPS` order), round by round as they are asked.

    The rounds run backwards from the last throw, so the keeps after the turn's last but
    one throw (one throw left) cost one round and those after the first throw two: a turn
    first asked with one throw left computes one round, and the earlier round only if an
    earlier throw of it is asked (the coach caches the turn between its decisions)."""

    def __init__(self, rounds: int, later: FloatArray) -> None:
        self.rounds = rounds  # throws_per_turn - 1
        self.after = later  # the value of standing after the last round computed
        self.keeps: list[FloatArray] = []  # keeps[i]: with i + 1 throws left

    def keeps_with(self, throws_left: int) -> FloatArray:
        if not 0 < throws_left <= self.rounds:
            raise ValueError(f"1 to {self.rounds} throws can be left, got {throws_left}")
        tr = keep_transitions()
        while len(self.keeps) < throws_left:
            # a vector over the throws, or (252, n) for n needs at once (play to win)
            probability = tr.probability.reshape(-1, *(1,) * (self.after.ndim - 1))
            keep: FloatArray = np.add.reduceat(self.after[tr.throw_of] * probability, tr.starts)
            self.keeps.append(keep)
            # standing on a throw before the last is "keep all five", its value the best
            # keep of those dice (the first throw's own stand score, russian-poker's doubled
            # points, is a box the coach ranks, not a keep)
            self.after = np.maximum.reduceat(keep[tr.sub_keeps], tr.sub_starts)
        return self.keeps[throws_left - 1]


def request_turn(
    ruleset: Ruleset, values: FloatArray, mask: int, sub: int, flag: int
) -> RequestTurn:
    """One state's turn (see the module's docstring): its stand values now, its keep
    values when `keeps_with` asks."""
    plan = request_plan(ruleset)
    nxt = _next_values(plan, values, mask, sub, flag)
    later: FloatArray = (nxt[plan.stand_rows] + plan.stand_points).max(axis=0)
    five = plan.model.five
    if five is not None and mask >> five & 1:
        _five_of_a_kind_rows(plan, nxt, mask, flag, later)
    return RequestTurn(ruleset.throws_per_turn - 1, later)


def row_keys(plan: RequestPlan, mask: Keys, folded: Keys, flag: Keys) -> tuple[Keys, Keys, Keys]:
    """A state's keys into the next-row tables, from its folded upper subtotal: its index
    (the base that `upper_delta` and `lower_delta` offset), its row of `upper_delta` and
    `upper_add`, and its row of `lower_delta` and `lower_add`; for one state, or for many
    (arrays) at once."""
    space = plan.space
    base = (mask * space.n_sub + (folded - space.sub_low)) * space.n_flag + flag
    key = mask & ((1 << plan.n_upper_bits) - 1)
    pair = key * space.n_sub + (folded - space.sub_low)
    lower_key = 2 * (mask >> plan.n_upper_bits) + (key == (1 << plan.n_upper_bits) - 1)
    return base, pair, lower_key


def next_rows(plan: RequestPlan, mask: int, sub: int, flag: int) -> tuple[IndexArray, FloatArray]:
    """Where every box leads from a state, in the rows `stand_rows` names (6 per upper box,
    then one per lower box, two for a Joker game's five-of-a-kind box): the next state's
    index, and what the row adds (points and bonus of an upper box, 0 for a lower one whose
    points `stand_points` gives, -inf for a box the throw may not fill)."""
    base, pair, lower_key = row_keys(plan, mask, plan.space.fold_one(mask, sub), flag)
    index = np.concatenate((plan.upper_delta[pair], plan.lower_delta[lower_key])) + base
    add = np.concatenate((plan.upper_add[pair], plan.lower_add[lower_key]))
    return index, add


def _next_values(
    plan: RequestPlan, values: FloatArray, mask: int, sub: int, flag: int
) -> FloatArray:
    """Value of every box's next state, points and bonus of upper boxes added (`next_rows`)."""
    index, add = next_rows(plan, mask, sub, flag)
    out: FloatArray = values[index] + add
    return out


def _five_of_a_kind_rows(
    plan: RequestPlan, nxt: FloatArray, mask: int, flag: int, out: FloatArray
) -> None:
    """The five-of-a-kind throws once their box is used: the extra bonus, and where the
    Joker applies the best box of the first tier of its choices with one open."""
    model = plan.model
    extra = float(model.extra_for(flag, plan.five_throws[0]))
    if extra:
        for t in plan.five_throws:
            out[t] += extra
    if not model.joker_on(mask, flag):
        return
    for t, matching, choices in plan.fives:
        tiers = choices[1] if mask >> matching & 1 else choices[0]
        if tiers is None:  # scores as any throw
            continue
        best = NEG
        for tier in tiers:
            best = max([float(nxt[row]) + points for row, points in tier])
            if best > NEG:
                break
        out[t] = best + extra
