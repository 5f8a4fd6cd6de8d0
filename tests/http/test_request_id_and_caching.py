"""`X-Request-ID` on every response (the client's when well-formed), in the JSON logs and in
problem bodies; compression over the threshold (brotli, gzip); `ETag`, `Cache-Control` and
304 on the game descriptions."""

from __future__ import annotations

import gzip
import io
import json
import logging
import re
from collections.abc import Callable, Iterator

import brotli
import pytest
from litestar import Litestar
from litestar.testing import TestClient

import diceref.http.routes.games as games_routes
from conftest import make_test_app, make_test_store
from diceref.core.arrays import FloatArray
from diceref.http.app import COMPRESSION, create_app
from diceref.logs import JsonFormatter
from diceref.settings import Settings
from helpers import loaded_rules

NEW_ID = re.compile(r"^[0-9a-f]{32}$")


@pytest.fixture
def fresh() -> Iterator[TestClient[Litestar]]:
    """An app of this test's own (no table loaded, no lifespan)."""
    yield TestClient(make_test_app())


# --- X-Request-ID ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sent",
    ["abc-123", "0af7651916cd43dd8448eb211c80319c", "01HZX3V8K9:trace/span+1=~@x", "a" * 128],
)
def test_a_well_formed_id_is_echoed(client: TestClient[Litestar], sent: str) -> None:
    for method, path, body in [
        ("GET", "/healthz", None),
        ("GET", "/games", None),
        ("POST", "/score", {"game": "yahtzee", "dice": [1, 2, 3, 4, 5]}),  # the lean path
    ]:
        r = client.request(method, path, json=body, headers={"X-Request-ID": sent})
        assert r.status_code == 200, (path, r.text)
        assert r.headers["x-request-id"] == sent, path


@pytest.mark.parametrize("sent", ["", "has space", "a" * 129, 'quote"d', "semi;colon", "é"])
def test_anything_else_is_replaced_by_a_new_id(client: TestClient[Litestar], sent: str) -> None:
    r = client.get("/healthz", headers={"X-Request-ID": sent.encode("utf-8")})  # type: ignore[dict-item]
    assert NEW_ID.match(r.headers["x-request-id"]), r.headers["x-request-id"]
    assert r.headers["x-request-id"] != sent


def test_each_request_gets_its_own_new_id(client: TestClient[Litestar]) -> None:
    ids = {client.get("/healthz").headers["x-request-id"] for _ in range(20)}
    assert len(ids) == 20 and all(NEW_ID.match(i) for i in ids)


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/no/such/route", None, 404),  # no route matches: no route middleware ran
        ("PUT", "/score", None, 405),
        ("GET", "/games/backgammon", None, 404),
        ("POST", "/score", {"game": "yahtzee", "dice": [1, 2, 3, 4, 9]}, 400),  # lean path
        ("POST", "/score", {"game": "nope", "dice": [1, 2, 3, 4, 5]}, 404),
        ("POST", "/holds", {"game": "chute-5", "dice": [1, 2, 3, 4, 5], "throws_left": 2}, 503),
    ],
)
def test_problems_name_the_id_of_their_response(
    fresh: TestClient[Litestar], method: str, path: str, body: object, status: int
) -> None:
    for headers in ({"X-Request-ID": "report-me-7"}, {}):
        r = fresh.request(method, path, json=body, headers=headers)
        assert r.status_code == status, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["request_id"] == r.headers["x-request-id"]
        if headers:
            assert r.headers["x-request-id"] == "report-me-7"


def test_a_cors_preflight_carries_an_id_and_the_header_is_exposed() -> None:
    settings = Settings(preload=(), cors_origins=("https://board.example",))
    with TestClient(create_app(settings, store=make_test_store())) as c:
        r = c.options(
            "/score",
            headers={
                "Origin": "https://board.example",
                "Access-Control-Request-Method": "POST",
                "X-Request-ID": "pre-1",
            },
        )
        assert r.headers["x-request-id"] == "pre-1"
        r = c.get("/healthz", headers={"Origin": "https://board.example"})
        exposed = r.headers["access-control-expose-headers"].lower()
        assert "x-request-id" in exposed and "etag" in exposed


def test_the_log_lines_of_a_request_name_its_id(
    fresh: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unhandled error is logged (a 500 problem): its JSON log line names the request."""

    def broken() -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(games_routes, "summaries", broken)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("diceref.api")
    logger.addHandler(handler)
    try:
        r = fresh.get("/games", headers={"X-Request-ID": "log-me-3"})
    finally:
        logger.removeHandler(handler)
    assert r.status_code == 500 and r.json()["request_id"] == "log-me-3"
    (line,) = [json.loads(x) for x in stream.getvalue().splitlines()]
    assert line["request_id"] == "log-me-3" and "boom" in line["exception"]
    # outside a request, no request_id
    record = logging.LogRecord("diceref", logging.INFO, "", 0, "start", None, None)
    assert "request_id" not in json.loads(JsonFormatter().format(record))


# --- compression -----------------------------------------------------------------------------


def raw_get(client: TestClient[Litestar], path: str, encoding: str | None) -> tuple[str, bytes]:
    """The content-encoding and the body as sent (httpx would decode it)."""
    headers = {"Accept-Encoding": encoding} if encoding is not None else {"Accept-Encoding": ""}
    with client.stream("GET", path, headers=headers) as r:
        assert r.status_code == 200
        return r.headers.get("content-encoding", "identity"), b"".join(r.iter_raw())


def test_large_answers_are_compressed_as_the_client_asks(client: TestClient[Litestar]) -> None:
    _, plain = raw_get(client, "/schema/openapi.json", None)
    assert len(plain) > 100_000
    encoding, body = raw_get(client, "/schema/openapi.json", "gzip, deflate, br")
    assert encoding == "br" and brotli.decompress(body) == plain and len(body) < len(plain) / 8
    encoding, body = raw_get(client, "/schema/openapi.json", "gzip")
    assert encoding == "gzip" and gzip.decompress(body) == plain and len(body) < len(plain) / 6
    assert raw_get(client, "/schema/openapi.json", "identity")[0] == "identity"


def test_small_answers_are_not(client: TestClient[Litestar]) -> None:
    encoding, body = raw_get(client, "/healthz", "gzip, br")
    assert encoding == "identity" and len(body) < COMPRESSION.minimum_size


def test_lean_answers_are_compressed_too(coach: TestClient[Litestar]) -> None:
    """/holds is served by the lean JSON path (a router middleware), inside the
    compression middleware."""
    body = {"game": "yahtzee", "dice": [1, 2, 3, 4, 6], "throws_left": 2}
    plain = coach.post("/holds", json=body, headers={"Accept-Encoding": ""})
    assert len(plain.content) > COMPRESSION.minimum_size
    with coach.stream("POST", "/holds", json=body, headers={"Accept-Encoding": "br"}) as r:
        assert r.headers["content-encoding"] == "br" and r.headers["vary"] == "Accept-Encoding"
        compressed = b"".join(r.iter_raw())
    assert brotli.decompress(compressed) == plain.content
    assert len(compressed) < len(plain.content) / 3


# --- ETag, Cache-Control, 304 ------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/games", "/games/chicago", "/games/yardkle"])
def test_game_descriptions_are_cacheable(client: TestClient[Litestar], path: str) -> None:
    first = client.get(path)
    etag = first.headers["etag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    assert first.headers["cache-control"] == "public, max-age=300"
    assert client.get(path).headers["etag"] == etag  # stable
    for matching in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        r = client.get(path, headers={"If-None-Match": matching})
        assert r.status_code == 304 and r.content == b"", matching
        assert (
            r.headers["etag"] == etag
            and r.headers["cache-control"] == first.headers["cache-control"]
        )
        assert r.headers["x-request-id"]
    r = client.get(path, headers={"If-None-Match": '"stale"'})
    assert r.status_code == 200 and r.json() == first.json()


def test_the_etag_follows_the_tables(solved: Callable[[str], FloatArray]) -> None:
    """While a game's tables load its description says so, must be revalidated, and its
    ETag changes once they are in."""
    solved("yatzy")  # in the test cache, where the app loads it from
    with TestClient(make_test_app()) as c:
        loading = c.get("/games/yatzy")  # starts loading its tables
        assert loading.json()["tables"] == "loading"
        assert loading.headers["cache-control"] == "no-cache"
        loaded_rules(c, "yatzy")
        ready = c.get("/games/yatzy", headers={"If-None-Match": loading.headers["etag"]})
        assert ready.status_code == 200 and ready.json()["tables"] == "ready"
        assert ready.headers["etag"] != loading.headers["etag"]
        assert ready.headers["cache-control"] == "public, max-age=300"
