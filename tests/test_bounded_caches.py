"""Every cache a process keeps of what requests send is bounded, and within one byte budget.

Any number of house rules can be sent, so a cache keyed by a ruleset (or by a throw and a
ruleset) must evict: a flood of distinct rulesets would otherwise grow a worker without end.
Only caches of functions without parameters (one entry, whatever is asked) may be unbounded.
A count alone does not bound memory (a request plan is 2.4 MB at the built-in upper-bonus
threshold, 18.6 MB at 500), so every cache keyed by a ruleset is a `PerRuleset`, whose
entries count against the process's one `MemoryBudget` with the registry's house-rules
tables.  The caches are found by walking every module, and by running the request paths
for distinct rulesets and looking for any module-level container that grew.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from collections import OrderedDict, defaultdict, deque
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import diceref
from diceref.core import cache
from diceref.core.cache import BUDGET, MemoryBudget, PerRuleset, nbytes_of
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Ruleset, UpperBonus
from diceref.games.scorecard.solver import advice, batched, request_turn
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.yardkle.rules.ruleset import YardkleRules
from diceref.games.yardkle.solver.race import win_chances

CONTAINERS = (dict, OrderedDict, defaultdict, list, set, deque)


def _modules() -> Iterator[ModuleType]:
    for info in pkgutil.walk_packages(diceref.__path__, "diceref."):
        if ".http" in info.name or info.name.endswith("cli"):
            # importing diceref.http.app builds the served app; the HTTP layer's caches are
            # keyed by a built-in game id (a closed set), never by rules
            continue
        yield importlib.import_module(info.name)


def _caches() -> list[tuple[str, Any]]:
    found = []
    for module in _modules():
        for name, value in vars(module).items():
            if callable(getattr(value, "cache_info", None)) and hasattr(value, "__wrapped__"):
                found.append((f"{module.__name__}.{name}", value))
    return found


def _containers() -> dict[str, int]:
    """Every module-level container, with its length."""
    return {
        f"{module.__name__}.{name}": len(value)
        for module in _modules()
        for name, value in vars(module).items()
        if type(value) in CONTAINERS
    }


def test_every_cache_keyed_by_what_a_request_sends_is_bounded() -> None:
    caches = _caches()
    assert len(caches) >= 10, "the walk found too few caches: it is broken"
    unbounded = [
        name
        for name, fn in caches
        if fn.cache_info().maxsize is None and inspect.signature(fn.__wrapped__).parameters
    ]
    assert unbounded == []


def test_every_per_ruleset_cache_counts_against_the_one_budget() -> None:
    found = {
        f"{module.__name__}.{name}": value
        for module in _modules()
        for name, value in vars(module).items()
        if isinstance(value, PerRuleset)
    }
    assert len(found) >= 10, sorted(found)  # the walk sees them (points, plans, turns...)
    assert [name for name, c in found.items() if c.budget is not BUDGET] == []


def _variant(threshold: int) -> Ruleset:
    return variant("yatzy", upper_bonus_threshold=threshold, upper_bonus_points=50)


def _beyond_the_bound(threshold: int) -> Ruleset:
    """Yatzy with a bonus threshold whose table is larger than the service solves (house
    rules refuse it): built directly, to make request plans of many megabytes."""
    yatzy = SCORECARD_GAMES["yatzy"]
    return dataclasses.replace(yatzy, upper_bonus=UpperBonus(threshold, 50))


def _exercise(threshold: int) -> None:
    """What serving a ruleset's requests derives from it: points, states, request plans,
    a turn's values, the compiled turn and solver's plan (with a Joker too); and a Yardkle
    race."""
    ruleset = _variant(threshold)
    points_table(ruleset)
    space = state_space(ruleset)
    values = np.zeros(space.size)
    request_turn.request_turn(ruleset, values, 0, 0, 0).keeps_with(1)
    advice._turn(ruleset, values, advice.CardState(0, 0, 0))
    batched.turn_plan(ruleset)
    joker = variant("yahtzee", upper_bonus_threshold=threshold)  # a Joker: its five-of-a-kind rows
    joker_space = state_space(joker)
    assert joker.five_box_index is not None
    mask = 1 << joker.five_box_index
    request_turn.request_turn(joker, np.zeros(joker_space.size), mask, 0, 1).keeps_with(1)
    win_chances(YardkleRules(target=5000 + 50 * threshold), 40)


def test_no_other_module_level_container_grows_with_distinct_rulesets() -> None:
    """A dict or list at module level that grows as distinct rulesets are served is a
    cache outside the budget (a request plan cache held 17.5 MB a ruleset that way)."""
    _exercise(5)  # first use: whatever is built once per process
    before = _containers()
    for threshold in range(6, 12):
        _exercise(threshold)
    grown = {
        name: (n, after)
        for name, after in _containers().items()
        if after > (n := before.get(name, 0))
    }
    assert grown == {}


def test_the_budget_evicts_the_least_recently_used_entry_of_any_cache() -> None:
    budget = MemoryBudget(limit=3 * 8000 + 500)
    plans: PerRuleset[str, np.ndarray] = PerRuleset(100, budget)
    spaces: PerRuleset[str, np.ndarray] = PerRuleset(100, budget)
    plans.get("a", lambda: np.zeros(1000))
    spaces.get("a", lambda: np.zeros(1000))
    plans.get("b", lambda: np.zeros(1000))
    plans.get("a", lambda: np.ones(1000))  # a hit: plans "a" used now
    spaces.get("b", lambda: np.zeros(1000))  # over: the oldest entry of either cache goes
    assert sorted(plans._items) == ["a", "b"] and sorted(spaces._items) == ["b"]
    budget.charge("tables", 2 * 8000)  # what the registry holds takes room too
    assert len(plans) + len(spaces) == 1
    assert budget.held() <= budget.limit
    budget.charge("tables", 0)
    spaces.get("c", lambda: np.zeros(1000))
    assert len(plans) + len(spaces) == 2


@pytest.mark.slow
def test_a_flood_of_request_plans_stays_within_the_byte_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Request plans at an upper-bonus threshold of 500 are 18.6 MB each: 32 of them (the
    count bound) were 600 MB.  With a 64 MB budget, the caches hold at most 64 MB plus the
    entry just built."""
    plan = request_turn._build(_beyond_the_bound(500))
    size = nbytes_of(plan)
    assert 17e6 < size < 20e6, size
    monkeypatch.setattr(BUDGET, "limit", 64 * 2**20)
    try:
        for threshold in range(495, 501):
            request_turn.request_plan(_beyond_the_bound(threshold))
            assert BUDGET.held() <= BUDGET.limit + size, BUDGET.held()
        assert len(request_turn._PLANS) <= 64 * 2**20 // (17 * 10**6) + 1
        assert request_turn._PLANS.nbytes() <= BUDGET.limit
    finally:
        request_turn._PLANS.clear()  # the rest of the run has no use for them


def test_nbytes_counts_arrays_once_and_follows_objects() -> None:
    table = np.zeros(10_000)
    assert 80_000 <= nbytes_of((table, table[:10], {"t": table})) < 82_000
    assert cache.nbytes_of(request_turn.keep_transitions()) > 40_000
