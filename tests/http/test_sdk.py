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
import math
import os
import socket
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

import diceref_client
import diceref_client.client as client_module
from conftest import make_test_app
from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.http.examples import Example
from diceref.http.openapi import all_examples
from diceref_client import (
    METHODS,
    APIConnectionError,
    APIError,
    APITimeoutError,
    AsyncClient,
    BadRequestError,
    Client,
    NotFoundError,
    RateLimitedError,
    Retries,
    RuleViolationError,
    ServerError,
    UnavailableError,
    _operations,
    models,
)
from helpers import put_policy, put_values, values_of

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
    "scorecardsCheck": models.CheckRequest,
    "chicagoThrows": models.ChicagoThrowsRequest,
    "chicagoRounds": models.RoundRequest,
    "chicagoGames": models.ChicagoGameRequest,
    "chicagoHolds": models.ChicagoHoldsRequest,
    "yardkleThrows": models.YardkleThrowsRequest,
    "yardkleTurns": models.TurnRequest,
    "yardkleGames": models.YardkleGameRequest,
    "yardkleHolds": models.YardkleHoldsRequest,
    "rulesets": models.RulesetRequest,
}


def documented_operations() -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in DOCUMENT["paths"].items():
        for method, op in item.items():
            yield method.upper(), path, op


# --- the SDK covers the contract -------------------------------------------------------------


def test_sdk_is_its_own_distribution_on_httpx_and_msgspec_only() -> None:
    project = tomllib.loads((ROOT / "sdk" / "pyproject.toml").read_text())["project"]
    assert project["name"] == "diceref-client"
    assert sorted(d.split(">")[0] for d in project["dependencies"]) == ["httpx", "msgspec"]
    assert (ROOT / "sdk" / "src" / "diceref_client" / "py.typed").exists()
    code = (
        "import sys, diceref_client; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'diceref'))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert run.stdout.decode().strip() == "[]", "the SDK must not import the service"


def test_one_method_per_operation_in_both_clients() -> None:
    ids = {op["operationId"] for _, _, op in documented_operations()}
    assert set(METHODS) == ids
    for name in METHODS.values():
        sync, coro = getattr(Client, name), getattr(AsyncClient, name)
        assert not inspect.iscoroutinefunction(sync) and inspect.iscoroutinefunction(coro)
        assert inspect.signature(sync) == inspect.signature(coro), name
        assert inspect.signature(getattr(_operations, name)).parameters.keys() == (
            inspect.signature(sync).parameters.keys() - {"self"}
        )


@pytest.mark.parametrize(("method", "path", "op"), list(documented_operations()))
def test_method_path_and_arguments_match_the_document(
    method: str, path: str, op: dict[str, Any]
) -> None:
    name = METHODS[op["operationId"]]
    params = inspect.signature(getattr(_operations, name)).parameters
    args = {p: "x" for p in params if params[p].default is inspect.Parameter.empty}
    if "requestBody" in op:
        body = DOCUMENT["components"]["schemas"][REQUESTS[op["operationId"]].__name__]
        assert set(params) == set(body["properties"]), "arguments mirror the body's fields"
        assert {p for p in params if params[p].default is inspect.Parameter.empty} == set(
            body["required"]
        )
    built = getattr(_operations, name)(**args)
    assert built.operation_id == op["operationId"] and built.method == method
    assert built.path == path.replace("{game}", "x")


SDK_STRUCTS = {
    name: cls
    for name, cls in vars(models).items()
    if isinstance(cls, type) and issubclass(cls, msgspec.Struct) and not name.startswith("_")
}


def test_every_component_has_a_mirror_struct() -> None:
    components = DOCUMENT["components"]["schemas"]
    objects = {name for name, c in components.items() if c.get("type") == "object"}
    assert set(SDK_STRUCTS) == objects


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


# --- every example of the document, through both clients --------------------------------------


def call_for(op_id: str, example: Example) -> dict[str, Any] | None:
    """The SDK method's keyword arguments for an example request, or None when the SDK's
    types cannot even express it (a request the API would answer with 400)."""
    if example.path:
        return dict(example.path)
    if example.body is None:
        return {}
    try:
        request = msgspec.convert(example.body, type=REQUESTS[op_id])
    except msgspec.ValidationError:
        assert example.status == 400
        return None
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
    returns = getattr(_operations, METHODS[op_id])
    if example.status < 400:
        assert not isinstance(outcome, Exception), outcome
        assert isinstance(outcome, msgspec.Struct | list)
        kwargs = call_for(op_id, example)
        assert kwargs is not None
        typ = returns(**kwargs).returns
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


EXAMPLE_CASES = [
    pytest.param(op_id, example, id=f"{op_id}-{example.name}")
    for op_id, examples in EXAMPLES.items()
    for example in examples
    # 503 and 429 need an app without tables or with a full solve queue (test_contract.py)
    if example.status not in (429, 503) and call_for(op_id, example) is not None
]


def test_only_some_400_examples_are_beyond_the_sdks_types() -> None:
    """A request with a missing field or a value outside a Literal cannot be written with
    the SDK's typed arguments; those 400 examples are the only ones not replayed here."""
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
def loaded_app(solved: Callable[[str], FloatArray]) -> Litestar:
    """A fresh app of its own for the event loops of the async tests, every table loaded."""
    fresh = make_test_app()
    for game in SCORECARD_GAMES:
        put_values(fresh, game, solved(game))
    put_policy(fresh)
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
    started = time.perf_counter()
    with (
        Client(silent_server, timeout=0.2, max_retries=0) as client,
        pytest.raises(APITimeoutError) as raised,
    ):
        client.score("yahtzee", [1, 2, 3, 4, 5])
    assert isinstance(raised.value, APIConnectionError)
    assert isinstance(raised.value.__cause__, httpx.TimeoutException)
    assert time.perf_counter() - started < 5


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
        httpx.Response(200, json={"status": "ok"}),
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
    client, waits, _ = mock_client(answers, monkeypatch)
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


# --- a live `diceref serve` --------------------------------------------------------------------


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env |= {
        "DICEREF_PRELOAD": "none",
        "DICEREF_CACHE_DIR": str(tmp_path_factory.mktemp("diceref-cache")),
        "DICEREF_RETRY_AFTER": "1",
    }
    command = [str(Path(sys.executable).parent / "diceref"), "serve", "--port", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                stderr = server.stderr.read().decode() if server.stderr else ""
                pytest.fail(f"diceref serve did not come up: {stderr}")
            time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.mark.slow
def test_live_server(live_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DICEREF_URL", live_server)
    with Client() as client:
        assert client.healthz().status == "ok"
        assert "chicago" in {g.id for g in client.games()}
        assert client.games_by_game("chicago").family == "chicago"
        card = models.ScorecardIn(filled={"full_house": 25})
        scored = client.score("yahtzee", [4, 4, 6, 6, 6], scorecard=card)
        assert scored.total == 25 and "full_house" not in {o.box for o in scored.options}
        assert client.yardkle_throws([1, 5, 2]).max_points == 150
        with pytest.raises(NotFoundError):
            client.games_by_game("backgammon")
        with pytest.raises(BadRequestError) as bad:
            client.score("yahtzee", [1, 2, 3, 4, 7])
        assert bad.value.errors[0].field == "dice[4]"
        with pytest.raises(RuleViolationError):
            client.chicago_throws([1, 6, 5], throw=3, throws_allowed=2)

    async def run() -> int:
        async with AsyncClient() as client:
            return (await client.chicago_throws([1, 1, 5], throw=1)).scores["high"]

    assert asyncio.run(run()) == 205
