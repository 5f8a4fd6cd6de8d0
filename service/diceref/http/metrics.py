"""Prometheus metrics: requests and latency by route, table loads by source, store errors.

Several granian workers are several processes.  `diceref serve --workers N` (N > 1) sets
`PROMETHEUS_MULTIPROC_DIR` before any worker starts, so every worker writes its samples to
files there and `GET /metrics`, whichever worker answers it, sums them over all workers.
Without that variable (one worker, tests) the numbers are those of the one process.

The request middleware is a plain ASGI wrapper that looks labels up in a dict: a few
microseconds per request, so that `/score` keeps its throughput.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from litestar.enums import ScopeType
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as prometheus_multiprocess

from diceref.tables.stats import StoreStats

if TYPE_CHECKING:
    from litestar.types import ASGIApp, Message, Receive, Scope, Send

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
UNMATCHED = "unmatched"

REQUESTS = Counter(
    "diceref_http_requests",
    "HTTP requests answered, by method, route template and status code",
    ["method", "route", "status"],
)
LATENCY = Histogram(
    "diceref_http_request_duration_seconds",
    "Time from receiving a request to sending the end of its response, by route template",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
TABLE_LOADS = Counter(
    "diceref_table_loads",
    "Tables loaded into a worker, by kind, game and where they came from "
    "(disk, redis, computed; memory when another load in the same worker had it)",
    ["kind", "game", "source"],
)
TABLE_LOAD_SECONDS = Histogram(
    "diceref_table_load_seconds",
    "Wall time of those loads, by kind, game and source",
    ["kind", "game", "source"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0),
)
TABLE_LOAD_FAILURES = Counter(
    "diceref_table_load_failures", "Table loads that failed (retried later)", ["kind", "game"]
)
REDIS_ERRORS = Counter(
    "diceref_redis_errors", "Failed Redis operations (each one treated as a cache miss)"
)
REDIS_UP = Gauge(
    "diceref_redis_up",
    "1 if Redis answered the last check, 0 if not (absent without REDIS_URL)",
    multiprocess_mode="mostrecent",
)
TABLES_CORRUPT = Counter(
    "diceref_tables_corrupt",
    "Stored tables found damaged or foreign (wrong key, size or checksum) and discarded",
    ["layer"],
)
TABLE_DISK_ERRORS = Counter(
    "diceref_table_disk_errors", "Failed table reads or writes on disk other than corruption"
)
TABLE_WAITS = Counter(
    "diceref_table_waits", "Table loads that waited for another replica's or worker's computation"
)
TABLES_PUBLISHED = Counter(
    "diceref_tables_published", "Tables written back to Redis after Redis had lost them"
)
SOLVER_POOL_RESTARTS = Counter(
    "diceref_solver_pool_restarts",
    "House-rules solver pools replaced after one of their processes died (killed, out of "
    "memory); the solves it held were solved again in the new one",
)


class TableMetrics:
    """The tables registry's `LoadObserver`: loads, failures, Redis state and what
    `TableStore.stats()` counted since the last call, as Prometheus samples (the registry
    and the store themselves stay free of any metrics library)."""

    def __init__(self) -> None:
        self._last: StoreStats | None = None

    def loaded(self, kind: str, game: str, source: str, seconds: float) -> None:
        TABLE_LOADS.labels(kind, game, source).inc()
        TABLE_LOAD_SECONDS.labels(kind, game, source).observe(seconds)

    def failed(self, kind: str, game: str) -> None:
        TABLE_LOAD_FAILURES.labels(kind, game).inc()

    def redis_up(self, up: bool) -> None:
        REDIS_UP.set(1 if up else 0)

    def solver_pool_restarted(self) -> None:
        SOLVER_POOL_RESTARTS.inc()

    def store_stats(self, stats: StoreStats) -> None:
        last, self._last = self._last, stats
        pairs: list[tuple[Counter, int, int]] = [
            (REDIS_ERRORS, stats.redis_errors, last.redis_errors if last else 0),
            (TABLE_DISK_ERRORS, stats.disk_errors, last.disk_errors if last else 0),
            (TABLE_WAITS, stats.waits, last.waits if last else 0),
            (TABLES_PUBLISHED, stats.published, last.published if last else 0),
        ]
        for layer, count in stats.corrupt.items():
            before = last.corrupt.get(layer, 0) if last else 0
            pairs.append((TABLES_CORRUPT.labels(layer), count, before))
        for counter, now, before in pairs:
            if now > before:
                counter.inc(now - before)


def render() -> tuple[bytes, str]:
    """The exposition text of every worker (multiprocess mode) or of this process."""
    directory = os.environ.get(MULTIPROC_ENV)
    if directory:
        registry = CollectorRegistry()
        prometheus_multiprocess.MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def metrics_middleware(app: ASGIApp) -> ASGIApp:
    """Count and time every HTTP request by method, route template and status.

    Litestar applies it after routing, so `scope["path_template"]` names the route
    (`/games/{game}`), never the raw path: the label set stays small.
    """
    counters: dict[tuple[str, str, int], Counter] = {}
    timers: dict[tuple[str, str], Histogram] = {}
    clock = time.perf_counter

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await app(scope, receive, send)
            return
        start = clock()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await app(scope, receive, send_status)
        finally:
            seconds = clock() - start
            method = scope["method"]
            route = scope.get("path_template") or UNMATCHED
            counter = counters.get((method, route, status))
            if counter is None:
                counter = counters[(method, route, status)] = REQUESTS.labels(
                    method, route, str(status)
                )
            counter.inc()
            timer = timers.get((method, route))
            if timer is None:
                timer = timers[(method, route)] = LATENCY.labels(method, route)
            timer.observe(seconds)

    return middleware
