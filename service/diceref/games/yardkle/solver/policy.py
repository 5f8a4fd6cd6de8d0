"""The Yardkle turn policy that maximises expected points per turn, solved exactly.

State: (points accumulated this turn t, dice left to throw n); after a throw the player
picks a set-aside, then banks or throws the dice left.  Every set-aside scores, so t only
grows and one sweep from high t down is the fixed point (the Bellman residual is still
checked); above a proven bound the policy banks and values are closed-form (`HotDiceForced`
when hot dice are forced).  The proofs and figures: docs/rules/yardkle.md, "The turn
policy".  Pure numpy, no I/O: `yardkle_table(rules)` returns a plain array for the store.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from diceref.core.arrays import FloatArray, IndexArray
from diceref.core.cache import per_ruleset
from diceref.core.dice import multiset_probability, multisets
from diceref.games.yardkle.rules.ruleset import RULESETS_KEPT
from diceref.games.yardkle.rules.scoring import YardkleRules, set_asides
from diceref.games.yardkle.solver.throws import scoring_key, throw_summary

SOLVER_VERSION = "1"
TOLERANCE = 1e-9
LEVEL_CHUNK = 64  # levels per block when the Bellman operator is applied to the whole table


@dataclass(frozen=True)
class ThrowOptions:
    """Every (throw, set-aside) pair for throws of 1..D dice, flattened for array work.

    Throws are multisets with their chance; options are sorted by throw, so the best option
    of each scoring throw is one `np.maximum.reduceat` away.
    """

    throw_dice: IndexArray  # (n_throws,) how many dice the throw has
    throw_probability: FloatArray  # (n_throws,)
    starts: IndexArray  # (n_scoring,) first option of each scoring throw
    scoring_dice: IndexArray  # (n_scoring,) dice in that throw
    scoring_probability: FloatArray  # (n_scoring,)
    option_steps: IndexArray  # (n_options,) points of the set-aside, in units
    option_next: IndexArray  # (n_options,) dice left after it (all again after hot dice)


def throw_options(rules: YardkleRules) -> ThrowOptions:
    """Every option of every throw under `rules`: the solve's and the race's input (the
    layout reads the cheaper `throws.throw_summary`).  Kept per scoring rules, so another
    target or entry minimum reuses it."""
    return _throw_options(scoring_key(rules))


@per_ruleset(RULESETS_KEPT)
def _throw_options(rules: YardkleRules) -> ThrowOptions:
    unit, n_dice = rules.unit, rules.dice
    throw_dice: list[int] = []
    throw_probability: list[float] = []
    starts: list[int] = []
    scoring_dice: list[int] = []
    scoring_probability: list[float] = []
    steps: list[int] = []
    nexts: list[int] = []
    for n in range(1, n_dice + 1):
        for throw in multisets(n):
            p = multiset_probability(throw)
            throw_dice.append(n)
            throw_probability.append(p)
            options = set_asides(throw, rules)
            if not options:
                continue
            starts.append(len(steps))
            scoring_dice.append(n)
            scoring_probability.append(p)
            for o in options:
                left = n - len(o.dice)
                steps.append(o.points // unit)
                nexts.append(left if left else n_dice)
    return ThrowOptions(
        throw_dice=np.array(throw_dice, dtype=np.intp),
        throw_probability=np.array(throw_probability),
        starts=np.array(starts, dtype=np.intp),
        scoring_dice=np.array(scoring_dice, dtype=np.intp),
        scoring_probability=np.array(scoring_probability),
        option_steps=np.array(steps, dtype=np.intp),
        option_next=np.array(nexts, dtype=np.intp),
    )


@dataclass(frozen=True)
class HotDiceForced:
    """The top of the table when hot dice must be thrown again.

    A *free* state (fewer than all the dice left) may bank; the state after hot dice may
    not.  Going on from a free state with n dice and banking at the next free state is
    worth at most (1 - q_n) t + g_n, where g_n bounds the points a chain of forced throws
    can add, whatever is chosen in it: g_n = E max(best kept-back set-aside, hot set-aside
    + g_D) over the throws of n dice, g_D its own fixed point (a contraction: a throw of D
    dice scores all of them with chance under 1).  So from t >= g_n / q_n on every free
    state banks (the monotone stopping argument of the module docstring, with the forced
    throws inside one step).  A forced throw at u is then worth at most (1 - q_D) u + g_D,
    so taking hot dice (s_h) rather than keeping dice back (s_k) and banking is worse once
    q_D t >= (1 - q_D) s_h + g_D - s_k: above both bounds the player keeps dice back
    whenever a throw allows it, and a forced throw's value is linear, H(t) = slope t +
    offset: H(t) = (1 - q_D - r_D) t + c_D + sum over only-hot throws p H(t + s_h), with
    r_D their chance and c_D the kept-back points, solved for slope and offset (the unique
    solution growing at most linearly, since r_D < 1).
    """

    slope: float
    offset: float
    gain_bound: float  # g_D
    bound: float  # turn points from which the above holds
    reach: float  # chance a forced throw of all the dice, then banking, keeps the points


def _kept_back_and_hot(rules: YardkleRules, n: int) -> tuple[float, float, float]:
    """For throws of n dice: the chance that only the hot set-aside scores, the
    kept-back points summed over the other scoring throws, and the hot points summed over
    the only-hot ones (all weighted by chance)."""
    s = throw_summary(rules)
    of_n = s.dice == n
    only = of_n & (s.kept_back == -np.inf)
    rest = of_n & ~only
    return (
        float(s.probability[only].sum()),
        float((s.probability[rest] * s.kept_back[rest]).sum()),
        float((s.probability[only] * s.whole[only]).sum()),
    )


@per_ruleset(RULESETS_KEPT)
def hot_dice_forced(rules: YardkleRules) -> HotDiceForced:
    s = throw_summary(rules)
    d = rules.dice
    q = s.yardkle_chance

    def chain_gain(n: int, tail: float) -> float:
        of_n = s.dice == n
        return float((s.probability[of_n] * np.maximum(s.kept_back, s.whole + tail)[of_n]).sum())

    g = 0.0
    for _ in range(100_000):
        nxt = chain_gain(d, g)
        if abs(nxt - g) <= 1e-12 * max(1.0, nxt):
            g = nxt
            break
        g = nxt
    else:  # pragma: no cover - the contraction's factor is below 1
        raise RuntimeError("the hot-dice gain bound did not converge")
    free = max((chain_gain(n, g) / q[n - 1] for n in range(1, d)), default=0.0)
    qd = float(q[d - 1])
    both = (s.kept_back > -np.inf) & (s.whole > -np.inf)
    prefer = float(np.max(((1 - qd) * s.whole[both] + g - s.kept_back[both]) / qd, initial=0.0))
    only_hot, kept, hot = _kept_back_and_hot(rules, d)
    slope = (1.0 - qd - only_hot) / (1.0 - only_hot)
    offset = (kept + slope * hot) / (1.0 - only_hot)
    return HotDiceForced(
        slope=slope,
        offset=offset,
        gain_bound=g,
        bound=max(free, prefer, 0.0),
        reach=(1.0 - qd - only_hot) / (1.0 - only_hot),
    )


@per_ruleset(RULESETS_KEPT)
def closed_form_coefficients(rules: YardkleRules) -> tuple[FloatArray, FloatArray]:
    """(slopes, offsets) per dice count: throwing n dice at or above `bank_from` is worth
    slope t + offset (then banking at the first state that may bank)."""
    summary = throw_summary(rules)
    if rules.hot_dice_optional:
        return 1.0 - summary.yardkle_chance, summary.best_gain
    forced = hot_dice_forced(rules)
    slopes, offsets = np.zeros(rules.dice), np.zeros(rules.dice)
    for n in range(1, rules.dice + 1):
        only_hot, kept, hot = _kept_back_and_hot(rules, n)
        q = float(summary.yardkle_chance[n - 1])
        slopes[n - 1] = 1.0 - q - only_hot + only_hot * forced.slope
        offsets[n - 1] = kept + forced.slope * hot + only_hot * forced.offset
    return slopes, offsets


def kept_chance(rules: YardkleRules, dice: int) -> float:
    """Chance that throwing `dice` dice keeps the points in hand (the race's need already
    met): no Yardkle, and with hot dice forced, a throw that only scores as hot dice goes
    on to a state that may bank."""
    q = float(throw_summary(rules).yardkle_chance[dice - 1])
    if rules.hot_dice_optional:
        return 1.0 - q
    only_hot = _kept_back_and_hot(rules, dice)[0]
    return 1.0 - q - only_hot * (1.0 - hot_dice_forced(rules).reach)


def hot_dice_reach(rules: YardkleRules) -> float:
    """Chance of keeping the points after hot dice, the need met: 1 when the player may
    bank there, else that of the forced throw of all the dice."""
    return 1.0 if rules.hot_dice_optional else hot_dice_forced(rules).reach


@dataclass(frozen=True)
class Layout:
    """Where a value lives in the table, and where the table stops (levels x unit is the
    proven bound rounded up; `solve` may be asked for more levels)."""

    unit: int  # points per level
    levels: int  # table rows: turn points 0, unit, ..., (levels - 1) x unit
    bank_from: int  # from this many turn points on the policy always banks
    bound: float  # max_n a_n / q_n, the proven bound before rounding up to a level
    max_step: int  # largest set-aside, in levels


@per_ruleset(RULESETS_KEPT)
def layout(rules: YardkleRules) -> Layout:
    """From the throws' summary (`solver/throws.py`: array work of a millisecond, whatever
    the points), not from every option of every throw, so a request's house rules are
    checked against the table's bound on the serving process without a solve's work."""
    summary = throw_summary(rules)
    if np.any(summary.yardkle_chance <= 0):
        raise ValueError("every throw size must risk a Yardkle, or a turn need never end")
    if rules.hot_dice_optional:
        bound = float(np.max(summary.best_gain / summary.yardkle_chance))
    else:
        bound = hot_dice_forced(rules).bound
    levels = math.ceil(max(bound, rules.entry_minimum) / rules.unit)
    return Layout(
        unit=rules.unit,
        levels=levels,
        bank_from=levels * rules.unit,
        bound=bound,
        max_step=summary.max_points // rules.unit,
    )


def bank_values(rules: YardkleRules, turn_points: FloatArray) -> FloatArray:
    """(2, len) worth of banking: row 0 off the pad (entry rule), row 1 on the pad."""
    off = np.where(turn_points >= rules.entry_minimum, turn_points, 0.0)
    return np.stack([off, turn_points])


def closed_form(rules: YardkleRules, turn_points: float, dice: int) -> float:
    """Value of throwing `dice` with turn points at or above `bank_from` (then banking)."""
    slopes, offsets = closed_form_coefficients(rules)
    return float(slopes[dice - 1]) * turn_points + float(offsets[dice - 1])


@dataclass(frozen=True)
class Solution:
    """values[on_pad, t // unit, n - 1]: expected turn points when about to throw n dice with
    t points in hand, playing optimally from there."""

    values: FloatArray  # (2, levels, D)
    sweeps: int
    residual: float  # max |Bellman(values) - values| over the table


def _extended_stop_values(rules: YardkleRules, lay: Layout, values: FloatArray) -> FloatArray:
    """(2, levels + max_step + 1, D) worth of each state after a set-aside: max(bank, throw).

    Rows at and above `levels` are in the banking region, where the worth is the bank value.
    With hot dice forced the state after hot dice (all D dice to throw) is worth its throw:
    the table's value below, the closed form above.
    """
    n_rows = lay.levels + lay.max_step + 1
    t = np.arange(n_rows, dtype=np.float64) * lay.unit
    bank = bank_values(rules, t)
    stop = np.repeat(bank[:, :, None], rules.dice, axis=2)
    np.maximum(stop[:, : lay.levels], values, out=stop[:, : lay.levels])
    if not rules.hot_dice_optional:
        slopes, offsets = closed_form_coefficients(rules)
        d = rules.dice - 1
        stop[:, : lay.levels, d] = values[:, :, d]
        stop[:, lay.levels :, d] = slopes[d] * t[lay.levels :] + offsets[d]
    return stop


def _scoring_matrix(rules: YardkleRules, opts: ThrowOptions) -> FloatArray:
    """(n_scoring, D): chance of each scoring throw, in the column of its dice count."""
    m = np.zeros((len(opts.starts), rules.dice))
    m[np.arange(len(opts.starts)), opts.scoring_dice - 1] = opts.scoring_probability
    return m


def _sweep(rules: YardkleRules, lay: Layout, values: FloatArray) -> float:
    """One Gauss-Seidel sweep from the top level down, in place; returns the largest change."""
    opts = throw_options(rules)
    chance = _scoring_matrix(rules, opts)
    stop = _extended_stop_values(rules, lay, values)
    bank = bank_values(rules, np.arange(lay.levels, dtype=np.float64) * lay.unit)
    cols = opts.option_next - 1
    change = 0.0
    for i in range(lay.levels - 1, -1, -1):
        reached = stop[:, i + opts.option_steps, cols]
        best = np.maximum.reduceat(reached, opts.starts, axis=1)
        new = best @ chance
        change = max(change, float(np.max(np.abs(new - values[:, i]))))
        values[:, i] = new
        stop[:, i] = np.maximum(bank[:, i, None], new)
        if not rules.hot_dice_optional:  # after hot dice: throw, never bank
            stop[:, i, -1] = new[:, -1]
    return change


def bellman_residual(rules: YardkleRules, values: FloatArray) -> float:
    """max |B(values) - values|, B applied to every level at once (no sweep order assumed)."""
    lay = replace(layout(rules), levels=values.shape[1])
    opts = throw_options(rules)
    chance = _scoring_matrix(rules, opts)
    stop = _extended_stop_values(rules, lay, values)
    cols = opts.option_next - 1
    worst = 0.0
    for lo in range(0, lay.levels, LEVEL_CHUNK):
        rows = np.arange(lo, min(lo + LEVEL_CHUNK, lay.levels))
        reached = stop[:, rows[:, None] + opts.option_steps[None, :], cols[None, :]]
        best = np.maximum.reduceat(reached, opts.starts, axis=2)
        new = best @ chance
        worst = max(worst, float(np.max(np.abs(new - values[:, rows]))))
    return worst


def solve(
    rules: YardkleRules, tol: float = TOLERANCE, max_sweeps: int = 10, levels: int | None = None
) -> Solution:
    """Value iteration to a Bellman residual of at most `tol`.

    `levels` may raise the table above the proven bound (never below it): the values must not
    move, which is how the tests check the bound instead of trusting it.
    """
    lay = layout(rules)
    if levels is not None:
        if levels < lay.levels:
            raise ValueError(f"the table needs at least {lay.levels} levels")
        lay = replace(lay, levels=levels)
    values = np.zeros((2, lay.levels, rules.dice))
    for sweeps in range(1, max_sweeps + 1):
        _sweep(rules, lay, values)
        residual = bellman_residual(rules, values)
        if residual <= tol:
            return Solution(values, sweeps, residual)
    raise RuntimeError(f"no convergence in {max_sweeps} sweeps (residual {residual})")


def yardkle_table(rules: YardkleRules) -> FloatArray:
    """The solved table as one plain array (see `Solution.values` for its layout)."""
    return solve(rules).values


def throw_value(
    table: FloatArray, rules: YardkleRules, on_pad: bool, turn_points: int, dice: int
) -> float:
    """Expected turn points of throwing `dice` with `turn_points` in hand, then playing on
    optimally (closed-form above the table, where the next set-aside is banked)."""
    unit = rules.unit
    level = turn_points // unit
    if turn_points % unit or level < 0:
        raise ValueError(f"turn points are a non-negative multiple of {unit}")
    if level >= table.shape[1]:
        return closed_form(rules, turn_points, dice)
    return float(table[int(on_pad), level, dice - 1])


def bank_value(rules: YardkleRules, on_pad: bool, turn_points: int) -> float:
    """Worth of banking now: the turn points, or 0 while the entry rule forbids banking."""
    return float(turn_points) if on_pad or turn_points >= rules.entry_minimum else 0.0
