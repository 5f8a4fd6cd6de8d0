"""The Litestar application: route modules plus the problem-details error handlers.

Handlers stay thin: they decode a request Struct, call the rules or the tables, and encode a
response Struct.  Each game family brings its own route module; this file only lists them.
"""

from __future__ import annotations

from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.datastructures import State

from diceref.games.chicago.api import routes as chicago
from diceref.games.scorecard.api import holds, score, sheets
from diceref.games.yardkle.api import routes as yardkle
from diceref.http.metrics import metrics_middleware
from diceref.http.openapi import openapi_config
from diceref.http.problems import EXCEPTION_HANDLERS
from diceref.http.routes import games, health, ops
from diceref.logs import configure_logging
from diceref.settings import Settings
from diceref.tables.registry import TableRegistry
from diceref.tables.store import TableStore

ROUTES = [
    health.healthz,
    ops.readyz,
    ops.prometheus_metrics,
    games.list_games,
    games.get_game,
    score.score,
    holds.holds,
    sheets.check_scorecards,
    chicago.chicago_throw,
    chicago.chicago_round,
    chicago.chicago_game,
    chicago.chicago_holds,
    yardkle.yardkle_throws,
    yardkle.yardkle_turn,
    yardkle.yardkle_game,
    yardkle.yardkle_holds,
]


def cors_config(settings: Settings) -> CORSConfig | None:
    """CORS for the browser origins in DICEREF_CORS_ORIGINS; none configured, no CORS."""
    if not settings.cors_origins:
        return None
    return CORSConfig(
        allow_origins=list(settings.cors_origins),
        allow_methods=["GET", "POST", "OPTIONS"],
        allow_headers=["Content-Type", "Accept"],
        expose_headers=["Retry-After"],
        max_age=600,
    )


def create_app(settings: Settings | None = None, store: TableStore | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    if settings.log_format is not None:
        configure_logging(settings.log_level, settings.log_format)
    registry = TableRegistry(store or TableStore.from_env(), owns_store=store is None)

    async def start_tables(app: Litestar) -> None:
        await registry.start(settings.preload, settings.redis_check_interval)

    async def stop_tables(app: Litestar) -> None:
        await registry.stop()

    return Litestar(
        route_handlers=ROUTES,
        exception_handlers=EXCEPTION_HANDLERS,
        openapi_config=openapi_config(),
        on_startup=[start_tables],
        on_shutdown=[stop_tables],
        middleware=[metrics_middleware],
        cors_config=cors_config(settings),
        request_max_body_size=settings.max_body_bytes,
        logging_config=None,  # diceref.logs configures logging, not Litestar
        state=State({"settings": settings, "tables": registry}),
        debug=False,
    )


app = create_app()
