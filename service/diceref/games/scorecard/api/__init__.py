"""The scorecard games' HTTP API: one router, its tag, examples and vocabulary, its parts of
`GET /games`."""

from typing import Any

from litestar.openapi.spec import Tag

from diceref.core.game import GameInfo
from diceref.games.scorecard.api import custom, games, reviews, routes
from diceref.games.scorecard.api.examples import EXAMPLES
from diceref.games.scorecard.api.models import RulesetIn
from diceref.http.family import FamilyApi, family_router, vocabulary

TAG = Tag(
    name="scorecard",
    description="Scorecard games (Yahtzee and kin): score a throw, coach a turn from the "
    "solved tables, check score sheets.",
)


def _custom_ruleset(game: str | None, rules: dict[str, Any] | None, doc: RulesetIn) -> GameInfo:
    return custom.ruleset_of(game, rules, doc)[0]


CODES, GLOSSARY = vocabulary(__name__)

API = FamilyApi(
    router=family_router(
        "/",
        TAG.name,
        [
            routes.score,
            routes.holds,
            routes.distributions,
            routes.check_scorecards,
            reviews.reviews,
        ],
    ),
    tag=TAG,
    examples=EXAMPLES,
    error_codes=CODES,
    glossary=GLOSSARY,
    dice_fields=("keep", "throws[]", "keeps[]"),
    summary_fields=games.SummaryFields,
    rules_fields=games.RulesFields,
    summarize=games.summarize,
    describe=games.describe,
    with_tables=games.with_tables,
    rules_document=RulesetIn,
    custom_ruleset=_custom_ruleset,
)
