"""Which tables each scorecard game has, how each is keyed and how it is computed.

The store is generic (keys and arrays); this module binds it to the solver, so that the
API, the CLI and the tests ask for a game's table in one way and share one cache.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

import numpy as np

from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.solver.engine import SOLVER_VERSION, FloatArray, solve, solve_max
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.yardkle.rules.scoring import YardkleRules
from diceref.games.yardkle.solver import policy as yardkle_solver
from diceref.games.yardkle.tables import GAME as YARDKLE
from diceref.games.yardkle.tables import solve_policy_table
from diceref.tables.key import TableKey
from diceref.tables.store import LoadedTable, TableStore


def value_key(ruleset: Ruleset) -> TableKey:
    """Expected points still to come from every state under optimal play."""
    return TableKey("value", ruleset.id, ruleset.rules_hash, SOLVER_VERSION)


def max_key(ruleset: Ruleset) -> TableKey:
    """The most points a game can give from an empty card (a one-element table)."""
    return TableKey("max", ruleset.id, ruleset.rules_hash, SOLVER_VERSION)


def _max_from_start(ruleset: Ruleset) -> FloatArray:
    space = state_space(ruleset)
    zero = np.zeros(1, dtype=np.int64)
    best: FloatArray = solve_max(ruleset)[space.index(zero, zero, zero)]
    return best


async def load_value_table(store: TableStore, ruleset: Ruleset) -> LoadedTable:
    return await store.get(
        value_key(ruleset), lambda: solve(ruleset), shape=(state_space(ruleset).size,)
    )


async def load_max_table(store: TableStore, ruleset: Ruleset) -> LoadedTable:
    return await store.get(max_key(ruleset), lambda: _max_from_start(ruleset), shape=(1,))


async def load_max_score(store: TableStore, ruleset: Ruleset) -> int:
    loaded = await load_max_table(store, ruleset)
    return round(float(loaded.array[0]))


def value_table_sync(store: TableStore, ruleset: Ruleset) -> LoadedTable:
    return store.get_sync(
        value_key(ruleset), lambda: solve(ruleset), shape=(state_space(ruleset).size,)
    )


def max_score_sync(store: TableStore, ruleset: Ruleset) -> int:
    loaded = store.get_sync(max_key(ruleset), lambda: _max_from_start(ruleset), shape=(1,))
    return round(float(loaded.array[0]))


def yardkle_rules_hash(rules: YardkleRules) -> str:
    """Identity of a Yardkle ruleset: every field, so any changed reading gets a new table."""
    blob = json.dumps(dataclasses.asdict(rules), sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def policy_key(rules: YardkleRules) -> TableKey:
    """Expected turn points of every Yardkle state under the optimal turn policy."""
    return TableKey("policy", YARDKLE, yardkle_rules_hash(rules), yardkle_solver.SOLVER_VERSION)


def policy_shape(rules: YardkleRules) -> tuple[int, ...]:
    return (2, yardkle_solver.layout(rules).levels, rules.dice)


async def load_policy_table(store: TableStore, ruleset: YardkleRules) -> LoadedTable:
    return await store.get(
        policy_key(ruleset), lambda: solve_policy_table(ruleset), shape=policy_shape(ruleset)
    )
