"""The tables of a scorecard game, as specs the tables registry serves.

Per ruleset a `value` table (the expected points still to come from every state under
optimal play, the coach's table) and a `max` table (one number: the most points the game
can give from an empty card); for play to win a `win` and a `distribution` table (bands
per state, `solver.bands`), solved only when a request first needs them.  All are keyed
by the ruleset's content hash, so a changed rule can never be served a table solved for
another.
"""

from __future__ import annotations

from functools import partial
from typing import cast

import numpy as np

from diceref.core.arrays import FloatArray
from diceref.core.cache import PerRuleset
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver.bands import Float32Array
from diceref.games.scorecard.solver.engine import (
    SOLVER_VERSION,
    solve,
    solve_distribution_packed,
    solve_max,
    solve_win_packed,
    solve_with_max,
)
from diceref.games.scorecard.solver.packed import PackedBands, unpack
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.scorecard.solver.target import TARGET_VERSION
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
    _MAX_FROM_SOLVE.put(ruleset.rules_hash, _empty_card(ruleset, best))
    return values


def _max(ruleset: Ruleset, progress: Progress | None = None) -> FloatArray:
    found = _MAX_FROM_SOLVE.pop(ruleset.rules_hash)
    return found if found is not None else _empty_card(ruleset, solve_max(ruleset))


def _empty_card(ruleset: Ruleset, table: FloatArray) -> FloatArray:
    zero = np.zeros(1, dtype=np.int64)
    best: FloatArray = table[state_space(ruleset).index(zero, zero, zero)]
    return best


# The play-to-win tables: one flat float32 array each, the cells of `packed.pack`'s form,
# whose length only the solve tells; each loads apart from the ruleset's value and max
# tables, and its decoder is compiled (or read from numba's cache) before it is served.
TARGET_SOLVER_VERSION = f"{SOLVER_VERSION}.{TARGET_VERSION}"


def win_spec(ruleset: Ruleset) -> TableSpec:
    """From every state, the best chance that the points still to come reach n."""
    return _target_spec(ruleset, "win", partial(_win, ruleset))


def distribution_spec(ruleset: Ruleset) -> TableSpec:
    """From every state, the chance of each number of points still to come under
    expected-points play."""
    return _target_spec(ruleset, "distribution", partial(_distribution, ruleset))


def _target_spec(ruleset: Ruleset, kind: str, solve_bands: partial[Float32Array]) -> TableSpec:
    return _SPECS.get(
        (kind, ruleset.id, ruleset.rules_hash),
        lambda: TableSpec(
            kind,
            ruleset.id,
            ruleset.rules_hash,
            TARGET_SOLVER_VERSION,
            (None,),
            solve_bands,
            dtype="<f4",
            group=kind,
            in_redis=False,  # 250 MB each for Yahtzee, 1 GB for dice-poker: docs/tables.md
            warm=_warm_bands,
        ),
    )


def target_specs(ruleset: Ruleset) -> tuple[TableSpec, TableSpec]:
    """A ruleset's play-to-win tables: the distribution (quick), then the win table."""
    return (distribution_spec(ruleset), win_spec(ruleset))


def band_table(table: FloatArray) -> PackedBands:
    """A loaded win or distribution table as the `PackedBands` it stores (views of it)."""
    if table.dtype != np.float32:
        raise TypeError(f"a band table is stored as float32, not {table.dtype}")
    return unpack(cast(Float32Array, table))


def _warm_bands(table: FloatArray) -> None:
    band_table(table).warm()


def _win(ruleset: Ruleset, progress: Progress | None) -> Float32Array:
    return solve_win_packed(ruleset, progress)


def _distribution(ruleset: Ruleset, progress: Progress | None) -> Float32Array:
    """The distribution table, from the value table solved here first (a tenth of the
    progress; the solve runs in a worker process, which has no table of the registry's)."""

    def part(start: int, width: int) -> Progress | None:
        if progress is None:
            return None
        report = progress
        return lambda done, total: report(start + width * done // max(total, 1), 1000)

    values = solve(ruleset, part(0, 100))
    return solve_distribution_packed(ruleset, values, part(100, 900))


def ruleset_specs(ruleset: Ruleset) -> tuple[TableSpec, TableSpec]:
    """A ruleset's tables, in the order a client needs them: the coach's, then the max."""
    return (value_spec(ruleset), max_spec(ruleset))


def table_specs() -> tuple[TableSpec, ...]:
    """Every built-in game's tables: its value table, then its max table."""
    return tuple(spec for r in SCORECARD_GAMES.values() for spec in ruleset_specs(r))
