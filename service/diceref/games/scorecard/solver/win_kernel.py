"""The play-to-win tables' fast solves: the needs of a state are the kernel's columns.

Per ruleset a `WinPlan` lays out one buffer: first the rows gathered from the layer below
(each a distinct (next-state row, points) pair of the request plan, shifted by its points
along the needs: the kernel's `band_gather`), then standing on each throw (the best pair of
its boxes, one kernel "max"), then the keeps, the very reductions the value table's plan
uses (`batched._Builder.keep_steps`).  Consecutive states' needs are packed side by side,
and each layer is shared with a forked child.  It equals `target.solve_win`, the
state-by-state numpy solve, to rounding (`tests/scorecard/test_play_to_win_solves.py`);
docs/solver.md, "Play to win", the method.  The distribution table's solve is
`dist_kernel`'s.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass

import numpy as np

from diceref.core.arrays import FloatArray, IntArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import N_THROWS
from diceref.core.kernel import Program, Reduction, padded
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver import batched
from diceref.games.scorecard.solver.bands import BandTable
from diceref.games.scorecard.solver.request_turn import keep_transitions, next_rows, request_plan
from diceref.games.scorecard.solver.statespace import StateSpace, state_space
from diceref.games.scorecard.solver.target import (
    Progress,
    _stand,
    _trim,
    assemble,
    candidates,
    layers,
    multiplied,
)

NEG = -np.inf
COLUMNS = 256  # (state, need) columns computed at once, several states side by side


@dataclass(frozen=True)
class WinPlan:
    pair_row: IntArray  # (P,) the request plan's row of each gathered pair
    pair_points: FloatArray  # (P,) the points it adds beyond that row's own
    stand_rows: dict[tuple[int, int], int]  # (first throw 0/1, throw) -> its stand row
    stand: Program
    keeps: Program | None
    final_rows: IntArray  # (252,) each first throw's best, after the programs ran
    n_rows: int
    variants: tuple[int, ...]


class _Rows:
    """Row allocation for `keep_steps`, which lays out the keeps after the stand rows."""

    def __init__(self, ruleset: Ruleset, start: int, multiplied: bool) -> None:
        self.ruleset, self.n, self.multiplied = ruleset, start, multiplied

    def take(self, count: int) -> int:
        start, self.n = self.n, self.n + count
        return start


def _build(ruleset: Ruleset) -> WinPlan:
    plan = request_plan(ruleset)
    first_differs = multiplied(ruleset)
    variants = (0, 1) if first_differs else (0,)
    pair_id: dict[tuple[int, float], int] = {}
    stand_sources: dict[int, list[list[int]]] = {}
    for v in variants:
        rows, points = _stand(plan, ruleset, v == 1)
        stand_sources[v] = [
            [
                pair_id.setdefault((int(rows[b, t]), float(points[b, t])), len(pair_id))
                for b in range(rows.shape[0])
            ]
            for t in range(N_THROWS)
        ]
    n_pairs = len(pair_id)
    reductions: list[Reduction] = []
    stand_rows: dict[tuple[int, int], int] = {}
    at = n_pairs
    for v in variants:
        reductions.append(Reduction("max", at, stand_sources[v]))
        stand_rows.update({(v, t): at + t for t in range(N_THROWS)})
        at += N_THROWS
    layout = _Rows(ruleset, at, first_differs)
    stand_at = [{t: stand_rows[(v, t)] for t in range(N_THROWS)} for v in variants]
    # the value table's keep rounds, laid out after these rows (it reads only `take`,
    # `ruleset` and `multiplied`)
    keep_reductions, final_at = batched._Builder.keep_steps(layout, stand_at)  # type: ignore[arg-type]
    n_rows = layout.n
    pairs = sorted(pair_id.items(), key=lambda item: item[1])
    return WinPlan(
        pair_row=np.array([p[0][0] for p in pairs], dtype=np.int64),
        pair_points=np.array([p[0][1] for p in pairs]),
        stand_rows=stand_rows,
        stand=Program(reductions, n_rows),
        keeps=Program(keep_reductions, n_rows) if keep_reductions else None,
        final_rows=np.array(final_at, dtype=np.int64),
        n_rows=n_rows,
        variants=variants,
    )


_PLANS: PerRuleset[str, WinPlan] = PerRuleset(8)


def win_plan(ruleset: Ruleset) -> WinPlan:
    return _PLANS.get(ruleset.rules_hash, lambda: _build(ruleset))


class _Layer:
    """A solved layer's bands in float64, each with a sentinel before it (`below`) and after
    it (0), so that a gathered row is one clipped take."""

    def __init__(self, below: float) -> None:
        self.below = below
        self.chunks: list[FloatArray] = []
        self.at = 0
        self.index: list[int] = []
        self.lo: list[int] = []
        self.hi: list[int] = []
        self.first: list[int] = []  # position of the sentinel before each band

    def add(self, index: int, lo: int, values: FloatArray) -> None:
        self.index.append(index)
        self.lo.append(lo)
        self.hi.append(lo + len(values))
        self.first.append(self.at)
        self.chunks.append(np.concatenate(([self.below], values, [0.0])))
        self.at += len(values) + 2

    def close(self, size: int) -> tuple[FloatArray, IntArray, IntArray, IntArray]:
        """The layer as (values, lo, hi, first) over the whole state index."""
        values = np.concatenate(self.chunks) if self.chunks else np.zeros(0)
        lo = np.zeros(size, dtype=np.int64)
        hi = np.zeros(size, dtype=np.int64)
        first = np.zeros(size, dtype=np.int64)
        idx = np.array(self.index, dtype=np.int64)
        lo[idx], hi[idx], first[idx] = self.lo, self.hi, self.first
        return values, lo, hi, first


Layer = tuple[FloatArray, IntArray, IntArray, IntArray]  # `_Layer.close`: values, lo, hi, first


class _LayerReader:
    """What a solver reads of the layer below: its bands, and their addresses for the
    kernel's `band_gather` (the bounds as (lo, hi) pairs)."""

    below: Layer | None = None
    addresses = (0, 0, 0)

    def read_layer(self, below: Layer) -> None:
        self.below = below
        self.span = np.stack([below[1], below[2]], axis=1).copy()
        self.addresses = (below[0].ctypes.data, below[3].ctypes.data, self.span.ctypes.data)


class _Solver(_LayerReader):
    """One process's share of a layer: each state's band from the layer below."""

    def __init__(self, ruleset: Ruleset) -> None:
        from diceref.core.kernel import kernel

        self.ruleset = ruleset
        self.gather = kernel().band_gather
        self.wp = wp = win_plan(ruleset)
        self.plan = request_plan(ruleset)
        self.space = state_space(ruleset)
        self.probability = keep_transitions().throw_probability
        self.buf = np.zeros((wp.n_rows, COLUMNS))
        self.extra = np.zeros((64, COLUMNS))  # the Joker's candidates of a state, gathered
        self.stand = wp.stand.bind(self.buf)
        self.keeps = wp.keeps.bind(self.buf) if wp.keeps is not None else None

    def states(self, states: list[tuple[int, int, int]]) -> list[tuple[int, int, FloatArray]]:
        """Each state's (index, first need stored, band).  The needs of consecutive states
        are packed side by side into the buffer's columns (a state may span two batches),
        so that every kernel call computes a full batch."""
        out: list[tuple[int, int, FloatArray]] = []
        pending: list[_Prepared] = []
        segments: list[tuple[_Prepared, int, int, int]] = []  # (state, from, to, column)
        filled = 0
        full = (1 << self.space.n_boxes) - 1
        for m, s, f in states:
            if m == full:
                out.append((self.space.index_one(m, s, f), 1, np.zeros(0)))
                continue
            state = self.prepare(m, s, f)
            pending.append(state)
            done = 0
            while done < state.n:
                take = min(COLUMNS - filled, state.n - done)
                segments.append((state, done, done + take, filled))
                self.fill(state, done, take, filled)
                done += take
                filled += take
                if filled == COLUMNS:
                    self.run(segments, filled)
                    segments, filled = [], 0
        if segments:
            self.run(segments, filled)
        for state in pending:
            first_kept, band = _trim(state.w, state.lo, 1.0)
            out.append((state.index, first_kept, band))
        return out

    def prepare(self, m: int, s: int, f: int) -> _Prepared:
        """A state's gathered pairs (next state, points; -1: not allowed), the Joker's
        candidates of its five-of-a-kind throws, and the band of needs to compute."""
        wp, plan = self.wp, self.plan
        five = plan.model.five
        assert self.below is not None
        _, lo_of, hi_of, _ = self.below
        index, add = next_rows(plan, m, s, f)
        succ = index[wp.pair_row]
        shift = add[wp.pair_row] + wp.pair_points
        legal = np.isfinite(shift)
        fives: dict[tuple[int, int], list[list[tuple[int, float]]]] = {}
        if five is not None and m >> five & 1:
            for v in wp.variants:
                for t, tiers in candidates(self.ruleset, m, s, f, v == 1).fives.items():
                    fives[(v, t)] = tiers
        ls, sh = succ[legal], shift[legal].astype(np.int64)
        lo = int((lo_of[ls] + sh).min())
        hi = int((hi_of[ls] + sh).max())
        pair_succ = np.where(legal, succ, -1)
        pair_shift = np.where(legal, shift, 0).astype(np.int64)
        five_rows: list[tuple[int, int]] = []
        extra_succ: list[int] = []
        extra_shift: list[int] = []
        for (v, t), tiers in fives.items():
            tier = next((tier for tier in tiers if tier), [])
            five_rows.append((wp.stand_rows[(v, t)], len(tier)))
            for c_succ, c_shift in tier:
                extra_succ.append(c_succ)
                extra_shift.append(int(c_shift))
                lo = min(lo, int(lo_of[c_succ]) + int(c_shift))
                hi = max(hi, int(hi_of[c_succ]) + int(c_shift))
        if len(extra_succ) > len(self.extra):
            self.extra = np.zeros((len(extra_succ), COLUMNS))
        return _Prepared(
            self.space.index_one(m, s, f),
            lo,
            hi - lo,
            pair_succ,
            pair_shift,
            np.array(extra_succ, dtype=np.int64),
            np.array(extra_shift, dtype=np.int64),
            five_rows,
            np.empty(hi - lo),
        )

    def fill(self, state: _Prepared, a: int, cols: int, column: int) -> None:
        """Gather needs [lo + a, lo + a + cols) of a state into the buffer's columns from
        `column` on."""
        values_at, first_at, span_at = self.addresses
        self.gather(
            values_at,
            first_at,
            span_at,
            self.buf.ctypes.data + 8 * column,
            COLUMNS,
            cols,
            state.lo + a,
            len(state.succ),
            state.succ.ctypes.data,
            state.shift.ctypes.data,
        )

    def run(self, segments: list[tuple[_Prepared, int, int, int]], filled: int) -> None:
        """The kernel over a batch: standing on each throw, the Joker's rows of the states
        that have them, the keeps, and each state's values read back."""
        cols = padded(filled)
        buf, extra = self.buf, self.extra
        values_at, first_at, span_at = self.addresses
        self.stand(cols)
        for state, a, b, column in segments:
            if not state.five_rows:
                continue
            n = b - a
            self.gather(
                values_at,
                first_at,
                span_at,
                extra.ctypes.data,
                COLUMNS,
                n,
                state.lo + a,
                len(state.extra_succ),
                state.extra_succ.ctypes.data,
                state.extra_shift.ctypes.data,
            )
            at = 0
            for r, count in state.five_rows:
                got = extra[at : at + count, :n].max(axis=0) if count else NEG
                buf[r, column : column + n] = got
                at += count
        if self.keeps is not None:
            self.keeps(cols)
        result = self.probability @ buf[self.wp.final_rows, :filled]
        for state, a, b, column in segments:
            state.w[a:b] = result[column : column + b - a]


@dataclass
class _Prepared:
    index: int
    lo: int
    n: int
    succ: IntArray
    shift: IntArray
    extra_succ: IntArray
    extra_shift: IntArray
    five_rows: list[tuple[int, int]]
    w: FloatArray


FORK = hasattr(os, "fork")
FORK_MIN_STATES = 2000  # below this a second process costs more than it saves


def _share(
    solver: _Solver, states: list[tuple[int, int, int]]
) -> list[tuple[int, int, FloatArray]]:
    """The layer's states, half of them in a forked child (it inherits the layer below and
    the compiled kernel, and writes its bands to a temporary file)."""
    if not FORK or len(states) < FORK_MIN_STATES or (os.cpu_count() or 1) < 2:
        return solver.states(states)
    with tempfile.TemporaryFile() as out:
        pid = os.fork()
        if pid == 0:  # the child: never returns
            status = 1
            try:
                got = solver.states(states[1::2])
                np.save(
                    out,
                    np.array([(i, lo, len(b)) for i, lo, b in got], dtype=np.int64).reshape(-1, 3),
                )
                np.save(out, np.concatenate([b for _, _, b in got]) if got else np.zeros(0))
                out.flush()
                status = 0
            finally:
                os._exit(status)
        mine = solver.states(states[0::2])
        _, status = os.waitpid(pid, 0)
        if status != 0:
            raise RuntimeError("the win table's helper process failed")
        out.seek(0)
        heads, bands = np.load(out), np.load(out)
    theirs = []
    at = 0
    for i, lo, n in heads.tolist():
        theirs.append((i, lo, bands[at : at + n]))
        at += n
    return mine + theirs


def _layers(
    space: StateSpace,
    solver: _Solver,
    below: float,
    progress: Progress | None,
    within: int,
) -> BandTable:
    """Layer by layer (`target.layers`), each layer shared by two processes where there
    are two cores."""
    solved: list[tuple[int, int, FloatArray]] = []
    every = layers(space, within)
    done, todo = 0, sum(map(len, every))
    for states in every:
        layer = _Layer(below)
        for i, first_kept, band in _share(solver, states):
            layer.add(i, first_kept, band)
            solved.append((i, first_kept, band))
        solver.read_layer(layer.close(space.size))
        done += len(states)
        if progress is not None:
            progress(done, todo)
    return assemble(space.size, solved, below)


def solve_win_fast(
    ruleset: Ruleset, progress: Progress | None = None, within: int = 0
) -> BandTable:
    """The win table (as `target.solve_win`), with the kernel."""
    solver = _Solver(ruleset)
    return _layers(solver.space, solver, 1.0, progress, within)


__all__ = ["WinPlan", "solve_win_fast", "win_plan"]
