"""The distribution table's solve, compiled: each state's turn ends and its band in one loop.

Layer by layer, each layer's states are prepared in numpy (where each box leads, whether the
Joker and the extra bonus apply), then one compiled loop (numba) does all the per-state work
of `target.turn_ends`, `target.mix` and `target._trim`: each throw's placement (ties to the
first box), the keeps' values summed as `RequestTurn` sums them (numpy's pairwise order),
the chance forward through the chosen keeps (ties to the most dice), the distinct ends
summed and sorted as the reference does, then the layer below's bands shifted, weighted and
trimmed.  So the ends equal the reference's to the bit, the bands to rounding (it mixes with
a BLAS product).  Two threads share a layer, chunk by chunk (the loop holds no GIL).
docs/solver.md, "How the play-to-win tables are built".
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray, IntArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import KEEP_INDEX, KEEPS, N_THROWS, THROWS
from diceref.core.jit import Compiled
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver.bands import (
    BandTable,
    Float32Array,
    SolvedPart,
    assemble_parts,
)
from diceref.games.scorecard.solver.packed import pack_parts
from diceref.games.scorecard.solver.request_turn import keep_transitions, request_plan, row_keys
from diceref.games.scorecard.solver.statespace import popcount, state_space
from diceref.games.scorecard.solver.target import EPS, TIE, Progress, TurnEnds, _stand, multiplied

PAIRWISE_BLOCK = 128  # numpy's pairwise sum adds blocks up to this long with 8 accumulators
SHIFT_BITS = 20  # an end's key: next state << 20 | (points + 2**19), as `turn_ends` sorts
MAX_ENDS = 2 * N_THROWS  # a turn's ends before merging: each throw placed, first and last
HASH_SIZE = 2048  # the open-addressing table merging a turn's ends (a power of two)
THREADS = min(2, os.cpu_count() or 1)
CHUNKS_PER_THREAD = 8  # a layer's chunks per thread, so that the threads finish together
MIN_CHUNK = 64
# Positions the loop only reads through are unsigned: numba then indexes without testing
# for a negative index (a fifth of the keeps' time).
UIntArray = npt.NDArray[np.uint64]
MIN_CAPACITY = 1024  # values a chunk's buffer starts with at least (it doubles when full)


@dataclass(frozen=True)
class _Keeps:
    """The keep -> throw transitions as the loop reads them, and each keep's sum as numpy's
    pairwise summation of `np.add.reduceat` runs it: the first completion, plus the blocks
    `prog_lo`, `prog_n` of the rest combined in post-order (`prog_n` -1: add the last two
    sums).  `prog_start[k]`: keep k's first step.  The best keep of every keep's dice is the
    larger of its own value and its children's best (the keep less one die, `child_start[k]`
    on in `child`), up from the empty keep, and a throw's best that of its own keep
    (`throw_keep`): a maximum, so the same whatever the order."""

    throw_of: UIntArray
    probability: FloatArray
    starts: IntArray  # (463,) with the end
    sub_keeps: UIntArray
    sub_starts: IntArray  # (253,) with the end
    throw_probability: FloatArray
    prog_start: IntArray
    prog_lo: IntArray
    prog_n: IntArray
    child_start: IntArray  # (463,) with the end
    child: UIntArray
    throw_keep: UIntArray


def _pairwise_steps(lo: int, n: int, out: list[tuple[int, int]]) -> None:
    """numpy's pairwise sum of n values from lo (`pairwise_sum_DOUBLE`): a block up to
    `PAIRWISE_BLOCK` long is one step, a longer run splits at a multiple of 8 near its middle
    and its halves' sums are added."""
    if n <= PAIRWISE_BLOCK:
        out.append((lo, n))
        return
    half = n // 2
    half -= half % 8
    _pairwise_steps(lo, half, out)
    _pairwise_steps(lo + half, n - half, out)
    out.append((0, -1))


@cache
def _keeps() -> _Keeps:
    tr = keep_transitions()
    starts = np.append(tr.starts, len(tr.throw_of)).astype(np.int64)
    prog_start = [0]
    steps: list[tuple[int, int]] = []
    for k in range(len(tr.starts)):
        _pairwise_steps(int(starts[k]) + 1, int(starts[k + 1] - starts[k]) - 1, steps)
        prog_start.append(len(steps))
    child_start = [0]
    child: list[int] = []
    for keep in KEEPS:
        child += sorted({KEEP_INDEX[keep[:j] + keep[j + 1 :]] for j in range(len(keep))})
        child_start.append(len(child))
    return _Keeps(
        tr.throw_of.astype(np.uint64),
        tr.probability.astype(np.float64),
        starts,
        tr.sub_keeps.astype(np.uint64),
        np.append(tr.sub_starts, len(tr.sub_keeps)).astype(np.int64),
        tr.throw_probability.astype(np.float64),
        np.array(prog_start, dtype=np.int64),
        np.array([s[0] for s in steps], dtype=np.int64),
        np.array([s[1] for s in steps], dtype=np.int64),
        np.array(child_start, dtype=np.int64),
        np.array(child, dtype=np.uint64),
        np.array([KEEP_INDEX[t] for t in THROWS], dtype=np.uint64),
    )


@dataclass(frozen=True)
class _Turn:
    """A ruleset's turn as flat arrays (`request_plan`'s): each (dice variant, box, throw)'s
    row and points (variant 1: the first throw's dice, in a game where they score
    otherwise), the next-row tables, and the Joker's tiers of each five-of-a-kind throw
    (`five_tiers[f, reading]`: its tiers' range while the matching upper box is open
    (reading 0) or filled (1), -1 where the throw scores as any other; each tier's
    candidates `tier_start[tier]` on in `cand_row`, `cand_points`)."""

    upper_delta: IntArray
    upper_add: FloatArray
    lower_delta: IntArray
    lower_add: FloatArray
    stand_rows: UIntArray  # (variants, boxes, 252)
    stand_points: FloatArray
    box_row_start: IntArray  # (variants * boxes + 1,): the distinct rows of each box
    box_rows: UIntArray
    five_throws: IntArray
    five_matching: IntArray  # the Joker's upper box of each, -1: no Joker for it
    five_tiers: IntArray  # (fives, 2, 2)
    tier_start: IntArray
    cand_row: UIntArray
    cand_points: FloatArray
    extra: float  # the extra bonus of a five of a kind once its box holds the top score


def _build(ruleset: Ruleset) -> _Turn:
    plan = request_plan(ruleset)
    variants = (False, True) if multiplied(ruleset) else (False,)
    stands = [_stand(plan, ruleset, first) for first in variants]
    by_throw = {t: (matching, choices) for t, matching, choices in plan.fives}
    five_tiers = np.full((len(plan.five_throws), 2, 2), -1, dtype=np.int64)
    five_matching = np.full(len(plan.five_throws), -1, dtype=np.int64)
    tier_start = [0]
    cand_row: list[int] = []
    cand_points: list[float] = []
    for f, t in enumerate(plan.five_throws):
        if t not in by_throw:
            continue
        matching, choices = by_throw[t]
        five_matching[f] = matching
        for reading, tiers in enumerate(choices):
            if tiers is None:
                continue
            five_tiers[f, reading] = (len(tier_start) - 1, len(tier_start) - 1 + len(tiers))
            for tier in tiers:
                for row, points in tier:
                    cand_row.append(row)
                    cand_points.append(points)
                tier_start.append(len(cand_row))
    extra = float(plan.model.extra_for(1, plan.five_throws[0])) if plan.five_throws else 0.0
    box_row_start = [0]
    box_rows: list[int] = []
    for rows, _ in stands:
        for b in range(len(rows)):
            box_rows += sorted(set(rows[b].tolist()))
            box_row_start.append(len(box_rows))
    return _Turn(
        plan.upper_delta.astype(np.int64),
        plan.upper_add.astype(np.float64),
        plan.lower_delta.astype(np.int64),
        plan.lower_add.astype(np.float64),
        np.stack([rows for rows, _ in stands]).astype(np.uint64),
        np.stack([points for _, points in stands]).astype(np.float64),
        np.array(box_row_start, dtype=np.int64),
        np.array(box_rows, dtype=np.uint64),
        np.array(plan.five_throws, dtype=np.int64),
        five_matching,
        five_tiers,
        np.array(tier_start, dtype=np.int64),
        np.array(cand_row, dtype=np.uint64),
        np.array(cand_points, dtype=np.float64),
        extra,
    )


_TURNS: PerRuleset[str, _Turn] = PerRuleset(8)


def _turn(ruleset: Ruleset) -> _Turn:
    return _TURNS.get(ruleset.rules_hash, lambda: _build(ruleset))


@dataclass(frozen=True)
class _States:
    """A layer's states as the loop reads them: each one's index (also the base of its next
    states' indices), its rows in the next-row tables, its mask, and whether its five-of-a-
    kind box is used, the Joker applies, and the extra bonus it earns."""

    index: IntArray
    pair: IntArray
    lower_key: IntArray
    mask: IntArray
    has_five: IntArray
    joker: IntArray
    extra: FloatArray

    def __len__(self) -> int:
        return len(self.index)


def _prepare(ruleset: Ruleset, mask: IntArray, sub: IntArray, flag: IntArray) -> _States:
    """`request_turn.next_rows`' keys and the Joker's facts of many states at once."""
    plan = request_plan(ruleset)
    model = plan.model
    index, pair, lower_key = row_keys(plan, mask, plan.space.fold(mask, sub), flag)
    five = model.five
    has_five = np.zeros(len(mask), dtype=np.int64) if five is None else mask >> five & 1
    return _States(
        index.astype(np.int64),
        pair.astype(np.int64),
        lower_key.astype(np.int64),
        mask.astype(np.int64),
        has_five.astype(np.int64),
        model.joker_on_each(mask, flag).astype(np.int64),
        np.where(flag == 1, _turn(ruleset).extra, 0.0),
    )


def _states_py(
    # the states: [first, stop) of the layer's arrays (`_States`)
    first: int,
    stop: int,
    s_index: IntArray,
    s_pair: IntArray,
    s_lower_key: IntArray,
    s_mask: IntArray,
    s_has_five: IntArray,
    s_joker: IntArray,
    s_extra: FloatArray,
    # the ruleset (`_Turn`) and the value table
    values: FloatArray,
    upper_delta: IntArray,
    upper_add: FloatArray,
    lower_delta: IntArray,
    lower_add: FloatArray,
    stand_rows: UIntArray,
    stand_points: FloatArray,
    box_row_start: IntArray,
    box_rows: UIntArray,
    five_throws: IntArray,
    five_matching: IntArray,
    five_tiers: IntArray,
    tier_start: IntArray,
    cand_row: UIntArray,
    cand_points: FloatArray,
    rounds: int,
    # the keeps (`_Keeps`)
    throw_of: UIntArray,
    probability: FloatArray,
    starts: IntArray,
    sub_keeps: UIntArray,
    sub_starts: IntArray,
    throw_probability: FloatArray,
    prog_start: IntArray,
    prog_lo: IntArray,
    prog_n: IntArray,
    child_start: IntArray,
    child: UIntArray,
    throw_keep: UIntArray,
    # the layer below: bands over the state index, values[start[i] + k - lo[i]]
    below_lo: IntArray,
    below_hi: IntArray,
    below_start: IntArray,
    below_values: FloatArray,
    # out: mixed (each state's first points kept and count, its values from `cursor[0]`
    # on), or with `mix` false each state's ends (`end_*[i - first]`, `end_count`)
    mix: bool,
    out_lo: IntArray,
    out_n: IntArray,
    out_values: FloatArray,
    cursor: IntArray,
    end_succ: IntArray,
    end_shift: IntArray,
    end_probability: FloatArray,
    end_count: IntArray,
) -> int:
    """Each state's turn ends and (with `mix`) its band, for the states first to stop; returns
    the state it stopped before (stop, or one whose band would not fit `out_values`)."""
    neg = -np.inf
    n_variants = stand_rows.shape[0]
    n_boxes = stand_rows.shape[1]
    n_throws = stand_rows.shape[2]
    n_keeps = len(starts) - 1
    n_up = upper_delta.shape[1]
    n_rows = n_up + lower_delta.shape[1]
    first_differs = n_variants == 2
    hash_mask = HASH_SIZE - 1
    u1 = np.uint64(1)
    row_index = np.empty(n_rows, dtype=np.int64)
    row_add = np.empty(n_rows)
    row_value = np.empty(n_rows)
    box_ev = np.empty(n_boxes)
    cell_ev = np.empty((n_boxes, n_throws))
    box_shift = np.empty(n_boxes)
    box_succ = np.empty(n_boxes, dtype=np.int64)
    ev = np.empty((n_variants, n_throws))
    succ = np.zeros((n_variants, n_throws), dtype=np.int64)
    shift = np.zeros((n_variants, n_throws), dtype=np.int64)
    n_rounds = max(rounds, 1)
    keep = np.empty((n_rounds, n_keeps))
    after = np.empty((n_rounds, n_throws))
    stack = np.empty(16)
    mass = np.empty(n_throws)
    mass_next = np.empty(n_throws)
    keep_mass = np.empty(n_keeps)
    keep_top = np.empty(n_keeps)
    live = np.empty(n_boxes, dtype=np.int64)
    slot_key = np.full(HASH_SIZE, -1, dtype=np.int64)
    slot_end = np.empty(HASH_SIZE, dtype=np.int64)
    key = np.empty(MAX_ENDS, dtype=np.int64)
    weight = np.empty(MAX_ENDS)
    slot_of = np.empty(MAX_ENDS, dtype=np.int64)
    e_succ = np.empty(MAX_ENDS, dtype=np.int64)
    e_shift = np.empty(MAX_ENDS, dtype=np.int64)
    band = np.zeros(256)
    for i in range(first, stop):
        base = s_index[i]
        for r in range(n_up):
            row_index[r] = upper_delta[s_pair[i], r] + base
            row_add[r] = upper_add[s_pair[i], r]
        for r in range(n_rows - n_up):
            row_index[n_up + r] = lower_delta[s_lower_key[i], r] + base
            row_add[n_up + r] = lower_add[s_lower_key[i], r]
        for r in range(n_rows):
            row_value[r] = values[row_index[r]] if row_add[r] > neg else neg
        # 1. each throw's placement: the best expected total, ties to the first box
        for v in range(n_variants):
            # the boxes some throw may fill (a box whose every row is barred takes none)
            n_live = 0
            for b in range(n_boxes):
                for j in range(box_row_start[v * n_boxes + b], box_row_start[v * n_boxes + b + 1]):
                    if row_add[box_rows[j]] > neg:
                        live[n_live] = b
                        n_live += 1
                        break
            for c in range(n_live):  # box by box, the expected total of each throw
                rows_b = stand_rows[v, live[c]]
                points_b = stand_points[v, live[c]]
                ev_b = cell_ev[c]
                for t in range(n_throws):
                    row = rows_b[t]
                    gain = row_add[row] + points_b[t]
                    ev_b[t] = row_value[row] + gain if np.isfinite(gain) else neg
            for t in range(n_throws):
                best = neg
                for c in range(n_live):
                    if cell_ev[c, t] > best:
                        best = cell_ev[c, t]
                c = 0
                while c < n_live - 1 and not cell_ev[c, t] >= best - TIE:
                    c += 1
                b = live[c] if n_live else 0
                row = stand_rows[v, b, t]
                gain = row_add[row] + stand_points[v, b, t]
                ev[v, t] = best
                succ[v, t] = row_index[row]
                shift[v, t] = int(gain) if np.isfinite(gain) else 0
            if not s_has_five[i]:
                continue
            extra = s_extra[i]
            for f in range(len(five_throws)):
                t = five_throws[f]
                tier_lo = -1
                tier_hi = -1
                if s_joker[i] and five_matching[f] >= 0:
                    reading = (s_mask[i] >> five_matching[f]) & 1
                    tier_lo = five_tiers[f, reading, 0]
                    tier_hi = five_tiers[f, reading, 1]
                count = 0
                if tier_lo < 0:  # scores as any throw, with the extra bonus
                    if extra == 0.0:
                        continue
                    for c in range(n_live):
                        row = stand_rows[v, live[c], t]
                        gain = row_add[row] + stand_points[v, live[c], t]
                        if np.isfinite(gain):
                            gain = gain + extra
                            box_ev[count] = row_value[row] + gain
                            box_shift[count] = gain
                            box_succ[count] = row_index[row]
                            count += 1
                else:  # the first tier with a candidate
                    for tier in range(tier_lo, tier_hi):
                        for c in range(tier_start[tier], tier_start[tier + 1]):
                            row = cand_row[c]
                            if np.isfinite(row_add[row]):
                                gain = row_add[row] + cand_points[c] + extra
                                box_ev[count] = row_value[row] + gain
                                box_shift[count] = gain
                                box_succ[count] = row_index[row]
                                count += 1
                        if count:
                            break
                if not count:
                    ev[v, t] = neg
                    continue
                best = box_ev[0]
                for c in range(1, count):
                    if box_ev[c] > best:
                        best = box_ev[c]
                c = 0
                while c < count - 1 and not box_ev[c] >= best - TIE:
                    c += 1
                ev[v, t] = box_ev[c]
                succ[v, t] = box_succ[c]
                shift[v, t] = int(box_shift[c])
        # 2. the keeps' values, backwards from the last throw (`RequestTurn.keeps_with`)
        for r in range(rounds):
            source = ev[0] if r == 0 else after[r - 1]
            for k in range(n_keeps):
                s = starts[k]
                if starts[k + 1] - s == 1:  # all five dice kept: its throw's value (times 1)
                    keep[r, k] = source[throw_of[s]] * probability[s]
                    continue
                depth = 0
                for step in range(prog_start[k], prog_start[k + 1]):
                    n = prog_n[step]
                    if n < 0:  # the two halves of a long run
                        depth -= 1
                        stack[depth - 1] = stack[depth - 1] + stack[depth]
                        continue
                    at_j = np.uint64(prog_lo[step])  # unsigned: no test for a negative index
                    stop_j = at_j + np.uint64(n)
                    if n < 8:
                        total = 0.0
                        while at_j < stop_j:
                            total += source[throw_of[at_j]] * probability[at_j]
                            at_j += u1
                    else:  # 8 sums side by side, added pairwise, then the rest in turn
                        a0 = source[throw_of[at_j]] * probability[at_j]
                        at_j += u1
                        a1 = source[throw_of[at_j]] * probability[at_j]
                        at_j += u1
                        a2 = source[throw_of[at_j]] * probability[at_j]
                        at_j += u1
                        a3 = source[throw_of[at_j]] * probability[at_j]
                        at_j += u1
                        a4 = source[throw_of[at_j]] * probability[at_j]
                        at_j += u1
                        a5 = source[throw_of[at_j]] * probability[at_j]
                        at_j += u1
                        a6 = source[throw_of[at_j]] * probability[at_j]
                        at_j += u1
                        a7 = source[throw_of[at_j]] * probability[at_j]
                        at_j += u1
                        end = stop_j - np.uint64(n % 8)
                        while at_j < end:
                            a0 += source[throw_of[at_j]] * probability[at_j]
                            at_j += u1
                            a1 += source[throw_of[at_j]] * probability[at_j]
                            at_j += u1
                            a2 += source[throw_of[at_j]] * probability[at_j]
                            at_j += u1
                            a3 += source[throw_of[at_j]] * probability[at_j]
                            at_j += u1
                            a4 += source[throw_of[at_j]] * probability[at_j]
                            at_j += u1
                            a5 += source[throw_of[at_j]] * probability[at_j]
                            at_j += u1
                            a6 += source[throw_of[at_j]] * probability[at_j]
                            at_j += u1
                            a7 += source[throw_of[at_j]] * probability[at_j]
                            at_j += u1
                        total = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7))
                        while at_j < stop_j:
                            total += source[throw_of[at_j]] * probability[at_j]
                            at_j += u1
                    stack[depth] = total
                    depth += 1
                keep[r, k] = source[throw_of[s]] * probability[s] + stack[0]
            # each keep's best sub-keep: the larger of its own value and its children's
            # best, up from the empty keep (a maximum: the same in any order)
            for k in range(n_keeps):
                top = keep[r, k]
                for j in range(child_start[k], child_start[k + 1]):
                    if keep_top[child[j]] > top:
                        top = keep_top[child[j]]
                keep_top[k] = top
            for t in range(n_throws):
                after[r, t] = keep_top[throw_keep[t]]
        # 3. the chance forward from the first throw; each end recorded once, its chance
        # summed in the order of its records
        n_ends = 0
        for t in range(n_throws):
            mass[t] = throw_probability[t]
        for left in range(rounds, -1, -1):
            placed = left == 0
            first_throw = first_differs and left == rounds
            for k in range(n_keeps):
                keep_mass[k] = 0.0
            keep_row = keep[max(left - 1, 0)]
            for t in range(n_throws):
                m = mass[t]
                if m == 0.0:
                    continue
                v = -1
                if placed:
                    v = 1 if first_throw else 0
                else:
                    top = after[left - 1, t] - TIE
                    if first_throw and ev[1, t] >= top:
                        v = 1
                    else:
                        # the last keep within TIE of the best (the most dice kept)
                        at_j = np.uint64(sub_starts[t + 1] - 1)
                        while not keep_row[sub_keeps[at_j]] >= top:
                            at_j -= u1
                        keep_mass[sub_keeps[at_j]] += m
                if v >= 0:
                    code = (succ[v, t] << SHIFT_BITS) + shift[v, t] + (1 << (SHIFT_BITS - 1))
                    h = (code * 40503 + (code >> 17) * 9973) & hash_mask
                    while slot_key[h] != code and slot_key[h] != -1:
                        h = (h + 1) & hash_mask
                    if slot_key[h] == -1:
                        slot_key[h] = code
                        slot_end[h] = n_ends
                        slot_of[n_ends] = h
                        key[n_ends] = code
                        weight[n_ends] = 0.0
                        n_ends += 1
                    weight[slot_end[h]] += m
            if placed:
                break
            for t in range(n_throws):
                mass_next[t] = 0.0
            for k in range(n_keeps):
                m = keep_mass[k]
                if m == 0.0:
                    continue
                for entry in range(np.uint64(starts[k]), np.uint64(starts[k + 1])):
                    mass_next[throw_of[entry]] += m * probability[entry]
            for t in range(n_throws):
                mass[t] = mass_next[t]
        for e in range(n_ends):
            slot_key[slot_of[e]] = -1
        # 4. the ends sorted by next state, then points
        order = np.argsort(key[:n_ends])
        for e in range(n_ends):
            code = key[order[e]]
            e_succ[e] = code >> SHIFT_BITS
            e_shift[e] = (code & ((1 << SHIFT_BITS) - 1)) - (1 << (SHIFT_BITS - 1))
        if not mix:
            for e in range(n_ends):
                end_succ[i - first, e] = e_succ[e]
                end_shift[i - first, e] = e_shift[e]
                end_probability[i - first, e] = weight[order[e]]
            end_count[i - first] = n_ends
            continue
        # 5. the band: the next states' bands shifted and weighted, then trimmed
        lo = below_lo[e_succ[0]] + e_shift[0]
        hi = below_hi[e_succ[0]] + e_shift[0]
        for e in range(1, n_ends):
            lo = min(lo, below_lo[e_succ[e]] + e_shift[e])
            hi = max(hi, below_hi[e_succ[e]] + e_shift[e])
        width = hi - lo
        if cursor[0] + width > len(out_values):
            return i
        if width > len(band):
            band = np.zeros(2 * width)
        for k in range(width):
            band[k] = 0.0
        for e in range(n_ends):
            p = weight[order[e]]
            s = e_succ[e]
            n = below_hi[s] - below_lo[s]
            at = below_lo[s] + e_shift[e] - lo
            read = below_start[s]
            # slices, so that the loop's indices cannot be negative (it vectorizes)
            into = band[at : at + n]
            next_band = below_values[read : read + n]
            for k in range(n):
                into[k] += p * next_band[k]
        a = 0
        while a < width and not abs(band[a]) > EPS:
            a += 1
        b = width
        while b > a and not band[b - 1] > EPS:
            b -= 1
        out_lo[i - first] = lo + a
        out_n[i - first] = b - a
        at = cursor[0]
        for k in range(a, b):
            out_values[at + k - a] = band[k]
        cursor[0] = at + b - a
    return stop


_states = Compiled(_states_py)


class _Solver:
    """The compiled loop's fixed arguments for one ruleset and value table."""

    def __init__(self, ruleset: Ruleset, values: FloatArray) -> None:
        self.values = np.ascontiguousarray(values, dtype=np.float64)
        self.turn = _turn(ruleset)
        self.keeps = _keeps()
        self.rounds = ruleset.throws_per_turn - 1

    def run(
        self,
        states: _States,
        first: int,
        stop: int,
        below: tuple[IntArray, IntArray, IntArray, FloatArray],
        mix: bool,
        out: tuple[IntArray, IntArray, FloatArray, IntArray],
        ends: tuple[IntArray, IntArray, FloatArray, IntArray],
    ) -> int:
        t, k = self.turn, self.keeps
        return _states(
            first,
            stop,
            states.index,
            states.pair,
            states.lower_key,
            states.mask,
            states.has_five,
            states.joker,
            states.extra,
            self.values,
            t.upper_delta,
            t.upper_add,
            t.lower_delta,
            t.lower_add,
            t.stand_rows,
            t.stand_points,
            t.box_row_start,
            t.box_rows,
            t.five_throws,
            t.five_matching,
            t.five_tiers,
            t.tier_start,
            t.cand_row,
            t.cand_points,
            self.rounds,
            k.throw_of,
            k.probability,
            k.starts,
            k.sub_keeps,
            k.sub_starts,
            k.throw_probability,
            k.prog_start,
            k.prog_lo,
            k.prog_n,
            k.child_start,
            k.child,
            k.throw_keep,
            *below,
            mix,
            *out,
            *ends,
        )


_NO_ENDS = (
    np.zeros((0, MAX_ENDS), dtype=np.int64),
    np.zeros((0, MAX_ENDS), dtype=np.int64),
    np.zeros((0, MAX_ENDS)),
    np.zeros(0, dtype=np.int64),
)


def turn_ends_many(
    ruleset: Ruleset, values: FloatArray, states: list[tuple[int, int, int]]
) -> list[TurnEnds]:
    """`target.turn_ends(ruleset, values, m, s, f, start, throws_per_turn - 1)` for each
    (m, s, f) of `states` (none of them a full card), by the compiled loop without its mix:
    where each state's turn ends under expected-points play from the turn's first throw."""
    n = len(states)
    if not n:
        return []
    mask, sub, flag = (np.array([s[k] for s in states], dtype=np.int64) for k in range(3))
    prepared = _prepare(ruleset, mask, sub, flag)
    solver = _Solver(ruleset, values)
    ends = (
        np.zeros((n, MAX_ENDS), dtype=np.int64),
        np.zeros((n, MAX_ENDS), dtype=np.int64),
        np.zeros((n, MAX_ENDS)),
        np.zeros(n, dtype=np.int64),
    )
    empty = np.zeros(0, dtype=np.int64)
    below = (empty, empty, empty, np.zeros(0))
    out = (empty, empty, np.zeros(0), np.zeros(1, dtype=np.int64))
    solver.run(prepared, 0, n, below, False, out, ends)
    succ, shift, probability, count = ends
    return [
        TurnEnds(
            succ[i, : count[i]].copy(), shift[i, : count[i]].copy(), probability[i, : count[i]]
        )
        for i in range(n)
    ]


@dataclass
class _Chunk:
    """One chunk's bands: first points kept and count per state, their values end to end."""

    lo: IntArray
    n: IntArray
    values: FloatArray


def _solve_chunk(
    solver: _Solver,
    states: _States,
    first: int,
    stop: int,
    below: tuple[IntArray, IntArray, IntArray, FloatArray],
    capacity: int,
) -> _Chunk:
    """States first to stop, the buffer grown whenever a band would not fit."""
    lo = np.zeros(stop - first, dtype=np.int64)
    n = np.zeros(stop - first, dtype=np.int64)
    values = np.empty(max(capacity, MIN_CAPACITY))
    cursor = np.zeros(1, dtype=np.int64)
    at = first
    while True:
        out = (lo[at - first :], n[at - first :], values, cursor)
        at = solver.run(states, at, stop, below, True, out, _NO_ENDS)
        if at == stop:
            del out
            values.resize(int(cursor[0]), refcheck=False)  # the room to spare given back
            return _Chunk(lo, n, values)
        grown = np.empty(2 * len(values))
        grown[: int(cursor[0])] = values[: int(cursor[0])]
        values = grown


def distribution_layers(
    ruleset: Ruleset,
    values: FloatArray,
    progress: Progress | None = None,
    within: int = 0,
    threads: int = THREADS,
) -> Iterator[SolvedPart]:
    """The distribution table (as `target.solve_distribution`), a layer at a time, most
    boxes filled first: from every state, the chance of each number of points still to
    come under expected-points play (`values`: the value table); with `within`, of the
    states a card with those boxes filled can reach.  A layer is handed out while the next
    one is solved; only the layer below is kept."""
    space = state_space(ruleset)
    full = (1 << space.n_boxes) - 1
    mask, sub, flag = space.all_states()
    if within:
        keep = (mask & within) == within
        mask, sub, flag = mask[keep], sub[keep], flag[keep]
    filled = popcount(mask)
    lo_of = np.zeros(space.size, dtype=np.int64)
    hi_of = np.zeros(space.size, dtype=np.int64)
    start_of = np.zeros(space.size, dtype=np.int64)  # into the layer below's values
    below_values, below_count = np.zeros(0), 1
    solver = _Solver(ruleset, values)
    todo, done = len(mask), 0
    solved: list[SolvedPart] = []
    with ThreadPoolExecutor(max(1, threads)) as pool:
        for count in range(space.n_boxes, -1, -1):
            part = np.flatnonzero(filled == count)
            if not len(part):
                continue
            if count == space.n_boxes:  # nothing more to come: 0 points for sure
                assert bool((mask[part] == full).all())
                index = space.index(mask[part], sub[part], flag[part])
                chunks = [
                    _Chunk(
                        np.zeros(len(part), dtype=np.int64),
                        np.ones(len(part), dtype=np.int64),
                        np.ones(len(part)),
                    )
                ]
            else:
                states = _prepare(ruleset, mask[part], sub[part], flag[part])
                index = states.index
                below = (lo_of, hi_of, start_of, below_values)
                step = max(MIN_CHUNK, -(-len(part) // (CHUNKS_PER_THREAD * max(1, threads))))
                width = len(below_values) // below_count + 1  # the layer below's mean band
                jobs = [
                    pool.submit(
                        _solve_chunk,
                        solver,
                        states,
                        a,
                        min(a + step, len(part)),
                        below,
                        (min(a + step, len(part)) - a) * (width + 64),
                    )
                    for a in range(0, len(part), step)
                ]
                yield from solved  # the layer before, while this one is solved
                chunks = [job.result() for job in jobs]
                del below, jobs
                solved, below_values = [], np.zeros(0)  # done with: packed, and read
            layer_lo = np.concatenate([c.lo for c in chunks])
            layer_n = np.concatenate([c.n for c in chunks])
            lo_of[index] = layer_lo
            hi_of[index] = layer_lo + layer_n
            start_of[index] = np.cumsum(layer_n) - layer_n
            # the chunks copied end to end, each let go of once copied: the layer is held
            # once, not twice
            below_values = np.empty(sum(len(c.values) for c in chunks))
            at = 0
            for k in range(len(chunks)):
                band = chunks[k].values
                below_values[at : at + len(band)] = band
                at += len(band)
                chunks[k] = _Chunk(chunks[k].lo, chunks[k].n, np.zeros(0))
                del band
            below_count = len(part)
            solved = [(index, layer_lo, layer_lo + layer_n, start_of[index], below_values)]
            del chunks
            done += len(part)
            if progress is not None:
                progress(done, todo)
        yield from solved


def solve_distribution_fast(
    ruleset: Ruleset,
    values: FloatArray,
    progress: Progress | None = None,
    within: int = 0,
    threads: int = THREADS,
) -> BandTable:
    """The distribution table solved in float64 (`distribution_layers`)."""
    layers = distribution_layers(ruleset, values, progress, within, threads)
    return assemble_parts(state_space(ruleset).size, 0.0, layers)


def solve_distribution_packed(
    ruleset: Ruleset, values: FloatArray, progress: Progress | None = None
) -> Float32Array:
    """The distribution table in its stored form, each layer packed while the next one is
    solved: only the layer below is held in float64."""
    layers = distribution_layers(ruleset, values, progress)
    return pack_parts(state_space(ruleset).size, 0.0, layers)


__all__ = [
    "distribution_layers",
    "solve_distribution_fast",
    "solve_distribution_packed",
    "turn_ends_many",
]
