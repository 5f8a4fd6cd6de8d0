"""Errors in the domain's words and codes wherever they arise: a throw with the wrong number
of dice says how many the game throws and how many came (whether the request document or
the rules refuse it), a game of another family names the route that serves it, and dice
kept that the throw did not show are counted ('two 1s kept, one thrown')."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

Client = TestClient[Litestar]


def only_error(r: Any) -> tuple[str, str, str]:
    assert r.status_code in (400, 404, 422), r.text
    [error] = r.json()["errors"]
    return error["field"], error["reason"], error["code"]


DICE_COUNTS = [
    ("/score", {"game": "yahtzee", "dice": [1, 2, 3, 4]}, "dice", "expected 5 dice, got 4"),
    ("/score", {"game": "yatzy", "dice": [1, 2, 3, 4, 5, 6]}, "dice", "expected 5 dice, got 6"),
    ("/holds", {"game": "yahtzee", "dice": [1, 2], "throws_left": 2}, "dice",
     "expected 5 dice, got 2"),
    ("/reviews", {"game": "yahtzee", "turns": [{"throws": [[1, 2, 3, 4]], "box": "chance"}]},
     "turns[0].throws[0]", "expected 5 dice, got 4"),
    ("/chicago/throws", {"dice": [1, 1]}, "dice", "expected 3 dice, got 2"),
    ("/chicago/holds", {"dice": [1, 2, 3, 4], "throws_left": 1}, "dice",
     "expected 3 dice, got 4"),
    ("/yardkle/throws", {"dice": []}, "dice", "expected 1 to 6 dice, got 0"),
    ("/yardkle/holds", {"dice": [1] * 7, "on_pad": True}, "dice", "expected 1 to 6 dice, got 7"),
    ("/yardkle/turns", {"throws": [{"dice": [1, 5], "set_aside": [1] * 7}], "end": "bank"},
     "throws[0].set_aside", "expected at most 6 dice, got 7"),
]  # fmt: skip


@pytest.mark.parametrize(("route", "body", "field", "reason"), DICE_COUNTS)
def test_a_wrong_number_of_dice_is_said_in_the_domain_s_words(
    client: Client, route: str, body: dict[str, Any], field: str, reason: str
) -> None:
    r = client.post(route, json=body)
    assert r.status_code == 400
    assert only_error(r) == (field, reason, "wrong_dice_count")
    assert r.json()["detail"] == f"{field}: {reason}"


def test_the_rules_check_of_the_dice_count_words_it_the_same_way(client: Client) -> None:
    """Yardkle under four dice: five is within the document's bounds and refused by the
    rules, in the same words and code."""
    r = client.post("/yardkle/throws", json={"dice": [1, 1, 1, 5, 5], "rules": {"dice": 4}})
    assert r.status_code == 422
    assert only_error(r) == ("dice", "expected 1 to 4 dice, got 5", "wrong_dice_count")


@pytest.mark.parametrize(
    ("route", "body", "reason"),
    [
        ("/score", {"game": "chicago", "dice": [1, 2, 3, 4, 5]},
         "'chicago' is not played through /score: POST /chicago/throws serves it"),
        ("/score", {"game": "yardkle", "dice": [1, 2, 3, 4, 5]},
         "'yardkle' is not played through /score: POST /yardkle/throws serves it"),
        ("/holds", {"game": "chicago", "dice": [1, 2, 3, 4, 5], "throws_left": 2},
         "'chicago' is not played through /holds: POST /chicago/holds serves it"),
        ("/reviews", {"game": "yardkle", "turns": []},
         "'yardkle' is not played through /reviews: POST /yardkle/reviews serves it"),
        ("/scorecards/check", {"game": "chicago", "sheets": []},
         "'chicago' is not played through /scorecards/check: the /chicago/ routes serve it"),
    ],
)  # fmt: skip
def test_a_game_of_another_family_names_the_route_that_serves_it(
    client: Client, route: str, body: dict[str, Any], reason: str
) -> None:
    r = client.post(route, json=body)
    assert r.status_code == 400
    assert only_error(r) == ("game", reason, "unknown_value")


def test_an_unknown_game_is_still_a_404(client: Client) -> None:
    r = client.post("/score", json={"game": "backgammon", "dice": [1, 2, 3, 4, 5]})
    assert r.status_code == 404 and only_error(r)[2] == "unknown_game"


def test_keeping_more_of_a_face_than_thrown_counts_them(client: Client) -> None:
    body = {
        "game": "yahtzee",
        "turns": [{"throws": [[1, 2, 3, 4, 6], [1, 1, 2, 3, 5]], "keeps": [[1, 1]], "box": "ones"}],
    }
    r = client.post("/reviews", json=body)
    assert r.status_code == 422
    assert only_error(r) == (
        "turns[0].keeps[0]",
        "kept 1-1 after throw 1 (1-2-3-4-6): two 1s kept, one thrown",
        "kept_not_thrown",
    )


def test_chicago_kept_dice_not_on_the_table_are_counted(client: Client) -> None:
    body = {
        "turns": [
            {"player": "Ann", "lives": 4, "throws": [{"dice": [1, 2, 3], "kept": [1, 1]},
             {"dice": [1, 1, 4], "call": "high"}]},
            {"player": "Bob", "lives": 4, "throws": [{"dice": [5, 5, 5]}]},
        ],
    }  # fmt: skip
    r = client.post("/chicago/rounds", json=body)
    assert r.status_code == 422
    field, reason, code = only_error(r)
    assert (field, code) == ("turns[0].throws[0].kept", "kept_not_on_table")
    assert reason.endswith("kept [1, 1] from [1, 2, 3]: two 1s kept, one on the table"), reason


def test_a_truncated_body_refused_early_is_still_a_400(client: Client) -> None:
    """The typed decoder refuses `[` as not an object before it sees the truncation."""
    for body in ("[", '{"game": "yahtzee", "dice": [1, 2, 3, 4]', '{"dice": [1, 2], "x": ['):
        r = client.post("/holds", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, (body, r.text)
