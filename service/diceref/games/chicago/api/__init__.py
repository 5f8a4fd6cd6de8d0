"""Chicago's HTTP API: one router under `/chicago` and its examples."""

from diceref.games.chicago.api import routes
from diceref.games.chicago.api.examples import EXAMPLES
from diceref.http.family import FamilyApi, family_router

API = FamilyApi(
    router=family_router(
        "/chicago",
        "chicago",
        [routes.chicago_throw, routes.chicago_round, routes.chicago_game, routes.chicago_holds],
    ),
    examples=EXAMPLES,
)
