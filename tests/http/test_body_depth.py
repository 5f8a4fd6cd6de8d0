"""A body nested deeper than the documented limit is a 400 naming it, on every operation
that takes a body (a `rules` value a thousand levels deep was a `RecursionError`, a 500)."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from diceref.http.depth import MAX_DEPTH, too_deep

Client = TestClient[Litestar]


def nested(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


def body_routes(app: Litestar) -> list[str]:
    return sorted(
        route.path
        for route in app.routes
        for handler in route.route_handlers  # type: ignore[union-attr]
        if "POST" in (handler.http_methods or ())
    )


def test_every_body_route_is_covered(app: Litestar) -> None:
    """The routes below are every POST route of the app (a new one joins the test)."""
    assert body_routes(app) == sorted(ROUTES)


ROUTES = {
    "/score": {"game": "yahtzee", "dice": [1, 2, 3, 4, 5]},
    "/holds": {"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throws_left": 2},
    "/rulesets": {"game": "yahtzee"},
    "/reviews": {"game": "yahtzee"},
    "/distributions": {"game": "yahtzee"},
    "/scorecards/check": {"game": "yahtzee"},
    "/chicago/throws": {"dice": [1, 2, 3]},
    "/chicago/rounds": {"players": ["Ann", "Bo"]},
    "/chicago/games": {"players": ["Ann", "Bo"]},
    "/chicago/holds": {"dice": [1, 2, 3], "throws_left": 1},
    "/yardkle/throws": {"dice": [1]},
    "/yardkle/turns": {"throws": []},
    "/yardkle/games": {"players": ["Ann"]},
    "/yardkle/holds": {"dice": [1], "on_pad": True, "turn_points": 0},
    "/yardkle/reviews": {"players": ["Ann"]},
}


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_rules_nested_a_thousand_deep_are_a_400_naming_the_limit(
    client: Client, route: str
) -> None:
    fields = ",".join(f'"{k}":{_json(v)}' for k, v in ROUTES[route].items())
    body = "{" + fields + ',"rules":' + nested(1000) + "}"
    r = client.post(route, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.headers["content-type"] == "application/problem+json"
    [error] = r.json()["errors"]
    assert (error["field"], error["code"]) == ("body", "too_deep")
    assert error["reason"] == (
        f"nested deeper than {MAX_DEPTH} levels of arrays and objects, the most a request "
        "body may nest"
    )


def test_nesting_up_to_the_limit_is_decoded_as_usual(client: Client) -> None:
    """At the limit the body reaches the decoder (which names the bad `rules` value)."""
    body = '{"game":"yahtzee","dice":[1,2,3,4,5],"rules":' + nested(MAX_DEPTH - 1) + "}"
    r = client.post("/score", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["code"] != "too_deep"


def test_brackets_inside_strings_do_not_nest() -> None:
    text = '"' + "[{" * 100 + '\\"' + '"'
    assert not too_deep(('{"name":' + text + "}").encode())
    assert too_deep(("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)).encode())
    assert not too_deep(("[" * MAX_DEPTH + "]" * MAX_DEPTH).encode())
    assert not too_deep(("[[]]," * 100).join("[]").encode())


def _json(value: Any) -> str:
    import json

    return json.dumps(value)
