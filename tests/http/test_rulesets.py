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
from diceref.games.families import family_of
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant
from diceref.games.scorecard.tables import max_spec
from diceref.games.yardkle.rules.ruleset import GAME_INFO, yardkle
from diceref.games.yardkle.tables import policy_spec
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
        assert first["ruleset_id"] == variant("yahtzee", **NO_JOKER).rules_hash
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
    assert answer["ruleset_id"] == variant("yatzy", upper_bonus_threshold=60).rules_hash
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


def test_yardkle_house_rules_are_solved_on_demand_then_coached(tmp_path: Path) -> None:
    """Yardkle's coach table under house rules is a ruleset like a scorecard's: queued by
    `POST /rulesets`, then ready, and `/yardkle/holds` under the same rules reads it."""
    rules = {"three_ones": 1000}
    body = {"game": "yardkle", "rules": rules}
    variant = yardkle(**rules)
    with TestClient(fresh_app(tmp_path)) as client:
        first = client.post("/rulesets", json=body).json()
        assert first["status"] in ("queued", "solving"), first
        assert first["progress"] < 1.0
        assert first["ruleset_id"] == variant.ruleset_id != GAME_INFO.ruleset_id
        registry = client.app.state.tables
        spec = policy_spec(variant.rules)
        assert registry.states[spec.key].on_demand

        ready = wait_ready(client, body)
        assert ready["progress"] == 1.0 and ready["ruleset_id"] == first["ruleset_id"]
        three = next(p for p in ready["ruleset"]["parameters"] if p["name"] == "three_ones")
        assert three["value"] == 1000

        holds = {"dice": [1, 1, 1, 2, 3, 4], "turn_points": 0, "on_pad": True, "rules": rules}
        coached = client.post("/yardkle/holds", json=holds)
        assert coached.status_code == 200, coached.text
        answer = coached.json()
        assert answer["ruleset_id"] == ready["ruleset_id"]
        assert max(o["points"] for o in answer["options"]) == 1000  # three 1s, as the rules say


def test_a_game_without_tables_is_ready_at_once(client: TestClient[Litestar]) -> None:
    """Chicago is coached from its rules alone: its house rules need no table, so the
    ruleset is ready at once, and nothing is queued for it."""
    rules = {"worst_tie_loser": "earlier"}
    body = {"game": "chicago", "rules": rules}
    r = client.post("/rulesets", json=body)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["status"] == "ready" and answer["progress"] == 1.0
    assert answer["max_score"] is None and answer["optimal_expected_score"] is None
    assert answer["ruleset_id"] == family_of("chicago").with_rules("chicago", rules).ruleset_id
    tie = next(p for p in answer["ruleset"]["parameters"] if p["name"] == "worst_tie_loser")
    assert tie["value"] == "earlier"
    registry = client.app.state.tables
    assert not any(state.game == "chicago" for state in registry.states.values())


def test_a_failed_solve_is_reported_then_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A solve that raises: `POST /rulesets` says `failed` (and the SDK's wait gives up),
    `/holds` under those rules is a 503 saying so, and nothing is solved again until the
    wait after a failure is over; then the next ask queues the solve again."""
    from diceref.core.cache import PerRuleset
    from diceref.games.scorecard import tables
    from diceref_client import Client as SdkClient
    from diceref_client import RulesetFailed

    attempts: list[str] = []

    def broken(ruleset: object, progress: object = None) -> None:
        attempts.append(type(ruleset).__name__)
        raise RuntimeError("the solver ran out of disk")

    # Specs built from here on solve with `broken` (a closure: solved in the registry's
    # thread, as it does not pickle); a cache of the test's own, so none outlives it.
    monkeypatch.setattr(tables, "_SPECS", PerRuleset(8))
    monkeypatch.setattr(tables, "_values", broken)
    monkeypatch.setattr(tables, "_max", broken)
    rules = {"upper_bonus_points": 37}
    body = {"game": "yatzy", "rules": rules}
    holds = {"game": "yatzy", "dice": [6, 6, 6, 6, 6], "throws_left": 0, "rules": rules}
    app = fresh_app(tmp_path)
    with (
        TestClient(app) as client,
        SdkClient("http://testserver.local", http_client=client, max_retries=0) as sdk,
    ):
        assert client.post("/rulesets", json=body).json()["status"] == "queued"
        deadline = time.monotonic() + 30
        while (answer := client.post("/rulesets", json=body).json())["status"] != "failed":
            assert answer["status"] in ("queued", "solving"), answer
            assert time.monotonic() < deadline, answer
            time.sleep(0.05)
        assert answer["optimal_expected_score"] is None and answer["max_score"] is None
        assert answer["ruleset_id"] == variant("yatzy", **rules).rules_hash
        tried = len(attempts)
        assert tried == 2  # the value table and the max table, each raised

        early = client.post("/holds", json=holds)
        assert early.status_code == 503, early.text
        problem = early.json()
        assert problem["type"].endswith("/table-solving")
        assert "failed to solve (solved again when asked, 30 s after" in problem["detail"]
        assert early.headers["retry-after"] == "5" and problem["progress"] == 0.0
        with pytest.raises(RulesetFailed):
            sdk.wait_for_ruleset("yatzy", rules=rules, timeout=5, poll=0.05)
        assert client.post("/rulesets", json=body).json()["status"] == "failed"
        assert len(attempts) == tried  # within the wait: not solved again

        app.state.tables.retry_failed_after = 0.0  # the wait is over
        assert client.post("/rulesets", json=body).json()["status"] == "queued"
        deadline = time.monotonic() + 30
        while len(attempts) == tried:  # asked again: solved again (and failing again)
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_readings_that_change_no_score_share_a_ruleset(client: TestClient[Litestar]) -> None:
    """Without a Joker, where a Joker would go changes no score: the same rules written with
    or without those readings, as `rules` or as a `ruleset` document, are one ruleset (one
    id, one table), and its document reports the values in force."""
    written = [
        {"joker": "none"},
        {"joker": "none", "matching_upper_forced": False},
        {"joker": "none", "matching_upper_forced": False, "joker_when_scratched": False},
    ]
    answers = [client.post("/rulesets", json={"game": "yahtzee", "rules": r}) for r in written]
    assert [a.status_code for a in answers] == [200] * 3, [a.text for a in answers]
    bodies = [a.json() for a in answers]
    assert len({b["ruleset_id"] for b in bodies}) == 1
    assert all(b["ruleset"] == bodies[0]["ruleset"] for b in bodies)
    document = bodies[0]["ruleset"]
    values = {p["name"]: p["value"] for p in document["parameters"]}
    assert values["joker"] == "none" and values["extra_bonus"] == 100
    assert (values["joker_when_scratched"], values["matching_upper_forced"]) == (False, True)
    assert document["five_of_a_kind"] == {
        "box": "yahtzee",
        "extra_bonus": 100,
        "joker": "none",
        "joker_when_scratched": False,
        "matching_upper_forced": True,
    }
    document["five_of_a_kind"]["matching_upper_forced"] = False  # inert here too
    document["five_of_a_kind"]["joker_when_scratched"] = True
    custom = client.post("/rulesets", json={"ruleset": document})
    assert custom.status_code == 200, custom.text
    assert custom.json()["ruleset_id"] == bodies[0]["ruleset_id"]
