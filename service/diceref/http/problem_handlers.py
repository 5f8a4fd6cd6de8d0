"""The exception handlers: every error the app raises, answered as a problem.

`Problem`, `RuleViolation` and `RuleParameterError` carry their field and reason; a table
not loaded yet is a 503 with Retry-After, a full solve queue a 429; Litestar's own errors
(a body that does not match the document, an unknown route, a wrong method) are
translated (`diceref.http.msgspec_errors`); anything else is a logged 500.
"""

from __future__ import annotations

import logging
import re
from functools import cache
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.status_codes import (
    HTTP_404_NOT_FOUND,
    HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    HTTP_500_INTERNAL_SERVER_ERROR,
)
from litestar.types import ExceptionHandlersMap

from diceref.core.errors import RuleViolation
from diceref.core.game import RuleParameterError
from diceref.http.family import family_apis
from diceref.http.game_routes import served_elsewhere
from diceref.http.msgspec_errors import dice_fields, unknown_game_named, validation_errors
from diceref.http.problems import (
    FIELD_LIMIT,
    PROBLEM_BASE,
    PROBLEM_MEDIA_TYPE,
    TEXT_LIMIT,
    FieldError,
    Problem,
    ProblemDetails,
    body_too_large,
    bounded,
    unknown_game,
    unprocessable,
)
from diceref.http.request_id import request_id_of
from diceref.tables.registry import SolveQueueFull
from diceref.tables.spec import TableNotLoaded

log = logging.getLogger("diceref.api")

# The fields of every family that hold dice (a family adds its own: `FamilyApi.dice_fields`).
DICE_FIELDS = ("dice",)


@cache
def die_fields() -> re.Pattern[str]:
    """Every family's fields whose items are dice (an item out of range is `not_a_die`)."""
    return dice_fields({*DICE_FIELDS, *(n for a in family_apis().values() for n in a.dice_fields)})


def _response(
    request: Request[Any, Any, Any], problem: ProblemDetails, headers: dict[str, str] | None = None
) -> Response[bytes]:
    problem.instance = bounded(problem.instance or request.url.path, FIELD_LIMIT)
    problem.detail = bounded(problem.detail, TEXT_LIMIT)
    problem.request_id = request_id_of(request.scope)
    problem.errors = [
        FieldError(bounded(e.field, FIELD_LIMIT), bounded(e.reason, TEXT_LIMIT), e.code)
        for e in problem.errors
    ]
    return Response(
        content=msgspec.json.encode(problem),
        status_code=problem.status,
        media_type=PROBLEM_MEDIA_TYPE,
        headers=headers,
    )


def problem_handler(request: Request[Any, Any, Any], exc: Problem) -> Response[bytes]:
    body = ProblemDetails(
        type=PROBLEM_BASE + exc.kind,
        title=exc.title,
        status=exc.status,
        detail=exc.detail,
        errors=exc.errors,
        retry_after=exc.retry_after,
        progress=exc.progress,
    )
    return _response(request, body, exc.headers)


def _retry_later(
    request: Request[Any, Any, Any],
    status: int,
    kind: str,
    title: str,
    detail: str,
    progress: float | None = None,
) -> Response[bytes]:
    """A problem the client retries after the settings' Retry-After seconds (a table not
    loaded or being solved, a full solve queue): the header, `retry_after` and the detail
    say how long."""
    retry: int = request.app.state.settings.retry_after_seconds
    problem = Problem(
        status,
        kind,
        title,
        f"{detail}; retry in {retry} s",
        headers={"Retry-After": str(retry)},
        retry_after=retry,
        progress=progress,
    )
    return problem_handler(request, problem)


def table_not_loaded_handler(
    request: Request[Any, Any, Any], exc: TableNotLoaded
) -> Response[bytes]:
    registry = request.app.state.tables
    state = registry.states.get(exc.spec.key)
    if state is None or not state.on_demand:  # a built-in table: the registry has queued it
        what = f"the {exc.game} table is loading"
        return _retry_later(request, 503, "table-loading", "Table not loaded yet", what)
    status = registry.status_of(exc.spec)
    again = registry.retry_failed_after
    doing = {
        "queued": "queued for a solve",
        "failed": f"failed to solve (solved again when asked, {again:g} s after the failure)",
    }.get(status.status, f"being solved ({status.progress:.0%})")
    what = f"the table of these rules ({exc.spec.rules_hash}) is {doing}"
    return _retry_later(request, 503, "table-solving", "Table being solved", what, status.progress)


def solve_queue_full_handler(
    request: Request[Any, Any, Any], exc: SolveQueueFull
) -> Response[bytes]:
    what = f"{exc.waiting} rulesets are waiting for a solve on this replica (DICEREF_SOLVE_QUEUE)"
    return _retry_later(request, 429, "solve-queue-full", "Too many rulesets waiting", what)


def rule_violation_handler(request: Request[Any, Any, Any], exc: RuleViolation) -> Response[bytes]:
    return problem_handler(request, unprocessable(exc.field, exc.reason, exc.code))


def rule_parameter_handler(
    request: Request[Any, Any, Any], exc: RuleParameterError
) -> Response[bytes]:
    """A `rules` override refused: a 422 naming `rules.<name>` (the parameter as `GET
    /games/{game}` reports it), whatever layer refused it."""
    field = f"rules.{exc.name}"
    problem = Problem(
        422,
        "invalid-rules",
        "Rules not accepted",
        f"{field}: {exc.reason}",
        [FieldError(field, exc.reason, exc.code)],
    )
    return problem_handler(request, problem)


def http_exception_handler(request: Request[Any, Any, Any], exc: HTTPException) -> Response[bytes]:
    status = exc.status_code
    if isinstance(exc, ValidationException):
        game = unknown_game_named(exc)
        if game is not None:
            return problem_handler(request, unknown_game(game))
        errors = [
            _served_elsewhere(e, request.url.path) for e in validation_errors(exc, die_fields())
        ]
        body = ProblemDetails(
            type=PROBLEM_BASE + "invalid-request",
            title="Invalid request",
            status=status,
            detail="; ".join(f"{e.field}: {e.reason}" for e in errors),
            errors=errors,
        )
        return _response(request, body, exc.headers)
    if status == HTTP_404_NOT_FOUND:
        what = "no such route; the operations are listed at /schema"
        body = ProblemDetails(
            type=PROBLEM_BASE + "unknown-route",
            title="Unknown route",
            status=status,
            detail=what,
            errors=[FieldError("path", what, "unknown_route")],
        )
        return _response(request, body, exc.headers)
    if status == HTTP_413_REQUEST_ENTITY_TOO_LARGE:
        body = body_too_large(request.app.state.settings.max_body_bytes)
        return _response(request, body, exc.headers)
    body = ProblemDetails(
        type=PROBLEM_BASE + f"http-{status}",
        title=str(exc.detail) if status < 500 else "Server error",
        status=status,
        detail=str(exc.detail),
    )
    return _response(request, body, exc.headers)


def _served_elsewhere(error: FieldError, path: str) -> FieldError:
    """A `game` of another family's routes, answered with the route that serves it."""
    named = _GAME_NAMED.match(error.reason) if error.field == "game" else None
    reason = named and served_elsewhere(named.group("value"), path)
    return FieldError(error.field, reason, error.code) if reason else error


_GAME_NAMED = re.compile(r"^Invalid enum value '(?P<value>.*)'$", re.S)


def internal_error_handler(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    log.exception("unhandled error on %s", request.url.path, exc_info=exc)
    body = ProblemDetails(
        type=PROBLEM_BASE + "internal",
        title="Server error",
        status=HTTP_500_INTERNAL_SERVER_ERROR,
        detail="The service failed to answer; the error was logged.",
    )
    return _response(request, body)


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    Problem: problem_handler,
    RuleViolation: rule_violation_handler,
    RuleParameterError: rule_parameter_handler,
    TableNotLoaded: table_not_loaded_handler,
    SolveQueueFull: solve_queue_full_handler,
    HTTPException: http_exception_handler,
    Exception: internal_error_handler,
}
