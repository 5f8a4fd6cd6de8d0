"""No answer grows with what a client sent (issue 18): a problem quotes a short prefix of a
bad value, every free-text field of a request has a `maxLength` in the published schema,
and control characters in names are a 400 naming the field."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

Client = TestClient[Litestar]
PROBLEM = "application/problem+json"
HUGE = "x" * 60_000
COMMITTED = Path(__file__).parents[2] / "openapi" / "openapi.json"
CONTROL = "control characters (U+0000-U+001F, U+007F-U+009F) are not allowed"


def small_problem(response: Any, status: int, field: str) -> dict[str, Any]:
    assert response.status_code == status, response.text[:500]
    assert response.headers["content-type"] == PROBLEM
    assert len(response.content) < 1_000, len(response.content)
    problem: dict[str, Any] = response.json()
    assert [e["field"] for e in problem["errors"]] == [field]
    return problem


SCORE = {"game": "yahtzee", "dice": [1, 2, 3, 4, 5]}
HUGE_ENTRY = {"box": HUGE, "points": 1}


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/score", SCORE | {"scorecard": {"filled": {HUGE: 1}}}, "scorecard.filled"),
        ("/score", SCORE | {HUGE: 1}, HUGE[:119] + "…"),
        (
            "/scorecards/check",
            {"game": "yahtzee", "sheets": [{"player": "Ann", "entries": [HUGE_ENTRY]}]},
            "sheets[0].entries[0].box",
        ),
        ("/yardkle/games", {"players": [HUGE]}, "players[0]"),
        ("/chicago/games", {"players": ["Ann", HUGE], "rounds": []}, "players[1]"),
    ],
)  # fmt: skip
def test_a_huge_value_gives_a_small_problem(
    client: Client, path: str, body: dict[str, Any], field: str
) -> None:
    small_problem(client.post(path, json=body), 400, field)


def test_a_huge_unknown_game_gives_a_small_404(client: Client) -> None:
    problem = small_problem(client.post("/score", json=SCORE | {"game": HUGE}), 404, "game")
    assert problem["errors"][0]["reason"].startswith("unknown game 'xxxx")
    assert "(60000 characters)" in problem["errors"][0]["reason"]


def test_an_unknown_game_in_the_path_is_quoted_short(client: Client) -> None:
    problem = small_problem(client.get("/games/" + "q" * 5_000), 404, "game")
    assert "(5000 characters)" in problem["detail"]


def throw(victim: str) -> dict[str, Any]:
    return {"dice": [1, 2, 3], "victim": victim}


@pytest.mark.parametrize("bad", ["Ann\x00", "\x07", "A\nB", "tab\there", "del\x7f", "c1\x85"])
@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/yardkle/games", lambda n: {"players": ["Bo", n]}, "players[1]"),
        (
            "/yardkle/games",
            lambda n: {"players": ["Bo"], "turns": [{"player": n, "throws": [], "end": "bust"}]},
            "turns[0].player",
        ),
        ("/chicago/games", lambda n: {"players": [n, "Bo"], "rounds": []}, "players[0]"),
        ("/chicago/rounds", lambda n: {"turns": [{"player": n, "lives": 3}]}, "turns[0].player"),
        (
            "/chicago/rounds",
            lambda n: {"turns": [{"player": "Bo", "lives": 3, "throws": [throw(n)]}]},
            "turns[0].throws[0].victim",
        ),
        (
            "/scorecards/check",
            lambda n: {"game": "yahtzee", "sheets": [{"player": n, "entries": []}]},
            "sheets[0].player",
        ),
        (
            "/scorecards/check",
            lambda n: {
                "game": "yahtzee",
                "sheets": [{"player": "Bo", "entries": [{"box": n, "points": 1}]}],
            },
            "sheets[0].entries[0].box",
        ),
    ],
)  # fmt: skip
def test_control_characters_are_refused_by_field(
    client: Client, path: str, body: Any, field: str, bad: str
) -> None:
    problem = small_problem(client.post(path, json=body(bad)), 400, field)
    assert problem["errors"][0]["reason"] == CONTROL


def test_a_name_with_ordinary_unicode_is_accepted(client: Client) -> None:
    response = client.post("/yardkle/games", json={"players": ["Åsa Øberg", "李雷", "José 🎲"]})
    assert response.status_code == 200, response.text
    assert [s["player"] for s in response.json()["standings"]][:1] == ["Åsa Øberg"]


def request_schemas(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema node reachable from a request body, with where it is."""
    components = document["components"]["schemas"]
    seen: set[str] = set()

    def walk(node: Any, where: str, outer: Any = None) -> Iterator[tuple[str, dict[str, Any]]]:
        if isinstance(node, list):  # a oneOf's branches: the node around them constrains them
            for i, item in enumerate(node):
                merged = item if outer is None else {"maxLength": outer, **item}
                yield from walk(merged, f"{where}[{i}]")
            return
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                yield from walk(components[name], name)
            return
        yield where, node
        for key, value in node.items():
            if key in ("oneOf", "anyOf"):
                yield from walk(value, f"{where}.{key}", node.get("maxLength"))
            elif key not in ("examples", "example", "default", "enum", "const"):
                yield from walk(value, f"{where}.{key}")

    for item in document["paths"].values():
        for operation in item.values():
            body = operation.get("requestBody")
            if body:
                yield from walk(body["content"]["application/json"]["schema"], "body")


def test_every_free_text_request_field_has_a_max_length() -> None:
    document = json.loads(COMMITTED.read_text())
    strings = 0
    for where, node in request_schemas(document):
        if node.get("type") == "string" and "enum" not in node and "const" not in node:
            strings += 1
            assert "maxLength" in node, where
        if node.get("type") == "object" and isinstance(node.get("additionalProperties"), dict):
            assert node["propertyNames"]["maxLength"] <= 40, where
    assert strings >= 6  # player names in four places, the victim, a sheet's box
