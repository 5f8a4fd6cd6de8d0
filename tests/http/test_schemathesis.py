"""Schemathesis over every operation of the committed contract, in-process against the app.

The configuration is `schemathesis.toml` at the repository root (every check enabled, a
bounded deterministic run, the two justified settings explained there, no exclusion); the
same file drives the CLI run against a live server shown in the README.  The app holds every
scorecard table, as a serving instance does once its tables are loaded, so `/holds` answers.
`tests/http/test_contract.py` checks that the app serves exactly this document.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import schemathesis
from litestar import Litestar
from schemathesis.config import SchemathesisConfig

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.tables import value_spec
from diceref.games.yardkle.api.examples import THOUSAND
from diceref.tables.spec import TableSpec
from helpers import put_policy_for, put_values

ROOT = Path(__file__).parents[2]
CONFIG = SchemathesisConfig.from_path(ROOT / "schemathesis.toml")
DOCUMENT = json.loads((ROOT / "openapi" / "openapi.json").read_text())
schema = schemathesis.openapi.from_dict(DOCUMENT, config=CONFIG)


@pytest.fixture(scope="module")
def serving_app(
    app: Litestar,
    solved: Callable[[str], FloatArray],
    solved_ruleset: Callable[[Ruleset], FloatArray],
    play_to_win: list[tuple[TableSpec, FloatArray]],
) -> Litestar:
    """The session app with every value table loaded, as the ASGI app the cases are sent to
    (the house-rules variants the examples send included: Yardkle's three 1s at 1,000, the
    Yahtzee without Joker or extra bonus of the 429 examples, and the play-to-win tables of
    forced-order Yatzy that the /distributions examples use)."""
    for game in SCORECARD_GAMES:
        put_values(app, game, solved(game))
    put_policy_for(app, THOUSAND)
    no_joker = variant("yahtzee", joker="none", extra_bonus=0)
    app.state.tables.put(value_spec(no_joker), solved_ruleset(no_joker), "memory")
    for spec, table in play_to_win:
        app.state.tables.put(spec, table, "memory")
    return app


@pytest.fixture(scope="module")
def answers() -> Iterator[dict[str, Counter[int]]]:
    """Statuses seen per operation; afterwards, every operation must have been exercised
    and have answered at least once with success (so the run is not all rejections)."""
    seen: dict[str, Counter[int]] = {}
    yield seen
    with_input = {
        f"{method.upper()} {path}": "requestBody" in op or "parameters" in op
        for path, item in DOCUMENT["paths"].items()
        for method, op in item.items()
    }
    assert set(seen) == set(with_input), sorted(set(with_input) - set(seen))
    for label, statuses in seen.items():
        assert sum(statuses.values()) >= (30 if with_input[label] else 1), (label, statuses)
        assert any(200 <= s < 300 for s in statuses), (label, statuses)


@schema.parametrize()
def test_operation(
    case: schemathesis.Case, serving_app: Litestar, answers: dict[str, Counter[int]]
) -> None:
    response = case.call_and_validate(app=serving_app)
    answers.setdefault(case.operation.label, Counter())[response.status_code] += 1
