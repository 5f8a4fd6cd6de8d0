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

from diceref.core.dice import N_THROWS, face_counts
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Order, Ruleset

IntArray = npt.NDArray[np.int64]


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
        table = points_table(self.ruleset)
        return min(0, sum(table.upper_min.values()))

    @cached_property
    def sub_high(self) -> int:
        table = points_table(self.ruleset)
        if min(table.upper_min.values()) >= 0:
            return self.ruleset.upper_bonus.target
        return max(self.ruleset.upper_bonus.target, sum(table.upper_max.values()))

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
        return (mask * self.n_sub + (self._fold1(mask, sub) - self.sub_low)) * self.n_flag + flag

    @cached_property
    def _upper_box_min(self) -> IntArray:
        table = points_table(self.ruleset)
        out = np.zeros(self.n_boxes, dtype=np.int64)
        for i, v in table.upper_min.items():
            out[i] = v
        return out

    @cached_property
    def _upper_box_max(self) -> IntArray:
        table = points_table(self.ruleset)
        out = np.zeros(self.n_boxes, dtype=np.int64)
        for i, v in table.upper_max.items():
            out[i] = v
        return out

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

    def _upper_key(self, mask: IntArray) -> IntArray:
        """Compress the upper boxes' bits of `mask` to a 6-bit key (upper boxes come first)."""
        return mask & self._upper_all

    def secured(self, mask: IntArray, sub: IntArray) -> npt.NDArray[np.bool_]:
        if len(mask) == 1:
            worst = int(sub[0]) + int(self._open_min[int(mask[0]) & self._upper_all])
            return np.array([self.ruleset.upper_bonus.reached(worst)])
        return self._reached(sub + self._open_min[self._upper_key(mask)])

    def secured_one(self, mask: int, sub: int) -> bool:
        return self.ruleset.upper_bonus.reached(sub + int(self._open_min[mask & self._upper_all]))

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
        seen: set[tuple[int, int]] = {(0, self._fold1(0, 0))}
        frontier = list(seen)
        while frontier:
            nxt: list[tuple[int, int]] = []
            for mask, sub in frontier:
                for i in self.ruleset.upper_indices:
                    if mask >> i & 1:
                        continue
                    for pts in set(self.upper_points_by_count[i].tolist()):
                        state = (mask | 1 << i, self._fold1(mask | 1 << i, sub + pts))
                        if state not in seen:
                            seen.add(state)
                            nxt.append(state)
            frontier = nxt
        return sorted(seen)

    def _fold1(self, mask: int, sub: int) -> int:
        """`fold` for one state, without numpy's per-call overhead."""
        key = mask & self._upper_all
        bonus = self.ruleset.upper_bonus
        if bonus.reached(sub + int(self._open_min[key])):
            return self.sub_high
        if not bonus.reached(sub + int(self._open_max[key])):
            return self.sub_low
        return min(max(sub, self.sub_low), self.sub_high)

    def all_states(self) -> tuple[IntArray, IntArray, IntArray]:
        """Every reachable state as (mask, folded sub, flag), ordered by boxes filled."""
        lower = [i for i in range(self.n_boxes) if i not in self.ruleset.upper_indices]
        bits = np.arange(1 << len(lower), dtype=np.int64)
        lower_masks = np.zeros_like(bits)
        for j, box in enumerate(lower):
            lower_masks |= (bits >> j & 1) << box
        uppers = np.array(self.reachable_upper(), dtype=np.int64)
        mask = (lower_masks[:, None] | uppers[None, :, 0]).ravel()
        sub = np.broadcast_to(uppers[None, :, 1], (len(lower_masks), len(uppers))).ravel()
        if self.ruleset.series_order:
            upper_mask = np.broadcast_to(uppers[None, :, 0], (len(lower_masks), len(uppers)))
            ok = ((lower_masks[:, None] == 0) | (upper_mask == self.upper_bits)).ravel()
            mask, sub = mask[ok], sub[ok]
        elif self.ruleset.order is Order.FORCED:  # filled boxes are always a leading run
            ok = (mask & (mask + 1)) == 0
            mask, sub = mask[ok], sub[ok]
        flag = np.zeros_like(mask)
        five = self.ruleset.five_box_index
        if five is not None:
            filled = (mask >> five & 1).astype(bool)
            mask = np.concatenate([mask, mask[filled]])
            sub = np.concatenate([sub, sub[filled]])
            flag = np.concatenate([flag, np.ones(int(filled.sum()), dtype=np.int64)])
        order = np.lexsort((flag, sub, mask, popcount(mask)))
        return mask[order], sub[order], flag[order]


def popcount(mask: IntArray) -> IntArray:
    out = np.zeros_like(mask)
    m = mask.copy()
    while m.any():
        out += m & 1
        m >>= 1
    return out


_SPACES: dict[str, StateSpace] = {}


def state_space(ruleset: Ruleset) -> StateSpace:
    """One StateSpace per ruleset, so its derived lookup arrays are built once per process."""
    space = _SPACES.get(ruleset.rules_hash)
    if space is None:
        space = _SPACES[ruleset.rules_hash] = StateSpace(ruleset)
    return space
