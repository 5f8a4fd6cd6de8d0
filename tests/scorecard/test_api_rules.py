"""House rules per request (`rules`): applied to scoring and sheet checks, reported as
`ruleset_id`, and every refused value a 422 naming `rules.<name>`."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant

Client = TestClient[Litestar]
JOKER_CARD = {"filled": {"yahtzee": 50, "sixes": 18}, "extra_bonus": 0}


def _boxes(body: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {o["box"]: (o["points"], o["bonus"]) for o in body["options"]}


def test_rules_change_the_score_and_name_the_ruleset(client: Client) -> None:
    """Five 6s with the Yahtzee box at 50 and Sixes filled: the forced Joker scores a full
    house at 25 plus the 100 bonus; without the Joker the full house is not made at all."""
    base = {"game": "yahtzee", "dice": [6] * 5, "scorecard": JOKER_CARD}
    built_in = client.post("/score", json=base).json()
    assert _boxes(built_in)["full_house"] == (25, 100)
    assert "ruleset_id" not in built_in

    house = client.post("/score", json=base | {"rules": {"joker": "none", "extra_bonus": 0}})
    assert house.status_code == 200, house.text
    body = house.json()
    assert _boxes(body)["full_house"] == (0, 0)
    assert body["ruleset_id"] == variant("yahtzee", joker="none", extra_bonus=0).rules_hash
    assert body["ruleset_id"] != SCORECARD_GAMES["yahtzee"].rules_hash


def test_rules_equal_to_the_defaults_give_the_built_in_id(client: Client) -> None:
    r = client.post(
        "/score", json={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "rules": {"joker": "forced"}}
    )
    assert r.json()["ruleset_id"] == SCORECARD_GAMES["yahtzee"].rules_hash


def test_upper_bonus_rules_reach_the_sheet_check(client: Client) -> None:
    """A 50-point bonus at 60 (a common house rule): a sheet with 60 in the upper boxes."""
    entries = [
        {"box": box, "points": points}
        for box, points in (("fours", 16), ("fives", 20), ("sixes", 24))
    ]
    sheet = {"player": "Ann", "entries": entries}
    rules = {"upper_bonus_threshold": 60, "upper_bonus_points": 50}
    r = client.post(
        "/scorecards/check", json={"game": "yahtzee", "sheets": [sheet], "rules": rules}
    )
    assert r.status_code == 200, r.text
    out = r.json()["sheets"][0]
    assert (out["upper_subtotal"], out["upper_bonus"], out["total"]) == (60, 50, 110)
    plain = client.post("/scorecards/check", json={"game": "yahtzee", "sheets": [sheet]}).json()
    assert plain["sheets"][0]["upper_bonus"] == 0


def test_four_throws_a_turn(client: Client) -> None:
    """With `throws_per_turn: 4` a fourth throw exists; in the built-in game it does not."""
    body = {"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throw": 4}
    assert client.post("/score", json=body).status_code == 422
    r = client.post("/score", json=body | {"rules": {"throws_per_turn": 4}})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    ("rules", "name", "code"),
    [
        ({"jokers": "none"}, "jokers", "unknown_parameter"),
        ({"joker": "sometimes"}, "joker", "unknown_choice"),
        ({"joker": 1}, "joker", "wrong_type"),
        ({"extra_bonus": True}, "extra_bonus", "wrong_type"),
        ({"extra_bonus": "100"}, "extra_bonus", "wrong_type"),
        ({"extra_bonus": -1}, "extra_bonus", "out_of_range"),
        ({"throws_per_turn": 5}, "throws_per_turn", "out_of_range"),
        ({"matching_upper_forced": 0}, "matching_upper_forced", "wrong_type"),
        ({"order": "forced"}, "order", "invalid_rule"),  # forced order contradicts the Joker
    ],
)
def test_refused_rules_are_422_naming_the_parameter(
    client: Client, rules: dict[str, Any], name: str, code: str
) -> None:
    r = client.post("/score", json={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "rules": rules})
    assert r.status_code == 422, r.text
    problem = r.json()
    assert r.headers["content-type"] == "application/problem+json"
    assert problem["type"].endswith("/invalid-rules")
    assert [(e["field"], e["code"]) for e in problem["errors"]] == [(f"rules.{name}", code)]


def test_an_informational_parameter_cannot_be_set(client: Client) -> None:
    r = client.post(
        "/score",
        json={"game": "chute-5", "dice": [1, 2, 3, 4, 5], "rules": {"printed_perfect_score": 1}},
    )
    assert r.status_code == 422
    assert r.json()["errors"][0]["code"] == "not_settable"


def test_integer_list_parameter(client: Client) -> None:
    """Chute-5's notch table: twelve integers, two per face."""
    notches = [10] * 12
    r = client.post(
        "/score",
        json={"game": "chute-5", "dice": [1, 1, 1, 2, 3], "rules": {"notches": notches}},
    )
    assert r.status_code == 200, r.text
    assert _boxes(r.json())["aces"][0] == 10
    short = client.post(
        "/score",
        json={"game": "chute-5", "dice": [1, 1, 1, 2, 3], "rules": {"notches": [1, 2]}},
    )
    assert short.status_code == 422
    assert short.json()["errors"][0]["field"] == "rules.notches"


def test_every_parameter_states_its_type_and_bounds(client: Client) -> None:
    for game in SCORECARD_GAMES:
        for p in client.get(f"/games/{game}").json()["parameters"]:
            assert p["value_type"] in ("boolean", "integer", "string", "integer_list"), p
            if p["value_type"] == "string":
                assert p["value"] in p["choices"], p
            if p["value_type"] == "integer" and p["settable"]:
                assert p["minimum"] is not None and p["maximum"] is not None, p
                assert p["minimum"] <= p["value"] <= p["maximum"], p


def test_rules_asking_for_a_table_beyond_the_bound_are_refused(client: Client) -> None:
    """An upper bonus at 1,000 would need a 16-million-state table: refused, like the same
    rules sent as a custom ruleset."""
    r = client.post(
        "/score",
        json={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "rules": {"upper_bonus_threshold": 1000}},
    )
    assert r.status_code == 422, r.text
    error = r.json()["errors"][0]
    assert (error["field"], error["code"]) == ("rules.upper_bonus_threshold", "ruleset_limit")
