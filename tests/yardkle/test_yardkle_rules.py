"""Yardkle house rules per request (`rules`): every reading a typed, bounded parameter,
applied by every operation, answered with `ruleset_id`, refused values a 422 naming
`rules.<name>`; and the coach's table for a variant."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from conftest import make_test_app
from diceref.core.game import RuleParameterError
from diceref.games.yardkle import FAMILY
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES, YardkleRules
from diceref.games.yardkle.solver.advice import advise
from diceref.games.yardkle.tables import policy_spec, solve_policy_table
from helpers import put_policy, put_policy_for

THOUSAND = YardkleRules(three_ones=1000)
app = make_test_app()


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    put_policy(app)
    with TestClient(app) as c:
        yield c


def test_known_values_with_three_ones_at_1000() -> None:
    """Issue 13's published values: expected points of a turn from its first throw (six
    dice, no points yet) under the optimal policy, on the pad and off it (entry 500)."""
    table = policy_spec(THOUSAND).solve(None)
    assert table[1, 0, THOUSAND.dice - 1] == pytest.approx(601.5586537, abs=5e-8)
    assert table[0, 0, THOUSAND.dice - 1] == pytest.approx(580.9003270, abs=5e-8)


def test_every_parameter_is_typed_and_bounded(client: TestClient[Any]) -> None:
    params = {p["name"]: p for p in client.get("/games/yardkle").json()["parameters"]}
    assert params["three_ones"]["value"] == 300 and params["entry_minimum"]["value"] == 500
    assert params["target"]["value"] == 10_000
    fixed = {"best_valuation", "set_aside_scores_completely", "turn_order"}
    for p in params.values():
        # a reading with no coherent other value is reported, not settable, and says why
        assert p["settable"] == (p["name"] not in fixed), p
        if not p["settable"]:
            assert "Not settable" in p["description"] and "choices" not in p, p
        if p["value_type"] == "integer":
            assert p["minimum"] <= p["value"] <= p["maximum"], p
        if p["value_type"] == "string" and p["settable"]:
            assert p["value"] in p["choices"] and len(p["choices"]) > 1, p
    assert params["last_turns"]["choices"] == [
        "every_other_player_once",
        "complete_the_round",
        "none",
    ]


def test_three_ones_at_1000_scores_and_names_the_ruleset(client: TestClient[Any]) -> None:
    body = {"dice": [1, 1, 1, 2, 3, 4]}
    built_in = client.post("/yardkle/throws", json=body).json()
    assert built_in["max_points"] == 300 and "ruleset_id" not in built_in
    house = client.post("/yardkle/throws", json=body | {"rules": {"three_ones": 1000}})
    assert house.status_code == 200, house.text
    out = house.json()
    assert out["max_points"] == 1000
    assert out["ruleset_id"] == policy_spec(THOUSAND).rules_hash
    assert out["ruleset_id"] != FAMILY.games["yardkle"].ruleset_id


def test_rules_equal_to_the_defaults_give_the_built_in_id(client: TestClient[Any]) -> None:
    r = client.post("/yardkle/throws", json={"dice": [5], "rules": {"target": 10_000}})
    assert r.json()["ruleset_id"] == policy_spec(DEFAULT_RULES).rules_hash


def test_a_zero_combination_leaves_the_table(client: TestClient[Any]) -> None:
    """Three pairs at 0: a house rule without them; 2-2-3-3-4-4 is then a Yardkle."""
    body = {"dice": [2, 2, 3, 3, 4, 4], "rules": {"three_pairs": 0}}
    out = client.post("/yardkle/throws", json=body).json()
    assert out["yardkle"] is True and out["set_asides"] == []


def test_no_entry_minimum_in_turns_and_games(client: TestClient[Any]) -> None:
    """`entry_minimum: 0`: a first turn may bank 50; the built-in game refuses it."""
    turn = {"throws": [{"dice": [5, 2, 3, 4, 6, 6], "set_aside": [5]}], "end": "bank"}
    refused = client.post("/yardkle/turns", json=turn)
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["code"] == "entry_minimum"
    r = client.post("/yardkle/turns", json=turn | {"rules": {"entry_minimum": 0}})
    assert r.status_code == 200, r.text
    out = r.json()
    assert (out["points"], out["new_total"], out["on_pad"]) == (50, 50, True)
    assert out["ruleset_id"] == policy_spec(YardkleRules(entry_minimum=0)).rules_hash
    game = {"players": ["Ann", "Bo"], "turns": [{"player": "Ann", **turn}]}
    g = client.post("/yardkle/games", json=game | {"rules": {"entry_minimum": 0}})
    assert g.status_code == 200, g.text
    assert g.json()["standings"][0] == {
        "rank": 1,
        "player": "Ann",
        "total": 50,
        "on_pad": True,
        "turn_count": 1,
        "last_turn": False,
        "need": None,  # the leader needs nothing to pass the leader
    }
    assert client.post("/yardkle/games", json=game).status_code == 422


def test_a_lower_target_ends_the_game_sooner(client: TestClient[Any]) -> None:
    """A 1,500 target: Ann's straight (1,500) starts the last turns at once."""
    straight = {"throws": [{"dice": [1, 2, 3, 4, 5, 6], "set_aside": [1, 2, 3, 4, 5, 6]}]}
    game = {"players": ["Ann", "Bo"], "turns": [{"player": "Ann", **straight, "end": "bank"}]}
    out = client.post("/yardkle/games", json=game | {"rules": {"target": 1500}}).json()
    assert out["reached"]["player"] == "Ann" and out["last_turns_due"] == ["Bo"]
    assert client.post("/yardkle/games", json=game).json()["reached"] is None


def test_holds_read_the_variant_table(client: TestClient[Any]) -> None:
    """The coach under `three_ones: 1000` answers from that ruleset's own table (503 while
    it is not served), and its values are the variant's, not the built-in game's."""
    body = {"dice": [1, 1, 1, 2, 3, 4], "on_pad": True, "rules": {"three_ones": 1000}}
    waiting = client.post("/yardkle/holds", json=body)
    assert waiting.status_code == 503 and "retry-after" in waiting.headers
    put_policy_for(app, THOUSAND)
    r = client.post("/yardkle/holds", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["ruleset_id"] == policy_spec(THOUSAND).rules_hash
    expected = advise(solve_policy_table(THOUSAND), THOUSAND, [1, 1, 1, 2, 3, 4], 0, True)
    assert [o["expected_points"] for o in out["options"]] == [h.value for h in expected]
    assert out["options"][0]["set_aside"] == [1, 1, 1] and out["options"][0]["points"] == 1000
    built_in = client.post("/yardkle/holds", json={k: body[k] for k in ("dice", "on_pad")})
    assert built_in.json()["options"][0]["expected_points"] < out["options"][0]["expected_points"]


def test_a_throw_with_more_dice_than_the_rules_allow(client: TestClient[Any]) -> None:
    r = client.post("/yardkle/throws", json={"dice": [1, 2, 3, 4, 5], "rules": {"dice": 4}})
    assert r.status_code == 422
    assert r.json()["errors"][0]["field"] == "dice"


@pytest.mark.parametrize(
    ("rules", "name", "code"),
    [
        ({"three_one": 1000}, "three_one", "unknown_parameter"),
        ({"entry_threshold": 0}, "entry_threshold", "unknown_parameter"),
        ({"three_ones": "1000"}, "three_ones", "wrong_type"),
        ({"three_ones": -100}, "three_ones", "out_of_range"),
        ({"single_five": 0}, "single_five", "out_of_range"),
        ({"dice": 7}, "dice", "out_of_range"),
        ({"target_inclusive": 1}, "target_inclusive", "wrong_type"),
        ({"hot_dice_optional": False, "dice": 1}, "hot_dice_optional", "invalid_rule"),
        ({"best_valuation": False}, "best_valuation", "not_settable"),
        ({"set_aside_scores_completely": True}, "set_aside_scores_completely", "not_settable"),
        ({"turn_order": "players_as_listed"}, "turn_order", "not_settable"),
        ({"last_turns": "until_passed"}, "last_turns", "unknown_choice"),
        ({"single_five": 1, "straight": 10_000}, "single_five", "ruleset_limit"),
        ({"single_five": 25, "target": 1_000_000}, "target", "ruleset_limit"),
    ],
)
@pytest.mark.parametrize("path", ["/yardkle/throws", "/yardkle/turns", "/yardkle/holds"])
def test_refused_rules_are_422_naming_the_parameter(
    client: TestClient[Any], path: str, rules: dict[str, Any], name: str, code: str
) -> None:
    bodies: dict[str, dict[str, Any]] = {
        "/yardkle/throws": {"dice": [1, 5]},
        "/yardkle/turns": {"throws": [{"dice": [1] * 6, "set_aside": [1] * 6}], "end": "bank"},
        "/yardkle/holds": {"dice": [1, 5], "on_pad": True, "turn_points": 100},
    }
    r = client.post(path, json=bodies[path] | {"rules": rules})
    assert r.status_code == 422, r.text
    problem = r.json()
    assert problem["type"].endswith("/invalid-rules")
    assert [(e["field"], e["code"]) for e in problem["errors"]] == [(f"rules.{name}", code)]


def test_single_ones_and_fives_must_score() -> None:
    """The contradiction is refused by the rules themselves, naming the parameter."""
    with pytest.raises(RuleParameterError) as refused:
        YardkleRules(single_one=0)
    assert (refused.value.name, refused.value.code) == ("single_one", "invalid_rule")


# --- a code per rule check -----------------------------------------------------------------

Y = [2, 2, 3, 4, 6, 6]  # nothing scores: a Yardkle
TURNS_REJECTED: list[tuple[dict[str, Any], str, str]] = [
    (
        {"throws": [{"dice": Y, "set_aside": [2]}], "end": "yardkle"},
        "throws[0].set_aside",
        "set_aside_after_yardkle",
    ),
    ({"throws": [{"dice": Y}, {"dice": Y}], "end": "yardkle"}, "throws[1]", "throw_after_yardkle"),
    ({"throws": [{"dice": Y}], "end": "bank", "banked_total": 500}, "end", "banked_yardkle"),
    (
        {"throws": [{"dice": [1, 2, 3, 4, 6, 6]}], "end": "bank", "banked_total": 500},
        "throws[0].set_aside",
        "nothing_set_aside",
    ),
    (
        {
            "throws": [{"dice": [1, 2, 3, 4, 6, 6], "set_aside": [1, 2]}],
            "end": "bank",
            "banked_total": 500,
        },
        "throws[0].set_aside",
        "set_aside_not_scoring",
    ),
    (
        {
            "throws": [{"dice": [1, 2, 3, 4, 6, 6], "set_aside": [1]}],
            "end": "yardkle",
            "banked_total": 500,
        },
        "end",
        "not_a_yardkle",
    ),
    (
        {"throws": [{"dice": [1, 2, 3, 4, 6]}], "end": "bank", "banked_total": 500},
        "throws[0].dice",
        "wrong_dice_count",
    ),
    (
        {
            "throws": [{"dice": [1, 2, 3, 4, 6, 6], "set_aside": [1]}],
            "end": "bank",
            "banked_total": 120,
        },
        "banked_total",
        "impossible_total",
    ),
]


@pytest.mark.parametrize(("body", "field", "code"), TURNS_REJECTED)
def test_turn_rule_codes(
    client: TestClient[Any], body: dict[str, Any], field: str, code: str
) -> None:
    r = client.post("/yardkle/turns", json=body)
    assert r.status_code == 422, r.text
    assert [(e["field"], e["code"]) for e in r.json()["errors"]] == [(field, code)]


def test_more_dice_set_aside_than_thrown_says_so_in_words(client: TestClient[Any]) -> None:
    body = {"throws": [{"dice": [1, 1, 2, 3, 4, 6], "set_aside": [1, 1, 1]}], "end": "bank"}
    r = client.post("/yardkle/turns", json=body | {"banked_total": 500})
    assert r.status_code == 422
    [error] = r.json()["errors"]
    assert error["code"] == "dice_not_thrown"
    assert "three 1s set aside, two thrown" in error["reason"], error


def test_game_rule_codes(client: TestClient[Any]) -> None:
    turn = {"throws": [{"dice": [1, 2, 3, 4, 6, 6], "set_aside": [1]}], "end": "bank"}
    cases = [
        ({"players": ["Ann", "Ann"]}, "players[1]", "duplicate_player"),
        (
            {"players": ["Ann"], "turns": [{"player": "Bo", **turn}]},
            "turns[0].player",
            "unknown_player",
        ),
    ]
    for body, field, code in cases:
        r = client.post("/yardkle/games", json=body)
        assert r.status_code == 422, r.text
        assert [(e["field"], e["code"]) for e in r.json()["errors"]] == [(field, code)], r.text
