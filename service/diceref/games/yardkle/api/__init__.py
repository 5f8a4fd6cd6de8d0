"""Yardkle's HTTP API: one router under `/yardkle` and its examples."""

from diceref.games.yardkle.api import reviews, routes
from diceref.games.yardkle.api.examples import EXAMPLES
from diceref.http.family import FamilyApi, family_router

API = FamilyApi(
    router=family_router(
        "/yardkle",
        "yardkle",
        [
            routes.yardkle_throws,
            routes.yardkle_turn,
            routes.yardkle_game,
            routes.yardkle_holds,
            reviews.yardkle_reviews,
        ],
    ),
    examples=EXAMPLES,
)
