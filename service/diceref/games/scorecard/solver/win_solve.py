"""The win table's solve, layer by layer, the needs of a state the kernel's columns.

A turn reads the layer below through (next state, points) pairs.  Which pairs a throw may
end on depends only on a state's filled boxes and flag (open boxes, the Joker's tiers, the
extra bonus), so a layer's states are grouped by them, and each group stands on a throw
with the best of its legal pairs only (`_stand_program`); the keeps are the value table's
program.  A compiled loop (`_solve_group`: numba, calling the llvmlite kernel) packs a
group's (state, need) columns side by side, gathers each pair's row shifted by its points,
runs both programs and writes each state's band; two threads share a layer's groups.
`target.solve_win` is the reference it is held to; docs/solver.md, "Play to win".
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray, IntArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import N_THROWS
from diceref.core.jit import Compiled
from diceref.core.kernel import KINDS, LANES, Program, Reduction
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver import batched
from diceref.games.scorecard.solver.bands import BandTable, Float32Array, SolvedPart, assemble_parts
from diceref.games.scorecard.solver.packed import pack_parts
from diceref.games.scorecard.solver.request_turn import keep_transitions, request_plan, row_keys
from diceref.games.scorecard.solver.statespace import StateSpace, state_space
from diceref.games.scorecard.solver.target import EPS, Progress, _stand, five_readings, multiplied

BoolArray = npt.NDArray[np.bool_]
COLUMNS = 64  # (state, need) columns run through the programs at once: a batch's rows
# stay in the core's own cache (docs/solver.md, "How the play-to-win tables are built")
MAX = KINDS.index("max")


@dataclass(frozen=True)
class _Plan:
    """A ruleset's buffer layout: the pairs (rows [0, n_pairs), a group's own at the
    front), a row that stays -inf (a throw with no legal placement), the stand rows of
    each variant (the first throw's, where it scores otherwise), then the keeps."""

    pair_row: IntArray  # (P,) the request plan's row of each pair
    pair_points: IntArray  # (P,) the points it adds beyond that row's own
    pair_of: dict[tuple[int, int], int]
    cells: tuple[IntArray, ...]  # per variant, (boxes, 252): each (box, throw) cell's pair
    cell_rows: tuple[IntArray, ...]  # per variant, (boxes, 252): each cell's plan row
    neg_row: int
    stand_at: tuple[int, ...]  # per variant, the first of its 252 stand rows
    keeps: Program  # the keeps, then the turn's value: each first throw's best by its chance
    value_row: int
    n_rows: int


class _Rows:
    """Row allocation for `keep_steps`, which lays out the keeps after the stand rows."""

    def __init__(self, ruleset: Ruleset, start: int, multiplied: bool) -> None:
        self.ruleset, self.n, self.multiplied = ruleset, start, multiplied

    def take(self, count: int) -> int:
        start, self.n = self.n, self.n + count
        return start


def _build(ruleset: Ruleset) -> _Plan:
    plan = request_plan(ruleset)
    first_differs = multiplied(ruleset)
    variants = (0, 1) if first_differs else (0,)
    extras = (0, int(plan.model.extra_bonus)) if plan.model.five is not None else (0,)
    pair_of: dict[tuple[int, int], int] = {}

    def pair(row: int, points: int) -> int:
        return pair_of.setdefault((row, points), len(pair_of))

    cells: list[IntArray] = []
    cell_rows: list[IntArray] = []
    for v in variants:
        rows, points = _stand(plan, ruleset, v == 1)
        pts = points.astype(np.int64)
        cell = zip(rows.ravel().tolist(), pts.ravel().tolist(), strict=True)
        cells.append(np.array([pair(r, p) for r, p in cell], dtype=np.int64).reshape(rows.shape))
        cell_rows.append(np.asarray(rows, dtype=np.int64))
        # a five of a kind scored naturally with the extra bonus
        for t in plan.five_throws:
            for extra in extras:
                for b in range(rows.shape[0]):
                    pair(int(rows[b, t]), int(pts[b, t]) + extra)
    for _, _, choices in plan.fives:  # the Joker's tiers, with and without the extra bonus
        for tiers in choices:
            for tier in tiers or ():
                for row, points_ in tier:
                    for extra in extras:
                        pair(row, int(points_) + extra)
    n_pairs = len(pair_of)
    stand_at = tuple(n_pairs + 1 + v * N_THROWS for v in variants)
    layout = _Rows(ruleset, n_pairs + 1 + len(variants) * N_THROWS, first_differs)
    stands = [{t: at + t for t in range(N_THROWS)} for at in stand_at]
    keep_reductions, final_at = batched._Builder.keep_steps(layout, stands)  # type: ignore[arg-type]
    # The turn's value, sum over the first throws of chance times best: a throw's chance is
    # its count of orders over 6**5, so the throws of each count are summed, then scaled.
    chance = keep_transitions().throw_probability
    counts = np.unique(chance)
    at = layout.take(len(counts))
    for k, p in enumerate(counts.tolist()):
        throws = [[final_at[t] for t in np.flatnonzero(chance == p).tolist()]]
        keep_reductions.append(Reduction("mean", at + k, throws, p))
    value_row = layout.take(1)
    keep_reductions.append(Reduction("plus", value_row, [list(range(at, at + len(counts)))], 0.0))
    keys = sorted(pair_of, key=pair_of.__getitem__)
    return _Plan(
        pair_row=np.array([k[0] for k in keys], dtype=np.int64),
        pair_points=np.array([k[1] for k in keys], dtype=np.int64),
        pair_of=pair_of,
        cells=tuple(cells),
        cell_rows=tuple(cell_rows),
        neg_row=n_pairs,
        stand_at=stand_at,
        keeps=Program(keep_reductions, layout.n),
        value_row=value_row,
        n_rows=layout.n,
    )


_PLANS: PerRuleset[str, _Plan] = PerRuleset(8)


def _plan(ruleset: Ruleset) -> _Plan:
    return _PLANS.get(ruleset.rules_hash, lambda: _build(ruleset))


def _five_sources(
    ruleset: Ruleset, plan: _Plan, v: int, mask: int, flag: int, legal: BoolArray
) -> dict[int, list[int]]:
    """The five-of-a-kind throws whose candidates the Joker or the extra bonus sets
    (`target.five_readings`), each as its pairs: its own legal boxes with the extra bonus,
    or the first tier with a legal candidate (none: an empty list); `legal`: the request
    plan's rows the state may fill."""
    extra, readings = five_readings(request_plan(ruleset), mask, flag)
    rows, cell = plan.cell_rows[v], plan.cells[v]
    out: dict[int, list[int]] = {}
    for t, tiers in readings.items():
        if tiers is None:
            out[t] = [
                plan.pair_of[(int(rows[b, t]), int(plan.pair_points[cell[b, t]]) + extra)]
                for b in range(rows.shape[0])
                if legal[rows[b, t]]
            ]
            continue
        out[t] = []
        for tier in tiers:
            found = [plan.pair_of[(row, int(p) + extra)] for row, p in tier if legal[row]]
            if found:
                out[t] = found
                break
    return out


@dataclass(frozen=True)
class _Group:
    """States of a layer whose turns may fill the same pairs (their positions in the
    layer, `at`): the pairs (`used`), and the program standing on each throw, which reads
    them from the buffer's first rows."""

    at: IntArray
    used: IntArray
    stand: Program


def _stand_program(
    ruleset: Ruleset, plan: _Plan, mask: int, flag: int, legal: BoolArray
) -> tuple[IntArray, Program]:
    """The pairs a group's turns read, and its program: per variant, each throw's best
    over its legal pairs (the row of pair `used[i]` is buffer row i; a throw with none
    reads the row that stays -inf)."""
    flats: list[IntArray] = []
    sizes: list[IntArray] = []
    for v, cell in enumerate(plan.cells):
        allowed = legal[plan.cell_rows[v]]  # (boxes, 252)
        flat = cell.T[allowed.T]
        counts = allowed.sum(axis=0)
        fives = _five_sources(ruleset, plan, v, mask, flag, legal)
        if fives:  # their throws' pairs replaced
            starts = np.concatenate(([0], np.cumsum(counts)))
            pieces: list[IntArray] = []
            prev = 0
            for t in sorted(fives):
                pieces += [flat[starts[prev] : starts[t]], np.array(fives[t], dtype=np.int64)]
                counts[t] = len(fives[t])
                prev = t + 1
            flat = np.concatenate([*pieces, flat[starts[prev] :]])
        empty = np.flatnonzero(counts == 0)
        if len(empty):  # -1: the row that stays -inf
            flat = np.insert(flat, np.concatenate(([0], np.cumsum(counts)))[empty], -1)
            counts[empty] = 1
        flats.append(flat)
        sizes.append(counts)
    every = np.concatenate(flats)
    used = np.unique(every[every >= 0])
    idx = np.where(every >= 0, np.searchsorted(used, every), plan.neg_row)
    n = len(plan.cells)
    before = np.cumsum([0, *map(len, flats)])
    ptr = np.concatenate([np.cumsum([0, *c]) + before[v] for v, c in enumerate(sizes)])
    ops = np.array(
        [[MAX, plan.stand_at[v], N_THROWS, v * (N_THROWS + 1)] for v in range(n)], dtype=np.int64
    ).ravel()
    stand = Program.of_arrays(
        ops, ptr.astype(np.int64), idx.astype(np.int64), np.ones(n), plan.n_rows
    )
    return used, stand


def _groups(
    ruleset: Ruleset, plan: _Plan, mask: IntArray, flag: IntArray, add: FloatArray
) -> list[_Group]:
    """A layer's states grouped by their filled boxes, flag and legal rows (`add` finite:
    the request plan's rows each state may fill), each group with its program."""
    legal = np.isfinite(add)
    pattern = np.packbits(legal, axis=1)
    key = np.concatenate([(mask * 2 + flag)[:, None].view(np.uint8), pattern], axis=1)
    _, inverse = np.unique(key, axis=0, return_inverse=True)
    order = np.argsort(inverse.ravel(), kind="stable")
    bounds = np.flatnonzero(np.diff(inverse.ravel()[order])) + 1
    groups = []
    for at in np.split(order, bounds):
        k = int(at[0])
        used, stand = _stand_program(ruleset, plan, int(mask[k]), int(flag[k]), legal[k])
        groups.append(_Group(at, used, stand))
    return groups


def _pairs(
    group: _Group, plan: _Plan, index: IntArray, add: FloatArray
) -> tuple[IntArray, IntArray]:
    """Each state's pairs: the next state and the points, (states, pairs) each."""
    rows = plan.pair_row[group.used]
    succ = np.ascontiguousarray(index[group.at][:, rows])
    shift = (add[group.at][:, rows] + plan.pair_points[group.used]).astype(np.int64)
    return succ, shift


@dataclass(frozen=True)
class _Job:
    """A group to solve: each state's band of needs (below `lo` sure, from `lo + width`
    hopeless: every pair's next state is, there), and where its kept bands go in the
    layer's values (`region` on, each between two sentinels)."""

    group: _Group
    lo: IntArray
    width: IntArray
    region: int

    @property
    def columns(self) -> int:
        return int(self.width.sum())


def _jobs(
    groups: list[_Group], plan: _Plan, index: IntArray, add: FloatArray, below: _Below
) -> tuple[list[_Job], int]:
    """The layer's jobs, and the length of the values they write."""
    jobs = []
    region = 0
    for group in groups:
        succ, shift = _pairs(group, plan, index, add)
        lo = (below.lo[succ] + shift).min(axis=1)
        width = (below.hi[succ] + shift).max(axis=1) - lo
        jobs.append(_Job(group, lo, width, region))
        region += int(width.sum()) + 2 * len(lo)
    return jobs, region


# The kernel's `run`, as numba calls it (every argument an int64); set in each process
# before `_solve_group` is compiled, which reads it as a constant.
_RUN: object = None
_RUN_LOCK = threading.Lock()


def _solve_group_py(
    buf: FloatArray,
    values: FloatArray,
    first: IntArray,
    lo_of: IntArray,
    hi_of: IntArray,
    succ: IntArray,
    shift: IntArray,
    lo: IntArray,
    width: IntArray,
    out_at: IntArray,
    out: FloatArray,
    stand: tuple[IntArray, int, IntArray, IntArray, FloatArray],
    keeps: tuple[IntArray, int, IntArray, IntArray, FloatArray],
    value_row: int,
    seg: IntArray,
) -> None:
    """A group's bands into `out[out_at[k]:out_at[k] + width[k]]`: its states' needs side
    by side, a buffer's width at a time (a state may span two batches).  Row r of the
    buffer, for state k and need n, is the layer below's value of pair r's next state at
    n minus its points, read from `values` (each band between its two sentinels: `first`
    the position of the one before it).  A full batch (or the last) runs the stand and
    keep programs over its columns, padded to whole groups of the kernel's lanes, and
    writes each state's segment of the turn's value (`value_row`) out."""
    cap = buf.shape[1]
    n_states = len(lo)
    n_pairs = succ.shape[1]
    k = 0
    a = 0
    col = 0
    n_seg = 0
    while True:
        while k < n_states and a >= width[k]:
            k += 1
            a = 0
        done = k >= n_states
        if not done:
            n = min(cap - col, width[k] - a)
            need0 = lo[k] + a
            for r in range(n_pairs):
                j = succ[k, r]
                f = first[j]
                last = f + hi_of[j] - lo_of[j] + 1
                base = f + 1 + need0 - shift[k, r] - lo_of[j]
                c_lo = min(max(f - base, 0), n)
                c_hi = min(max(last - base, c_lo), n)
                row = buf[r]
                value = values[f]
                for c in range(c_lo):
                    row[col + c] = value
                for c in range(c_lo, c_hi):
                    row[col + c] = values[base + c]
                value = values[last]
                for c in range(c_hi, n):
                    row[col + c] = value
            seg[n_seg, 0] = k
            seg[n_seg, 1] = a
            seg[n_seg, 2] = n
            seg[n_seg, 3] = col
            n_seg += 1
            col += n
            a += n
        if col == cap or (done and col > 0):
            padded = (col + LANES - 1) // LANES * LANES
            ops, n_ops, ptr, idx, scales = stand
            _RUN(  # type: ignore[operator]
                buf.ctypes.data, cap, padded, ops.ctypes.data, n_ops, ptr.ctypes.data,
                idx.ctypes.data, scales.ctypes.data,
            )  # fmt: skip
            ops, n_ops, ptr, idx, scales = keeps
            _RUN(  # type: ignore[operator]
                buf.ctypes.data, cap, padded, ops.ctypes.data, n_ops, ptr.ctypes.data,
                idx.ctypes.data, scales.ctypes.data,
            )  # fmt: skip
            acc = buf[value_row]
            for s in range(n_seg):
                at = out_at[seg[s, 0]] + seg[s, 1]
                c0 = seg[s, 3]
                for c in range(seg[s, 2]):
                    out[at + c] = acc[c0 + c]
            col = 0
            n_seg = 0
        if done:
            break


_solve_group = Compiled(_solve_group_py, cache=False)


def _bind_kernel() -> None:
    """Point `_RUN` at this process's kernel."""
    global _RUN
    if _RUN is not None:
        return
    with _RUN_LOCK:
        if _RUN is None:
            from diceref.core.kernel import kernel

            i64 = ctypes.c_int64
            _RUN = ctypes.CFUNCTYPE(None, i64, i64, i64, i64, i64, i64, i64, i64)(
                kernel().run_address
            )


@Compiled
def _keep(
    out: FloatArray,
    width: IntArray,
    lo: IntArray,
    below: float,
    eps: float,
    values: FloatArray,
    region: int,
    kept_lo: IntArray,
    kept_n: IntArray,
    first: IntArray,
) -> None:
    """Each band (`out`, end to end, `width[k]` values each) trimmed as `target._trim` does
    (the values within `eps` of `below` at its start and within `eps` of 0 at its end
    dropped; all of them `below`: a win band ends where it ends, a distribution's where it
    starts), and written into `values` from `region` on between the value below it and 0
    (`first[k]`: where its first sentinel went)."""
    at = region
    a0 = 0
    for k in range(len(lo)):
        w = width[k]
        h = 0
        while h < w and abs(out[a0 + h] - below) <= eps:
            h += 1
        t = w - 1
        while t >= h and out[a0 + t] <= eps:
            t -= 1
        if h == w:
            kept_lo[k] = lo[k] + w if below != 0.0 else lo[k]
        else:
            kept_lo[k] = lo[k] + h
        n = t + 1 - h if h < w else 0
        kept_n[k] = n
        first[k] = at
        values[at] = below
        for c in range(n):
            values[at + 1 + c] = out[a0 + h + c]
        values[at + 1 + n] = 0.0
        at += n + 2
        a0 += w


@dataclass(frozen=True)
class _Part:
    """A group's solved bands: its states' positions in the layer, each band's first need
    kept, its length and its first sentinel in the layer's values."""

    at: IntArray
    lo: IntArray
    n: IntArray
    first: IntArray


class _Below:
    """The layer below as the gather reads it: every band between two sentinels
    (`values`, `first` over the state index), and every state's band bounds."""

    def __init__(self, size: int, below: float) -> None:
        self.lo = np.zeros(size, dtype=np.int64)
        self.hi = np.zeros(size, dtype=np.int64)
        self.first = np.zeros(size, dtype=np.int64)
        self.values = np.array([below, 0.0])

    def update(self, index: IntArray, parts: list[_Part], values: FloatArray) -> None:
        """The layer of states `index`, solved in `parts` into `values`, is now below."""
        for p in parts:
            states = index[p.at]
            self.lo[states] = p.lo
            self.hi[states] = p.lo + p.n
            self.first[states] = p.first
        self.values = values


THREADS = max(1, min(2, os.cpu_count() or 1))  # the groups run on threads: the loop holds no GIL
_LOCAL = threading.local()


def _workspace(plan: _Plan) -> tuple[FloatArray, IntArray]:
    """This thread's buffer (its -inf row set) and a batch's segments."""
    got: tuple[FloatArray, IntArray] | None = getattr(_LOCAL, "workspace", None)
    if got is None or got[0].shape[0] != plan.n_rows:
        got = (np.zeros((plan.n_rows, COLUMNS)), np.zeros((COLUMNS, 4), dtype=np.int64))
        _LOCAL.workspace = got
    got[0][plan.neg_row] = -np.inf
    return got


def _solve(
    job: _Job, index: IntArray, add: FloatArray, below: _Below, plan: _Plan, values: FloatArray
) -> _Part:
    """One group's bands, solved, trimmed and written into the layer's `values`."""
    buf, seg = _workspace(plan)
    group = job.group
    # gathered again, not kept from `_jobs`: a whole layer's pairs held at once (states
    # times pairs, two int64 each) would sit in memory beside its values
    succ, shift = _pairs(group, plan, index, add)
    out = np.empty(job.columns)
    s, k = group.stand, plan.keeps
    _solve_group(
        buf, below.values, below.first, below.lo, below.hi,
        succ, shift, job.lo, job.width, np.cumsum(job.width) - job.width, out,
        (s.ops, s.n_ops, s.ptr, s.idx, s.scales), (k.ops, k.n_ops, k.ptr, k.idx, k.scales),
        plan.value_row, seg,
    )  # fmt: skip
    n = len(group.at)
    kept_lo, kept_n, first = (np.empty(n, dtype=np.int64) for _ in range(3))
    _keep(out, job.width, job.lo, 1.0, EPS, values, job.region, kept_lo, kept_n, first)
    return _Part(group.at, kept_lo, kept_n, first)


def _layer_states(
    space: StateSpace, filled: int, within: int
) -> tuple[IntArray, IntArray, IntArray]:
    part = space.layer(filled)
    mask, sub, flag = (a[part] for a in space.all_states())
    if within:
        keep = (mask & within) == within
        mask, sub, flag = mask[keep], sub[keep], flag[keep]
    return mask, sub, flag


def _next_rows(
    space: StateSpace, ruleset: Ruleset, mask: IntArray, sub: IntArray, flag: IntArray
) -> tuple[IntArray, FloatArray]:
    """`request_turn.next_rows` of many states at once: (states, rows) each."""
    plan = request_plan(ruleset)
    base, pair, lower_key = row_keys(plan, mask, space.fold(mask, sub), flag)
    index = np.concatenate((plan.upper_delta[pair], plan.lower_delta[lower_key]), axis=1)
    add = np.concatenate((plan.upper_add[pair], plan.lower_add[lower_key]), axis=1)
    return index + base[:, None], add


@dataclass(frozen=True)
class _Layer:
    """A layer's states (their index), where their turns lead and what they add
    (`next_rows`), and their groups: all that does not depend on the layer below."""

    index: IntArray
    next_index: IntArray
    add: FloatArray
    groups: list[_Group]


def _prepare(
    ruleset: Ruleset, plan: _Plan, space: StateSpace, states: tuple[IntArray, IntArray, IntArray]
) -> _Layer:
    mask, sub, flag = states
    nxt, add = _next_rows(space, ruleset, mask, sub, flag)
    return _Layer(space.index(mask, sub, flag), nxt, add, _groups(ruleset, plan, mask, flag, add))


def win_layers(
    ruleset: Ruleset, progress: Progress | None = None, within: int = 0
) -> Iterator[SolvedPart]:
    """The win table (as `target.solve_win`), part by part, most boxes filled first (each
    part's states, their bands' bounds, and where their bands start in the values it
    holds); with `within`, only the states a card with those boxes filled can reach.  Two
    threads solve a layer's groups while this thread prepares the next layer and hands out
    the parts of the one before."""
    space = state_space(ruleset)
    plan = _plan(ruleset)
    _bind_kernel()
    below = _Below(space.size, 1.0)
    every = [_layer_states(space, filled, within) for filled in range(space.n_boxes, -1, -1)]
    every = [states for states in every if len(states[0])]
    todo = sum(len(states[0]) for states in every)
    full = every[0]  # the full card: 1 for a need of 0 or less, 0 above
    index = space.index(*full)
    n = len(index)
    ones, nothing = np.ones(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    values = np.tile([1.0, 0.0], n)
    parts = [_Part(np.arange(n), ones, nothing, 2 * np.arange(n))]
    below.update(index, parts, values)
    solved = [(index, ones, ones, 2 * np.arange(n) + 1, values)]
    done = n
    if progress is not None:
        progress(done, todo)
    if len(every) == 1:
        yield from solved
        return
    layer: _Layer | None = _prepare(ruleset, plan, space, every[1])
    with ThreadPoolExecutor(THREADS) as pool:
        for following in [*every[2:], None]:
            assert layer is not None
            index = layer.index
            jobs, size = _jobs(layer.groups, plan, layer.next_index, layer.add, below)
            values = np.empty(size)
            running = [
                pool.submit(_solve, job, layer.next_index, layer.add, below, plan, values)
                for job in sorted(jobs, key=lambda job: -job.columns)
            ]
            upcoming = _prepare(ruleset, plan, space, following) if following else None
            yield from solved  # the layer before, while this one is solved
            parts = [job.result() for job in running]
            below.update(index, parts, values)
            solved = [(index[p.at], p.lo, p.lo + p.n, p.first + 1, values) for p in parts]
            done += len(index)
            if progress is not None:
                progress(done, todo)
            layer = upcoming
    yield from solved


def solve_win_fast(
    ruleset: Ruleset, progress: Progress | None = None, within: int = 0
) -> BandTable:
    """The win table solved in float64 (`win_layers`)."""
    return assemble_parts(state_space(ruleset).size, 1.0, win_layers(ruleset, progress, within))


def solve_win_packed(ruleset: Ruleset, progress: Progress | None = None) -> Float32Array:
    """The win table in its stored form, each part packed while the next layer is solved:
    only the layer below and the one being solved are held in float64."""
    return pack_parts(state_space(ruleset).size, 1.0, win_layers(ruleset, progress))


__all__ = ["solve_win_fast", "solve_win_packed", "win_layers"]
