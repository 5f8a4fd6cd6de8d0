"""What `Client` and `AsyncClient` share: configuration, logging, and one exchange (the
attempts, retries and waits of a call) written once for both.

`exchange` is a generator that holds the whole policy without doing any I/O: it yields
`Send` (an attempt to make) and `Sleep` (a wait), is sent the `httpx.Response` of each
attempt (or has the transport error thrown in), and returns the `RawResponse`, or raises
the error.  Each client drives it with its own I/O, sync or async.  It also compares the
API version every answer names (`X-API-Version`) with the client's (`_versions`): a
success from a service of another major version raises `VersionMismatch` unparsed.
"""

from __future__ import annotations

import dataclasses
import email.utils
import logging
import os
import random
import time
import uuid
from collections.abc import Generator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
import msgspec

from diceref_client._operations import Operation
from diceref_client._response import RawResponse, Timeout
from diceref_client._version import __version__
from diceref_client._versions import incompatible_version
from diceref_client.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    DicerefError,
    InvalidResponseError,
    VersionMismatch,
    error_for,
)

ENV_URL = "DICEREF_URL"
ENV_LOG = "DICEREF_LOG"
DEFAULT_URL = "http://127.0.0.1:8000"
# Every operation answers in well under a second once its table is loaded.
DEFAULT_TIMEOUT = httpx.Timeout(10.0, connect=5.0)
DEFAULT_MAX_RETRIES = 2
# 408 and 429: the client's fault, but retrying is what the server asks; 500: a fault of
# one replica; 502, 503 and 504: an ingress during a rollout, or a table still loading.
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
# Transport failures worth another attempt; a malformed URL or protocol is not.
RETRY_TRANSPORT = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)
REQUEST_ID_HEADER = "x-request-id"

log = logging.getLogger("diceref_client")


def setup_logging() -> None:
    """`DICEREF_LOG=debug` (or `info`) logs the client's requests to stderr."""
    level = {"debug": logging.DEBUG, "info": logging.INFO}.get(os.environ.get(ENV_LOG, "").lower())
    if level is None or any(getattr(h, "_diceref", False) for h in log.handlers):
        return
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("[%(asctime)s %(name)s %(levelname)s] %(message)s"))
    handler._diceref = True  # type: ignore[attr-defined]
    log.addHandler(handler)
    log.setLevel(level)


@dataclass(frozen=True)
class Retries:
    """When and how long to wait before another attempt.

    Every diceref operation is a pure computation on its request (no state is kept between
    calls), so repeating one, POST included, can never do anything twice: connection
    failures, timeouts, 408, 429, 500, 502, 503 and 504 are retried alike.  The wait is
    exponential with jitter (`backoff * 2**attempt`, at most `max_backoff`, times a random
    factor in [0.5, 1]), or what the API's `Retry-After` asks, at most `max_retry_after`
    seconds.
    """

    max_retries: int = DEFAULT_MAX_RETRIES
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


def as_timeout(timeout: Timeout) -> httpx.Timeout:
    return timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)


@dataclass(frozen=True)
class Config:
    """A client's options; `with_options` makes a changed copy."""

    base_url: str
    timeout: httpx.Timeout
    retries: Retries
    headers: Mapping[str, str]

    @classmethod
    def make(
        cls,
        url: str | None,
        timeout: Timeout,
        max_retries: int | None,
        retries: Retries | None,
        default_headers: Mapping[str, str] | None,
    ) -> Config:
        policy = retries or Retries()
        if max_retries is not None and retries is None:
            policy = Retries(max_retries=max_retries)
        headers = {
            "accept": "application/json, application/problem+json",
            "user-agent": f"diceref-client/{__version__}",
        }
        headers |= {k.lower(): v for k, v in (default_headers or {}).items()}
        return cls(base_url(url), as_timeout(timeout), policy, headers)

    def but(
        self,
        url: str | None,
        timeout: Timeout | None,
        max_retries: int | None,
        retries: Retries | None,
        default_headers: Mapping[str, str] | None,
    ) -> Config:
        """This configuration with the given options changed (headers are added)."""
        policy = retries or self.retries
        if max_retries is not None:
            policy = dataclasses.replace(policy, max_retries=max_retries)
        headers = {**self.headers, **{k.lower(): v for k, v in (default_headers or {}).items()}}
        return Config(
            base_url(url) if url else self.base_url,
            self.timeout if timeout is None else as_timeout(timeout),
            policy,
            headers,
        )


@dataclass(frozen=True)
class Send:
    """An attempt to make: the keyword arguments of `httpx.Client.request`."""

    request: dict[str, Any]


@dataclass(frozen=True)
class Sleep:
    seconds: float


Exchange = Generator["Send | Sleep", "httpx.Response | None", RawResponse[Any]]


def exchange(
    config: Config,
    operation: Operation,
    path: str,
    body: msgspec.Struct | None,
    timeout: Timeout | None,
    extra_headers: Mapping[str, str] | None,
) -> Exchange:
    """The attempts of one call (see the module's docstring).  One request id for all of
    them, so the server's logs show the retries of one call as one."""
    headers = {**config.headers, **{k.lower(): v for k, v in (extra_headers or {}).items()}}
    request_id = headers.setdefault(REQUEST_ID_HEADER, uuid.uuid4().hex)
    content = None if body is None else msgspec.json.encode(body)
    if content is not None:
        headers["content-type"] = "application/json"
    url = config.base_url + path
    request = {
        "method": operation.method,
        "url": url,
        "content": content,
        "headers": headers,
        "timeout": config.timeout if timeout is None else as_timeout(timeout),
    }
    retries = config.retries
    attempt = 0
    while True:
        log.debug("%s %s (request %s, attempt %d)", operation.method, url, request_id, attempt + 1)
        started = time.perf_counter()
        cause: BaseException | None = None
        try:
            response = yield Send(request)
            assert response is not None
        except httpx.TransportError as exc:
            cause, error = exc, transport_error(operation, exc, request_id)
            log.debug("%s %s: no answer: %r", operation.method, url, exc)
        else:
            answer_id = response.headers.get(REQUEST_ID_HEADER) or request_id
            log.debug(
                "%s %s -> %d in %.1f ms (request %s)",
                operation.method,
                url,
                response.status_code,
                (time.perf_counter() - started) * 1000,
                answer_id,
            )
            if response.is_success:
                other = incompatible_version(response)
                if other is not None:
                    raise VersionMismatch(f"{operation.method} {operation.path}", response, other)
                parsed = parse(operation, response)
                return RawResponse(
                    response.status_code, response.headers, parsed, answer_id, response, attempt
                )
            error = error_for(response, retry_after(response))
        if attempt >= retries.max_retries or not retryable(error, cause):
            raise error from cause
        wait = retries.wait(attempt, getattr(error, "retry_after", None))
        log.info("%s %s: %s; retrying in %.2f s", operation.method, url, error, wait)
        yield Sleep(wait)
        attempt += 1


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


def parse(operation: Operation, response: httpx.Response) -> Any:
    try:
        return msgspec.json.decode(response.content, type=operation.returns)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise InvalidResponseError(
            f"{operation.operation_id}: the answer is not the documented shape: {exc}", response
        ) from exc


def transport_error(
    operation: Operation, exc: httpx.TransportError, request_id: str
) -> DicerefError:
    where = f"{operation.method} {operation.path}"
    if isinstance(exc, httpx.TimeoutException):
        return APITimeoutError(f"{where}: no answer in time ({exc!r})", request_id)
    return APIConnectionError(f"{where}: no answer ({exc!r})", request_id)


def retryable(error: DicerefError, cause: BaseException | None) -> bool:
    if isinstance(error, APIError):
        return error.status in RETRY_STATUSES
    return isinstance(cause, RETRY_TRANSPORT)
