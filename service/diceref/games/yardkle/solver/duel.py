"""Two-player Yardkle, the whole game: the exact chance that the player about to act wins.

A reference solver for small games, following docs/solver.md, "Two-player Yardkle: the
chance to win", step by step rather than fast.  V[a, b] (banked totals in units) is the
thrower's chance to win.  Banking moves (a, b) to (b, a + t), a Yardkle to (b, a): pairs
by decreasing a + b, each a two-unknown fixed point (`solve_pair`: Newton steps accepted on
the residual, with the proven distance).  Within a turn t only grows (one sweep down from a
proven cap, `_Game.cap`); the last turn after a goal is a race with a tie
(`last_turn_chances`).  Under `complete_the_round` the state adds the thrower's seat
(`_Game.systems`); with hot dice forced the state after hot dice never banks, and from the
cap on is a closed form less one truncated row per pad flag (`_forced_chain`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial

import numpy as np

from diceref.core.arrays import FloatArray, IndexArray
from diceref.core.dice import Dice, canonical
from diceref.games.yardkle.rules.scoring import YardkleRules, set_asides
from diceref.games.yardkle.solver.policy import hot_dice_forced, throw_options
from diceref.games.yardkle.solver.race import win_chances
from diceref.games.yardkle.solver.throws import throw_summary

RESIDUAL = 1e-13  # a pair's fixed point is accepted once both equations hold to this
MAX_NEWTON = 60
CHAIN_TAIL = 1e-18  # the forced chain's row runs up to a lead where the race is this small


@dataclass(frozen=True)
class _Options:
    """The throws' set-asides as flat arrays (from `policy.throw_options`)."""

    steps: IndexArray  # (options,) units the set-aside scores
    cols: IndexArray  # (options,) dice left after it, less one (all dice after hot dice)
    starts: IndexArray  # (scoring throws,) first option of each scoring throw
    throw_of: IndexArray  # (options,) which scoring throw the option belongs to
    chance: FloatArray  # (scoring throws, D) the throw's chance in its dice's column
    yardkle: FloatArray  # (D,) q_n
    max_step: int


def _options(rules: YardkleRules) -> _Options:
    opts = throw_options(rules)
    chance = np.zeros((len(opts.starts), rules.dice))
    chance[np.arange(len(opts.starts)), opts.scoring_dice - 1] = opts.scoring_probability
    lengths = np.diff(np.append(opts.starts, len(opts.option_steps)))
    return _Options(
        steps=opts.option_steps,
        cols=opts.option_next - 1,
        starts=opts.starts,
        throw_of=np.repeat(np.arange(len(opts.starts)), lengths),
        chance=chance,
        yardkle=throw_summary(rules).yardkle_chance,
        max_step=int(opts.option_steps.max()),
    )


@dataclass(frozen=True)
class Turn:
    """One thrower's turn for fixed totals, solved for one Yardkle value.

    throw[t, n - 1]: chance to win when about to throw n dice with t units in hand;
    stop[t, n - 1]: the same once a set-aside left t and n, the choice to bank still
    open (max of bank and throw; rows from `cap` on are the bank value, proven optimal).
    With hot dice forced the state after hot dice (n = D) never banks: its stop is its
    throw, from `cap` on the closed form of `_Game.forced`.
    slope: d throw[0, D - 1] / d yardkle_value, the chance the turn ends in a Yardkle.
    beyond(t, n): stop[t, n - 1] past the table's rows, from the closed forms
    (`_Game.beyond`); `worth` reads either.
    """

    throw: FloatArray  # (cap, D)
    stop: FloatArray  # (cap + max_step + 1, D)
    slope: float
    cap: int
    beyond: Callable[[int, int], float] | None = field(default=None, compare=False, repr=False)

    def worth(self, t: int, dice: int) -> float:
        """stop[t, dice - 1] at any t >= 0: the table's row where it holds one, past it
        the closed form (after hot dice at t >= cap, with hot dice forced, the dice are
        thrown again, so a state can lie past the table)."""
        if t < len(self.stop):
            return float(self.stop[t, dice - 1])
        if self.beyond is None:
            raise ValueError("turn points beyond the table of a turn without its closed forms")
        return self.beyond(t, dice)


def _solve_turn(
    opt: _Options,
    bank: FloatArray,
    legal: np.ndarray,
    yardkle_value: float,
    cap: int,
    forced: tuple[FloatArray, float] | None = None,
) -> Turn:
    """The turn by one sweep from t = cap - 1 down: every set-aside scores at least one unit,
    so a state needs only states of larger t.  `bank[t]` is the worth of banking t units
    (`legal[t]` whether the rules allow it), given for t up to cap + max_step; from `cap` on
    the caller has proven banking optimal, and `legal` must hold there.  With hot dice
    forced, `forced` is (hot, slope): the state after hot dice never banks, and from `cap`
    on it is worth hot[t] + slope * yardkle_value (`_Game.forced`)."""
    d = opt.yardkle.shape[0]
    rows = cap + opt.max_step + 1
    stop = np.repeat(bank[:rows, None], d, axis=1)
    stop_slope = np.zeros((rows, d))
    if forced is not None:
        hot, hot_slope = forced
        stop[cap:, d - 1] = hot[cap:rows] + hot_slope * yardkle_value
        stop_slope[cap:, d - 1] = hot_slope
    throw = np.zeros((cap, d))
    throw_slope = np.zeros((cap, d))
    base, base_slope = opt.yardkle * yardkle_value, opt.yardkle
    for t in range(cap - 1, -1, -1):
        reached = stop[t + opt.steps, opt.cols]
        best = np.maximum.reduceat(reached, opt.starts)
        # The chance of a Yardkle under the chosen set-aside (the largest on a tie, which
        # makes it the right derivative of the convex turn value).
        slopes = np.where(
            reached == best[opt.throw_of], stop_slope[t + opt.steps, opt.cols], -np.inf
        )
        throw[t] = best @ opt.chance + base
        throw_slope[t] = np.maximum.reduceat(slopes, opt.starts) @ opt.chance + base_slope
        if legal[t]:
            banks = bank[t] >= throw[t]
            if forced is not None:
                banks[d - 1] = False  # right after hot dice all the dice are thrown again
            stop[t] = np.where(banks, bank[t], throw[t])
            stop_slope[t] = np.where(banks, 0.0, throw_slope[t])
        else:
            stop[t], stop_slope[t] = throw[t], throw_slope[t]
    return Turn(throw, stop, float(throw_slope[0, d - 1]), cap)


@dataclass(frozen=True)
class Advice:
    """The best set-aside of a throw (`keep`, scoring `points`), whether to bank after it,
    and the chance to win playing so."""

    keep: Dice
    points: int
    bank: bool
    win_probability: float


class DuelLookup:
    """The lookups of a solved two-player game, over its values, its last turn and each
    pair's turn (`turn`).  Totals and turn points are in units of `rules.unit`.

    A seat is 0 when the rules have one (every reading but `complete_the_round`); under
    `complete_the_round`, 0 for the thrower who started the round, 1 for the other."""

    rules: YardkleRules
    levels: int  # totals 0 .. levels - 1 do not reach the goal
    entry_levels: int
    tie_value: float
    seat_values: FloatArray  # (seats, K, K)
    last_turn: FloatArray  # (2, gaps)

    @property
    def values(self) -> FloatArray:
        """(K, K): the thrower's chance to win in seat 0 (the one who started the round)."""
        first: FloatArray = self.seat_values[0]
        return first

    def turn(self, a: int, b: int, seat: int = 0) -> Turn:
        """The thrower's turn at (a, b) in `seat`, at the pair's fixed point."""
        raise NotImplementedError

    def seat(self, first_in_round: bool | None) -> int:
        """The thrower's seat: whether he started the round matters under
        `complete_the_round` only (it must be given there), and is ignored otherwise."""
        if len(self.seat_values) == 1:
            return 0
        if first_in_round is None:
            raise ValueError("complete_the_round: say whether the thrower started the round")
        return 0 if first_in_round else 1

    def _level(self, points: int, what: str) -> int:
        if points < 0 or points % self.rules.unit:
            raise ValueError(f"{what} {points} is not a multiple of {self.rules.unit} >= 0")
        return points // self.rules.unit

    def _check_pad(self, total: int, on_pad: bool, who: str) -> None:
        if self.entry_levels and on_pad != (total > 0):
            raise ValueError(f"{who}: with an entry minimum, on_pad is exactly total > 0")

    def win_probability(
        self,
        total: int,
        on_pad: bool,
        opponent_total: int,
        opponent_on_pad: bool,
        turn_points: int = 0,
        dice: int | None = None,
        first_in_round: bool | None = None,
    ) -> float:
        """Chance that the player to act wins, playing optimally against optimal play.

        With turn_points = 0 the turn starts (all dice to throw); otherwise the player has
        `turn_points` in hand and `dice` to throw, and may still bank.  Points, not units.
        `first_in_round` is the thrower's seat (`seat`)."""
        dice = self.rules.dice if dice is None else dice
        a = self._level(total, "total")
        b = self._level(opponent_total, "opponent_total")
        t = self._level(turn_points, "turn_points")
        self._check_pad(a, on_pad, "total")
        self._check_pad(b, opponent_on_pad, "opponent_total")
        if a >= self.levels or b >= self.levels:
            raise ValueError("both totals must be under the goal (the last turn: last_turn)")
        turn = self.turn(a, b, self.seat(first_in_round))
        if t == 0:
            return float(turn.throw[0, dice - 1])
        return turn.worth(t, dice)

    def last_turn_probability(self, total: int, on_pad: bool, leader_total: int) -> float:
        """Chance that the last-turn player (total behind the leader's) wins."""
        gap = self._level(leader_total, "leader_total") - self._level(total, "total")
        self._check_pad(self._level(total, "total"), on_pad, "total")
        return float(self.last_turn[int(on_pad or not self.entry_levels), gap])

    def advise(
        self,
        total: int,
        opponent_total: int,
        turn_points: int,
        throw: Sequence[int],
        first_in_round: bool | None = None,
    ) -> Advice:
        """The best play after `throw` (turn_points in hand before it).  A Yardkle keeps
        nothing and is worth the opponent's turn at the same totals, in his seat."""
        a = self._level(total, "total")
        b = self._level(opponent_total, "opponent_total")
        t = self._level(turn_points, "turn_points")
        seat = self.seat(first_in_round)
        turn = self.turn(a, b, seat)
        options = set_asides(canonical(throw), self.rules)
        if not options:
            other = len(self.seat_values) - 1 - seat
            return Advice((), 0, False, 1.0 - float(self.seat_values[other, b, a]))
        best: Advice | None = None
        for o in options:
            after = t + o.points // self.rules.unit
            left = len(throw) - len(o.dice) or self.rules.dice
            worth = turn.worth(after, left)
            forced = not self.rules.hot_dice_optional and len(o.dice) == len(throw)
            banks = not forced and (after >= turn.cap or worth > float(turn.throw[after, left - 1]))
            if best is None or worth > best.win_probability:
                best = Advice(o.dice, o.points, banks, worth)
        assert best is not None
        return best


@dataclass(frozen=True)
class DuelTable(DuelLookup):
    """The solved two-player game, every turn kept.

    seat_values[seat, a, b]: chance the player about to throw wins with a banked against b
    (both under the goal), in his seat.  last_turn[on_pad][g]: chance the last-turn player
    wins when g units behind the leader.  turns[(a, b, seat)]: the thrower's turn at the
    fixed point.
    error_bound: the largest proven error of a pair's fixed point (see module docstring).
    """

    rules: YardkleRules
    levels: int
    entry_levels: int
    tie_value: float
    seat_values: FloatArray
    last_turn: FloatArray
    last_turn_throws: FloatArray  # (gaps, D) U(m, n) on the pad
    turns: dict[tuple[int, int, int], Turn]
    error_bound: float
    contraction: float  # the largest L over pairs

    def turn(self, a: int, b: int, seat: int = 0) -> Turn:
        return self.turns[(a, b, seat)]


def _tie_value(rules: YardkleRules) -> float:
    return 0.5 if rules.ties_share_win else 0.0


def open_levels(rules: YardkleRules) -> int:
    """How many totals (0, 1, ... units) do not reach the goal."""
    if rules.target_inclusive:
        return math.ceil(rules.target / rules.unit)
    return rules.target // rules.unit + 1


def last_turn_chances(rules: YardkleRules, gaps: int) -> tuple[FloatArray, FloatArray]:
    """(2, gaps + 1): [on_pad][g], the last-turn player's chance when g >= 1 units behind;
    and (gaps + 1, D): U(m, n) on the pad, what a last turn's set-aside leads to.

    On the pad the chance depends only on the units m still missing to equal the leader
    and the dice: U(m, n) = sum over scoring throws of max over set-asides of S(m - s, n'),
    S(m', n') = 1 for m' < 0 (bank and win), max(tie_value, U(0, n')) for m' = 0 and
    U(m', n') above (banking short is worth 0, as a Yardkle).  One sweep up in m.
    Off the pad banking needs the entry minimum e: for g >= e nothing changes (no bank
    short of the leader counts anyway); for g < e every legal bank wins, the race W(e).
    With hot dice forced the state after hot dice cannot bank: past the leader it throws
    on and wins with the chance rho of the forced chain (`policy.HotDiceForced.reach`),
    level with him it cannot bank the tie."""
    opt = _options(rules)
    d = rules.dice
    tie = _tie_value(rules)
    shift = opt.max_step + 1  # row m + shift holds m; rows below are m < 0
    u = np.ones((gaps + 1 + shift, d))
    forced = not rules.hot_dice_optional
    if forced:
        u[:shift, d - 1] = hot_dice_forced(rules).reach
    for m in range(gaps + 1):
        reached = u[m + shift - opt.steps, opt.cols]
        if m:
            tied = opt.steps == m
            if forced:
                tied &= opt.cols < d - 1
            reached = np.where(tied, np.maximum(tie, u[shift, opt.cols]), reached)
        best = np.maximum.reduceat(reached, opt.starts)
        u[m + shift] = best @ opt.chance
    on = u[shift:, d - 1].copy()
    e = math.ceil(rules.entry_minimum / rules.unit)
    off = on.copy()
    if e:
        w = win_chances(rules, e)[e, d - 1]
        off[: min(e, gaps + 1)] = w
    return np.stack([off, on]), u[shift:]


def _error_bound(residual: float, la: float, lb: float | None) -> float:
    """How far a pair's iterate can be from its fixed point, the two equations holding to
    `residual` and the turns' slopes bounded by la and lb (lb None: a = b, one equation):
    |g(x) - x| <= (1 + la) r for g the composed map, whose factor is la lb."""
    factor = la if lb is None else la * lb
    if factor >= 1.0:
        raise RuntimeError("no contraction proven for this pair")
    return residual * (1.0 + max(la, la if lb is None else lb)) / (1.0 - factor)


# A side of a pair: its turn's value at the start and its slope, at a Yardkle value.
TurnValue = Callable[[float], tuple[float, float]]


@dataclass(frozen=True)
class PairSolution:
    """One pair's fixed point: the two values, the Yardkle values the accepted turns were
    solved at, the proven distance to the true values, and the stage-two L."""

    x: float
    y: float
    yardkle_a: float
    yardkle_b: float
    bound: float
    contraction: float


def solve_pair(
    side_a: TurnValue,
    side_b: TurnValue | None,
    low_a: float,
    low_b: float,
    chain_error: float,
    name: str,
) -> PairSolution:
    """x = F_a(1 - y), y = F_b(1 - x) by Newton steps from 1/2, accepted on the residual, and
    its proven bound in two stages (docs/solver.md, "The bound actually used"); `side_b`
    None for one equation, x = F_a(1 - x).  `low_a` bounds the value of side a's opponent
    from below (it caps a's Yardkle value), `low_b` b's.  The reference and the compiled
    solve both run this, with their own turns."""
    one = side_b is None
    x, y = 0.5, 0.5
    for _ in range(MAX_NEWTON):
        ya, yb = 1.0 - y, 1.0 - x
        fa, sa = side_a(ya)
        fb, sb = (fa, sa) if side_b is None else side_b(yb)
        if max(abs(fa - x), abs(fb - y)) <= RESIDUAL:
            break
        if one:  # x = F(1 - x): Newton on the linearisation
            x = y = (fa + sa * x) / (1.0 + sa)
            continue
        nx = (fa - sa * (fb - y) - sa * sb * x) / (1.0 - sa * sb)
        y = fb - sb * (nx - x)
        x = nx
    else:
        raise RuntimeError(f"pair {name} did not converge")
    # The proven error: a first bound from each turn's slope past the top of its domain (a
    # subgradient there bounds every slope below, F being convex), then the slopes just
    # past the solution, which that first bound places.
    residual = max(abs(fa - x), abs(fb - y))
    top_a, top_b = max(1.0 - low_a / 2, 1.0 - y), max(1.0 - low_b / 2, 1.0 - x)
    first = _error_bound(residual, side_a(top_a)[1], None if side_b is None else side_b(top_b)[1])
    la = side_a(min(top_a, 1.0 - y + first))[1]
    lb = None if side_b is None else side_b(min(top_b, 1.0 - x + first))[1]
    # The forced chain's truncation moves the pair at most as much (docs/solver.md).
    bound = min(first, _error_bound(residual, la, lb)) + chain_error
    return PairSolution(fa, fb, ya, ya if one else yb, bound, la if lb is None else la * lb)


def _race_to_goal(rules: YardkleRules, levels: int, entry: int) -> FloatArray:
    """[b]: chance that a player with b units makes the goal in one turn (the race)."""
    d = rules.dice
    need = [max(levels - b, entry if b == 0 else 0) for b in range(levels)]
    w = win_chances(rules, max(need))
    return np.array([w[r, d - 1] for r in need])


Side = tuple[int, int, int]  # (a, b, seat): a thrower's state at the start of his turn


@dataclass(frozen=True)
class _Game:
    """What every pair's turn needs besides the values: the throws, the sizes, the lower
    bound on V and the caps it proves, and the last turn (shared with `duel_fast`).

    Seats as `DuelLookup`'s: one, or two under `complete_the_round`, where only seat 0's
    goal gives the other a last turn (seat 1's completes the round and wins)."""

    opt: _Options
    dice: int
    levels: int
    entry_levels: int
    tie: float
    last_turns: bool  # seat 0 reaching the goal gives the other a last turn
    lower: FloatArray  # [seat, b]: the proven lower bound on V(b, ., seat)
    d_star: IndexArray  # [b]: the lead from which banking is optimal, for seat 0
    last: FloatArray  # (2, gaps) the last turn, [on_pad][g]
    last_throws: FloatArray
    seats: int = 1
    # With hot dice forced (None otherwise): E_G[on_pad][lead], the opponent's expected
    # chance in the last turn after a forced chain from that lead (0 for a chain ending in
    # a Yardkle; `_forced_chain`), with rho the chain's chance to bank and chain_error the
    # truncation's bound.
    chain: FloatArray | None = None
    reach: float = 1.0
    chain_error: float = 0.0
    # The lead G past which the race is at most CHAIN_TAIL (`_tail`): E_G is 0 from there,
    # and the closed forms above a turn's table (`beyond`) take U as 0 there too.  `far`:
    # the last turn [on_pad][g] out to G + max_step, built when first read (`far_last`)
    # unless the forced chain's solve already had it.
    tail: int = 0
    far: FloatArray | None = None
    rules: YardkleRules | None = None

    def other(self, seat: int) -> int:
        """The opponent's seat."""
        return self.seats - 1 - seat

    def cap(self, a: int, b: int, seat: int = 0) -> int:
        """The turn points from which banking is proven optimal for the thrower at (a, b)."""
        cap = max(self.levels - a, self.entry_levels, 1)
        if self.last_turns and seat == 0:
            cap = max(cap, int(self.d_star[b]) + b - a)
        return cap

    def bank(
        self, a: int, b: int, values: FloatArray, seat: int = 0
    ) -> tuple[FloatArray, np.ndarray, int]:
        """(bank[t], legal[t], cap) for the thrower at (a, b) in `seat`: the worth of banking
        t units and whether the rules allow it, for t up to cap + max_step.  `values` is
        (seats, K, K), read at larger sums for the opponent's seat ((K, K) with one seat)."""
        if values.ndim == 2:
            values = values[None]
        k, e = self.levels, self.entry_levels
        cap = self.cap(a, b, seat)
        t = np.arange(cap + self.opt.max_step + 1)
        bank = np.zeros(len(t))
        done = a + t >= k
        if self.last_turns and seat == 0:
            bank[done] = 1.0 - self.last[int(b > 0 or not e), a + t[done] - b]
        else:
            bank[done] = 1.0
        inside = t[~done]
        bank[~done] = 1.0 - values[self.other(seat), b, a + inside]
        legal = (t > 0) & ((a > 0) | (t >= e))
        return bank, legal, cap

    def systems(self, a: int, b: int) -> list[tuple[Side, Side]]:
        """The two-unknown fixed points at the totals {a, b} (a <= b): each pairs a thrower's
        state with the one a Yardkle hands the opponent (the same state when a = b with one
        seat).  With two seats, (a, b, 0) goes with (b, a, 1) and (b, a, 0) with (a, b, 1)."""
        if self.seats == 1:
            return [((a, b, 0), (b, a, 0))]
        out = [((a, b, 0), (b, a, 1))]
        if a != b:
            out.append(((b, a, 0), (a, b, 1)))
        return out

    def forced(self, a: int, b: int, seat: int = 0) -> tuple[FloatArray, float] | None:
        """With hot dice forced, (hot[t], slope): from the cap on, the state after hot dice
        is worth hot[t] + slope * Y, H(t) = rho + (1 - rho) Y - E_G(a + t - b)
        (docs/solver.md, "Hot dice forced"), E = 0 where the thrower's goal gives no last
        turn (seat 1 completing the round); None with hot dice optional."""
        if self.chain is None:
            return None
        cap = self.cap(a, b, seat)
        hot = np.zeros(cap + self.opt.max_step + 1)
        hot[cap:] = self.reach
        if self.last_turns and seat == 0:
            lead = a - b + np.arange(cap, len(hot))
            hot[cap:] -= self.chain[int(b > 0 or not self.entry_levels), lead]
        return hot, 1.0 - self.reach

    @cached_property
    def far_last(self) -> FloatArray:
        """The last turn [on_pad][g] out to the lead `tail` + max_step (`last` is its
        start: the sweep goes up in g, so a longer one has the same numbers)."""
        if self.far is not None:
            return self.far
        assert self.rules is not None
        return last_turn_chances(self.rules, self.tail + self.opt.max_step)[0]

    def beyond(self, a: int, b: int, seat: int, yardkle_value: float, t: int, dice: int) -> float:
        """The worth at t >= cap of the state a set-aside left with t units and `dice` dice,
        the turn at (a, b) in `seat` solved at `yardkle_value` Y (docs/solver.md, "Hot dice
        forced", "Past the table: the lookups"): a free state banks, worth
        1 - U_b(a + t - b) (1 where the goal gives no last turn); with hot dice forced, the
        state after hot dice is H(t) = rho + (1 - rho) Y - E_G(a + t - b).  The same sums
        as `bank` and `forced` give the table's rows; from the lead `tail` on, U and E_G
        are taken as 0 (both are at most the race there, W(tail) <= CHAIN_TAIL)."""
        if t < self.cap(a, b, seat):
            raise ValueError("under the cap a turn's worth is its table's")
        lead = a + t - b
        pad = int(b > 0 or not self.entry_levels)
        gives_last = self.last_turns and seat == 0
        if self.chain is not None and dice == self.dice:
            hot = self.reach
            if gives_last and lead < self.chain.shape[1]:
                hot -= float(self.chain[pad, lead])
            return hot + (1.0 - self.reach) * yardkle_value
        if not gives_last:
            return 1.0
        if lead < self.last.shape[1]:
            return 1.0 - float(self.last[pad, lead])
        far = self.far_last
        return 1.0 - float(far[pad, lead]) if lead < far.shape[1] else 1.0

    def closed(self, turn: Turn, side: Side, yardkle_value: float) -> Turn:
        """`turn` (the thrower's at `side`, solved at `yardkle_value`) with its closed forms
        past its rows (`Turn.worth`)."""
        a, b, seat = side
        return dataclasses.replace(turn, beyond=partial(self.beyond, a, b, seat, yardkle_value))


def _tail(race: FloatArray, top: int) -> tuple[int, float]:
    """(G, W(G)): G the first lead past `top` where the race W (`race[g]`, all the dice) is
    at most CHAIN_TAIL.  Without such a lead in the race's levels, G stays past `top` and W
    at its last level bounds W(G) (W is nonincreasing)."""
    small = np.nonzero(race[top + 1 :] <= CHAIN_TAIL)[0]
    size = top + 1 + int(small[0]) if len(small) else max(top + 1, len(race) - 1)
    return size, float(race[min(size, len(race) - 1)])


def _forced_chain(
    rules: YardkleRules, opt: _Options, top: int, w: FloatArray, last_turns: bool
) -> tuple[FloatArray, float, FloatArray | None]:
    """(E_G[on_pad][g] for leads g < G + max_step, its bound tau = W(G), the last turn
    [on_pad][g] it read, out to G + max_step): with hot dice forced, from the cap on a
    throw of all the dice keeps dice back when it can (the largest bank) and else takes
    the best hot set-aside, so E(g) = sum over kept-back throws of P min_k U(g + k) + sum
    over only-hot throws of P min_h E(g + h).  Swept down from G - 1 with E = 0 from G on
    (`_tail`); 0 <= E - E_G <= W(G) (docs/solver.md, "Hot dice forced").  With no last
    turns E = 0 and no last turn is read."""
    d = rules.dice
    if not last_turns:
        return np.zeros((2, top + 1)), 0.0, None
    size, tau = _tail(w[:, d - 1], top)
    u = last_turn_chances(rules, size + opt.max_step)[0]
    ends = np.append(opt.starts[1:], len(opt.steps))
    kept = np.zeros((2, size))
    hot_throws: list[tuple[float, IndexArray]] = []
    for j in np.nonzero(opt.chance[:, d - 1] > 0)[0]:  # the throws of all the dice
        steps, cols = opt.steps[opt.starts[j] : ends[j]], opt.cols[opt.starts[j] : ends[j]]
        p = float(opt.chance[j, d - 1])
        back = steps[cols < d - 1]
        if len(back):
            kept += p * np.minimum.reduce([u[:, k : k + size] for k in back.tolist()])
        else:
            hot_throws.append((p, steps))
    chain = np.zeros((2, size + opt.max_step + 1))
    for g in range(size - 1, -1, -1):
        chain[:, g] = kept[:, g]
        for p, steps in hot_throws:
            chain[:, g] += p * chain[:, g + steps].min(axis=1)
    return chain, tau, u


def _game(rules: YardkleRules) -> _Game:
    opt = _options(rules)
    d = rules.dice
    k = open_levels(rules)
    e = math.ceil(rules.entry_minimum / rules.unit)
    last_turns = rules.last_turns != "none"
    seats = 2 if rules.last_turns == "complete_the_round" else 1
    q_min, q_all = float(opt.yardkle.min()), float(opt.yardkle[d - 1])

    # A lower bound on V[b, a, seat]: b makes the goal this turn, and a's last turn opens
    # with a Yardkle (or, where his goal ends the game, reaching it wins at once).
    reach = _race_to_goal(rules, k, e)
    lower = np.stack([reach * (q_all if last_turns and s == 0 else 1.0) for s in range(seats)])
    # The lead d_star[b] from which banking is optimal for seat 0 whatever the Yardkle value
    # allowed by the opponent's `lower`: U(lead) <= W(lead, the chaser's need to tie) <=
    # q_min * lower[opponent's seat, b].
    w = win_chances(rules, 2_000)
    d_star = np.zeros(k, dtype=np.intp)
    if last_turns:
        for b in range(k):
            bound = q_min * lower[seats - 1, b]
            need = np.arange(w.shape[0])
            if b == 0:
                need = np.maximum(need, e)
            below = np.nonzero(w[need, d - 1] <= bound)[0]
            if not len(below):
                raise ValueError("goal too large for the reference solver")
            d_star[b] = int(below[0])
    gaps = int(max(d_star.max(), k)) + k + opt.max_step + 2
    last, last_throws = last_turn_chances(rules, gaps)
    # The largest lead a turn's rows from its cap read: cap + a - b + max_step at most.
    top = max(k, k - 1 + e, int(d_star.max())) + opt.max_step
    game = _Game(
        opt, d, k, e, _tie_value(rules), last_turns, lower, d_star, last, last_throws, seats
    )
    game = dataclasses.replace(game, tail=_tail(w[:, d - 1], top)[0], rules=rules)
    if rules.hot_dice_optional:
        return game
    rho = hot_dice_forced(rules).reach
    # Single 1s score, so a throw of two or more dice can keep some back: rho > 0, and a
    # forced turn banks with a chance above 0 (one die with hot dice forced is refused).
    assert rho > 0.0
    chain, error, far = _forced_chain(rules, opt, top, w, last_turns)
    return dataclasses.replace(game, chain=chain, reach=rho, chain_error=error, far=far)


def solve_duel(rules: YardkleRules) -> DuelTable:
    """Solve the two-player game to `rules.target` (docs/solver.md has the proofs)."""
    game = _game(rules)
    opt, d, k, lower = game.opt, game.dice, game.levels, game.lower

    values = np.zeros((game.seats, k, k))
    turns: dict[Side, Turn] = {}
    worst_error, worst_l = 0.0, 0.0

    def turn_for(side: Side, yardkle_value: float) -> Turn:
        a, b, seat = side
        bank, legal, cap = game.bank(a, b, values, seat)
        return _solve_turn(opt, bank, legal, yardkle_value, cap, game.forced(a, b, seat))

    def kept_turn(side: Side, yardkle_value: float) -> Turn:
        return game.closed(turn_for(side, yardkle_value), side, yardkle_value)

    def turn_value(side: Side, yardkle_value: float) -> tuple[float, float]:
        turn = turn_for(side, yardkle_value)
        return float(turn.throw[0, d - 1]), turn.slope

    for s in range(2 * k - 2, -1, -1):
        for a in range(max(0, s - k + 1), s // 2 + 1):
            for side_a, side_b in game.systems(a, s - a):
                one = side_a == side_b  # x = F(1 - x), one equation
                pair = solve_pair(
                    partial(turn_value, side_a),
                    None if one else partial(turn_value, side_b),
                    lower[side_b[2], side_a[1]],  # the opponent's seat and total
                    lower[side_a[2], side_b[1]],
                    game.chain_error,
                    f"{side_a}, {side_b}",
                )
                worst_error = max(worst_error, pair.bound)
                worst_l = max(worst_l, pair.contraction)
                values[side_a[2], side_a[0], side_a[1]] = pair.x
                values[side_b[2], side_b[0], side_b[1]] = pair.y
                # each side's turn at its accepted Yardkle value (the same numbers again)
                # with its closed forms past its rows (`Turn.worth`)
                turns[side_a] = kept_turn(side_a, pair.yardkle_a)
                turns[side_b] = turns[side_a] if one else kept_turn(side_b, pair.yardkle_b)
    return DuelTable(
        rules=rules,
        levels=k,
        entry_levels=game.entry_levels,
        tie_value=game.tie,
        seat_values=values,
        last_turn=game.last,
        last_turn_throws=game.last_throws,
        turns=turns,
        error_bound=worst_error,
        contraction=worst_l,
    )
