"""`BandTable`: a function of (state, points) kept as one band of points per state.

The play-to-win tables hold, for every state, a probability for each number of points
still to come: the chance to reach n points (a win table) or to score exactly k (a
distribution table).  Outside a narrow band per state the value is known without storing it
(1 below the band of a win table, 0 above it; 0 outside a distribution's band), so a state
stores only its band.  The stored form is one flat float32 array, read as views (a
memory-mapped file is shared by the workers, nothing is copied); docs/solver.md, "Play to
win", says why float32 is exact enough and how wide the bands are.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray, IntArray

Float32Array = npt.NDArray[np.float32]
FORMAT = 1.0  # the stored layout's version (cell 0)
HEADER = 8  # cells: format, below, size (two halves), values (two halves), two spare
SPLIT = 1 << 24  # float32 holds integers below 2**24 exactly: larger ones take two cells


def _split(values: IntArray) -> tuple[IntArray, IntArray]:
    return values // SPLIT, values % SPLIT


@dataclass(frozen=True)
class BandTable:
    """f(index, n): `below` for n < lo[index], 0 for n >= hi[index], else
    values[start[index] + n - lo[index]].  A state without a band has lo == hi."""

    lo: IntArray | Float32Array  # float32 views of a stored table (exact integers)
    hi: IntArray | Float32Array
    start_hi: IntArray | Float32Array  # start = start_hi * 2**24 + start_lo
    start_lo: IntArray | Float32Array
    values: FloatArray | Float32Array
    below: float

    @classmethod
    def of(
        cls, lo: IntArray, hi: IntArray, start: IntArray, values: FloatArray, below: float
    ) -> BandTable:
        """A table being built (int64 bounds, float64 values)."""
        return cls(lo, hi, np.zeros_like(start), start, values, below)

    def start(self, index: int) -> int:
        return int(self.start_hi[index]) * SPLIT + int(self.start_lo[index])

    def starts(self, index: IntArray) -> IntArray:
        hi = self.start_hi[index].astype(np.int64)
        out: IntArray = hi * SPLIT + self.start_lo[index].astype(np.int64)
        return out

    @property
    def size(self) -> int:
        return len(self.lo)

    def at(self, index: int, n: int) -> float:
        lo = int(self.lo[index])
        if n < lo:
            return self.below
        if n >= int(self.hi[index]):
            return 0.0
        return float(self.values[self.start(index) + n - lo])

    def row(self, index: int, first: int, stop: int) -> FloatArray:
        """f(index, n) for n in [first, stop), as float64."""
        out = np.zeros(max(0, stop - first))
        lo, hi = int(self.lo[index]), int(self.hi[index])
        out[: max(0, min(lo, stop) - first)] = self.below
        a, b = max(lo, first), min(hi, stop)
        if b > a:
            s = self.start(index) + a - lo
            out[a - first : b - first] = self.values[s : s + b - a]
        return out

    def lookup(self, index: IntArray, n: IntArray) -> FloatArray:
        """f at many (index, n) pairs (arrays of one shape)."""
        lo, hi = self.lo[index].astype(np.int64), self.hi[index].astype(np.int64)
        inside = (n >= lo) & (n < hi)
        at = np.where(inside, self.starts(index) + n - lo, 0)
        got = self.values[at] if len(self.values) else np.zeros(at.shape)
        out: FloatArray = np.where(inside, got, np.where(n < lo, self.below, 0.0))
        return out

    def to_array(self) -> Float32Array:
        """The stored form: a header, then lo, hi and start (two cells each, as halves of
        2**24) per state, then the values."""
        size, n_values = len(self.lo), len(self.values)
        header = np.zeros(HEADER, dtype=np.float64)
        header[:6] = (FORMAT, self.below, size // SPLIT, size % SPLIT, *divmod(n_values, SPLIT))
        start_hi, start_lo = _split(self.starts(np.arange(size)))
        parts = [header, self.lo, self.hi, start_hi, start_lo, self.values]
        return np.concatenate([np.asarray(p, dtype=np.float32) for p in parts])

    @classmethod
    def from_array(cls, array: Float32Array) -> BandTable:
        """The table over a stored array, as views of it (nothing is copied: a memory-mapped
        file stays shared)."""
        if len(array) < HEADER or float(array[0]) != FORMAT:
            raise ValueError("not a band table of this format")
        size = int(array[2]) * SPLIT + int(array[3])
        n_values = int(array[4]) * SPLIT + int(array[5])
        at = HEADER
        fields = []
        for _ in range(4):
            fields.append(array[at : at + size])
            at += size
        lo, hi, start_hi, start_lo = fields
        values = array[at : at + n_values]
        if len(values) != n_values or at + n_values != len(array):
            raise ValueError("a band table of the wrong length")
        return cls(lo, hi, start_hi, start_lo, values, float(array[1]))
