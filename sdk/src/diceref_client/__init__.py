"""Typed client for the diceref HTTP API: a referee and coach for dice games.

    from diceref_client import Client

    with Client("http://127.0.0.1:8000") as dice:
        card = dice.score("yahtzee", [4, 4, 6, 6, 6])

Every model is a msgspec Struct in `diceref_client.models`; every error an exception in
`diceref_client.errors`, all re-exported here.
"""

from diceref_client._base import DEFAULT_TIMEOUT, DEFAULT_URL, ENV_URL, Retries
from diceref_client._operations import METHODS
from diceref_client._version import __version__
from diceref_client.client import AsyncClient, Client
from diceref_client.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    BadRequestError,
    DicerefError,
    InvalidResponseError,
    NotFoundError,
    RateLimitedError,
    RuleViolationError,
    ServerError,
    UnavailableError,
)
from diceref_client.models import (
    ChicagoThrowIn,
    EntryIn,
    GameRoundIn,
    GameTurnIn,
    PlayerIn,
    ReviewTurnIn,
    ScorecardIn,
    SheetIn,
    TurnIn,
    YardkleReviewTurnIn,
    YardkleThrowIn,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "DEFAULT_URL",
    "ENV_URL",
    "METHODS",
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "AsyncClient",
    "BadRequestError",
    "ChicagoThrowIn",
    "Client",
    "DicerefError",
    "EntryIn",
    "GameRoundIn",
    "GameTurnIn",
    "InvalidResponseError",
    "NotFoundError",
    "PlayerIn",
    "RateLimitedError",
    "Retries",
    "ReviewTurnIn",
    "RuleViolationError",
    "ScorecardIn",
    "ServerError",
    "SheetIn",
    "TurnIn",
    "UnavailableError",
    "YardkleReviewTurnIn",
    "YardkleThrowIn",
    "__version__",
]
