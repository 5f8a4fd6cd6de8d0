"""Yardkle's HTTP API: one router under `/yardkle`, its tag, examples and vocabulary."""

from litestar.openapi.spec import Tag

from diceref.games.yardkle.api import reviews, routes
from diceref.games.yardkle.api.errors import ERROR_CODES
from diceref.games.yardkle.api.examples import EXAMPLES
from diceref.games.yardkle.api.glossary import GLOSSARY
from diceref.http.family import FamilyApi, family_router

TAG = Tag(
    name="yardkle", description="Yardkle (six dice, set-asides): throws, turns, games, coach."
)

API = FamilyApi(
    router=family_router(
        "/yardkle",
        TAG.name,
        [
            routes.yardkle_throws,
            routes.yardkle_turn,
            routes.yardkle_game,
            routes.yardkle_holds,
            reviews.yardkle_reviews,
        ],
    ),
    tag=TAG,
    examples=EXAMPLES,
    error_codes=ERROR_CODES,
    glossary=GLOSSARY,
    dice_fields=("set_aside",),
)
