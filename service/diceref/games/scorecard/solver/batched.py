"""The solve's inner loop: every turn of a batch of states as a few kernel programs.

A ruleset's turn (its `TurnModel`: which boxes a throw may fill, the Joker, the bonuses) is
compiled, once, into a `TurnPlan`: reductions over the rows of a per-batch buffer (each
output row the max, the mean or the sum of other rows, `diceref.core.kernel`), with a
batch's states as the buffer's columns.  A batch is five calls into the kernel: the next
values gathered from the table, the rows built from them and standing on each throw, the
Joker's rows, the keeps, and for the max table its own rows.  What keeps the programs short:
docs/solver.md, "How the tables are built fast".  The tests hold the tables to an
independent box-by-box solver (`tests/scorecard/reference_solver.py`), state by state.
"""

from __future__ import annotations

import contextlib
import itertools
import mmap
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray, IndexArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import DICE_PER_THROW, FACES, N_THROWS, face_counts
from diceref.core.kernel import Gather, Program, Reduction, kernel, padded
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.turn import Candidate, TurnModel, turn_model
from diceref.games.scorecard.solver.allocator import reuse_freed_memory
from diceref.games.scorecard.solver.keeps import keep_graph
from diceref.games.scorecard.solver.statespace import StateSpace, state_space

BoolArray = npt.NDArray[np.bool_]
NEG = -np.inf
CHUNK = 256  # states a turn is evaluated for at once (the fastest size: docs/solver.md)


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

    @property
    def stop(self) -> int:
        return self.start + len(self.src) // self.width

    def reduction(self) -> Reduction:
        """The step for the kernel: each output row's candidates."""
        by_row = self.src.reshape(self.width, -1).T.tolist()
        return Reduction("max", self.start, by_row)


@dataclass
class TurnPlan:
    """A ruleset's turn as kernel programs over one buffer; built once per ruleset
    (`turn_plan`).

    The buffer's first rows hold a batch's next values: first those gathered from the
    table (6 rows per upper box: 0..5 dice of its face, points, bonus and the next state's value;
    one per lower box, two for a Joker game's five-of-a-kind box: holding the top score or
    a scratch), then the rows `values` builds from them: the best of lower boxes that score
    alike, the (box, points) rows, the lower scratch row and the missing-faces rows.
    """

    space: StateSpace
    model: TurnModel
    upper: Gather  # rows [0, n_upper_rows), keyed by the upper boxes filled and the subtotal
    lower: Gather  # the rows after the upper ones, keyed by the lower boxes filled
    n_upper_rows: int
    lower_boxes: tuple[int, ...]  # the boxes of the lower gather's rows, in order (then,
    # in a game with a five-of-a-kind rule, its box holding the top score and scratched)
    joker: Program | None  # the five-of-a-kind throws once their box is used (`joker_rows`)
    joker_facts: slice  # the rows the Joker program reads each state's facts from
    matching_bit: npt.NDArray[np.int64]  # (6, 1) bit of each five-of-a-kind's upper box
    values: Program  # the built next-value rows, then standing on each throw
    keeps: Program | None  # every round of keeps, down to the best value after the first
    # throw (None: a turn of one throw)
    final: slice  # that value, one row per throw
    final_probability: FloatArray  # the chance of each of those throws
    maxima: Program  # solve_max: the next-value rows it reads, each box at its best over
    # the ordinary throws (one row), and the five-of-a-kind throws' natural rows
    best_with_fives: Program | None  # after the Joker patch: the best of that row and them
    best_row: int  # the max table's value, once `maxima` (and `best_with_fives`) ran
    no_scratch_row: int | None  # a scratch row no box can fill: -inf in every workspace
    n_rows: int

    def workspace(self) -> Workspace:
        """This thread's workspace (reused while it is asked for): a thread keeps one
        (~2.5 MB), so a process that solves many rulesets does not collect a buffer each."""
        got: Workspace | None = getattr(_WORKSPACES, "last", None)
        if got is None or got.plan is not self:
            got = _WORKSPACES.last = Workspace(self)
        return got


_WORKSPACES = threading.local()


class Workspace:
    """A buffer of CHUNK states and the kernel's programs bound to it.

    The buffer is always CHUNK columns wide; a layer's short last batch computes its
    columns rounded up to the kernel's LANES (the columns beyond hold earlier batches'
    values or zeros: finite or -inf, never read)."""

    def __init__(self, plan: TurnPlan) -> None:
        self.plan = plan
        self.buf = np.zeros((plan.n_rows, CHUNK))
        if plan.no_scratch_row is not None:
            self.buf[plan.no_scratch_row] = NEG
        self.values = plan.values.bind(self.buf)
        self.joker = plan.joker.bind(self.buf) if plan.joker is not None else None
        self.keeps = plan.keeps.bind(self.buf) if plan.keeps is not None else None
        self.maxima = plan.maxima.bind(self.buf)
        fives = plan.best_with_fives
        self.best_with_fives = fives.bind(self.buf) if fives is not None else None
        self.tables: dict[int, tuple[FloatArray, Gathers]] = {}  # the value and max table

    def gathers(self, table: FloatArray) -> Gathers:
        """The next-value gathers from `table` into this buffer (bound once per solve)."""
        known = self.tables.get(id(table))
        if known is not None and known[0] is table:
            return known[1]
        gathers = Gathers(
            self.plan.upper.bind(table, self.buf, 0),
            self.plan.lower.bind(table, self.buf, self.plan.n_upper_rows),
        )
        self.tables[id(table)] = (table, gathers)
        return gathers

    def forget_tables(self) -> None:
        """Let go of the solve's tables (their shared mappings are unmapped once unused)."""
        self.tables.clear()


@dataclass(frozen=True)
class Gathers:
    upper: Callable[[int, int, int], None]
    lower: Callable[[int, int, int], None]


MAX_PLANS = 8  # a plan is ~1 MB of tables and index arrays
_PLANS: PerRuleset[str, TurnPlan] = PerRuleset(MAX_PLANS)


def turn_plan(ruleset: Ruleset) -> TurnPlan:
    """The ruleset's plan, built on first use (a few milliseconds) and kept for the few
    rulesets in use (house rules must not grow the process without end)."""
    return _PLANS.get(ruleset.rules_hash, lambda: _Builder(ruleset).plan())


@dataclass(frozen=True)
class Block:
    """Per-state facts of a block of states that the Joker program reads (`joker_facts`),
    as rows of 0 (true) or -inf (false) and the extra bonus: see `_Builder.joker_rows`."""

    box_used: BoolArray  # (n,) the five-of-a-kind box is filled (or scratched)
    facts: FloatArray  # (JOKER_FACTS, n)


JOKER_FACTS = 14  # rows: not on; on and matching open (6); on and matching filled (6);
# the extra bonus


@dataclass(frozen=True)
class Keys:
    """Where a block's states are in a table and which gathers' rows apply to them: the
    upper key (upper boxes filled, subtotal) and the lower key (lower boxes filled, and
    whether the upper boxes are all filled: series and forced order open them then)."""

    base: npt.NDArray[np.int64]  # (n,) each state's own index
    upper: npt.NDArray[np.int64]
    lower: npt.NDArray[np.int64]


def block_keys(
    plan: TurnPlan,
    mask: npt.NDArray[np.int64],
    sub: npt.NDArray[np.int64],
    flag: npt.NDArray[np.int64],
) -> Keys:
    space = plan.space
    ruleset = space.ruleset
    n_upper = len(ruleset.upper_indices)
    key = mask & ((1 << n_upper) - 1)
    lower = 2 * (mask >> n_upper) + (key == (1 << n_upper) - 1)
    return Keys(
        space.index(mask, sub, flag),
        np.ascontiguousarray(key * space.n_sub + (sub - space.sub_low)),
        np.ascontiguousarray(lower),
    )


def block_facts(
    plan: TurnPlan, mask: npt.NDArray[np.int64], flag: npt.NDArray[np.int64]
) -> Block | None:
    """What the Joker program needs to know about each state of a block (None without a
    Joker game): whether the Joker applies, whether each face's upper box is open, and the
    extra bonus a further five of a kind earns."""
    model = plan.model
    five = model.five
    if plan.joker is None or five is None:
        return None
    on = model.joker_on_each(mask, flag)
    matching_open = (mask[None, :] >> plan.matching_bit & 1) == 0
    facts = np.concatenate([~on[None], on & matching_open, on & ~matching_open], dtype=np.float64)
    facts = np.where(facts > 0, 0.0, NEG)
    used = (mask >> five & 1) == 1
    return Block(used, np.concatenate([facts, model.extra_each(flag)[None]]))


def solve_block(
    plan: TurnPlan,
    keys: Keys,
    block: Block | None,
    values: FloatArray | None,
    best: FloatArray | None,
) -> None:
    """Write the value (and the max) of every state of a block, CHUNK states at a time:
    its next values gathered from the table, standing on each throw, the Joker's patch of
    the five-of-a-kind throws, the keeps, and the throws' weighted sum."""
    n_states = len(keys.base)
    ws = plan.workspace()
    base, upper, lower = (k.ctypes.data for k in (keys.base, keys.upper, keys.lower))
    out = np.empty(CHUNK)

    def gather(table: FloatArray, a: int, n: int) -> None:
        """The next values of states [a, a + n) of the block from `table`."""
        gathers, at = ws.gathers(table), 8 * a  # int64 keys: 8 bytes a state
        gathers.upper(base + at, upper + at, n)
        gathers.lower(base + at, lower + at, n)

    def turn(
        table: FloatArray,
        a: int,
        n: int,
        programs: Sequence[Callable[[int], None] | None],
        cols: int,
    ) -> None:
        """States [a, a + n) gathered from `table`, then each program that applies run."""
        gather(table, a, n)
        for program in programs:
            if program is not None:
                program(cols)

    for a in range(0, n_states, CHUNK):
        b = min(a + CHUNK, n_states)
        n, cols = b - a, padded(b - a)
        states = keys.base[a:b]
        joker = ws.joker if block is not None and block.box_used[a:b].any() else None
        if joker is not None:  # else the five-of-a-kind throws score as they are
            assert block is not None
            ws.buf[plan.joker_facts, :n] = block.facts[:, a:b]
        if values is not None:
            turn(values, a, n, (ws.values, joker, ws.keeps), cols)
            # einsum, not BLAS: no BLAS thread pool is ever started in the forked helper
            np.einsum("t,ts->s", plan.final_probability, ws.buf[plan.final, :n], out=out[:n])
            values[states] = out[:n]
        if best is not None:
            turn(best, a, n, (ws.maxima, joker, ws.best_with_fives), cols)
            best[states] = ws.buf[plan.best_row, :n]


class _Builder:
    """Lays out a ruleset's rows and steps (see `TurnPlan`)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.space = state_space(ruleset)
        self.table = points_table(ruleset)
        self.model = turn_model(ruleset)
        upper = ruleset.upper_indices
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
        # only the top score earns later extra bonuses (`Ruleset.five_box_top`): a doubled
        # first-throw five of a kind holds more, and its box counts as "other"
        pts = int(table.natural[v][self.five, t])
        holds = self.top_row if pts == self.ruleset.five_box_top else self.other_row
        row.append(self.scored(holds, pts))
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

    def candidate_row(self, t: int, candidate: Candidate) -> int:
        """The row of filling a box with these dice: its next value, points included."""
        box, points = candidate
        if box in self.face_of:  # upper rows are kept by the count of the face, points added
            count = int(face_counts()[t, self.face_of[box] - 1])
            assert int(self.space.upper_points_by_count[box][count]) == points
            return self.q_row[self.face_of[box]][count]
        return self.scored(self.w_row[box], points)

    def joker_choices(self, t: int) -> list[list[list[int]] | None]:
        """The rows of each Joker tier of a five of a kind (`TurnModel.fives`), while its
        upper box is open and once it is filled (None: it scores as any throw)."""
        five = self.model.fives[t]
        return [
            None if tiers is None else [[self.candidate_row(t, c) for c in tier] for tier in tiers]
            for tiers in (five.matching_open, five.matching_filled)
        ]

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

    def lookups(self) -> tuple[list[list[int]], list[list[list[list[int]] | None]], list[int]]:
        stand = [self.throw_candidates(t, v) for v in self.variants for t in range(N_THROWS)]
        fives = [int(t) for t in np.flatnonzero(self.five_throw)] if self.model.fives else []
        joker = [self.joker_choices(t) for t in fives]
        return stand, joker, self.max_candidates()

    def upper_tables(self) -> tuple[npt.NDArray[np.int64], FloatArray]:
        space = self.space
        n_sub, low = space.n_sub, space.sub_low
        keys = np.repeat(np.arange(1 << len(self.upper), dtype=np.int64), n_sub)
        subs = np.tile(np.arange(low, low + n_sub, dtype=np.int64), 1 << len(self.upper))
        delta = np.zeros((6 * len(self.upper), len(keys)), dtype=np.int64)
        add = np.full((6 * len(self.upper), len(keys)), NEG)
        # which upper boxes a throw may fill depends on the upper boxes filled only
        fillable = self.fillable([m for m in range(1 << len(self.upper))])
        for j, b in enumerate(self.upper):
            is_open = np.repeat(fillable[:, b], n_sub)
            new_keys = keys | 1 << b
            for c, pts in enumerate(space.upper_points_by_count[b].tolist()):
                new_sub = subs + pts
                folded = space.fold(new_keys, new_sub)
                bonus = self.model.upper_bonus_each(keys, subs, b, pts)
                step = ((1 << b) * n_sub + folded - subs) * space.n_flag
                delta[6 * j + c] = np.where(is_open, step, 0)
                add[6 * j + c] = np.where(is_open, pts + bonus, NEG)
        return delta, add

    def lower_tables(self) -> tuple[npt.NDArray[np.int64], FloatArray]:
        """Keyed by 2 * (lower boxes filled) + (the upper boxes are all filled): which lower
        boxes a throw may fill depends on those two only."""
        n_upper = len(self.upper)
        n_lower_bits = self.space.n_boxes - n_upper
        full = (1 << n_upper) - 1
        masks = [
            lower << n_upper | (full if upper_full else 0)
            for lower in range(1 << n_lower_bits)
            for upper_full in (0, 1)
        ]
        fillable = self.fillable(masks)
        per_mask = self.space.n_sub * self.space.n_flag
        specs = [(b, 0) for b in self.lower]
        if self.joker_game:
            assert self.five is not None
            specs += [(self.five, 1), (self.five, 0)]  # holds the top score / scratched
        delta = np.zeros((len(specs), len(masks)), dtype=np.int64)
        add = np.full((len(specs), len(masks)), NEG)
        for r, (b, flag_step) in enumerate(specs):
            is_open = fillable[:, b]
            delta[r] = np.where(is_open, (1 << b) * per_mask + flag_step, 0)
            add[r] = np.where(is_open, 0.0, NEG)
        return delta, add

    def fillable(self, masks: list[int]) -> BoolArray:
        """[i, b]: the order lets a throw fill box b from masks[i] (`TurnModel.fillable`)."""
        out = np.zeros((len(masks), self.space.n_boxes), dtype=bool)
        for i, mask in enumerate(masks):
            out[i, self.model.fillable(mask)] = True
        return out

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
        self.lookups()  # first pass: which sets of boxes score alike
        best_of = self.set_steps()
        self.pairs = {}
        self.lookups()  # second pass: which (row, points) pairs and missing-face sets
        # by points, so that the rows adding the same points are one reduction
        pair_list = sorted(self.pairs, key=lambda pair: (pair[1], pair[0]))
        pair_start = self.take(len(pair_list))
        self.pairs = {key: pair_start + i for i, key in enumerate(pair_list)}
        scratch_src = [self.w_row[b] for b in self.scratch_boxes]
        if self.joker_game:
            scratch_src.append(self.other_row)
        scratch_row = self.take(1)
        missing = self.missing_steps(scratch_row)
        stand_cands, joker_choices, max_cands = self.lookups()  # third pass: real rows

        stand: list[Step] = []
        stand_at: list[dict[int, int]] = []
        five_rows: list[slice] = []
        fives = [int(t) for t in np.flatnonzero(self.five_throw)]
        plain = [t for t in range(N_THROWS) if not self.five_throw[t]]
        five_steps: list[Step] = []
        for i, _v in enumerate(self.variants):
            cands = stand_cands[i * N_THROWS : (i + 1) * N_THROWS]
            steps, where = self.group_steps([cands[t] for t in plain])
            at = {t: where[j] for j, t in enumerate(plain)}
            if fives:
                steps_5, where_5 = self.group_steps([cands[t] for t in fives])
                assert len(steps_5) == 1
                steps += steps_5
                five_steps += steps_5
                at.update({t: where_5[j] for j, t in enumerate(fives)})
                five_rows.append(slice(steps_5[0].start, steps_5[0].stop))
            stand += steps
            stand_at.append(at)

        keeps, final_at = self.keep_steps(stand_at)
        final = slice(min(final_at), min(final_at) + N_THROWS)
        probability = np.zeros(N_THROWS)
        for t in range(N_THROWS):
            probability[final_at[t] - final.start] = keep_graph().throw_probability[t]
        maximum = Step(np.array(max_cands, dtype=np.intp), len(max_cands), self.take(1))

        joker: list[Reduction] = []
        joker_reads: list[int] = []
        facts = slice(0, 0)
        matching_bit = np.zeros((len(fives), 1), dtype=np.int64)
        if self.joker_game:
            faces = [int(table.five_face[t]) for t in fives]
            matching = [self.ruleset.upper_box_of_face[f] for f in faces]
            matching_bit = np.array(matching, dtype=np.int64)[:, None]
            joker_reads = [
                r
                for choices in joker_choices
                for tiers in choices
                for tier in tiers or []
                for r in tier
            ]
            facts = slice(self.n, self.n + JOKER_FACTS)
            self.take(JOKER_FACTS)
            joker = self.joker_rows(joker_choices, five_rows, facts.start)
        best_with_fives: list[Reduction] = []
        best_row = maximum.start
        if five_steps:
            best_row = self.take(1)
            five = [r for rows in five_rows for r in range(rows.start, rows.stop)]
            best_with_fives.append(Reduction("max", best_row, [[maximum.start, *five]]))

        built = [step.reduction() for step in best_of]
        pairs = [(p, pts) for (p, pts) in pair_list]
        next_rows = [*built, *self.pair_reductions(pair_start, pairs, range(len(pairs)))]
        if scratch_src:
            next_rows.append(Reduction("max", scratch_row, [scratch_src]))
        next_rows += [step.reduction() for step in missing]
        # the max table reads only some (box, points) rows: those its steps and the Joker read
        read = {*maximum.src.tolist(), *(r for st in five_steps for r in st.src.tolist())}
        read.update(joker_reads)
        used = [i for i in range(len(pairs)) if pair_start + i in read]
        maxima = [
            *built,
            *self.pair_reductions(pair_start, pairs, used),
            maximum.reduction(),
            *(step.reduction() for step in five_steps),
        ]
        upper_delta, upper_add = self.upper_tables()
        lower_delta, lower_add = self.lower_tables()
        return TurnPlan(
            space=self.space,
            model=self.model,
            upper=Gather(upper_delta.T, upper_add.T),
            lower=Gather(lower_delta.T, lower_add.T),
            n_upper_rows=n_upper_rows,
            lower_boxes=tuple(self.lower),
            joker=Program(joker, self.n) if joker else None,
            joker_facts=facts,
            matching_bit=matching_bit,
            values=Program([*next_rows, *(step.reduction() for step in stand)], self.n),
            keeps=Program(keeps, self.n) if keeps else None,
            final=final,
            final_probability=probability,
            maxima=Program(maxima, self.n),
            best_with_fives=Program(best_with_fives, self.n) if best_with_fives else None,
            best_row=best_row,
            no_scratch_row=None if scratch_src else scratch_row,
            n_rows=self.n,
        )

    @staticmethod
    def pair_reductions(
        start: int, pairs: list[tuple[int, int]], positions: Sequence[int]
    ) -> list[Reduction]:
        """Rows start + i = row pairs[i][0] plus pairs[i][1] points, for i in `positions`:
        one reduction per run of consecutive positions adding the same points."""
        runs: list[list[int]] = []
        for i in positions:
            if runs and i == runs[-1][-1] + 1 and pairs[i][1] == pairs[runs[-1][0]][1]:
                runs[-1].append(i)
            else:
                runs.append([i])
        return [
            Reduction("plus", start + run[0], [[pairs[i][0]] for i in run], pairs[run[0]][1])
            for run in runs
        ]

    def joker_rows(
        self,
        choices: list[list[list[list[int]] | None]],
        five_rows: list[slice],
        facts: int,
    ) -> list[Reduction]:
        """The five-of-a-kind throws once their box is used: the extra bonus, and where the
        Joker applies the choices `TurnModel.fives` lists (`joker_choices`' rows): each tier
        is the best of its rows, a choice the first tier with a box open to the throw.

        Per state the case is picked by the facts `block_facts` writes, rows of 0 (true) or
        -inf (false): a candidate plus its fact row is itself or -inf, and the max of the
        candidates is the one that applies, exactly (adding 0 changes no value).  Rows from
        `facts`: not on; on with the matching box open (6); on with it filled (6); the extra
        bonus (without a Joker, only the extra bonus is added)."""
        not_on, on_open, on_filled, extra = facts, facts + 1, facts + 7, facts + 13
        out: list[Reduction] = []
        tiers: list[list[int]] = []
        tiers_of: dict[tuple[int, int], list[int]] = {}
        for i, per_case in enumerate(choices):
            for case, case_tiers in enumerate(per_case):
                if case_tiers is not None:
                    tiers_of[i, case] = list(range(len(tiers), len(tiers) + len(case_tiers)))
                    tiers += case_tiers
        chosen: dict[tuple[int, int], int] = {}
        if tiers:
            tier_start = self.take(len(tiers))
            out.append(Reduction("max", tier_start, tiers))
            several = [(key, rows) for key, rows in tiers_of.items() if len(rows) > 1]
            chosen = {key: tier_start + rows[0] for key, rows in tiers_of.items()}
            if several:
                first = self.take(len(several))
                groups = [[tier_start + r for r in rows] for _, rows in several]
                out.append(Reduction("first", first, groups))
                chosen.update({key: first + g for g, (key, _) in enumerate(several)})
        throws = range(6)
        for rows in five_rows:
            if choices:
                cases = self.take(18)
                natural = [rows.start + i for i in throws]
                sources = [[natural[i], not_on] for i in throws]
                sources += [[chosen.get((i, 0), natural[i]), on_open + i] for i in throws]
                sources += [[chosen.get((i, 1), natural[i]), on_filled + i] for i in throws]
                out.append(Reduction("plus", cases, sources, 0.0))
                picked = [[cases + i, cases + 6 + i, cases + 12 + i] for i in throws]
                out.append(Reduction("max", rows.start, picked))
            out.append(
                Reduction("plus", rows.start, [[rows.start + i, extra] for i in throws], 0.0)
            )
        return out

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
            smaller = [at[absent - {max(absent)}] for absent in level]
            zero = [self.q_row[max(absent)][0] for absent in level]
            at.update({absent: start + i for i, absent in enumerate(level)})
            steps.append(Step(np.array(smaller + zero, dtype=np.intp), 2, start))
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

    def keep_steps(self, stand_at: list[dict[int, int]]) -> tuple[list[Reduction], list[int]]:
        """Every round of keeps; the last round also weighs standing on the first throw.

        A round first takes each keep's value, the mean of its six one-die-more keeps (from
        five dice down to none), then each keep's best: the best of its own value and of the
        best keeps with one face removed, once per distinct face (6-6-6-2-2 has two sub-keeps
        one die smaller, not five).  Below five dice a keep's best overwrites its own value,
        which nothing reads after it; the five-dice rows alternate between two slots, since
        a round reads the previous round's.  Returns the reductions and each throw's row of
        the final values.
        """
        graph = keep_graph()
        sizes = [len(level) for level in graph.by_size]
        value_at = {k: self.take(sizes[k]) for k in range(DICE_PER_THROW - 1, -1, -1)}
        slots = [self.take(sizes[DICE_PER_THROW]) for _ in range(2)]
        after = [stand_at[0][t] for t in range(N_THROWS)]  # row of each throw (canonical)
        first = [stand_at[-1][t] for t in range(N_THROWS)] if self.multiplied else None
        out: list[Reduction] = []
        rounds = self.ruleset.throws_per_turn - 1
        if rounds == 0:  # a turn of one throw: its value is standing on that throw
            return out, first if first is not None else after
        for rnd in range(rounds):
            rows: dict[int, list[int]] = {DICE_PER_THROW: after}
            for k in range(DICE_PER_THROW - 1, -1, -1):
                child = graph.child[k]
                sources = [[rows[k + 1][child[i, f]] for f in range(6)] for i in range(sizes[k])]
                out.append(Reduction("mean", value_at[k], sources, 1.0 / 6.0))
                rows[k] = list(range(value_at[k], value_at[k] + sizes[k]))
            best: dict[int, list[int]] = {0: rows[0]}
            for k in range(1, DICE_PER_THROW + 1):
                last = k == DICE_PER_THROW
                sources = []
                for i, keep in enumerate(graph.by_size[k]):
                    candidates = [rows[k][i]]
                    for f in sorted(set(keep)):
                        rest = list(keep)
                        rest.remove(f)
                        candidates.append(best[k - 1][graph.index[k - 1][tuple(rest)]])
                    if last and rnd == rounds - 1 and first is not None:
                        candidates.append(first[i])
                    sources.append(candidates)
                start = slots[rnd % 2] if last else value_at[k]
                out.append(Reduction("max", start, sources))
                best[k] = list(range(start, start + sizes[k]))
            after = best[DICE_PER_THROW]
        return out, after


BLOCK = 2048  # states whose keys and Joker facts are worked out at once (solved CHUNK at a time)
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
    costs most of the second core).
    Unreachable states end as NaN.
    """
    reuse_freed_memory()
    # The kernel compiles (C++, without the GIL) while this thread lays out the plan.
    compiling = threading.Thread(target=kernel, name="kernel-compile", daemon=True)
    compiling.start()
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
        solve_block(plan, block_keys(plan, m, s, f), block_facts(plan, m, f), values, best)
        return len(m)

    compiling.join()
    workspace = plan.workspace()  # the kernel compiled, this buffer made, before a fork

    done = 0
    try:
        if forked:
            with _ForkedHalf(run, layers) as helper:
                for _ in layers:
                    done += helper.layer()
                    if progress is not None:
                        progress(done, todo)
            # The tables stay views of the shared mappings (no 8 MB copies): each array
            # holds its mapping, unmapped once nothing views it; the helper has exited.
        else:
            with ThreadPoolExecutor(max_workers=THREADS) as pool:
                for lo, hi in layers:
                    for n in pool.map(run, _blocks(lo, hi, THREADS)):
                        done += n
                        if progress is not None:
                            progress(done, todo)
    finally:
        workspace.forget_tables()  # the pool's threads, and theirs, are gone
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
