"""The Litestar application: route modules plus the problem-details error handlers.

Handlers stay thin: they decode a request Struct, call the rules or the tables, and encode a
response Struct.  Each game family brings its own route module; this file only lists them.
"""

from __future__ import annotations

from litestar import Litestar
from litestar.openapi import OpenAPIConfig

from diceref import __version__
from diceref.api.problems import EXCEPTION_HANDLERS
from diceref.api.routes import chicago, games, health, score, sheets

ROUTES = [
    health.healthz,
    games.list_games,
    games.get_game,
    score.score,
    sheets.check_scorecards,
    chicago.chicago_throw,
    chicago.chicago_round,
    chicago.chicago_game,
    chicago.chicago_holds,
]


def create_app() -> Litestar:
    return Litestar(
        route_handlers=ROUTES,
        exception_handlers=EXCEPTION_HANDLERS,
        openapi_config=OpenAPIConfig(title="diceref", version=__version__),
        debug=False,
    )


app = create_app()
