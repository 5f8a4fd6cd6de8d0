"""What `Client` and `AsyncClient` share: configuration, retries, encoding and decoding."""

from __future__ import annotations

import email.utils
import os
import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

import httpx
import msgspec

from diceref_client._version import __version__
from diceref_client.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    DicerefError,
    InvalidResponseError,
    error_for,
)

T = TypeVar("T")

ENV_URL = "DICEREF_URL"
DEFAULT_URL = "http://127.0.0.1:8000"
# Every operation answers in well under a second once its table is loaded.
DEFAULT_TIMEOUT = httpx.Timeout(10.0, connect=5.0)
RETRY_STATUSES = frozenset({429, 503})
# Transport failures worth another attempt; a malformed URL or protocol is not.
RETRY_TRANSPORT = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)


@dataclass(frozen=True)
class Operation(Generic[T]):
    """One call of the API: its id, method and path, body, and the type of its answer."""

    operation_id: str
    method: str
    path: str
    body: msgspec.Struct | None
    returns: Any  # type[T], or a generic alias such as list[GameSummary]


@dataclass(frozen=True)
class Retries:
    """When and how long to wait before another attempt.

    Every diceref operation is a pure computation on its request (no state is kept between
    calls), so repeating one, POST included, can never do anything twice: connection
    failures, timeouts, 429 and 503 are retried alike.  The wait is exponential with jitter
    (`backoff * 2**attempt`, at most `max_backoff`, times a random factor in [0.5, 1]), or
    what the API's `Retry-After` asks, at most `max_retry_after` seconds.
    """

    max_retries: int = 2
    backoff: float = 0.5
    max_backoff: float = 8.0
    max_retry_after: float = 30.0

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        if min(self.backoff, self.max_backoff, self.max_retry_after) < 0:
            raise ValueError("waits must not be negative")

    def wait(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait after failed attempt number `attempt` (0 for the first)."""
        if retry_after is not None:
            return min(retry_after, self.max_retry_after)
        return min(self.max_backoff, self.backoff * 2.0**attempt) * random.uniform(0.5, 1.0)


def base_url(url: str | None) -> str:
    """The argument, else $DICEREF_URL, else the local default; no trailing slash."""
    chosen = url or os.environ.get(ENV_URL) or DEFAULT_URL
    if not chosen.startswith(("http://", "https://")):
        raise ValueError(f"base URL must start with http:// or https://, got {chosen!r}")
    return chosen.rstrip("/")


def headers(extra: Mapping[str, str] | None) -> dict[str, str]:
    return {
        "accept": "application/json, application/problem+json",
        "user-agent": f"diceref-client/{__version__}",
        **(extra or {}),
    }


def retry_after(response: httpx.Response) -> float | None:
    """The Retry-After header in seconds (delta-seconds or an HTTP date), if any."""
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def encode(operation: Operation[Any]) -> bytes | None:
    return None if operation.body is None else msgspec.json.encode(operation.body)


def outcome(operation: Operation[T], response: httpx.Response) -> T | APIError:
    """The decoded answer, or the error to raise (or retry on)."""
    if response.is_success:
        try:
            result: T = msgspec.json.decode(response.content, type=operation.returns)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise InvalidResponseError(
                f"{operation.operation_id}: the answer is not the documented shape: {exc}",
                response,
            ) from exc
        return result
    return error_for(response, retry_after(response))


def transport_error(operation: Operation[Any], exc: httpx.TransportError) -> DicerefError:
    where = f"{operation.method} {operation.path}"
    if isinstance(exc, httpx.TimeoutException):
        return APITimeoutError(f"{where}: no answer in time ({exc!r})")
    return APIConnectionError(f"{where}: no answer ({exc!r})")


def retryable(error: DicerefError, cause: BaseException | None) -> bool:
    if isinstance(error, APIError):
        return error.status in RETRY_STATUSES
    return isinstance(cause, RETRY_TRANSPORT)
