"""`GET /games` and `GET /games/{game}`: the ruleset descriptions as clients see them.

Family-agnostic: the common document comes from each game's `GameInfo`, and each family's
`FamilyApi` hooks add its own parts (see `diceref.http.family`).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Annotated

from litestar import Request, Response, get
from litestar.params import Parameter

from diceref.games.families import ALL_GAMES
from diceref.http.caching import (
    NOT_MODIFIED,
    RESPONSE_HEADERS,
    REVALIDATE,
    IfNoneMatch,
    cached,
)
from diceref.http.family import api_of_game, registry_of
from diceref.http.game_models import document_types, rules_of, summary_of
from diceref.http.problems import problem_responses, unknown_game

if TYPE_CHECKING:
    from diceref.http.game_models import GameRulesBase as GameRules
    from diceref.http.game_models import GameSummaryBase as GameSummary
else:  # every family's fields joined: what the handlers answer, and the document shows
    GameSummary, GameRules = document_types()


@cache
def game_rules(game_id: str) -> GameRules:
    """What the game's rules say (the same for every request: computed once)."""
    return rules_of(ALL_GAMES[game_id], api_of_game(game_id))


@cache
def summaries() -> list[GameSummary]:
    return [summary_of(ALL_GAMES[g], api_of_game(g)) for g in ALL_GAMES]


@get(
    "/games",
    summary="List the games",
    tags=["games"],
    sync_to_thread=False,
    responses=NOT_MODIFIED,
    response_headers=RESPONSE_HEADERS,
)
def list_games(if_none_match: IfNoneMatch = None) -> Response[list[GameSummary]]:
    """Every game the service referees, with its boxes in scorecard order.  Cacheable
    (`ETag`, `Cache-Control`): `If-None-Match` with the ETag held gets a 304."""
    return cached(summaries(), if_none_match)


GameId = Annotated[str, Parameter(description="A game's id, as listed by `GET /games`")]


@get(
    "/games/{game:str}",
    responses={**problem_responses(404), **NOT_MODIFIED},
    response_headers=RESPONSE_HEADERS,
    summary="A game's full ruleset",
    tags=["games"],
)
async def get_game(
    game: GameId,
    request: Request,  # type: ignore[type-arg]
    if_none_match: IfNoneMatch = None,
) -> Response[GameRules]:
    """Boxes with how each scores, bonuses, every reading with its value, and, once the
    game's tables are loaded, the maximum score and the optimal expected score from an
    empty card.  Never waits for a table: while one is loading both figures are null and
    `tables` is `loading` (the load has been started in the background).  Cacheable
    (`ETag`, `Cache-Control`; always revalidated while the tables load)."""
    if game not in ALL_GAMES:
        raise unknown_game(game)
    rules = game_rules(game)
    api = api_of_game(game)
    if api.with_tables is not None:
        rules = await api.with_tables(ALL_GAMES[game], rules, registry_of(request))
    if rules.tables == "loading":
        return cached(rules, if_none_match, REVALIDATE)
    return cached(rules, if_none_match)
