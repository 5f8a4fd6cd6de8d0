"""Shared fixtures: solved tables are computed once per session and kept on disk between
runs (`.cache/test-tables`, keyed by the rules hash and solver version), so the suite never
solves the same game twice."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from diceref.api.app import create_app
from diceref.rules.games import SCORECARD_GAMES
from diceref.settings import Settings
from diceref.solver.engine import SOLVER_VERSION, FloatArray, solve

CACHE = Path(os.environ.get("DICEREF_TEST_CACHE", Path(__file__).parent.parent / ".cache"))


@pytest.fixture(scope="session")
def solved() -> Callable[[str], FloatArray]:
    memo: dict[str, FloatArray] = {}

    def get(game: str) -> FloatArray:
        if game not in memo:
            ruleset = SCORECARD_GAMES[game]
            path = CACHE / "test-tables" / f"{game}-{ruleset.rules_hash}-v{SOLVER_VERSION}.npy"
            if path.exists():
                memo[game] = np.load(path)
            else:
                memo[game] = solve(ruleset)
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(".tmp.npy")
                np.save(tmp, memo[game])
                tmp.replace(path)
        return memo[game]

    return get


@pytest.fixture(scope="session")
def app() -> Litestar:
    """An app that loads no table by itself (tests put the ones they need)."""
    return create_app(Settings(preload=(), retry_after_seconds=2))


@pytest.fixture
def client(app: Litestar) -> Iterator[TestClient[Litestar]]:
    with TestClient(app) as c:
        yield c


@pytest.fixture
def coach(app: Litestar, solved: Callable[[str], FloatArray]) -> Iterator[TestClient[Litestar]]:
    """A client whose app holds every scorecard game's table."""
    for game in SCORECARD_GAMES:
        app.state.tables.put(game, solved(game), "memory")
    with TestClient(app) as c:
        yield c
