"""`POST /chicago/throws`: a throw's value under each call, its special kind, its conversions."""

from __future__ import annotations

from typing import Any

import pytest
from chicago_records import post
from litestar.testing import TestClient

from conftest import make_test_app

# The app of the tests: test disk cache, no Redis, no preloading (never the env's).
app = make_test_app()


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(app) as c:
        yield c


def test_plain_throw_under_both_calls(client: TestClient[Any]) -> None:
    out = post(client, "/chicago/throws", {"dice": [4, 2, 3]})
    assert out == {
        "dice": [2, 3, 4],
        "scores": {"high": 9, "low": 9},
        "special": None,
        "throws_left": None,
        "conversions": [],
    }


def test_ones_and_sixes_by_call(client: TestClient[Any]) -> None:
    assert post(client, "/chicago/throws", {"dice": [1, 6, 2]})["scores"] == {
        "high": 162,
        "low": 9,
    }
    out = post(client, "/chicago/throws", {"dice": [5, 6, 1], "call": "low"})
    assert out["scores"] == {"low": 12}
    assert out["special"] == "one_six_five"


def test_chicago(client: TestClient[Any]) -> None:
    out = post(client, "/chicago/throws", {"dice": [1, 1, 1], "throw": 2})
    assert out["special"] == "chicago"
    assert out["scores"] == {"high": 300, "low": 3}
    assert out["throws_left"] == 1
    assert out["conversions"] == []


def test_two_sixes_may_convert(client: TestClient[Any]) -> None:
    out = post(client, "/chicago/throws", {"dice": [6, 3, 6], "throw": 1})
    assert out["throws_left"] == 2
    assert out["conversions"] == [
        {
            "kind": "two_sixes",
            "required": False,
            "set_aside_count": 1,
            "must_rethrow": [6],
            "may_keep": [3],
        }
    ]


def test_three_sixes_must_convert(client: TestClient[Any]) -> None:
    out = post(client, "/chicago/throws", {"dice": [6, 6, 6], "throw": 2})
    assert out["throws_left"] == 1
    assert out["conversions"] == [
        {
            "kind": "three_sixes",
            "required": True,
            "set_aside_count": 2,
            "must_rethrow": [6],
            "may_keep": [],
        }
    ]


def test_without_a_throw_number_conversions_are_listed_as_with_a_throw_left(
    client: TestClient[Any],
) -> None:
    out = post(client, "/chicago/throws", {"dice": [6, 6, 6]})
    assert out["throws_left"] is None
    assert [c["kind"] for c in out["conversions"]] == ["three_sixes"]


@pytest.mark.parametrize(("throw", "allowed"), [(3, 3), (1, 1), (2, 2)])
def test_no_conversion_on_the_last_throw(client: TestClient[Any], throw: int, allowed: int) -> None:
    body = {"dice": [6, 6, 6], "throw": throw, "throws_allowed": allowed}
    out = post(client, "/chicago/throws", body)
    assert out["throws_left"] == 0
    assert out["conversions"] == []
    assert out["scores"] == {"high": 180, "low": 18}


def test_throw_beyond_the_limit_is_rejected(client: TestClient[Any]) -> None:
    problem = post(
        client, "/chicago/throws", {"dice": [2, 3, 4], "throw": 3, "throws_allowed": 2}, 422
    )
    assert problem["errors"][0]["field"] == "throw"


@pytest.mark.parametrize(
    "body",
    [
        {"dice": [2, 3]},
        {"dice": [2, 3, 4, 5]},
        {"dice": [0, 3, 4]},
        {"dice": [2, 3, 7]},
        {"dice": [2, 3, 4], "throw": 5},
        {"dice": [2, 3, 4], "call": "medium"},
        {"dice": [2, 3, 4], "colour": "red"},
    ],
)
def test_malformed_requests(client: TestClient[Any], body: dict[str, Any]) -> None:
    response = client.post("/chicago/throws", json=body)
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/problem+json")
