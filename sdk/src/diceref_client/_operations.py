"""The one description of the API's operations, from which both clients' methods are made.

Each `Operation` says what the OpenAPI document says of it: its id, method and path, the
Struct of its request body and the type of its answer.  The method's name is the snake_case
of the id; its arguments are the path's parameters, then the body's fields, with the
field's type and default (the `positional` fields before the `*`, the rest keyword-only),
then `timeout=` and `extra_headers=`.  `_methods.py` is generated from this table and
`models.py` from `openapi/openapi.json` (`uv run python sdk/generate.py`), and
`tests/http/test_sdk.py` fails when the table or a generated file disagrees with the document.

A new operation is one line here; a new body field needs nothing here.  Then regenerate.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from diceref_client.models import (
    CheckRequest,
    CheckResponse,
    ChicagoGameRequest,
    ChicagoGameResponse,
    ChicagoHoldsRequest,
    ChicagoHoldsResponse,
    ChicagoThrowsRequest,
    ChicagoThrowsResponse,
    DistributionRequest,
    DistributionResponse,
    GameRules,
    GameSummary,
    Health,
    ReviewRequest,
    ReviewResponse,
    RoundRequest,
    RoundResponse,
    RulesetIn,
    RulesetRequest,
    RulesetResponse,
    ScorecardHoldsRequest,
    ScorecardHoldsResponse,
    ScoreRequest,
    ScoreResponse,
    TurnRequest,
    TurnResponse,
    YardkleGameRequest,
    YardkleGameResponse,
    YardkleHoldsRequest,
    YardkleHoldsResponse,
    YardkleReviewRequest,
    YardkleReviewResponse,
    YardkleThrowsRequest,
    YardkleThrowsResponse,
)


@dataclass(frozen=True)
class Operation:
    """One operation of the API, as the OpenAPI document has it."""

    operation_id: str
    method: str
    path: str  # with `{name}` for each path parameter
    body: type[msgspec.Struct] | None
    returns: Any  # a Struct, or a generic alias such as list[GameSummary]
    summary: str  # the first line of the method's docstring
    positional: tuple[str, ...] = ()  # body fields the method takes before the `*`

    @property
    def name(self) -> str:
        """The client's method name: the snake_case of the operation id."""
        return re.sub(r"(?<!^)(?=[A-Z])", "_", self.operation_id).lower()

    @property
    def path_params(self) -> tuple[str, ...]:
        return tuple(re.findall(r"\{(\w+)\}", self.path))


GET, POST = "GET", "POST"

# fmt: off
OPERATIONS: tuple[Operation, ...] = (
    Operation("healthz", GET, "/healthz", None, Health, "Liveness."),
    Operation("games", GET, "/games", None, list[GameSummary], "Every game the API referees."),
    Operation("gamesByGame", GET, "/games/{game}", None, GameRules, "A game's full ruleset; `NotFoundError` if unknown."),  # noqa: E501
    Operation("rulesets", POST, "/rulesets", RulesetRequest, RulesetResponse, "House rules checked, described and their tables' solve started; where it stands.", ("game",)),  # noqa: E501
    Operation("score", POST, "/score", ScoreRequest, ScoreResponse, "Every box the throw may fill now, with points and bonus.", ("game", "dice")),  # noqa: E501
    Operation("holds", POST, "/holds", ScorecardHoldsRequest, ScorecardHoldsResponse, "Every keep and every box, best expected total first (with `target`, best chance to reach it).", ("game", "dice", "throws_left")),  # noqa: E501
    Operation("distributions", POST, "/distributions", DistributionRequest, DistributionResponse, "The distribution of the card's final total: every total's chance, mean, sd, percentiles.", ("game", "scorecard")),  # noqa: E501
    Operation("scorecardsCheck", POST, "/scorecards/check", CheckRequest, CheckResponse, "Every problem on the score sheets, totals and standings.", ("game", "sheets")),  # noqa: E501
    Operation("chicagoThrows", POST, "/chicago/throws", ChicagoThrowsRequest, ChicagoThrowsResponse, "A Chicago throw's value and conversions.", ("dice",)),  # noqa: E501
    Operation("chicagoRounds", POST, "/chicago/rounds", RoundRequest, RoundResponse, "The ruling on a Chicago round.", ("turns",)),  # noqa: E501
    Operation("chicagoGames", POST, "/chicago/games", ChicagoGameRequest, ChicagoGameResponse, "Every round's ruling and the standings.", ("players", "rounds")),  # noqa: E501
    Operation("chicagoHolds", POST, "/chicago/holds", ChicagoHoldsRequest, ChicagoHoldsResponse, "Every keep and conversion, ranked.", ("dice", "throws_left")),  # noqa: E501
    Operation("yardkleThrows", POST, "/yardkle/throws", YardkleThrowsRequest, YardkleThrowsResponse, "Every set-aside a throw allows.", ("dice",)),  # noqa: E501
    Operation("yardkleTurns", POST, "/yardkle/turns", TurnRequest, TurnResponse, "The referee's replay of a turn.", ("throws", "end")),  # noqa: E501
    Operation("yardkleGames", POST, "/yardkle/games", YardkleGameRequest, YardkleGameResponse, "Standings, last turns and winners.", ("players", "turns")),  # noqa: E501
    Operation("yardkleHolds", POST, "/yardkle/holds", YardkleHoldsRequest, YardkleHoldsResponse, "Every set-aside, bank or throw on, ranked.", ("dice", "on_pad")),  # noqa: E501
    Operation("reviews", POST, "/reviews", ReviewRequest, ReviewResponse, "What each decision of a played game cost against optimal play.", ("game", "turns")),  # noqa: E501
    Operation("yardkleReviews", POST, "/yardkle/reviews", YardkleReviewRequest, YardkleReviewResponse, "What each Yardkle decision cost in expected turn points.", ("turns",)),  # noqa: E501
)
# fmt: on

BY_ID: dict[str, Operation] = {op.operation_id: op for op in OPERATIONS}
# operation id in the OpenAPI document -> client method name
METHODS: dict[str, str] = {op.operation_id: op.name for op in OPERATIONS}


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def as_ruleset(value: RulesetIn | GameRules | Mapping[str, Any] | None) -> RulesetIn | None:
    """A custom ruleset as a request carries it: a `RulesetIn`, or a game's document as
    `games_by_game` returns it (changed or not), or the same as plain JSON data.  Fields
    a box's pattern does not take are null in the document and left out here."""
    if value is None or isinstance(value, RulesetIn):
        return value
    data = msgspec.to_builtins(value) if isinstance(value, msgspec.Struct) else dict(value)
    return msgspec.convert(_without_nulls(data), RulesetIn)
