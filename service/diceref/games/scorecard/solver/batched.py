"""The solve's inner loop: every turn of a batch of states as a short list of gathers.

`engine.turn_values` evaluates a turn box by box and keep size by keep size, which is clear
and serves one request in well under a millisecond.  Solving a whole game evaluates some
360,000 turns (yahtzee) to 1.4 million (dice-poker), and there the number of passes over
memory and how much of it stays in the core's cache decide the time.  This module compiles
a ruleset's turn, once, into a `TurnPlan`: a list of steps, each an `np.take` of rows of a
per-batch buffer followed by a max, a mean or an `np.maximum`, written into the same
buffer.  With the states of a batch as the buffer's columns (256 at a time) every numpy
call works on whole contiguous rows, and a batch costs about 100 numpy calls.

What makes the list short, each measured against the box-by-box form:

* Points go into the next state's value ahead of time.  A block of states first gathers,
  for every open box, the value of the state it leads to (the "next values", upper boxes
  once per count of their face, points and bonus folded in), then adds each distinct point
  value a lower box can score (25 for a full house, 5..30 for chance...) once per state:
  one row per (box, points) pair, not one (252, N) addition per box.
* A throw's candidates are only the boxes it scores in.  A lower box that scores 0 for a
  throw offers the value of scratching it, the same for every such throw; since points are
  never negative there, the best scratch over all lower boxes is one row that every throw
  may take (scoring more than 0 in a box is worth at least its scratch).  Upper boxes score
  by the count of their face: a throw takes the row of each face it shows, and one row for
  the best of the faces it lacks (with the lower scratch), built per set of missing faces.
  Lower boxes that score a throw alike (pair, three of a kind and chance all score the sum)
  are one candidate: their best next value plus the points.  A throw then has 4 to 9
  candidates instead of 13 or 15 boxes; throws with as many are one group, one gather and
  one max.
* The six five-of-a-kind throws, where the Joker and the extra bonus decide, are one group
  patched with `np.where`, exactly as `engine._five_of_a_kind_rows` does.
* Keeps: a keep's value is the mean of its six one-die-more keeps; the best keep of a
  multiset is the best of itself and of the best keeps of it with one face removed, once
  per distinct face (not once per die: 6-6-6-2-2 has two sub-keeps one die smaller, not
  five).  Keeps are ordered by how many distinct faces they have, so each "remove the j-th
  face" is one contiguous `np.maximum` over the keeps that have a j-th face.
* Both cores: a forked helper process solves blocks of each layer beside this one, on a
  value table in shared memory (`_ForkedHalf`).

The arithmetic is the engine's, in the same order up to the order of a max or of six
additions, so tables agree with `engine.solve_reference` to rounding (about 1e-12), which
`tests/test_solver_batched.py` checks state by state.
"""

from __future__ import annotations

import contextlib
import itertools
import mmap
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray, IndexArray
from diceref.core.dice import DICE_PER_THROW, FACES, N_THROWS, face_counts
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Joker, Ruleset
from diceref.games.scorecard.solver.allocator import reuse_freed_memory
from diceref.games.scorecard.solver.keeps import keep_graph
from diceref.games.scorecard.solver.statespace import StateSpace, state_space

BoolArray = npt.NDArray[np.bool_]
NEG = -np.inf
CHUNK = 256  # states a turn is evaluated for at once (measured: 128 to 384 within 10%)


@dataclass(frozen=True)
class Step:
    """buffer[start:stop] = max (or mean) over groups of `width` rows of buffer[src].

    `src` lists the groups' first rows, then their second rows...: the reduction then runs
    over the first axis of a (width, groups, n) gather, whole contiguous rows at a time,
    which numpy does about 1.6 times as fast as over the middle axis of (groups, width, n).
    """

    src: IndexArray  # (width * groups,) row numbers, candidate by candidate
    width: int
    start: int  # first output row; the groups' results are contiguous
    mean: bool = False

    @property
    def stop(self) -> int:
        return self.start + len(self.src) // self.width


@dataclass(frozen=True)
class Buf:
    """Rows [start, stop) of the buffer."""

    start: int
    stop: int


@dataclass(frozen=True)
class Scr:
    """Rows [start, stop) of the gather scratch."""

    start: int
    stop: int


Ref = Buf | Scr


@dataclass(frozen=True)
class Take:
    """scratch[at : at + len(src)] = buffer[src]"""

    src: IndexArray
    at: int


@dataclass(frozen=True)
class Mean:
    """buffer[start:...] = the mean of each six consecutive scratch rows from 0 to `rows`."""

    rows: int
    start: int


@dataclass(frozen=True)
class Max:
    """out = np.maximum(a, b)"""

    a: Ref
    b: Ref
    out: Ref


Instr = Take | Mean | Max


@dataclass(frozen=True)
class JokerRows:
    """What the six five-of-a-kind throws need beyond their natural candidates."""

    lower_src: IndexArray  # (6 * n_lower,) rows: each lower box's value plus its Joker points
    n_lower: int
    upper_zero_src: IndexArray  # (6 * 5,) rows: 0 in an upper box other than the matching one
    matching_five: IndexArray  # (6,) rows: the matching upper box with five of its face
    matching_bit: npt.NDArray[np.int64]  # (6, 1) bit of the matching upper box in the mask


@dataclass
class TurnPlan:
    """A ruleset's turn as steps over one buffer; built once per ruleset (`turn_plan`).

    Rows [0, n_next) hold a batch's next values, built per block by `next_values`: 6 rows
    per upper box (0..5 dice of its face: points, bonus and the next state's value), one
    per lower box (two for a Joker game's five-of-a-kind box: holding the top score or a
    scratch), the (box, points) rows, the lower scratch row and the missing-faces rows.
    """

    space: StateSpace
    n_upper_rows: int
    upper_delta: npt.NDArray[np.int64]  # (n_upper_rows, 64 * n_sub): index step to next state
    upper_add: FloatArray  # (n_upper_rows, 64 * n_sub): points + bonus, -inf if box closed
    n_lower_rows: int
    lower_delta: npt.NDArray[np.int64]  # (n_lower_rows, lower masks): index step, 0 if closed
    lower_add: FloatArray  # (n_lower_rows, lower masks): 0 if open, -inf if closed
    pair_src: IndexArray  # rows a point value is added to
    pair_points: FloatArray
    pair_start: int
    scratch_src: IndexArray  # rows the lower scratch row is the best of
    scratch_row: int
    missing: list[Step]  # best 0 in an upper box (or lower scratch), per set of missing faces
    best_of: list[Step]  # best next value over lower boxes that score alike (before pairs)
    n_next: int
    stand: list[Step]  # standing on each throw (after the turn's second or third throw)
    five_rows: tuple[slice, ...]  # rows of the five-of-a-kind throws among the stand rows
    joker: JokerRows | None
    keeps: list[Instr]  # every round of keeps, down to the best value after the first throw
    final: slice  # that value, one row per throw
    final_probability: FloatArray  # the chance of each of those throws
    maximum: Step  # solve_max: each box at its best over the ordinary throws
    max_pairs: IndexArray  # the (box, points) rows solve_max reads (positions in pair_src)
    n_rows: int
    scratch_size: int

    def workspace(self, n: int) -> Workspace:
        """This thread's workspace for batches of n states (reused while it is asked for).

        A thread keeps at most two (~4 MB each): the full batch's and the last short one's
        (a layer's last batch), so a process that solves many rulesets does not collect a
        buffer per ruleset and batch size."""
        cache: dict[tuple[int, int], Workspace] | None = getattr(_WORKSPACES, "cache", None)
        if cache is None:
            cache = _WORKSPACES.cache = {}
        key = (id(self), n)
        got = cache.get(key)
        if got is None or got.plan is not self:
            full = cache.get((id(self), CHUNK))
            cache.clear()
            if full is not None and full.plan is self:
                cache[(id(self), CHUNK)] = full
            got = cache[key] = Workspace(self, n)
        return got


_WORKSPACES = threading.local()


class Workspace:
    """A buffer for n states and every step bound to views of it.

    Binding the views once matters: a batch runs some 50 steps, and numpy's per-call cost
    (a reshape, a slice, the Python wrapper of `np.max`) is then paid once per process
    instead of once per step and batch.
    """

    def __init__(self, plan: TurnPlan, n: int) -> None:
        self.plan = plan
        self.buf = np.empty((plan.n_rows, n))
        self.scratch = np.empty((plan.scratch_size, n))
        self.stand = self.bind_steps(plan.stand)
        self.keeps = [self.bind(instr) for instr in plan.keeps]

    def view(self, ref: Ref) -> FloatArray:
        whole = self.buf if isinstance(ref, Buf) else self.scratch
        return whole[ref.start : ref.stop]

    def bind(self, instr: Instr) -> Callable[[], object]:
        n = self.buf.shape[1]
        if isinstance(instr, Take):
            flat = self.scratch[instr.at : instr.at + len(instr.src)]
            return partial(self.buf.take, instr.src, 0, flat, "clip")
        if isinstance(instr, Mean):
            view = self.scratch[: instr.rows].reshape(6, instr.rows // 6, n)
            out = self.buf[instr.start : instr.start + instr.rows // 6]
            return partial(_mean6, view, out)
        return partial(np.maximum, self.view(instr.a), self.view(instr.b), out=self.view(instr.out))

    def bind_steps(self, steps: list[Step]) -> list[Callable[[], object]]:
        n = self.buf.shape[1]
        ops: list[Callable[[], object]] = []
        for step in steps:
            rows = len(step.src)
            flat = self.scratch[:rows]
            view = flat.reshape(step.width, rows // step.width, n)
            ops.append(partial(self.buf.take, step.src, 0, flat, "clip"))
            out = self.buf[step.start : step.stop]
            ops.append(partial(_max_groups, view, out))
        return ops

    @staticmethod
    def run(ops: list[Callable[[], object]]) -> None:
        for op in ops:
            op()


def _mean6(view: FloatArray, out: FloatArray) -> None:
    np.add.reduce(view, axis=0, out=out)
    np.multiply(out, 1.0 / 6.0, out=out)


def _max_groups(view: FloatArray, out: FloatArray) -> None:
    np.maximum.reduce(view, axis=0, out=out)


def run_steps(buf: FloatArray, scratch: FloatArray, steps: list[Step]) -> None:
    """The steps on a buffer of any width (the max solve's blocks)."""
    n = buf.shape[1]
    for step in steps:
        rows = len(step.src)
        gathered = np.take(buf, step.src, axis=0, out=scratch[:rows], mode="clip")
        view = gathered.reshape(step.width, rows // step.width, n)
        out = buf[step.start : step.stop]
        if step.mean:
            np.add.reduce(view, axis=0, out=out)
            out *= 1.0 / 6.0
        else:
            np.maximum.reduce(view, axis=0, out=out)


_PLANS: dict[str, TurnPlan] = {}
MAX_PLANS = 8  # a plan is ~1 MB of tables and index arrays
_PLANS_LOCK = threading.Lock()


def turn_plan(ruleset: Ruleset) -> TurnPlan:
    """The ruleset's plan, built on first use (a few milliseconds) and kept per process."""
    with _PLANS_LOCK:
        plan = _PLANS.pop(ruleset.rules_hash, None)
        if plan is None:
            plan = _Builder(ruleset).plan()
        _PLANS[ruleset.rules_hash] = plan  # most recent last
        while len(_PLANS) > MAX_PLANS:  # house rules: keep the few in use, not every one
            _PLANS.pop(next(iter(_PLANS)))
        return plan


@dataclass
class Block:
    """Per-state facts of a block of states that the Joker rows need (None without one)."""

    extra: FloatArray | None = None  # (n,) extra bonus for a further five of a kind
    joker_on: BoolArray | None = None  # (n,)
    matching_open: BoolArray | None = None  # (6, n)
    box_used: BoolArray | None = None  # (n,)


@dataclass(frozen=True)
class Successors:
    """Where each state of a block leads, box by box: the index of the next state in a
    table and what the step adds (points and bonus; -inf for a box that is closed or not
    yet open).  Shared by the value and the max table, which differ only in what they read
    at those indices."""

    index: npt.NDArray[np.int64]  # (n_upper_rows + n_lower_rows, n)
    add: FloatArray  # (n_upper_rows + n_lower_rows, n)
    base: npt.NDArray[np.int64]  # (n,) each state's own index


def successors(
    plan: TurnPlan,
    mask: npt.NDArray[np.int64],
    sub: npt.NDArray[np.int64],
    flag: npt.NDArray[np.int64],
) -> Successors:
    space = plan.space
    ruleset = space.ruleset
    n = len(mask)
    rows = plan.n_upper_rows + plan.n_lower_rows
    index = np.empty((rows, n), dtype=np.int64)
    add = np.empty((rows, n))
    base = space.index(mask, sub, flag)
    n_upper = len(ruleset.upper_indices)
    key = mask & ((1 << n_upper) - 1)
    pair = key * space.n_sub + (sub - space.sub_low)
    up = slice(0, plan.n_upper_rows)
    np.add(base, plan.upper_delta[:, pair], out=index[up])
    np.take(plan.upper_add, pair, axis=1, out=add[up], mode="clip")
    lo = slice(plan.n_upper_rows, rows)
    lower_key = mask >> n_upper
    np.add(base, plan.lower_delta[:, lower_key], out=index[lo])
    np.take(plan.lower_add, lower_key, axis=1, out=add[lo], mode="clip")
    if ruleset.series_order:  # lower boxes open only once the upper boxes are full
        add[lo] += np.where(key == (1 << n_upper) - 1, 0.0, NEG)
    return Successors(index, add, base)


def next_values(
    plan: TurnPlan, values: FloatArray, succ: Successors, for_max: bool = False
) -> FloatArray:
    """Rows [0, n_next) for a block of states: what every box leads to, points added.

    `values` holds -inf wherever no value is known yet; a closed box points back at the
    state itself with -inf added, so it can never be chosen (no NaN arithmetic).  The max
    solve reads only a few (box, points) rows and no scratch rows: `for_max` builds those.
    """
    n = succ.index.shape[1]
    nv = np.empty((plan.n_next, n))
    direct = slice(0, len(succ.index))
    np.take(values, succ.index, out=nv[direct], mode="clip")
    nv[direct] += succ.add
    for step in plan.best_of:
        got = nv[step.src].reshape(step.width, -1, n)
        np.maximum.reduce(got, axis=0, out=nv[step.start : step.stop])
    if for_max:
        used = plan.max_pairs
        nv[plan.pair_start + used] = nv[plan.pair_src[used]] + plan.pair_points[used, None]
    elif len(plan.pair_src):
        pairs = slice(plan.pair_start, plan.pair_start + len(plan.pair_src))
        np.add(nv[plan.pair_src], plan.pair_points[:, None], out=nv[pairs])
    if for_max:
        pass
    elif len(plan.scratch_src):
        np.max(nv[plan.scratch_src], axis=0, out=nv[plan.scratch_row])
    else:
        nv[plan.scratch_row] = NEG
    for step in [] if for_max else plan.missing:
        got = nv[step.src].reshape(-1, 2, n)
        np.maximum(got[:, 0], got[:, 1], out=nv[step.start : step.stop])
    return nv


def block_facts(plan: TurnPlan, mask: npt.NDArray[np.int64], flag: npt.NDArray[np.int64]) -> Block:
    """What the Joker rows need to know about each state of a block."""
    block = Block()
    ruleset = plan.space.ruleset
    rule = ruleset.five_of_a_kind
    five = ruleset.five_box_index
    if plan.joker is not None and rule is not None and five is not None:
        used = (mask >> five & 1) == 1
        top = used & (flag == 1)
        block.box_used = used
        block.extra = np.where(top, float(rule.extra_bonus), 0.0)
        on = used & (top | rule.joker_when_scratched)
        block.joker_on = on if rule.joker is not Joker.NONE else np.zeros_like(on)
        block.matching_open = (mask[None, :] >> plan.joker.matching_bit & 1) == 0
    return block


def joker_patch(
    plan: TurnPlan,
    src: FloatArray,
    scratch: FloatArray,
    block: Block,
    cols: slice,
    targets: list[FloatArray] | None = None,
) -> None:
    """The five-of-a-kind throws once their box is used: extra bonus and Joker placement
    (`engine._five_of_a_kind_rows`, for the rows of a batch).  `src` holds the next-value
    rows; `targets` are the (6, n) natural values of the five-of-a-kind throws, patched in
    place (by default the plan's five rows of `src`, a batch's buffer)."""
    jr = plan.joker
    rule = plan.space.ruleset.five_of_a_kind
    assert jr is not None and rule is not None
    assert block.box_used is not None and block.extra is not None
    assert block.joker_on is not None and block.matching_open is not None
    if not block.box_used[cols].any():  # the box is open everywhere: the natural rows stand
        return
    n = src.shape[1]
    extra = block.extra[cols]
    lower = np.take(src, jr.lower_src, axis=0, out=scratch[: len(jr.lower_src)])
    lower_best = np.maximum.reduce(lower.reshape(jr.n_lower, 6, n), axis=0)
    upper = np.take(src, jr.upper_zero_src, axis=0, out=scratch[: len(jr.upper_zero_src)])
    upper_zero = np.maximum.reduce(upper.reshape(-1, 6, n), axis=0)
    if rule.joker is Joker.FORCED:
        elsewhere = np.where(lower_best > NEG, lower_best, upper_zero)
    else:
        elsewhere = np.maximum(lower_best, upper_zero)
    matching_open = block.matching_open[:, cols]
    joker_on = block.joker_on[cols]
    for target in targets if targets is not None else [src[rows] for rows in plan.five_rows]:
        natural = target + extra
        if rule.matching_upper_forced:
            joker = np.where(matching_open, src[jr.matching_five], elsewhere) + extra
        else:
            joker = np.where(matching_open, natural, elsewhere + extra)
        target[...] = np.where(joker_on, joker, natural)


def block_values(plan: TurnPlan, nv: FloatArray, block: Block, chunk: int = 0) -> FloatArray:
    """Expected points to come for every state of a block (its next values given)."""
    n_states = nv.shape[1]
    chunk = chunk or CHUNK
    out = np.empty(n_states)
    for a in range(0, n_states, chunk):
        b = min(a + chunk, n_states)
        ws = plan.workspace(b - a)
        ws.buf[: plan.n_next] = nv[:, a:b]
        ws.run(ws.stand)
        if plan.joker is not None:
            joker_patch(plan, ws.buf, ws.scratch, block, slice(a, b))
        ws.run(ws.keeps)
        # einsum, not BLAS: no BLAS thread pool is ever started in the forked helper
        np.einsum("t,ts->s", plan.final_probability, ws.buf[plan.final], out=out[a:b])
    return out


def block_maximum(plan: TurnPlan, nv: FloatArray, block: Block) -> FloatArray:
    """Most points to come for every state of a block if every throw could be chosen: each
    box at its best over the ordinary throws (a box's best throw is the same whatever the
    other boxes hold), then the six five-of-a-kind throws exactly, Joker included (their
    candidates gathered from the next values directly: no batch buffer)."""
    n = nv.shape[1]
    step = plan.maximum
    best: FloatArray = np.take(nv, step.src, axis=0).reshape(step.width, n).max(axis=0)
    if plan.joker is not None:
        scratch = np.empty((max(len(plan.joker.lower_src), len(plan.joker.upper_zero_src)), n))
        fives = [
            np.take(nv, s.src, axis=0).reshape(s.width, -1, n).max(axis=0)
            for s in plan.stand
            if any(s.start == r.start for r in plan.five_rows)
        ]
        joker_patch(plan, nv, scratch, block, slice(0, n), fives)
        for rows in fives:
            np.maximum(best, rows.max(axis=0), out=best)
    return best


class _Builder:
    """Lays out a ruleset's rows and steps (see `TurnPlan`)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.space = state_space(ruleset)
        self.table = points_table(ruleset)
        upper = ruleset.upper_indices
        assert upper == tuple(range(len(upper))), "upper boxes must lead the scorecard"
        assert ruleset.throws_per_turn >= 2, "a turn of one throw has no keep to solve"
        self.upper = upper
        self.five = ruleset.five_box_index
        self.joker_game = ruleset.five_of_a_kind is not None and self.five is not None
        self.lower = [b for b in range(self.space.n_boxes) if b not in upper and b != self.five]
        self.multiplied = not np.array_equal(self.table.natural[0], self.table.natural[1])
        self.variants = (0, 1) if self.multiplied else (0,)
        self.five_throw = (
            self.table.five_of_a_kind if self.joker_game else np.zeros(N_THROWS, dtype=bool)
        )
        self.face_of = {b: ruleset.boxes[b].face for b in upper}
        self.q_row = {self.face_of[b]: [6 * j + c for c in range(6)] for j, b in enumerate(upper)}
        self.n = 6 * len(upper)
        # lower boxes whose points are never negative share one scratch row
        self.scratch_boxes = [
            b for b in self.lower if all((self.table.natural[v][b] >= 0).all() for v in (0, 1))
        ]
        self.pairs: dict[tuple[int, int], int] = {}
        self.sets: dict[tuple[int, ...], int] = {}
        self.missing_at: dict[frozenset[int], int] = {}

    def take(self, count: int) -> int:
        start, self.n = self.n, self.n + count
        return start

    # Row lookups: in the first pass (`collect`) they record what is needed.
    def scored(self, source: int, pts: int) -> int:
        if pts == 0:
            return source
        return self.pairs.setdefault((source, pts), -1)

    def missing_row(self, absent: frozenset[int]) -> int:
        return self.missing_at.setdefault(absent, -1)

    def throw_candidates(self, t: int, v: int) -> list[int]:
        counts = face_counts()[t]
        table = self.table
        if not self.five_throw[t]:
            absent = frozenset(f for f in FACES if counts[f - 1] == 0)
            row = [self.missing_row(absent)]
            row += [self.q_row[f][int(counts[f - 1])] for f in FACES if counts[f - 1]]
            return row + self.lower_candidates(t, v, skip_scratch=True)
        f = int(table.five_face[t])
        row = [self.q_row[f][5], *(self.q_row[g][0] for g in FACES if g != f)]
        row += self.lower_candidates(t, v, skip_scratch=False)
        assert self.five is not None
        row.append(self.scored(self.top_row, int(table.natural[v][self.five, t])))
        return row

    def lower_candidates(self, t: int, v: int, skip_scratch: bool) -> list[int]:
        """The lower boxes' rows for a throw: boxes that score the same points are one row
        (their best next value, plus the points): pair, three of a kind and chance all
        score the sum of the dice, so 3-3-3-5-6 has one candidate for the three, not three."""
        by_points: dict[int, list[int]] = {}
        out: list[int] = []
        for b in self.lower:
            pts = int(self.table.natural[v][b, t])
            if pts == 0:
                if not (skip_scratch and b in self.scratch_boxes):
                    out.append(self.w_row[b])
                continue
            by_points.setdefault(pts, []).append(b)
        for pts, boxes in sorted(by_points.items()):
            out.append(self.scored(self.best_of(boxes), pts))
        return out

    def best_of(self, boxes: list[int]) -> int:
        if len(boxes) == 1:
            return self.w_row[boxes[0]]
        return self.sets.setdefault(tuple(boxes), -1)

    def others(self, matching: int) -> list[int]:
        return [b for b in self.upper if b != matching]

    def joker_lower(self, t: int) -> list[int]:
        return [self.scored(self.w_row[b], int(self.table.joker[b, t])) for b in self.lower]

    def max_candidates(self) -> list[int]:
        out: list[int] = []
        for f in FACES:
            out += self.q_row[f][: 5 if self.joker_game else 6]
        ordinary = ~self.five_throw
        for b in self.lower:
            best = max(int(self.table.natural[v][b][ordinary].max()) for v in (0, 1))
            out.append(self.scored(self.w_row[b], best))
        if self.joker_game:
            out.append(self.other_row)
        return out

    def lookups(self) -> tuple[list[list[int]], list[int], list[int]]:
        stand = [self.throw_candidates(t, v) for v in self.variants for t in range(N_THROWS)]
        fives = [int(t) for t in np.flatnonzero(self.five_throw)]
        joker = [r for t in fives for r in self.joker_lower(t)]
        return stand, joker, self.max_candidates()

    def upper_tables(self) -> tuple[npt.NDArray[np.int64], FloatArray]:
        space, ruleset = self.space, self.ruleset
        n_sub, low = space.n_sub, space.sub_low
        keys = np.repeat(np.arange(1 << len(self.upper), dtype=np.int64), n_sub)
        subs = np.tile(np.arange(low, low + n_sub, dtype=np.int64), 1 << len(self.upper))
        delta = np.zeros((6 * len(self.upper), len(keys)), dtype=np.int64)
        add = np.full((6 * len(self.upper), len(keys)), NEG)
        secured_now = space.secured(keys, subs)
        for j, b in enumerate(self.upper):
            is_open = (keys >> b & 1) == 0
            new_keys = keys | 1 << b
            for c, pts in enumerate(space.upper_points_by_count[b].tolist()):
                new_sub = subs + pts
                folded = space.fold(new_keys, new_sub)
                bonus = np.where(
                    ~secured_now & space.secured(new_keys, new_sub), ruleset.upper_bonus.points, 0
                )
                step = ((1 << b) * n_sub + folded - subs) * space.n_flag
                delta[6 * j + c] = np.where(is_open, step, 0)
                add[6 * j + c] = np.where(is_open, pts + bonus, NEG)
        return delta, add

    def lower_tables(self) -> tuple[npt.NDArray[np.int64], FloatArray]:
        n_upper = len(self.upper)
        n_lower_bits = self.space.n_boxes - n_upper
        keys = np.arange(1 << n_lower_bits, dtype=np.int64)
        per_mask = self.space.n_sub * self.space.n_flag
        specs = [(b, 0) for b in self.lower]
        if self.joker_game:
            assert self.five is not None
            specs += [(self.five, 1), (self.five, 0)]  # holds the top score / scratched
        delta = np.zeros((len(specs), len(keys)), dtype=np.int64)
        add = np.full((len(specs), len(keys)), NEG)
        for r, (b, flag_step) in enumerate(specs):
            is_open = (keys >> (b - n_upper) & 1) == 0
            delta[r] = np.where(is_open, (1 << b) * per_mask + flag_step, 0)
            add[r] = np.where(is_open, 0.0, NEG)
        return delta, add

    def plan(self) -> TurnPlan:
        table = self.table
        if self.joker_game:
            assert self.five is not None
            for v in self.variants:
                assert not table.natural[v][self.five][~self.five_throw].any(), (
                    "the five-of-a-kind box scores only five of a kind"
                )
        n_upper_rows = self.n
        lower_start = self.take(len(self.lower))
        self.w_row = {b: lower_start + i for i, b in enumerate(self.lower)}
        self.top_row = self.other_row = -1
        if self.joker_game:
            self.top_row = self.take(1)
            self.other_row = self.take(1)
        n_lower_rows = self.n - n_upper_rows
        self.lookups()  # first pass: which sets of boxes score alike
        best_of = self.set_steps()
        self.pairs = {}
        self.lookups()  # second pass: which (row, points) pairs and missing-face sets
        pair_list = sorted(self.pairs)
        pair_start = self.take(len(pair_list))
        self.pairs = {key: pair_start + i for i, key in enumerate(pair_list)}
        scratch_src = [self.w_row[b] for b in self.scratch_boxes]
        if self.joker_game:
            scratch_src.append(self.other_row)
        scratch_row = self.take(1)
        missing = self.missing_steps(scratch_row)
        n_next = self.n
        stand_cands, joker_cands, max_cands = self.lookups()  # third pass: real rows

        stand: list[Step] = []
        stand_at: list[dict[int, int]] = []
        five_rows: list[slice] = []
        fives = [int(t) for t in np.flatnonzero(self.five_throw)]
        plain = [t for t in range(N_THROWS) if not self.five_throw[t]]
        for i, _v in enumerate(self.variants):
            cands = stand_cands[i * N_THROWS : (i + 1) * N_THROWS]
            steps, where = self.group_steps([cands[t] for t in plain])
            at = {t: where[j] for j, t in enumerate(plain)}
            if fives:
                steps_5, where_5 = self.group_steps([cands[t] for t in fives])
                assert len(steps_5) == 1
                steps += steps_5
                at.update({t: where_5[j] for j, t in enumerate(fives)})
                five_rows.append(slice(steps_5[0].start, steps_5[0].stop))
            stand += steps
            stand_at.append(at)

        keeps, final_at, keep_scratch = self.keep_steps(stand_at)
        final = slice(min(final_at), min(final_at) + N_THROWS)
        probability = np.zeros(N_THROWS)
        for t in range(N_THROWS):
            probability[final_at[t] - final.start] = keep_graph().throw_probability[t]
        maximum = Step(np.array(max_cands, dtype=np.intp), len(max_cands), self.take(1))

        joker = None
        if self.joker_game:
            faces = [int(table.five_face[t]) for t in fives]
            matching = [next(b for b in self.upper if self.face_of[b] == f) for f in faces]
            joker = JokerRows(
                # candidate-major, as in `Step`: (boxes, 6 throws) and (5 boxes, 6 throws)
                lower_src=np.array(joker_cands, np.intp).reshape(len(fives), -1).T.ravel(),
                n_lower=len(self.lower),
                upper_zero_src=np.array(
                    [[self.q_row[self.face_of[b]][0] for b in self.others(m)] for m in matching],
                    dtype=np.intp,
                ).T.ravel(),
                matching_five=np.array([self.q_row[f][5] for f in faces], dtype=np.intp),
                matching_bit=np.array(matching, dtype=np.int64)[:, None],
            )
        steps = [*stand, maximum]
        scratch = max(keep_scratch, *(len(s.src) for s in steps))
        if joker is not None:
            scratch = max(scratch, len(joker.lower_src), len(joker.upper_zero_src))
        upper_delta, upper_add = self.upper_tables()
        lower_delta, lower_add = self.lower_tables()
        return TurnPlan(
            space=self.space,
            n_upper_rows=n_upper_rows,
            upper_delta=upper_delta,
            upper_add=upper_add,
            n_lower_rows=n_lower_rows,
            lower_delta=lower_delta,
            lower_add=lower_add,
            pair_src=np.array([s for s, _ in pair_list], dtype=np.intp),
            pair_points=np.array([p for _, p in pair_list], dtype=np.float64),
            pair_start=pair_start,
            scratch_src=np.array(scratch_src, dtype=np.intp),
            scratch_row=scratch_row,
            missing=missing,
            best_of=best_of,
            n_next=n_next,
            stand=stand,
            five_rows=tuple(five_rows),
            joker=joker,
            keeps=keeps,
            final=final,
            final_probability=probability,
            maximum=maximum,
            max_pairs=self.max_pairs(pair_start, len(pair_list), maximum, stand, five_rows, joker),
            n_rows=self.n,
            scratch_size=scratch,
        )

    @staticmethod
    def max_pairs(
        start: int,
        count: int,
        maximum: Step,
        stand: list[Step],
        five_rows: list[slice],
        joker: JokerRows | None,
    ) -> IndexArray:
        read = set(maximum.src.tolist())
        for step in stand:
            if any(step.start == rows.start for rows in five_rows):
                read.update(step.src.tolist())
        if joker is not None:
            read.update(joker.lower_src.tolist())
        return np.array(sorted(r - start for r in read if start <= r < start + count), np.intp)

    def set_steps(self) -> list[Step]:
        """Rows for the best next value over each set of lower boxes that score alike."""
        steps: list[Step] = []
        by_size: dict[int, list[tuple[int, ...]]] = {}
        for boxes in self.sets:
            by_size.setdefault(len(boxes), []).append(boxes)
        for size, sets in sorted(by_size.items()):
            start = self.take(len(sets))
            src = [[self.w_row[boxes[j]] for boxes in sets] for j in range(size)]
            steps.append(Step(np.array(src, dtype=np.intp).ravel(), size, start))
            for i, boxes in enumerate(sets):
                self.sets[boxes] = start + i
        return steps

    def missing_steps(self, scratch_row: int) -> list[Step]:
        """Rows for the best 0 over a set of missing faces (and the lower scratch), built up
        one face at a time: {1, 3, 4} from {1, 3}, which comes from {1}."""
        wanted = set(self.missing_at)
        closure: set[frozenset[int]] = set()
        for absent in wanted:
            faces = sorted(absent)
            closure.update(frozenset(faces[:k]) for k in range(1, len(faces) + 1))
        at: dict[frozenset[int], int] = {frozenset(): scratch_row}
        steps: list[Step] = []
        for size in range(1, len(FACES) + 1):
            level = sorted((a for a in closure if len(a) == size), key=sorted)
            if not level:
                continue
            start = self.take(len(level))
            src: list[int] = []
            for i, absent in enumerate(level):
                top = max(absent)
                src += [at[absent - {top}], self.q_row[top][0]]
                at[absent] = start + i
            steps.append(Step(np.array(src, dtype=np.intp), 2, start))
        self.missing_at = at
        return steps

    def group_steps(self, candidates: list[list[int]]) -> tuple[list[Step], list[int]]:
        """One step per candidate count; returns the steps and each item's output row."""
        by_width: dict[int, list[int]] = {}
        for i, cand in enumerate(candidates):
            by_width.setdefault(len(cand), []).append(i)
        steps: list[Step] = []
        where = [0] * len(candidates)
        for width in sorted(by_width):
            items = by_width[width]
            start = self.take(len(items))
            for j, i in enumerate(items):
                where[i] = start + j
            src = np.array([[candidates[i][j] for i in items] for j in range(width)], np.intp)
            src = src.ravel()
            assert (src >= 0).all()
            steps.append(Step(src, width, start))
        return steps, where

    def keep_steps(self, stand_at: list[dict[int, int]]) -> tuple[list[Instr], list[int], int]:
        """Every round of keeps; the last round also weighs standing on the first throw.

        Within a keep size the keeps are ordered by how many distinct faces they have, most
        first, and each level's means are written in that order too: a keep's best sub-keep
        is then its own mean, maxed with one contiguous column per removable face, each
        column one `take` and one `np.maximum` over the keeps that have that many faces.
        Returns the instructions, each throw's row of the final values and the scratch size.
        """
        graph = keep_graph()
        sizes = [len(level) for level in graph.by_size]
        order: list[list[int]] = []  # order[k]: keeps of size k, most distinct faces first
        for k in range(DICE_PER_THROW + 1):
            level = graph.by_size[k]
            distinct = [len(set(keep)) for keep in level]
            order.append(sorted(range(len(level)), key=lambda i: -distinct[i]))
        e_start = {k: self.take(sizes[k]) for k in range(DICE_PER_THROW - 1, -1, -1)}
        # a keep's best sub-keep overwrites its own value, which nothing reads after it
        b_start = {k: e_start[k] for k in range(1, DICE_PER_THROW)}
        slots = [self.take(sizes[DICE_PER_THROW]) for _ in range(2)]
        after = [stand_at[0][t] for t in range(N_THROWS)]  # row of each throw (canonical)
        first = [stand_at[-1][t] for t in range(N_THROWS)] if self.multiplied else None
        out: list[Instr] = []
        scratch = 0
        rounds = self.ruleset.throws_per_turn - 1
        contiguous = False  # is `after` laid out in order[5] (true after the first round)?
        for rnd in range(rounds):
            e_at: dict[int, list[int]] = {DICE_PER_THROW: after}
            for k in range(DICE_PER_THROW - 1, -1, -1):
                child = graph.child[k]
                src = [e_at[k + 1][child[i, f]] for f in range(6) for i in order[k]]
                out.append(Take(np.array(src, dtype=np.intp), 0))
                out.append(Mean(len(src), e_start[k]))
                scratch = max(scratch, len(src))
                at = [0] * sizes[k]
                for pos, i in enumerate(order[k]):
                    at[i] = e_start[k] + pos
                e_at[k] = at
            b_at: dict[int, list[int]] = {0: e_at[0]}
            for k in range(1, DICE_PER_THROW + 1):
                last = k == DICE_PER_THROW
                start = slots[rnd % 2] if last else b_start[k]
                level = graph.by_size[k]
                columns: list[list[int]] = []
                for i in order[k]:
                    keep = level[i]
                    parents = []
                    for f in sorted(set(keep)):
                        rest = list(keep)
                        rest.remove(f)
                        parents.append(b_at[k - 1][graph.index[k - 1][tuple(rest)]])
                    if last and rnd == rounds - 1 and first is not None:
                        parents.append(first[i])
                    for j, r in enumerate(parents):
                        if j == len(columns):
                            columns.append([])
                        columns[j].append(r)
                n_k = sizes[k]
                self_rows = [e_at[k][i] for i in order[k]]
                if self_rows == list(range(self_rows[0], self_rows[0] + n_k)):
                    own: Ref = Buf(self_rows[0], self_rows[0] + n_k)
                else:  # the turn's stand rows are grouped otherwise: gather them
                    out.append(Take(np.array(self_rows, dtype=np.intp), n_k))
                    own = Scr(n_k, 2 * n_k)
                    scratch = max(scratch, 2 * n_k)
                for j, column in enumerate(columns):
                    m = len(column)  # the first m keeps have a (j+1)-th column
                    out.append(Take(np.array(column, dtype=np.intp), 0))
                    scratch = max(scratch, m)
                    if j == 0:
                        assert m == n_k
                        out.append(Max(own, Scr(0, m), Buf(start, start + m)))
                    else:
                        dest = Buf(start, start + m)
                        out.append(Max(dest, Scr(0, m), dest))
                at = [0] * n_k
                for pos, i in enumerate(order[k]):
                    at[i] = start + pos
                b_at[k] = at
            after = b_at[DICE_PER_THROW]
        del contiguous
        return out, after, scratch


BLOCK = 2048  # states whose next values are built at once (then solved CHUNK at a time)
THREADS = max(1, min(2, os.cpu_count() or 1))
# Fork a helper process where the platform can (False: threads only).  No environment
# variable sets it: every variable the service reads is a setting documented in the README.
FORK = hasattr(os, "fork")
FORK_MIN_STATES = 20_000  # below this a second process costs more than it saves
Progress = Callable[[int, int], None]


def solve_table(
    ruleset: Ruleset, progress: Progress | None = None, maximum: bool = False
) -> FloatArray:
    """The value table (or with `maximum` the max table) of a ruleset."""
    values, best = solve_tables(ruleset, progress, value=not maximum, maximum=maximum)
    table = best if maximum else values
    assert table is not None
    return table


def solve_tables(
    ruleset: Ruleset, progress: Progress | None = None, value: bool = True, maximum: bool = True
) -> tuple[FloatArray | None, FloatArray | None]:
    """Backward induction, layer by layer (most boxes filled first), in blocks, for the
    value table, the max table or both in one pass (which shares the successor indices).

    Blocks of one layer only read layers already solved and write disjoint entries, so
    they can run at the same time.  With two cores the layer is split between this process
    and a forked helper that writes into the same shared memory (`_ForkedHalf`); threads
    are the fallback (numpy releases the GIL inside its loops, but a batch makes some 100
    short numpy calls, and handing the GIL back and forth between two threads that often
    costs most of the second core: measured 1.0-1.3x with threads).
    Unreachable states end as NaN.
    """
    reuse_freed_memory()
    plan = turn_plan(ruleset)
    space = plan.space
    mask, sub, flag = space.all_states()
    layers = [(p.start, p.stop) for p in map(space.layer, range(space.n_boxes - 1, -1, -1))]
    todo = sum(hi - lo for lo, hi in layers)
    forked = FORK and THREADS >= 2 and todo >= FORK_MIN_STATES
    wanted = [value, maximum]
    memory = [mmap.mmap(-1, space.size * 8) if forked and w else None for w in wanted]
    tables: list[FloatArray | None] = []
    per_mask = space.n_sub * space.n_flag
    full = (1 << space.n_boxes) - 1
    for w, mem in zip(wanted, memory, strict=True):
        if not w:
            tables.append(None)
            continue
        table = np.frombuffer(mem, dtype=np.float64) if mem is not None else np.empty(space.size)
        table[:] = NEG
        table[full * per_mask : (full + 1) * per_mask] = 0.0
        tables.append(table)
    values, best = tables

    def run(part: slice) -> int:
        m, s, f = mask[part], sub[part], flag[part]
        succ = successors(plan, m, s, f)
        block = block_facts(plan, m, f)
        if values is not None:
            values[succ.base] = block_values(plan, next_values(plan, values, succ), block)
        if best is not None:
            nv = next_values(plan, best, succ, for_max=True)
            best[succ.base] = block_maximum(plan, nv, block)
        return len(m)

    done = 0
    if forked:
        with _ForkedHalf(run, layers) as helper:
            for _ in layers:
                done += helper.layer()
                if progress is not None:
                    progress(done, todo)
        # The tables stay views of the shared mappings (no 8 MB copies): each array holds
        # its mapping, which is unmapped once nothing views it; the helper has exited.
    else:
        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            for lo, hi in layers:
                for n in pool.map(run, _blocks(lo, hi, THREADS)):
                    done += n
                    if progress is not None:
                        progress(done, todo)
    for solved in tables:
        if solved is not None:  # unreachable states: -inf while solving, NaN in the table
            np.copyto(solved, np.nan, where=np.isneginf(solved))
    return tables[0], tables[1]


def _blocks(lo: int, hi: int, shares: int) -> list[slice]:
    """[lo, hi) in blocks of at most BLOCK states, as many per share as the others, cut at
    whole batches (so a layer has one short batch at most)."""
    count = hi - lo
    if count <= 0:
        return []
    parts = -(-count // BLOCK)
    if count >= shares * CHUNK:
        parts = -(-parts // shares) * shares
    batches = -(-count // CHUNK)
    cuts = sorted({lo + min(count, CHUNK * round(batches * i / parts)) for i in range(parts + 1)})
    return [slice(a, b) for a, b in itertools.pairwise(cuts) if b > a]


class _ForkedHalf:
    """A child process that solves blocks of every layer beside this one.

    The value table lives in an anonymous shared mapping, so the child's writes are this
    process's reads.  For each layer this process writes the numbers of the layer's blocks
    into a pipe that both read, two bytes at a time, so each block is taken once and a core
    slowed by other work just takes fewer; an end mark for each reader follows, and each
    stops at the first it reads.  A second pipe tells the child to start a layer (so it
    cannot take the other's end mark as the next layer's), a third that its blocks are
    written; the next layer starts only once both halves are done.  The child runs numpy on
    arrays it inherited and leaves with `os._exit`, never returning into the caller's code;
    an error in it (or its death) fails the solve here.
    """

    END = 0xFFFF

    def __init__(self, run: Callable[[slice], int], layers: list[tuple[int, int]]) -> None:
        self.run = run
        self.blocks = [_blocks(lo, hi, 2 * THREADS) for lo, hi in layers]
        assert max(len(b) for b in self.blocks) < self.END
        self.next_layer = 0

    def take_blocks(self, blocks: list[slice]) -> None:
        while True:
            token = b""
            while len(token) < 2:
                got = os.read(self.work_read, 2 - len(token))
                if not got:
                    raise EOFError("the solver's block pipe closed")
                token += got
            i = int.from_bytes(token, "little")
            if i == self.END:
                return
            self.run(blocks[i])

    def __enter__(self) -> _ForkedHalf:
        self.work_read, self.work_write = os.pipe()
        go_read, self.go = os.pipe()
        self.done, done_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            status = 1
            try:
                os.close(self.work_write)
                os.close(self.go)
                os.close(self.done)
                for blocks in self.blocks:
                    if os.read(go_read, 1) != b"g":
                        raise EOFError("no next layer")
                    self.take_blocks(blocks)
                    os.write(done_write, b"d")
                status = 0
            except EOFError:  # this process gave up (an error here): nothing more to do
                status = 0
            except BaseException:
                with contextlib.suppress(OSError):
                    os.write(done_write, b"e")
            finally:
                os._exit(status)
        os.close(go_read)
        os.close(done_write)
        return self

    def layer(self) -> int:
        """Solve the next layer with the child; returns its number of states."""
        blocks = self.blocks[self.next_layer]
        self.next_layer += 1
        tokens = [*range(len(blocks)), self.END, self.END]
        os.write(self.work_write, b"".join(i.to_bytes(2, "little") for i in tokens))
        os.write(self.go, b"g")
        self.take_blocks(blocks)
        if os.read(self.done, 1) != b"d":
            raise RuntimeError("the solver's helper process failed")
        return sum(b.stop - b.start for b in blocks)

    def __exit__(self, *exc: object) -> None:
        os.close(self.go)  # end of input: the child leaves its loop and exits
        os.close(self.work_write)
        os.close(self.work_read)
        os.close(self.done)
        os.waitpid(self.pid, 0)
