"""`PackedBands`: a play-to-win table as stored, each band's values as integers, bit-packed.

A band's values become integers on a grid of 2**-24 (a win table's chances 1 - m/2**24, a
distribution's cumulative chances m/2**24), and what is stored is the second difference of
m, zigzag-coded, in blocks of 32 each packed at its own width: neighbouring chances differ
smoothly, so that takes about 9 bits a value against float32's 32.  A distribution's band
is led by its exact mean and second moment (float64).  Reading a value decodes its band
from the start (a few hundred values, compiled: `diceref.core.jit`).  docs/solver.md, "How
the play-to-win tables are stored", proves the error bounds and gives the sizes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

import numpy as np
import numpy.typing as npt

from diceref.core.arrays import FloatArray, IntArray
from diceref.core.jit import Compiled
from diceref.games.scorecard.solver.bands import BandTable, Float32Array, SolvedPart

FORMAT = 2.0  # cell 0 of the stored array (the float32 band table of before was 1.0)
GRID_BITS = 24  # a value is a multiple of 2**-GRID_BITS
BLOCK = 32  # values packed at one width
WIDTH_BITS = 5  # each block's width, ahead of it (widths up to 26 bits occur)
HEADER = 8  # cells: format, below, then size, stream words and grid bits (two cells each)
U64 = npt.NDArray[np.uint64]
I32 = npt.NDArray[np.int32]


@Compiled
def _code(
    lo: IntArray,
    hi: IntArray,
    start: IntArray,
    values: FloatArray,
    cumulative: bool,
    offset: IntArray,
    stream: U64,
    words: FloatArray,
    write: bool,
) -> int:
    """Count (`write` false: fills `offset`, returns the bits) or write the packed bands
    (`words`: `stream` viewed as float64).  m: 2**24 (1 - value) of a win table, 2**24
    times the running sum of a distribution's values; what is packed is r = d - d_prev
    with d = m - m_prev.  A distribution's band starts on a 64-bit word with its moments."""
    scale = float(1 << GRID_BITS)
    block = np.empty(BLOCK, dtype=np.int64)
    bit = 0
    for i in range(len(lo)):
        width = hi[i] - lo[i]
        with_moments = cumulative and width > 0
        if with_moments:
            bit = (bit + 63) // 64 * 64
        offset[i] = bit
        if with_moments:
            bit += 128
        m_prev = 0
        d_prev = 0
        acc = 0.0
        first = 0.0
        second = 0.0
        for b0 in range(0, width, BLOCK):
            n = min(BLOCK, width - b0)
            top = 0
            for j in range(n):
                k = b0 + j
                v = values[start[i] + k]
                if cumulative:
                    acc += v
                    m = int(np.rint(acc * scale))
                    points = lo[i] + k
                    first += v * points
                    second += v * points * points
                else:
                    m = (1 << GRID_BITS) - int(np.rint(v * scale))
                d = m - m_prev
                r = d - d_prev
                m_prev = m
                d_prev = d
                u = (r << 1) ^ (r >> 63)  # zigzag: 0, -1, 1, -2, ... as 0, 1, 2, 3, ...
                block[j] = u
                top |= u
            bits = 0
            while (top >> bits) > 0:
                bits += 1
            for j in range(-1, n):  # the width, then the values
                value, size = (bits, WIDTH_BITS) if j < 0 else (block[j], bits)
                if write and size > 0:
                    w, b = bit >> 6, bit & 63
                    stream[w] |= np.uint64(value) << np.uint64(b)
                    if b + size > 64:
                        stream[w + 1] |= np.uint64(value) >> np.uint64(64 - b)
                bit += size
        if with_moments and write:
            words[offset[i] // 64] = first
            words[offset[i] // 64 + 1] = second
    return bit


@Compiled
def _lookup(
    lo: I32,
    hi: I32,
    offset: IntArray,
    stream: U64,
    cumulative: bool,
    below: float,
    index: IntArray,
    points: IntArray,
    order: IntArray,
    out: FloatArray,
) -> None:
    """out[j] = f(index[j], points[j]), visiting j in `order` (by index, then points), so
    that a band read at several points is decoded once, as far as its last point."""
    scale = float(1 << GRID_BITS)
    current = -1
    k = 0
    bit = 0
    bits = np.int64(0)
    m = 0
    d = 0
    for j in order:
        i = index[j]
        p = points[j] - lo[i]
        if p < 0:
            out[j] = below
            continue
        if p >= hi[i] - lo[i]:
            out[j] = 0.0
            continue
        if i != current or p < k - 1:
            current = i
            k = 0
            bit = offset[i] + (128 if cumulative else 0)  # past a distribution's moments
            m = 0
            d = 0
        while k <= p:
            if k % BLOCK == 0:  # a block's width, ahead of its values
                w, b = bit >> 6, bit & 63
                v = stream[w] >> np.uint64(b)
                if b + WIDTH_BITS > 64:
                    v |= stream[w + 1] << np.uint64(64 - b)
                bits = np.int64(v & np.uint64((1 << WIDTH_BITS) - 1))
                bit += WIDTH_BITS
            u = np.int64(0)
            if bits > 0:
                w, b = bit >> 6, bit & 63
                v = stream[w] >> np.uint64(b)
                if b + bits > 64:
                    v |= stream[w + 1] << np.uint64(64 - b)
                u = np.int64(v & ((np.uint64(1) << np.uint64(bits)) - np.uint64(1)))
                bit += int(bits)
            d += int((u >> 1) ^ -(u & 1))  # zigzag decoded
            m = m + d
            k += 1
        out[j] = d / scale if cumulative else (scale - m) / scale


@dataclass(frozen=True)
class PackedBands:
    """f(index, n) as `BandTable` gives it (`below` for n < lo, 0 for n >= hi), read from
    the packed form: views of the stored array, nothing copied."""

    lo: I32
    hi: I32
    offset: IntArray  # each band's first bit in `stream` (a distribution's: its moments)
    stream: U64
    below: float

    @property
    def size(self) -> int:
        return len(self.lo)

    @property
    def cumulative(self) -> bool:
        """A distribution (its values are the differences of what is packed)."""
        return self.below == 0.0

    @property
    def identity(self) -> int:
        """Which stored table this is, for caches keyed by table."""
        return id(self.stream.base if self.stream.base is not None else self.stream)

    def lookup(self, index: IntArray, n: IntArray) -> FloatArray:
        """f at many (index, n) pairs (arrays that broadcast together)."""
        index, n = np.broadcast_arrays(np.asarray(index, np.int64), np.asarray(n, np.int64))
        flat_index, flat_n = index.ravel(), n.ravel()
        out = np.empty(len(flat_index))
        order = np.lexsort((flat_n, flat_index))
        _lookup(
            self.lo, self.hi, self.offset, self.stream, self.cumulative, self.below,
            flat_index, flat_n, order, out,
        )  # fmt: skip
        return out.reshape(index.shape)

    def at(self, index: int, n: int) -> float:
        return float(self.lookup(np.array([index]), np.array([n]))[0])

    def row(self, index: int, first: int, stop: int) -> FloatArray:
        """f(index, n) for n in [first, stop)."""
        n = np.arange(first, max(first, stop), dtype=np.int64)
        return self.lookup(np.full(len(n), index, dtype=np.int64), n)

    def mean_and_second(self, index: IntArray) -> tuple[FloatArray, FloatArray]:
        """A distribution's exact E[R] and E[R**2] at the states `index` (R: the points to
        come), computed from its float64 band before it was packed."""
        if not self.cumulative:
            raise TypeError("a win table keeps no moments")
        index = np.asarray(index, dtype=np.int64)
        words = self.stream.view(np.float64)
        banded = self.hi[index] > self.lo[index]
        at = np.where(banded, self.offset[index] // 64, 0)  # a bandless state has no moments
        return np.where(banded, words[at], 0.0), np.where(banded, words[at + 1], 0.0)

    def warm(self) -> None:
        """Compile (or read numba's cache of) the decoder now, not at a request."""
        self.lookup(np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))


class Packer:
    """A table packed as it is solved, a layer of states at a time: each layer's bands
    coded into a stream of their own (from a 64-bit word, so that a distribution's moments
    stay on words), the float64 values of none kept once coded.  `finish` lays the streams
    end to end behind the header."""

    def __init__(self, size: int, below: float) -> None:
        self.size, self.below = size, below
        self.lo = np.zeros(size, dtype=np.int64)
        self.hi = np.zeros(size, dtype=np.int64)
        self.offset = np.zeros(size, dtype=np.int64)
        self.streams: list[U64] = []
        self.words = 0

    def add(
        self, index: IntArray, lo: IntArray, hi: IntArray, start: IntArray, values: FloatArray
    ) -> None:
        """The bands of the states `index`: state index[k]'s values from `lo[k]` to
        `hi[k]` are values[start[k]:start[k] + hi[k] - lo[k]]."""
        lo, hi = np.asarray(lo, np.int64), np.asarray(hi, np.int64)
        if len(lo) and max(-int(lo.min()), int(hi.max())) >= 1 << 31:
            raise ValueError("a band's points beyond int32")
        start = np.asarray(start, np.int64)
        values = np.asarray(values, np.float64)
        cumulative = self.below == 0.0
        offset = np.zeros(len(lo), dtype=np.int64)
        none = np.zeros(1, dtype=np.uint64)
        bits = _code(lo, hi, start, values, cumulative, offset, none, none.view(np.float64), False)
        words = -(-bits // 64)
        stream = np.zeros(words + 1, dtype=np.uint64)  # a value's bits may spill a word on
        _code(lo, hi, start, values, cumulative, offset, stream, stream.view(np.float64), True)
        self.lo[index], self.hi[index] = lo, hi
        self.offset[index] = offset + 64 * self.words
        self.streams.append(stream[:words])
        self.words += words

    def finish(self) -> Float32Array:
        """The stored form: a header, lo and hi (int32), each band's first bit (int64), then
        the bit stream, as the cells of one float32 array (the table store's format)."""
        size = self.size
        words = self.words + 2  # a spare word: reads take two
        at = HEADER + 2 * size + 2 * (size % 2)  # lo and hi, then int32 cells to 8 bytes
        out = np.zeros(at + 2 * size + 2 * words, dtype=np.float32)
        out[:2] = (FORMAT, self.below)
        out[2:HEADER].view(np.int64)[:] = (size, words, GRID_BITS)
        out[HEADER : HEADER + size].view(np.int32)[:] = self.lo
        out[HEADER + size : HEADER + 2 * size].view(np.int32)[:] = self.hi
        out[at : at + 2 * size].view(np.int64)[:] = self.offset
        stream = out[at + 2 * size :].view(np.uint64)
        w = 0
        for part in self.streams:
            stream[w : w + len(part)] = part
            w += len(part)
        self.streams = []
        return out


def pack_parts(size: int, below: float, parts: Iterable[SolvedPart]) -> Float32Array:
    """The stored form of a table solved part by part (`bands.SolvedPart`), each part
    coded as it comes."""
    packer = Packer(size, below)
    for index, lo, hi, start, values in parts:
        packer.add(index, lo, hi, start, values)
        del values  # a layer's values are freed as soon as the solve lets go of them
    return packer.finish()


def pack(table: BandTable) -> Float32Array:
    """The stored form of a solved table (float64 values), all its states at once."""
    packer = Packer(table.size, table.below)
    packer.add(np.arange(table.size), table.lo, table.hi, table.start, table.values)
    return packer.finish()


def unpack(array: Float32Array) -> PackedBands:
    """The table over a stored array, as views of it (a memory-mapped file stays shared)."""
    if len(array) < HEADER or float(array[0]) != FORMAT:
        raise ValueError("not a packed band table")
    size, words, grid = (int(x) for x in array[2:HEADER].view(np.int64))
    if grid != GRID_BITS:
        raise ValueError(f"a packed band table on a grid of 2**-{grid}, not 2**-{GRID_BITS}")
    below = float(array[1])
    at = HEADER
    lo = cast(I32, array[at : at + size].view(np.int32))
    hi = cast(I32, array[at + size : at + 2 * size].view(np.int32))
    at += 2 * size + 2 * (size % 2)
    offset = cast(IntArray, array[at : at + 2 * size].view(np.int64))
    at += 2 * size
    stream = cast(U64, array[at : at + 2 * words].view(np.uint64))
    if len(stream) != words or at + 2 * words != len(array):
        raise ValueError("a packed band table of the wrong length")
    return PackedBands(lo, hi, offset, stream, below)
