"""The published contract: `openapi/openapi.json` is the app's document, and it is truthful.

* the committed file is what `uv run diceref openapi` prints now, and what the app serves;
* every operation has an id, a summary, a description, a family tag and examples; every
  error response is problem+json; list items carry their constraints;
* every example is a real exchange: its request, sent to the app, gets exactly its response.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from conftest import busy_solver, make_test_app
from diceref.http.examples import EXAMPLE_REQUEST_ID, Example
from diceref.http.openapi import all_examples, operation_id_of, render_document
from diceref.http.vocabulary import glossary
from helpers import close

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
    assert len(ids) == len(set(ids)) == 18
    assert set(ids) == set(EXAMPLES)
    assert {t["name"] for t in document["tags"]} == TAGS
    for method, path, op in operations(document):
        where = f"{method} {path}"
        assert op["summary"] and op["description"], where
        assert len(op["tags"]) == 1 and op["tags"][0] in TAGS, where
        for status, response in op["responses"].items():
            assert response["description"], (where, status)
            assert response["headers"]["X-Request-ID"]["required"], (where, status)
            if status == "304":  # Not Modified: no body
                assert "content" not in response, where
                continue
            (media_type,) = response["content"]
            if int(status) >= 400:
                assert media_type == PROBLEM, (where, status)
                assert response["content"][PROBLEM]["schema"] == {
                    "$ref": "#/components/schemas/ProblemDetails"
                }
            assert response["content"][media_type]["examples"], (where, status)
        if "requestBody" in op:
            assert op["requestBody"]["content"]["application/json"]["examples"], where


def test_operation_ids_follow_from_the_paths(document: dict[str, Any]) -> None:
    """`/chicago/throws` is `chicagoThrows` (SDK `chicago_throws`), so a frontend can name any
    operation from its path; a path parameter reads `By` + its name."""
    for method, path, op in operations(document):
        assert op["operationId"] == operation_id_of(path), (method, path)
    assert operation_id_of("/scorecards/check") == "scorecardsCheck"
    assert operation_id_of("/games/{game}") == "gamesByGame"
    assert operation_id_of("/games/{game:str}") == "gamesByGame"
    assert operation_id_of("/yardkle/throws") == "yardkleThrows"


# RFC 9457 names the members of a problem; they keep the standard's names and types.
RFC_9457 = {("ProblemDetails", m) for m in ("type", "title", "status", "detail", "instance")}


def type_signature(schema: dict[str, Any], components: dict[str, Any]) -> str:
    """A property's JSON type, looking through references and nullability: `integer`,
    `array<integer>`, `map<integer>`, `object` (any Struct), `string` (enums too)."""
    if "$ref" in schema:
        target = components[schema["$ref"].rsplit("/", 1)[-1]]
        return "string" if "enum" in target else "object"
    for key in ("oneOf", "anyOf"):
        if key in schema:
            options = {
                type_signature(s, components) for s in schema[key] if s.get("type") != "null"
            }
            return "|".join(sorted(options))
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = "|".join(sorted(k for k in kind if k != "null"))
    if kind == "array":
        return f"array<{type_signature(schema.get('items', {}), components)}>"
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return f"map<{type_signature(schema['additionalProperties'], components)}>"
    return str(kind or ("string" if "enum" in schema else "any"))


# A shape the issue fixed for its users: a scorecard review's turn lists its `throws` as
# the five dice after each throw (issue 15), where Yardkle's throws are objects (dice and
# set-aside).  Both are "the throws of the turn, in order"; the lead decides at merge.
WRITTEN_AS_ISSUED = {("ReviewTurnIn", "throws")}


def test_one_property_name_has_one_type_across_components(document: dict[str, Any]) -> None:
    """`dice` is a list of faces everywhere, a `*_count` always a number, `standings` always
    ranked players: a name that changes its type between two components is two concepts."""
    components = document["components"]["schemas"]
    seen: dict[str, dict[str, list[str]]] = {}
    for name, component in components.items():
        for prop, schema in (component.get("properties") or {}).items():
            if (name, prop) in RFC_9457 or (name, prop) in WRITTEN_AS_ISSUED:
                continue
            seen.setdefault(prop, {}).setdefault(type_signature(schema, components), []).append(
                name
            )
    clashes = {prop: kinds for prop, kinds in seen.items() if len(kinds) > 1}
    assert not clashes, clashes
    assert seen["dice"] == {"array<integer>": seen["dice"]["array<integer>"]}
    assert all(kinds.keys() == {"integer"} for p, kinds in seen.items() if p.endswith("_count"))


def test_every_property_and_parameter_is_described(document: dict[str, Any]) -> None:
    for name, component in document["components"]["schemas"].items():
        for prop, schema in (component.get("properties") or {}).items():
            assert schema.get("description"), f"{name}.{prop} has no description"
    for method, path, op in operations(document):
        for parameter in op.get("parameters", []):
            assert parameter.get("description"), (method, path, parameter["name"])


def test_the_glossary_in_the_docs_is_the_services() -> None:
    text = (ROOT / "docs" / "contract.md").read_text().split("## Glossary", 1)[1]
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| (.*) \|$", text, re.M))
    assert rows == {k: v.replace("|", "/") for k, v in glossary().items()}


def test_error_statuses_per_operation(document: dict[str, Any]) -> None:
    statuses = {
        op["operationId"]: sorted(int(s) for s in op["responses"] if int(s) >= 400)
        for _, _, op in operations(document)
    }
    assert statuses == {
        "healthz": [],
        "games": [],
        "gamesByGame": [404],
        "score": [400, 404, 408, 413, 415, 422],
        "holds": [400, 404, 408, 413, 415, 422, 429, 503],
        "distributions": [400, 404, 408, 413, 415, 422, 429, 503],
        "reviews": [400, 404, 408, 413, 415, 422, 429, 503],
        "scorecardsCheck": [400, 404, 408, 413, 415, 422],
        "chicagoThrows": [400, 408, 413, 415, 422],
        "chicagoRounds": [400, 408, 413, 415, 422],
        "chicagoGames": [400, 408, 413, 415, 422],
        "chicagoHolds": [400, 408, 413, 415, 422],
        "yardkleThrows": [400, 408, 413, 415, 422],
        "yardkleTurns": [400, 408, 413, 415, 422],
        "yardkleGames": [400, 408, 413, 415, 422],
        "yardkleHolds": [400, 408, 413, 415, 422, 429, 503],
        "yardkleReviews": [400, 408, 413, 415, 422, 429, 503],
        "rulesets": [400, 404, 408, 413, 415, 422, 429],
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
        ("ChicagoThrowsRequest", {"dice": [1, 2, 7]}),
        ("ChicagoThrowIn", {"dice": [1, 2, 3], "kept": [0]}),
        ("ChicagoGameRequest", {"players": ["Ann", ""], "rounds": []}),
        ("YardkleThrowsRequest", {"dice": [1, 2, 8]}),
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


def exchange(
    client: TestClient[Litestar], method: str, path: str, example: Example
) -> tuple[int, Any, dict[str, str]]:
    for name, value in (example.path or {}).items():
        path = path.replace("{" + name + "}", value)
    headers = {"X-Request-ID": EXAMPLE_REQUEST_ID}  # the examples' problems quote it
    if example.body is None:
        r = client.request(method, path, headers=headers)
    else:
        r = client.request(method, path, json=example.body, headers=headers)
    assert r.headers["x-request-id"] == EXAMPLE_REQUEST_ID
    return r.status_code, r.json(), dict(r.headers)


EXCHANGES = [
    pytest.param(method, path, example, id=f"{op['operationId']}-{example.name}")
    for method, path, op in operations(json.loads(COMMITTED.read_text()))
    for example in EXAMPLES[op["operationId"]]
]


@pytest.mark.parametrize(("method", "path", "example"), EXCHANGES)
def test_example_is_what_the_app_answers(
    coach: TestClient[Litestar], method: str, path: str, example: Example, tmp_path: Path
) -> None:
    if example.status == 503:
        # a fresh app that holds no table, with the default Retry-After (and a disk cache
        # of its own: a house-rules table solved by an earlier run is not on it)
        fresh = make_test_app(cache_dir=tmp_path)
        with TestClient(fresh) as client:
            status, body, headers = exchange(client, method, path, example)
        assert headers["retry-after"] == "5"
    elif example.status == 429:
        # a fresh app queueing one ruleset, its solver busy and its queue full
        fresh = make_test_app(solve_queue_size=1, cache_dir=tmp_path)
        with TestClient(fresh) as client, busy_solver(client):
            status, body, headers = exchange(client, method, path, example)
        assert headers.get("retry-after") == "5", (status, body)
    else:
        status, body, headers = exchange(coach, method, path, example)
    assert status == example.status, body
    assert close(body, example.response), json.dumps(body)
    expected_type = PROBLEM if status >= 400 else "application/json"
    assert headers["content-type"].startswith(expected_type)
