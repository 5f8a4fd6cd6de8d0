"""Play to win by exhaustive recursion: what the win and distribution tables are held to.

A card with a few open boxes is small enough to play out completely: every turn start
(boxes filled, raw upper subtotal, five-of-a-kind box holds its top score), every throw of
the turn and every keep.  It reads the rules' points table and the ruleset's rules and
nothing of the solver: the order, the Joker readings, the extra and the upper bonus and
russian-poker's first throw are written out once more here, box by box, in the spirit of
`reference_solver.py`.  Three recursions share one turn: the best chance to reach each
number of points still to come, the expected points under expected-points play, and the
exact distribution of the points still to come under that play (its tie rule included).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np

from diceref.core.arrays import FloatArray
from diceref.core.dice import THROWS
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Joker, Order, Ruleset

Dice = tuple[int, ...]
TIE = 1e-9  # expected totals closer than this are tied (the tie rule of docs/solver.md)


class State(NamedTuple):
    mask: int  # boxes filled
    sub: int  # the raw upper subtotal
    flag: int  # the five-of-a-kind box holds its top score


class Placement(NamedTuple):
    box: int
    points: int
    upper_bonus: int
    extra_bonus: int
    after: State

    @property
    def gain(self) -> int:
        return self.points + self.upper_bonus + self.extra_bonus


@dataclass(frozen=True)
class Dice5:
    """Throws and keeps, built here: keeps sorted by (number of dice, dice), `chance[k, t]`
    the chance that keep k rerolled shows throw t, `subs[t]` the keeps a throw allows."""

    throws: list[Dice]
    keeps: list[Dice]
    chance: FloatArray
    subs: list[list[int]]
    padded: np.ndarray  # subs as one (throws, 32) array, each row padded with its first keep


@cache
def dice5() -> Dice5:
    throws = sorted({tuple(sorted(d)) for d in itertools.product(range(1, 7), repeat=5)})
    keeps = sorted(
        {tuple(sorted(k)) for n in range(6) for k in itertools.product(range(1, 7), repeat=n)},
        key=lambda k: (len(k), k),
    )
    throw_at = {t: i for i, t in enumerate(throws)}
    keep_at = {k: i for i, k in enumerate(keeps)}
    chance = np.zeros((len(keeps), len(throws)))
    for i, keep in enumerate(keeps):
        rolls = list(itertools.product(range(1, 7), repeat=5 - len(keep)))
        for roll in rolls:
            chance[i, throw_at[tuple(sorted(keep + roll))]] += 1.0 / len(rolls)
    subs = [
        sorted({keep_at[tuple(sorted(c))] for n in range(6) for c in itertools.combinations(t, n)})
        for t in throws
    ]
    width = max(len(x) for x in subs)
    padded = np.array([x + [x[0]] * (width - len(x)) for x in subs], dtype=np.intp)
    return Dice5(throws, keeps, chance, subs, padded)


@dataclass(frozen=True)
class Band:
    """f(n) = values[n - lo] on the band, `below` under it, 0 above it."""

    lo: int
    values: FloatArray
    below: float

    def read(self, n: FloatArray | np.ndarray) -> FloatArray:
        i = np.asarray(n) - self.lo
        got = np.concatenate(([self.below], self.values, [0.0]))
        out: FloatArray = got[np.minimum(np.maximum(i + 1, 0), len(self.values) + 1)]
        return out


@dataclass
class Turn:
    """One turn from its start, per throw number j (1 to throws per turn): `after[j]` the
    value with throw j's dice showing, `keeps[j]` each keep's value rerolled after throw j."""

    after: dict[int, FloatArray]
    keeps: dict[int, FloatArray]
    start: FloatArray


class BruteForce:
    """The three recursions for one ruleset (memoized per turn start)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        table = points_table(ruleset)
        d = dice5()
        self.d = d
        order = [THROWS.index(t) for t in d.throws]  # the points table's columns
        # points[first][box][throw], joker[box][throw], in this module's throw order
        self.points = [[[int(v) for v in row[order]] for row in table.natural[f]] for f in (0, 1)]
        self.joker = [[int(v) for v in row[order]] for row in table.joker]
        self.n = len(ruleset.boxes)
        self.upper = list(ruleset.upper_indices)
        self.lower = list(ruleset.lower_indices)
        every = [self.points[0][b] + self.points[1][b] + self.joker[b] + [0] for b in range(self.n)]
        self.least = [min(v) for v in every]
        self.most = [max(v) for v in every]
        self.first_differs = self.points[0] != self.points[1]
        self.throws = ruleset.throws_per_turn
        self.win_memo: dict[State, Band] = {}
        self.ev_memo: dict[State, float] = {}
        self.dist_memo: dict[State, Band] = {}
        self.placement_memo: dict[tuple[State, int, bool], list[Placement]] = {}

    # ---- the rules, box by box

    def state_of(self, boxes: Mapping[str, int]) -> State:
        r = self.ruleset
        mask = sum(1 << r.box_index[b] for b in boxes)
        sub = sum(v for b, v in boxes.items() if r.box_index[b] in self.upper)
        rule = r.five_of_a_kind
        flag = 0
        if rule is not None:
            five = r.box_index[rule.box]
            flag = int(boxes.get(rule.box) == r.boxes[five].fixed)
        return State(mask, sub, flag)

    def secured(self, mask: int, sub: int) -> bool:
        """No open upper box can take the bonus away any more."""
        worst = sub + sum(self.least[b] for b in self.upper if not mask >> b & 1)
        return self.ruleset.upper_bonus.reached(worst)

    def fillable(self, mask: int) -> list[int]:
        open_boxes = [b for b in range(self.n) if not mask >> b & 1]
        order = self.ruleset.order
        if order is Order.FORCED:
            return open_boxes[:1]
        if order is Order.SERIES:
            upper_open = [b for b in open_boxes if b in self.upper]
            return upper_open or open_boxes
        return open_boxes

    def placements(self, s: State, throw: int, first: bool) -> list[Placement]:
        """Every legal box for the dice `self.d.throws[throw]`, in scorecard order (the
        dice from the turn's first throw if `first`)."""
        key = (s, throw, first)
        if key not in self.placement_memo:
            self.placement_memo[key] = self._placements(s, throw, first)
        return self.placement_memo[key]

    def _placements(self, s: State, throw: int, first: bool) -> list[Placement]:
        r = self.ruleset
        dice = self.d.throws[throw]
        fillable = self.fillable(s.mask)
        natural = [(b, self.points[int(first)][b][throw]) for b in fillable]
        options = natural
        extra = 0
        rule = r.five_of_a_kind
        if rule is not None and len(set(dice)) == 1:
            five = r.box_index[rule.box]
            used = bool(s.mask >> five & 1)
            if used and s.flag:
                extra = rule.extra_bonus
            if rule.joker is not Joker.NONE and used and (s.flag or rule.joker_when_scratched):
                matching = r.upper_box_of_face[dice[0]]
                joker = [(b, self.joker[b][throw]) for b in fillable]
                if not s.mask >> matching & 1:
                    if rule.matching_upper_forced:
                        options = [(b, p) for b, p in joker if b == matching]
                elif rule.joker is Joker.FORCED:
                    lower = [(b, p) for b, p in joker if b in self.lower]
                    options = lower or [(b, p) for b, p in joker if b in self.upper]
                else:
                    options = joker
        out = []
        had = self.secured(s.mask, s.sub)
        for b, p in options:
            mask = s.mask | 1 << b
            sub = s.sub + p if b in self.upper else s.sub
            bonus = r.upper_bonus.points if not had and self.secured(mask, sub) else 0
            five_top = rule is not None and b == r.box_index[rule.box] and p == r.boxes[b].fixed
            out.append(Placement(b, p, bonus, extra, State(mask, sub, 1 if five_top else s.flag)))
        return out

    def bounds(self, s: State) -> tuple[int, int]:
        """Least and most points still to come, whatever the play."""
        open_boxes = [b for b in range(self.n) if not s.mask >> b & 1]
        lo = sum(self.least[b] for b in open_boxes)
        hi = sum(self.most[b] for b in open_boxes)
        if not self.secured(s.mask, s.sub):
            hi += self.ruleset.upper_bonus.points
        rule = self.ruleset.five_of_a_kind
        if rule is not None:
            hi += rule.extra_bonus * len(open_boxes)
        return lo, hi

    def full(self, s: State) -> bool:
        return s.mask == (1 << self.n) - 1

    # ---- one turn, best play: max over boxes and keeps, expectation over the dice

    def stand_rows(
        self, value: Callable[[Placement], FloatArray], s: State, first: bool
    ) -> FloatArray:
        """Per throw, the best placement's value (`value` is read once per next state and
        points: most throws share them)."""
        seen: dict[tuple[State, int], int] = {}
        read: list[FloatArray] = []
        picks: list[list[int]] = []
        for t in range(len(self.d.throws)):
            options = self.placements(s, t, first)
            assert options, f"no legal box for {self.d.throws[t]} from {s}"
            pick = []
            for p in options:
                key = (p.after, p.gain)
                if key not in seen:
                    seen[key] = len(read)
                    read.append(value(p))
                pick.append(seen[key])
            picks.append(pick)
        width = max(len(p) for p in picks)
        padded = np.array([p + [p[0]] * (width - len(p)) for p in picks], dtype=np.intp)
        rows: FloatArray = np.array(read)[padded].max(axis=1)
        return rows

    def best_keep(self, keeps: FloatArray) -> FloatArray:
        """Per throw, the best of the keeps its dice allow."""
        out = keeps[self.d.padded[:, 0]].copy()
        for c in range(1, self.d.padded.shape[1]):
            np.maximum(out, keeps[self.d.padded[:, c]], out=out)
        return out

    def best_turn(self, value: Callable[[Placement], FloatArray], s: State) -> Turn:
        later = self.stand_rows(value, s, first=self.throws == 1)
        first = self.stand_rows(value, s, True) if self.first_differs and self.throws > 1 else None
        after = {self.throws: later}
        keeps: dict[int, FloatArray] = {}
        for j in range(self.throws - 1, 0, -1):
            keeps[j] = self.d.chance @ after[j + 1]
            after[j] = self.best_keep(keeps[j])
            if j == 1 and first is not None:
                after[j] = np.maximum(after[j], first)
        return Turn(after, keeps, self.d.chance[0] @ after[1])

    # ---- (a) the best chance to reach n more points

    def win_band(self, s: State) -> Band:
        if s not in self.win_memo:
            if self.full(s):
                self.win_memo[s] = Band(1, np.zeros(1), 1.0)  # 0 points to come: n <= 0
            else:
                self.win_memo[s] = Band(self.bounds(s)[0], self.win_turn(s).start, 1.0)
        return self.win_memo[s]

    def win_turn(self, s: State) -> Turn:
        lo, hi = self.bounds(s)
        needs = np.arange(lo, hi + 2)
        return self.best_turn(lambda p: self.win_band(p.after).read(needs - p.gain), s)

    def win(self, s: State, need: int) -> float:
        return float(self.win_band(s).read(np.array([need]))[0])

    def win_keeps(self, s: State, need: int, throws_left: int) -> dict[Dice, float]:
        """Each keep's chance to reach `need` more points, rerolled with `throws_left`
        throws to come (counting this reroll)."""
        lo, _ = self.bounds(s)
        keeps = self.win_turn(s).keeps[self.throws - throws_left]
        at = min(max(need - lo, 0), keeps.shape[1] - 1)
        return {k: float(keeps[i, at]) for i, k in enumerate(self.d.keeps)}

    # ---- (b) expected-points play: its values, then the distribution it gives

    def expected(self, s: State) -> float:
        if s not in self.ev_memo:
            if self.full(s):
                self.ev_memo[s] = 0.0
            else:
                turn = self.best_turn(lambda p: np.array([p.gain + self.expected(p.after)]), s)
                self.ev_memo[s] = float(turn.start[0])
        return self.ev_memo[s]

    def chosen(self, s: State, throw: int, first: bool) -> Placement:
        """Expected-points play's box: the first in scorecard order of the tied best."""
        options = self.placements(s, throw, first)
        evs = [p.gain + self.expected(p.after) for p in options]
        return next(p for p, e in zip(options, evs, strict=True) if e >= max(evs) - TIE)

    def dist_band(self, s: State) -> Band:
        if s not in self.dist_memo:
            if self.full(s):
                self.dist_memo[s] = Band(0, np.ones(1), 0.0)
            else:
                lo, _ = self.bounds(s)
                self.dist_memo[s] = Band(lo, self.d.chance[0] @ self.dist_turn(s)[1], 0.0)
        return self.dist_memo[s]

    def dist_turn(self, s: State) -> dict[int, FloatArray]:
        """Per throw number, the distribution (over the state's band) with each throw's
        dice showing, under expected-points play."""
        lo, hi = self.bounds(s)
        ks = np.arange(lo, hi + 1)

        seen: dict[tuple[State, int], FloatArray] = {}

        def stand(first: bool) -> tuple[FloatArray, FloatArray]:
            evs, rows = [], []
            for t in range(len(self.d.throws)):
                options = self.placements(s, t, first)
                evs.append(max(o.gain + self.expected(o.after) for o in options))
                p = self.chosen(s, t, first)
                if (p.after, p.gain) not in seen:
                    seen[p.after, p.gain] = self.dist_band(p.after).read(ks - p.gain)
                rows.append(seen[p.after, p.gain])
            return np.array(evs), np.array(rows)

        ev, dist = stand(self.throws == 1)
        after = {self.throws: dist}
        first = self.first_differs and self.throws > 1
        for j in range(self.throws - 1, 0, -1):
            keep_ev = self.d.chance @ ev
            keep_dist = self.d.chance @ after[j + 1]
            ev_now, rows = [], []
            first_ev, first_dist = stand(True) if first and j == 1 else (None, None)
            for t, subs in enumerate(self.d.subs):
                best = max(keep_ev[subs])
                if first_ev is not None and first_dist is not None and first_ev[t] >= best - TIE:
                    rows.append(first_dist[t])
                    ev_now.append(max(best, first_ev[t]))
                    continue
                # tied keeps: the most dice kept, then the last by dice (subs are sorted)
                pick = max(k for k in subs if keep_ev[k] >= best - TIE)
                rows.append(keep_dist[pick])
                ev_now.append(best)
            ev = np.array(ev_now)
            after[j] = np.array(rows)
        return after

    def distribution(
        self, s: State, dice: Dice | None = None, throws_left: int = 0
    ) -> dict[int, float]:
        """P(points still to come = k) under expected-points play, from the turn's start
        or with `dice` showing and `throws_left` throws to come."""
        band = self.dist_band(s)
        if dice is not None:
            if self.full(s):
                raise ValueError("a full card has no turn")
            row = self.dist_turn(s)[self.throws - throws_left][
                self.d.throws.index(tuple(sorted(dice)))
            ]
            band = Band(self.bounds(s)[0], row, 0.0)
        return {band.lo + i: float(p) for i, p in enumerate(band.values) if p > 0}
