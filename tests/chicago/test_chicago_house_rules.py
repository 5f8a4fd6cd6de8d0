"""Chicago house rules per request (`rules`) on every operation, `ruleset_id` in the answer,
refused values a 422 naming `rules.<name>`; the turn so far on `/chicago/throws`; and the
code of each rule check."""

from __future__ import annotations

from typing import Any

import pytest
from chicago_records import Json, one, post, throw, turn
from litestar.testing import TestClient

from conftest import make_test_app
from diceref.games.chicago import FAMILY
from diceref.games.chicago.rules.ruleset import CHICAGO, chicago

app = make_test_app()


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(app) as c:
        yield c


TIE_ROUND: Json = {
    "turns": [
        one("Ann", [2, 3, 4], lives=3, call="high"),
        one("Bob", [4, 5, 6], lives=3),
        one("Cy", [3, 3, 3], lives=3),
    ]
}


def test_the_tie_goes_the_other_way(client: TestClient[Any]) -> None:
    """Ann's 9 and Cy's 9 tie for the worst score: the later thrower loses by default,
    the earlier one under `worst_tie_loser: earlier`."""
    built_in = post(client, "/chicago/rounds", TIE_ROUND)
    assert built_in["events"][-1]["player"] == "Cy" and "ruleset_id" not in built_in
    rules = {"worst_tie_loser": "earlier"}
    house = post(client, "/chicago/rounds", TIE_ROUND | {"rules": rules})
    assert house["events"][-1]["player"] == "Ann"
    assert house["ruleset_id"] == chicago(worst_tie_loser="earlier").ruleset_id
    assert house["ruleset_id"] != CHICAGO.ruleset_id


def test_a_one_six_five_may_end_the_round(client: TestClient[Any]) -> None:
    """`one_six_five_round_goes_on: false`: Bob's 1-6-5 costs Cy a life and ends the round,
    so Cy throws no more and nobody loses for the worst score."""
    body: Json = {
        "turns": [
            one("Ann", [1, 2, 3], lives=3, call="low"),
            one("Bob", [1, 6, 5], lives=3, victim="Cy"),
            turn("Cy", lives=3),
        ],
        "rules": {"one_six_five_round_goes_on": False},
    }
    ruling = post(client, "/chicago/rounds", body)
    assert [(e["kind"], e["victim"]) for e in ruling["events"]] == [("one_six_five", "Cy")]
    assert ruling["ended_by"] == "one_six_five" and ruling["next_starter"] is None
    late = body | {"turns": [*body["turns"][:2], one("Cy", [2, 2, 2], lives=3)]}
    problem = post(client, "/chicago/rounds", late, 422)
    assert problem["errors"][0]["code"] == "throw_after_round_end"
    going_on = post(client, "/chicago/rounds", {"turns": late["turns"]})
    assert going_on["ended_by"] == "worst_score"


def test_lives_by_player_count_reach_the_game(client: TestClient[Any]) -> None:
    body: Json = {"players": ["Ann", "Bob"], "rounds": []}
    assert post(client, "/chicago/games", body)["starting_lives"] == 4
    house = post(client, "/chicago/games", body | {"rules": {"lives_by_players": [6, 5, 4, 3, 2]}})
    assert house["starting_lives"] == 6 and "ruleset_id" in house


def test_face_values_and_conversions_reach_throws_and_holds(client: TestClient[Any]) -> None:
    rules = {"high_values": [100, 2, 3, 4, 5, 6], "two_sixes_conversion": "must"}
    out = post(client, "/chicago/throws", {"dice": [6, 6, 2], "call": "high", "rules": rules})
    assert out["scores"] == {"high": 14}
    assert out["conversions"][0]["required"] is True
    assert out["ruleset_id"] == FAMILY.with_rules("chicago", rules).ruleset_id
    holds = post(client, "/chicago/holds", {"dice": [6, 6, 2], "throws_left": 1, "rules": rules})
    assert holds["ruleset_id"] == out["ruleset_id"]
    offered = {(tuple(o["keep"]), o["conversion"]) for r in holds["rankings"] for o in r["options"]}
    assert all(conversion == "two_sixes" for _, conversion in offered)  # no standing on 6-6


@pytest.mark.parametrize(
    ("rules", "name", "code"),
    [
        ({"tie_loser": "earlier"}, "tie_loser", "unknown_parameter"),
        ({"worst_tie_loser": "random"}, "worst_tie_loser", "unknown_choice"),
        ({"lives_by_players": [4, 3]}, "lives_by_players", "out_of_range"),
        ({"lives_by_players": [4, 3, 3, 3, 0]}, "lives_by_players", "out_of_range"),
        ({"high_values": [100, 2, 3, 4, 5, 301]}, "high_values", "out_of_range"),
        ({"one_six_five_scores": "no"}, "one_six_five_scores", "wrong_type"),
        ({"chicago_ends_round": 0}, "chicago_ends_round", "wrong_type"),
        ({"next_starter_after_chicago": "loser"}, "next_starter_after_chicago", "unknown_choice"),
        ({"knockout": "end_of_round"}, "knockout", "not_settable"),
        ({"knockout": "immediate"}, "knockout", "not_settable"),
    ],
)
@pytest.mark.parametrize("path", ["/chicago/throws", "/chicago/rounds", "/chicago/holds"])
def test_refused_rules_are_422_naming_the_parameter(
    client: TestClient[Any], path: str, rules: Json, name: str, code: str
) -> None:
    bodies: dict[str, Json] = {
        "/chicago/throws": {"dice": [1, 2, 3]},
        "/chicago/rounds": TIE_ROUND,
        "/chicago/holds": {"dice": [1, 2, 3], "throws_left": 1},
    }
    problem = post(client, path, bodies[path] | {"rules": rules}, 422)
    assert problem["type"].endswith("/invalid-rules")
    assert [(e["field"], e["code"]) for e in problem["errors"]] == [(f"rules.{name}", code)]


def test_every_reading_is_a_typed_settable_parameter(client: TestClient[Any]) -> None:
    """Every reading can be set, with a real alternative, but `knockout`, whose reason
    for having none is its description."""
    for p in client.get("/games/chicago").json()["parameters"]:
        assert p["settable"] is (p["name"] != "knockout"), p
        if p["value_type"] == "string" and p["settable"]:
            assert p["value"] in p["choices"] and len(p["choices"]) >= 2, p
        if not p["settable"]:
            assert "Not settable:" in p["description"], p
        if p["value_type"] == "string":
            assert p["value"] in p["choices"], p
        if p["value_type"] == "integer_list":
            assert p["minimum"] is not None and p["length"] == len(p["value"]), p


# --- the turn so far on /chicago/throws ----------------------------------------------------


def test_set_aside_ones_are_not_among_may_keep(client: TestClient[Any]) -> None:
    """1-6-6 on throw 2 after an earlier conversion set a 1 aside: the new conversion sets a
    second 1 aside, the other 6 is thrown again, and nothing else may be kept or thrown."""
    mid = {"dice": [6, 1, 6], "throw": 2, "kept": [1], "set_aside_count": 1}
    [conversion] = post(client, "/chicago/throws", mid)["conversions"]
    assert conversion["may_keep"] == [] and conversion["set_aside_count"] == 2
    assert conversion["must_rethrow"] == [6]
    fresh = post(client, "/chicago/throws", {"dice": [6, 1, 6], "throw": 2})["conversions"]
    assert fresh[0]["may_keep"] == [1] and fresh[0]["set_aside_count"] == 1


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"dice": [2, 3, 4], "kept": [5]}, "dice", "kept_dice_changed"),
        ({"dice": [1, 3, 4], "kept": [3], "set_aside_count": 1}, "kept", "set_aside_not_kept"),
        ({"dice": [1, 3, 4], "throw": 1, "kept": [1]}, "kept", "kept_before_first_throw"),
        ({"dice": [1, 3, 4], "throw": 4}, "throw", "throws_exceeded"),
    ],
)
def test_an_impossible_turn_so_far(
    client: TestClient[Any], body: Json, field: str, code: str
) -> None:
    problem = post(client, "/chicago/throws", body, 422)
    assert [(e["field"], e["code"]) for e in problem["errors"]] == [(field, code)]


# --- a code per rule check -----------------------------------------------------------------

ROUNDS_REJECTED: list[tuple[Json, str]] = [
    (  # a call by a player who is not the starter
        {
            "turns": [
                one("Ann", [2, 3, 4], lives=4, call="high"),
                one("Bob", [2, 2, 3], lives=4, call="low"),
            ]
        },
        "late_call",
    ),
    ({"turns": [one("Ann", [2, 3, 4], lives=4), one("Bob", [2, 2, 3], lives=4)]}, "missing_call"),
    (
        {"turns": [one("Ann", [1, 1, 1], lives=4, call="high"), one("Bob", [2, 2, 3], lives=4)]},
        "call_after_chicago",
    ),
    (
        {"turns": [one("Ann", [2, 3, 4], lives=4, call="high"), one("Bob", [1, 6, 5], lives=4)]},
        "missing_victim",
    ),
    (
        {
            "turns": [
                one("Ann", [2, 3, 4], lives=4, call="high"),
                one("Bob", [2, 3, 5], lives=4, victim="Ann"),
            ]
        },
        "victim_without_one_six_five",
    ),
    (
        {
            "turns": [
                one("Ann", [2, 3, 4], lives=4, call="high"),
                one("Bob", [1, 6, 5], lives=4, victim="Bob"),
            ]
        },
        "invalid_victim",
    ),
    (
        {
            "turns": [
                turn("Ann", throw([6, 6, 6], kept=[1]), throw([1, 1, 3], call="high"), lives=4),
                one("Bob", [2, 2, 3], lives=4),
            ]
        },
        "conversion_skipped",
    ),
    (
        {"turns": [one("Ann", [2, 3, 4], lives=4, call="high"), turn("Bob", lives=4)]},
        "no_throw",
    ),
    (
        {"turns": [one("Ann", [2, 3, 4], lives=2, call="high"), one("Bob", [2, 2, 3], lives=4)]},
        "wrong_lives",
    ),
    (
        {"turns": [one("Ann", [2, 3, 4], lives=4, call="high"), one("Ann", [2, 2, 3], lives=4)]},
        "duplicate_player",
    ),
]


@pytest.mark.parametrize(("body", "code"), ROUNDS_REJECTED)
def test_round_rule_codes(client: TestClient[Any], body: Json, code: str) -> None:
    problem = post(client, "/chicago/rounds", body, 422)
    assert [e["code"] for e in problem["errors"]] == [code], problem


GAMES_REJECTED: list[tuple[Json, str]] = [
    ({"players": ["Ann"], "rounds": []}, "table_size"),
    (
        {"players": ["Ann", "Bob"], "rounds": [{"turns": [one("Cy", [2, 3, 4], call="high")]}]},
        "unknown_player",
    ),
    (
        {"players": ["Ann", "Bob"], "rounds": [{"turns": [one("Ann", [2, 3, 4], call="high")]}]},
        "missing_player",
    ),
]


@pytest.mark.parametrize(("body", "code"), GAMES_REJECTED)
def test_game_rule_codes(client: TestClient[Any], body: Json, code: str) -> None:
    problem = post(client, "/chicago/games", body, 422)
    assert [e["code"] for e in problem["errors"]] == [code], problem


def test_a_target_without_a_call_has_its_code(client: TestClient[Any]) -> None:
    problem = post(
        client, "/chicago/holds", {"dice": [1, 2, 3], "throws_left": 1, "target": 9}, 422
    )
    assert problem["errors"][0]["code"] == "target_without_call"
