"""Expected-points play's turn ends (`target.turn_ends`) for many states at once.

The play depends on a state only through its candidates' values: each throw's placement
and each keep's value are rows of 2-D arrays (states x throws, states x keeps), and the
mass follows the chosen keeps through the same keep -> throw transitions for every state.
Each step reduces and sums in the order `turn_ends` does, state by state (reductions
along the last axis, `bincount` over the states' entries side by side), so the ends equal
the reference's (`tests/scorecard/test_play_to_win_solves.py`); docs/solver.md, "Play to
win", the method.
"""

from __future__ import annotations

from math import isfinite

import numpy as np

from diceref.core.arrays import FloatArray, IntArray
from diceref.core.dice import N_THROWS
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver.request_turn import (
    RequestPlan,
    keep_transitions,
    request_plan,
)
from diceref.games.scorecard.solver.target import (
    NEG,
    TIE,
    TurnEnds,
    _stand,
    multiplied,
)

SHIFT_BITS = 20  # a turn's points as (points + 2**19) in the low 20 bits, as `turn_ends`


def _choices(
    ruleset: Ruleset,
    values: FloatArray,
    states: list[tuple[int, int, int]],
    index: IntArray,
    add: FloatArray,
    first_throw: bool,
) -> tuple[FloatArray, IntArray, IntArray]:
    """`target._choice` without a win table, for every state: each throw's expected total,
    next state and points, (states, 252) each."""
    plan = request_plan(ruleset)
    rows, points = _stand(plan, ruleset, first_throw)
    succ = index[:, rows]  # (states, boxes, 252)
    shift = add[:, rows] + points
    legal = np.isfinite(shift)
    # values[succ], read once per next state
    ev = np.where(legal, values[index][:, rows] + np.where(legal, shift, 0.0), NEG)
    best = ev.max(axis=1)
    b = np.argmax(ev >= best[:, None, :] - TIE, axis=1)[:, None, :]
    chosen = np.take_along_axis(succ, b, axis=1)[:, 0, :]
    gained = np.take_along_axis(shift, b, axis=1)[:, 0, :].astype(np.int64)
    five = plan.model.five
    if five is not None:
        for k, (m, _, f) in enumerate(states):
            if m >> five & 1:
                _five_choices(
                    plan,
                    values,
                    m,
                    f,
                    (index[k], add[k], succ[k], shift[k]),
                    k,
                    best,
                    chosen,
                    gained,
                )
    return best, chosen, gained


def _five_choices(
    plan: RequestPlan,
    values: FloatArray,
    mask: int,
    flag: int,
    rows: tuple[IntArray, FloatArray, IntArray, FloatArray],
    k: int,
    best: FloatArray,
    chosen: IntArray,
    gained: IntArray,
) -> None:
    """State k's five-of-a-kind throws where the Joker or the extra bonus applies
    (`target.five_tiers` and `choose_fives` without a win table: the first tier with a
    candidate, its best expected total, ties to the first), in place; `rows`: the state's
    `next_rows` and candidates' next states and points."""
    index, add, succ, shift = rows
    model = plan.model
    extra = float(model.extra_for(flag, plan.five_throws[0]))
    joker = model.joker_on(mask, flag)
    by_throw = {t: (matching, choices) for t, matching, choices in plan.fives}
    adds: list[float] | None = None
    for t in plan.five_throws:
        tiers = None
        if joker and t in by_throw:
            matching, choices = by_throw[t]
            tiers = choices[1] if mask >> matching & 1 else choices[0]
        tier: list[tuple[int, float]] = []
        if tiers is None:
            if not extra:
                continue
            legal = np.isfinite(shift[:, t])
            tier = list(
                zip(succ[legal, t].tolist(), (shift[legal, t] + extra).tolist(), strict=True)
            )
        else:
            if adds is None:
                adds = add.tolist()
            for option in tiers:
                tier = [
                    (row, adds[row] + pts + extra) for row, pts in option if isfinite(adds[row])
                ]
                if tier:
                    tier = [(int(index[row]), p) for row, p in tier]
                    break
        if not tier:
            best[k, t] = NEG
            continue
        evs = [float(values[c[0]]) + c[1] for c in tier]
        high = max(evs)
        at = next(i for i, e in enumerate(evs) if e >= high - TIE)
        best[k, t], chosen[k, t], gained[k, t] = evs[at], tier[at][0], int(tier[at][1])


def _next_rows(
    plan: RequestPlan, states: list[tuple[int, int, int]]
) -> tuple[IntArray, FloatArray]:
    """`request_turn.next_rows` of every state, (states, rows) each."""
    space = plan.space
    mask, flag = (np.array([state[k] for state in states], dtype=np.int64) for k in (0, 2))
    folded = np.array([space.fold_one(m, s) for m, s, _ in states], dtype=np.int64)
    base = (mask * space.n_sub + (folded - space.sub_low)) * space.n_flag + flag
    key = mask & ((1 << plan.n_upper_bits) - 1)
    pair = key * space.n_sub + (folded - space.sub_low)
    lower_key = 2 * (mask >> plan.n_upper_bits) + (key == (1 << plan.n_upper_bits) - 1)
    index = np.concatenate((plan.upper_delta[pair], plan.lower_delta[lower_key]), axis=1)
    add = np.concatenate((plan.upper_add[pair], plan.lower_add[lower_key]), axis=1)
    return index + base[:, None], add


def turn_ends_many(
    ruleset: Ruleset, values: FloatArray, states: list[tuple[int, int, int]]
) -> list[TurnEnds]:
    """`target.turn_ends(ruleset, values, m, s, f, start, throws_per_turn - 1)` for each
    (m, s, f) of `states` (none of them a full card): where each state's turn ends under
    expected-points play from the turn's first throw."""
    n = len(states)
    if not n:
        return []
    plan = request_plan(ruleset)
    index, add = _next_rows(plan, states)
    rounds = ruleset.throws_per_turn - 1
    later_ev, later_succ, later_shift = _choices(ruleset, values, states, index, add, False)
    first = multiplied(ruleset)
    tr = keep_transitions()
    # throws (or keeps) down, states across: each reduction runs over the states at once
    mass = np.tile(tr.throw_probability[:, None], (1, n))
    ends: list[tuple[IntArray, IntArray, FloatArray]] = []
    if first:
        first_ev, first_succ, first_shift = _choices(ruleset, values, states, index, add, True)
    if rounds:
        # the keeps' values, round by round backwards from the last throw (`RequestTurn`)
        keeps: list[tuple[FloatArray, FloatArray]] = []  # each round's keeps, throws' best
        after = np.ascontiguousarray(later_ev.T)
        probability = tr.probability[:, None]
        for _ in range(rounds):
            keep = np.add.reduceat(after[tr.throw_of] * probability, tr.starts, axis=0)
            vals = keep[tr.sub_keeps]
            after = np.maximum.reduceat(vals, tr.sub_starts, axis=0)
            keeps.append((vals, after))
        segment = tr.throw_of_sub
        position = np.arange(len(tr.sub_keeps))[:, None]
        columns = np.arange(n)
        throw_at = tr.throw_of[:, None] * n + columns
        for left in range(rounds, 0, -1):
            vals, top = keeps[left - 1]
            # the last keep within TIE of the best in each throw's list (most dice kept)
            tied = vals >= top[segment] - TIE
            last = np.maximum.reduceat(np.where(tied, position, -1), tr.sub_starts, axis=0)
            chosen = tr.sub_keeps[last]
            if first and left == rounds:
                first_now = first_ev.T
                stand = first_now >= top - TIE
                ends.append((first_succ, first_shift, np.where(stand, mass, 0.0).T))
                mass = np.where(stand, 0.0, mass)
            # summed throw by throw, then completion by completion, as `turn_ends` sums
            keep_mass = np.bincount(
                (chosen * n + columns).ravel(), weights=mass.ravel(), minlength=len(tr.starts) * n
            ).reshape(-1, n)
            mass = (
                np.bincount(
                    throw_at.ravel(),
                    weights=(keep_mass[tr.keep_of] * probability).ravel(),
                    minlength=N_THROWS * n,
                )
                .reshape(N_THROWS, n)
                .astype(np.float64, copy=False)
            )
        ends.append((later_succ, later_shift, mass.T))
    elif first:
        ends.append((first_succ, first_shift, mass.T))
    else:
        ends.append((later_succ, later_shift, mass.T))
    return _gather_ends(ends, n)


def _gather_ends(ends: list[tuple[IntArray, IntArray, FloatArray]], n: int) -> list[TurnEnds]:
    """Per state, its distinct (next state, points) ends and their chance, summed in the
    order `turn_ends` sums them (a state's ends side by side, the first throw's first)."""
    succ = np.concatenate([e[0] for e in ends], axis=1).astype(np.int64)
    shift = np.concatenate([e[1] for e in ends], axis=1).astype(np.int64)
    weight = np.concatenate([e[2] for e in ends], axis=1)
    some = weight > 0
    row = np.broadcast_to(np.arange(n, dtype=np.int64)[:, None], some.shape)[some]
    key = succ[some] * (1 << SHIFT_BITS) + (shift[some] + (1 << (SHIFT_BITS - 1)))
    state_bits = max(int(key.max()), 1).bit_length() if len(key) else 1
    assert int(key.min(initial=0)) >= 0 and state_bits + n.bit_length() < 63
    unique, inverse = np.unique(key + (row << state_bits), return_inverse=True)
    summed = np.bincount(inverse.ravel(), weights=weight[some], minlength=len(unique))
    probability: FloatArray = summed.astype(np.float64, copy=False)
    bounds = np.searchsorted(unique >> state_bits, np.arange(n + 1))
    own = unique & ((1 << state_bits) - 1)
    out = []
    for k in range(n):
        part = own[bounds[k] : bounds[k + 1]]
        out.append(
            TurnEnds(
                part >> SHIFT_BITS,
                (part & ((1 << SHIFT_BITS) - 1)) - (1 << (SHIFT_BITS - 1)),
                probability[bounds[k] : bounds[k + 1]],
            )
        )
    return out


__all__ = ["turn_ends_many"]
