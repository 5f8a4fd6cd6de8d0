"""Yardkle's one table, as a spec the tables registry serves: the expected turn points of
every state (pad or not, turn points, dice left) under the optimal turn policy.

It is small (32 KB, solved in 0.1 s), so it is loaded before the service takes its first
request (`at_startup`), and `/yardkle/holds` reads it from the registry like every other
table: a process without it answers 503 while it loads, never solves inline.
"""

from __future__ import annotations

from functools import cache, partial

from diceref.core.arrays import FloatArray
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES, YardkleRules
from diceref.games.yardkle.solver import policy
from diceref.tables.spec import Progress, TableSpec

GAME = "yardkle"


def rules_hash(rules: YardkleRules) -> str:
    """Identity of a Yardkle ruleset (its `ruleset_id`): every field, so any changed reading
    gets a new table."""
    return rules.rules_hash


@cache
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
    return solve_policy_table(rules)


@cache
def solve_policy_table(rules: YardkleRules) -> FloatArray:
    """The pure solve, cached per process and read-only (tests share it; every array handed
    out is read-only, so no caller can corrupt the copy the others see)."""
    table = policy.yardkle_table(rules)
    table.setflags(write=False)
    return table


def table_specs() -> tuple[TableSpec, ...]:
    return (policy_spec(DEFAULT_RULES),)
