"""One state's turn for a request (`POST /holds`), in a dozen numpy calls.

`engine.turn_values` has the right shape for a batch of states, but for one state its many
numpy calls on one-column arrays are nearly all per-call cost.  Here the state is a vector
over the 252 throws and the 462 keeps, and each step (next values, standing on each throw,
the keeps' values, each throw's best keep) is one call over all of them (docs/solver.md).
Keep values agree with `turn_values` to rounding (`tests/scorecard/
test_solver_request_turn.py`); rulesets the compiled solver does not take (forced order,
one-throw turns) keep `turn_values`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from diceref.core.arrays import FloatArray, IndexArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import (
    DICE_PER_THROW,
    FACES,
    KEEP_INDEX,
    KEEPS,
    THROWS,
    face_counts,
    multiset_probability,
    multisets,
    sub_multisets,
)
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Joker, Ruleset
from diceref.games.scorecard.solver import batched
from diceref.games.scorecard.solver.engine import batched_solves
from diceref.games.scorecard.solver.statespace import StateSpace

NEG = -np.inf


@dataclass(frozen=True)
class KeepTransitions:
    """The ruleset-free part: keep -> throw probabilities and each throw's sub-keeps."""

    throw_of: IndexArray  # (nnz,) throw completing each keep, keep by keep (KEEPS order)
    probability: FloatArray  # (nnz,) chance of that completion
    starts: IndexArray  # (462,) first entry of each keep
    sub_keeps: IndexArray  # flat KEEPS indices of every throw's distinct sub-keeps
    sub_starts: IndexArray  # (252,) first entry of each throw
    throw_probability: FloatArray  # (252,)


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
    )


@dataclass(frozen=True)
class RequestPlan:
    """Per ruleset: where every box leads from a state, and what it scores per throw."""

    space: StateSpace
    upper_delta: IndexArray  # (6 * upper boxes, 64 * n_sub) index step to the next state
    upper_add: FloatArray  # points + bonus, -inf if the box is closed
    lower_delta: IndexArray  # (lower rows, lower masks)
    lower_add: FloatArray  # 0 if open, -inf if closed
    n_upper_bits: int
    stand_rows: IndexArray  # (boxes, 252) next-value row each box takes for each throw
    stand_points: FloatArray  # (boxes, 252) points (dice from a throw after the first)
    five_throws: tuple[int, ...]  # the six five-of-a-kind throws, by face
    joker_lower: tuple[tuple[int, tuple[int, ...]], ...]  # (row, Joker points per face)
    upper_zero_rows: tuple[int, ...]  # row of 0 in each upper box, by face
    matching_five_rows: tuple[int, ...]  # row of five dice in each upper box, by face
    matching_box: tuple[int, ...]  # the upper box of each face


MAX_PLANS = 32  # 2.4 MB each at the built-in upper-bonus threshold (63), 18.6 MB at 500
_PLANS: PerRuleset[str, RequestPlan] = PerRuleset(MAX_PLANS)  # and within the byte budget


def handles(ruleset: Ruleset) -> bool:
    """Whether this module evaluates the ruleset's turns (the compiled solver's rulesets)."""
    return batched_solves(ruleset)


def request_plan(ruleset: Ruleset) -> RequestPlan:
    return _PLANS.get(ruleset.rules_hash, lambda: _build(ruleset))


def _build(ruleset: Ruleset) -> RequestPlan:
    builder = batched._Builder(ruleset)
    upper_delta, upper_add = builder.upper_tables()
    lower_delta, lower_add = builder.lower_tables()
    table = points_table(ruleset)
    counts = face_counts()
    n_up = 6 * len(builder.upper)
    lower_row = {b: n_up + i for i, b in enumerate(builder.lower)}
    n_boxes = len(ruleset.boxes)
    rows = np.zeros((n_boxes, len(THROWS)), dtype=np.intp)
    points = np.zeros((n_boxes, len(THROWS)))
    five = builder.five if builder.joker_game else None
    for b in range(n_boxes):
        if b in builder.upper:
            j = builder.upper.index(b)
            rows[b] = 6 * j + counts[:, ruleset.boxes[b].face - 1]
            continue
        points[b] = table.natural[0][b]
        if b == five:
            top_row = n_up + len(builder.lower)  # (five, flag 1), then (five, flag 0)
            rows[b] = np.where(table.natural[0][b] == ruleset.five_box_top, top_row, top_row + 1)
        else:
            rows[b] = lower_row[b]
    five_throws = tuple(int(np.flatnonzero(table.five_face == f)[0]) for f in FACES)
    face_row = {ruleset.boxes[b].face: builder.upper.index(b) for b in builder.upper}
    return RequestPlan(
        space=builder.space,
        upper_delta=upper_delta,
        upper_add=upper_add,
        lower_delta=lower_delta,
        lower_add=lower_add,
        n_upper_bits=len(builder.upper),
        stand_rows=rows,
        stand_points=points,
        five_throws=five_throws,
        joker_lower=tuple(
            (lower_row[b], tuple(int(table.joker[b, t]) for t in five_throws))
            for b in builder.lower
        ),
        upper_zero_rows=tuple(6 * face_row[f] for f in FACES),
        matching_five_rows=tuple(6 * face_row[f] + 5 for f in FACES),
        matching_box=tuple(builder.upper[face_row[f]] for f in FACES),
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
            keep: FloatArray = np.add.reduceat(self.after[tr.throw_of] * tr.probability, tr.starts)
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
    later = (nxt[plan.stand_rows] + plan.stand_points).max(axis=0)
    rule = ruleset.five_of_a_kind
    five = ruleset.five_box_index
    if rule is not None and five is not None and mask >> five & 1:
        _joker_rows(plan, ruleset, nxt, mask, flag, later)
    return RequestTurn(ruleset.throws_per_turn - 1, later)


def _next_values(
    plan: RequestPlan, values: FloatArray, mask: int, sub: int, flag: int
) -> FloatArray:
    """Value of every box's next state (points and bonus added for upper boxes), in the
    rows `stand_rows` names: 6 per upper box, then one per lower box (two for a Joker
    game's five-of-a-kind box); -inf for a closed box."""
    space = plan.space
    folded = space._fold1(mask, sub)
    base = (mask * space.n_sub + (folded - space.sub_low)) * space.n_flag + flag
    key = mask & ((1 << plan.n_upper_bits) - 1)
    pair = key * space.n_sub + (folded - space.sub_low)
    lower_key = mask >> plan.n_upper_bits
    index = np.concatenate((plan.upper_delta[:, pair], plan.lower_delta[:, lower_key])) + base
    add = np.concatenate((plan.upper_add[:, pair], plan.lower_add[:, lower_key]))
    if space.ruleset.series_order and key != (1 << plan.n_upper_bits) - 1:
        # lower boxes open once the upper boxes are full: not yet (and the state such a
        # box would lead to is unreachable, NaN in the table, so it is not read)
        index[len(plan.upper_delta) :] = base
        add[len(plan.upper_delta) :] = NEG
    out: FloatArray = values[index] + add
    return out


def _joker_rows(
    plan: RequestPlan, ruleset: Ruleset, nxt: FloatArray, mask: int, flag: int, out: FloatArray
) -> None:
    """The five-of-a-kind throws once their box is used (`engine._five_of_a_kind_one`)."""
    rule = ruleset.five_of_a_kind
    assert rule is not None
    extra = float(rule.extra_bonus) if flag == 1 else 0.0
    joker_on = (flag == 1 or rule.joker_when_scratched) and rule.joker is not Joker.NONE
    lower = [(float(nxt[row]), pts) for row, pts in plan.joker_lower]
    zeros = [float(nxt[row]) for row in plan.upper_zero_rows]
    for i, t in enumerate(plan.five_throws):
        natural = float(out[t]) + extra
        if not joker_on:
            out[t] = natural
            continue
        lower_best = max((w + pts[i] for w, pts in lower), default=NEG)
        upper_zero = max((z for j, z in enumerate(zeros) if j != i), default=NEG)
        if rule.joker is Joker.FORCED:
            elsewhere = lower_best if lower_best > NEG else upper_zero
        else:
            elsewhere = max(lower_best, upper_zero)
        matching_open = not mask >> plan.matching_box[i] & 1
        if rule.matching_upper_forced:
            joker = (float(nxt[plan.matching_five_rows[i]]) if matching_open else elsewhere) + extra
        else:
            joker = natural if matching_open else elsewhere + extra
        out[t] = joker
