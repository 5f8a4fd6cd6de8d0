"""`Client` and `AsyncClient`: one typed method per operation of the diceref API.

    with Client() as dice:                      # base URL: argument, else $DICEREF_URL
        advice = dice.holds("yahtzee", [2, 3, 4, 6, 6], throws_left=1)

Both clients take the same arguments and offer the same methods; `AsyncClient`'s are
coroutines.  Errors are raised as the exceptions of `diceref_client.errors`; connection
failures, timeouts, 429 and 503 are first retried (see `Retries`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, Self, TypeVar

import httpx

from diceref_client import _base
from diceref_client import _operations as ops
from diceref_client._base import DEFAULT_TIMEOUT, Operation, Retries
from diceref_client.errors import DicerefError
from diceref_client.models import (
    Call,
    CheckResponse,
    ChicagoGameResponse,
    ChicagoHoldsResponse,
    ChicagoThrowsResponse,
    GameRoundIn,
    GameRules,
    GameSummary,
    GameTurnIn,
    Health,
    PlayerIn,
    RoundResponse,
    RulesetResponse,
    ScorecardHoldsResponse,
    ScorecardIn,
    ScoreResponse,
    SheetIn,
    TurnEnd,
    TurnResponse,
    YardkleGameResponse,
    YardkleHoldsResponse,
    YardkleThrowIn,
    YardkleThrowsResponse,
)

T = TypeVar("T")
Timeout = float | httpx.Timeout
# The waits between attempts (module attributes, so tests can replace them).
_sleep = time.sleep
_asleep = asyncio.sleep


class _Config:
    def __init__(
        self,
        base_url: str | None,
        timeout: Timeout,
        max_retries: int,
        retries: Retries | None,
        headers: Mapping[str, str] | None,
    ) -> None:
        self.base_url = _base.base_url(base_url)
        self.timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        self.retries = retries or Retries(max_retries=max_retries)
        self.headers = _base.headers(headers)

    def request_kwargs(self, operation: Operation[Any]) -> dict[str, Any]:
        content = _base.encode(operation)
        headers = dict(self.headers)
        if content is not None:
            headers["content-type"] = "application/json"
        return {
            "method": operation.method,
            "url": self.base_url + operation.path,
            "content": content,
            "headers": headers,
            "timeout": self.timeout,
        }


class Client:
    """Synchronous client.  Use it as a context manager, or call `close()`.

    Args:
        base_url: the API's root, e.g. ``http://127.0.0.1:8000``; default ``$DICEREF_URL``,
            else ``http://127.0.0.1:8000``.
        timeout: seconds (or an ``httpx.Timeout``) for each attempt; default 10 s, 5 s to
            connect.
        max_retries: further attempts after a connection failure, a timeout, a 429 or a
            503 (default 2); ignored when `retries` is given.
        retries: the full retry policy (`Retries`).
        headers: extra headers for every request.
        http_client: an ``httpx.Client`` to send through (proxies, custom transports, test
            clients); it is not closed by `close()`.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        timeout: Timeout = DEFAULT_TIMEOUT,
        max_retries: int = 2,
        retries: Retries | None = None,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.Client | None = None,
    ) -> None:
        self._config = _Config(base_url, timeout, max_retries, retries, headers)
        self._owns_http = http_client is None
        self._http = http_client or httpx.Client()

    @property
    def base_url(self) -> str:
        return self._config.base_url

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

    def _send(self, operation: Operation[T]) -> T:
        retries = self._config.retries
        attempt = 0
        while True:
            cause: BaseException | None = None
            try:
                response = self._http.request(**self._config.request_kwargs(operation))
            except httpx.TransportError as exc:
                cause, error = exc, _base.transport_error(operation, exc)
            else:
                result = _base.outcome(operation, response)
                if not isinstance(result, DicerefError):
                    return result
                error = result
            if attempt >= retries.max_retries or not _base.retryable(error, cause):
                raise error from cause
            _sleep(retries.wait(attempt, getattr(error, "retry_after", None)))
            attempt += 1

    # --- operations (see the OpenAPI document for every field) --------------------------

    def healthz(self) -> Health:
        """`GET /healthz` (healthz): liveness."""
        return self._send(ops.healthz())

    def games(self) -> list[GameSummary]:
        """`GET /games` (games): every game the API referees."""
        return self._send(ops.games())

    def games_by_game(self, game: str) -> GameRules:
        """`GET /games/{game}` (gamesByGame): a game's full ruleset; `NotFoundError` if unknown."""
        return self._send(ops.games_by_game(game))

    def rulesets(self, game: str, *, rules: Mapping[str, Any] | None = None) -> RulesetResponse:
        """`POST /rulesets` (rulesets): house rules checked, their tables' status."""
        return self._send(ops.rulesets(game, rules=rules))

    def score(
        self,
        game: str,
        dice: Sequence[int],
        *,
        throw: int | None = None,
        scorecard: ScorecardIn | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> ScoreResponse:
        """`POST /score` (score): every box the throw may fill now, with points and bonus."""
        return self._send(ops.score(game, dice, throw=throw, scorecard=scorecard, rules=rules))

    def holds(
        self,
        game: str,
        dice: Sequence[int],
        throws_left: int,
        *,
        throw: int | None = None,
        scorecard: ScorecardIn | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> ScorecardHoldsResponse:
        """`POST /holds` (holds): every keep and every box, best expected total first."""
        return self._send(
            ops.holds(game, dice, throws_left, throw=throw, scorecard=scorecard, rules=rules)
        )

    def scorecards_check(
        self, game: str, sheets: Sequence[SheetIn], *, rules: Mapping[str, Any] | None = None
    ) -> CheckResponse:
        """`POST /scorecards/check` (scorecardsCheck): problems, totals and ranking."""
        return self._send(ops.scorecards_check(game, sheets, rules=rules))

    def chicago_throws(
        self,
        dice: Sequence[int],
        *,
        call: Call | None = None,
        throw: int | None = None,
        throws_allowed: int = 3,
        kept: Sequence[int] = (),
        set_aside_count: int = 0,
        rules: Mapping[str, Any] | None = None,
    ) -> ChicagoThrowsResponse:
        """`POST /chicago/throws` (chicagoThrows): a Chicago throw's value and conversions."""
        return self._send(
            ops.chicago_throws(
                dice,
                call=call,
                throw=throw,
                throws_allowed=throws_allowed,
                kept=kept,
                set_aside_count=set_aside_count,
                rules=rules,
            )
        )

    def chicago_rounds(
        self,
        turns: Sequence[PlayerIn],
        *,
        players_at_start: int | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> RoundResponse:
        """`POST /chicago/rounds` (chicagoRounds): the ruling on a Chicago round."""
        return self._send(ops.chicago_rounds(turns, players_at_start=players_at_start, rules=rules))

    def chicago_games(
        self,
        players: Sequence[str],
        rounds: Sequence[GameRoundIn],
        *,
        rules: Mapping[str, Any] | None = None,
    ) -> ChicagoGameResponse:
        """`POST /chicago/games` (chicagoGames): every round's ruling and the standings."""
        return self._send(ops.chicago_games(players, rounds, rules=rules))

    def chicago_holds(
        self,
        dice: Sequence[int],
        throws_left: int,
        *,
        call: Call | None = None,
        target: int | None = None,
        set_aside_count: int = 0,
        rules: Mapping[str, Any] | None = None,
    ) -> ChicagoHoldsResponse:
        """`POST /chicago/holds` (chicagoHolds): every keep and conversion, ranked."""
        return self._send(
            ops.chicago_holds(
                dice,
                throws_left,
                call=call,
                target=target,
                set_aside_count=set_aside_count,
                rules=rules,
            )
        )

    def yardkle_throws(
        self, dice: Sequence[int], *, rules: Mapping[str, Any] | None = None
    ) -> YardkleThrowsResponse:
        """`POST /yardkle/throws` (yardkleThrows): every set-aside a throw allows."""
        return self._send(ops.yardkle_throws(dice, rules=rules))

    def yardkle_turns(
        self,
        throws: Sequence[YardkleThrowIn],
        end: TurnEnd,
        *,
        banked_total: int = 0,
        rules: Mapping[str, Any] | None = None,
    ) -> TurnResponse:
        """`POST /yardkle/turns` (yardkleTurns): the referee's replay of a turn."""
        return self._send(ops.yardkle_turns(throws, end, banked_total=banked_total, rules=rules))

    def yardkle_games(
        self,
        players: Sequence[str],
        turns: Sequence[GameTurnIn] = (),
        *,
        rules: Mapping[str, Any] | None = None,
    ) -> YardkleGameResponse:
        """`POST /yardkle/games` (yardkleGames): standings, last turns and winners."""
        return self._send(ops.yardkle_games(players, turns, rules=rules))

    def yardkle_holds(
        self,
        dice: Sequence[int],
        on_pad: bool,
        *,
        turn_points: int = 0,
        rules: Mapping[str, Any] | None = None,
    ) -> YardkleHoldsResponse:
        """`POST /yardkle/holds` (yardkleHolds): every set-aside, bank or throw on, ranked."""
        return self._send(ops.yardkle_holds(dice, on_pad, turn_points=turn_points, rules=rules))


class AsyncClient:
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
        max_retries: int = 2,
        retries: Retries | None = None,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self._config = _Config(base_url, timeout, max_retries, retries, headers)
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient()

    @property
    def base_url(self) -> str:
        return self._config.base_url

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

    async def _send(self, operation: Operation[T]) -> T:
        retries = self._config.retries
        attempt = 0
        while True:
            cause: BaseException | None = None
            try:
                response = await self._http.request(**self._config.request_kwargs(operation))
            except httpx.TransportError as exc:
                cause, error = exc, _base.transport_error(operation, exc)
            else:
                result = _base.outcome(operation, response)
                if not isinstance(result, DicerefError):
                    return result
                error = result
            if attempt >= retries.max_retries or not _base.retryable(error, cause):
                raise error from cause
            await _asleep(retries.wait(attempt, getattr(error, "retry_after", None)))
            attempt += 1

    # --- operations (see `Client` for each one's description) ----------------------------

    async def healthz(self) -> Health:
        """`GET /healthz` (healthz): liveness."""
        return await self._send(ops.healthz())

    async def games(self) -> list[GameSummary]:
        """`GET /games` (games): every game the API referees."""
        return await self._send(ops.games())

    async def games_by_game(self, game: str) -> GameRules:
        """`GET /games/{game}` (gamesByGame): a game's full ruleset; `NotFoundError` if unknown."""
        return await self._send(ops.games_by_game(game))

    async def rulesets(
        self, game: str, *, rules: Mapping[str, Any] | None = None
    ) -> RulesetResponse:
        """`POST /rulesets` (rulesets): house rules checked, their tables' status."""
        return await self._send(ops.rulesets(game, rules=rules))

    async def score(
        self,
        game: str,
        dice: Sequence[int],
        *,
        throw: int | None = None,
        scorecard: ScorecardIn | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> ScoreResponse:
        """`POST /score` (score): every box the throw may fill now, with points and bonus."""
        return await self._send(
            ops.score(game, dice, throw=throw, scorecard=scorecard, rules=rules)
        )

    async def holds(
        self,
        game: str,
        dice: Sequence[int],
        throws_left: int,
        *,
        throw: int | None = None,
        scorecard: ScorecardIn | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> ScorecardHoldsResponse:
        """`POST /holds` (holds): every keep and every box, best expected total first."""
        return await self._send(
            ops.holds(game, dice, throws_left, throw=throw, scorecard=scorecard, rules=rules)
        )

    async def scorecards_check(
        self, game: str, sheets: Sequence[SheetIn], *, rules: Mapping[str, Any] | None = None
    ) -> CheckResponse:
        """`POST /scorecards/check` (scorecardsCheck): problems, totals and ranking."""
        return await self._send(ops.scorecards_check(game, sheets, rules=rules))

    async def chicago_throws(
        self,
        dice: Sequence[int],
        *,
        call: Call | None = None,
        throw: int | None = None,
        throws_allowed: int = 3,
        kept: Sequence[int] = (),
        set_aside_count: int = 0,
        rules: Mapping[str, Any] | None = None,
    ) -> ChicagoThrowsResponse:
        """`POST /chicago/throws` (chicagoThrows): a Chicago throw's value and conversions."""
        return await self._send(
            ops.chicago_throws(
                dice,
                call=call,
                throw=throw,
                throws_allowed=throws_allowed,
                kept=kept,
                set_aside_count=set_aside_count,
                rules=rules,
            )
        )

    async def chicago_rounds(
        self,
        turns: Sequence[PlayerIn],
        *,
        players_at_start: int | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> RoundResponse:
        """`POST /chicago/rounds` (chicagoRounds): the ruling on a Chicago round."""
        return await self._send(
            ops.chicago_rounds(turns, players_at_start=players_at_start, rules=rules)
        )

    async def chicago_games(
        self,
        players: Sequence[str],
        rounds: Sequence[GameRoundIn],
        *,
        rules: Mapping[str, Any] | None = None,
    ) -> ChicagoGameResponse:
        """`POST /chicago/games` (chicagoGames): every round's ruling and the standings."""
        return await self._send(ops.chicago_games(players, rounds, rules=rules))

    async def chicago_holds(
        self,
        dice: Sequence[int],
        throws_left: int,
        *,
        call: Call | None = None,
        target: int | None = None,
        set_aside_count: int = 0,
        rules: Mapping[str, Any] | None = None,
    ) -> ChicagoHoldsResponse:
        """`POST /chicago/holds` (chicagoHolds): every keep and conversion, ranked."""
        return await self._send(
            ops.chicago_holds(
                dice,
                throws_left,
                call=call,
                target=target,
                set_aside_count=set_aside_count,
                rules=rules,
            )
        )

    async def yardkle_throws(
        self, dice: Sequence[int], *, rules: Mapping[str, Any] | None = None
    ) -> YardkleThrowsResponse:
        """`POST /yardkle/throws` (yardkleThrows): every set-aside a throw allows."""
        return await self._send(ops.yardkle_throws(dice, rules=rules))

    async def yardkle_turns(
        self,
        throws: Sequence[YardkleThrowIn],
        end: TurnEnd,
        *,
        banked_total: int = 0,
        rules: Mapping[str, Any] | None = None,
    ) -> TurnResponse:
        """`POST /yardkle/turns` (yardkleTurns): the referee's replay of a turn."""
        return await self._send(
            ops.yardkle_turns(throws, end, banked_total=banked_total, rules=rules)
        )

    async def yardkle_games(
        self,
        players: Sequence[str],
        turns: Sequence[GameTurnIn] = (),
        *,
        rules: Mapping[str, Any] | None = None,
    ) -> YardkleGameResponse:
        """`POST /yardkle/games` (yardkleGames): standings, last turns and winners."""
        return await self._send(ops.yardkle_games(players, turns, rules=rules))

    async def yardkle_holds(
        self,
        dice: Sequence[int],
        on_pad: bool,
        *,
        turn_points: int = 0,
        rules: Mapping[str, Any] | None = None,
    ) -> YardkleHoldsResponse:
        """`POST /yardkle/holds` (yardkleHolds): every set-aside, bank or throw on, ranked."""
        return await self._send(
            ops.yardkle_holds(dice, on_pad, turn_points=turn_points, rules=rules)
        )
