"""The scorecard games' HTTP API: one router, its tag, examples and vocabulary, its parts of
`GET /games`."""

from litestar.openapi.spec import Tag

from diceref.games.scorecard.api import games, reviews, routes
from diceref.games.scorecard.api.errors import ERROR_CODES
from diceref.games.scorecard.api.examples import EXAMPLES
from diceref.games.scorecard.api.glossary import GLOSSARY
from diceref.http.family import FamilyApi, family_router

TAG = Tag(
    name="scorecard",
    description="Scorecard games (Yahtzee and kin): score a throw, coach a turn from the "
    "solved tables, check score sheets.",
)

API = FamilyApi(
    router=family_router(
        "/", TAG.name, [routes.score, routes.holds, routes.check_scorecards, reviews.reviews]
    ),
    tag=TAG,
    examples=EXAMPLES,
    error_codes=ERROR_CODES,
    glossary=GLOSSARY,
    dice_fields=("keep", "throws[]", "keeps[]"),
    summarize=games.summarize,
    describe=games.describe,
    with_tables=games.with_tables,
)
