"""The `diceref-client` SDK against the real app: every operation, every error type.

In-process: `Client` through Litestar's test client (an ``httpx.Client`` that runs the app)
and `AsyncClient` through ``httpx.ASGITransport``, each replaying every example of the
OpenAPI document (`diceref.http.examples`).  Out of process: a live `diceref serve`.  Retries,
timeouts and connection failures against real sockets; 429 and non-problem bodies through an
``httpx.MockTransport``, since the app itself never sends them.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import math
import os
import re
import socket
import subprocess
import sys
import tomllib
import typing
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any, Literal

import httpx
import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

import diceref_client
import diceref_client.client as client_module
from conftest import PLAY_TO_WIN_RULESET, TEST_CACHE, make_test_app
from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.yardkle.rules.ruleset import yardkle
from diceref.http.examples import Example
from diceref.http.openapi import all_examples
from diceref.tables.spec import TableSpec
from diceref_client import (
    METHODS,
    OPERATIONS,
    APIConnectionError,
    APIError,
    APITimeoutError,
    AsyncClient,
    BadRequestError,
    Client,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitedError,
    Retries,
    RuleViolationError,
    ServerError,
    UnavailableError,
    VersionMismatch,
    models,
)
from diceref_client._operations import BY_ID, Operation
from diceref_client._operations import _without_nulls as without_nulls
from diceref_client._versions import compatibility_line
from helpers import put_policy, put_values, values_of
from live_server import LiveServer

EXAMPLES = all_examples()

ROOT = Path(__file__).parents[2]
DOCUMENT = json.loads((ROOT / "openapi" / "openapi.json").read_text())
TEST_URL = "http://testserver.local"  # Litestar's test client serves this host
ERRORS: dict[int, type[APIError]] = {
    400: BadRequestError,
    404: NotFoundError,
    422: RuleViolationError,
    429: RateLimitedError,
    503: UnavailableError,
}
REQUESTS: dict[str, type[msgspec.Struct]] = {
    "score": models.ScoreRequest,
    "holds": models.ScorecardHoldsRequest,
    "distributions": models.DistributionRequest,
    "scorecardsCheck": models.CheckRequest,
    "chicagoThrows": models.ChicagoThrowsRequest,
    "chicagoRounds": models.RoundRequest,
    "chicagoGames": models.ChicagoGameRequest,
    "chicagoHolds": models.ChicagoHoldsRequest,
    "yardkleThrows": models.YardkleThrowsRequest,
    "yardkleTurns": models.TurnRequest,
    "yardkleGames": models.YardkleGameRequest,
    "yardkleHolds": models.YardkleHoldsRequest,
    "reviews": models.ReviewRequest,
    "yardkleReviews": models.YardkleReviewRequest,
    "rulesets": models.RulesetRequest,
}


def documented_operations() -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in DOCUMENT["paths"].items():
        for method, op in item.items():
            yield method.upper(), path, op


def component(ref: dict[str, Any]) -> str:
    return str(ref["$ref"]).rsplit("/", 1)[-1]


# --- the SDK covers the contract -------------------------------------------------------------


def test_sdk_is_its_own_distribution_on_httpx_and_msgspec_only() -> None:
    project = tomllib.loads((ROOT / "sdk" / "pyproject.toml").read_text())["project"]
    assert project["name"] == "diceref-client"
    assert project["version"] == diceref_client.__version__
    assert sorted(d.split(">")[0] for d in project["dependencies"]) == ["httpx", "msgspec"]
    assert (ROOT / "sdk" / "src" / "diceref_client" / "py.typed").exists()
    code = (
        "import sys, diceref_client; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'diceref'))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert run.stdout.decode().strip() == "[]", "the SDK must not import the service"


def test_the_changelog_has_an_entry_for_this_version() -> None:
    changelog = (ROOT / "sdk" / "CHANGELOG.md").read_text()
    assert f"## {diceref_client.__version__}" in changelog


def test_the_description_is_the_documents_operations() -> None:
    """The one description (`OPERATIONS`) names exactly the document's operations, each with
    its method and path; the method name is the snake_case of the id."""
    documented = {op["operationId"]: (method, path) for method, path, op in documented_operations()}
    described = {op.operation_id: (op.method, op.path) for op in OPERATIONS}
    assert described == documented
    assert len(OPERATIONS) == len(described)
    for op in OPERATIONS:
        assert op.name == re.sub(r"(?<!^)(?=[A-Z])", "_", op.operation_id).lower()
        assert METHODS[op.operation_id] == op.name


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.operation_id)
def test_the_description_agrees_with_the_document(op: Operation) -> None:
    """Parameters and models: the path's parameters, the request body's component (its
    fields and which are required) and the component of the success answer."""
    doc = DOCUMENT["paths"][op.path][op.method.lower()]
    documented_path = [p["name"] for p in doc.get("parameters", []) if p["in"] == "path"]
    assert list(op.path_params) == documented_path
    headers = {p["name"] for p in doc.get("parameters", []) if p["in"] == "header"}
    assert headers <= {"If-None-Match"}  # the SDK sends them through extra_headers
    if op.body is None:
        assert "requestBody" not in doc
    else:
        schema = doc["requestBody"]["content"]["application/json"]["schema"]
        assert component(schema) == op.body.__name__
        assert set(op.positional) <= set(op.body.__struct_fields__)
    (success,) = [s for s in doc["responses"] if s.startswith("2")]
    schema = doc["responses"][success]["content"]["application/json"]["schema"]
    if schema.get("type") == "array":
        assert op.returns == list[getattr(models, component(schema["items"]))]  # type: ignore[misc]
    else:
        assert op.returns is getattr(models, component(schema))


def test_the_client_carries_the_documents_version() -> None:
    assert DOCUMENT["info"]["version"] == diceref_client.API_VERSION


def test_the_generated_methods_are_up_to_date() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "sdk" / "generate.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr


def changed_component(document: dict[str, Any]) -> None:
    document["components"]["schemas"]["Health"]["properties"]["uptime"] = {"type": "number"}


def changed_enumeration(document: dict[str, Any]) -> None:
    document["components"]["schemas"]["Call"]["enum"].append("middle")


@pytest.mark.parametrize("change", [changed_component, changed_enumeration])
def test_the_check_fails_on_a_document_the_models_do_not_follow(
    change: Callable[[dict[str, Any]], None], tmp_path: Path
) -> None:
    """The models are generated from the document: `--check` against a changed copy of it
    finds `models.py` stale, and writes nothing."""
    document = json.loads(json.dumps(DOCUMENT))
    change(document)
    copy = tmp_path / "openapi.json"
    copy.write_text(json.dumps(document))
    models_file = ROOT / "sdk" / "src" / "diceref_client" / "models.py"
    before = models_file.read_text()
    run = subprocess.run(
        [sys.executable, str(ROOT / "sdk" / "generate.py"), "--check", "--document", str(copy)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 1
    assert f"{models_file} is stale" in run.stderr
    assert models_file.read_text() == before


CLIENT_CLASSES = [Client, AsyncClient, diceref_client.RawClient, diceref_client.AsyncRawClient]


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.operation_id)
def test_every_client_has_the_method_with_the_documents_arguments(op: Operation) -> None:
    signatures = [inspect.signature(getattr(cls, op.name)) for cls in CLIENT_CLASSES]
    for cls in CLIENT_CLASSES:
        coroutine = inspect.iscoroutinefunction(getattr(cls, op.name))
        assert coroutine is cls.__name__.startswith("Async"), (cls, op.name)
    params = signatures[0].parameters
    for other in signatures[1:]:
        assert list(other.parameters) == list(params)
    names = list(params)
    assert names[0] == "self" and names[-2:] == ["timeout", "extra_headers"]
    arguments = {n: params[n] for n in names[1:-2]}
    if op.body is None:
        assert set(arguments) == set(op.path_params)
        return
    body = DOCUMENT["components"]["schemas"][op.body.__name__]
    assert set(arguments) == set(body["properties"]), "arguments mirror the body's fields"
    required = {n for n, p in arguments.items() if p.default is inspect.Parameter.empty}
    # a positional field the body does not require comes before one it does (`game`, None
    # when a `ruleset` is sent, before `dice`): the method takes it always
    last = max(
        (i for i, n in enumerate(op.positional) if n in body.get("required", [])), default=-1
    )
    assert required == set(body.get("required", [])) | set(op.positional[: last + 1])
    for name, param in arguments.items():
        default = body["properties"][name].get("default")
        if default is not None and name not in required:
            assert param.default == (tuple(default) if isinstance(default, list) else default)
    positional = [n for n, p in arguments.items() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert positional == list(op.positional)


SDK_STRUCTS = {
    name: cls
    for name, cls in vars(models).items()
    if isinstance(cls, type) and issubclass(cls, msgspec.Struct) and not name.startswith("_")
}
SDK_LITERALS = {
    name: value for name, value in vars(models).items() if typing.get_origin(value) is Literal
}


def test_every_component_has_a_mirror_struct() -> None:
    components = DOCUMENT["components"]["schemas"]
    objects = {name for name, c in components.items() if c.get("type") == "object"}
    assert set(SDK_STRUCTS) == objects


def test_every_enumeration_is_a_literal_exported_by_the_package() -> None:
    components = DOCUMENT["components"]["schemas"]
    enums = {name: c["enum"] for name, c in components.items() if "enum" in c}
    assert {n: list(typing.get_args(v)) for n, v in SDK_LITERALS.items()} == enums
    for name in enums:
        assert getattr(diceref_client, name) is SDK_LITERALS[name]
        assert name in diceref_client.__all__


@pytest.mark.parametrize("name", sorted(SDK_STRUCTS))
def test_struct_mirrors_its_component(name: str) -> None:
    component = DOCUMENT["components"]["schemas"][name]
    cls = SDK_STRUCTS[name]
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    fields = {f.name for f in info.fields}
    required = {f.name for f in info.fields if f.required}
    if info.tag_field is not None:  # the tag is a field of the component
        fields.add(info.tag_field)
        required.add(info.tag_field)
    assert fields == set(component["properties"])
    assert required == set(component.get("required", []))
    _, sdk_components = msgspec.json.schema_components([cls], ref_template=REF)
    mine = sdk_components[cls.__name__]["properties"]
    defaults = {f.name: f.default for f in info.fields}
    for field, spec in component["properties"].items():
        if field == info.tag_field:
            continue
        expected = shape(spec, DOC_COMPONENTS)
        actual = shape(mine[field], sdk_components)
        nullable = isinstance(expected, frozenset) and "null" in expected
        if field not in component.get("required", []) and defaults[field] is None and not nullable:
            # an optional field that is never null: absent, it decodes as None
            assert isinstance(actual, frozenset) and "null" in actual, field
            (actual,) = actual - {"null"}
        if isinstance(actual, frozenset) and actual == {expected, "string"}:
            # `Literal[...] | str`: the enumeration, or an id a newer service knows
            assert isinstance(expected, tuple) and expected[0] == "enum", field
            actual = expected
        elif isinstance(expected, tuple) and expected[0] == "enum" and None in expected[1]:
            # a nullable enumeration: the document lists null among its values
            bare = ("enum", expected[1] - {None})
            assert actual in (expected, bare, frozenset({bare, "null"})), field
            actual = expected
        elif isinstance(actual, frozenset) and isinstance(expected, frozenset):
            enums = {e for e in expected if isinstance(e, tuple) and e[0] == "enum"}
            if enums and actual == expected | {"string"}:  # `Literal[...] | str | None`
                actual = expected
        assert actual == expected, field


REF = "#/components/schemas/{name}"
DOC_COMPONENTS: dict[str, Any] = DOCUMENT["components"]["schemas"]


def shape(schema: dict[str, Any], components: dict[str, Any]) -> Any:
    """A property's JSON type, with nothing but the type: which component, list, map,
    enumeration, scalar or union of those (descriptions, bounds and defaults aside)."""
    if "$ref" in schema:
        name = component(schema)
        target = components[name]
        return ("enum", frozenset(target["enum"])) if "enum" in target else ("ref", name)
    for union in ("anyOf", "oneOf"):
        if union in schema:
            members = frozenset(shape(s, components) for s in schema[union])
            return next(iter(members)) if len(members) == 1 else members
    if "enum" in schema:
        return ("enum", frozenset(schema["enum"]))
    kind = schema.get("type")
    if isinstance(kind, list):
        return frozenset(shape({**schema, "type": k}, components) for k in kind)
    if kind == "array":
        return ("array", shape(schema["items"], components))
    if kind == "object":
        return ("map", shape(schema.get("additionalProperties", {}), components))
    return kind


# --- every example of the document, through both clients --------------------------------------


def call_for(op_id: str, example: Example) -> dict[str, Any] | None:
    """The SDK method's keyword arguments for an example request, or None when the SDK's
    types cannot even express it (a request the API would answer with 400)."""
    if example.path:
        return dict(example.path)
    if example.body is None:
        return {}
    body = dict(example.body)
    game = body.get("game")
    if isinstance(game, str):  # a Literal in the SDK, yet sent as given: an unknown one too
        body["game"] = "yahtzee"
    try:
        request = msgspec.convert(body, type=REQUESTS[op_id])
    except msgspec.ValidationError:
        # a custom ruleset's vocabulary is the rules layer's: outside it, a 422
        assert example.status == 400 or (
            example.status == 422 and example.response["errors"][0]["field"].startswith("ruleset")
        )
        return None
    if isinstance(game, str):
        request = msgspec.structs.replace(request, game=game)
    return {f: getattr(request, f) for f in request.__struct_fields__}


def close(actual: Any, expected: Any) -> bool:
    if isinstance(expected, float) and isinstance(actual, int | float):
        return math.isclose(actual, expected, rel_tol=1e-12)
    if isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(
            close(actual[k], expected[k]) for k in expected
        )
    if isinstance(expected, list):
        return len(actual) == len(expected) and all(map(close, actual, expected))
    return bool(actual == expected)


def check_outcome(op_id: str, example: Example, outcome: Any) -> None:
    if example.status < 400:
        assert not isinstance(outcome, Exception), outcome
        assert isinstance(outcome, msgspec.Struct | list)
        kwargs = call_for(op_id, example)
        assert kwargs is not None
        typ = BY_ID[op_id].returns
        expected = msgspec.to_builtins(msgspec.convert(example.response, type=typ))
        assert close(msgspec.to_builtins(outcome), expected)
        return
    assert type(outcome) is ERRORS[example.status], outcome
    assert outcome.status == example.status
    problem = example.response
    assert (outcome.type, outcome.title, outcome.detail, outcome.instance) == (
        problem["type"],
        problem["title"],
        problem["detail"],
        problem["instance"],
    )
    assert msgspec.to_builtins(outcome.errors) == problem.get("errors", [])
    assert outcome.retry_after == problem.get("retry_after")


# Every example the SDK's types can express, but the 503s (a table still loading).
REPLAYED: list[tuple[str, Example]] = [
    (op_id, example)
    for op_id, examples in EXAMPLES.items()
    for example in examples
    # 503 and 429 need an app without tables or with a full solve queue (test_contract.py)
    if example.status not in (429, 503) and call_for(op_id, example) is not None
]
EXAMPLE_CASES = [pytest.param(*pair, id=f"{pair[0]}-{pair[1].name}") for pair in REPLAYED]


def test_only_some_400_examples_are_beyond_the_sdks_types() -> None:
    """A request with a missing field or a value outside a Literal cannot be written with
    the SDK's typed arguments; those 400 examples, and a custom ruleset's box of a pattern
    no box class has (a 422), are the only ones not replayed here."""
    beyond = {
        f"{op_id}-{e.name}"
        for op_id, examples in EXAMPLES.items()
        for e in examples
        if call_for(op_id, e) is None
    }
    assert beyond == {
        "chicagoGames-no-rounds-field",
        "yardkleTurns-unknown-end",
        "rulesets-rules-not-an-object",
        "score-unknown-pattern",
    }


@pytest.mark.parametrize(("op_id", "example"), EXAMPLE_CASES)
def test_sync_client_against_the_app(
    coach: TestClient[Litestar], op_id: str, example: Example
) -> None:
    kwargs = call_for(op_id, example)
    assert kwargs is not None
    with Client(TEST_URL, http_client=coach, max_retries=0) as client:
        try:
            outcome: Any = getattr(client, METHODS[op_id])(**kwargs)
        except APIError as exc:
            outcome = exc
    check_outcome(op_id, example, outcome)


@pytest.fixture(scope="module")
def loaded_app(
    solved: Callable[[str], FloatArray], play_to_win: list[tuple[TableSpec, FloatArray]]
) -> Litestar:
    """A fresh app of its own for the event loops of the async tests, every table loaded
    (and the play-to-win tables the examples use)."""
    fresh = make_test_app()
    for game in SCORECARD_GAMES:
        put_values(fresh, game, solved(game))
    put_policy(fresh)
    for spec, table in play_to_win:
        fresh.state.tables.put(spec, table, "memory")
    return fresh


def async_client(app: Litestar, **kwargs: Any) -> AsyncClient:
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app))
    return AsyncClient("http://diceref.test", http_client=http, **kwargs)


def test_async_client_against_the_app(loaded_app: Litestar) -> None:
    async def run() -> int:
        checked = 0
        async with async_client(loaded_app, max_retries=0) as client:
            for op_id, examples in EXAMPLES.items():
                for example in examples:
                    kwargs = call_for(op_id, example)
                    if example.status in (429, 503) or kwargs is None:
                        continue
                    try:
                        outcome: Any = await getattr(client, METHODS[op_id])(**kwargs)
                    except APIError as exc:
                        outcome = exc
                    check_outcome(op_id, example, outcome)
                    checked += 1
        return checked

    assert asyncio.run(run()) == len(EXAMPLE_CASES)


# --- 503, Retry-After and retries against the real app -----------------------------------------


def table_loading_example() -> Example:
    (example,) = [e for e in EXAMPLES["holds"] if e.status == 503]
    return example


@pytest.fixture
def bare_app() -> TestClient[Litestar]:
    """A fresh app that holds no table, with the default Retry-After.  Its lifespan is not
    run, so it never starts loading one: it answers 503 until a test puts the table."""
    fresh = make_test_app()
    return TestClient(fresh)  # not entered: no lifespan, and nothing to close


def test_unavailable_keeps_the_problem_and_retry_after(bare_app: TestClient[Litestar]) -> None:
    example = table_loading_example()
    kwargs = call_for("holds", example)
    assert kwargs is not None
    with (
        Client(TEST_URL, http_client=bare_app, max_retries=0) as client,
        pytest.raises(UnavailableError) as raised,
    ):
        client.holds(**kwargs)
    check_outcome("holds", example, raised.value)
    assert raised.value.retry_after == 5 and raised.value.response.headers["retry-after"] == "5"


def test_503_is_retried_after_retry_after_until_the_table_is_there(
    bare_app: TestClient[Litestar],
    solved: Callable[[str], FloatArray],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    waits: list[float] = []

    def sleep(seconds: float) -> None:  # the table arrives while the client waits
        waits.append(seconds)
        put_values(bare_app.app, "yahtzee", solved("yahtzee"))

    monkeypatch.setattr(client_module, "_sleep", sleep)
    kwargs = call_for("holds", table_loading_example())
    assert kwargs is not None
    with Client(TEST_URL, http_client=bare_app, max_retries=2) as client:
        answer = client.holds(**kwargs)
    assert waits == [5.0]
    assert isinstance(answer.options[0], models.BoxOption)
    assert answer.options[0].box == "chance"


def test_retries_give_up_after_max_retries(
    bare_app: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch
) -> None:
    waits: list[float] = []
    monkeypatch.setattr(client_module, "_sleep", waits.append)
    retries = Retries(max_retries=3, max_retry_after=2.0)
    with (
        Client(TEST_URL, http_client=bare_app, retries=retries) as client,
        pytest.raises(UnavailableError),
    ):
        client.holds("chute-5", [1, 2, 3, 4, 5], throws_left=2)
    assert waits == [2.0, 2.0, 2.0]  # Retry-After: 5, capped at max_retry_after


def test_async_client_retries_503(loaded_app: Litestar, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = make_test_app()
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        loaded = values_of(loaded_app, "yahtzee")
        assert loaded is not None
        put_values(fresh, "yahtzee", loaded)

    monkeypatch.setattr(client_module, "_asleep", sleep)
    kwargs = call_for("holds", table_loading_example())
    assert kwargs is not None

    async def run() -> models.ScorecardHoldsResponse:
        async with async_client(fresh) as client:
            return await client.holds(**kwargs)

    assert asyncio.run(run()).total == 187 and waits == [5.0]


# --- no answer: connection failures and timeouts, on real sockets ------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_connection_refused_is_retried_then_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []
    monkeypatch.setattr(client_module, "_sleep", waits.append)
    retries = Retries(max_retries=2, backoff=0.5, max_backoff=8.0)
    with (
        Client(f"http://127.0.0.1:{free_port()}", retries=retries) as client,
        pytest.raises(APIConnectionError) as raised,
    ):
        client.healthz()
    assert not isinstance(raised.value, APITimeoutError)
    assert isinstance(raised.value.__cause__, httpx.ConnectError)
    assert len(waits) == 2
    assert 0.25 <= waits[0] <= 0.5 and 0.5 <= waits[1] <= 1.0  # exponential, with jitter


def test_async_connection_refused() -> None:
    async def run() -> None:
        async with AsyncClient(f"http://127.0.0.1:{free_port()}", max_retries=0) as client:
            await client.healthz()

    with pytest.raises(APIConnectionError):
        asyncio.run(run())


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A socket that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        yield f"http://127.0.0.1:{s.getsockname()[1]}"


def test_timeout(silent_server: str) -> None:
    with (
        Client(silent_server, timeout=0.2, max_retries=0) as client,
        pytest.raises(APITimeoutError) as raised,
    ):
        client.score("yahtzee", [1, 2, 3, 4, 5])
    assert isinstance(raised.value, APIConnectionError)
    assert isinstance(raised.value.__cause__, httpx.TimeoutException)


def test_async_timeout(silent_server: str) -> None:
    async def run() -> None:
        async with AsyncClient(silent_server, timeout=0.2, max_retries=0) as client:
            await client.healthz()

    with pytest.raises(APITimeoutError):
        asyncio.run(run())


def test_default_timeout_and_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DICEREF_URL", raising=False)
    with Client() as client:
        assert client.base_url == "http://127.0.0.1:8000"
        assert client._config.timeout == httpx.Timeout(10.0, connect=5.0)
    monkeypatch.setenv("DICEREF_URL", "http://dice.example:9000/")
    with Client() as client:
        assert client.base_url == "http://dice.example:9000"
    with Client("http://other:1") as client:
        assert client.base_url == "http://other:1"
    with pytest.raises(ValueError, match="http"):
        Client("dice.example")


# --- answers the app never gives: 429, HTML error pages ---------------------------------------


def mock_client(
    answers: list[httpx.Response], monkeypatch: pytest.MonkeyPatch, **kwargs: Any
) -> tuple[Client, list[float], list[httpx.Request]]:
    waits: list[float] = []
    seen: list[httpx.Request] = []
    monkeypatch.setattr(client_module, "_sleep", waits.append)

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return answers.pop(0)

    http = httpx.Client(transport=httpx.MockTransport(handler))
    return Client("http://mock", http_client=http, **kwargs), waits, seen


def test_429_is_retried_honouring_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = {"type": "about:blank", "title": "Too many", "status": 429, "detail": "slow down"}
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=20), usegmt=True)
    answers = [
        httpx.Response(429, json=problem, headers={"retry-after": "3"}),
        httpx.Response(429, json=problem, headers={"retry-after": when}),
        httpx.Response(200, json={"status": "ok", "api_version": "0.1.0"}),
    ]
    client, waits, seen = mock_client(answers, monkeypatch)
    assert client.healthz().status == "ok"
    assert len(seen) == 3 and waits[0] == 3.0 and 15 < waits[1] <= 20


def test_429_after_the_last_attempt(monkeypatch: pytest.MonkeyPatch) -> None:
    body = {"type": "about:blank", "title": "Too many", "status": 429, "detail": "slow down"}
    answers = [httpx.Response(429, json=body, headers={"retry-after": "7200"})] * 2
    client, waits, _ = mock_client(answers, monkeypatch, max_retries=1)
    with pytest.raises(RateLimitedError) as raised:
        client.healthz()
    assert waits == [30.0]  # capped at Retries.max_retry_after
    assert raised.value.retry_after == 7200 and raised.value.detail == "slow down"


def test_a_body_that_is_not_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = [httpx.Response(502, text="<html>Bad Gateway</html>")]
    client, waits, _ = mock_client(answers, monkeypatch, max_retries=0)
    with pytest.raises(ServerError) as raised:
        client.games()
    assert raised.value.status == 502 and "Bad Gateway" in raised.value.detail and not waits


def test_a_success_that_is_not_the_documented_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    client, _, _ = mock_client([httpx.Response(200, json={"unexpected": True})], monkeypatch)
    with pytest.raises(diceref_client.InvalidResponseError):
        client.healthz()


def test_requests_leave_defaults_out(monkeypatch: pytest.MonkeyPatch) -> None:
    answer = {"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "options": [], "blocked": [], "total": 0}
    client, _, seen = mock_client([httpx.Response(200, json=answer)], monkeypatch)
    client.score("yahtzee", (1, 2, 3, 4, 5))
    assert json.loads(seen[0].content) == {"game": "yahtzee", "dice": [1, 2, 3, 4, 5]}
    assert seen[0].headers["content-type"] == "application/json"
    assert seen[0].headers["user-agent"].startswith("diceref-client/")


def test_backoff_grows_with_jitter_and_is_capped() -> None:
    retries = Retries(backoff=1.0, max_backoff=4.0)
    for attempt, top in [(0, 1.0), (1, 2.0), (2, 4.0), (5, 4.0)]:
        waits = {retries.wait(attempt, None) for _ in range(50)}
        assert all(top / 2 <= w <= top for w in waits) and len(waits) > 1
    assert retries.wait(0, 12.0) == 12.0 and retries.wait(0, 99.0) == 30.0


# --- faults, one per MockTransport: what an ingress or a rollout does to a call -----------------

PROBLEM_502 = {"type": "about:blank", "title": "Bad Gateway", "status": 502, "detail": "upstream"}
HEALTH = {"status": "ok", "api_version": diceref_client.API_VERSION}


def scripted(
    answers: list[httpx.Response | Exception],
) -> tuple[httpx.MockTransport, list[httpx.Request]]:
    """A transport that gives these answers in turn (an exception is raised, as a transport
    raises a timeout), recording each request."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    return httpx.MockTransport(handler), seen


def faulty_client(
    answers: list[httpx.Response | Exception], monkeypatch: pytest.MonkeyPatch, **kwargs: Any
) -> tuple[Client, list[float], list[httpx.Request]]:
    waits: list[float] = []
    monkeypatch.setattr(client_module, "_sleep", waits.append)
    transport, seen = scripted(answers)
    client = Client("http://mock", http_client=httpx.Client(transport=transport), **kwargs)
    return client, waits, seen


def test_a_502_then_a_200(monkeypatch: pytest.MonkeyPatch) -> None:
    answers: list[httpx.Response | Exception] = [
        httpx.Response(502, text="<html>Bad Gateway</html>"),
        httpx.Response(200, json=HEALTH),
    ]
    client, waits, seen = faulty_client(answers, monkeypatch)
    raw = client.with_raw_response.healthz()
    assert raw.parsed.status == "ok" and raw.status_code == 200 and raw.retries_taken == 1
    assert len(seen) == 2 and len(waits) == 1 and 0.25 <= waits[0] <= 0.5
    # one call, one request id, on every attempt
    assert seen[0].headers["x-request-id"] == seen[1].headers["x-request-id"] == raw.request_id


def test_a_503_with_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = {"type": "about:blank", "title": "Loading", "status": 503, "detail": "wait"}
    answers: list[httpx.Response | Exception] = [
        httpx.Response(503, json=problem, headers={"retry-after": "2"}),
        httpx.Response(200, json=HEALTH),
    ]
    client, waits, _ = faulty_client(answers, monkeypatch)
    assert client.healthz().status == "ok" and waits == [2.0]


def test_a_timeout_then_an_answer_and_timeouts_only(monkeypatch: pytest.MonkeyPatch) -> None:
    answers: list[httpx.Response | Exception] = [
        httpx.ReadTimeout("slow"),
        httpx.Response(200, json=HEALTH),
    ]
    client, waits, _ = faulty_client(answers, monkeypatch)
    assert client.healthz().status == "ok" and len(waits) == 1
    answers = [httpx.ReadTimeout("slow")] * 3
    client, waits, seen = faulty_client(answers, monkeypatch, max_retries=2)
    with pytest.raises(APITimeoutError) as raised:
        client.healthz()
    assert len(seen) == 3 and len(waits) == 2
    assert raised.value.request_id == seen[0].headers["x-request-id"]


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
def test_statuses_that_are_retried(status: int, monkeypatch: pytest.MonkeyPatch) -> None:
    problem = {"type": "about:blank", "title": "x", "status": status, "detail": "x"}
    answers: list[httpx.Response | Exception] = [
        httpx.Response(status, json=problem),
        httpx.Response(200, json=HEALTH),
    ]
    client, waits, _ = faulty_client(answers, monkeypatch)
    assert client.healthz().status == "ok" and len(waits) == 1


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (400, BadRequestError),
        (404, NotFoundError),
        (413, PayloadTooLargeError),
        (415, APIError),
        (422, RuleViolationError),
        (501, ServerError),
    ],
)
def test_statuses_that_are_not_retried(
    status: int, error: type[APIError], monkeypatch: pytest.MonkeyPatch
) -> None:
    problem = {"type": "about:blank", "title": "x", "status": status, "detail": "x"}
    problem["request_id"] = "from-the-body"
    answers: list[httpx.Response | Exception] = [
        httpx.Response(status, json=problem, headers={"x-request-id": "abc-123"})
    ]
    client, waits, _ = faulty_client(answers, monkeypatch)
    with pytest.raises(error) as raised:
        client.games()
    assert type(raised.value) is error and not waits
    assert raised.value.request_id == "abc-123"  # the header's


def test_async_client_retries_a_502_and_a_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(client_module, "_asleep", sleep)
    answers: list[httpx.Response | Exception] = [
        httpx.Response(502, json=PROBLEM_502),
        httpx.ConnectTimeout("slow"),
        httpx.Response(200, json=HEALTH),
    ]
    seen: list[httpx.Request] = []

    async def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def run() -> diceref_client.RawResponse[models.Health]:
        http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
        async with AsyncClient("http://mock", http_client=http) as client:
            return await client.with_raw_response.healthz()

    raw = asyncio.run(run())
    assert raw.parsed.status == "ok" and raw.retries_taken == 2 and len(waits) == 2
    assert len({r.headers["x-request-id"] for r in seen}) == 1


# --- the API version: the client's against the service's X-API-Version ------------------------


def versioned(
    version: str, status: int = 200, body: dict[str, Any] | None = None
) -> httpx.Response:
    """An answer of a service that speaks API `version`."""
    return httpx.Response(status, json=body or HEALTH, headers={"x-api-version": version})


@pytest.mark.parametrize(
    ("line", "version"),
    [((0, 1), "0.1.0"), ((0, 1), "0.1.7"), ((0, 2), "0.2.0"), ((1,), "1.4.2"), ((2,), "v2.0")],
)
def test_the_compatibility_line_of_a_version(line: tuple[int, ...], version: str) -> None:
    assert compatibility_line(version) == line


def test_a_version_that_is_not_semver_has_no_line() -> None:
    assert compatibility_line("latest") is None and compatibility_line("1") is None


@pytest.mark.parametrize("version", ["0.1.0", "0.1.9", "0.1.0-rc.1", "not-a-version"])
def test_a_compatible_service_answers_as_usual(
    version: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _, _ = faulty_client([versioned(version)], monkeypatch)
    assert client.healthz().status == "ok"


def test_a_service_without_the_header_is_not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    client, _, _ = faulty_client([httpx.Response(200, json=HEALTH)], monkeypatch)
    assert client.healthz().status == "ok"


@pytest.mark.parametrize("version", ["0.2.0", "1.0.0"])
def test_a_success_from_another_major_is_a_version_mismatch(
    version: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Raised before parsing: the body fits this client's models, and is refused anyway."""
    answer = versioned(version)
    answer.headers["x-request-id"] = "srv-9"
    client, waits, seen = faulty_client([answer], monkeypatch)
    with pytest.raises(VersionMismatch) as raised:
        client.healthz()
    assert isinstance(raised.value, diceref_client.DicerefError)
    assert str(raised.value) == (
        f"GET /healthz: the service speaks API {version}, this client was generated for 0.1.0"
    )
    assert raised.value.service_version == version and raised.value.client_version == "0.1.0"
    assert raised.value.request_id == "srv-9" and raised.value.response.status_code == 200
    assert len(seen) == 1 and not waits  # not retried


def test_the_raw_client_checks_the_version_too(monkeypatch: pytest.MonkeyPatch) -> None:
    client, _, _ = faulty_client([versioned("3.0.0")], monkeypatch)
    with pytest.raises(VersionMismatch, match=r"speaks API 3\.0\.0,"):
        client.with_raw_response.healthz()


def test_a_problem_from_another_major_names_both_versions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    problem = {"type": "about:blank", "title": "Invalid request", "status": 400, "detail": "dice"}
    client, _, _ = faulty_client([versioned("1.0.0", 400, problem)], monkeypatch)
    with pytest.raises(BadRequestError) as raised:
        client.games()
    assert str(raised.value) == (
        "400 Invalid request: dice "
        "(the service speaks API 1.0.0, this client was generated for 0.1.0)"
    )
    assert raised.value.service_version == "1.0.0" and raised.value.detail == "dice"


def test_a_problem_from_the_same_major_says_nothing_of_versions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    problem = {"type": "about:blank", "title": "Invalid request", "status": 400, "detail": "dice"}
    client, _, _ = faulty_client([versioned("0.1.3", 400, problem)], monkeypatch)
    with pytest.raises(BadRequestError) as raised:
        client.games()
    assert str(raised.value) == "400 Invalid request: dice"
    assert raised.value.service_version == "0.1.3"


def test_the_async_client_checks_the_version(monkeypatch: pytest.MonkeyPatch) -> None:
    async def run() -> None:
        transport = httpx.MockTransport(lambda request: versioned("1.0.0"))
        http = httpx.AsyncClient(transport=transport)
        async with AsyncClient("http://mock", http_client=http) as client:
            await client.healthz()

    with pytest.raises(VersionMismatch, match=r"speaks API 1\.0\.0,"):
        asyncio.run(run())


def test_the_app_speaks_the_clients_version(bare_app: TestClient[Litestar]) -> None:
    with Client(TEST_URL, http_client=bare_app) as client:
        raw = client.with_raw_response.healthz()
    assert raw.parsed.api_version == raw.headers["x-api-version"] == diceref_client.API_VERSION


# --- options: per client, per copy, per call ------------------------------------------------


def test_timeout_and_extra_headers_per_call(monkeypatch: pytest.MonkeyPatch) -> None:
    answers: list[httpx.Response | Exception] = [httpx.Response(200, json=HEALTH)] * 2
    client, _, seen = faulty_client(
        answers, monkeypatch, timeout=7.0, default_headers={"X-Frontend": "board"}
    )
    client.healthz()
    client.healthz(timeout=0.5, extra_headers={"X-Request-ID": "mine-1", "X-Trace": "t"})
    assert seen[0].extensions["timeout"] == httpx.Timeout(7.0).as_dict()
    assert seen[1].extensions["timeout"] == httpx.Timeout(0.5).as_dict()
    assert seen[0].headers["x-frontend"] == seen[1].headers["x-frontend"] == "board"
    assert seen[1].headers["x-request-id"] == "mine-1" and seen[1].headers["x-trace"] == "t"
    assert "x-trace" not in seen[0].headers


def test_with_options_is_a_configured_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    answers: list[httpx.Response | Exception] = [
        httpx.Response(502, json=PROBLEM_502),
        httpx.Response(502, json=PROBLEM_502),
        httpx.Response(200, json=HEALTH),
    ]
    client, waits, seen = faulty_client(answers, monkeypatch, default_headers={"X-A": "1"})
    copy = client.with_options(timeout=3.0, max_retries=0, default_headers={"X-B": "2"})
    assert isinstance(copy, Client) and copy is not client
    assert (copy.max_retries, client.max_retries) == (0, 2)
    assert copy.timeout == httpx.Timeout(3.0) and client.timeout == httpx.Timeout(10.0, connect=5)
    assert copy.default_headers["x-a"] == "1" and copy.default_headers["x-b"] == "2"
    assert "x-b" not in client.default_headers
    with pytest.raises(ServerError):
        copy.healthz()  # no retry
    assert client.healthz().status == "ok"  # the original still retries
    assert len(seen) == 3 and len(waits) == 1
    assert copy.with_raw_response is not client.with_raw_response
    copy.close()  # shares the client's connections: closing the copy leaves them open
    assert not client._http.is_closed
    client.close()


def test_retries_policy_and_max_retries() -> None:
    with Client("http://mock", retries=Retries(max_retries=5, backoff=0.1)) as client:
        assert client.max_retries == 5
        assert client.with_options(max_retries=1)._config.retries == Retries(1, backoff=0.1)


def test_raw_response_of_the_app(coach: TestClient[Litestar]) -> None:
    with Client(TEST_URL, http_client=coach) as client:
        raw = client.with_raw_response.games_by_game("yahtzee")
        assert raw.status_code == 200 and raw.parsed.id == "yahtzee"
        assert raw.headers["etag"] and raw.request_id == raw.headers["x-request-id"]
        assert len(raw.request_id) == 32  # the client's own id, echoed by the service
        with pytest.raises(NotFoundError) as raised:
            client.score("nope", [1, 2, 3, 4, 5], extra_headers={"X-Request-ID": "call-42"})
        assert raised.value.request_id == raised.value.problem.request_id == "call-42"


def test_the_logger_logs_each_request(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    answers: list[httpx.Response | Exception] = [
        httpx.Response(503, json=PROBLEM_502, headers={"retry-after": "0"}),
        httpx.Response(200, json=HEALTH, headers={"x-request-id": "srv-1"}),
    ]
    client, _, _ = faulty_client(answers, monkeypatch)
    with caplog.at_level(logging.DEBUG, logger="diceref_client"):
        client.healthz()
    messages = [r.getMessage() for r in caplog.records if r.name == "diceref_client"]
    assert any("GET http://mock/healthz (request" in m for m in messages)
    assert any("-> 503" in m for m in messages) and any("retrying in 0.00 s" in m for m in messages)
    assert any("-> 200" in m and "srv-1" in m for m in messages)


def test_diceref_log_debug_turns_the_logger_on() -> None:
    code = (
        "import httpx, diceref_client\n"
        "health = {'status': 'ok', 'api_version': '0.1.0'}\n"
        "t = httpx.MockTransport(lambda r: httpx.Response(200, json=health))\n"
        "c = diceref_client.Client('http://mock', http_client=httpx.Client(transport=t))\n"
        "c.healthz()\n"
    )
    for level, expected in (("debug", True), ("", False)):
        env = {k: v for k, v in os.environ.items() if not k.startswith("DICEREF_")}
        env["DICEREF_LOG"] = level
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert ("diceref_client DEBUG] GET http://mock/healthz" in run.stderr) is expected


# --- a live `diceref serve`: every method, both clients -----------------------------------------


@pytest.fixture(scope="module")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, solved: Callable[[str], FloatArray]
) -> Iterator[str]:
    for game in SCORECARD_GAMES:  # in the shared test cache, so the server loads them
        solved(game)
    log = tmp_path_factory.mktemp("sdk-live") / "server.log"
    env = {"DICEREF_PRELOAD": "all", "DICEREF_CACHE_DIR": str(TEST_CACHE)}
    with LiveServer(log, env) as server:
        server.wait("/readyz", timeout=120)
        yield server.base


@pytest.mark.slow
def test_every_method_against_a_live_server(
    live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every example of every operation, through a real socket, both clients."""
    monkeypatch.setenv("DICEREF_URL", live_server)
    called: set[str] = set()
    with Client() as client:
        for op_id, example in REPLAYED:
            kwargs = call_for(op_id, example)
            assert kwargs is not None
            raw = client.with_raw_response
            try:
                outcome: Any = getattr(raw, METHODS[op_id])(**kwargs)
                assert outcome.status_code == example.status and outcome.request_id
                outcome = outcome.parsed
            except APIError as exc:
                assert exc.request_id == exc.response.headers["x-request-id"]
                outcome = exc
            check_outcome(op_id, example, outcome)
            called.add(op_id)
    assert called == set(METHODS)

    async def run() -> int:
        checked = 0
        async with AsyncClient(timeout=10) as client:
            for op_id, example in REPLAYED:
                kwargs = call_for(op_id, example)
                assert kwargs is not None
                try:
                    outcome: Any = await getattr(client, METHODS[op_id])(**kwargs)
                except APIError as exc:
                    outcome = exc
                check_outcome(op_id, example, outcome)
                checked += 1
        return checked

    assert asyncio.run(run()) == len(REPLAYED)


# --- reviews and rulesets, called for real --------------------------------------------------


def without_nones(value: Any) -> Any:
    """A decoded answer without the fields a model fills with None where the wire had none."""
    if isinstance(value, dict):
        return {k: without_nones(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nones(v) for v in value]
    return value


def test_yardkle_reviews_against_the_app(coach: TestClient[Litestar]) -> None:
    """`yardkle_reviews` sends the turns and decodes the review the app gives."""
    turn = {"throws": [{"dice": [1, 1, 2, 3, 4, 6], "set_aside": [1, 1]},
                       {"dice": [1, 2, 3, 4], "set_aside": [1]},
                       {"dice": [2, 5, 6], "set_aside": [5]}],
            "end": "bank", "banked_total": 3000}  # fmt: skip
    raw = coach.post("/yardkle/reviews", json={"turns": [turn]})
    assert raw.status_code == 200, raw.text
    typed = [msgspec.convert(turn, models.YardkleReviewTurnIn)]
    with Client(TEST_URL, http_client=coach, max_retries=0) as client:
        answer = client.yardkle_reviews(typed)
        assert isinstance(answer, models.YardkleReviewResponse)
        decoded = msgspec.to_builtins(answer)
        assert decoded.pop("ruleset_id") is None  # the default rules: the app names none
        # the two-player fields the app leaves out without an `opponent` decode as None
        assert without_nones(decoded) == raw.json()
        assert answer.turns[0].decisions[0].win_loss is None
        assert answer.turns[0].decisions[0].chosen.win_probability is None
        assert answer.turns[0].points == 350 and len(answer.turns[0].decisions) == 3
        with pytest.raises(RuleViolationError) as refused:  # a set-aside that does not score
            client.yardkle_reviews(
                [models.YardkleReviewTurnIn(
                    throws=[models.YardkleThrowIn(dice=[2, 3, 4, 6, 6, 2], set_aside=[2])],
                    end="bank",
                )]
            )  # fmt: skip
    assert refused.value.status == 422 and refused.value.errors


def test_async_wait_for_ruleset(tmp_path: Path) -> None:
    """The async `wait_for_ruleset` polls `POST /rulesets` until the solve it started is
    done, and gives up at its timeout with the last status."""
    from diceref.http.app import create_app
    from diceref.settings import Settings
    from diceref_client import RulesetNotReady

    app = create_app(Settings(preload=(), cache_dir=str(tmp_path)))  # an empty cache

    async def run() -> tuple[Any, Any]:
        async with app.lifespan(), async_client(app, max_retries=0) as client:
            with pytest.raises(RulesetNotReady) as early:
                await client.wait_for_ruleset(
                    "yardkle", rules={"three_ones": 1000, "single_five": 100}, timeout=0.01
                )
            ready = await client.wait_for_ruleset(
                "yardkle", rules={"three_ones": 1000}, timeout=60, poll=0.05
            )
            return early.value, ready

    early, ready = asyncio.run(run())
    assert early.last is not None and early.last.status in ("queued", "solving")
    assert ready.status == "ready" and ready.progress == 1.0
    assert ready.ruleset_id == yardkle(three_ones=1000).ruleset_id


# --- play to win: a target on holds and reviews, distributions ------------------------------

# Yatzy in forced order (`play_to_win`'s tables, which solve in seconds); ones to threes
# filled, fours next.
GAME, FORCED = PLAY_TO_WIN_RULESET
FORCED_CARD = {"filled": {"ones": 3, "twos": 6, "threes": 6}}


@pytest.fixture(scope="module")
def play_to_win_app(play_to_win: list[tuple[TableSpec, FloatArray]]) -> Litestar:
    """A fresh app serving forced-order Yatzy's value, distribution and win tables."""
    fresh = make_test_app()
    for spec, table in play_to_win:
        fresh.state.tables.put(spec, table, "memory")
    return fresh


def play_to_win_calls() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(method, its arguments, the same request as JSON) for each play-to-win call."""
    card = msgspec.convert(FORCED_CARD, models.ScorecardIn)
    game = {"game": GAME, "rules": FORCED}
    turn = {"throws": [[1, 3, 4, 4, 6], [1, 4, 4, 4, 4]], "keeps": [[4, 4]], "box": "ones"}
    return [
        ("holds", {"game": GAME, "dice": [4, 4, 4, 2, 6], "throws_left": 1,
                   "scorecard": card, "rules": FORCED, "target": 150},
         {**game, "dice": [4, 4, 4, 2, 6], "throws_left": 1, "scorecard": FORCED_CARD,
          "target": 150}),
        ("distributions", {"game": GAME, "scorecard": card, "rules": FORCED, "target": 150,
                           "play": "expected_points"},
         {**game, "scorecard": FORCED_CARD, "target": 150, "play": "expected_points"}),
        ("distributions", {"game": GAME, "scorecard": card, "dice": [4, 4, 4, 2, 6],
                           "throws_left": 2, "rules": FORCED},
         {**game, "scorecard": FORCED_CARD, "dice": [4, 4, 4, 2, 6], "throws_left": 2}),
        ("reviews", {"game": GAME, "turns": [msgspec.convert(turn, models.ReviewTurnIn)],
                     "rules": FORCED, "target": 150},
         {**game, "turns": [turn], "target": 150}),
    ]  # fmt: skip


def test_play_to_win_through_both_clients(play_to_win_app: Litestar) -> None:
    """`target=` on `holds` and `reviews`, and `distributions`, send the body the API
    takes and decode its answer whole, sync and async alike."""
    calls = play_to_win_calls()
    with TestClient(play_to_win_app) as app:
        answers = []
        for name, _, body in calls:
            r = app.post(BY_ID[name].path, json=body)
            assert r.status_code == 200, r.text
            answers.append(r.json())
        with Client(TEST_URL, http_client=app, max_retries=0) as client:
            synced = [getattr(client, name)(**kwargs) for name, kwargs, _ in calls]

    async def run() -> list[Any]:
        async with async_client(play_to_win_app, max_retries=0) as client:
            return [await getattr(client, name)(**kwargs) for name, kwargs, _ in calls]

    for outcome in (synced, asyncio.run(run())):
        for (name, _, _), answer, expected in zip(calls, outcome, answers, strict=True):
            assert isinstance(answer, BY_ID[name].returns)
            # absent in the answer, None in the Struct
            decoded = without_nulls(msgspec.to_builtins(answer))
            assert close(decoded, without_nulls(expected)), name
    holds, chances, from_dice, review = synced
    assert holds.target == 150 and holds.options[0].best
    assert all(o.win_probability is not None for o in holds.options)
    top = holds.options[0].win_probability
    assert all(math.isclose(o.loss, top - o.win_probability) for o in holds.options)
    assert chances.target == 150 and chances.play == "expected_points"
    assert chances.win_probability is not None and 0 < chances.win_probability < 1
    assert math.isclose(sum(t.probability for t in chances.distribution), 1.0, abs_tol=1e-6)
    assert chances.min <= chances.p1 <= chances.p50 <= chances.p99 <= chances.max
    assert from_dice.target is None and from_dice.win_probability is None
    decisions = [d for t in review.turns for d in t.decisions]
    assert review.target == 150 and all(d.win_loss is not None for d in decisions)


def test_a_win_table_still_solving_is_waited_out(
    bare_app: TestClient[Litestar],
    play_to_win: list[tuple[TableSpec, FloatArray]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first `distributions(target=...)` of a ruleset is a 503 while its tables are
    solved; the client waits the `Retry-After` and asks again."""
    waits: list[float] = []

    def sleep(seconds: float) -> None:  # the tables arrive while the client waits
        waits.append(seconds)
        for spec, table in play_to_win:
            bare_app.app.state.tables.put(spec, table, "memory")

    monkeypatch.setattr(client_module, "_sleep", sleep)
    card = models.ScorecardIn(filled=dict(FORCED_CARD["filled"]))
    with Client(TEST_URL, http_client=bare_app, max_retries=1) as client:
        answer = client.distributions(GAME, card, rules=FORCED, target=150, play="expected_points")
    assert waits == [5.0] and answer.target == 150
    assert answer.win_probability is not None and 0 < answer.win_probability < 1
