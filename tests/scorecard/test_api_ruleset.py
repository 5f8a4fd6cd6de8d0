"""Custom scorecards over HTTP (`ruleset` instead of `game`): a built-in game fetched and
sent back answers exactly as the game does, a changed one answers under its own
`ruleset_id`, and every refusal is a problem naming `ruleset.<path>`."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from conftest import make_test_app, make_test_store
from diceref.core.arrays import FloatArray
from diceref.games.families import table_specs
from diceref.games.scorecard.api.custom import custom_ruleset
from diceref.games.scorecard.api.examples import MINI_RULESET
from diceref.games.scorecard.api.models import ScoreRequest
from diceref.games.scorecard.rules.description import ruleset_from_description
from diceref.games.scorecard.rules.document import FaceBox, PairBox, RulesetDocument
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.tables import value_spec
from diceref.tables.registry import TableRegistry
from diceref_client import Client as SdkClient
from diceref_client import ScorecardIn

Client = TestClient[Litestar]

# Per game: a throw, a card and a throw number that exercise its particular rules.
CASES: dict[str, list[dict[str, Any]]] = {
    "yahtzee": [
        {"dice": [6, 6, 6, 6, 6], "scorecard": {"filled": {"yahtzee": 50, "sixes": 18}}},
        {"dice": [2, 3, 4, 5, 5], "throw": 2},
    ],
    "yardzee": [{"dice": [3, 3, 3, 3, 3], "scorecard": {"filled": {"yahtzee": 0}}}],
    "dice-poker": [{"dice": [4, 4, 4, 4, 1]}, {"dice": [2, 2, 5, 5, 5]}],
    "russian-poker": [
        {"dice": [5, 5, 6, 6, 6], "throw": 1},
        {"dice": [5, 5, 6, 6, 6], "scorecard": {"filled": {"ones": -3}}},
    ],
    "chute-5": [{"dice": [2, 2, 2, 2, 6]}, {"dice": [6, 6, 5, 4, 3]}],
    "yatzy": [{"dice": [1, 2, 3, 4, 5]}, {"dice": [3, 3, 3, 3, 2]}],
}
SHEET = {
    "player": "Ann",
    "entries": [
        {"box": "sixes", "points": 18, "dice": [6, 6, 6, 1, 2]},
        {"box": "chance", "points": 23},
        {"box": "fours", "points": 9},
    ],
    "claimed_total": 50,
}


@pytest.fixture
def coach_with(
    solved_ruleset: Callable[[Ruleset], FloatArray],
) -> Iterator[Callable[[Ruleset], Client]]:
    """A client whose app serves the value tables of the given rulesets (every built-in
    game's too), from a registry that knows them."""
    clients: list[Client] = []

    def make(*rulesets: Ruleset) -> Client:
        app = make_test_app()
        specs = {s.key: s for s in table_specs()}
        specs |= {value_spec(r).key: value_spec(r) for r in rulesets}
        registry = TableRegistry(make_test_store(), tuple(specs.values()))
        for r in rulesets:
            registry.put(value_spec(r), solved_ruleset(r), "memory")
        app.state.tables = registry
        client = TestClient(app)
        clients.append(client)
        return client.__enter__()

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def _without_id(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != "ruleset_id"}


@pytest.mark.parametrize("game", sorted(SCORECARD_GAMES))
def test_every_game_sent_back_unchanged_answers_as_the_game(client: Client, game: str) -> None:
    doc = client.get(f"/games/{game}").json()
    for case in CASES[game]:
        built_in = client.post("/score", json={"game": game} | case)
        custom = client.post("/score", json={"ruleset": doc} | case)
        assert built_in.status_code == custom.status_code == 200, custom.text
        assert custom.json()["ruleset_id"] == SCORECARD_GAMES[game].rules_hash
        assert _without_id(custom.json()) == built_in.json()
    sheets = {"sheets": [SHEET | {"entries": SHEET["entries"][:1]}]}
    checked = client.post("/scorecards/check", json={"ruleset": doc} | sheets)
    assert checked.status_code == 200, checked.text
    built = client.post("/scorecards/check", json={"game": game} | sheets).json()
    assert _without_id(checked.json()) == built


@pytest.mark.parametrize("game", sorted(SCORECARD_GAMES))
def test_every_game_sent_back_coaches_as_the_game(
    coach_with: Callable[..., Client], game: str
) -> None:
    """The same `ruleset_id` is the same table: /holds reads the built-in game's."""
    client = coach_with(SCORECARD_GAMES[game])
    doc = client.get(f"/games/{game}").json()
    for case in CASES[game]:
        body = case | {"throws_left": 1}
        body.pop("throw", None)
        built_in = client.post("/holds", json={"game": game} | body)
        custom = client.post("/holds", json={"ruleset": doc} | body)
        assert built_in.status_code == custom.status_code == 200, custom.text
        assert _without_id(custom.json()) == built_in.json()


def test_a_changed_game_is_its_house_rules_variant(coach_with: Callable[..., Client]) -> None:
    """Yahtzee fetched, its Joker and extra bonus switched off: the same ruleset as
    `rules: {joker: none, extra_bonus: 0}`, the same id and the same coaching."""
    house = variant("yahtzee", joker="none", extra_bonus=0)
    client = coach_with(house)
    doc = client.get("/games/yahtzee").json()
    doc["five_of_a_kind"] |= {"joker": "none", "extra_bonus": 0}
    body = {"dice": [6, 6, 6, 6, 6], "scorecard": {"filled": {"yahtzee": 50, "sixes": 18}}}
    by_rules = client.post(
        "/holds",
        json={"game": "yahtzee", "rules": {"joker": "none", "extra_bonus": 0}}
        | body
        | {"throws_left": 0},
    )
    by_ruleset = client.post("/holds", json={"ruleset": doc} | body | {"throws_left": 0})
    assert by_rules.status_code == by_ruleset.status_code == 200, by_ruleset.text
    assert by_ruleset.json() == by_rules.json()
    assert by_ruleset.json()["ruleset_id"] == house.rules_hash
    # without the Joker five 6s make no full house: 0 there, where the built-in game gives 25
    boxes = {o["box"]: o["points"] for o in by_ruleset.json()["options"] if o["kind"] == "box"}
    assert boxes["full_house"] == 0


def test_a_new_scorecard_is_coached_from_its_own_table(coach_with: Callable[..., Client]) -> None:
    """The mini scorecard (six upper boxes and a chance, bonus 50 at 60): with only the
    chance open, standing scores the dice and throwing all five again expects 17.5."""
    mini = ruleset_from_description(MINI_RULESET)
    filled = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
    body = {"ruleset": MINI_RULESET, "dice": [1, 1, 2, 2, 3], "scorecard": {"filled": filled}}
    assert make_test_client_status(body) == 503  # no table for it yet: never solved inline
    client = coach_with(mini)
    r = client.post("/holds", json=body | {"throws_left": 1})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["game"] == "mini" and answer["ruleset_id"] == mini.rules_hash
    total = 63 + 50  # the upper boxes and their bonus
    options = {
        tuple(o.get("keep", [])) if o["kind"] == "keep" else o["box"]: o for o in answer["options"]
    }
    assert options["chance"]["expected_total"] == pytest.approx(total + 9)
    assert options[()]["expected_total"] == pytest.approx(total + 17.5)
    assert answer["options"][0]["best"] and answer["options"][0]["kind"] == "keep"


def make_test_client_status(body: dict[str, Any]) -> int:
    with TestClient(make_test_app()) as fresh:
        return fresh.post("/holds", json=body | {"throws_left": 1}).status_code


def test_refusals_name_the_field(client: Client) -> None:
    doc = client.get("/games/yahtzee").json()
    bad = copy.deepcopy(doc)
    bad["boxes"][3]["pattern"] = "quadruple"
    r = client.post("/score", json={"ruleset": bad, "dice": [1, 2, 3, 4, 5]})
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json"
    assert [(e["field"], e["code"]) for e in r.json()["errors"]] == [
        ("ruleset.boxes[3].pattern", "unknown_pattern")
    ]
    both = client.post("/score", json={"game": "yahtzee", "ruleset": doc, "dice": [1] * 5})
    assert (both.status_code, both.json()["errors"][0]["field"]) == (422, "ruleset")
    rules = client.post(
        "/score", json={"ruleset": doc, "rules": {"joker": "none"}, "dice": [1] * 5}
    )
    assert (rules.status_code, rules.json()["errors"][0]["code"]) == (422, "exclusive_fields")
    wrong = copy.deepcopy(doc) | {"throws_per_turn": "3"}
    typed = client.post("/score", json={"ruleset": wrong, "dice": [1] * 5})
    assert (typed.status_code, typed.json()["errors"][0]["field"]) == (
        400,
        "ruleset.throws_per_turn",
    )


def test_refusals_of_the_documents_shape_are_the_rules_layers(client: Client) -> None:
    """What msgspec refuses inside `ruleset` while decoding the request is worded by the
    rules layer: a 422 naming the path, with the code a compiled document's refusal has."""
    doc = client.get("/games/yahtzee").json()
    changes: list[tuple[Callable[[dict[str, Any]], object], str, str]] = [
        (lambda d: d.update(house="ours"), "ruleset.house", "unknown_field"),
        (lambda d: d.pop("id"), "ruleset.id", "missing_field"),
        (lambda d: d["boxes"][0].pop("face"), "ruleset.boxes[0].face", "missing_field"),
        (lambda d: d["boxes"][2].update(wild=1), "ruleset.boxes[2].wild", "unknown_field"),
        (lambda d: d["boxes"][7].update(runs=[[1, 2]]), "ruleset.boxes[7].runs", "not_applicable"),
        (lambda d: d["boxes"][0].update(face=9), "ruleset.boxes[0].face", "out_of_range"),
        (lambda d: d.update(order="sideways"), "ruleset.order", "unknown_value"),
    ]
    for change, field, code in changes:
        bad = copy.deepcopy(doc)
        change(bad)
        r = client.post("/score", json={"ruleset": bad, "dice": [1, 2, 3, 4, 5]})
        assert r.status_code == 422, (field, r.json())
        assert [(e["field"], e["code"]) for e in r.json()["errors"]] == [(field, code)]


def test_the_request_carries_the_rules_layers_document() -> None:
    """One typed document end to end: the request's `ruleset` is a `RulesetDocument` (with
    the read-only fields of `GET /games/{game}` beside it), its boxes typed by pattern."""
    doc = msgspec.to_builtins(SCORECARD_GAMES["yatzy"].document)
    request = msgspec.convert({"ruleset": doc, "dice": [1, 2, 3, 4, 5]}, ScoreRequest)
    assert isinstance(request.ruleset, RulesetDocument)
    assert [type(b) for b in request.ruleset.boxes[:7]] == [FaceBox] * 6 + [PairBox]
    assert custom_ruleset(request.ruleset).rules_hash == SCORECARD_GAMES["yatzy"].rules_hash


def test_output_only_fields_change_nothing(client: Client) -> None:
    doc = client.get("/games/chute-5").json()
    doc |= {"max_score": 0, "summary": "ours", "source": "our table"}
    doc["boxes"][0] |= {"how": "whatever", "max_points": 1}
    r = client.post("/score", json={"ruleset": doc, "dice": [1, 1, 1, 2, 3]})
    assert r.json()["ruleset_id"] == SCORECARD_GAMES["chute-5"].rules_hash


def test_a_document_saved_before_parameters_had_labels_is_taken(client: Client) -> None:
    """The ignored `parameters` of a document from an older service carry no `label`."""
    doc = client.get("/games/yahtzee").json()
    assert all(p["label"] for p in doc["parameters"])
    for parameter in doc["parameters"]:
        del parameter["label"]
    r = client.post("/score", json={"ruleset": doc, "dice": [1, 1, 1, 2, 3]})
    assert r.status_code == 200, r.text
    assert r.json()["ruleset_id"] == SCORECARD_GAMES["yahtzee"].rules_hash


def test_the_sdk_sends_a_fetched_game_back(client: Client) -> None:
    """`games_by_game`, change the answer, `score(None, ..., ruleset=...)`: Yatzy with the
    bonus at 60, where 48 in the upper boxes and three 4s reach it."""
    with SdkClient("http://testserver.local", http_client=client, max_retries=0) as sdk:
        rules = sdk.games_by_game("yatzy")
        assert rules.upper_bonus_rule is not None
        rules.upper_bonus_rule.threshold = 60
        card = ScorecardIn(filled={"ones": 4, "fives": 20, "sixes": 24})
        answer = sdk.score(None, [4, 4, 4, 6, 6], ruleset=rules, scorecard=card)
        built_in = sdk.score("yatzy", [4, 4, 4, 6, 6], scorecard=card)
    assert {o.box: o.upper_bonus for o in answer.options}["fours"] == 50
    assert {o.box: o.upper_bonus for o in built_in.options}["fours"] == 0
    assert answer.ruleset_id == variant("yatzy", upper_bonus_threshold=60).rules_hash
