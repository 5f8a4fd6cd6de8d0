"""Yardkle's tables, as specs the tables registry serves (docs/tables.md).

`policy`: the expected turn points of every state under the optimal turn policy; small
(32 KB, at most 1.92 MB, `MAX_LEVELS`) and quick, loaded before the first request, read
by `/yardkle/holds` (503 while it loads, never solved inline).
`duel` (`duel_spec`): two players' chance to win for every pair of banked totals, stored
as `solver/duel_array.py` lays it out, 3 S K^2 + (2 + D) G + 10 float64 numbers (998,352
bytes at the default rules: S = 1 seat, K = 200 levels, G = 598; S = 2 under
`complete_the_round`); minutes to solve, so on demand only (`/yardkle/holds` with an
`opponent`: 503 until loaded; `diceref precompute yardkle --target` ahead).  House rules
are solved up to `MAX_DUEL_LEVELS` = 240 levels to the goal; beyond it, a 422
`ruleset_limit`.
"""

from __future__ import annotations

import dataclasses
import math
from functools import lru_cache, partial
from typing import Any

from diceref.core.arrays import FloatArray
from diceref.core.cache import per_ruleset
from diceref.core.game import RuleParameterError
from diceref.games.yardkle.rules.ruleset import (
    DEFAULT_RULES,
    POINTS_PARAMETERS,
    RULESETS_KEPT,
    YardkleRules,
)
from diceref.games.yardkle.solver import duel_array, policy
from diceref.games.yardkle.solver.duel import open_levels
from diceref.games.yardkle.solver.duel_fast import CompactDuel, solve_duel_fast
from diceref.games.yardkle.solver.throws import throw_summary
from diceref.tables.spec import Progress, TableSpec

GAME = "yardkle"
# Solved tables kept by the process (up to 1.9 MB each under house rules; the registry
# holds the ones it serves).
TABLES_KEPT = 16

MAX_LEVELS = 20_000
"""The most levels a Yardkle ruleset may need, a level being one step of the rules' unit
(the greatest common divisor of the combinations' points, 50 by default).

The policy table holds 2 x levels x dice values (the turn points from 0 up to the proven
banking bound, `policy.layout`), so at most 2 x 20,000 x 6 x 8 bytes = 1,920,000 bytes,
solved in about 2 s (`benchmarks/bench_yardkle_limits.py`); the race of `need` counts
the target in the same levels.  The built-in game needs 336 (and its target 200); a step
of 1 point needs some 12,000 to 20,000; hot dice forced raise the bound about sixfold (2,218
by default).  Rules needing more are refused (`ruleset_limit`), so every accepted ruleset
solves in seconds."""

# The parameters whose value changes how many levels the rules need.
SIZE_PARAMETERS = (*POINTS_PARAMETERS, "entry_minimum", "target", "hot_dice_optional")


def rules_hash(rules: YardkleRules) -> str:
    """Identity of a Yardkle ruleset (its `ruleset_id`): every field, so any changed reading
    gets a new table."""
    return rules.rules_hash


@per_ruleset(RULESETS_KEPT)
def policy_spec(rules: YardkleRules) -> TableSpec:
    """Expected turn points of every Yardkle state under the optimal turn policy."""
    return TableSpec(
        "policy",
        GAME,
        rules_hash(rules),
        policy.SOLVER_VERSION,
        lambda: (2, policy.layout(rules).levels, rules.dice),
        partial(_solve, rules),  # pickles: solved on demand in the solver pool's processes
        at_startup=True,
    )


def _solve(rules: YardkleRules, progress: Progress | None) -> FloatArray:
    """The spec's solve: a module-level function over picklable rules, so a house-rules
    table is solved in the solver pool's processes, not in the one serving requests."""
    return solve_policy_table(rules)


@per_ruleset(TABLES_KEPT)
def solve_policy_table(rules: YardkleRules) -> FloatArray:
    """The pure solve, kept per process for the `TABLES_KEPT` rulesets solved last and
    read-only (tests share it; every array handed out is read-only, so no caller can corrupt
    the copy the others see)."""
    table = policy.yardkle_table(rules)
    table.setflags(write=False)
    return table


def levels_needed(rules: YardkleRules) -> int:
    """Levels of the rules' unit the coach needs: the policy table's, or the target's (the
    race of `need` is solved in levels up to it), whichever is more."""
    target = math.ceil(max(rules.target, rules.entry_minimum) / rules.unit)
    return max(policy.layout(rules).levels, target)


def levels_at_most(rules: YardkleRules) -> int | None:
    """An upper bound on `levels_needed` from the rules' numbers alone, in microseconds
    (None with hot dice forced, whose bound has no such shortcut).

    The exact count reads the throws' summary (`solver/throws.py`, array work, never every
    option of every throw): most house rules need not even that.  The banking bound is
    max over n of a_n / q_n (`policy.layout`): a_n, the expected best set-aside of n dice,
    is at most n times the largest combination (each combination takes at least one die),
    and q_n, the chance that nothing scores, is at least its value with every combination
    in play, since a house rule can only take combinations away (0 points)."""
    if not rules.hot_dice_optional:
        return None
    largest = max(c.points for c in rules.combinations)
    least_q = _least_yardkle_chance(rules.groups_distinct_faces)
    bound = max(n * largest / float(least_q[n - 1]) for n in range(1, rules.dice + 1))
    table = math.ceil(max(bound, rules.entry_minimum) / rules.unit)
    return max(table, math.ceil(max(rules.target, rules.entry_minimum) / rules.unit))


@lru_cache(maxsize=2)
def _least_yardkle_chance(groups_distinct_faces: bool) -> FloatArray:
    """q_n for n = 1..6 dice with every combination in play (the least any ruleset has)."""
    every = YardkleRules(groups_distinct_faces=groups_distinct_faces)
    return throw_summary(every).yardkle_chance


def check_solvable(rules: YardkleRules) -> None:
    """Refuse rules needing more than `MAX_LEVELS`, naming the parameter whose house value
    costs the most: the one that, set back to its default, needs the fewest levels.  Most
    house rules are accepted on the cheap bound (`levels_at_most`) without the exact count;
    the others are counted from the throws' summary, so a check costs milliseconds whatever
    the values (`benchmarks/bench_yardkle_checks.py`), refused or not."""
    cheap = levels_at_most(rules)
    if cheap is not None and cheap <= MAX_LEVELS:
        return
    needed = levels_needed(rules)
    if needed <= MAX_LEVELS:
        return
    defaults: dict[str, Any] = {n: getattr(DEFAULT_RULES, n) for n in SIZE_PARAMETERS}
    changed = [n for n in SIZE_PARAMETERS if getattr(rules, n) != defaults[n]]
    back = {n: levels_needed(dataclasses.replace(rules, **{n: defaults[n]})) for n in changed}
    name = min(changed, key=lambda n: back[n])
    raise RuleParameterError(
        name,
        f"these rules need a table of {needed:,} levels of {rules.unit} points (turn points up "
        f"to the banking bound {policy.layout(rules).bound:,.0f}, or to the target, in steps "
        "of the greatest common divisor of the combinations' points), over the "
        f"{MAX_LEVELS:,} the service solves; {name} at its default "
        f"({defaults[name]}) needs {back[name]:,}",
        "ruleset_limit",
    )


# --- two players: the duel table ---------------------------------------------------------

DUEL_SOLVER_VERSION = "2"  # bump whenever a duel table solved before would differ

MAX_DUEL_LEVELS = 240
"""The most levels to the goal (K, the totals 0 .. K - 1 units that have not reached it) a
two-player table is solved for.  Its solve grows about as K^3 (K^2 pairs, each turn's cap
about K deep): 3 to 5 minutes for the default's 200 on two shared cores, so the bound's 240
(the target 12,000 at the unit 50) takes some 6 to 9; its table, 3 S K^2 float64 numbers
(S seats) and the last turn, stays under 3 MB."""

# Readings the duel solve does not cover, with the values it does: none today (hot dice
# forced and every `last_turns` reading are solved), kept for the check below.
DUEL_READINGS: dict[str, tuple[object, ...]] = {}
# The parameters whose value changes the levels to the goal (`open_levels`): those of
# `SIZE_PARAMETERS` but hot dice, which raise the coach's banking bound, not the goal.
DUEL_SIZE_PARAMETERS = tuple(n for n in SIZE_PARAMETERS if n != "hot_dice_optional")


def check_duel_solvable(rules: YardkleRules) -> None:
    """Refuse (`ruleset_limit`, naming the parameter) rules whose two-player table the
    service does not solve: more than `MAX_DUEL_LEVELS` levels to the goal, or a reading
    the duel solve does not cover."""
    for name, covered in DUEL_READINGS.items():
        if getattr(rules, name) not in covered:
            raise RuleParameterError(
                name,
                f"the two-player chance to win is solved with {name} "
                f"{' or '.join(str(c).lower() for c in covered)} only",
                "ruleset_limit",
            )
    levels = open_levels(rules)
    if levels <= MAX_DUEL_LEVELS:
        return
    defaults: dict[str, Any] = {n: getattr(DEFAULT_RULES, n) for n in DUEL_SIZE_PARAMETERS}
    changed = [n for n in DUEL_SIZE_PARAMETERS if getattr(rules, n) != defaults[n]]
    back = {n: open_levels(dataclasses.replace(rules, **{n: defaults[n]})) for n in changed}
    name = min(changed, key=lambda n: back[n]) if changed else "target"
    raise RuleParameterError(
        name,
        f"these rules need a two-player table of {levels:,} levels of {rules.unit} points to "
        f"the target, over the {MAX_DUEL_LEVELS:,} the service solves"
        + (f"; {name} at its default ({defaults[name]}) needs {back[name]:,}" if changed else ""),
        "ruleset_limit",
    )


@per_ruleset(RULESETS_KEPT)
def duel_spec(rules: YardkleRules) -> TableSpec:
    """The two-player chance to win from every pair of banked totals (`duel_array`'s
    layout), solved on demand in a group of its own: the coach's table never waits for
    it.  The rules must pass `check_duel_solvable`."""
    return TableSpec(
        "duel",
        GAME,
        rules_hash(rules),
        DUEL_SOLVER_VERSION,
        (None,),
        partial(_solve_duel, rules),  # pickles: solved in the solver pool's processes
        group="duel",
        warm=partial(_warm_duel, rules),
    )


def _warm_duel(rules: YardkleRules, table: FloatArray) -> None:
    """Rebuild the game from the loaded table and recompute one turn: the compiled sweep is
    imported and compiled (about 2 s, or read from numba's cache) before the table is
    served, not by a process's first two-player request."""
    duel_of(rules, table).turn(0, 0)


def _solve_duel(rules: YardkleRules, progress: Progress | None) -> FloatArray:
    def report(_: int, share: float) -> None:
        if progress is not None:
            progress(round(1000 * share), 1000)

    return duel_array.to_array(solve_duel_fast(rules, report))


# The games rebuilt from loaded duel tables, by rules hash, with the array each came from:
# a table loaded again (another mapping) is rebuilt, the same one is not.
_DUELS: dict[str, tuple[FloatArray, CompactDuel]] = {}
DUELS_KEPT = 4


def duel_of(rules: YardkleRules, table: FloatArray) -> CompactDuel:
    """The solved game a loaded duel table holds (views of it), built once per table."""
    key = rules_hash(rules)
    found = _DUELS.get(key)
    if found is not None and found[0] is table:
        return found[1]
    duel = duel_array.from_array(rules, table)
    if len(_DUELS) >= DUELS_KEPT:
        _DUELS.pop(next(iter(_DUELS)), None)
    _DUELS[key] = (table, duel)
    return duel


def target_specs(rules: YardkleRules) -> tuple[TableSpec, ...]:
    """The play-to-win tables of the rules (`diceref precompute --target`): the duel table,
    refused (`RuleParameterError`) beyond what it is solved for."""
    check_duel_solvable(rules)
    return (duel_spec(rules),)


def table_specs() -> tuple[TableSpec, ...]:
    return (policy_spec(DEFAULT_RULES),)
