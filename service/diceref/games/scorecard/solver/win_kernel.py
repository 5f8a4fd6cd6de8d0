"""The distribution table's fast solve: each state's turn ends under expected-points play,
`BATCH` states at once (`ends_batch`), their next states' bands mixed with the kernel's
`band_gather`; each layer is shared with a forked child.  It equals `target`'s
state-by-state numpy solve to rounding (`tests/scorecard/test_play_to_win_solves.py`,
`test_turn_ends_batch.py`); docs/solver.md, "Play to win", the method.  The win table's
solve is `win_solve`.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np

from diceref.core.arrays import FloatArray, IntArray
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver.bands import BandTable
from diceref.games.scorecard.solver.ends_batch import turn_ends_many
from diceref.games.scorecard.solver.request_turn import keep_transitions
from diceref.games.scorecard.solver.statespace import StateSpace, state_space
from diceref.games.scorecard.solver.target import (
    Progress,
    TurnEnds,
    _trim,
    assemble,
    layers,
    turn_ends,
)

MIX_COLUMNS = 2048  # a distribution's points mixed at once (a few hundred rows at most)
BATCH = 32  # states whose turn ends are followed at once (`turn_ends_many`)


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


FORK = hasattr(os, "fork")
FORK_MIN_STATES = 2000  # below this a second process costs more than it saves


def _share(
    solver: _DistributionSolver, states: list[tuple[int, int, int]]
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


class _DistributionSolver(_LayerReader):
    """One process's share of a layer of the distribution table: each state's turn ends
    under expected-points play (`ends_batch.turn_ends_many`, `BATCH` states at once), their
    next states' bands gathered shifted by the points and mixed."""

    def __init__(self, ruleset: Ruleset, values: FloatArray, batch: int) -> None:
        from diceref.core.kernel import kernel

        self.ruleset, self.values, self.batch = ruleset, values, batch
        self.gather = kernel().band_gather
        self.space = state_space(ruleset)
        self.start = keep_transitions().throw_probability
        self.rounds = ruleset.throws_per_turn - 1
        self.buf = np.zeros((64, MIX_COLUMNS))

    def states(self, states: list[tuple[int, int, int]]) -> list[tuple[int, int, FloatArray]]:
        if not self.batch:
            return [self.state(m, s, f) for m, s, f in states]
        full = (1 << self.space.n_boxes) - 1
        play = [state for state in states if state[0] != full]
        step = self.batch
        ends = iter([e for a in range(0, len(play), step) for e in self.ends(play[a : a + step])])
        out = []
        for state in states:
            i = self.space.index_one(*state)
            out.append((i, 0, np.ones(1)) if state[0] == full else self.mix(i, next(ends)))
        return out

    def ends(self, states: list[tuple[int, int, int]]) -> list[TurnEnds]:
        return turn_ends_many(self.ruleset, self.values, states)

    def state(self, m: int, s: int, f: int) -> tuple[int, int, FloatArray]:
        """One state's band, its turn ends followed by `target.turn_ends` (the reference
        that `turn_ends_many` is held to)."""
        i = self.space.index_one(m, s, f)
        if m == (1 << self.space.n_boxes) - 1:
            return i, 0, np.ones(1)
        return self.mix(i, turn_ends(self.ruleset, self.values, m, s, f, self.start, self.rounds))

    def mix(self, i: int, ends: TurnEnds) -> tuple[int, int, FloatArray]:
        """The band of state `i` from its turn ends: the next states' bands, shifted by the
        points, gathered from the layer below and weighted by their chance."""
        assert self.below is not None
        _, lo_of, hi_of, _ = self.below
        succ, shift = ends.succ.astype(np.int64), ends.shift.astype(np.int64)
        lo = int((lo_of[succ] + shift).min())
        hi = int((hi_of[succ] + shift).max())
        if len(succ) > len(self.buf):
            self.buf = np.zeros((len(succ), MIX_COLUMNS))
        out = np.empty(hi - lo)
        values_at, first_at, span_at = self.addresses
        for a in range(0, hi - lo, MIX_COLUMNS):
            cols = min(MIX_COLUMNS, hi - lo - a)
            self.gather(
                values_at,
                first_at,
                span_at,
                self.buf.ctypes.data,
                MIX_COLUMNS,
                cols,
                lo + a,
                len(succ),
                succ.ctypes.data,
                shift.ctypes.data,
            )
            out[a : a + cols] = ends.probability @ self.buf[: len(succ), :cols]
        first_kept, band = _trim(out, lo, 0.0)
        return i, first_kept, band


def _layers(
    space: StateSpace,
    solver: _DistributionSolver,
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


def solve_distribution_fast(
    ruleset: Ruleset,
    values: FloatArray,
    progress: Progress | None = None,
    within: int = 0,
    batch: int | None = None,
) -> BandTable:
    """The distribution table (as `target.solve_distribution`), its mixing in the kernel;
    the turn ends followed `batch` states at once (`ends_batch`; default `BATCH`), or with
    `batch` 0 state by state (`target.turn_ends`, the reference)."""
    solver = _DistributionSolver(ruleset, values, BATCH if batch is None else batch)
    return _layers(solver.space, solver, 0.0, progress, within)


__all__ = ["solve_distribution_fast"]
