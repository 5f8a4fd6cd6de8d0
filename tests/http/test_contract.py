"""The published contract: `openapi/openapi.json` is the app's document, and it is truthful.

* the committed file is what `uv run diceref openapi` prints now, and what the app serves;
* every operation has an id, a summary, a description, a family tag and examples; every
  error response is problem+json; list items carry their constraints;
* every example is a real exchange: its request, sent to the app, gets exactly its response.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from conftest import make_test_app
from diceref.http.examples import Example
from diceref.http.openapi import all_examples, render_document

EXAMPLES = all_examples()

ROOT = Path(__file__).parents[2]
COMMITTED = ROOT / "openapi" / "openapi.json"
REGENERATE = "uv run diceref openapi > openapi/openapi.json"
TAGS = {"games", "scorecard", "chicago", "yardkle", "operations"}
PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(COMMITTED.read_text())
    return doc


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            yield method.upper(), path, operation


# --- the committed file is the app's document ----------------------------------------------


def test_committed_document_is_the_apps(app: Litestar) -> None:
    assert COMMITTED.read_text() == render_document(app), (
        f"openapi/openapi.json is stale: regenerate it with `{REGENERATE}` and commit it"
    )


def test_generation_command_prints_the_committed_file() -> None:
    """`diceref openapi` itself (in a subprocess: it configures logging as any app does)."""
    run = subprocess.run(
        [sys.executable, "-m", "diceref.cli", "openapi"], capture_output=True, check=True
    )
    assert run.stdout.decode() == COMMITTED.read_text()


def test_app_serves_the_committed_document(client: TestClient[Litestar]) -> None:
    r = client.get("/schema/openapi.json")
    assert r.status_code == 200
    assert r.json() == json.loads(COMMITTED.read_text())


# --- completeness --------------------------------------------------------------------------


def test_every_operation_is_described(document: dict[str, Any]) -> None:
    ids = [op["operationId"] for _, _, op in operations(document)]
    assert len(ids) == len(set(ids)) == 14
    assert set(ids) == set(EXAMPLES)
    assert {t["name"] for t in document["tags"]} == TAGS
    for method, path, op in operations(document):
        where = f"{method} {path}"
        assert op["summary"] and op["description"], where
        assert len(op["tags"]) == 1 and op["tags"][0] in TAGS, where
        for status, response in op["responses"].items():
            assert response["description"], (where, status)
            (media_type,) = response["content"]
            if int(status) >= 400:
                assert media_type == PROBLEM, (where, status)
                assert response["content"][PROBLEM]["schema"] == {
                    "$ref": "#/components/schemas/ProblemDetails"
                }
            assert response["content"][media_type]["examples"], (where, status)
        if "requestBody" in op:
            assert op["requestBody"]["content"]["application/json"]["examples"], where


def test_error_statuses_per_operation(document: dict[str, Any]) -> None:
    statuses = {
        op["operationId"]: sorted(int(s) for s in op["responses"] if int(s) >= 400)
        for _, _, op in operations(document)
    }
    assert statuses == {
        "healthz": [],
        "listGames": [],
        "getGame": [404],
        "score": [400, 408, 413, 415, 422],
        "holds": [400, 408, 413, 415, 422, 503],
        "checkScorecards": [400, 408, 413, 415],
        "chicagoThrow": [400, 408, 413, 415, 422],
        "chicagoRound": [400, 408, 413, 415, 422],
        "chicagoGame": [400, 408, 413, 415, 422],
        "chicagoHolds": [400, 408, 413, 415, 422],
        "yardkleThrows": [400, 408, 413, 415],
        "yardkleTurn": [400, 408, 413, 415, 422],
        "yardkleGame": [400, 408, 413, 415, 422],
        "yardkleHolds": [400, 408, 413, 415, 422],
    }
    retry = document["paths"]["/holds"]["post"]["responses"]["503"]["headers"]["Retry-After"]
    assert retry["required"] and retry["schema"]["type"] == "integer"


def validator(doc: dict[str, Any], component: str) -> jsonschema_rs.Draft202012Validator:
    schema = {"$ref": f"#/components/schemas/{component}", "components": doc["components"]}
    return jsonschema_rs.Draft202012Validator(schema)


@pytest.mark.parametrize(
    ("component", "instance"),
    [
        ("ScoreRequest", {"game": "yahtzee", "dice": [1, 2, 3, 4, 7]}),
        ("ScoreRequest", {"game": "yahtzee", "dice": [0, 2, 3, 4, 5]}),
        ("ScorecardHoldsRequest", {"game": "yahtzee", "dice": [1, 2, 3, 4, 9], "throws_left": 1}),
        ("EntryIn", {"box": "chance", "points": 20, "dice": [1, 2, 3, 4, 7]}),
        ("ThrowRequest", {"dice": [1, 2, 7]}),
        ("ChicagoThrowIn", {"dice": [1, 2, 3], "kept": [0]}),
        ("ChicagoGameRequest", {"players": ["Ann", ""], "rounds": []}),
        ("ThrowsRequest", {"dice": [1, 2, 8]}),
        ("YardkleThrowIn", {"dice": [1], "set_aside": [7]}),
        ("YardkleGameRequest", {"players": ["x" * 101]}),
        ("ScoreRequest", {"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "colour": "red"}),
    ],
)
def test_item_constraints_and_closed_objects_are_published(
    document: dict[str, Any], component: str, instance: dict[str, Any]
) -> None:
    """Litestar drops the constraints of list items; the document has them back, and
    structs that forbid unknown fields say so."""
    assert not validator(document, component).is_valid(instance)


def test_valid_requests_stay_valid(document: dict[str, Any]) -> None:
    assert validator(document, "ScoreRequest").is_valid(
        {"game": "yahtzee", "dice": [1, 2, 3, 4, 6]}
    )
    assert validator(document, "ChicagoThrowIn").is_valid({"dice": [1, 2, 3], "kept": [1, 6]})


# --- the examples are real exchanges ----------------------------------------------------------


def close(actual: Any, expected: Any) -> bool:
    if isinstance(expected, float) and isinstance(actual, int | float):
        return math.isclose(actual, expected, rel_tol=1e-12)
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and actual.keys() == expected.keys()
            and all(close(actual[k], v) for k, v in expected.items())
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(close(a, e) for a, e in zip(actual, expected, strict=True))
        )
    return type(actual) is type(expected) and bool(actual == expected)


def exchange(
    client: TestClient[Litestar], method: str, path: str, example: Example
) -> tuple[int, Any, dict[str, str]]:
    for name, value in (example.path or {}).items():
        path = path.replace("{" + name + "}", value)
    if example.body is None:
        r = client.request(method, path)
    else:
        r = client.request(method, path, json=example.body)
    return r.status_code, r.json(), dict(r.headers)


EXCHANGES = [
    pytest.param(method, path, example, id=f"{op['operationId']}-{example.name}")
    for method, path, op in operations(json.loads(COMMITTED.read_text()))
    for example in EXAMPLES[op["operationId"]]
]


@pytest.mark.parametrize(("method", "path", "example"), EXCHANGES)
def test_example_is_what_the_app_answers(
    coach: TestClient[Litestar], method: str, path: str, example: Example
) -> None:
    if example.status == 503:
        # a fresh app that holds no table, with the default Retry-After
        fresh = make_test_app()
        with TestClient(fresh) as client:
            status, body, headers = exchange(client, method, path, example)
        assert headers["retry-after"] == "5"
    else:
        status, body, headers = exchange(coach, method, path, example)
    assert status == example.status, body
    assert close(body, example.response), json.dumps(body)
    expected_type = PROBLEM if status >= 400 else "application/json"
    assert headers["content-type"].startswith(expected_type)
