"""Two-player Yardkle at full size: the reference solver's method (`duel.py`), compiled.

The same pairs in the same order (decreasing a + b), Newton steps, acceptance on the
residual and two-stage error bound; only the turn sweep is machine code (numba, imported by
the first solve, never at service start-up).  Throws offering the same set-asides are one
class, their chances added; each side's bank row is built once per pair, and the pairs of
one sum are solved by two threads.  The values equal the reference's to float rounding
(`tests/yardkle/test_duel.py`).  Kept for serving: `seat_values` (seats, K, K), the Yardkle
value each turn was solved at and its cap; a turn's within-turn table (`CompactDuel.turn`)
is one sweep away (docs/solver.md, "Size and cost at full size").
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from diceref.core.arrays import FloatArray, IndexArray
from diceref.core.jit import Compiled
from diceref.games.yardkle.rules.scoring import YardkleRules
from diceref.games.yardkle.solver.duel import (
    DuelLookup,
    Side,
    Turn,
    _Game,
    _game,
    _Options,
    solve_pair,
)


def _sweep_py(
    offsets: IndexArray,
    ends: IndexArray,
    throw_dice: IndexArray,
    prob: FloatArray,
    yardkle: FloatArray,
    max_step: int,
    bank: FloatArray,
    legal: np.ndarray,
    yardkle_value: float,
    cap: int,
    throw: FloatArray,
    stop: FloatArray,
    forced: bool,
    hot: FloatArray,
    hot_slope: float,
) -> float:
    """`duel._solve_turn` as loops: fills throw[:cap] and stop, returns the slope.

    stop is flat, (t, n, value or slope) in C order over rows t < cap + max_step + 1 and
    the D dice.  Throw class j has the options ends[j - 1] .. ends[j] - 1 (ends[-1] = 0),
    option o reaching stop at 2 * D * t + offsets[o]; its chance prob[j], its dice
    throw_dice[j] + 1.  A tie between options takes the largest slope, as the reference.
    With hot dice `forced` the state after hot dice never banks, and from the cap on it is
    worth hot[t] + hot_slope * yardkle_value (`duel._Game.forced`)."""
    d = yardkle.shape[0]
    for i in range((cap + max_step + 1) * d):
        stop[2 * i] = bank[i // d]
        stop[2 * i + 1] = 0.0
    if forced:
        for t in range(cap, cap + max_step + 1):
            i = 2 * (d * t + d - 1)
            stop[i] = hot[t] + hot_slope * yardkle_value
            stop[i + 1] = hot_slope
    acc = np.zeros(d)
    acc_slope = np.zeros(d)
    for t in range(cap - 1, -1, -1):
        base = 2 * d * t
        for n in range(d):
            acc[n] = 0.0
            acc_slope[n] = 0.0
        first = 0
        for j in range(ends.shape[0]):
            i = base + offsets[first]
            best, best_slope = stop[i], stop[i + 1]
            for o in range(first + 1, ends[j]):
                i = base + offsets[o]
                reached, reached_slope = stop[i], stop[i + 1]
                if reached > best:
                    best_slope = reached_slope
                elif reached == best:
                    best_slope = max(best_slope, reached_slope)
                best = max(best, reached)
            first = ends[j]
            acc[throw_dice[j]] += best * prob[j]
            acc_slope[throw_dice[j]] += best_slope * prob[j]
        for n in range(d):
            value = acc[n] + yardkle[n] * yardkle_value
            throw[t, n] = value
            i = base + 2 * n
            if legal[t] and bank[t] >= value and not (forced and n == d - 1):
                stop[i], stop[i + 1] = bank[t], 0.0
            else:
                stop[i], stop[i + 1] = value, acc_slope[n] + yardkle[n]
    return float(acc_slope[d - 1] + yardkle[d - 1])  # t = 0, the last row swept


# numba is imported at the first solve (0.8 s, and the compile itself, about 1.5 s, cached
# on disk by numba where it can write), so the service never imports it at start-up.
_sweep = Compiled(_sweep_py)


@dataclass(frozen=True)
class _Kernel:
    """The throws as the sweep reads them: throws of the same dice offering the same
    set-asides merged into one class (their chances added), each class's options once."""

    offsets: IndexArray
    ends: IndexArray
    throw_dice: IndexArray
    prob: FloatArray
    yardkle: FloatArray
    max_step: int
    dice: int

    @staticmethod
    def of(opt: _Options) -> _Kernel:
        d = opt.yardkle.shape[0]
        dice_of = np.argmax(opt.chance > 0, axis=1)
        ends = np.append(opt.starts[1:], len(opt.steps))
        classes: dict[tuple[int, tuple[tuple[int, int], ...]], float] = {}
        for j, (start, end) in enumerate(zip(opt.starts, ends, strict=True)):
            options = zip(opt.steps[start:end].tolist(), opt.cols[start:end].tolist(), strict=True)
            key = (int(dice_of[j]), tuple(sorted(set(options))))
            classes[key] = classes.get(key, 0.0) + float(opt.chance[j, dice_of[j]])
        offsets = [2 * (d * step + col) for _, options in classes for step, col in options]
        return _Kernel(
            offsets=np.array(offsets, dtype=np.intp),
            ends=np.cumsum([len(options) for _, options in classes]).astype(np.intp),
            throw_dice=np.array([n for n, _ in classes], dtype=np.intp),
            prob=np.array(list(classes.values())),
            yardkle=opt.yardkle.astype(np.float64),
            max_step=opt.max_step,
            dice=d,
        )

    def buffers(self, cap: int) -> tuple[FloatArray, FloatArray]:
        """(throw, stop) for turns with caps up to `cap`."""
        rows = cap + self.max_step + 1
        return np.empty((rows, self.dice)), np.empty(2 * rows * self.dice)

    def run(
        self,
        bank: FloatArray,
        legal: np.ndarray,
        yardkle_value: float,
        cap: int,
        buffers: tuple[FloatArray, FloatArray],
        forced: tuple[FloatArray, float] | None = None,
    ) -> tuple[float, float]:
        """(throw[0, D - 1], its slope) of the turn; the buffers hold its tables after.
        `forced`: with hot dice forced, `duel._Game.forced` of the pair."""
        throw, stop = buffers
        hot, hot_slope = (_NO_HOT, 0.0) if forced is None else forced
        slope = _sweep(
            self.offsets,
            self.ends,
            self.throw_dice,
            self.prob,
            self.yardkle,
            self.max_step,
            bank,
            legal,
            yardkle_value,
            cap,
            throw,
            stop,
            forced is not None,
            hot,
            hot_slope,
        )
        return float(throw[0, -1]), float(slope)


_NO_HOT = np.zeros(1)  # the sweep's `hot` with hot dice optional (never read)


_Buffers = tuple[tuple[FloatArray, FloatArray], tuple[FloatArray, FloatArray]]


@dataclass(frozen=True)
class CompactDuel(DuelLookup):
    """The solved two-player game, kept compact: the lookups of `duel.DuelTable`
    (`win_probability`, `advise`, `last_turn_probability`) over the same numbers, a
    turn's table recomputed on demand (`turn`).  Totals in units of `rules.unit`.

    seat_values[seat, a, b]: the thrower's chance to win; yardkle_values[seat, a, b]: the
    Yardkle value the thrower's turn at (a, b) in `seat` was solved at (1 - the opponent's
    last Newton iterate, within the residual of 1 - his value at (b, a)); caps[seat, a, b]:
    that turn's cap.
    """

    rules: YardkleRules
    levels: int
    entry_levels: int
    tie_value: float
    seat_values: FloatArray
    yardkle_values: FloatArray
    caps: IndexArray
    last_turn: FloatArray
    last_turn_throws: FloatArray
    error_bound: float
    contraction: float
    game: _Game
    kernel: _Kernel

    def turn(self, a: int, b: int, seat: int = 0) -> Turn:
        """The thrower's turn at (a, b) in `seat`, as the solve had it (one compiled sweep)."""
        bank, legal, cap = self.game.bank(a, b, self.seat_values, seat)
        throw, stop = self.kernel.buffers(cap)
        yardkle_value = float(self.yardkle_values[seat, a, b])
        forced = self.game.forced(a, b, seat)
        _, slope = self.kernel.run(bank, legal, yardkle_value, cap, (throw, stop), forced)
        stop_values = stop.reshape(len(throw), self.kernel.dice, 2)[:, :, 0]
        turn = Turn(throw[:cap], stop_values, slope, cap)
        return self.game.closed(turn, (a, b, seat), yardkle_value)


# (the sum s just solved, the share of all turn levels (caps) solved so far); may raise
Progress = Callable[[int, float], None]


@dataclass
class _Solve:
    """One solve's tables, filled pair by pair (the pairs of one sum by several threads)."""

    game: _Game
    kernel: _Kernel
    values: FloatArray
    yardkle_values: FloatArray
    caps: IndexArray

    def pair(self, state_a: Side, state_b: Side, buffers: _Buffers) -> tuple[float, float]:
        """Solve one of `_Game.systems` into the tables: `duel.solve_duel`'s Newton steps and
        bound, step for step.  Returns (its error bound, its L)."""
        game, kernel, lower = self.game, self.kernel, self.game.lower
        (a, b, seat_a), (_, _, seat_b) = state_a, state_b
        one = state_a == state_b
        bank_a, legal_a, cap_a = game.bank(a, b, self.values, seat_a)
        bank_b, legal_b, cap_b = game.bank(b, a, self.values, seat_b)
        forced_a, forced_b = game.forced(a, b, seat_a), game.forced(b, a, seat_b)

        def side_a(yardkle_value: float) -> tuple[float, float]:
            return kernel.run(bank_a, legal_a, yardkle_value, cap_a, buffers[0], forced_a)

        def side_b(yardkle_value: float) -> tuple[float, float]:
            return kernel.run(bank_b, legal_b, yardkle_value, cap_b, buffers[1], forced_b)

        low_a, low_b = lower[seat_b, b], lower[seat_a, a]  # the opponent's seat and total
        pair = solve_pair(
            side_a, None if one else side_b, low_a, low_b, game.chain_error, f"{state_a}, {state_b}"
        )
        self.values[seat_a, a, b], self.values[seat_b, b, a] = pair.x, pair.y
        self.yardkle_values[seat_a, a, b] = pair.yardkle_a
        self.yardkle_values[seat_b, b, a] = pair.yardkle_b
        assert (cap_a, cap_b) == (self.caps[seat_a, a, b], self.caps[seat_b, b, a])
        return pair.bound, pair.contraction

    def pairs(self, pairs: list[tuple[Side, Side]], buffers: _Buffers) -> list[tuple[float, float]]:
        return [self.pair(side_a, side_b, buffers) for side_a, side_b in pairs]


def solve_duel_fast(
    rules: YardkleRules, progress: Progress | None = None, workers: int = 2
) -> CompactDuel:
    """`duel.solve_duel`'s numbers, compiled and compact (docs/solver.md has the proofs).
    The pairs of one sum are shared among `workers` threads (the sweep releases the GIL)."""
    game = _game(rules)
    kernel = _Kernel.of(game.opt)
    k, seats = game.levels, game.seats
    caps = np.array(
        [[[game.cap(a, b, seat) for b in range(k)] for a in range(k)] for seat in range(seats)],
        dtype=np.intp,
    )
    sums = np.add.outer(np.arange(k), np.arange(k))
    work = np.bincount(sums.ravel(), caps.sum(axis=0).ravel().astype(np.float64))  # per sum
    solve = _Solve(game, kernel, np.zeros((seats, k, k)), np.zeros((seats, k, k)), caps)
    top = int(caps.max())
    buffers = [(kernel.buffers(top), kernel.buffers(top)) for _ in range(workers)]
    worst_error, worst_l = 0.0, 0.0
    with ThreadPoolExecutor(workers) as pool:
        for s in range(2 * k - 2, -1, -1):
            pairs = [
                p for a in range(max(0, s - k + 1), s // 2 + 1) for p in game.systems(a, s - a)
            ]
            chunks = [pairs[w::workers] for w in range(workers)]
            for done in pool.map(solve.pairs, chunks, buffers):
                for error, contraction in done:
                    worst_error, worst_l = max(worst_error, error), max(worst_l, contraction)
            if progress is not None:
                progress(s, float(work[s:].sum() / work.sum()))
    return CompactDuel(
        rules=rules,
        levels=k,
        entry_levels=game.entry_levels,
        tie_value=game.tie,
        seat_values=solve.values,
        yardkle_values=solve.yardkle_values,
        caps=solve.caps,
        last_turn=game.last,
        last_turn_throws=game.last_throws,
        error_bound=worst_error,
        contraction=worst_l,
        game=game,
        kernel=kernel,
    )
