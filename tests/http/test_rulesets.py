"""`POST /rulesets` and house-rules tables solved on demand, through a real app lifespan
(the registry's workers and the solver pool's processes), never inline in a request."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from conftest import make_test_store
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, yahtzee, yatzy
from diceref.games.scorecard.tables import max_spec
from diceref.http.app import create_app
from diceref.settings import Settings
from diceref.tables.spec import load_sync

NO_JOKER = {"joker": "none", "extra_bonus": 0}
NO_JOKER_OPTIMUM = (
    245.8707745  # issue 13: yahtzee, joker none, extra_bonus 0 (yatzy-solver +no-joker+no-bonus)
)


def fresh_app(cache: Path, **settings: Any) -> Litestar:
    """An app on an empty cache of its own, so that its house-rules tables must be solved."""
    return create_app(Settings(preload=(), cache_dir=str(cache), **settings))


def wait_ready(client: TestClient[Litestar], body: dict[str, Any]) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        r = client.post("/rulesets", json=body)
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        assert answer["status"] in ("queued", "solving", "ready"), answer
        assert 0.0 <= answer["progress"] <= 1.0
        if answer["status"] == "ready":
            return answer
        assert time.monotonic() < deadline, answer
        time.sleep(0.2)


def test_house_rules_are_solved_on_demand_then_coached(tmp_path: Path) -> None:
    body = {"game": "yahtzee", "rules": NO_JOKER}
    holds = {"game": "yahtzee", "dice": [6, 6, 6, 6, 6], "throws_left": 0, "rules": NO_JOKER}
    with TestClient(fresh_app(tmp_path)) as client:
        first = client.post("/rulesets", json=body).json()
        assert first["status"] in ("queued", "solving")
        assert first["ruleset_id"] == yahtzee(**NO_JOKER).rules_hash
        assert first["max_score"] is None and first["optimal_expected_score"] is None
        assert "five_of_a_kind" not in first["ruleset"]  # no Joker, no extra bonus

        early = client.post("/holds", json=holds)  # answered at once, never solved inline
        assert early.status_code == 503, early.text
        problem = early.json()
        assert problem["type"].endswith("/table-solving")
        assert early.headers["retry-after"] == "5" and problem["retry_after"] == 5
        assert 0.0 <= problem["progress"] < 1.0

        ready = wait_ready(client, body)
        assert ready["progress"] == 1.0
        assert ready["optimal_expected_score"] == pytest.approx(NO_JOKER_OPTIMUM, abs=1e-7)
        # 5 x 6 + 5 x 5 + ... + 5 x 1 = 105, +35, 30 + 30 (five 6s), 25, 30, 40, 50, 30
        assert ready["max_score"] == 105 + 35 + 30 + 30 + 25 + 30 + 40 + 50 + 30

        coached = client.post("/holds", json=holds)
        assert coached.status_code == 200, coached.text
        answer = coached.json()
        assert answer["ruleset_id"] == ready["ruleset_id"]
        best = [o for o in answer["options"] if o["best"]]
        assert best and best[0]["box"] == "yahtzee"  # five 6s on an empty card: 50


def test_built_in_rules_are_ready_with_their_figures(coach: TestClient[Litestar]) -> None:
    spec = max_spec(SCORECARD_GAMES["yahtzee"])
    coach.app.state.tables.put(spec, load_sync(make_test_store(), spec).array, "disk")
    r = coach.post("/rulesets", json={"game": "yahtzee"})
    answer = r.json()
    assert answer["status"] == "ready" and answer["progress"] == 1.0
    assert answer["ruleset_id"] == SCORECARD_GAMES["yahtzee"].rules_hash
    assert answer["optimal_expected_score"] == pytest.approx(254.5877287, abs=1e-6)
    assert answer["ruleset"] == coach.get("/games/yahtzee").json()


def test_a_full_queue_refuses_and_queues_nothing(tmp_path: Path) -> None:
    """With one solver and room for one waiting ruleset, a third distinct ruleset is a 429
    with Retry-After, and is not solved later behind the others' backs."""
    app = fresh_app(tmp_path, solve_queue_size=1)
    with TestClient(app) as client:
        answers = [
            client.post("/rulesets", json={"game": "yatzy", "rules": {"upper_bonus_points": p}})
            for p in (10, 20, 30, 40)
        ]
        statuses = [a.status_code for a in answers]
        assert statuses[:2] == [200, 200] and 429 in statuses, statuses
        refused = next(a for a in answers if a.status_code == 429)
        assert refused.headers["retry-after"] == "5"
        assert refused.json()["type"].endswith("/solve-queue-full")
        registry = app.state.tables
        admitted = {
            s.rules_hash for s in registry.specs.values() if registry.states[s.key].on_demand
        }
        assert len(admitted) == statuses.count(200)


def test_refused_rules_are_422_before_anything_is_queued(client: TestClient[Litestar]) -> None:
    registry = client.app.state.tables

    def on_demand() -> set[object]:  # the shared app may hold earlier tests' house rules
        return {key for key, state in registry.states.items() if state.on_demand}

    before = on_demand()
    r = client.post("/rulesets", json={"game": "yahtzee", "rules": {"throws_per_turn": 9}})
    assert r.status_code == 422
    assert r.json()["errors"][0]["field"] == "rules.throws_per_turn"
    assert on_demand() == before


def test_a_custom_ruleset_is_checked_and_queued(client: TestClient[Litestar]) -> None:
    """A game's document sent back as `ruleset` is the built-in rules (same id, ready);
    changed, it is a ruleset of its own."""
    document = client.get("/games/yatzy").json()
    same = client.post("/rulesets", json={"ruleset": document}).json()
    assert same["ruleset_id"] == SCORECARD_GAMES["yatzy"].rules_hash
    document["upper_bonus_rule"]["threshold"] = 60
    changed = client.post("/rulesets", json={"ruleset": document})
    assert changed.status_code == 200, changed.text
    answer = changed.json()
    assert answer["ruleset_id"] == yatzy(upper_bonus_threshold=60).rules_hash
    assert answer["ruleset"]["upper_bonus_rule"]["threshold"] == 60
    both = client.post("/rulesets", json={"game": "yatzy", "ruleset": document})
    assert both.status_code == 422
    assert both.json()["errors"][0]["code"] == "exclusive_fields"


def test_the_sdk_waits_for_a_ruleset(tmp_path: Path) -> None:
    """`wait_for_ruleset` polls until the tables are ready, or gives up at its timeout."""
    from diceref_client import Client as SdkClient
    from diceref_client import RulesetNotReady

    with (
        TestClient(fresh_app(tmp_path)) as client,
        SdkClient("http://testserver.local", http_client=client, max_retries=0) as sdk,
    ):
        with pytest.raises(RulesetNotReady):
            sdk.wait_for_ruleset("yatzy", rules={"upper_bonus_points": 25}, timeout=0.01)
        ready = sdk.wait_for_ruleset("yahtzee", rules=NO_JOKER, timeout=120, poll=0.2)
    assert ready.status == "ready"
    assert ready.optimal_expected_score == pytest.approx(NO_JOKER_OPTIMUM, abs=1e-7)
