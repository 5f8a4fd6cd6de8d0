"""The Litestar application: route modules plus the problem-details error handlers.

Handlers stay thin: they decode a request Struct, call the rules or the tables, and encode a
response Struct.  Each game family brings its own route module; this file only lists them.
"""

from __future__ import annotations

from litestar import Litestar
from litestar.datastructures import State

from diceref.api.openapi import openapi_config
from diceref.api.problems import EXCEPTION_HANDLERS
from diceref.api.routes import chicago, games, health, holds, score, sheets, yardkle
from diceref.api.tables import TableRegistry
from diceref.settings import Settings
from diceref.tables.store import TableStore

ROUTES = [
    health.healthz,
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


def create_app(settings: Settings | None = None, store: TableStore | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    registry = TableRegistry(store or TableStore.from_env(), owns_store=store is None)

    async def start_tables(app: Litestar) -> None:
        await registry.start(settings.preload)

    async def stop_tables(app: Litestar) -> None:
        await registry.stop()

    return Litestar(
        route_handlers=ROUTES,
        exception_handlers=EXCEPTION_HANDLERS,
        openapi_config=openapi_config(),
        on_startup=[start_tables],
        on_shutdown=[stop_tables],
        state=State({"settings": settings, "tables": registry}),
        debug=False,
    )


app = create_app()
