"""Every `errors[]` item carries a stable, machine-readable `code` beside its English
reason: one case per class of bad input the other tests send, through the app."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

Client = TestClient[Litestar]
YAHTZEE = {"game": "yahtzee", "dice": [1, 2, 3, 4, 5]}
FULL_CARD = {b: 0 for b in (
    "ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind", "four_of_a_kind",
    "full_house", "small_straight", "large_straight", "yahtzee", "chance",
)}  # fmt: skip
TURN = [{"dice": [1, 5, 2, 3, 3, 3], "set_aside": [1, 3, 3, 3]}]


CASES: list[tuple[str, dict[str, Any], int, str, str]] = [
        ("/score", {"game": "yahtzee", "dice": [1, 2, 3, 4]}, 400, "dice", "wrong_dice_count"),
        ("/score", {"game": "yahtzee", "dice": [1, 2, 3, 4, 5, 6]}, 400, "dice",
         "wrong_dice_count"),
        ("/score", {"game": "yahtzee", "dice": [1, 2, 3, 4, 7]}, 400, "dice[4]", "not_a_die"),
        ("/score", {"game": "yahtzee", "dice": [0, 2, 3, 4, 5]}, 400, "dice[0]", "not_a_die"),
        ("/score", {"game": "yahtzee", "dice": ["a", 2, 3, 4, 5]}, 400, "dice[0]", "wrong_type"),
        ("/score", {"game": "yahtzee"}, 400, "dice", "missing_field"),
        # `game` or `ruleset`, exactly one: a rule JSON Schema does not state, hence a 422
        ("/score", {"dice": [1, 2, 3, 4, 5]}, 422, "game", "missing_field"),
        ("/score", YAHTZEE | {"ruleset": {"id": "x", "name": "x", "dice_count": 5,
         "throws_per_turn": 3, "boxes": [], "upper_bonus_rule": {"threshold": 63, "points": 35},
         "order": "free"}}, 422, "ruleset", "exclusive_fields"),
        ("/score", YAHTZEE | {"colour": "red"}, 400, "colour", "unknown_field"),
        ("/score", YAHTZEE | {"throw": 5}, 400, "throw", "out_of_range"),
        ("/score", YAHTZEE | {"throw": 4}, 422, "throw", "throws_exceeded"),
        ("/score", {"game": "chicago", "dice": [1, 2, 3, 4, 5]}, 400, "game", "unknown_value"),
        ("/score", {"game": "backgammon", "dice": [1, 2, 3, 4, 5]}, 404, "game", "unknown_game"),
        ("/score", YAHTZEE | {"scorecard": {"filled": {"pair": 1}}}, 422,
         "scorecard.filled.pair", "unknown_box"),
        ("/score", YAHTZEE | {"scorecard": {"filled": {"ones": 7}}}, 422,
         "scorecard.filled.ones", "impossible_points"),
        ("/score", YAHTZEE | {"scorecard": {"filled": FULL_CARD}}, 422, "scorecard.filled",
         "card_full"),
        ("/score", YAHTZEE | {"scorecard": {"filled": {"fours": 8}, "extra_bonus": 100}}, 422,
         "scorecard.extra_bonus", "bonus_without_basis"),
        ("/score", {"game": "russian-poker", "dice": [1, 2, 3, 4, 5],
                    "scorecard": {"filled": {"ones": 1, "pair": 12}}}, 422,
         "scorecard.filled.pair", "series_order"),
        ("/holds", YAHTZEE | {"throws_left": 2, "throw": 3}, 422, "throw", "throw_mismatch"),
        ("/chicago/throws", {"dice": [1, 6, 5], "throw": 3, "throws_allowed": 2}, 422, "throw",
         "throws_exceeded"),
        ("/chicago/holds", {"dice": [2, 4, 6], "throws_left": 1, "set_aside_count": 2,
                            "call": "high"}, 422, "set_aside_count", "set_aside_without_ones"),
        ("/yardkle/turns", {"throws": TURN, "end": "bank"}, 422, "end", "entry_minimum"),
        ("/yardkle/games", {"players": ["Ann", "Bob"],
                            "turns": [{"player": "Bob", "throws": TURN, "end": "bank"}]}, 422,
         "turns[0].player", "out_of_turn"),
        ("/yardkle/holds", {"dice": [1, 5, 2, 3], "on_pad": True, "turn_points": 333}, 422,
         "turn_points", "impossible_turn_points"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "body", "status", "field", "code"), CASES)
def test_each_class_of_bad_input_has_its_code(
    coach: Client, path: str, body: dict[str, Any], status: int, field: str, code: str
) -> None:
    r = coach.post(path, json=body)
    assert r.status_code == status, r.text
    assert [(e["field"], e["code"]) for e in r.json()["errors"]] == [(field, code)], r.text


@pytest.mark.parametrize(
    ("content", "headers", "status", "code"),
    [
        (b"", {"content-type": "application/json"}, 400, "empty_body"),
        (b"{not json", {"content-type": "application/json"}, 400, "not_json"),
        (b"{}", {"content-type": "text/plain"}, 415, "unsupported_type"),
        (b"{}", {"content-type": "application/json", "content-encoding": "gzip"}, 415,
         "unsupported_encoding"),
    ],
)  # fmt: skip
def test_bodies_that_are_not_json_have_their_codes(
    client: Client, content: bytes, headers: dict[str, str], status: int, code: str
) -> None:
    r = client.post("/score", content=content, headers=headers)
    assert r.status_code == status and [e["code"] for e in r.json()["errors"]] == [code]


def test_an_unknown_route_has_its_code(client: Client) -> None:
    r = client.get("/nowhere")
    assert r.status_code == 404 and r.json()["errors"][0]["code"] == "unknown_route"


def test_every_code_and_type_sent_is_listed(coach: Client) -> None:
    """The codes and problem types the cases above produce are in the published lists, and
    the document carries the lists."""
    from diceref.http.openapi import contract_document
    from diceref.http.problem_catalogue import PROBLEM_TYPES
    from diceref.http.problems import PROBLEM_BASE
    from diceref.http.vocabulary import error_codes

    ERROR_CODES = error_codes()

    for args in CASES:
        path, body, _, _, code = args
        answer = coach.post(path, json=body).json()
        assert code in ERROR_CODES and answer["type"].removeprefix(PROBLEM_BASE) in PROBLEM_TYPES
    document = contract_document(coach.app)
    assert set(document["x-error-codes"]) == set(ERROR_CODES)
    assert {t.removeprefix(PROBLEM_BASE) for t in document["x-problem-types"]} == set(PROBLEM_TYPES)


def test_the_docs_list_every_code_and_problem_type() -> None:
    from pathlib import Path

    from diceref.http.problem_catalogue import PROBLEM_TYPES
    from diceref.http.vocabulary import error_codes

    ERROR_CODES = error_codes()

    text = (Path(__file__).parents[2] / "docs" / "contract.md").read_text()
    for code in ERROR_CODES:
        assert f"| `{code}` |" in text, code
    for kind in PROBLEM_TYPES:
        assert f"| `{kind}` |" in text, kind


@pytest.mark.parametrize(
    ("field", "code"),
    [
        ("dice[4]", "not_a_die"),
        ("turns[2].keeps[0][3]", "not_a_die"),  # the scorecard's review
        ("turns[0].throws[1][4]", "not_a_die"),
        ("kept[1]", "not_a_die"),  # Chicago's
        ("throws[0].set_aside[2]", "not_a_die"),  # Yardkle's
        ("target", "out_of_range"),
        ("notches[1]", "out_of_range"),
    ],
)
def test_the_fields_each_family_declares_holding_dice_say_not_a_die(field: str, code: str) -> None:
    from diceref.http.msgspec_errors import validation_code
    from diceref.http.problem_handlers import die_fields

    assert validation_code(field, "Expected `int` <= 6", die_fields()) == code
