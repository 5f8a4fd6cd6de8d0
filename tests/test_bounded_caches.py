"""Every cache a process keeps of what requests send is bounded, and within one byte budget.

Any number of house rules can be sent, so a cache keyed by a ruleset (or by a throw and a
ruleset) must evict: a flood of distinct rulesets would otherwise grow a worker without end.
Only caches of functions without parameters (one entry, whatever is asked) may be unbounded.
A count alone does not bound memory (a request plan is 2.4 MB at the built-in upper-bonus
threshold, 18.6 MB at 500), so every cache keyed by a ruleset is a `PerRuleset`, whose
entries count against the process's one `MemoryBudget` with the registry's house-rules
tables.  The caches are found by reading every module's source for `functools` caches
(allowed only over a fixed domain, each listed with why its domain is fixed), by walking
every module, and by running the request paths for distinct rulesets and looking for any
module-level container that grew.  The tables store's memory layer holds what the registry
loaded and forgets what it evicts, so the registry's charge to the budget covers it.
"""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import importlib
import inspect
import pkgutil
import uuid
from collections import OrderedDict, defaultdict, deque
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import diceref
from diceref.core import cache
from diceref.core.cache import BUDGET, Memoized, MemoryBudget, PerRuleset, nbytes_of
from diceref.games.chicago import CHICAGO
from diceref.games.chicago.rules.ruleset import Call
from diceref.games.chicago.solver import coach
from diceref.games.families import FAMILIES
from diceref.games.family import _VARIANTS as FAMILY_VARIANTS
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Ruleset, UpperBonus
from diceref.games.scorecard.solver import advice, batched, request_turn
from diceref.games.scorecard.solver.statespace import state_space
from diceref.games.yardkle.rules import scoring
from diceref.games.yardkle.rules.ruleset import YardkleRules
from diceref.games.yardkle.rules.scoring import set_asides
from diceref.games.yardkle.solver.policy import layout
from diceref.games.yardkle.solver.race import win_chances
from diceref.tables.config import TableSettings
from diceref.tables.registry import TableRegistry
from diceref.tables.spec import TableSpec
from diceref.tables.store import TableStore

CONTAINERS = (dict, OrderedDict, defaultdict, list, set, deque)
SOURCE = Path(diceref.__file__).parent

# The `functools` caches allowed: each is keyed by a fixed, small domain (or has no
# parameters), never by what a request may choose freely; the reason says why.
FIXED_DOMAIN = {
    "core.dice.face_counts": "no parameters",
    "core.dice.sub_multisets": "a throw of at most five dice: 252 throws (maxsize)",
    "games.chicago.solver.coach.outcomes": "a count of dice to rethrow, 0 to 3",
    "games.families._imported": "the packages FAMILIES' entries name",
    "games.scorecard.solver.dist_kernel._keeps": "no parameters",
    "games.scorecard.solver.keeps.keep_graph": "no parameters",
    "games.scorecard.solver.request_turn.keep_transitions": "no parameters",
    "games.yardkle.solver.throws.packings": "a bool: whether groups need distinct faces",
    "games.yardkle.tables._least_yardkle_chance": "a bool: whether groups need distinct faces",
    "http.desk._redoc_bundle": "no parameters",
    "http.family.family_apis": "no parameters",
    "http.family.api_of_game": "a built-in game id (callers check ALL_GAMES first)",
    "http.game_models.document_types": "no parameters",
    "http.problem_handlers.die_fields": "no parameters",
    "http.routes.games.game_rules": "a built-in game id (the handler checks ALL_GAMES first)",
    "http.routes.games.summaries": "no parameters",
    "http.vocabulary.error_codes": "no parameters",
    "http.vocabulary.glossary": "no parameters",
}
# Keyed by what a request sends, bounded by count, and to become a `PerRuleset` with its
# module's rewrite; an entry that has gone may be deleted here.


def _functools_caches() -> set[str]:
    """Every use of `functools.cache`/`lru_cache` in the package's source: a decorated
    function's dotted name (below `diceref.`), or the line of any other use."""
    found: set[str] = set()
    for path in sorted(SOURCE.rglob("*.py")):
        parts = path.relative_to(SOURCE).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        tree = ast.parse(path.read_text(), str(path))
        decorators: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for decorator in node.decorator_list:
                    if _is_functools_cache(decorator):
                        found.add(f"{module}.{node.name}")
                        decorators.add(id(decorator))
        for node in ast.walk(tree):
            other_use = isinstance(node, ast.Call) and id(node) not in decorators
            if other_use and _is_functools_cache(node.func) and not isinstance(node.func, ast.Call):
                found.add(f"{module}:{node.lineno}")
    return found


def _is_functools_cache(node: ast.expr) -> bool:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr in ("cache", "lru_cache") and ast.unparse(node.value) == "functools"
    return isinstance(node, ast.Name) and node.id in ("cache", "lru_cache")


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


def test_every_functools_cache_is_over_a_fixed_domain() -> None:
    """A cache keyed by rules, hashes, documents or dice states is a `PerRuleset`: an
    `lru_cache` would count entries, not bytes, outside the one budget."""
    found = _functools_caches()
    assert "core.dice.face_counts" in found, "the source walk is broken"
    assert sorted(found - FIXED_DOMAIN.keys()) == []
    assert sorted(FIXED_DOMAIN.keys() - found) == []  # an entry that went leaves the list


def test_the_fixed_domain_caches_are_bounded_at_a_few_hundred() -> None:
    caches = dict(_caches())
    seen = {f"diceref.{name}" for name in FIXED_DOMAIN} & caches.keys()
    assert len(seen) >= 6, sorted(caches)  # those outside diceref.http
    for name in seen:
        fn = caches[name]
        if inspect.signature(fn.__wrapped__).parameters:
            maxsize = fn.cache_info().maxsize
            assert maxsize is not None and maxsize <= 300, name


def test_every_cache_keyed_by_what_a_request_sends_is_bounded() -> None:
    caches = _caches()
    assert len(caches) >= 6, "the walk found too few caches: it is broken"
    unbounded = [
        name
        for name, fn in caches
        if fn.cache_info().maxsize is None and inspect.signature(fn.__wrapped__).parameters
    ]
    assert unbounded == []


def test_every_per_ruleset_cache_counts_against_the_one_budget() -> None:
    found = {
        f"{module.__name__}.{name}": value.cache if isinstance(value, Memoized) else value
        for module in _modules()
        for name, value in vars(module).items()
        if isinstance(value, (PerRuleset, Memoized))
    }
    assert len(found) >= 20, sorted(found)  # the walk sees them (points, plans, turns...)
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
    yardkle = _yardkle(threshold)
    win_chances(yardkle, 40)
    layout(yardkle)
    set_asides((1, 5, 5), yardkle)
    yardkle_family = next(family for family in FAMILIES if family.name == "yardkle")
    yardkle_family.with_rules("yardkle", {"target": 5000 + 50 * threshold})
    coach.advise(CHICAGO, (1, 2, 3), 1, Call.HIGH, target=threshold)


def _yardkle(threshold: int) -> YardkleRules:
    return YardkleRules(target=5000 + 50 * threshold, single_five=50 + threshold)


def test_what_distinct_rulesets_derive_is_counted_against_the_budget() -> None:
    """Yardkle's layouts and set-asides, a family's variants and Chicago's valued
    positions, asked for distinct rulesets, are entries of caches the budget counts."""
    _exercise(20)
    assert _yardkle(20) in layout.cache._items
    assert _yardkle(20) in scoring._set_asides_of.cache._items
    assert any(json == '{"target": 6000}' for _, _, json in FAMILY_VARIANTS)
    assert any(objective.target == 20 for objective in coach._MEMOS)
    for memoized in (layout, scoring._set_asides_of):
        assert memoized.cache.budget is BUDGET and memoized.cache.nbytes() > 0


def _house_table() -> TableSpec:
    """An on-demand table of a ruleset of its own, solved in the registry's thread."""
    return TableSpec("value", "house", uuid.uuid4().hex[:16], "t", (1000,), lambda _: np.ones(1000))


def test_the_tables_store_keeps_no_more_than_the_registry_counts(tmp_path: Path) -> None:
    """A flood of house-rules tables through the registry: the store's memory layer (and
    what it keeps per table) holds only the tables the registry serves and charges to
    the budget; those evicted are forgotten by the store too."""
    budget = MemoryBudget()
    settings = TableSettings(cache_dir=tmp_path, on_demand_memory_bytes=2 * 8000)

    async def run() -> None:
        store = TableStore(settings)
        registry = TableRegistry(store, [], budget=budget)
        await registry.start(())
        try:
            for _ in range(6):
                table = _house_table()
                registry.admit((table,))
                for _ in range(500):
                    if registry.table(table) is not None:
                        break
                    await asyncio.sleep(0.01)
                assert registry.table(table) is not None
            await store.drain()
            served = set(registry._tables)
            assert len(served) == 2
            assert set(store._memory) <= served
            assert set(store._ttl) <= served
            assert set(store.disk._mapped) <= served
            assert sum(store._memory[key].nbytes for key in store._memory) <= budget.held()
        finally:
            await registry.stop()

    asyncio.run(run())


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
    entry just built, less what other holders charge (the on-demand tables of the apps
    other tests started, which the caches cannot evict)."""
    plan = request_turn._build(_beyond_the_bound(500))
    size = nbytes_of(plan)
    assert 17e6 < size < 20e6, size
    monkeypatch.setattr(BUDGET, "limit", 64 * 2**20)
    try:
        for threshold in range(495, 501):
            request_turn.request_plan(_beyond_the_bound(threshold))
            charged = BUDGET.held() - BUDGET.cached
            assert BUDGET.cached <= max(BUDGET.limit - charged, 0) + size, (BUDGET.cached, charged)
        assert len(request_turn._PLANS) <= 64 * 2**20 // (17 * 10**6) + 1
        assert request_turn._PLANS.nbytes() <= BUDGET.limit
    finally:
        request_turn._PLANS.clear()  # the rest of the run has no use for them


def test_nbytes_counts_arrays_once_and_follows_objects() -> None:
    table = np.zeros(10_000)
    assert 80_000 <= nbytes_of((table, table[:10], {"t": table})) < 82_000
    assert cache.nbytes_of(request_turn.keep_transitions()) > 40_000
