"""Small helpers shared by the tests (plain functions, no fixtures)."""

from __future__ import annotations

import asyncio
import importlib
import math
import os
import shutil
from types import ModuleType
from typing import Any

import pytest
from litestar import Litestar

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import Option, Scorecard, legal_options
from diceref.games.scorecard.tables import value_spec
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES as YARDKLE_RULES
from diceref.games.yardkle.tables import policy_spec, solve_policy_table


def in_ci() -> bool:
    """Whether the tests run under CI=true, where a missing test dependency is a failure."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def require_tools(tools: tuple[str, ...], needed_for: str) -> None:
    """`tools` on PATH: skips the test where one is not, fails it under CI (.ci/run installs
    nodejs and npm)."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        message = f"{', '.join(missing)} not found: {needed_for} (.ci/run installs nodejs and npm)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)


def import_yatzy_solver() -> ModuleType:
    """yatzy-solver, the peer solver the reference suites check against option by option.
    It is a dev dependency: where it is not installed the module is skipped, but under
    CI=true that is a failure (as a missing Redis is), so that a broken install cannot
    pass the suite by skipping its cross-checks."""
    try:
        return importlib.import_module("yatzy_solver")
    except ImportError as exc:
        message = f"yatzy-solver (a dev dependency) does not import: {exc}; run uv sync"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message, allow_module_level=True)


def options(
    game: str,
    dice: list[int],
    boxes: dict[str, int] | None = None,
    throw: int = 3,
    extra_bonus: int = 0,
) -> dict[str, Option]:
    card = Scorecard(boxes or {}, extra_bonus)
    return {o.box: o for o in legal_options(SCORECARD_GAMES[game], card, dice, throw)}


def points(game: str, dice: list[int], throw: int = 3) -> dict[str, int]:
    return {box: o.points for box, o in options(game, dice, throw=throw).items()}


def fill(game: str, value_by_box: dict[str, int], leave_open: set[str]) -> dict[str, int]:
    """A card with every box filled (with the given value, else 0) except `leave_open`."""
    ruleset = SCORECARD_GAMES[game]
    return {b.id: value_by_box.get(b.id, 0) for b in ruleset.boxes if b.id not in leave_open}


def put_values(app: Litestar, game: str, values: FloatArray, source: str = "memory") -> None:
    """Serve `values` as the scorecard game's value table in `app` (no load, no solve)."""
    app.state.tables.put(value_spec(SCORECARD_GAMES[game]), values, source)


def values_of(app: Litestar, game: str) -> FloatArray | None:
    """The value table `app` serves for the game, None while it is not loaded."""
    table: Any = app.state.tables.table(value_spec(SCORECARD_GAMES[game]))
    return table


def put_policy(app: Litestar) -> None:
    """Serve Yardkle's policy table in `app` (an app whose startup has not run)."""
    table = solve_policy_table(YARDKLE_RULES)
    app.state.tables.put(policy_spec(YARDKLE_RULES), table, "memory")


def loaded_rules(client: Any, game: str, timeout: float = 60) -> dict[str, Any]:
    """`GET /games/{game}` once its tables are loaded: the first request answers at once
    with `tables: "loading"` and starts the load in the background; poll until it is done."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        rules: dict[str, Any] = client.get(f"/games/{game}").json()
        if rules.get("tables") != "loading":
            return rules
        assert time.monotonic() < deadline, f"{game}'s tables still loading after {timeout} s"
        time.sleep(0.05)


def close(actual: Any, expected: Any) -> bool:
    """Equal, floats to 12 significant digits (a solver change moves the last bits)."""
    if isinstance(expected, float) and isinstance(actual, int | float):
        return math.isclose(actual, expected, rel_tol=1e-12)
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and actual.keys() == expected.keys()
            and all(close(actual[k], v) for k, v in expected.items())
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(close(a, e) for a, e in zip(actual, expected, strict=True))
        )
    return type(actual) is type(expected) and bool(actual == expected)


def put_policy_for(app: Litestar, rules: Any) -> None:
    """Serve the Yardkle policy table of a house-rules variant in `app` (solved here, as a
    test's own, rather than on demand by the app's solver workers)."""
    app.state.tables.put(policy_spec(rules), solve_policy_table(rules), "memory")


async def registry_table(registry: Any, spec: Any) -> FloatArray:
    """The registry's table of `spec` once its background load has served it (5 s at
    most, a hang guard), else a failure naming the spec's status."""
    for _ in range(500):
        table = registry.table(spec)
        if table is not None:
            return table  # type: ignore[no-any-return]
        await asyncio.sleep(0.01)
    raise AssertionError(registry.status_of(spec))
