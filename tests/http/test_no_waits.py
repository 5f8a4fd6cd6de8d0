"""No request waits for a table (issue 18): with an empty disk cache, no preload and
another replica's Redis compute lock held on every table, every route of the app answers
at once: before any of those tables is loaded (a load waits for the lock, which expires
after 120 s), a table it needs being loaded in the background.  How long each answer took
is printed, never asserted.

The routes are read off the app itself, so a route added later is audited too (and fails
here until it has an example to replay)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from litestar import Litestar
from litestar.routes import HTTPRoute
from litestar.testing import TestClient

from diceref.games.families import table_specs
from diceref.http.app import create_app
from diceref.http.examples import Example
from diceref.http.openapi import all_examples, operation_id_of
from diceref.settings import Settings

UNPUBLISHED = {("GET", "/readyz"), ("GET", "/metrics")}  # probes outside the document
# The desk's page and files (outside the document too), each replayed with a file it serves.
DESK_FILES = {
    "/": "/",
    "/desk/{file_path:path}": "/desk/desk.js",
    "/desk-sw.js": "/desk-sw.js",
    "/docs-assets/redoc.standalone.js": "/docs-assets/redoc.standalone.js",
    "/docs-assets/redoc/{file_path:path}": "/docs-assets/redoc/logo-mini.svg",
    "/docs-assets/swagger-ui/{file_path:path}": "/docs-assets/swagger-ui/swagger-ui.css",
}


def every_route(app: Litestar) -> list[tuple[str, str, str | None]]:
    """(method, path, operationId) of every route the app serves, but its schema pages."""
    found = []
    for route in app.routes:
        if not isinstance(route, HTTPRoute) or route.path.startswith("/schema"):
            continue
        for handler in route.route_handlers:
            for method in sorted(handler.http_methods - {"OPTIONS", "HEAD"}):
                op_id = None if route.path in DESK_FILES else operation_id_of(route.path)
                found.append((method, route.path, op_id))
    return found


@pytest.fixture
def locked_app(tmp_path: Path, redis_url: str, redis_prefix: str) -> Iterator[TestClient[Litestar]]:
    """An app on an empty cache whose every table's Redis lock another replica holds (so a
    load would wait up to DICEREF_REDIS_WAIT_TIMEOUT, 300 s, before solving)."""
    with redis.Redis.from_url(redis_url) as r:
        for spec in table_specs():
            if not spec.at_startup:  # Yardkle's 32 KB table is solved before requests
                r.set(f"{redis_prefix}lock:{spec.key.id}", "another-replica", px=120_000)
    settings = Settings(
        preload=(),
        cache_dir=str(tmp_path),
        redis_url=redis_url,
        redis_prefix=redis_prefix,
        redis_check_interval=60,
    )
    with TestClient(create_app(settings)) as client:
        yield client


def loaded_on_demand(client: TestClient[Litestar]) -> list[str]:
    """The built-in tables whose lock the fixture holds that are loaded (none may be)."""
    states = client.app.state.tables.states
    locked = [spec.key for spec in table_specs() if not spec.at_startup]
    return [str(key) for key in locked if key in states and states[key].status == "ready"]


def replay(client: TestClient[Litestar], method: str, path: str, example: Example | None) -> Any:
    if example is not None:
        for name, value in (example.path or {}).items():
            path = path.replace("{" + name + "}", value)
    if example is None or example.body is None:
        return client.request(method, path)
    return client.request(method, path, json=example.body)


def test_every_route_answers_at_once_while_every_table_is_locked_elsewhere(
    locked_app: TestClient[Litestar],
) -> None:
    examples = all_examples()
    routes = every_route(locked_app.app)
    assert len(routes) >= 16
    timings: dict[str, float] = {}
    for method, path, op_id in routes:
        if path in DESK_FILES:
            desk = locked_app.get(DESK_FILES[path])
            assert desk.status_code == 200, path
            continue
        if (method, path) in UNPUBLISHED:
            cases: list[Example | None] = [None]
        else:
            assert op_id in examples, f"{method} {path} has no example to audit it with"
            cases = list(examples[op_id])
        for example in cases:
            started = time.perf_counter()
            response = replay(locked_app, method, path, example)
            took = time.perf_counter() - started
            where = f"{method} {path} {example.name if example else ''}"
            assert response.status_code < 500 or response.status_code == 503, where
            # Answered while every locked table is still unloaded: it waited for none.
            assert not loaded_on_demand(locked_app), f"{where} answered after a table loaded"
            timings[where] = took
    # The game documents answered from nothing loaded, and asked for the loads.
    rules = locked_app.get("/games/yahtzee").json()
    assert rules["tables"] == "loading"
    assert rules["max_score"] is None and rules["optimal_expected_score"] is None
    statuses = {t["game"]: t["status"] for t in locked_app.get("/readyz").json()["tables"]}
    assert statuses["yahtzee"] in ("queued", "loading")
    slowest = max(timings, key=timings.__getitem__)
    print(f"{len(timings)} requests; slowest {slowest}: {timings[slowest] * 1000:.1f} ms")


def test_game_rules_fill_in_once_loaded(coach: TestClient[Litestar]) -> None:
    """The same document once the tables are in: both figures, `tables: "ready"`; games
    without tables give none of the three."""
    from helpers import loaded_rules

    rules = loaded_rules(coach, "chute-5")
    assert rules["tables"] == "ready" and rules["max_score"] == 99
    assert rules["optimal_expected_score"] > 0
    chicago = coach.get("/games/chicago").json()
    assert not {"tables", "max_score", "optimal_expected_score"} & set(chicago)
