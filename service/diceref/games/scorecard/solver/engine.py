"""Backward induction over a scorecard game: the expected points still to come from every
reachable state under optimal play.

`solve` and `solve_max` build the tables with `batched.py`, which compiles a ruleset's turn
into a few dozen gathers over a cache-sized batch of states.  This module keeps the same
arithmetic written box by box and keep size by keep size: `turn_values` evaluates the turn
of one state for the per-request advice in `advice.py`, and `solve_reference` /
`solve_max_reference` solve whole games with it, which the tests hold the fast tables to
(state by state, to 1e-9), so the table and the answers built from it cannot disagree about
what a placement is worth.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from diceref.core.arrays import FloatArray, IntArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import FACES, N_THROWS, face_counts
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Joker, Order, Ruleset
from diceref.games.scorecard.solver import batched
from diceref.games.scorecard.solver.allocator import reuse_freed_memory
from diceref.games.scorecard.solver.keeps import best_keep, keep_expectations, keep_graph
from diceref.games.scorecard.solver.statespace import StateSpace, popcount, state_space

SOLVER_VERSION = "4"  # bump whenever a table computed before would differ
NEG = -np.inf
CHUNK = 1024  # states per batch in the expectation: (252, CHUNK) arrays stay in cache
MAX_CHUNK = 16384  # the max solve holds no (252, N) arrays: larger batches, fewer calls
THREADS = max(1, min(2, os.cpu_count() or 1))
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Placements:
    """Value of ending the turn on each throw: points, bonuses and the state that follows."""

    later: FloatArray  # (252, N) dice from the turn's second or third throw
    first: FloatArray  # (252, N) dice from the first throw (differs in russian-poker)


@dataclass(frozen=True)
class ThrowRows:
    """The throws a placement step looks at, with their points (all 252, or a subset)."""

    natural: tuple[IntArray, IntArray]  # (boxes, rows) later / first throw
    joker: IntArray  # (boxes, rows)
    counts: IntArray  # (rows, 6)
    five_face: IntArray  # (rows,) face of a five of a kind, 0 elsewhere
    multiplied: bool  # does the first throw score differently?

    @classmethod
    def select(cls, ruleset: Ruleset, rows: IntArray) -> ThrowRows:
        table = points_table(ruleset)
        return cls(
            natural=(table.natural[0][:, rows], table.natural[1][:, rows]),
            joker=table.joker[:, rows],
            counts=face_counts()[rows],
            five_face=table.five_face[rows],
            multiplied=not np.array_equal(table.natural[0], table.natural[1]),
        )


_ALL_ROWS: PerRuleset[str, ThrowRows] = PerRuleset(32)


def all_rows(ruleset: Ruleset) -> ThrowRows:
    return _ALL_ROWS.get(ruleset.rules_hash, lambda: ThrowRows.select(ruleset, np.arange(N_THROWS)))


@dataclass(frozen=True)
class NextValues:
    """For a batch of states, what each box leads to (points, bonus and next state's value).

    `upper[b]` is (6, N): placing c dice of the box's face; `lower[b]` is (N,) for the
    other boxes but the five-of-a-kind box, whose next value depends on whether the throw
    is a real one (`five_top`) or not (`five_other`).  Closed or not-yet-legal boxes: -inf.
    """

    upper: dict[int, FloatArray]
    lower: dict[int, FloatArray]
    five_top: FloatArray | None
    five_other: FloatArray | None


def next_values(
    space: StateSpace, values: FloatArray, mask: IntArray, sub: IntArray, flag: IntArray
) -> NextValues:
    if len(mask) == 1:
        return _next_values_one(space, values, int(mask[0]), int(sub[0]), int(flag[0]))
    rules = space.ruleset
    n = len(mask)
    upper_full = (mask & space.upper_bits) == space.upper_bits
    secured_now = space.secured(mask, sub)
    upper: dict[int, FloatArray] = {}
    lower: dict[int, FloatArray] = {}
    five_top = five_other = None
    forced = rules.order is Order.FORCED
    for b in range(len(rules.boxes)):
        is_open = (mask >> b & 1) == 0
        if forced:  # only the first open box: every box before it filled
            is_open &= (mask & ((1 << b) - 1)) == (1 << b) - 1
        new_mask = mask | (1 << b)
        if b in rules.upper_indices:
            q = np.empty((6, n))
            for c, pts in enumerate(space.upper_points_by_count[b].tolist()):
                new_sub = sub + pts
                bonus = np.where(
                    ~secured_now & space.secured(new_mask, new_sub), rules.upper_bonus.points, 0
                )
                q[c] = pts + bonus + values[space.index(new_mask, new_sub, flag)]
            q[:, ~is_open] = NEG
            upper[b] = q
            continue
        legal = is_open & (upper_full if rules.series_order else True)
        if b == rules.five_box_index:
            ones, zeros = np.ones_like(flag), np.zeros_like(flag)
            five_top = np.where(legal, values[space.index(new_mask, sub, ones)], NEG)
            five_other = np.where(legal, values[space.index(new_mask, sub, zeros)], NEG)
            continue
        lower[b] = np.where(legal, values[space.index(new_mask, sub, flag)], NEG)
    return NextValues(upper, lower, five_top, five_other)


def _next_values_one(
    space: StateSpace, values: FloatArray, mask: int, sub: int, flag: int
) -> NextValues:
    """`next_values` for one state (a request) in plain Python: the same rules, without
    paying numpy's per-call cost for arrays of one element."""
    rules = space.ruleset
    upper_full = mask & space.upper_bits == space.upper_bits
    secured_now = space.secured_one(mask, sub)
    upper: dict[int, FloatArray] = {}
    lower: dict[int, FloatArray] = {}
    five_top = five_other = None
    forced = rules.order is Order.FORCED
    for b in range(len(rules.boxes)):
        is_open = not mask >> b & 1
        if forced:  # only the first open box: every box before it filled
            is_open = is_open and mask & ((1 << b) - 1) == (1 << b) - 1
        new_mask = mask | 1 << b
        if b in rules.upper_indices:
            column = []
            for pts in space.upper_points_by_count[b].tolist():
                if not is_open:
                    column.append(NEG)
                    continue
                new_sub = sub + pts
                bonus = (
                    rules.upper_bonus.points
                    if not secured_now and space.secured_one(new_mask, new_sub)
                    else 0
                )
                column.append(pts + bonus + values[space.index_one(new_mask, new_sub, flag)])
            upper[b] = np.array(column).reshape(6, 1)
            continue
        legal = is_open and (upper_full or not rules.series_order)
        if b == rules.five_box_index:
            five_top = np.array([values[space.index_one(new_mask, sub, 1)] if legal else NEG])
            five_other = np.array([values[space.index_one(new_mask, sub, 0)] if legal else NEG])
            continue
        lower[b] = np.array([values[space.index_one(new_mask, sub, flag)] if legal else NEG])
    return NextValues(upper, lower, five_top, five_other)


def placement_values(
    space: StateSpace,
    values: FloatArray,
    mask: IntArray,
    sub: IntArray,
    flag: IntArray,
    throws: ThrowRows | None = None,
) -> Placements:
    """Best (points + bonuses + value of the next state) over the legal boxes, per throw."""
    rules = space.ruleset
    view = all_rows(rules) if throws is None else throws
    nxt = next_values(space, values, mask, sub, flag)
    n_rows, n = len(view.counts), len(mask)
    if n == 1:
        later, first = _stand_values_one(space, view, nxt)
    else:
        later, first = _stand_values(space, view, nxt, n_rows, n)
    outs = (later, first) if view.multiplied else (later,)
    five = rules.five_box_index
    if five is not None:
        for out in outs:
            _five_of_a_kind_rows(space, view, mask, flag, out, nxt.upper, nxt.lower)
    return Placements(later=later, first=first)


def _stand_values_one(
    space: StateSpace, view: ThrowRows, nxt: NextValues
) -> tuple[FloatArray, FloatArray]:
    """For one state: every box's candidate row stacked, one max (not a call per box)."""
    rules = space.ruleset
    rows: list[FloatArray] = [
        q[view.counts[:, rules.boxes[b].face - 1], 0] for b, q in nxt.upper.items()
    ]
    first_rows = list(rows)
    lower = list(nxt.lower)
    if lower:
        w = np.array([nxt.lower[b][0] for b in lower])[:, None]
        rows.append(view.natural[0][lower] + w)
        if view.multiplied:
            first_rows.append(view.natural[1][lower] + w)
    five = rules.five_box_index
    if five is not None:
        assert nxt.five_top is not None and nxt.five_other is not None
        top = view.natural[0][five] == rules.five_box_top
        cand = np.where(top, nxt.five_top[0], nxt.five_other[0])
        rows.append(view.natural[0][five] + cand)
        first_rows.append(view.natural[1][five] + cand)
    later = np.vstack(rows).max(axis=0)[:, None]
    if not view.multiplied:
        return later, later
    return later, np.vstack(first_rows).max(axis=0)[:, None]


def _stand_values(
    space: StateSpace, view: ThrowRows, nxt: NextValues, n_rows: int, n: int
) -> tuple[FloatArray, FloatArray]:
    rules = space.ruleset
    later = np.full((n_rows, n), NEG)
    first = np.full((n_rows, n), NEG) if view.multiplied else later
    outs = (later, first) if view.multiplied else (later,)
    scratch = np.empty((n_rows, n))
    for b, q in nxt.upper.items():
        row = q[view.counts[:, rules.boxes[b].face - 1]]
        for out in outs:
            np.maximum(out, row, out=out)
    for b, w in nxt.lower.items():
        for variant, out in enumerate(outs):
            _max_plus(out, view.natural[variant][b], w, scratch)
    five = rules.five_box_index
    if five is not None:
        assert nxt.five_top is not None and nxt.five_other is not None
        top = view.natural[0][five] == rules.five_box_top
        cand = np.where(top[:, None], nxt.five_top[None, :], nxt.five_other[None, :])
        for variant, out in enumerate(outs):
            np.maximum(out, view.natural[variant][five][:, None] + cand, out=out)
    return later, first


def _max_plus(
    out: FloatArray, points: IntArray, next_value: FloatArray, scratch: FloatArray
) -> None:
    """out = max(out, points[t] + next_value[s]) without allocating a (252, N) temporary."""
    np.add(points[:, None], next_value[None, :], out=scratch)
    np.maximum(out, scratch, out=out)


def _five_of_a_kind_rows(
    space: StateSpace,
    view: ThrowRows,
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
    if len(mask) == 1:
        _five_of_a_kind_one(space, view, int(mask[0]), int(flag[0]), out, upper_q, lower_next)
        return
    box_used = (mask >> five & 1) == 1
    if not box_used.any():  # five-of-a-kind box still open: the natural rows stand
        return
    extra = np.where(box_used & (flag == 1), float(rule.extra_bonus), 0.0)
    joker_on = box_used & ((flag == 1) | rule.joker_when_scratched)
    if rule.joker is Joker.NONE:
        joker_on = np.zeros_like(joker_on)
    for face in FACES:
        t = int(np.flatnonzero(view.five_face == face)[0])
        natural = out[t] + extra
        matching = next(i for i in rules.upper_indices if rules.boxes[i].face == face)
        lower_best = np.full(len(mask), NEG)
        for b, w in lower_next.items():
            np.maximum(lower_best, view.joker[b, t] + w, out=lower_best)
        upper_zero = np.full(len(mask), NEG)
        for b, q in upper_q.items():
            if b != matching:
                np.maximum(upper_zero, q[0], out=upper_zero)
        if rule.joker is Joker.FORCED:
            elsewhere = np.where(lower_best > NEG, lower_best, upper_zero)
        else:
            elsewhere = np.maximum(lower_best, upper_zero)
        matching_open = (mask >> matching & 1) == 0
        if rule.matching_upper_forced:
            joker = np.where(matching_open, upper_q[matching][5], elsewhere) + extra
        else:  # no Joker values while the matching box is open: the natural row stands
            joker = np.where(matching_open, natural, elsewhere + extra)
        out[t] = np.where(joker_on, joker, natural)


def _five_of_a_kind_one(
    space: StateSpace,
    view: ThrowRows,
    mask: int,
    flag: int,
    out: FloatArray,
    upper_q: dict[int, FloatArray],
    lower_next: dict[int, FloatArray],
) -> None:
    """`_five_of_a_kind_rows` for one state (a request) with Python floats: the same
    additions and maxima, without some 80 numpy calls on arrays of one element."""
    rules = space.ruleset
    rule = rules.five_of_a_kind
    five = rules.five_box_index
    assert rule is not None and five is not None
    if not mask >> five & 1:  # five-of-a-kind box still open: the natural rows stand
        return
    extra = float(rule.extra_bonus) if flag == 1 else 0.0
    joker_on = (flag == 1 or rule.joker_when_scratched) and rule.joker is not Joker.NONE
    five_rows, joker_points = _five_rows(view)
    lower = [(joker_points[b], float(w[0])) for b, w in lower_next.items()]
    zeros = {b: float(q[0, 0]) for b, q in upper_q.items()}
    for face in FACES:
        t = five_rows[face]
        natural = float(out[t, 0]) + extra
        if not joker_on:
            out[t, 0] = natural
            continue
        matching = next(i for i in rules.upper_indices if rules.boxes[i].face == face)
        lower_best = max((pts[face] + w for pts, w in lower), default=NEG)
        upper_zero = max((z for b, z in zeros.items() if b != matching), default=NEG)
        if rule.joker is Joker.FORCED:
            elsewhere = lower_best if lower_best > NEG else upper_zero
        else:
            elsewhere = max(lower_best, upper_zero)
        matching_open = not mask >> matching & 1
        if rule.matching_upper_forced:
            joker = (float(upper_q[matching][5, 0]) if matching_open else elsewhere) + extra
        else:
            joker = natural if matching_open else elsewhere + extra
        out[t, 0] = joker


# By the view's id (its arrays make it unhashable); the entry holds the view, so that id
# is not reused while the entry lives, and a hit is checked to be that very view.
_FIVE_ROWS: PerRuleset[int, tuple[ThrowRows, dict[int, int], dict[int, dict[int, int]]]] = (
    PerRuleset(64)
)


def _five_rows(view: ThrowRows) -> tuple[dict[int, int], dict[int, dict[int, int]]]:
    """Row of each face's five of a kind among a view's throws, and each box's Joker points
    for it (kept per view, as `all_rows` keeps the views)."""
    got = _FIVE_ROWS.peek(id(view))
    if got is None or got[0] is not view:
        rows = {face: int(np.flatnonzero(view.five_face == face)[0]) for face in FACES}
        points = {
            b: {face: int(view.joker[b, t]) for face, t in rows.items()}
            for b in range(view.joker.shape[0])
        }
        got = (view, rows, points)
        _FIVE_ROWS.put(id(view), got)
    return got[1], got[2]


@dataclass(frozen=True)
class TurnValues:
    """Everything a turn's decisions are ranked by, for a batch of states."""

    placements: Placements
    # keeps[j]: per keep size, the value of each keep after throw j + 1 (one entry per
    # throw that can be followed by another: throws_per_turn - 1 of them)
    keeps: tuple[list[FloatArray], ...]
    start: FloatArray  # (N,) expected value before the first throw

    def keeps_with(self, throws_left: int) -> list[FloatArray]:
        """Keep values when `throws_left` throws remain after the dice showing."""
        if not 0 < throws_left <= len(self.keeps):
            raise ValueError(f"1 to {len(self.keeps)} throws can be left, got {throws_left}")
        return self.keeps[len(self.keeps) - throws_left]

    @property
    def keep_after_first(self) -> list[FloatArray]:
        """The keeps after throw 1 (the names from when every turn had three throws)."""
        return self.keeps[0]

    @property
    def keep_after_second(self) -> list[FloatArray]:
        """The keeps after throw 2 (a turn of at least three throws)."""
        return self.keeps[1]


def turn_values(
    space: StateSpace, values: FloatArray, mask: IntArray, sub: IntArray, flag: IntArray
) -> TurnValues:
    """Backward over the turn's throws, the ruleset's `throws_per_turn` of them.

    Standing after the last throw is `placements.later`; after an earlier one, keeping all
    five dice is a keep like any other (its value already includes standing later), except
    after the first throw, where standing scores `placements.first` (russian-poker doubles).
    """
    placements = placement_values(space, values, mask, sub, flag)
    throws = space.ruleset.throws_per_turn
    after = placements.first if throws == 1 else placements.later  # value after the last throw
    keeps: list[list[FloatArray]] = []
    for throw in range(throws - 1, 0, -1):  # the keeps after throw `throw`, last first
        keep = keep_expectations(after)
        keeps.append(keep)
        after = best_keep(keep)  # standing on a throw before the last is 'keep all five'
        if throw == 1:
            after = np.maximum(placements.first, after)
    keeps.reverse()
    start = keep_graph().throw_probability @ after
    return TurnValues(placements, tuple(keeps), start)


def batched_solves(ruleset: Ruleset) -> bool:
    """Whether the compiled solver (`batched.py`) handles this ruleset.  It does not know
    forced order (every box in card order) nor one-throw turns (no keep to solve); their
    state spaces are tiny or their turns trivial, so the box-by-box solve serves them in
    well under a second."""
    return ruleset.order is not Order.FORCED and ruleset.throws_per_turn >= 2


def solve(ruleset: Ruleset, progress: Progress | None = None) -> FloatArray:
    """The value table: expected points still to come from each state (NaN: unreachable)."""
    if not batched_solves(ruleset):
        return solve_reference(ruleset, progress)
    return batched.solve_table(ruleset, progress)


def solve_with_max(
    ruleset: Ruleset, progress: Progress | None = None
) -> tuple[FloatArray, FloatArray | None]:
    """The value table and, where the compiled solver runs, the max table from the same
    pass: both read the same successor states, so the max table then costs a tenth of
    the solve instead of a pass of its own (None: solve the max table with `solve_max`)."""
    if not batched_solves(ruleset):
        return solve_reference(ruleset, progress), None
    values, best = batched.solve_tables(ruleset, progress, value=True, maximum=True)
    assert values is not None and best is not None
    return values, best


def solve_max(ruleset: Ruleset) -> FloatArray:
    """Most points still to come from each state if every throw could be chosen."""
    if not batched_solves(ruleset):
        return solve_max_reference(ruleset)
    return batched.solve_table(ruleset, maximum=True)


def solve_reference(ruleset: Ruleset, progress: Progress | None = None) -> FloatArray:
    """`solve` box by box with `turn_values` (slower; what the fast tables are held to)."""
    return _backward(ruleset, progress, _expected)


def solve_max_reference(ruleset: Ruleset) -> FloatArray:
    """`solve_max` box by box (slower; what the fast tables are held to)."""
    return _backward(ruleset, None, _maximum, MAX_CHUNK)


def _expected(
    space: StateSpace, values: FloatArray, mask: IntArray, sub: IntArray, flag: IntArray
) -> FloatArray:
    return turn_values(space, values, mask, sub, flag).start


def _maximum(
    space: StateSpace, values: FloatArray, mask: IntArray, sub: IntArray, flag: IntArray
) -> FloatArray:
    """Best over every throw, box by box: the best throw for a box is found once per game.

    A box's value never depends on which other box the throw could have gone to, so the
    maximum over throws splits into a maximum per box (its best points, or for an upper box
    its best count), plus the six five-of-a-kind throws evaluated exactly for the Joker.
    """
    rules = space.ruleset
    table = points_table(rules)
    nxt = next_values(space, values, mask, sub, flag)
    joker_game = rules.five_of_a_kind is not None
    plain = ~table.five_of_a_kind if joker_game else np.ones(N_THROWS, dtype=bool)
    counts = 5 if joker_game else 6  # with a Joker, five of a face is settled below
    best = np.full(len(mask), NEG)
    for q in nxt.upper.values():
        np.maximum(best, q[:counts].max(axis=0), out=best)
    for b, w in nxt.lower.items():
        top = max(int(table.natural[v][b][plain].max()) for v in (0, 1))
        np.maximum(best, top + w, out=best)
    if nxt.five_other is not None:
        np.maximum(best, nxt.five_other, out=best)  # scratch of the five-of-a-kind box
    if joker_game:
        rows = ThrowRows.select(rules, np.flatnonzero(table.five_of_a_kind))
        p = placement_values(space, values, mask, sub, flag, rows)
        np.maximum(best, np.maximum(p.later, p.first).max(axis=0), out=best)
    return best


def _backward(
    ruleset: Ruleset,
    progress: Progress | None,
    step: Callable[[StateSpace, FloatArray, IntArray, IntArray, IntArray], FloatArray],
    chunk: int = CHUNK,
) -> FloatArray:
    reuse_freed_memory()
    space = state_space(ruleset)
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
            parts = [rows[i : i + chunk] for i in range(0, len(rows), chunk)]
            for n in pool.map(run, parts):
                done += n
                if progress is not None:
                    progress(done, todo)
    return values
