"""The scorecard games' HTTP API: one router, its examples, its parts of `GET /games`."""

from diceref.games.scorecard.api import games, reviews, routes
from diceref.games.scorecard.api.examples import EXAMPLES
from diceref.http.family import FamilyApi, family_router

API = FamilyApi(
    router=family_router(
        "/", "scorecard", [routes.score, routes.holds, routes.check_scorecards, reviews.reviews]
    ),
    examples=EXAMPLES,
    summarize=games.summarize,
    describe=games.describe,
    with_tables=games.with_tables,
)
