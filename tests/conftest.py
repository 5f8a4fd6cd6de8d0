"""Shared fixtures.

Solved tables come from the real tables store with a disk cache that outlives the run
(`.cache/` in the repository, or DICEREF_TEST_CACHE), so the suite solves each game at most
once and later runs load it in milliseconds.  Redis tests talk to the real server at
REDIS_URL, each under its own key prefix that is deleted afterwards.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from litestar import Litestar
from litestar.testing import TestClient

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
TEST_CACHE = Path(os.environ.get("DICEREF_TEST_CACHE", Path(__file__).parent.parent / ".cache"))
# The module-level `diceref.http.app:app` reads the environment when first imported: in tests
# it preloads nothing and shares the test disk cache (tests that start servers pass their own).
os.environ.setdefault("DICEREF_PRELOAD", "none")
os.environ.setdefault("DICEREF_CACHE_DIR", str(TEST_CACHE))

from diceref.core.arrays import FloatArray  # noqa: E402
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant  # noqa: E402
from diceref.games.scorecard.rules.ruleset import Ruleset  # noqa: E402
from diceref.games.scorecard.tables import target_specs, value_spec  # noqa: E402
from diceref.http.app import create_app  # noqa: E402
from diceref.settings import Settings  # noqa: E402
from diceref.tables.config import TableSettings  # noqa: E402
from diceref.tables.registry import SolveQueueFull, TableRegistry  # noqa: E402
from diceref.tables.spec import TableSpec, load_sync  # noqa: E402
from diceref.tables.store import TableStore  # noqa: E402
from helpers import in_ci, put_values  # noqa: E402
from redis_server import PrivateRedis, private_redis_server  # noqa: E402


def _in_ci() -> bool:
    return in_ci()


@pytest.fixture(autouse=True)
def private_temporary_directory(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test's own temporary directory: a store whose cache directory cannot be written
    falls back to one under it (`diceref.tables.disk.fallback_directory`), which must not
    outlive the test or be shared between tests."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path_factory.mktemp("tmp")))


@pytest.fixture(scope="session")
def redis_url() -> str:
    """REDIS_URL (default local); no server fails the test under CI=true, else skips it."""
    url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    try:
        with redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2) as client:
            client.ping()
    except (redis.RedisError, OSError) as exc:
        message = f"no Redis answers at {url} ({exc}); start one or set REDIS_URL"
        if _in_ci():
            pytest.fail(message)
        pytest.skip(message)
    return url


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A fresh key prefix; every key under it is deleted after the test."""
    prefix = f"diceref-test:{uuid.uuid4().hex}:"
    yield prefix
    with redis.Redis.from_url(redis_url) as client:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)


def make_test_store() -> TableStore:
    """A store on the shared test disk cache, without Redis (tests that need Redis make
    their own under their own prefix)."""
    return TableStore(TableSettings(cache_dir=TEST_CACHE))


@pytest.fixture(scope="session")
def solved() -> Callable[[str], FloatArray]:
    store = make_test_store()
    memo: dict[str, FloatArray] = {}

    def get(game: str) -> FloatArray:
        if game not in memo:
            memo[game] = load_sync(store, value_spec(SCORECARD_GAMES[game])).array
        return memo[game]

    return get


@pytest.fixture(scope="session")
def solved_ruleset() -> Callable[[Ruleset], FloatArray]:
    """`solved` for any ruleset (a game built with parameters), on the same disk cache:
    tables are keyed by the rules' hash, so a variant is solved once across runs."""
    store = make_test_store()
    memo: dict[str, FloatArray] = {}

    def get(ruleset: Ruleset) -> FloatArray:
        if ruleset.rules_hash not in memo:
            memo[ruleset.rules_hash] = load_sync(store, value_spec(ruleset)).array
        return memo[ruleset.rules_hash]

    return get


@pytest.fixture(scope="session")
def app() -> Litestar:
    """An app that loads no value table by itself (tests put the ones they need)."""
    return create_app(Settings(preload=(), retry_after_seconds=2), store=make_test_store())


@pytest.fixture
def client(app: Litestar) -> Iterator[TestClient[Litestar]]:
    with TestClient(app) as c:
        yield c


# The ruleset whose play-to-win tables the examples use: quick to solve (Yatzy's forced
# order leaves one box to fill each turn).
PLAY_TO_WIN_RULESET = ("yatzy", {"order": "forced"})


@pytest.fixture(scope="session")
def play_to_win() -> list[tuple[TableSpec, FloatArray]]:
    """The value, distribution and win tables of `PLAY_TO_WIN_RULESET`, from the test disk
    cache (solved there once)."""
    game, rules = PLAY_TO_WIN_RULESET
    ruleset = variant(game, **rules)
    store = make_test_store()
    specs = (value_spec(ruleset), *target_specs(ruleset))
    return [(spec, load_sync(store, spec).array) for spec in specs]


@pytest.fixture
def coach(
    app: Litestar,
    solved: Callable[[str], FloatArray],
    play_to_win: list[tuple[TableSpec, FloatArray]],
) -> Iterator[TestClient[Litestar]]:
    """A client whose app holds every scorecard game's table, and the play-to-win tables of
    `PLAY_TO_WIN_RULESET`."""
    for game in SCORECARD_GAMES:
        put_values(app, game, solved(game))
    for spec, table in play_to_win:
        app.state.tables.put(spec, table, "memory")
    with TestClient(app) as c:
        yield c


def make_test_app(
    retry_after_seconds: int = 5, solve_queue_size: int = 8, cache_dir: Path = TEST_CACHE
) -> Litestar:
    """A fresh app of a test's own on the test store (or a disk cache of its own), loading
    no table by itself; by default with the service's default Retry-After, as published in
    the examples."""
    settings = Settings(
        preload=(), retry_after_seconds=retry_after_seconds, solve_queue_size=solve_queue_size
    )
    store = TableStore(TableSettings(cache_dir=cache_dir, solve_queue_size=solve_queue_size))
    return create_app(settings, store=store)


@contextlib.contextmanager
def busy_solver(client: TestClient[Litestar]) -> Iterator[None]:
    """The registry's on-demand solver busy and its queue full, until the block ends:
    rulesets that solve by waiting for an event (in the registry's thread, as they do not
    pickle), admitted until the queue refuses one.  Admitted on the app's event loop, as a
    request would be (an asyncio queue does not wake its worker from another thread)."""
    registry: TableRegistry = client.app.state.tables

    def admit(spec: TableSpec) -> None:
        client.blocking_portal.call(registry.admit, (spec,))

    release = threading.Event()

    def wait(_: object) -> FloatArray:
        release.wait(60)
        raise RuntimeError("released")  # a failed solve: nothing is written to the cache

    def busy() -> TableSpec:
        return TableSpec("value", "busy", uuid.uuid4().hex[:16], "test", (1,), wait)

    try:
        first = busy()
        admit(first)
        deadline = time.monotonic() + 30
        while registry.status_of(first).status != "solving":  # the worker has taken it
            assert time.monotonic() < deadline, registry.status_of(first)
            time.sleep(0.01)
        for _ in range(100):
            try:
                admit(busy())
            except SolveQueueFull:
                break
        else:
            raise AssertionError("the solve queue never filled")
        yield
    finally:
        release.set()


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A redis-server of the test's own, which it may stop and start again."""
    yield from private_redis_server(tmp_path)
