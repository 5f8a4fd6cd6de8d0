"""What the future of a scorecard depends on, laid out as a dense array index.

A state is (filled boxes, upper subtotal, five-of-a-kind box holds 50).  The subtotal is
only kept while it can still change the bonus: once the bonus is secured it is stored at
the top of its range, once it can no longer be reached at the bottom.  That folding is
what keeps the tables small and is shared by the solver and by the lookups that serve a
request, so both always agree on where a card's value lives.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import IntArray
from diceref.core.cache import PerRuleset
from diceref.core.dice import N_THROWS, face_counts
from diceref.games.scorecard.rules.points import points_table, upper_extremes
from diceref.games.scorecard.rules.ruleset import Order, Ruleset


@dataclass(frozen=True)
class StateSpace:
    ruleset: Ruleset

    @cached_property
    def n_boxes(self) -> int:
        return len(self.ruleset.boxes)

    @cached_property
    def upper_bits(self) -> int:
        return sum(1 << i for i in self.ruleset.upper_indices)

    @cached_property
    def sub_low(self) -> int:
        upper_min, _ = upper_extremes(self.ruleset)
        return min(0, sum(upper_min.values()))

    @cached_property
    def sub_high(self) -> int:
        upper_min, upper_max = upper_extremes(self.ruleset)
        if min(upper_min.values()) >= 0:
            return self.ruleset.upper_bonus.target
        return max(self.ruleset.upper_bonus.target, sum(upper_max.values()))

    @cached_property
    def n_sub(self) -> int:
        return self.sub_high - self.sub_low + 1

    @cached_property
    def n_flag(self) -> int:
        return 1 if self.ruleset.five_of_a_kind is None else 2

    @cached_property
    def size(self) -> int:
        return (1 << self.n_boxes) * self.n_sub * self.n_flag

    def index(self, mask: IntArray, sub: IntArray, flag: IntArray) -> IntArray:
        """Flat position of states; `sub` is the raw upper subtotal (folded here)."""
        if len(mask) == 1:  # one request's state: plain ints beat numpy's per-call cost
            return np.array([self.index_one(int(mask[0]), int(sub[0]), int(flag[0]))])
        folded = self.fold(mask, sub)
        return (mask * self.n_sub + (folded - self.sub_low)) * self.n_flag + flag

    def index_one(self, mask: int, sub: int, flag: int) -> int:
        return (mask * self.n_sub + (self.fold_one(mask, sub) - self.sub_low)) * self.n_flag + flag

    def _per_box(self, points: dict[int, int]) -> IntArray:
        """`points` (upper box index -> points) as an array over every box, 0 elsewhere."""
        out = np.zeros(self.n_boxes, dtype=np.int64)
        for i, v in points.items():
            out[i] = v
        return out

    @cached_property
    def _upper_box_min(self) -> IntArray:
        return self._per_box(points_table(self.ruleset).upper_min)

    @cached_property
    def _upper_box_max(self) -> IntArray:
        return self._per_box(points_table(self.ruleset).upper_max)

    def _open_upper_table(self, per_box: IntArray) -> IntArray:
        """Sum of `per_box` over the open upper boxes, for every upper mask (2^6 entries)."""
        upper = self.ruleset.upper_indices
        table = np.zeros(1 << len(upper), dtype=np.int64)
        for bits in range(1 << len(upper)):
            table[bits] = sum(int(per_box[b]) for j, b in enumerate(upper) if not bits >> j & 1)
        return table

    @cached_property
    def _open_min(self) -> IntArray:
        return self._open_upper_table(self._upper_box_min)

    @cached_property
    def _open_max(self) -> IntArray:
        return self._open_upper_table(self._upper_box_max)

    @cached_property
    def _open_min_list(self) -> list[int]:
        """`_open_min` as Python ints, for one request's state (no numpy scalar lookups)."""
        return [int(v) for v in self._open_min]

    @cached_property
    def _open_max_list(self) -> list[int]:
        return [int(v) for v in self._open_max]

    def _upper_key(self, mask: IntArray) -> IntArray:
        """Compress the upper boxes' bits of `mask` to a 6-bit key (upper boxes come first)."""
        return mask & self._upper_all

    def secured(self, mask: IntArray, sub: IntArray) -> npt.NDArray[np.bool_]:
        if len(mask) == 1:
            worst = int(sub[0]) + int(self._open_min[int(mask[0]) & self._upper_all])
            return np.array([self.ruleset.upper_bonus.reached(worst)])
        return self._reached(sub + self._open_min[self._upper_key(mask)])

    def secured_one(self, mask: int, sub: int) -> bool:
        return self.ruleset.upper_bonus.reached(sub + self._open_min_list[mask & self._upper_all])

    @cached_property
    def _upper_all(self) -> int:
        """Mask of the upper boxes, which every scorecard lists first (checked here)."""
        upper = self.ruleset.upper_indices
        assert upper == tuple(range(len(upper))), "upper boxes must lead the scorecard"
        return (1 << len(upper)) - 1

    def hopeless(self, mask: IntArray, sub: IntArray) -> npt.NDArray[np.bool_]:
        return ~self._reached(sub + self._open_max[self._upper_key(mask)])

    def _reached(self, subtotal: IntArray) -> npt.NDArray[np.bool_]:
        bonus = self.ruleset.upper_bonus
        out: npt.NDArray[np.bool_] = (
            subtotal > bonus.threshold if bonus.strictly_greater else subtotal >= bonus.threshold
        )
        return out

    def fold(self, mask: IntArray, sub: IntArray) -> IntArray:
        out = np.where(self.secured(mask, sub), self.sub_high, sub)
        out = np.where(self.hopeless(mask, sub), self.sub_low, out)
        return np.clip(out, self.sub_low, self.sub_high)

    @cached_property
    def upper_points_by_count(self) -> dict[int, IntArray]:
        """Upper box index -> (6,) points for 0..5 dice of its face."""
        table = points_table(self.ruleset)
        fc = face_counts()
        out: dict[int, IntArray] = {}
        for i in self.ruleset.upper_indices:
            face = self.ruleset.boxes[i].face
            pts = np.zeros(6, dtype=np.int64)
            for t in range(N_THROWS):
                pts[fc[t, face - 1]] = table.natural[0][i, t]
            out[i] = pts
        return out

    def reachable_upper(self) -> list[tuple[int, int]]:
        """(upper mask, folded subtotal) pairs some sequence of turns can produce."""
        reach = self._reachable_upper
        keys, subs = np.nonzero(reach)
        return list(zip(keys.tolist(), (subs + self.sub_low).tolist(), strict=True))

    @cached_property
    def _reachable_upper(self) -> npt.NDArray[np.bool_]:
        """reach[upper mask, folded subtotal - sub_low]: filled mask by mask, in increasing
        order (filling a box only sets bits), each a whole-array step over its subtotals."""
        upper = self.ruleset.upper_indices
        reach = np.zeros((1 << len(upper), self.n_sub), dtype=bool)
        reach[0, self.fold_one(0, 0) - self.sub_low] = True
        # The distinct points each box can add (np.unique would import numpy.ma, to check
        # for a masked array: an import `diceref precompute` need not pay).
        points = {
            b: np.array(sorted(set(self.upper_points_by_count[b].tolist())), dtype=np.int64)
            for b in upper
        }
        for key in range(1 << len(upper)):
            subs = np.flatnonzero(reach[key]) + self.sub_low
            if not len(subs):
                continue
            for b in upper:
                if key >> b & 1:
                    continue
                new_key = key | 1 << b
                raw = (subs[:, None] + points[b][None, :]).ravel()
                folded = self.fold(np.full(len(raw), new_key, dtype=np.int64), raw)
                reach[new_key, folded - self.sub_low] = True
        return reach

    def fold_one(self, mask: int, sub: int) -> int:
        """`fold` for one state, without numpy's per-call overhead."""
        key = mask & self._upper_all
        bonus = self.ruleset.upper_bonus
        if bonus.reached(sub + self._open_min_list[key]):
            return self.sub_high
        if not bonus.reached(sub + self._open_max_list[key]):
            return self.sub_low
        return min(max(sub, self.sub_low), self.sub_high)

    def all_states(self) -> tuple[IntArray, IntArray, IntArray]:
        """Every reachable state as (mask, folded sub, flag), ordered by boxes filled, then
        mask, sub and flag (computed once per ruleset; read-only)."""
        mask, sub, flag, _ = self._states
        return mask, sub, flag

    @cached_property
    def _states(self) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        """Built in order, mask by mask, without a sort: each mask's block is the reachable
        subtotals of its upper boxes, times the flags it can have."""
        n_upper = len(self.ruleset.upper_indices)
        masks = np.arange(1 << self.n_boxes, dtype=np.int64)
        masks = masks[np.argsort(popcount(masks), kind="stable")]
        key = masks & self._upper_all
        reach = self._reachable_upper
        n_subs = reach.sum(axis=1)
        five = self.ruleset.five_box_index
        n_flags = np.ones_like(masks) if five is None else 1 + (masks >> five & 1)
        counts = n_subs[key] * n_flags
        if self.ruleset.series_order:  # no lower box before the upper boxes are full
            counts[(masks >> n_upper != 0) & (key != self.upper_bits)] = 0
        elif self.ruleset.order is Order.FORCED:  # the filled boxes are a leading run
            counts[(masks & (masks + 1)) != 0] = 0
        # the (sub, flag) patterns: per upper mask and number of flags, subs ascending and
        # flags innermost
        pattern_sub: list[IntArray] = []
        pattern_flag: list[IntArray] = []
        start = np.zeros((len(reach), 3), dtype=np.int64)
        at = 0
        for k in range(len(reach)):
            subs = np.flatnonzero(reach[k]) + self.sub_low
            for nf in (1, 2):
                start[k, nf] = at
                pattern_sub.append(np.repeat(subs, nf))
                pattern_flag.append(np.tile(np.arange(nf, dtype=np.int64), len(subs)))
                at += nf * len(subs)
        flat_sub, flat_flag = np.concatenate(pattern_sub), np.concatenate(pattern_flag)
        total = int(counts.sum())
        block_start = np.cumsum(counts) - counts
        within = np.arange(total, dtype=np.int64) - np.repeat(block_start, counts)
        src = np.repeat(start[key, n_flags], counts) + within
        mask, sub, flag = np.repeat(masks, counts), flat_sub[src], flat_flag[src]
        for array in (mask, sub, flag):
            array.setflags(write=False)
        per_layer = np.bincount(popcount(masks), weights=counts, minlength=self.n_boxes + 1)
        starts = np.concatenate([[0], np.cumsum(per_layer)]).astype(np.int64)
        return mask, sub, flag, starts

    def layer(self, filled: int) -> slice:
        """The states of `all_states()` with `filled` boxes filled."""
        starts = self._states[3]
        return slice(int(starts[filled]), int(starts[filled + 1]))


def popcount(mask: IntArray) -> IntArray:
    out = np.zeros_like(mask)
    m = mask.copy()
    while m.any():
        out += m & 1
        m >>= 1
    return out


_SPACES: PerRuleset[str, StateSpace] = PerRuleset(32)


def state_space(ruleset: Ruleset) -> StateSpace:
    """One StateSpace per ruleset, so its derived lookup arrays are built once per process
    (for the 32 rulesets used last: house rules must not grow the process without end)."""
    return _SPACES.get(ruleset.rules_hash, lambda: StateSpace(ruleset))
