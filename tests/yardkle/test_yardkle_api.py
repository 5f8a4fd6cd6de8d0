"""The Yardkle routes over HTTP: shapes, rule violations as 422 problems, schema errors as
400 problems, the readings in `GET /games/yardkle`, and the coach against the table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement
from math import factorial
from typing import Any

import pytest
from litestar.testing import TestClient

from conftest import make_test_app
from diceref.games.yardkle.rules.scoring import DEFAULT_RULES
from diceref.games.yardkle.solver.advice import advise
from diceref.games.yardkle.tables import solve_policy_table

# The app of the tests: test disk cache, no Redis, no preloading (never the env's).
app = make_test_app()

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    with TestClient(app) as c:
        yield c


def problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    return body


def test_game_info_reports_every_reading(client: TestClient[Any]) -> None:
    body = client.get("/games/yardkle").json()
    params = {p["name"]: p for p in body["parameters"]}
    assert params["three_ones"]["value"] == 300
    assert params["entry_minimum"]["value"] == 500
    assert params["target"]["value"] == 10_000
    for reading in (
        "groups_distinct_faces",
        "best_valuation",
        "set_aside_scores_completely",
        "hot_dice_optional",
        "target_inclusive",
        "last_turns",
        "turn_order",
        "ties_share_win",
    ):
        assert params[reading]["reading"] is True, reading
    assert body["dice_count"] == 6 and body["family"] == "yardkle"


def test_throws(client: TestClient[Any]) -> None:
    body = client.post("/yardkle/throws", json={"dice": [2, 5, 1, 2, 1, 2]}).json()
    assert body["dice"] == [1, 1, 2, 2, 2, 5]
    assert body["yardkle"] is False and body["max_points"] == 450
    best = body["set_asides"][0]
    assert best["dice"] == [1, 1, 2, 2, 2, 5] and best["hot_dice"] and best["dice_left_count"] == 6
    assert sorted(p["combination"] for p in best["split"]) == [
        "single_1",
        "single_1",
        "single_5",
        "three_2s",
    ]
    assert len(body["set_asides"]) == 11
    assert {k: body["set_asides"][-1][k] for k in ("dice", "points")} == {"dice": [5], "points": 50}


@pytest.mark.parametrize(
    ("dice", "points", "combination"),
    [
        ([1, 1, 1, 5, 5, 5], 2500, "two_triplets"),
        ([1, 1, 5, 5, 6, 6], 1500, "three_pairs"),
        ([4, 4, 4, 4, 1, 1], 1500, "four_of_a_kind_with_pair"),
        ([3, 3, 3, 3, 3, 3], 3000, "six_of_a_kind"),
        ([6, 5, 4, 3, 2, 1], 1500, "straight"),
    ],
)
def test_throws_take_the_best_valuation(
    client: TestClient[Any], dice: list[int], points: int, combination: str
) -> None:
    best = client.post("/yardkle/throws", json={"dice": dice}).json()["set_asides"][0]
    assert best["points"] == points
    assert [p["combination"] for p in best["split"]] == [combination]


def test_a_yardkle_throw(client: TestClient[Any]) -> None:
    body = client.post("/yardkle/throws", json={"dice": [2, 2, 3, 4, 6, 6]}).json()
    assert body == {
        "dice": [2, 2, 3, 4, 6, 6],
        "yardkle": True,
        "max_points": 0,
        "set_asides": [],
    }


@pytest.mark.parametrize(
    "payload",
    [
        {"dice": []},
        {"dice": [1, 2, 3, 4, 5, 6, 1]},
        {"dice": [0, 1]},
        {"dice": [1], "extra": 1},
    ],
)
def test_throws_schema_errors(client: TestClient[Any], payload: dict[str, Any]) -> None:
    body = problem(client.post("/yardkle/throws", json=payload), 400)
    assert body["errors"]


def test_turn(client: TestClient[Any]) -> None:
    payload = {
        "banked_total": 0,
        "throws": [
            {"dice": [1, 1, 5, 2, 3, 6], "set_aside": [1, 1, 5]},
            {"dice": [5, 5, 5], "set_aside": [5, 5, 5]},
            {"dice": [2, 3, 4, 6, 6, 1], "set_aside": [1]},
        ],
        "end": "bank",
    }
    body = client.post("/yardkle/turns", json=payload).json()
    assert body["points"] == 850 and body["new_total"] == 850 and body["on_pad"]
    assert body["entry_rule"] == {"applied": True, "threshold": 500, "met": True}
    assert [t["running_total"] for t in body["throws"]] == [250, 750, 850]
    assert [t["hot_dice"] for t in body["throws"]] == [False, True, False]


@pytest.mark.parametrize(
    ("throws", "end", "total", "field"),
    [
        ([{"dice": [1, 2, 3, 4, 6, 6], "set_aside": [5]}], "bank", 600, "throws[0].set_aside"),
        ([{"dice": [1, 2, 3, 4, 6, 6], "set_aside": [1, 2]}], "bank", 600, "throws[0].set_aside"),
        ([{"dice": [1, 2, 3, 4, 6, 6]}], "bank", 600, "throws[0].set_aside"),
        ([{"dice": [1, 2, 3, 4, 6, 6], "set_aside": [1]}], "bank", 0, "end"),
        (
            [
                {"dice": [1, 2, 3, 4, 6, 6], "set_aside": [1]},
                {"dice": [2, 2, 3, 4, 6]},
                {"dice": [2, 2, 3, 4, 1], "set_aside": [1]},
            ],
            "yardkle",
            600,
            "throws[2]",
        ),
    ],
)
def test_turn_rejections_are_422_problems(
    client: TestClient[Any], throws: list[Any], end: str, total: int, field: str
) -> None:
    response = client.post(
        "/yardkle/turns", json={"throws": throws, "end": end, "banked_total": total}
    )
    body = problem(response, 422)
    assert body["errors"][0]["field"] == field
    assert "throw" in body["errors"][0]["reason"]


def test_turn_schema_errors(client: TestClient[Any]) -> None:
    bad_end = {"throws": [{"dice": [1]}], "end": "stop"}
    problem(client.post("/yardkle/turns", json=bad_end), 400)
    problem(client.post("/yardkle/turns", json={"throws": [], "end": "bank"}), 400)


def turn(player: str, dice: list[int], kept: list[int]) -> dict[str, Any]:
    if kept:
        return {"player": player, "throws": [{"dice": dice, "set_aside": kept}], "end": "bank"}
    return {"player": player, "throws": [{"dice": dice}], "end": "yardkle"}


def test_game(client: TestClient[Any]) -> None:
    six = [2, 2, 2, 2, 2, 2]  # 3,000 in one throw
    turns = [turn(p, six, six) for _ in range(3) for p in ("ann", "bob")]
    turns += [turn("ann", [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6])]  # ann 10,500
    turns += [turn("bob", [2, 2, 3, 4, 6, 6], [])]  # bob's last turn: a Yardkle
    body = client.post("/yardkle/games", json={"players": ["ann", "bob"], "turns": turns}).json()
    assert body["finished"] and body["winners"] == ["ann"] and body["next_player"] is None
    assert body["reached"] == {"turn_index": 6, "player": "ann", "total": 10500}
    assert body["last_turns"] == [7] and body["last_turns_due"] == []
    assert body["standings"][0] == {
        "rank": 1,
        "player": "ann",
        "total": 10500,
        "on_pad": True,
        "turn_count": 4,
        "last_turn": False,
        "need": None,
    }
    assert body["turns"][7]["last_turn"] and body["turns"][7]["points"] == 0

    # Before bob's last turn: it is marked, with the 1,550 that would pass ann's 10,500.
    before = client.post("/yardkle/games", json={"players": ["ann", "bob"], "turns": turns[:7]})
    bob = next(s for s in before.json()["standings"] if s["player"] == "bob")
    assert bob["last_turn"] and bob["need"] == 10500 - 9000 + 50
    ann = before.json()["standings"][0]
    assert ann["player"] == "ann" and not ann["last_turn"] and ann["need"] is None

    after = [*turns, turn("ann", six, six)]
    response = client.post("/yardkle/games", json={"players": ["ann", "bob"], "turns": after})
    assert problem(response, 422)["errors"][0]["field"] == "turns[8]"


def test_holds_rank_every_set_aside(client: TestClient[Any]) -> None:
    body = client.post("/yardkle/holds", json={"dice": [1, 1, 5, 2, 3, 6], "on_pad": False}).json()
    options = body["options"]
    assert [o["rank"] for o in options] == list(range(1, len(options) + 1))
    values = [o["expected_points"] for o in options]
    assert values == sorted(values, reverse=True)
    assert {tuple(o["set_aside"]) for o in options} == {
        (1,), (5,), (1, 1), (1, 5), (1, 1, 5)
    }  # fmt: skip
    # off the pad with under 500, banking is not allowed and is worth 0
    assert all(not o["bank_allowed"] and o["bank_expected_points"] == 0 for o in options)
    # the classic advice: keep one 1 and throw five dice
    assert body["best_option"]["set_aside"] == [1] and body["best_option"]["decision"] == "throw_on"
    assert body["best_option"]["expected_points"] == options[0]["expected_points"]


def test_holds_bank_a_big_turn_with_one_die_left(client: TestClient[Any]) -> None:
    payload = {"dice": [1, 2, 3, 6], "on_pad": True, "turn_points": 1000}
    body = client.post("/yardkle/holds", json=payload).json()
    best = body["best_option"]
    assert best["set_aside"] == [1] and best["decision"] == "bank"
    assert best["expected_points"] == 1100
    first = body["options"][0]
    assert (
        first["bank_expected_points"] == 1100
        and first["throw_on_expected_points"] < 1100
        and first["dice_left_count"] == 3
    )


def test_holds_on_a_yardkle(client: TestClient[Any]) -> None:
    payload = {"dice": [2, 3], "on_pad": True, "turn_points": 400}
    body = client.post("/yardkle/holds", json=payload).json()
    assert body["yardkle"] and body["options"] == [] and body["best_option"] is None


@pytest.mark.parametrize(
    ("payload", "status", "field"),
    [
        ({"dice": [1, 2, 3], "on_pad": True, "turn_points": 0}, 422, "turn_points"),
        ({"dice": [1, 2, 3], "on_pad": True, "turn_points": 75}, 422, "turn_points"),
        ({"dice": [1, 2, 3], "turn_points": 100}, 400, "on_pad"),
        ({"dice": [1, 2, 3], "on_pad": True, "turn_points": -50}, 400, "turn_points"),
    ],
)
def test_holds_rejections(
    client: TestClient[Any], payload: dict[str, Any], status: int, field: str
) -> None:
    body = problem(client.post("/yardkle/holds", json=payload), status)
    assert field in body["errors"][0]["field"] or field in body["detail"]


def test_the_coach_agrees_with_the_table() -> None:
    """Averaging the coach's best value over every first throw gives the table's start value."""
    table = solve_policy_table(DEFAULT_RULES)
    for on_pad in (False, True):
        total = 0.0
        for throw in combinations_with_replacement(range(1, 7), 6):
            ways = factorial(6)
            for c in Counter(throw).values():
                ways //= factorial(c)
            options = advise(table, DEFAULT_RULES, throw, 0, on_pad)
            total += ways * (options[0].value if options else 0.0)
        assert total / 6**6 == pytest.approx(table[int(on_pad), 0, 5], abs=1e-9)


@pytest.mark.parametrize(
    ("payload", "set_aside", "decision", "bank", "throw_on"),
    [
        (
            {"dice": [1, 1, 1, 5, 5, 5], "on_pad": False},
            [1, 1, 1, 5, 5, 5],
            "throw_on",
            2500,
            2860.0,
        ),
        ({"dice": [1, 1, 5, 2, 3, 6], "on_pad": False}, [1], "throw_on", 0, 325.7),
        ({"dice": [1, 2, 3, 6], "on_pad": True, "turn_points": 1000}, [1], "bank", 1100, 900.8),
    ],
)
def test_the_coach_examples_of_the_docs(
    client: TestClient[Any],
    payload: dict[str, Any],
    set_aside: list[int],
    decision: str,
    bank: float,
    throw_on: float,
) -> None:
    best = client.post("/yardkle/holds", json=payload).json()["options"][0]
    assert best["set_aside"] == set_aside and best["decision"] == decision
    assert best["bank_expected_points"] == bank
    assert best["throw_on_expected_points"] == pytest.approx(throw_on, abs=0.05)
