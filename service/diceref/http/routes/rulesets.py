"""`POST /rulesets`: a game under house rules, checked, described, and its tables started.

Family-agnostic: the game's family builds the variant (`Family.with_rules`), or a custom
rules document sent whole (`FamilyApi.custom_ruleset`), and names its tables
(`Family.tables_of`); the registry admits them to its bounded queue of on-demand
solves.  Calling it again reports where the solve stands, so a client (the SDK's
`wait_for_ruleset`) polls it until `status` is `ready`, then plays with the same `rules`.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

import msgspec
from litestar import Request
from litestar.params import JSONBody
from msgspec import Meta

from diceref.core.errors import RuleViolation
from diceref.core.game import GameInfo
from diceref.games.families import ALL_GAMES, family_of
from diceref.http.family import (
    family_apis,
    family_of_document,
    family_router,
    operation,
    registry_of,
)
from diceref.http.fields import Rules
from diceref.http.game_models import document_types, rules_of

if TYPE_CHECKING:
    from diceref.http.game_models import GameRulesBase as GameRules
else:  # every family's fields joined, as `GET /games/{game}` answers
    GameRules = document_types()[1]

AnyGame = Enum(  # type: ignore[misc]
    "AnyGame", {gid.replace("-", "_").upper(): gid for gid in ALL_GAMES}, type=str
)
# Every family's rules document a client may send whole: the one family's, or a union of
# several (each tagged by its `family`).
_DOCUMENTS: Any = Union[  # noqa: UP007 (a union of types known at run time)
    tuple(api.rules_document for api in family_apis().values() if api.rules_document)
]
RulesDocument = Annotated[
    _DOCUMENTS,
    Meta(
        description="A custom ruleset instead of a built-in `game` (exactly one of the two): "
        "the document `GET /games/{game}` returns, changed at will"
    ),
]


class RulesetRequest(msgspec.Struct, forbid_unknown_fields=True):
    game: AnyGame | None = None
    rules: Rules | None = None
    ruleset: RulesDocument | None = None


class RulesetResponse(msgspec.Struct):
    game: str
    ruleset_id: Annotated[str, Meta(description="Content hash of the effective rules")]
    status: Annotated[
        Literal["ready", "solving", "queued", "failed"],
        Meta(
            description="Where the ruleset's tables stand: `ready` (the coach answers), "
            "`solving` (see `progress`), `queued` (waiting for a solver) or `failed`"
        ),
    ]
    progress: float
    ruleset: GameRules
    max_score: Annotated[
        int | None, Meta(description="The highest score the rules allow; null until solved")
    ]
    optimal_expected_score: Annotated[
        float | None,
        Meta(
            description="Expected final score of optimal play from an empty card; null until solved"
        ),
    ]


@operation(
    "/rulesets",
    summary="Check house rules and start solving their tables",
    problems=(400, 404, 422, 429),
)
async def rulesets(data: JSONBody[RulesetRequest], request: Request) -> RulesetResponse:  # type: ignore[type-arg]
    """The effective rules of `game` under `rules` (as `GET /games/{game}` shows a game),
    their `ruleset_id`, and where their solved tables stand.  The first call queues the
    solve (a 429 with Retry-After when too many rulesets already wait); later calls report
    its `status` and `progress`, then `max_score` and `optimal_expected_score`."""
    game: GameInfo
    if data.ruleset is not None:
        family, api = family_of_document(data.ruleset)
        assert api.custom_ruleset is not None
        game = api.custom_ruleset(
            None if data.game is None else data.game.value, data.rules, data.ruleset
        )
    elif data.game is None:
        raise RuleViolation(
            "game", "a built-in game or a custom ruleset is required", "missing_field"
        )
    else:
        family = family_of(data.game.value)
        game = family.with_rules(data.game.value, data.rules)
    registry = registry_of(request)
    specs = family.tables_of(game)
    status, progress = "ready", 1.0
    if specs:
        group = registry.admit(specs)
        status, progress = group.status, group.progress
        if status == "missing":  # the registry is not started (no app lifespan): queued
            status = "queued"
    api = family_apis()[family.name]
    document = rules_of(game, api)
    if api.with_tables is not None:
        document = await api.with_tables(game, document, registry)
    optimal = document.optimal_expected_score
    best = document.max_score
    return RulesetResponse(
        game=game.id,
        ruleset_id=game.ruleset_id,
        status=status,  # type: ignore[arg-type]
        progress=progress,
        ruleset=document,
        max_score=None if isinstance(best, msgspec.UnsetType) else best,
        optimal_expected_score=None if isinstance(optimal, msgspec.UnsetType) else optimal,
    )


# Under the lean JSON path like every operation with a body (one decoder, the same 415/408).
ROUTER = family_router("/", "games", [rulesets])
