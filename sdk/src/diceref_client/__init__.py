"""Typed client for the diceref HTTP API: a referee and coach for dice games.

    from diceref_client import Client

    with Client("http://127.0.0.1:8000") as dice:
        card = dice.score("yahtzee", [4, 4, 6, 6, 6])

Every model is a msgspec Struct in `diceref_client.models`; every error an exception in
`diceref_client.errors`; the request models, the enumerations (`Literal` types) and the
errors are re-exported here.  `API_VERSION` is the version of the API document the client
was generated from; an answer from a service of another major version is an error naming
both (`VersionMismatch`, or an `APIError` whose message says so).  `DICEREF_LOG=debug`
logs every request (logger `diceref_client`).
"""

from diceref_client._api_version import API_VERSION
from diceref_client._base import DEFAULT_TIMEOUT, DEFAULT_URL, ENV_LOG, ENV_URL, Retries
from diceref_client._base import setup_logging as _setup_logging
from diceref_client._operations import METHODS, OPERATIONS, Operation
from diceref_client._response import RawResponse, Timeout
from diceref_client._version import __version__
from diceref_client.client import AsyncClient, AsyncRawClient, Client, RawClient
from diceref_client.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    BadRequestError,
    DicerefError,
    InvalidResponseError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitedError,
    RulesetFailed,
    RulesetNotReady,
    RuleViolationError,
    ServerError,
    UnavailableError,
    VersionMismatch,
)
from diceref_client.models import (
    AnyGame,
    BlockReason,
    Call,
    ChicagoThrowIn,
    Conversion,
    Decision,
    EntryIn,
    GameRoundIn,
    GameTurnIn,
    Joker,
    Order,
    Play,
    PlayerIn,
    ReviewTurnIn,
    ScorecardGame,
    ScorecardIn,
    Section,
    SheetIn,
    Special,
    TurnEnd,
    TurnIn,
    YardkleReviewTurnIn,
    YardkleThrowIn,
)

_setup_logging()

__all__ = [
    "API_VERSION",
    "DEFAULT_TIMEOUT",
    "DEFAULT_URL",
    "ENV_LOG",
    "ENV_URL",
    "METHODS",
    "OPERATIONS",
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "AnyGame",
    "AsyncClient",
    "AsyncRawClient",
    "BadRequestError",
    "BlockReason",
    "Call",
    "ChicagoThrowIn",
    "Client",
    "Conversion",
    "Decision",
    "DicerefError",
    "EntryIn",
    "GameRoundIn",
    "GameTurnIn",
    "InvalidResponseError",
    "Joker",
    "NotFoundError",
    "Operation",
    "Order",
    "PayloadTooLargeError",
    "Play",
    "PlayerIn",
    "RateLimitedError",
    "RawClient",
    "RawResponse",
    "Retries",
    "ReviewTurnIn",
    "RuleViolationError",
    "RulesetFailed",
    "RulesetNotReady",
    "ScorecardGame",
    "ScorecardIn",
    "Section",
    "ServerError",
    "SheetIn",
    "Special",
    "Timeout",
    "TurnEnd",
    "TurnIn",
    "UnavailableError",
    "VersionMismatch",
    "YardkleReviewTurnIn",
    "YardkleThrowIn",
    "__version__",
]
