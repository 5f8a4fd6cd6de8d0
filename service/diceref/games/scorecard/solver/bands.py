"""`BandTable`: a function of (state, points) kept as one band of points per state.

The play-to-win tables hold, for every state, a probability for each number of points
still to come: the chance to reach n points (a win table) or to score exactly k (a
distribution table).  Outside a narrow band per state the value is known without storing it
(1 below the band of a win table, 0 above it; 0 outside a distribution's band), so a state
keeps only its band.  A `BandTable` is a table being solved, in float64; the stored form is
`packed.PackedBands`, and both are read through `Bands`.  docs/solver.md, "Play to win",
says how wide the bands are.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray, IntArray

Float32Array = npt.NDArray[np.float32]


class Bands(Protocol):
    """What the play-to-win lookups read of a table, solved or stored."""

    @property
    def lo(self) -> npt.NDArray[np.integer]: ...
    @property
    def hi(self) -> npt.NDArray[np.integer]: ...
    @property
    def below(self) -> float: ...
    @property
    def identity(self) -> int: ...
    def at(self, index: int, n: int) -> float: ...
    def row(self, index: int, first: int, stop: int) -> FloatArray: ...
    def lookup(self, index: IntArray, n: IntArray) -> FloatArray: ...
    def mean_and_second(self, index: IntArray) -> tuple[FloatArray, FloatArray]: ...


@dataclass(frozen=True)
class BandTable:
    """f(index, n): `below` for n < lo[index], 0 for n >= hi[index], else
    values[start[index] + n - lo[index]].  A state without a band has lo == hi."""

    lo: IntArray
    hi: IntArray
    start: IntArray
    values: FloatArray
    below: float

    @property
    def size(self) -> int:
        return len(self.lo)

    @property
    def identity(self) -> int:
        """Which table this is, for caches keyed by table."""
        return id(self.values)

    def at(self, index: int, n: int) -> float:
        lo = int(self.lo[index])
        if n < lo:
            return self.below
        if n >= int(self.hi[index]):
            return 0.0
        return float(self.values[int(self.start[index]) + n - lo])

    def row(self, index: int, first: int, stop: int) -> FloatArray:
        """f(index, n) for n in [first, stop), as float64."""
        out = np.zeros(max(0, stop - first))
        lo, hi = int(self.lo[index]), int(self.hi[index])
        out[: max(0, min(lo, stop) - first)] = self.below
        a, b = max(lo, first), min(hi, stop)
        if b > a:
            s = int(self.start[index]) + a - lo
            out[a - first : b - first] = self.values[s : s + b - a]
        return out

    def lookup(self, index: IntArray, n: IntArray) -> FloatArray:
        """f at many (index, n) pairs (arrays of one shape)."""
        lo, hi = self.lo[index].astype(np.int64), self.hi[index].astype(np.int64)
        inside = (n >= lo) & (n < hi)
        at = np.where(inside, self.start[index] + n - lo, 0)
        got = self.values[at] if len(self.values) else np.zeros(at.shape)
        out: FloatArray = np.where(inside, got, np.where(n < lo, self.below, 0.0))
        return out

    def mean_and_second(self, index: IntArray) -> tuple[FloatArray, FloatArray]:
        """A distribution's E[R] and E[R**2] at the states `index` (R: the points to come)."""
        first, second = np.zeros(len(index)), np.zeros(len(index))
        for j, i in enumerate(np.asarray(index).tolist()):
            lo, hi = int(self.lo[i]), int(self.hi[i])
            points = np.arange(lo, hi, dtype=np.float64)
            band = self.row(i, lo, hi)
            first[j], second[j] = band @ points, band @ (points * points)
        return first, second


# Part of a solved table: states (their index), each band's first point and end, where
# each band starts in `values`, and the values (which may hold other parts' bands too).
SolvedPart = tuple[IntArray, IntArray, IntArray, IntArray, FloatArray]


def assemble_parts(size: int, below: float, parts: Iterable[SolvedPart]) -> BandTable:
    """A table over the state index from its solved parts, its bands copied end to end; a
    state in no part has no band."""
    lo = np.zeros(size, dtype=np.int64)
    hi = np.zeros(size, dtype=np.int64)
    start = np.zeros(size, dtype=np.int64)
    chunks: list[FloatArray] = []
    at = 0
    for index, part_lo, part_hi, part_start, values in parts:
        n = part_hi - part_lo
        lo[index], hi[index] = part_lo, part_hi
        start[index] = at + np.cumsum(n) - n
        within = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
        chunks.append(values[np.repeat(part_start, n) + within])
        at += int(n.sum())
    return BandTable(lo, hi, start, np.concatenate(chunks) if chunks else np.zeros(0), below)
