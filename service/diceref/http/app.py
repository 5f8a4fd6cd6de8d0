"""The Litestar application: the operational routes, one router per game family, and the
problem-details error handlers.

The families come from `diceref.games.families.FAMILIES`; this file names none of them.
"""

from __future__ import annotations

import gc

from litestar import Litestar
from litestar.config.compression import CompressionConfig
from litestar.datastructures import State
from litestar.middleware import DefineMiddleware
from litestar.middleware.compression import CompressionMiddleware
from litestar.types import ControllerRouterHandler

from diceref.core import cache, kernel
from diceref.games.families import on_demand_built_in_specs, table_specs
from diceref.http.api_version import add_api_version
from diceref.http.cors import PreflightProblems, cors_config
from diceref.http.desk import desk_routes
from diceref.http.family import family_apis
from diceref.http.metrics import TableMetrics, metrics_middleware
from diceref.http.openapi import openapi_config
from diceref.http.problem_handlers import EXCEPTION_HANDLERS
from diceref.http.request_id import add_request_id, request_id_middleware
from diceref.http.routes import games, health, ops, rulesets
from diceref.logs import configure_logging
from diceref.settings import Settings
from diceref.tables.registry import TableRegistry
from diceref.tables.store import TableStore

SHARED_ROUTES: list[ControllerRouterHandler] = [
    health.healthz,
    health.healthz_head,
    ops.readyz,
    ops.prometheus_metrics,
    games.list_games,
    games.get_game,
    rulesets.ROUTER,
]


def routes() -> list[ControllerRouterHandler]:
    """The shared routes, each family's router in the order of `FAMILIES`, then the desk
    (the web page at `/` and its files, outside the OpenAPI document)."""
    return [*SHARED_ROUTES, *(api.router for api in family_apis().values()), *desk_routes()]


# Answers smaller than about one packet gain nothing from compression.  Brotli where the
# client accepts `br` (browsers do), else gzip.  Brotli's quality 1: higher qualities gain
# a few percent of size for several times the time (README, "Request ids, compression and
# caching", has the figures).
COMPRESSION = CompressionConfig(
    backend="brotli",
    minimum_size=1400,
    brotli_quality=1,
    gzip_compress_level=6,
    brotli_gzip_fallback=True,
)


def compression_middleware() -> DefineMiddleware:
    """Litestar's compression middleware with `COMPRESSION`, as app middleware rather than
    `compression_config`: Litestar puts the latter inside route middleware, where it would
    never see the answers of the lean JSON path (`diceref.http.lean`, a router middleware)."""
    return DefineMiddleware(CompressionMiddleware, config=COMPRESSION)


def create_app(
    settings: Settings | None = None, store: TableStore | None = None, freeze_heap: bool = False
) -> Litestar:
    """The service.  `freeze_heap` (the served app, not a test's): once the start-up tables
    are loaded, everything allocated so far is moved out of the garbage collector's sight
    (`gc.freeze`), so a full collection walks only what requests allocate since, instead
    of pausing a worker over the imports, the rules and the tables' index objects, none
    of which ever become garbage."""
    settings = settings or Settings.from_env()
    if settings.log_format is not None:
        configure_logging(settings.log_level, settings.log_format)
    kernel.use_cache(settings.tables.kernel_dir)
    registry = TableRegistry(
        store or TableStore(settings.tables),
        table_specs(),
        observer=TableMetrics(),
        owns_store=store is None,
        budget=cache.BUDGET,
        spare=on_demand_built_in_specs(),
    )

    async def start_tables(app: Litestar) -> None:
        await registry.start(settings.preload, settings.redis_check_interval)
        if freeze_heap:
            gc.collect()
            gc.freeze()

    async def stop_tables(app: Litestar) -> None:
        await registry.stop()

    app = Litestar(
        route_handlers=routes(),
        exception_handlers=EXCEPTION_HANDLERS,
        openapi_config=openapi_config(),
        on_startup=[start_tables],
        on_shutdown=[stop_tables],
        # outermost first: the request id, metrics (timing compression too), compression
        middleware=[request_id_middleware, metrics_middleware, compression_middleware()],
        before_send=[add_request_id, add_api_version],
        cors_config=cors_config(settings.cors_origins),
        request_max_body_size=settings.max_body_bytes,
        logging_config=None,  # diceref.logs configures logging, not Litestar
        state=State({"settings": settings, "tables": registry}),
        debug=False,
    )
    if app.cors_config is not None:
        # Litestar's CORS middleware answers outside the exception handlers: its refusals
        # are rewritten into problem+json around it (see diceref.http.cors).
        app.asgi_handler = PreflightProblems(app.asgi_handler)
    return app


app = create_app(freeze_heap=True)  # what `diceref serve` runs
