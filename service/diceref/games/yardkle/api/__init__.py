"""Yardkle's HTTP API: one router under `/yardkle`, its tag, examples and vocabulary."""

from litestar.openapi.spec import Tag

from diceref.games.yardkle.api import reviews, routes
from diceref.games.yardkle.api.examples import EXAMPLES
from diceref.http.family import FamilyApi, family_router, vocabulary

TAG = Tag(
    name="yardkle", description="Yardkle (six dice, set-asides): throws, turns, games, coach."
)

CODES, GLOSSARY = vocabulary(__name__)

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
    error_codes=CODES,
    glossary=GLOSSARY,
    dice_fields=("set_aside",),
)
