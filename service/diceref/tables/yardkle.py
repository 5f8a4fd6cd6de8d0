"""The Yardkle policy table, solved once per ruleset and kept in memory.

A thin accessor on purpose: the table store (memory, disk, Redis) replaces the
`functools.cache` here without the API or the solver changing.  The cached array is made
read-only so that no caller can corrupt the copy every later request shares.
"""

from __future__ import annotations

from functools import cache

from diceref.rules.yardkle import YardkleRules
from diceref.solver.yardkle import FloatArray, yardkle_table


@cache
def policy_table(rules: YardkleRules) -> FloatArray:
    """No default argument: `functools.cache` keys on the call, so one spelling per table."""
    table = yardkle_table(rules)
    table.setflags(write=False)
    return table
