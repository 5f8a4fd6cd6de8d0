"""Operations endpoints and limits, in process: /healthz, /readyz, /metrics, the body limit
(413 problem), CORS, Yardkle's table through the registry, and that no request can make the
service compute a table inline (a full card, an inconsistent request, or a table not loaded:
422 or 503, never a solve on the request's path)."""

from __future__ import annotations

import asyncio
import contextlib
import mmap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from conftest import TEST_CACHE
from diceref.games.families import table_specs
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.tables import target_specs, value_spec
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES as YARDKLE
from diceref.games.yardkle.tables import policy_spec, solve_policy_table
from diceref.http.app import create_app
from diceref.settings import Settings
from diceref.tables.config import TableSettings
from diceref.tables.key import TableKey
from diceref.tables.registry import TableRegistry, group_of
from diceref.tables.spec import load_sync
from diceref.tables.store import Compute, LoadedTable, TableStore
from helpers import fill
from live_server import parse_metrics

PROBLEM = "application/problem+json"
Client = TestClient[Litestar]


class GatedStore(TableStore):
    """A store whose value-table loads wait until the test opens the gate."""

    def __init__(self, settings: TableSettings) -> None:
        super().__init__(settings)
        self.gate = threading.Event()
        self.asked: list[str] = []

    async def get(
        self,
        key: TableKey,
        compute: Compute,
        *,
        shape: tuple[int | None, ...] | None = None,
        ttl: int | None = None,
        dtype: str = "<f8",
        in_redis: bool = True,
    ) -> LoadedTable:
        if key.kind == "value":
            self.asked.append(key.game)
            while not self.gate.is_set():
                await asyncio.sleep(0.01)
        return await super().get(key, compute, shape=shape, ttl=ttl, dtype=dtype, in_redis=in_redis)


@contextlib.contextmanager
def gate_opens_late(store: GatedStore, after: float = 30) -> Iterator[None]:
    """Opens the store's gate after `after` seconds: only a hang guard, so that a request
    which wrongly waits for a load ends; the test asserts the gate was still shut when the
    answer came (the answer did not wait), never how long it took."""
    timer = threading.Timer(after, store.gate.set)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def settings(**changes: Any) -> Settings:
    return Settings(**({"preload": (), "retry_after_seconds": 2} | changes))


@pytest.fixture
def gated(tmp_path: Path) -> GatedStore:
    """A gated store on an empty disk cache (so any load would have to compute)."""
    return GatedStore(TableSettings(cache_dir=tmp_path))


def wait_for(check: Callable[[], bool], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    return body


# --- liveness and readiness --------------------------------------------------------------


def test_healthz_needs_no_dependency(tmp_path: Path) -> None:
    """Redis unreachable and tables still loading: liveness answers at once anyway."""
    store = GatedStore(
        TableSettings(
            cache_dir=tmp_path, redis_url="redis://127.0.0.1:1/0", redis_connect_timeout=0.2
        )
    )
    app = create_app(settings(preload=("chute-5",), redis_check_interval=0.2), store=store)
    with TestClient(app) as client, gate_opens_late(store):
        response = client.get("/healthz")
        assert not store.gate.is_set()  # answered while the load is held
        assert response.status_code == 200 and response.json()["status"] == "ok"
        wait_for(lambda: client.get("/readyz").json()["redis"] == "down")
        assert client.get("/readyz").status_code == 503
        store.gate.set()


def test_readyz_is_503_until_the_configured_tables_are_loaded() -> None:
    source = TableStore(TableSettings(cache_dir=TEST_CACHE))
    for spec in table_specs(("chute-5",)):  # on the disk cache, whatever ran before
        if spec.game == "chute-5":
            load_sync(source, spec)
    store = GatedStore(TableSettings(cache_dir=TEST_CACHE))
    app = create_app(settings(preload=("chute-5",)), store=store)
    with TestClient(app) as client:
        response = client.get("/readyz")
        assert response.status_code == 503
        body = response.json()
        assert body["status"] == "loading" and body["redis"] == "disabled"
        rows = {(t["kind"], t["game"]): t for t in body["tables"]}
        assert rows[("policy", "yardkle")]["status"] == "ready"  # loaded before serving
        assert rows[("value", "chute-5")]["status"] in ("queued", "loading")
        assert rows[("value", "chute-5")]["required"] is True
        assert ("value", "yahtzee") not in rows  # neither configured nor asked for
        store.gate.set()
        wait_for(lambda: client.get("/readyz").status_code == 200)
        body = client.get("/readyz").json()
        assert body["status"] == "ready"
        rows = {(t["kind"], t["game"]): t for t in body["tables"]}
        for kind in ("value", "max"):
            assert rows[(kind, "chute-5")]["status"] == "ready"
            assert rows[(kind, "chute-5")]["source"] == "disk"
            assert rows[(kind, "chute-5")]["seconds"] >= 0
        assert rows[("policy", "yardkle")]["source"] in ("disk", "computed")


# --- metrics -----------------------------------------------------------------------------


def test_metrics_count_requests_by_route_template(coach: Client) -> None:
    before = parse_metrics(coach.get("/metrics").text)
    for _ in range(3):
        assert coach.get("/games/chute-5").status_code == 200
    assert coach.post("/score", json={"game": "yahtzee", "dice": [1, 1, 1, 1, 9]}).status_code
    response = coach.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    after = parse_metrics(response.text)

    def grew(name: str, **labels: str) -> float:
        key = (name, frozenset(labels.items()))
        return after.get(key, 0.0) - before.get(key, 0.0)

    games = {"method": "GET", "route": "/games/{game}"}
    assert grew("diceref_http_requests_total", **games, status="200") == 3
    assert grew("diceref_http_request_duration_seconds_count", **games) == 3
    assert grew("diceref_http_requests_total", method="POST", route="/score", status="400") == 1
    assert not any("/games/chute-5" in dict(labels).get("route", "") for _, labels in after)
    names = {name for name, _ in after}
    for name in (
        "diceref_table_loads_total",
        "diceref_table_load_seconds_count",
        "diceref_redis_errors_total",
        "diceref_tables_corrupt_total",
    ):
        assert name in names, name


def test_table_loads_are_counted_by_source() -> None:
    before = parse_metrics(_metrics_now())
    store = TableStore(TableSettings(cache_dir=TEST_CACHE))
    app = create_app(settings(preload=("chute-5",)), store=store)
    with TestClient(app) as client:
        wait_for(lambda: client.get("/readyz").status_code == 200)
        after = parse_metrics(client.get("/metrics").text)
    for kind in ("value", "max"):
        key = (
            "diceref_table_loads_total",
            frozenset({"kind": kind, "game": "chute-5", "source": "disk"}.items()),
        )
        assert after[key] - before.get(key, 0.0) == 1


def _metrics_now() -> str:
    from diceref.http.metrics import render

    return render()[0].decode()


# --- request limits ----------------------------------------------------------------------


@pytest.fixture
def small_limit() -> Iterator[Client]:
    app = create_app(settings(max_body_bytes=1024), store=TableStore(TableSettings(TEST_CACHE)))
    with TestClient(app) as client:
        yield client


def test_a_body_over_the_limit_is_a_413_problem(small_limit: Client) -> None:
    big = b'{"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "pad": "' + b"x" * 2000 + b'"}'
    response = small_limit.post("/score", content=big, headers={"content-type": "application/json"})
    body = problem(response, 413)
    assert body["type"].endswith("/body-too-large")
    assert "1024 bytes" in body["detail"] and body["instance"] == "/score"

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit counts streamed bytes
        yield big[:1000]
        yield big[1000:]

    response = small_limit.post(
        "/score", content=chunks(), headers={"content-type": "application/json"}
    )
    problem(response, 413)
    # under the limit the body is read and judged as usual
    ok = small_limit.post("/score", json={"game": "yahtzee", "dice": [1, 2, 3, 4, 5]})
    assert ok.status_code == 200


def test_default_limit_is_64_kib() -> None:
    assert Settings.from_env({}).max_body_bytes == 65536


# --- CORS --------------------------------------------------------------------------------


def test_cors_allows_only_the_configured_origins() -> None:
    origin = "https://board.example"
    app = create_app(
        settings(cors_origins=(origin,)), store=TableStore(TableSettings(cache_dir=TEST_CACHE))
    )
    with TestClient(app) as client:
        preflight = client.options(
            "/score",
            headers={
                "Origin": origin,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type",
            },
        )
        assert preflight.status_code in (200, 204)
        assert preflight.headers["access-control-allow-origin"] == origin
        assert "POST" in preflight.headers["access-control-allow-methods"]
        response = client.post(
            "/score", json={"game": "yahtzee", "dice": [1, 2, 3, 4, 5]}, headers={"Origin": origin}
        )
        assert response.headers["access-control-allow-origin"] == origin
        assert "retry-after" in response.headers["access-control-expose-headers"].lower()
        other = client.options(
            "/score",
            headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
        )
        assert other.headers.get("access-control-allow-origin") != "https://evil.example"
        simple = client.post(
            "/score",
            json={"game": "yahtzee", "dice": [1, 2, 3, 4, 5]},
            headers={"Origin": "https://evil.example"},
        )
        assert "access-control-allow-origin" not in simple.headers


def test_no_cors_headers_without_configured_origins(client: Client) -> None:
    response = client.post(
        "/score",
        json={"game": "yahtzee", "dice": [1, 2, 3, 4, 5]},
        headers={"Origin": "https://board.example"},
    )
    assert "access-control-allow-origin" not in response.headers


def test_cors_origins_from_the_environment() -> None:
    env = {"DICEREF_CORS_ORIGINS": "https://a.example, https://b.example/"}
    assert Settings.from_env(env).cors_origins == ("https://a.example", "https://b.example")


# --- no table is ever computed on a request's path ---------------------------------------


CHUTE_FULL = fill("chute-5", {}, set())


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"game": "chute-5", "dice": [1, 2, 3, 4, 5], "throws_left": 0,
          "scorecard": {"filled": CHUTE_FULL}}, "scorecard.filled"),
        ({"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throws_left": 2, "throw": 3}, "throw"),
        ({"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throws_left": 0,
          "scorecard": {"filled": {"sixes": 7}}}, "scorecard.filled.sixes"),
        ({"game": "yahtzee", "dice": [1, 2, 3, 4, 5], "throws_left": 0,
          "scorecard": {"filled": {"yahtzee": 0}, "extra_bonus": 100}}, "scorecard.extra_bonus"),
        ({"game": "dice-poker", "dice": [1, 2, 3, 4, 5], "throws_left": 1,
          "scorecard": {"filled": {"nine": 3}}}, "scorecard.filled.nine"),
    ],
)  # fmt: skip
def test_a_full_card_or_an_inconsistent_request_never_loads_a_table(
    gated: GatedStore, payload: dict[str, Any], field: str
) -> None:
    app = create_app(settings(), store=gated)
    with TestClient(app) as client:
        loads = gated.stats().loads  # Yardkle's table, loaded at startup
        body = problem(client.post("/holds", json=payload), 422)
        assert body["errors"][0]["field"] == field
        time.sleep(0.05)
        registry: TableRegistry = app.state.tables
        on_demand = [s for k, s in registry.states.items() if not registry.specs[k].at_startup]
        assert on_demand and all(s.status == "missing" for s in on_demand)
        assert gated.asked == []
        assert gated.stats().loads == loads


def test_a_missing_table_is_a_503_and_a_background_load(gated: GatedStore) -> None:
    app = create_app(settings(), store=gated)
    payload = {"game": "chute-5", "dice": [1, 2, 3, 4, 5], "throws_left": 1}
    with TestClient(app) as client, gate_opens_late(gated):
        response = client.post("/holds", json=payload)
        assert not gated.gate.is_set()  # answered without waiting for the load
        body = problem(response, 503)
        assert response.headers["retry-after"] == "2" and body["retry_after"] == 2
        wait_for(lambda: gated.asked == ["chute-5"])  # queued in the background
        computed = gated.stats().loads["computed"]  # Yardkle's, at startup
        assert client.post("/holds", json=payload).status_code == 503
        assert gated.stats().loads["computed"] == computed  # blocked there: nothing inline
        gated.gate.set()
        wait_for(lambda: client.post("/holds", json=payload).status_code == 200)
        assert gated.stats().loads["computed"] > computed  # computed by the background load
        assert gated.asked == ["chute-5"]


def test_yardkle_holds_is_a_503_until_its_table_is_installed(
    monkeypatch: pytest.MonkeyPatch, client: Client
) -> None:
    payload = {"dice": [1, 5, 2, 3, 4, 6], "turn_points": 0, "on_pad": True}
    assert client.post("/yardkle/holds", json=payload).status_code == 200
    registry: TableRegistry = client.app.state.tables
    spec = policy_spec(YARDKLE)
    monkeypatch.setattr(registry, "_tables", {})
    monkeypatch.setitem(registry._group_status, group_of(spec), "missing")
    registry.states[spec.key].status = "missing"
    response = client.post("/yardkle/holds", json=payload)
    body = problem(response, 503)
    assert body["type"].endswith("/table-loading") and response.headers["retry-after"] == "2"
    wait_for(lambda: client.post("/yardkle/holds", json=payload).status_code == 200)
    assert registry.states[spec.key].status == "ready"


def test_play_to_win_tables_already_on_disk_are_mapped_at_start_up(tmp_path: Path) -> None:
    """A built-in game's play-to-win tables left on disk (by `diceref precompute --target`)
    are loaded when the server starts, so their first request is answered; those not on disk
    are left to be solved on demand, and readiness waits for neither."""
    ruleset = _chute_5_tables_on_disk(tmp_path)
    store = TableStore(TableSettings(cache_dir=tmp_path))
    app = create_app(settings(preload=("chute-5",)), store=store)
    with TestClient(app) as client:
        registry: TableRegistry = app.state.tables
        for spec in target_specs(ruleset):
            wait_for(lambda spec=spec: registry.states[spec.key].status == "ready")
            assert registry.states[spec.key].source == "disk"
        others = [s for g in ("yahtzee", "yatzy") for s in target_specs(SCORECARD_GAMES[g])]
        assert all(s.key not in registry.states for s in others)
        card = {"filled": {b.id: 0 for b in ruleset.boxes[1:]}, "extra_bonus": 0}
        body = {"game": "chute-5", "scorecard": card, "target": 30}
        answer = client.post("/distributions", json=body)
        assert answer.status_code == 200, answer.text
        assert answer.json()["play"] == "target"


def _chute_5_tables_on_disk(cache_dir: Path) -> Ruleset:
    """Chute-5's value and play-to-win tables copied into `cache_dir` (as `diceref
    precompute --target chute-5` leaves them), solved once in the shared test cache."""
    ruleset = SCORECARD_GAMES["chute-5"]
    source = TableStore(TableSettings(cache_dir=TEST_CACHE))
    for spec in (value_spec(ruleset), *target_specs(ruleset)):
        load_sync(source, spec)
        name = source.disk.path(spec.key).name
        (cache_dir / "tables").mkdir(exist_ok=True)
        (cache_dir / "tables" / name).write_bytes((TEST_CACHE / "tables" / name).read_bytes())
    return ruleset


def test_mapped_play_to_win_tables_do_not_count_against_the_on_demand_memory_bound(
    tmp_path: Path,
) -> None:
    """A built-in game's play-to-win tables mapped at start-up stay served however small the
    house rules' memory bound: they are not what the bound is for (shared file mappings, a
    few per game), so house rules solved after them neither evict them nor are evicted by
    them."""
    ruleset = _chute_5_tables_on_disk(tmp_path)
    store = TableStore(TableSettings(cache_dir=tmp_path, on_demand_memory_bytes=1))
    app = create_app(settings(preload=("chute-5",)), store=store)
    with TestClient(app) as client:
        registry: TableRegistry = app.state.tables
        wait_for(
            lambda: all(registry.states[s.key].status == "ready" for s in target_specs(ruleset))
        )
        house = {
            "game": "chute-5",
            "dice": [1, 1, 1, 2, 3],
            "throws_left": 1,
            "rules": {"notches": [10] * 12},
        }
        wait_for(lambda: client.post("/holds", json=house).status_code == 200, timeout=60)
        for spec in target_specs(ruleset):
            assert registry.states[spec.key].status == "ready"
            assert registry.states[spec.key].source == "disk"  # never evicted, never solved
        card = {"filled": {b.id: 0 for b in ruleset.boxes[1:]}, "extra_bonus": 0}
        body = {"game": "chute-5", "scorecard": card, "target": 30}
        answer = client.post("/distributions", json=body)
        assert answer.status_code == 200, answer.text


def test_yardkle_table_goes_through_the_store(tmp_path: Path) -> None:
    """Computed once and written to the disk cache; the next process reads it from disk."""
    first = TableStore(TableSettings(cache_dir=tmp_path))
    with TestClient(create_app(settings(), store=first)) as client:
        rows = {(t["kind"], t["game"]): t for t in client.get("/readyz").json()["tables"]}
        assert rows[("policy", "yardkle")]["source"] == "computed"
    assert list((tmp_path / "tables").glob("policy-yardkle-*.dtbl"))
    second = TableStore(TableSettings(cache_dir=tmp_path))
    app = create_app(settings(), store=second)
    with TestClient(app) as client:
        rows = {(t["kind"], t["game"]): t for t in client.get("/readyz").json()["tables"]}
        assert rows[("policy", "yardkle")]["source"] == "disk"
        served = app.state.tables.table(policy_spec(YARDKLE))
        np.testing.assert_array_equal(served, solve_policy_table(YARDKLE))


def _mapped(array: np.ndarray) -> bool:
    base: object = array
    while isinstance(base, np.ndarray):
        base = base.base
    if isinstance(base, memoryview):
        base = base.obj
    return isinstance(base, mmap.mmap)


def test_a_computed_table_is_served_from_the_shared_file_mapping(tmp_path: Path) -> None:
    """After a solve, the registry switches to the disk file's mapping (shared by the workers
    of a host) instead of keeping its private copy."""
    store = TableStore(TableSettings(cache_dir=tmp_path))
    app = create_app(settings(preload=("chute-5",)), store=store)
    with TestClient(app) as client:
        wait_for(lambda: client.get("/readyz").status_code == 200, timeout=60)
        registry: TableRegistry = app.state.tables
        spec = value_spec(SCORECARD_GAMES["chute-5"])
        assert registry.states[spec.key].source == "computed"
        wait_for(lambda: _mapped(registry.table(spec)))
        assert not registry.require(spec).flags.writeable


class SwallowingStore(TableStore):
    """A store whose Redis ping swallows a cancellation, as redis-py can."""

    async def redis_ping(self) -> bool | None:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            return False  # the bug being guarded against: the cancel is lost
        return True


def test_shutdown_is_bounded_when_redis_swallows_a_cancellation(tmp_path: Path) -> None:
    store = SwallowingStore(TableSettings(cache_dir=TEST_CACHE, redis_url="redis://127.0.0.1:1/0"))
    registry = TableRegistry(store, table_specs(), owns_store=False)

    async def run() -> float:
        await registry.start((), redis_check_interval=0.05)
        await asyncio.sleep(0.1)  # the watchdog is inside its (endless) ping now
        started = time.perf_counter()
        await registry.stop()
        return time.perf_counter() - started

    took: list[float] = []
    # In a thread of its own, so that a regression fails the test instead of hanging it.
    thread = threading.Thread(target=lambda: took.append(asyncio.run(run())), daemon=True)
    thread.start()
    thread.join(15)  # a hang guard: stop() bounds its own wait for the watchdog
    assert not thread.is_alive(), "shutdown hangs"
    print(f"stopped in {took[0]:.2f} s")


def test_a_refused_preflight_is_a_problem_naming_what_was_refused() -> None:
    origin = "https://board.example"
    app = create_app(
        settings(cors_origins=(origin,)), store=TableStore(TableSettings(cache_dir=TEST_CACHE))
    )
    with TestClient(app) as client:
        traced = client.options(
            "/score",
            headers={
                "Origin": origin,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type, traceparent, tracestate, "
                "x-request-id",
            },
        )
        assert traced.status_code in (200, 204), traced.text
        allowed = traced.headers["access-control-allow-headers"].lower()
        assert {"traceparent", "tracestate", "x-request-id"} <= set(
            allowed.replace(" ", "").split(",")
        )
        refused = client.options(
            "/score",
            headers={
                "Origin": "https://evil.example",
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "x-secret",
            },
        )
        assert refused.status_code == 400
        assert refused.headers["content-type"] == "application/problem+json"
        problem = refused.json()
        assert problem["type"].endswith("/cors-rejected")
        assert {e["code"] for e in problem["errors"]} == {"cors_origin", "cors_headers"}
        assert problem["instance"] == "/score"


def test_only_the_served_app_freezes_its_start_up_heap() -> None:
    """`diceref serve`'s app moves what start-up allocated out of the collector's sight (a
    full collection then pauses a worker for what requests allocated, not 40-80 ms); an app
    a test builds does not, since a test process's garbage would then never be freed."""
    import gc

    from conftest import TEST_CACHE
    from diceref.http import app as served
    from diceref.settings import Settings
    from diceref.tables.store import TableSettings, TableStore

    def started(freeze_heap: bool) -> int:
        app = served.create_app(
            Settings(preload=()),
            store=TableStore(TableSettings(cache_dir=TEST_CACHE)),
            freeze_heap=freeze_heap,
        )
        with TestClient(app) as client:
            assert client.get("/healthz").status_code == 200
            return gc.get_freeze_count()

    gc.unfreeze()
    try:
        assert started(freeze_heap=False) == 0
        assert started(freeze_heap=True) > 100_000
    finally:
        gc.unfreeze()
    assert served.app.on_startup and "freeze_heap=True" in Path(served.__file__).read_text()
