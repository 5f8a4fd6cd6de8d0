"""POST /score through the ASGI app, and every class of bad input."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

Client = TestClient[Litestar]


def test_score_empty_card(client: Client) -> None:
    r = client.post("/score", json={"game": "yahtzee", "dice": [4, 4, 6, 6, 6]})
    assert r.status_code == 200
    body = r.json()
    assert body["game"] == "yahtzee" and body["dice"] == [4, 4, 6, 6, 6] and body["total"] == 0
    got = {o["box"]: (o["points"], o["bonus"]) for o in body["options"]}
    assert got["full_house"] == (25, 0)
    assert got["sixes"] == (18, 0)
    assert got["yahtzee"] == (0, 0)
    assert len(got) == 13


def test_score_with_scorecard_total_and_joker(client: Client) -> None:
    card = {
        "filled": {"yahtzee": 50, "sixes": 18, "fours": 16, "fives": 20, "threes": 9},
        "extra_bonus": 0,
    }
    r = client.post("/score", json={"game": "yahtzee", "dice": [6] * 5, "scorecard": card})
    body = r.json()
    assert body["total"] == 50 + 18 + 16 + 20 + 9 + 35  # 63 in the upper section
    assert {o["box"] for o in body["options"]} == {
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "chance",
    }
    assert all(o["bonus"] == 100 for o in body["options"])


def test_russian_throw_doubling(client: Client) -> None:
    first = {b: 0 for b in ("ones", "twos", "threes", "fours", "fives", "sixes")}
    req = {"game": "russian-poker", "dice": [2, 2, 5, 5, 5], "scorecard": {"filled": first}}
    later = {o["box"]: o["points"] for o in client.post("/score", json=req).json()["options"]}
    req["throw"] = 1
    doubled = {o["box"]: o["points"] for o in client.post("/score", json=req).json()["options"]}
    assert later["full_house"] == 19 and doubled["full_house"] == 38
    assert later["chance"] == doubled["chance"] == 19


def problem(r: Any, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = r.json()
    assert body["status"] == status and body["title"] and body["detail"]
    assert body["type"].startswith("https://")
    return body


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"game": "yahtzee", "dice": [1, 2, 3, 4]}, "dice"),
        ({"game": "yahtzee", "dice": [1, 2, 3, 4, 5, 6]}, "dice"),
        ({"game": "yahtzee", "dice": [1, 2, 3, 4, 7]}, "dice[4]"),
        ({"game": "yahtzee", "dice": [0, 2, 3, 4, 5]}, "dice[0]"),
        ({"game": "yahtzee", "dice": ["a", 2, 3, 4, 5]}, "dice[0]"),
        ({"game": "chicago", "dice": [1, 2, 3, 4, 5]}, "game"),
        ({"game": "yahtzee"}, "dice"),
        ({"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throw": 5}, "throw"),
        ({"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "colour": "red"}, "colour"),
        (
            {"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "scorecard": {"extra_bonus": -100}},
            "scorecard.extra_bonus",
        ),
        (
            {"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "scorecard": {"filled": {"ones": "x"}}},
            "scorecard.filled",
        ),
    ],
)
def test_schema_errors_are_400_naming_the_field(
    client: Client, payload: dict[str, Any], field: str
) -> None:
    body = problem(client.post("/score", json=payload), 400)
    assert any(field in e["field"] for e in body["errors"]), body


@pytest.mark.parametrize(
    ("path", "payload"),
    [
        ("/score", {"game": "backgammon", "dice": [1, 2, 3, 4, 5]}),
        ("/holds", {"game": "backgammon", "dice": [1, 2, 3, 4, 5], "throws_left": 1}),
        ("/scorecards/check", {"game": "backgammon", "sheets": [{"player": "A", "entries": []}]}),
    ],
)
def test_an_unknown_game_is_a_404_naming_it(
    client: Client, path: str, payload: dict[str, Any]
) -> None:
    body = problem(client.post(path, json=payload), 404)
    assert body["type"].endswith("/unknown-game")
    assert body["errors"] == [
        {
            "field": "game",
            "reason": "unknown game 'backgammon'; see GET /games",
            "code": "unknown_game",
        }
    ]
    assert problem(client.get("/games/backgammon"), 404)["type"] == body["type"]


def test_an_unknown_route_is_a_404_of_the_same_shape(client: Client) -> None:
    body = problem(client.post("/scores", json={}), 404)
    assert body["type"].endswith("/unknown-route") and body["errors"][0]["field"] == "path"


def test_head_healthz_answers_200_without_a_body(client: Client) -> None:
    r = client.head("/healthz")
    assert r.status_code == 200 and r.content == b""


@pytest.mark.parametrize(
    ("scorecard", "field", "fragment"),
    [
        ({"filled": {"pair": 10}}, "scorecard.filled.pair", "no box"),
        ({"filled": {"ones": 7}}, "scorecard.filled.ones", "no throw can score 7"),
        ({"filled": {"yahtzee": 0}, "extra_bonus": 100}, "scorecard.extra_bonus", "basis"),
    ],
)
def test_rule_violations_are_422(
    client: Client, scorecard: dict[str, Any], field: str, fragment: str
) -> None:
    r = client.post(
        "/score", json={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "scorecard": scorecard}
    )
    body = problem(r, 422)
    assert body["errors"][0]["field"] == field and fragment in body["errors"][0]["reason"]


def test_full_card_is_422(client: Client) -> None:
    from diceref.games.scorecard.rules.games import SCORECARD_GAMES

    boxes = {b.id: 0 for b in SCORECARD_GAMES["chute-5"].boxes}
    r = client.post(
        "/score", json={"game": "chute-5", "dice": [1, 2, 3, 4, 5], "scorecard": {"filled": boxes}}
    )
    assert "full" in problem(r, 422)["detail"]


def test_malformed_json_and_wrong_method(client: Client) -> None:
    json_type = {"content-type": "application/json"}
    problem(client.post("/score", content=b"{not json", headers=json_type), 400)
    # Without a Content-Type a body is JSON only if it parses (issue 18): otherwise a 415.
    assert problem(client.post("/score", content=b"{not json"), 415)["errors"] == [
        {
            "field": "Content-Type",
            "reason": "missing, and the body is not JSON: send Content-Type: application/json",
            "code": "unsupported_type",
        }
    ]
    problem(client.post("/score", content=b"[]", headers={"content-type": "application/json"}), 400)
    problem(client.get("/score"), 405)
    problem(client.get("/nowhere"), 404)


def test_options_name_their_box_and_split_the_bonus(client: Client) -> None:
    """Sixes completes 63 in the upper section (35) and the further Yahtzee earns 100."""
    card = {"filled": {"yahtzee": 50, "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15}}
    body = client.post(
        "/score", json={"game": "yahtzee", "dice": [6] * 5, "scorecard": card}
    ).json()
    (sixes,) = body["options"]  # the matching upper box is open: the forced Joker sends it there
    assert sixes == {
        "box": "sixes",
        "name": "Sixes",
        "points": 30,
        "bonus": 135,
        "upper_bonus": 35,
        "extra_bonus": 100,
    }
    blocked = {b["box"]: b for b in body["blocked"]}
    assert set(blocked) == {
        "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
        "large_straight", "chance",
    }  # fmt: skip
    assert {b["code"] for b in blocked.values()} == {"forced_joker"}
    assert blocked["chance"]["name"] == "Chance" and blocked["chance"]["reason"]


def test_series_order_blocks_the_second_series_with_its_code(client: Client) -> None:
    body = client.post("/score", json={"game": "russian-poker", "dice": [2, 2, 5, 5, 5]}).json()
    assert {o["box"] for o in body["options"]} == {
        "ones", "twos", "threes", "fours", "fives", "sixes"
    }  # fmt: skip
    assert body["blocked"] and {b["code"] for b in body["blocked"]} == {"series_order"}
    assert "full_house" in {b["box"] for b in body["blocked"]}


def test_nothing_is_blocked_on_a_free_card(client: Client) -> None:
    body = client.post("/score", json={"game": "yahtzee", "dice": [1, 2, 3, 4, 6]}).json()
    assert body["blocked"] == [] and len(body["options"]) == 13
