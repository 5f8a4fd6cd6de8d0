"""Operations: readiness (`GET /readyz`) and Prometheus metrics (`GET /metrics`).

Liveness is `GET /healthz` (routes/health.py), which touches nothing.  Readiness is about the
tables: the service is ready when Yardkle's table and every table of the games named in
`DICEREF_PRELOAD` are in memory.  Redis is reported but never needed: without it the
service computes or reads its disk cache.
"""

from __future__ import annotations

import msgspec
from litestar import Request, Response, get
from litestar.handlers import HTTPRouteHandler

from diceref.http import metrics
from diceref.tables.registry import TableRegistry


class TableOut(msgspec.Struct):
    kind: str
    game: str
    status: str
    required: bool
    source: str | None
    seconds: float | None
    error: str | None = None


class Readiness(msgspec.Struct):
    status: str  # ready, loading
    redis: str  # up, down, unknown (not checked yet), disabled (no REDIS_URL)
    tables: list[TableOut]
    # House-rules tables (solved on demand, never waited for): how many in each status.
    on_demand: dict[str, int] = {}


def _probe(path: str, summary: str) -> HTTPRouteHandler:
    """A GET for the orchestrator, on the event loop.  Its body describes this process
    (its tables' sources and load seconds, its metrics), so it has no stable example to
    publish: outside the OpenAPI document, the README's Operations section documents it."""
    return get(
        path, summary=summary, tags=["operations"], sync_to_thread=False, include_in_schema=False
    )


NO_STORE = {"Cache-Control": "no-store"}


@_probe("/readyz", "Readiness")
def readyz(request: Request) -> Response[Readiness]:  # type: ignore[type-arg]
    """200 once the configured tables are loaded (503 before), with every table's status and
    where it came from (disk, redis, computed)."""
    registry: TableRegistry = request.app.state.tables
    required = {(s.kind, s.game) for s in registry.required()}
    tables = [
        TableOut(
            s.kind,
            s.game,
            s.status,
            (s.kind, s.game) in required,
            s.source,
            None if s.seconds is None else round(s.seconds, 4),
            s.error,
        )
        for s in registry.all_states()
        if s.status != "missing" or (s.kind, s.game) in required
    ]
    if registry.store.redis is None:
        redis = "disabled"
    else:
        redis = {None: "unknown", True: "up", False: "down"}[registry.redis_up]
    ready = registry.ready()
    body = Readiness("ready" if ready else "loading", redis, tables, registry.on_demand_counts())
    return Response(body, status_code=200 if ready else 503, headers=NO_STORE)


@_probe("/metrics", "Prometheus metrics")
def prometheus_metrics(request: Request) -> Response[bytes]:  # type: ignore[type-arg]
    """Requests and latency by route, table loads by source and time, Redis errors."""
    registry: TableRegistry = request.app.state.tables
    registry.observer.store_stats(registry.store.stats())
    body, content_type = metrics.render()
    return Response(body, media_type=content_type, headers=NO_STORE)
