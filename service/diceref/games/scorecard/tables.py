"""The tables of a scorecard game, as specs the tables registry serves.

Per ruleset a `value` table (the expected points still to come from every state under
optimal play, the coach's table) and a `max` table (one number: the most points the game
can give from an empty card).  Both are keyed by the ruleset's content hash, so a changed
rule can never be served a table solved for another.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from diceref.core.arrays import FloatArray
from diceref.core.cache import PerRuleset
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver.engine import SOLVER_VERSION, solve_max, solve_with_max
from diceref.games.scorecard.solver.statespace import state_space
from diceref.tables.spec import Progress, TableSpec

# Specs by (kind, game, rules hash): built once per ruleset, so that a request's lookup
# is a dict access rather than hashing the whole ruleset description.
_SPECS: PerRuleset[tuple[str, str, str], TableSpec] = PerRuleset(512)


def value_spec(ruleset: Ruleset) -> TableSpec:
    """Expected points still to come from every state under optimal play."""
    return _SPECS.get(
        ("value", ruleset.id, ruleset.rules_hash),
        lambda: TableSpec(
            "value",
            ruleset.id,
            ruleset.rules_hash,
            SOLVER_VERSION,
            (state_space(ruleset).size,),
            partial(_values, ruleset),
        ),
    )


def max_spec(ruleset: Ruleset) -> TableSpec:
    """The most points the game can give from an empty card (a one-element table)."""
    return _SPECS.get(
        ("max", ruleset.id, ruleset.rules_hash),
        lambda: TableSpec(
            "max", ruleset.id, ruleset.rules_hash, SOLVER_VERSION, (1,), partial(_max, ruleset)
        ),
    )


def max_score(table: FloatArray) -> int:
    """The max table's one number, as the integer it is."""
    return round(float(table[0]))


# The max table of a ruleset whose value table this process solved, until its max spec
# asks for it (a one-element array per ruleset; the oldest go first past MAX_KEPT).
MAX_KEPT = 64
_MAX_FROM_SOLVE: PerRuleset[str, FloatArray] = PerRuleset(MAX_KEPT)


# The solves are module-level functions bound with `partial`, so that a spec's solve
# pickles: a house-rules table is solved in a worker process (`tables.solver_pool`).
def _values(ruleset: Ruleset, progress: Progress | None) -> FloatArray:
    """The value table; the max table comes out of the same pass and waits for its spec,
    which every caller (`diceref precompute`, the registry at start-up) asks for right
    after the value table.  (A house rule's max table solved in another worker process of
    the solver pool does not find it there and is solved on its own: the same number.)"""
    values, best = solve_with_max(ruleset, progress)
    if best is not None:
        _MAX_FROM_SOLVE.put(ruleset.rules_hash, _empty_card(ruleset, best))
    return values


def _max(ruleset: Ruleset, progress: Progress | None = None) -> FloatArray:
    found = _MAX_FROM_SOLVE.pop(ruleset.rules_hash)
    return found if found is not None else _empty_card(ruleset, solve_max(ruleset))


def _empty_card(ruleset: Ruleset, table: FloatArray) -> FloatArray:
    zero = np.zeros(1, dtype=np.int64)
    best: FloatArray = table[state_space(ruleset).index(zero, zero, zero)]
    return best


def ruleset_specs(ruleset: Ruleset) -> tuple[TableSpec, TableSpec]:
    """A ruleset's tables, in the order a client needs them: the coach's, then the max."""
    return (value_spec(ruleset), max_spec(ruleset))


def table_specs() -> tuple[TableSpec, ...]:
    """Every built-in game's tables: its value table, then its max table."""
    return tuple(spec for r in SCORECARD_GAMES.values() for spec in ruleset_specs(r))
