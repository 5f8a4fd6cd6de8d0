"""`Client` and `AsyncClient`: one typed method per operation of the diceref API.

    with Client() as dice:                      # base URL: argument, else $DICEREF_URL
        advice = dice.holds("yahtzee", [2, 3, 4, 6, 6], throws_left=1)
        fast = dice.with_options(timeout=2.0, max_retries=0)
        raw = dice.with_raw_response.games()    # .status_code, .headers, .parsed, .request_id

The methods come from one description of the operations (`_operations.OPERATIONS`,
generated into `_methods.py`); both clients drive the same exchange (`_base.exchange`:
attempts, retries, waits), each with its own I/O.  Errors are raised as the exceptions of
`diceref_client.errors`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from functools import cached_property
from types import TracebackType
from typing import Any, Self

import httpx
import msgspec

from diceref_client._base import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    Config,
    Exchange,
    Retries,
    Sleep,
    exchange,
)
from diceref_client._methods import AsyncMethods, AsyncRawMethods, SyncMethods, SyncRawMethods
from diceref_client._operations import Operation
from diceref_client._response import RawResponse, Timeout
from diceref_client.errors import RateLimitedError, RulesetFailed, RulesetNotReady
from diceref_client.models import GameRules, RulesetIn, RulesetResponse

# The waits between attempts (module attributes, so tests can replace them).
_sleep = time.sleep
_asleep = asyncio.sleep


def _drive(http: httpx.Client, steps: Exchange) -> RawResponse[Any]:
    try:
        step = next(steps)
        while True:
            if isinstance(step, Sleep):
                _sleep(step.seconds)
                step = steps.send(None)
                continue
            try:
                response = http.request(**step.request)
            except httpx.TransportError as exc:
                step = steps.throw(exc)
            else:
                step = steps.send(response)
    except StopIteration as done:
        result: RawResponse[Any] = done.value
        return result


async def _adrive(http: httpx.AsyncClient, steps: Exchange) -> RawResponse[Any]:
    try:
        step = next(steps)
        while True:
            if isinstance(step, Sleep):
                await _asleep(step.seconds)
                step = steps.send(None)
                continue
            try:
                response = await http.request(**step.request)
            except httpx.TransportError as exc:
                step = steps.throw(exc)
            else:
                step = steps.send(response)
    except StopIteration as done:
        result: RawResponse[Any] = done.value
        return result


class _Options:
    """The options both clients take, and `with_options`."""

    _config: Config
    _owns_http: bool

    def _setup(
        self,
        base_url: str | None,
        timeout: Timeout,
        max_retries: int | None,
        retries: Retries | None,
        default_headers: Mapping[str, str] | None,
        owns_http: bool,
    ) -> None:
        self._config = Config.make(base_url, timeout, max_retries, retries, default_headers)
        self._owns_http = owns_http

    @property
    def base_url(self) -> str:
        return self._config.base_url

    @property
    def timeout(self) -> httpx.Timeout:
        return self._config.timeout

    @property
    def max_retries(self) -> int:
        return self._config.retries.max_retries

    @property
    def default_headers(self) -> Mapping[str, str]:
        return self._config.headers

    def with_options(
        self,
        *,
        base_url: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        retries: Retries | None = None,
        default_headers: Mapping[str, str] | None = None,
    ) -> Self:
        """A copy with these options changed (`default_headers` are added to the current
        ones), sharing this client's connections; closing the copy leaves them open."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.__dict__.pop("with_raw_response", None)
        copy._config = self._config.but(base_url, timeout, max_retries, retries, default_headers)
        copy._owns_http = False
        return copy


class _RulesetWait:
    """The polling of `wait_for_ruleset`, shared by both clients (they differ only in how
    they ask and sleep): what each answer means and how long to wait before the next."""

    def __init__(self, timeout: float, poll: float) -> None:
        self.timeout, self.poll = timeout, poll
        self.deadline = time.monotonic() + timeout
        self.last: RulesetResponse | None = None
        self.wait = poll

    def ready(self, answer: RulesetResponse) -> bool:
        """Whether the tables are ready; `RulesetFailed` if their solve failed."""
        if answer.status == "ready":
            return True
        if answer.status == "failed":
            raise RulesetFailed(answer)
        self.last, self.wait = answer, self.poll
        return False

    def refused(self, exc: RateLimitedError) -> None:
        """A 429 (the solve queue is full): waited out like a `queued` status."""
        self.last, self.wait = None, exc.retry_after or self.poll

    def next_wait(self) -> float:
        """Seconds to sleep before asking again; `RulesetNotReady` past the deadline."""
        if time.monotonic() + self.wait > self.deadline:
            raise RulesetNotReady(self.last, self.timeout)
        return self.wait


class Client(_Options, SyncMethods):
    """Synchronous client.  Use it as a context manager, or call `close()`.

    Args:
        base_url: the API's root, e.g. ``http://127.0.0.1:8000``; default ``$DICEREF_URL``,
            else ``http://127.0.0.1:8000``.
        timeout: seconds (or an ``httpx.Timeout``) for each attempt; default 10 s, 5 s to
            connect.  Every method also takes ``timeout=`` for one call.
        max_retries: further attempts after a connection failure, a timeout, a 408, 429,
            500, 502, 503 or 504 (default 2); ignored when `retries` is given.
        retries: the full retry policy (`Retries`: backoff, jitter, Retry-After cap).
        default_headers: headers for every request (every method also takes
            ``extra_headers=``).
        http_client: an ``httpx.Client`` to send through (proxies, custom transports, test
            clients); it is not closed by `close()`.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        timeout: Timeout = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        retries: Retries | None = None,
        default_headers: Mapping[str, str] | None = None,
        http_client: httpx.Client | None = None,
    ) -> None:
        self._setup(base_url, timeout, max_retries, retries, default_headers, http_client is None)
        self._http = http_client or httpx.Client()

    @cached_property
    def with_raw_response(self) -> RawClient:
        """The same methods, returning a `RawResponse` (status, headers, parsed answer,
        request id) instead of the parsed answer alone."""
        return RawClient(self)

    def wait_for_ruleset(
        self,
        game: str | None = None,
        *,
        rules: Mapping[str, Any] | None = None,
        ruleset: RulesetIn | GameRules | Mapping[str, Any] | None = None,
        timeout: float = 120.0,
        poll: float = 1.0,
    ) -> RulesetResponse:
        """`POST /rulesets` until the ruleset's tables are `ready` (the first call starts
        their solve), at most `timeout` seconds; a 429 (queue full) is waited out like a
        `queued` status.  Raises `RulesetNotReady` on timeout, `RulesetFailed` if the solve
        failed, and the API's errors for refused rules."""
        waiting = _RulesetWait(timeout, poll)
        while True:
            try:
                answer = self.rulesets(game, rules=rules, ruleset=ruleset)
            except RateLimitedError as exc:
                waiting.refused(exc)
            else:
                if waiting.ready(answer):
                    return answer
            time.sleep(waiting.next_wait())

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _call_raw(
        self,
        operation: Operation,
        path: str,
        body: msgspec.Struct | None,
        timeout: Timeout | None,
        extra_headers: Mapping[str, str] | None,
    ) -> RawResponse[Any]:
        steps = exchange(self._config, operation, path, body, timeout, extra_headers)
        return _drive(self._http, steps)

    def _call(
        self,
        operation: Operation,
        path: str,
        body: msgspec.Struct | None,
        timeout: Timeout | None,
        extra_headers: Mapping[str, str] | None,
    ) -> Any:
        return self._call_raw(operation, path, body, timeout, extra_headers).parsed


class RawClient(SyncRawMethods):
    """`Client.with_raw_response`: every method returns a `RawResponse`."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def _call_raw(
        self,
        operation: Operation,
        path: str,
        body: msgspec.Struct | None,
        timeout: Timeout | None,
        extra_headers: Mapping[str, str] | None,
    ) -> RawResponse[Any]:
        return self._client._call_raw(operation, path, body, timeout, extra_headers)


class AsyncClient(_Options, AsyncMethods):
    """Asynchronous client: `Client`'s arguments and methods, the methods as coroutines.

    Use it as an async context manager, or await `aclose()`.  `http_client` is an
    ``httpx.AsyncClient`` (``httpx.AsyncClient(transport=httpx.ASGITransport(app))`` runs
    the API in-process).
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        timeout: Timeout = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        retries: Retries | None = None,
        default_headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self._setup(base_url, timeout, max_retries, retries, default_headers, http_client is None)
        self._http = http_client or httpx.AsyncClient()

    @cached_property
    def with_raw_response(self) -> AsyncRawClient:
        """The same coroutines, returning a `RawResponse`."""
        return AsyncRawClient(self)

    async def wait_for_ruleset(
        self,
        game: str | None = None,
        *,
        rules: Mapping[str, Any] | None = None,
        ruleset: RulesetIn | GameRules | Mapping[str, Any] | None = None,
        timeout: float = 120.0,
        poll: float = 1.0,
    ) -> RulesetResponse:
        """`POST /rulesets` until the ruleset's tables are `ready` (the first call starts
        their solve), at most `timeout` seconds; a 429 (queue full) is waited out like a
        `queued` status.  Raises `RulesetNotReady` on timeout, `RulesetFailed` if the solve
        failed, and the API's errors for refused rules."""
        waiting = _RulesetWait(timeout, poll)
        while True:
            try:
                answer = await self.rulesets(game, rules=rules, ruleset=ruleset)
            except RateLimitedError as exc:
                waiting.refused(exc)
            else:
                if waiting.ready(answer):
                    return answer
            await asyncio.sleep(waiting.next_wait())

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def _call_raw(
        self,
        operation: Operation,
        path: str,
        body: msgspec.Struct | None,
        timeout: Timeout | None,
        extra_headers: Mapping[str, str] | None,
    ) -> RawResponse[Any]:
        steps = exchange(self._config, operation, path, body, timeout, extra_headers)
        return await _adrive(self._http, steps)

    async def _call(
        self,
        operation: Operation,
        path: str,
        body: msgspec.Struct | None,
        timeout: Timeout | None,
        extra_headers: Mapping[str, str] | None,
    ) -> Any:
        return (await self._call_raw(operation, path, body, timeout, extra_headers)).parsed


class AsyncRawClient(AsyncRawMethods):
    """`AsyncClient.with_raw_response`: every coroutine returns a `RawResponse`."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def _call_raw(
        self,
        operation: Operation,
        path: str,
        body: msgspec.Struct | None,
        timeout: Timeout | None,
        extra_headers: Mapping[str, str] | None,
    ) -> RawResponse[Any]:
        return await self._client._call_raw(operation, path, body, timeout, extra_headers)
