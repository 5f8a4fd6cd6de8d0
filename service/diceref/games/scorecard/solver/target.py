"""Play to win: the chance to reach a total, and the whole distribution of the final total.

A turn ends on a placement, which leads to a next state and adds its points (bonuses
included): the turn's candidates per throw are read from the request plan (`TurnModel`'s
boxes, Joker choices and bonuses), as (next state, points) pairs.  Over them the win table
takes the best chance to still reach n points, `W(s, n) = E[max_p W(s'_p, n - points_p)]`
through the keeps, for every n of the state's band at once; the distribution table
follows the expected-points play and mixes the next states' distributions, shifted by the
points.  Method, proof and tie rule: docs/solver.md, "Play to win".
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from math import isfinite

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray, IntArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import N_THROWS, throw_index
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver.bands import Bands, BandTable
from diceref.games.scorecard.solver.request_turn import (
    MAX_PLANS,
    JokerRows,
    RequestPlan,
    RequestTurn,
    keep_transitions,
    next_rows,
    request_plan,
)
from diceref.games.scorecard.solver.statespace import StateSpace, popcount, state_space

# Bump whenever a win or distribution table solved before would differ (a table's key
# carries it beside the value solver's version).
TARGET_VERSION = "3"
NEG = -np.inf
# A win probability within EPS of 1 (or of 0) at the edge of a state's band is stored as 1
# (or 0); a distribution's probabilities below EPS at its ends are dropped.  Each turn adds
# at most EPS of error per value, so a game of n turns at most n * EPS (docs/solver.md).
EPS = 1e-13
Progress = Callable[[int, int], None]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Candidates:
    """Where a turn may end from one state, per throw: `succ[b, t]` the next state of filling
    box b with throw t, `shift[b, t]` the points it adds (-inf: not allowed).  `fives`
    overrides the five-of-a-kind throws where the Joker or the extra bonus applies: per
    throw, tiers of (next state, points); the first tier with a candidate is the choice.

    The (box, throw) cells take few distinct (next state, points) pairs (a box's points
    repeat over the throws): `pair_succ[k]`, `pair_shift[k]` are the pairs and `pair_of[b,
    t]` the pair of each cell, so that a lookup per pair serves every cell."""

    succ: IntArray
    shift: FloatArray
    fives: dict[int, list[list[tuple[int, float]]]]
    pair_succ: IntArray
    pair_shift: FloatArray
    pair_of: IntArray

    def legal(self) -> BoolArray:
        out: BoolArray = np.isfinite(self.shift)
        return out


def candidates(
    ruleset: Ruleset, mask: int, sub: int, flag: int, first_throw: bool = False
) -> Candidates:
    """The turn's candidates from a state (see `Candidates`); `first_throw`: the dice come
    from the turn's first throw (russian-poker's doubled points)."""
    plan = request_plan(ruleset)
    index, add = next_rows(plan, mask, sub, flag)
    rows, points = _stand(plan, ruleset, first_throw)
    succ = index[rows]
    shift = add[rows] + points
    pair_rows, pair_points, pair_of = _stand_pairs(ruleset, first_throw)
    pairs = (index[pair_rows], add[pair_rows] + pair_points, pair_of)
    return Candidates(succ, shift, five_tiers(plan, mask, flag, index, add, succ, shift), *pairs)


def five_readings(
    plan: RequestPlan, mask: int, flag: int
) -> tuple[int, dict[int, JokerRows | None]]:
    """Where a five of a kind's candidates are not the throw's own boxes: the extra bonus
    it earns, and per five-of-a-kind throw the Joker's tiers of (plan row, points) that
    apply (None: its own boxes, the extra bonus added).  Empty while the five-of-a-kind
    box is open, and for a throw whose candidates nothing changes."""
    model = plan.model
    five = model.five
    if five is None or not mask >> five & 1:
        return 0, {}
    extra = int(model.extra_for(flag, plan.five_throws[0]))
    joker = model.joker_on(mask, flag)
    by_throw = {t: (matching, choices) for t, matching, choices in plan.fives}
    out: dict[int, JokerRows | None] = {}
    for t in plan.five_throws:
        tiers = None
        if joker and t in by_throw:
            matching, choices = by_throw[t]
            tiers = choices[1] if mask >> matching & 1 else choices[0]
        if tiers is not None or extra:
            out[t] = tiers
    return extra, out


def five_tiers(
    plan: RequestPlan,
    mask: int,
    flag: int,
    index: IntArray,
    add: FloatArray,
    succ: IntArray,
    shift: FloatArray,
) -> dict[int, list[list[tuple[int, float]]]]:
    """`Candidates.fives` of a state, from its `next_rows` (`index`, `add`) and its
    candidates' `succ` and `shift`."""
    fives: dict[int, list[list[tuple[int, float]]]] = {}
    extra, readings = five_readings(plan, mask, flag)
    rows: list[int] | None = None
    adds: list[float] = []
    for t, tiers in readings.items():
        if tiers is None:
            legal = np.isfinite(shift[:, t])
            natural = zip(succ[legal, t].tolist(), (shift[legal, t] + extra).tolist(), strict=True)
            fives[t] = [list(natural)]
            continue
        if rows is None:
            rows, adds = index.tolist(), add.tolist()
        fives[t] = [
            [(rows[row], adds[row] + pts + extra) for row, pts in tier if isfinite(adds[row])]
            for tier in tiers
        ]
    return fives


_PAIRS: PerRuleset[tuple[str, bool], tuple[IntArray, FloatArray, IntArray]] = PerRuleset(MAX_PLANS)


def _stand_pairs(ruleset: Ruleset, first_throw: bool) -> tuple[IntArray, FloatArray, IntArray]:
    """The distinct (next-value row, points) pairs of `_stand`'s cells, and each cell's pair
    (see `Candidates`): per ruleset, as the rows and points are."""

    def build() -> tuple[IntArray, FloatArray, IntArray]:
        rows, points = _stand(request_plan(ruleset), ruleset, first_throw)
        cells = np.stack([rows.ravel().astype(np.float64), points.ravel()], axis=1)
        unique, inverse = np.unique(cells, axis=0, return_inverse=True)
        pair_rows: IntArray = unique[:, 0].astype(np.int64)
        pair_points: FloatArray = unique[:, 1].copy()
        pair_of: IntArray = inverse.reshape(rows.shape).astype(np.int64)
        return pair_rows, pair_points, pair_of

    return _PAIRS.get((ruleset.rules_hash, first_throw), build)


def _stand(plan: RequestPlan, ruleset: Ruleset, first_throw: bool) -> tuple[IntArray, FloatArray]:
    """The next-state row and points of each (box, throw), for the dice of the first throw
    or of a later one."""
    if not first_throw:
        return plan.stand_rows, plan.stand_points
    table = points_table(ruleset)
    rows = plan.stand_rows.copy()
    points = plan.stand_points.copy()
    upper = set(ruleset.upper_indices)
    five = ruleset.five_box_index if ruleset.five_of_a_kind is not None else None
    for b in range(len(ruleset.boxes)):
        if b in upper:
            continue
        points[b] = table.natural[1][b]
        if b == five:
            top = plan.stand_rows[b][table.natural[0][b] == ruleset.five_box_top]
            top_row = int(top[0]) if len(top) else int(plan.stand_rows[b].max()) - 1
            rows[b] = np.where(table.natural[1][b] == ruleset.five_box_top, top_row, top_row + 1)
    return rows, points


def multiplied(ruleset: Ruleset) -> bool:
    """The first throw's dice score otherwise than a later throw's (russian-poker)."""
    table = points_table(ruleset)
    return not np.array_equal(table.natural[0], table.natural[1])


# ---------------------------------------------------------------------------------------
# Win probabilities


def stand_win(win: Bands, cand: Candidates, needs: IntArray) -> FloatArray:
    """(252, len(needs)): the best chance to reach each need when the turn ends on each
    throw (the need is counted before the placement's points)."""
    legal = cand.legal()
    if len(needs) == 1:  # one request's need: each distinct (next state, points) looked up
        allowed = np.isfinite(cand.pair_shift)
        shift = np.where(allowed, cand.pair_shift, 0.0).astype(np.int64)
        pair = np.where(allowed, win.lookup(cand.pair_succ, int(needs[0]) - shift), NEG)
        out1: FloatArray = pair[cand.pair_of].max(axis=0)[:, None]
        _five_rows(win, cand, needs, out1)
        return out1
    b_idx, t_idx = np.nonzero(legal)
    succ = cand.succ[b_idx, t_idx]
    shift = cand.shift[b_idx, t_idx].astype(np.int64)
    key = succ * (1 << 20) + (shift + (1 << 19))
    unique, inverse = np.unique(key, return_inverse=True)
    u_succ = unique >> 20
    u_shift = (unique & ((1 << 20) - 1)) - (1 << 19)
    got = win.lookup(u_succ[:, None], needs[None, :] - u_shift[:, None])
    every = np.full((legal.size, len(needs)), NEG)
    every[np.flatnonzero(legal.ravel())] = got[inverse.ravel()]
    out: FloatArray = every.reshape(*legal.shape, len(needs)).max(axis=0)
    _five_rows(win, cand, needs, out)
    return out


def _five_rows(win: Bands, cand: Candidates, needs: IntArray, out: FloatArray) -> None:
    """The five-of-a-kind throws the Joker or the extra bonus overrides (`Candidates`)."""
    for t, tiers in cand.fives.items():
        out[t] = NEG
        for tier in tiers:
            if not tier:
                continue
            s = np.array([c[0] for c in tier], dtype=np.int64)
            p = np.array([c[1] for c in tier], dtype=np.int64)
            out[t] = win.lookup(s[:, None], needs[None, :] - p[:, None]).max(axis=0)
            break


def turn_start(
    ruleset: Ruleset,
    later: FloatArray,
    first: FloatArray | None,
) -> FloatArray:
    """A turn's value from its start: the first throw's chance-weighted best of standing
    (`first`, where the first throw scores otherwise) and keeping, from the values of
    standing after a later throw (`later`, 252 rows)."""
    rounds = ruleset.throws_per_turn - 1
    tr = keep_transitions()
    if rounds == 0:
        best = first if first is not None else later
    else:
        turn = RequestTurn(rounds, later)
        turn.keeps_with(rounds)
        best = turn.after if first is None else np.maximum(turn.after, first)
    weights = tr.throw_probability if best.ndim == 1 else tr.throw_probability[:, None]
    out: FloatArray = (best * weights).sum(axis=0)
    return out


def win_turn(
    ruleset: Ruleset, win: Bands, mask: int, sub: int, flag: int, need: int
) -> RequestTurn:
    """One turn for a request under target play: `keeps_with(throws_left)` gives each keep's
    chance to reach `need` more points (KEEPS order), as `RequestTurn` does for points."""
    cand = candidates(ruleset, mask, sub, flag)
    later = stand_win(win, cand, np.array([need], dtype=np.int64))[:, 0]
    return RequestTurn(ruleset.throws_per_turn - 1, later)


def _band_bounds(win: Bands, cands: list[Candidates]) -> tuple[int, int]:
    """Needs below `lo` are reached for sure and from `hi` never, whatever the throws: every
    candidate's next state is sure (or hopeless) there."""
    lo, hi = None, None
    for cand in cands:
        legal = cand.legal()
        pairs = [(cand.succ[legal], cand.shift[legal])]
        for tiers in cand.fives.values():
            for tier in tiers:
                if tier:
                    pairs.append((np.array([c[0] for c in tier]), np.array([c[1] for c in tier])))
        for succ, shift in pairs:
            low = int((win.lo[succ] + shift).min())
            high = int((win.hi[succ] + shift).max())
            lo = low if lo is None else min(lo, low)
            hi = high if hi is None else max(hi, high)
    assert lo is not None and hi is not None
    return lo, hi


def _trim(values: FloatArray, lo: int, below: float) -> tuple[int, FloatArray]:
    """Drop the values within EPS of `below` at the band's start and within EPS of 0 at its
    end; returns the new start and the values kept."""
    head = np.flatnonzero(np.abs(values - below) > EPS)
    if not len(head):  # all `below`: a win table's sure band ends where it ends
        return (lo + len(values), values[:0]) if below else (lo, values[:0])
    a = int(head[0])
    tail = np.flatnonzero(values[a:] > EPS)
    b = a + int(tail[-1]) + 1 if len(tail) else a
    return lo + a, values[a:b]


def layers(space: StateSpace, within: int = 0) -> list[list[tuple[int, int, int]]]:
    """Every reachable state as (mask, sub, flag), layer by layer, most boxes filled first
    (the order of backward induction: a turn fills one box).  With `within`, only the
    states whose filled boxes include those of `within` (every state a card with those
    boxes filled can reach)."""
    mask, sub, flag = space.all_states()
    if within:
        keep = (mask & within) == within
        mask, sub, flag = mask[keep], sub[keep], flag[keep]
    layer_of = np.searchsorted(popcount(mask), np.arange(space.n_boxes + 2))
    out = []
    for filled in range(space.n_boxes, -1, -1):
        part = slice(int(layer_of[filled]), int(layer_of[filled + 1]))
        out.append(
            list(zip(mask[part].tolist(), sub[part].tolist(), flag[part].tolist(), strict=True))
        )
    return out


def assemble(size: int, bands: list[tuple[int, int, FloatArray]], below: float) -> BandTable:
    """A table over the state index from (index, first n stored, band) per state; a state
    not listed has no band."""
    lo = np.zeros(size, dtype=np.int64)
    hi = np.zeros(size, dtype=np.int64)
    start = np.zeros(size, dtype=np.int64)
    at = 0
    for i, first, band in bands:
        lo[i], hi[i], start[i] = first, first + len(band), at
        at += len(band)
    values = np.concatenate([band for *_, band in bands]) if bands else np.zeros(0)
    return BandTable(lo, hi, start, values, below)


def _solve_bands(
    ruleset: Ruleset,
    below: float,
    state_band: Callable[[BandTable, int, int, int], tuple[int, FloatArray]],
    progress: Progress | None,
    within: int = 0,
) -> BandTable:
    """Backward over the layers (`layers`): each state's band from the bands of the states
    its turn leads to (`state_band`); the others have no band."""
    space = state_space(ruleset)
    full = (1 << space.n_boxes) - 1
    solved: list[tuple[int, int, FloatArray]] = []
    table = assemble(space.size, solved, below)
    every = layers(space, within)
    done, todo = 0, sum(map(len, every))
    for states in every:
        for m, s, f in states:
            i = space.index_one(m, s, f)
            if m == full:  # nothing more to come: 0 points for sure
                solved.append((i, 0, np.ones(1)) if below == 0.0 else (i, 1, np.zeros(0)))
            else:
                solved.append((i, *state_band(table, m, s, f)))
        table = assemble(space.size, solved, below)
        done += len(states)
        if progress is not None:
            progress(done, todo)
    return table


def solve_win(ruleset: Ruleset, progress: Progress | None = None, within: int = 0) -> BandTable:
    """The win table, state by state in numpy (the reference that the service's compiled
    solve, `win_solve.win_layers`, is held to): from every state, the best chance that the
    points still to come reach n, for every n of the state's band (1 below it, 0 from its
    end); with `within`, of the states a card with those boxes filled can reach."""
    first_differs = multiplied(ruleset)

    def state_band(win: BandTable, mask: int, sub: int, flag: int) -> tuple[int, FloatArray]:
        cand = candidates(ruleset, mask, sub, flag)
        cand_first = candidates(ruleset, mask, sub, flag, True) if first_differs else None
        lo, hi = _band_bounds(win, [cand] if cand_first is None else [cand, cand_first])
        needs = np.arange(lo, hi, dtype=np.int64)
        later = stand_win(win, cand, needs)
        first = stand_win(win, cand_first, needs) if cand_first is not None else None
        return _trim(turn_start(ruleset, later, first), lo, 1.0)

    return _solve_bands(ruleset, 1.0, state_band, progress, within)


# ---------------------------------------------------------------------------------------
# The distribution of the final total under expected-points play

TIE = 1e-9  # options whose expected totals differ by less are tied (docs/solver.md, tie rule)


TIE_WIN = 1e-12  # win probabilities closer than this are tied (target play, tie rule)


def _choice(
    values: FloatArray, cand: Candidates, win: Bands | None, need: int
) -> tuple[FloatArray, FloatArray, IntArray, IntArray]:
    """The placement for every throw: expected-points play's (`win` None), or target play's
    (the best chance to reach `need` first, ties by expected total).  Returns each throw's
    chance (0 without `win`), expected total, next state and points; ties go to the first box
    in scorecard order (the first candidate of a Joker tier)."""
    legal = cand.legal()
    shift = np.where(legal, cand.shift, 0.0)
    ev = np.where(legal, values[cand.succ] + shift, NEG)
    if win is not None:
        chance = np.where(legal, win.lookup(cand.succ, need - shift.astype(np.int64)), NEG)
        ev = np.where(chance >= chance.max(axis=0) - TIE_WIN, ev, NEG)
    best = ev.max(axis=0)
    b = np.argmax(ev >= best - TIE, axis=0)
    cols = np.arange(N_THROWS)
    succ, points = cand.succ[b, cols].copy(), cand.shift[b, cols].astype(np.int64)
    top = chance[b, cols] if win is not None else np.zeros(N_THROWS)
    choose_fives(values, cand.fives, win, need, top, best, succ, points)
    return top, best, succ, points


def choose_fives(
    values: FloatArray,
    fives: dict[int, list[list[tuple[int, float]]]],
    win: Bands | None,
    need: int,
    top: FloatArray,
    best: FloatArray,
    succ: IntArray,
    points: IntArray,
) -> None:
    """`_choice` on the five-of-a-kind throws `fives` overrides (`Candidates.fives`), in
    place: each throw's chance, expected total, next state and points."""
    for t, tiers in fives.items():
        tier = next((tier for tier in tiers if tier), None)
        if tier is None:
            best[t] = top[t] = NEG
            continue
        evs = [float(values[c[0]]) + c[1] for c in tier]
        ch = [0.0] * len(tier)
        if win is not None:  # one lookup for the tier: the decoder called once
            nexts = np.array([c[0] for c in tier], dtype=np.int64)
            gains = np.array([int(c[1]) for c in tier], dtype=np.int64)
            ch = win.lookup(nexts, need - gains).tolist()
        options = [
            (c, e, w) for c, e, w in zip(tier, evs, ch, strict=True) if w >= max(ch) - TIE_WIN
        ]
        high = max(e for _, e, _ in options)
        pick, e, w = next(o for o in options if o[1] >= high - TIE)
        best[t], top[t], succ[t], points[t] = e, w, pick[0], int(pick[1])


@dataclass(frozen=True)
class TurnEnds:
    """Where a turn ends: next state, points, probability."""

    succ: IntArray
    shift: IntArray
    probability: FloatArray


def turn_ends(
    ruleset: Ruleset,
    values: FloatArray,
    mask: int,
    sub: int,
    flag: int,
    mass: FloatArray,
    throws_left: int,
    win: Bands | None = None,
    need: int = 0,
    cands: list[Candidates] | None = None,
) -> TurnEnds:
    """Follow the play from dice spread as `mass` over the 252 throws with `throws_left`
    throws to come (all of them: the turn's start): expected-points play, or with `win`
    target play for `need` more points (the best chance first, ties by expected total).
    Each throw keeps its best keep (ties: the most dice kept), and the last throw (or a
    first throw that scores otherwise and is better placed at once; ties: placed) fills its
    best box.  `cands`: the state's `turn_candidates`, when the caller has them."""
    rounds = ruleset.throws_per_turn - 1
    cands = cands or turn_candidates(ruleset, mask, sub, flag)
    later_w, later_ev, later_succ, later_shift = _choice(values, cands[0], win, need)
    first = throws_left == rounds and multiplied(ruleset)
    ends: list[tuple[IntArray, IntArray, FloatArray]] = []
    mass = mass.copy()
    if first:
        first_w, first_ev, first_succ, first_shift = _choice(values, cands[1], win, need)
    if throws_left:
        tr = keep_transitions()
        segment = tr.throw_of_sub
        turn = RequestTurn(rounds, later_ev)
        chances = RequestTurn(rounds, later_w) if win is not None else None
        for left in range(throws_left, 0, -1):
            vals = turn.keeps_with(left)[tr.sub_keeps]
            if chances is not None:  # only the keeps with the best chance compete
                w_vals = chances.keeps_with(left)[tr.sub_keeps]
                w_top = np.maximum.reduceat(w_vals, tr.sub_starts)
                vals = np.where(w_vals >= w_top[segment] - TIE_WIN, vals, NEG)
            top = np.maximum.reduceat(vals, tr.sub_starts)
            # the last keep within TIE of the best in each throw's list (most dice kept)
            tied = np.flatnonzero(vals >= top[segment] - TIE)
            chosen = np.zeros(N_THROWS, dtype=np.int64)
            chosen[segment[tied]] = tr.sub_keeps[tied]
            if first and left == throws_left:
                if chances is not None:
                    stand = (first_w > w_top + TIE_WIN) | (
                        (first_w >= w_top - TIE_WIN) & (first_ev >= top - TIE)
                    )
                else:
                    stand = first_ev >= top - TIE
                ends.append((first_succ[stand], first_shift[stand], mass[stand]))
                mass[stand] = 0.0
            keep_mass = np.bincount(chosen, weights=mass, minlength=len(tr.starts))
            mass = np.bincount(
                tr.throw_of, weights=keep_mass[tr.keep_of] * tr.probability, minlength=N_THROWS
            ).astype(np.float64)
        ends.append((later_succ, later_shift, mass))
    elif first:
        ends.append((first_succ, first_shift, mass))
    else:
        ends.append((later_succ, later_shift, mass))
    succ = np.concatenate([e[0] for e in ends])
    shift = np.concatenate([e[1] for e in ends])
    weight = np.concatenate([e[2] for e in ends])
    some = weight > 0
    key = succ[some] * (1 << 20) + (shift[some] + (1 << 19))
    unique, inverse = np.unique(key, return_inverse=True)
    return TurnEnds(
        unique >> 20,
        (unique & ((1 << 20) - 1)) - (1 << 19),
        np.bincount(inverse.ravel(), weights=weight[some], minlength=len(unique)).astype(
            np.float64
        ),
    )


def mix(dist: Bands, ends: TurnEnds) -> tuple[int, FloatArray]:
    """The distribution of the points still to come after the turn's ends: the next
    states' distributions shifted by the points and weighted by their chance."""
    lo = int((dist.lo[ends.succ] + ends.shift).min())
    hi = int((dist.hi[ends.succ] + ends.shift).max())
    ks = np.arange(lo, hi, dtype=np.int64)
    rows = dist.lookup(ends.succ[:, None], ks[None, :] - ends.shift[:, None])
    out: FloatArray = ends.probability @ rows
    return lo, out


def solve_distribution(
    ruleset: Ruleset, values: FloatArray, progress: Progress | None = None, within: int = 0
) -> BandTable:
    """The distribution table: from every state, the chance of each number of points still
    to come under expected-points play (`values`: the ruleset's value table)."""
    start = keep_transitions().throw_probability
    rounds = ruleset.throws_per_turn - 1

    def state_band(dist: BandTable, mask: int, sub: int, flag: int) -> tuple[int, FloatArray]:
        lo, band = mix(dist, turn_ends(ruleset, values, mask, sub, flag, start, rounds))
        return _trim(band, lo, 0.0)

    return _solve_bands(ruleset, 0.0, state_band, progress, within)


@dataclass(frozen=True)
class FinalDistribution:
    """P(final total = first + i) = probabilities[i].  `moments`: the exact mean and
    variance where the table gives them (the probabilities are each within 6e-8, so their
    own mean is within the band's width times that)."""

    first: int
    probabilities: FloatArray
    moments: tuple[float, float] | None = None

    @property
    def totals(self) -> IntArray:
        return np.arange(self.first, self.first + len(self.probabilities), dtype=np.int64)

    @property
    def mean(self) -> float:
        if self.moments is not None:
            return self.moments[0]
        return float(self.probabilities @ self.totals)

    @property
    def sd(self) -> float:
        if self.moments is not None:
            return float(np.sqrt(max(0.0, self.moments[1])))
        d = self.totals - self.mean
        return float(np.sqrt(max(0.0, float(self.probabilities @ (d * d)))))

    def quantile(self, q: float) -> int:
        """The least total t with P(final <= t) >= q (q in (0, 1])."""
        cdf = np.cumsum(self.probabilities)
        return self.first + int(np.searchsorted(cdf, q * cdf[-1] - 1e-12))

    def at_least(self, total: int) -> float:
        i = max(0, total - self.first)
        return float(self.probabilities[i:].sum())


def final_distribution(
    ruleset: Ruleset,
    values: FloatArray,
    dist: Bands,
    mask: int,
    sub: int,
    flag: int,
    total: int,
    dice: tuple[int, ...] | None = None,
    throws_left: int = 0,
) -> FinalDistribution:
    """The final total's distribution under expected-points play from a card (its state
    and total), at the start of its next turn, or with `dice` and `throws_left` to come."""
    space = state_space(ruleset)
    if dice is None:
        i = space.index_one(mask, sub, flag)
        lo, hi = int(dist.lo[i]), int(dist.hi[i])
        ends = TurnEnds(np.array([i]), np.zeros(1, dtype=np.int64), np.ones(1))
        lo, band = _trim(dist.row(i, lo, hi), lo, 0.0)  # a stored band's ends may read 0
        return FinalDistribution(total + lo, band, _moments(dist, ends, total))
    mass = np.zeros(N_THROWS)
    mass[throw_index(dice)] = 1.0
    ends = turn_ends(ruleset, values, mask, sub, flag, mass, throws_left)
    lo, band = mix(dist, ends)
    lo, band = _trim(band, lo, 0.0)
    return FinalDistribution(total + lo, band, _moments(dist, ends, total))


def _moments(dist: Bands, ends: TurnEnds, total: int) -> tuple[float, float]:
    """The final total's exact mean and variance after the turn's ends, from the next
    states' moments: E[q + R] and E[(q + R)**2] for each end's points q."""
    first, second = dist.mean_and_second(ends.succ)
    q = ends.shift.astype(np.float64)
    mean = float(ends.probability @ (q + first))
    square = float(ends.probability @ (q * q + 2 * q * first + second))
    return total + mean, square - mean * mean


# A target-play distribution follows every (state, need) pair its play reaches while the
# target is still open (the turn's chance strictly between 0 and 1); each costs a turn's
# evaluation, so a request follows at most this many (docs/solver.md: what that reaches).
MAX_OPEN_TURNS = 300


class TooManyTurns(ValueError):
    """The card is too far from its end to follow target play turn by turn in a request."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"target play from this card passes more than {limit} undecided turns; "
            "the distribution under target play is given for cards nearer their end"
        )
        self.limit = limit


def turn_candidates(ruleset: Ruleset, mask: int, sub: int, flag: int) -> list[Candidates]:
    """A state's turn's candidates: for a later throw's dice, then (in a game whose first
    throw scores otherwise) for the first throw's."""
    cands = [candidates(ruleset, mask, sub, flag)]
    if multiplied(ruleset):
        cands.append(candidates(ruleset, mask, sub, flag, True))
    return cands


def target_distribution(
    ruleset: Ruleset,
    values: FloatArray,
    win: Bands,
    dist: Bands,
    mask: int,
    sub: int,
    flag: int,
    total: int,
    target: int,
    dice: tuple[int, ...] | None = None,
    throws_left: int = 0,
    limit: int = MAX_OPEN_TURNS,
) -> FinalDistribution:
    """The final total's distribution under target play for `target` (docs/solver.md, tie
    rule: where every placement the turn may end on is sure to reach the target, or every
    one is hopeless, options tie on their chance and the play maximises expected points
    from there on, whose distribution the table holds)."""
    space = state_space(ruleset)
    full = (1 << space.n_boxes) - 1
    parts: list[tuple[int, FloatArray]] = []  # (first total, probabilities times their mass)
    frontier: dict[int, dict[int, float]] = {}
    order: list[tuple[int, int]] = []  # (boxes filled, state index), popped in that order
    start = keep_transitions().throw_probability
    rounds = ruleset.throws_per_turn - 1

    def state_of(index: int) -> tuple[int, int, int]:
        rest, f = divmod(index, space.n_flag)
        m, s = divmod(rest, space.n_sub)
        return m, s + space.sub_low, f

    def reach(index: int, need: int, mass: float) -> None:
        needs = frontier.get(index)
        if needs is None:
            needs = frontier[index] = {}
            heapq.heappush(order, (bin(state_of(index)[0]).count("1"), index))
        needs[need] = needs.get(need, 0.0) + mass

    def follow(need: int, mass: float, ends: TurnEnds) -> None:
        for succ, points, p in zip(
            ends.succ.tolist(), ends.shift.tolist(), ends.probability.tolist(), strict=True
        ):
            reach(int(succ), need - int(points), mass * p)

    need0 = target - total
    i0 = space.index_one(mask, sub, flag)
    if dice is None:
        reach(i0, need0, 1.0)
    else:
        first = np.zeros(N_THROWS)
        first[throw_index(dice)] = 1.0
        turn = turn_candidates(ruleset, mask, sub, flag)
        # sure below lo0, hopeless from hi0, for every placement of every throw
        lo0, hi0 = _band_bounds(win, turn)
        open_target = lo0 <= need0 < hi0
        ends = turn_ends(
            ruleset,
            values,
            mask,
            sub,
            flag,
            first,
            throws_left,
            win if open_target else None,
            need0,
            turn,
        )
        follow(need0, 1.0, ends)
    followed = 0
    while order:
        _, index = heapq.heappop(order)
        m, s, f = state_of(index)
        lo, hi = int(dist.lo[index]), int(dist.hi[index])
        turn = turn_candidates(ruleset, m, s, f) if m != full else []
        sure, hopeless = _band_bounds(win, turn) if turn else (0, 0)
        for need, mass in sorted(frontier.pop(index).items()):
            if m == full:
                parts.append((target - need, np.array([mass])))
            elif sure <= need < hopeless:
                followed += 1
                if followed > limit:
                    raise TooManyTurns(limit)
                ends = turn_ends(ruleset, values, m, s, f, start, rounds, win, need, turn)
                follow(need, mass, ends)
            else:  # decided: expected-points play from here
                parts.append((target - need + lo, mass * dist.row(index, lo, hi)))
    first_total = min(p[0] for p in parts)
    end = max(p[0] + len(p[1]) for p in parts)
    out = np.zeros(end - first_total)
    for at, probabilities in parts:
        out[at - first_total : at - first_total + len(probabilities)] += probabilities
    kept_from, kept = _trim(out, first_total, 0.0)
    return FinalDistribution(kept_from, kept)


__all__ = [
    "BandTable",
    "Candidates",
    "FinalDistribution",
    "candidates",
    "final_distribution",
    "solve_distribution",
    "solve_win",
    "target_distribution",
    "win_turn",
]
