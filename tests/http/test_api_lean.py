"""The lean JSON path (`diceref.http.lean`) on every operation that takes a body.

Each operation's documented 200 example is mutated one field at a time: a number sent as a
string is refused (never coerced), the same number written `5.0` is the same request, a
fraction is refused; bodies that are not JSON are named as the field `body`.  The examples
themselves are replayed byte for byte by `test_contract.py`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from diceref.http.examples import Example
from diceref.http.lean import lean_json
from diceref.http.openapi import all_examples, contract_document
from helpers import close

EXAMPLES = all_examples()

Client = TestClient[Litestar]
PROBLEM = "application/problem+json"


def _body_operations() -> list[tuple[str, str, Example]]:
    from conftest import make_test_app

    document = contract_document(make_test_app())
    found = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if "requestBody" not in operation:
                continue
            example = next(e for e in EXAMPLES[operation["operationId"]] if e.status == 200)
            found.append((method.upper(), path, example))
    return found


OPERATIONS = _body_operations()
IDS = [f"{method} {path}" for method, path, _ in OPERATIONS]


def integer_leaf(value: Any, where: str = "") -> tuple[str, list[Any]] | None:
    """The first integer in a request body: its field name as problems spell it
    (`turns[1].throws[0].kept[1]`) and the key path to reach it."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return where, []
    items: Iterator[tuple[Any, str]]
    if isinstance(value, dict):
        items = ((k, f"{where}.{k}" if where else k) for k in value)
    elif isinstance(value, list):
        items = ((i, f"{where}[{i}]") for i in range(len(value)))
    else:
        return None
    for key, name in items:
        found = integer_leaf(value[key], name)
        if found is not None:
            return found[0], [key, *found[1]]
    return None


# The operations whose bodies hold a typed integer to vary (`/rulesets` holds only a game and
# `rules`, whose values the rules layer checks: a string there is a 422 naming the rule).
NUMERIC = [op for op in OPERATIONS if integer_leaf(op[2].body) is not None]
NUMERIC_IDS = [f"{method} {path}" for method, path, _ in NUMERIC]


def with_leaf(body: Any, keys: list[Any], new: Any) -> Any:
    changed = copy.deepcopy(body)
    target = changed
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = new
    return changed


def leaf_of(example: Example) -> tuple[str, list[Any], int]:
    found = integer_leaf(example.body)
    assert found is not None, f"{example.name} has no integer to vary"
    field, keys = found
    value = example.body
    for key in keys:
        value = value[key]
    return field, keys, value


def test_every_body_operation_is_served_lean(app: Litestar) -> None:
    served = {
        (method, route.path)
        for route in app.routes
        for method, handler in getattr(route, "route_handler_map", {}).items()
        if lean_json in handler[0].resolve_middleware()
    }
    assert {(m, p) for m, p, _ in OPERATIONS} <= served
    assert len(OPERATIONS) == 15  # the 12 game operations, POST /rulesets and the two reviews
    assert {p for _, p, _ in OPERATIONS} - {p for _, p, _ in NUMERIC} == {"/rulesets"}


@pytest.mark.parametrize(("method", "path", "example"), NUMERIC, ids=NUMERIC_IDS)
def test_a_number_sent_as_a_string_is_refused(
    coach: Client, method: str, path: str, example: Example
) -> None:
    field, keys, value = leaf_of(example)
    r = coach.request(method, path, json=with_leaf(example.body, keys, str(value)))
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body = r.json()
    assert body["type"].endswith("/invalid-request")
    assert body["errors"] == [
        {"field": field, "reason": "Expected `int`, got `str`", "code": "wrong_type"}
    ]


@pytest.mark.parametrize(("method", "path", "example"), NUMERIC, ids=NUMERIC_IDS)
def test_an_integral_float_is_the_same_number(
    coach: Client, method: str, path: str, example: Example
) -> None:
    _, keys, value = leaf_of(example)
    plain = coach.request(method, path, json=example.body)
    floated = coach.request(method, path, json=with_leaf(example.body, keys, float(value)))
    assert plain.status_code == floated.status_code == 200
    assert floated.content == plain.content


@pytest.mark.parametrize(("method", "path", "example"), NUMERIC, ids=NUMERIC_IDS)
def test_a_fraction_is_refused_by_field(
    coach: Client, method: str, path: str, example: Example
) -> None:
    field, keys, value = leaf_of(example)
    r = coach.request(method, path, json=with_leaf(example.body, keys, value + 0.5))
    assert r.status_code == 400, r.text
    assert r.json()["errors"] == [
        {"field": field, "reason": "Expected `int`, got `float`", "code": "wrong_type"}
    ]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "the request body is empty: expected a JSON object"),
        (b"  \n", "the request body is empty: expected a JSON object"),
        (b"{not json", "JSON is malformed: "),
        (b"{", "Input data was truncated"),
        (b"[]", "Expected `object`, got `array`"),
    ],
)
@pytest.mark.parametrize(("method", "path", "example"), OPERATIONS, ids=IDS)
def test_a_body_that_is_not_the_object_is_named_body(
    coach: Client, method: str, path: str, example: Example, content: bytes, reason: str
) -> None:
    r = coach.request(method, path, content=content, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body = r.json()
    assert body["type"].endswith("/invalid-request") and body["instance"] == path
    ((error,),) = [body["errors"]]
    assert error["field"] == "body" and error["reason"].startswith(reason), error


def test_rule_violations_and_body_limit_keep_their_problems(coach: Client) -> None:
    """Errors raised inside the lean path get the app's exception handlers (422 from the
    rules, 413 from Litestar's body limit), as on any other route."""
    r = coach.post(
        "/score",
        json={"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "scorecard": {"filled": {"ones": 7}}},
    )
    assert r.status_code == 422 and r.headers["content-type"].startswith(PROBLEM)
    assert r.json()["errors"] == [
        {
            "field": "scorecard.filled.ones",
            "reason": "no throw can score 7 in 'ones'",
            "code": "impossible_points",
        }
    ]
    r = coach.post("/scorecards/check", content=b"[" + b" " * 70_000 + b"]")
    assert r.status_code == 413 and r.json()["type"].endswith("/body-too-large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit holds on what arrives
        yield b"["
        for _ in range(70):
            yield b" " * 1_000
        yield b"]"

    r = coach.post("/scorecards/check", content=chunks())
    assert "content-length" not in r.request.headers
    assert r.status_code == 413 and r.json()["type"].endswith("/body-too-large")
    r = coach.post("/score", content=b"{}", headers={"Content-Length": "2x"})
    assert r.status_code == 400, r.text


@pytest.mark.parametrize("path", ["/score", "/holds"])
@pytest.mark.parametrize(
    ("points", "reason"),
    [
        ("6", "Expected `int`, got `str`"),
        (True, "Expected `int`, got `bool`"),
        (2.5, "Expected `int`, got `float`"),
        (None, "Expected `int`, got `null`"),
    ],
)
def test_a_bad_box_value_is_named_by_its_box(
    coach: Client, path: str, points: Any, reason: str
) -> None:
    """msgspec says `scorecard.filled[...]`; the problem names the box."""
    card = {"filled": {"ones": 3, "twos": points, "threes": 9}}
    r = coach.post(path, json={"game": "yahtzee", "dice": [2, 2, 3, 4, 6], "scorecard": card})
    assert r.status_code == 400, r.text
    (error,) = r.json()["errors"]
    assert (error["field"], error["reason"]) == ("scorecard.filled.twos", reason)
    assert error["code"] == "wrong_type"


# --- content negotiation (issue 18): a body not declared as JSON is a 415 -----------------


def _send(client: Client, method: str, path: str, body: bytes, headers: dict[str, str]) -> Any:
    return client.request(method, path, content=body, headers=headers)


def unsupported(response: Any, field: str) -> dict[str, Any]:
    assert response.status_code == 415, response.text
    assert response.headers["content-type"] == PROBLEM
    problem: dict[str, Any] = response.json()
    assert problem["type"].endswith("/unsupported-media-type")
    assert [e["field"] for e in problem["errors"]] == [field]
    return problem


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/xml",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin-1",
        "application/json; version=2",
        "application/jsonx",
    ],
)
@pytest.mark.parametrize(("method", "path", "example"), OPERATIONS, ids=IDS)
def test_a_body_of_another_type_is_a_415(
    client: Client, method: str, path: str, example: Example, content_type: str
) -> None:
    body = json_bytes(example.body)
    response = _send(client, method, path, body, {"content-type": content_type})
    problem = unsupported(response, "Content-Type")
    assert "application/json" in problem["errors"][0]["reason"]


@pytest.mark.parametrize(("method", "path", "example"), OPERATIONS, ids=IDS)
def test_an_encoded_body_is_a_415(client: Client, method: str, path: str, example: Example) -> None:
    body = json_bytes(example.body)  # a plain body, declared gzip: never decoded, never 200
    headers = {"content-type": "application/json", "content-encoding": "gzip"}
    response = _send(client, method, path, body, headers)
    assert "'gzip' is not supported" in unsupported(response, "Content-Encoding")["detail"]
    assert response.headers["accept-encoding"] == "identity"


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "Application/JSON",
        "application/json; charset=utf-8",
        'application/json;charset="UTF-8"',
        None,
    ],
)
@pytest.mark.parametrize(("method", "path", "example"), OPERATIONS, ids=IDS)
def test_json_declared_or_undeclared_is_answered(
    client: Client, method: str, path: str, example: Example, content_type: str | None
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    if content_type is None:  # httpx adds no type to raw content
        headers["content-encoding"] = "identity"
    response = _send(client, method, path, json_bytes(example.body), headers)
    assert response.status_code == 200, response.text
    assert close(response.json(), example.response), response.text


def test_a_missing_type_is_json_only_if_the_body_parses(client: Client) -> None:
    unsupported(_send(client, "POST", "/score", b"game=yahtzee", {}), "Content-Type")
    bad = _send(client, "POST", "/score", b'{"game": "yahtzee"}', {})
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "dice"


def json_bytes(value: Any) -> bytes:
    import json

    return json.dumps(value).encode()
