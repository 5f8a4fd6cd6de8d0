"""Chicago's HTTP API: one router under `/chicago`, its tag, examples and vocabulary."""

from litestar.openapi.spec import Tag

from diceref.games.chicago.api import routes
from diceref.games.chicago.api.examples import EXAMPLES
from diceref.http.family import FamilyApi, family_router, vocabulary

TAG = Tag(name="chicago", description="Chicago (three dice, lives): throws, rounds, games, coach.")

CODES, GLOSSARY = vocabulary(__name__)

API = FamilyApi(
    router=family_router(
        "/chicago",
        TAG.name,
        [routes.chicago_throw, routes.chicago_round, routes.chicago_game, routes.chicago_holds],
    ),
    tag=TAG,
    examples=EXAMPLES,
    error_codes=CODES,
    glossary=GLOSSARY,
    dice_fields=("kept",),
)
