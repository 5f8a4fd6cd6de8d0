"""Backward induction over a scorecard game: the expected points still to come from every
reachable state under optimal play.

States are solved layer by layer (most boxes filled first), in chunks, with every step a
whole-array numpy operation over the chunk.  The same `placement_values` routine serves the
solve and the per-request advice in `advice.py`, so the table and the answers built from it
cannot disagree about what a placement is worth.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from diceref.rules.dice import FACES, N_THROWS, face_counts
from diceref.rules.points import points_table
from diceref.rules.ruleset import Joker, Ruleset
from diceref.solver.keeps import best_keep, keep_expectations, keep_graph
from diceref.solver.statespace import StateSpace, popcount

SOLVER_VERSION = "1"
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
NEG = -np.inf
CHUNK = 1024
THREADS = max(1, min(2, os.cpu_count() or 1))
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Placements:
    """Value of ending the turn on each throw: points, bonuses and the state that follows."""

    later: FloatArray  # (252, N) dice from the turn's second or third throw
    first: FloatArray  # (252, N) dice from the first throw (differs in russian-poker)


def placement_values(
    space: StateSpace, values: FloatArray, mask: IntArray, sub: IntArray, flag: IntArray
) -> Placements:
    """Best (points + bonuses + value of the next state) over the legal boxes, per throw."""
    rules = space.ruleset
    table = points_table(rules)
    n = len(mask)
    counts = face_counts()
    upper_full = (mask & space.upper_bits) == space.upper_bits
    secured_now = space.secured(mask, sub)
    multiplied = not np.array_equal(table.natural[0], table.natural[1])
    later = np.full((N_THROWS, n), NEG)
    first = np.full((N_THROWS, n), NEG) if multiplied else later
    lower_next: dict[int, FloatArray] = {}
    upper_q: dict[int, FloatArray] = {}
    scratch = np.empty((N_THROWS, n))
    five = rules.five_box_index

    for b, box in enumerate(rules.boxes):
        is_open = (mask >> b & 1) == 0
        new_mask = mask | (1 << b)
        if b in rules.upper_indices:
            pts_by_count = space.upper_points_by_count[b]
            q = np.empty((6, n))
            for c in range(6):
                pts = int(pts_by_count[c])
                new_sub = sub + pts
                bonus = np.where(
                    ~secured_now & space.secured(new_mask, new_sub), rules.upper_bonus.points, 0
                )
                q[c] = pts + bonus + values[space.index(new_mask, new_sub, flag)]
            q[:, ~is_open] = NEG
            upper_q[b] = q
            row = q[counts[:, box.face - 1]]
            np.maximum(later, row, out=later)
            if multiplied:
                np.maximum(first, row, out=first)
            continue
        legal = is_open & (upper_full if rules.series_order else True)
        if b == five:
            w0 = values[space.index(new_mask, sub, np.zeros_like(flag))]
            w1 = values[space.index(new_mask, sub, np.ones_like(flag))]
            w0 = np.where(legal, w0, NEG)
            w1 = np.where(legal, w1, NEG)
            top = table.natural[0][b] == rules.five_box_top
            cand = np.where(top[:, None], w1[None, :], w0[None, :])
            np.maximum(later, table.natural[0][b][:, None] + cand, out=later)
            if multiplied:
                np.maximum(first, table.natural[1][b][:, None] + cand, out=first)
            continue
        w = np.where(legal, values[space.index(new_mask, sub, flag)], NEG)
        lower_next[b] = w
        _max_plus(later, table.natural[0][b], w, scratch)
        if multiplied:
            _max_plus(first, table.natural[1][b], w, scratch)

    if five is not None:
        _five_of_a_kind_rows(space, mask, flag, later, upper_q, lower_next)
        if multiplied:
            _five_of_a_kind_rows(space, mask, flag, first, upper_q, lower_next)
    return Placements(later=later, first=first)


def _max_plus(
    out: FloatArray, points: IntArray, next_value: FloatArray, scratch: FloatArray
) -> None:
    """out = max(out, points[t] + next_value[s]) without allocating a (252, N) temporary."""
    np.add(points[:, None], next_value[None, :], out=scratch)
    np.maximum(out, scratch, out=out)


def _five_of_a_kind_rows(
    space: StateSpace,
    mask: IntArray,
    flag: IntArray,
    out: FloatArray,
    upper_q: dict[int, FloatArray],
    lower_next: dict[int, FloatArray],
) -> None:
    """Extra bonus and Joker: a further five of a kind once its box is used."""
    rules = space.ruleset
    rule = rules.five_of_a_kind
    five = rules.five_box_index
    assert rule is not None and five is not None
    table = points_table(rules)
    box_used = (mask >> five & 1) == 1
    extra = np.where(box_used & (flag == 1), float(rule.extra_bonus), 0.0)
    joker_on = box_used & ((flag == 1) | rule.joker_when_scratched)
    if rule.joker is Joker.NONE:
        joker_on = np.zeros_like(joker_on)
    for face in FACES:
        t = int(np.flatnonzero(table.five_face == face)[0])
        natural = out[t] + extra
        matching = next(i for i in rules.upper_indices if rules.boxes[i].face == face)
        lower_best = np.full(len(mask), NEG)
        for b, w in lower_next.items():
            np.maximum(lower_best, table.joker[b, t] + w, out=lower_best)
        upper_zero = np.full(len(mask), NEG)
        for b, q in upper_q.items():
            if b != matching:
                np.maximum(upper_zero, q[0], out=upper_zero)
        if rule.joker is Joker.FORCED:
            elsewhere = np.where(lower_best > NEG, lower_best, upper_zero)
        else:
            elsewhere = np.maximum(lower_best, upper_zero)
        matching_open = (mask >> matching & 1) == 0
        joker = np.where(matching_open, upper_q[matching][5], elsewhere) + extra
        out[t] = np.where(joker_on, joker, natural)


@dataclass(frozen=True)
class TurnValues:
    """Everything a turn's decisions are ranked by, for a batch of states."""

    placements: Placements
    keep_after_first: list[FloatArray]  # E1 per keep size: keep after throw 1
    keep_after_second: list[FloatArray]  # E2 per keep size: keep after throw 2
    start: FloatArray  # (N,) expected value before the first throw


def turn_values(
    space: StateSpace, values: FloatArray, mask: IntArray, sub: IntArray, flag: IntArray
) -> TurnValues:
    placements = placement_values(space, values, mask, sub, flag)
    keep2 = keep_expectations(placements.later)
    after_second = best_keep(keep2)  # stand on throw 2 is 'keep all five'
    keep1 = keep_expectations(after_second)
    after_first = np.maximum(placements.first, best_keep(keep1))
    start = keep_graph().throw_probability @ after_first
    return TurnValues(placements, keep1, keep2, start)


def solve(ruleset: Ruleset, progress: Progress | None = None) -> FloatArray:
    """The value table: expected points still to come from each state (NaN: unreachable)."""
    return _backward(ruleset, progress, _expected)


def solve_max(ruleset: Ruleset) -> FloatArray:
    """Most points still to come from each state if every throw could be chosen."""
    return _backward(ruleset, None, _maximum)


def _expected(
    space: StateSpace, values: FloatArray, mask: IntArray, sub: IntArray, flag: IntArray
) -> FloatArray:
    return turn_values(space, values, mask, sub, flag).start


def _maximum(
    space: StateSpace, values: FloatArray, mask: IntArray, sub: IntArray, flag: IntArray
) -> FloatArray:
    p = placement_values(space, values, mask, sub, flag)
    best: FloatArray = np.maximum(p.later, p.first).max(axis=0)
    return best


def _backward(
    ruleset: Ruleset,
    progress: Progress | None,
    step: Callable[[StateSpace, FloatArray, IntArray, IntArray, IntArray], FloatArray],
) -> FloatArray:
    space = StateSpace(ruleset)
    values = np.full(space.size, np.nan)
    full = (1 << space.n_boxes) - 1
    values[full * space.n_sub * space.n_flag : (full + 1) * space.n_sub * space.n_flag] = 0.0
    mask, sub, flag = space.all_states()
    filled = popcount(mask)
    todo = int((filled < space.n_boxes).sum())
    done = 0

    def run(part: IntArray) -> int:
        m, s, f = mask[part], sub[part], flag[part]
        values[space.index(m, s, f)] = step(space, values, m, s, f)
        return len(part)

    # Chunks of one layer only read layers already solved and write disjoint entries, and
    # numpy releases the GIL inside its loops: threads use both cores without copies.
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for layer in range(space.n_boxes - 1, -1, -1):
            rows = np.flatnonzero(filled == layer)
            parts = [rows[i : i + CHUNK] for i in range(0, len(rows), CHUNK)]
            for n in pool.map(run, parts):
                done += n
                if progress is not None:
                    progress(done, todo)
    return values
