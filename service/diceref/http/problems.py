"""RFC 9457 problem details: the one shape every error response of the service takes.

Domain code raises `RuleViolation` (rules layer) or `Problem` (API layer); Litestar's own
errors (schema validation, unknown routes, wrong methods) are converted here too, so a
client never sees another error format and never a 500 for bad input.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.status_codes import (
    HTTP_404_NOT_FOUND,
    HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    HTTP_500_INTERNAL_SERVER_ERROR,
)
from litestar.types import ExceptionHandlersMap

from diceref.core.errors import RuleViolation
from diceref.core.game import RuleParameterError
from diceref.games.families import ALL_GAMES
from diceref.http.fields import CONTROL_CHARACTERS_REASON
from diceref.http.game_routes import served_elsewhere
from diceref.http.request_id import request_id_of
from diceref.tables.registry import SolveQueueFull
from diceref.tables.spec import TableNotLoaded

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_BASE = "https://diceref.dev/problems/"
log = logging.getLogger("diceref.api")


class FieldError(msgspec.Struct):
    field: str
    reason: str
    code: str  # stable and machine-readable (`out_of_range`, `unknown_box`, ...): see CODES


class ProblemDetails(msgspec.Struct, omit_defaults=True):
    """RFC 9457 body; `errors` names each offending field and why."""

    type: str
    title: str
    status: int
    detail: str
    instance: str = ""
    errors: list[FieldError] = []
    retry_after: int | None = None
    progress: float | None = None  # a table being solved on demand: how far, 0..1
    request_id: str = ""  # the response's X-Request-ID, to quote when reporting it


class Problem(Exception):
    """An error the API answers with; `field` and `reason` name what was wrong."""

    def __init__(
        self,
        status: int,
        kind: str,
        title: str,
        detail: str,
        errors: list[FieldError] | None = None,
        headers: dict[str, str] | None = None,
        retry_after: int | None = None,
        progress: float | None = None,
    ) -> None:
        super().__init__(detail)
        self.progress = progress
        self.status = status
        self.kind = kind
        self.title = title
        self.detail = detail
        self.errors = errors or []
        self.headers = headers or {}
        self.retry_after = retry_after


def unknown_game(game: str, field: str = "game") -> Problem:
    """The one 404 for a game the service does not know, on every operation that names one."""
    what = f"unknown game {quote(game)}; see GET /games"
    detail = f"{field}: {what}"
    return Problem(
        404, "unknown-game", "Unknown game", detail, [FieldError(field, what, "unknown_game")]
    )


# msgspec's words for a value outside an enum: how an unknown `game` reaches us.
_UNKNOWN_GAME = re.compile(r"^Invalid enum value '(?P<value>.*)' - at `\$\.game`$", re.S)


QUOTE_LIMIT = 40


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A bad value as a problem quotes it: its `repr`, cut to `limit` characters (and its
    length said), so a 60 KB value never becomes a 120 KB problem."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f" ({len(value)} characters)" if isinstance(value, str) else ""
    return f"{text[:limit]}…{size}"


def unsupported_media(
    field: str, reason: str, headers: dict[str, str] | None = None, code: str = "unsupported_type"
) -> Problem:
    """415: a body declared (or encoded) as something other than JSON."""
    return Problem(
        415,
        "unsupported-media-type",
        "Unsupported media type",
        f"{field}: {reason}",
        [FieldError(field, reason, code)],
        headers=headers,
    )


def unprocessable(field: str, reason: str, code: str = "rule_violation") -> Problem:
    return Problem(
        422,
        "rule-violation",
        "Breaks a rule of the game",
        f"{field}: {reason}",
        [FieldError(field, reason, code)],
    )


FIELD_LIMIT = 120
TEXT_LIMIT = 300


def bounded(text: str, limit: int) -> str:
    """`text` cut to `limit` characters (marked with an ellipsis): the last guard that keeps
    a problem small whatever a client sent, for a field path naming a key it chose or a
    message quoting a value (the sources quote with `quote`; this catches the rest)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


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


def table_loading(request: Request[Any, Any, Any], game: str) -> Problem:
    """503 + Retry-After for a table that is still loading (the registry has queued it)."""
    retry: int = request.app.state.settings.retry_after_seconds
    return Problem(
        503,
        "table-loading",
        "Table not loaded yet",
        f"the {game} table is loading; retry in {retry} s",
        headers={"Retry-After": str(retry)},
        retry_after=retry,
    )


def table_not_loaded_handler(
    request: Request[Any, Any, Any], exc: TableNotLoaded
) -> Response[bytes]:
    registry = request.app.state.tables
    state = registry.states.get(exc.spec.key)
    if state is None or not state.on_demand:
        return problem_handler(request, table_loading(request, exc.game))
    status = registry.status_of(exc.spec)
    retry: int = request.app.state.settings.retry_after_seconds
    again = registry.retry_failed_after
    doing = {
        "queued": "queued for a solve",
        "failed": f"failed to solve (solved again when asked, {again:g} s after the failure)",
    }.get(status.status, f"being solved ({status.progress:.0%})")
    problem = Problem(
        503,
        "table-solving",
        "Table being solved",
        f"the table of these rules ({exc.spec.rules_hash}) is {doing}; retry in {retry} s",
        headers={"Retry-After": str(retry)},
        retry_after=retry,
        progress=status.progress,
    )
    return problem_handler(request, problem)


def solve_queue_full_handler(
    request: Request[Any, Any, Any], exc: SolveQueueFull
) -> Response[bytes]:
    retry: int = request.app.state.settings.retry_after_seconds
    problem = Problem(
        429,
        "solve-queue-full",
        "Too many rulesets waiting",
        f"{exc.waiting} rulesets are waiting for a solve on this replica (DICEREF_SOLVE_QUEUE);"
        f" retry in {retry} s",
        headers={"Retry-After": str(retry)},
        retry_after=retry,
    )
    return problem_handler(request, problem)


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


_NAMED = re.compile(r"(?:missing required|contains unknown) field `([^`]+)`")
# msgspec's error message: the reason, then where (`- at `$.dice[4]``) when it knows.
MSGSPEC_MESSAGE = re.compile(r"^(?P<reason>.*?)(?: - at (?P<key>`key` in )?`\$(?P<path>[^`]*)`)?$")


def _validation_errors(exc: ValidationException) -> list[FieldError]:
    errors: list[FieldError] = []
    extra = exc.extra if isinstance(exc.extra, list) else []
    for item in extra:
        if not isinstance(item, dict):
            continue
        message = str(item.get("message", exc.detail))
        match = MSGSPEC_MESSAGE.match(message)
        raw = match.group("reason") if match else message
        path = match.group("path") if match and match.group("path") else ""
        field = path.lstrip(".")
        named = _NAMED.search(raw)
        if named:  # a missing or unknown field: name the field itself, not its parent
            field = f"{field}.{named.group(1)}" if field else named.group(1)
        reason = _reworded(raw)
        if match and match.group("key"):  # a dict's key, not its value, is refused
            reason = f"a key: {reason}"
        field = field or str(item.get("key") or "body")
        code = item.get("code") or validation_code(field, raw)
        errors.append(FieldError(field, reason, str(code)))
    if not errors:
        errors.append(FieldError("body", str(exc.detail), "invalid"))
    return errors


# Where a value out of range is a die that is not 1 to 6.
_DIE_FIELD = re.compile(r"(?:^|\.)(?:dice|kept|keep|set_aside|throws\[\d+\]|keeps\[\d+\])\[\d+\]$")
_CODES = (
    (re.compile(r"^the request body is empty"), "empty_body"),
    (
        re.compile(r"^(?:JSON is malformed|Input data was truncated|Expected `object`, got)"),
        "not_json",
    ),
    (re.compile(r"missing required field"), "missing_field"),
    (re.compile(r"contains unknown field"), "unknown_field"),
    (re.compile(r"^Invalid enum value"), "unknown_value"),
    (re.compile(r"^Expected `array` of length >="), "too_few"),
    (re.compile(r"^Expected `array` of length <="), "too_many"),
    (re.compile(r"^Expected `(?:str|object)` of length <="), "too_long"),
    (re.compile(r"^Expected `(?:str|object)` of length >="), "too_short"),
    (re.compile(r"^Expected `str` matching regex"), "control_character"),
    (re.compile(r"^Expected `(?:int|float|number)` [<>]=? "), "out_of_range"),
    (re.compile(r"^Expected `[^`]+`, got `"), "wrong_type"),
)


def validation_code(field: str, reason: str) -> str:
    """The stable code of a request that does not match the document, read off msgspec's
    words (`Expected `int` <= 6` at `dice[4]` is `not_a_die`)."""
    for pattern, code in _CODES:
        if pattern.search(reason):
            if code == "out_of_range" and _DIE_FIELD.search(field):
                return "not_a_die"
            return code
    return "invalid"


_QUOTED_VALUE = re.compile(
    r"^(?P<what>Invalid enum value|Object contains unknown field) ['`](?P<value>.*)['`]$", re.S
)


def _reworded(reason: str) -> str:
    """msgspec's reason as a client should read it: a refused pattern said in words, and a
    value it quotes (an unknown game) cut to a short prefix."""
    if reason.startswith("Expected `str` matching regex") and "x00-" in reason:
        return CONTROL_CHARACTERS_REASON
    quoted = _QUOTED_VALUE.match(reason)
    if quoted and len(quoted.group("value")) > QUOTE_LIMIT:
        return f"{quoted.group('what')} {quote(quoted.group('value'))}"
    return reason


def http_exception_handler(request: Request[Any, Any, Any], exc: HTTPException) -> Response[bytes]:
    status = exc.status_code
    if isinstance(exc, ValidationException):
        game = _unknown_game(exc)
        if game is not None:
            return problem_handler(request, unknown_game(game))
        errors = [_served_elsewhere(e, request.url.path) for e in _validation_errors(exc)]
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


def _unknown_game(exc: ValidationException) -> str | None:
    """The game named, when the only thing wrong with a request is an unknown `game`."""
    extra = exc.extra if isinstance(exc.extra, list) else []
    if len(extra) != 1 or not isinstance(extra[0], dict):
        return None
    match = _UNKNOWN_GAME.match(str(extra[0].get("message", "")))
    if match is None or match.group("value") in ALL_GAMES:
        return None  # a known game of another family: the request does not match the document
    return match.group("value")


def body_too_large(limit: int, instance: str = "") -> ProblemDetails:
    """The 413 answer (also the OpenAPI document's example of it)."""
    return ProblemDetails(
        type=PROBLEM_BASE + "body-too-large",
        title="Request body too large",
        status=HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        detail=f"request bodies are limited to {limit} bytes (DICEREF_MAX_BODY_BYTES)",
        instance=instance,
    )


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


PROBLEM_DESCRIPTIONS = {
    400: "The request does not match this document (not JSON, a missing or unknown field, "
    "a value out of range); `errors` names each offending field.",
    404: "An unknown game (`unknown-game`, naming the `game` field) or route (`unknown-route`).",
    422: "The request matches this document but breaks a rule of the game (`rule-violation`: "
    "a custom `ruleset` refused names `ruleset.<path>`; `game` and `ruleset` missing or both "
    "sent), or its `rules` are not accepted (`invalid-rules`, naming `rules.<name>`); "
    "`errors` names the field and the rule.",
    408: "The request body did not arrive within `DICEREF_BODY_TIMEOUT` seconds (30 by "
    "default) of its headers; the connection is closed.",
    415: "The body is not declared as JSON: `Content-Type` must be `application/json` "
    "(optionally `; charset=utf-8`) and `Content-Encoding` absent or `identity`.  A body "
    "with no `Content-Type` is taken as JSON only if it parses.",
    413: "The request body is larger than the service accepts (`DICEREF_MAX_BODY_BYTES`, "
    "64 KiB by default).",
    503: "The game's solved table is still loading (`table-loading`), or for house rules "
    "queued or being solved (`table-solving`, with `progress`): retry after `Retry-After` "
    "seconds (also in `retry_after`).",
    429: "Too many house-rules rulesets are waiting for a solve on this replica "
    "(`solve-queue-full`): retry after `Retry-After` seconds.",
}


# Every problem type the service answers with: URI suffix -> (status, title, when).  The
# OpenAPI document lists them (`x-problem-types`) and docs/contract.md prints them; a test
# checks that every `type` the app sends is one of them.
PROBLEM_TYPES: dict[str, tuple[int, str, str]] = {
    "invalid-request": (400, "Invalid request", "the request does not match the document"),
    "cors-rejected": (
        400,
        "CORS request refused",
        "a browser's CORS preflight from an origin, or with a method or headers, not allowed",
    ),
    "unknown-game": (404, "Unknown game", "an operation names a game the service does not know"),
    "unknown-route": (404, "Unknown route", "no operation has this path"),
    "http-405": (405, "Method Not Allowed", "the path exists, not with this method"),
    "body-timeout": (408, "Request body too slow", "the body did not arrive in time"),
    "body-too-large": (413, "Request body too large", "the body is over the size limit"),
    "unsupported-media-type": (415, "Unsupported media type", "the body is not plain JSON"),
    "rule-violation": (422, "Breaks a rule of the game", "the request breaks a rule"),
    "invalid-rules": (
        422,
        "Rules not accepted",
        "a `rules` override is unknown, of the wrong type, out of range or contradictory",
    ),
    "internal": (500, "Server error", "a fault of the service (logged), never bad input"),
    "solve-queue-full": (
        429,
        "Too many rulesets waiting",
        "more house-rules rulesets wait for a solve than the replica queues",
    ),
    "table-loading": (503, "Table not loaded yet", "a solved table the answer needs is loading"),
    "table-solving": (
        503,
        "Table being solved",
        "the house rules' table is queued or being solved (`progress` says how far)",
    ),
}

# The `code` of each `errors[]` item: what was wrong, stable across releases.
ERROR_CODES: dict[str, str] = {
    "empty_body": "the request body is empty",
    "not_json": "the request body is not JSON",
    "wrong_type": "a value of another JSON type than the document's",
    "missing_field": "a required field is missing",
    "unknown_field": "a field the document does not have",
    "unknown_value": "a value outside the field's enum",
    "out_of_range": "a number outside the field's bounds",
    "not_a_die": "a die that is not 1 to 6",
    "too_few": "a list shorter than the document allows",
    "too_many": "a list longer than the document allows",
    "too_long": "a text or map longer than the document allows",
    "too_short": "a text or map shorter than the document allows",
    "control_character": "a text with control characters",
    "too_deep": "a body nested deeper than the limit (32 arrays and objects)",
    "invalid": "any other mismatch with the document",
    "unknown_game": "a game the service does not know",
    "unknown_route": "a path no operation has",
    "body_timeout": "the body did not arrive in time",
    "unsupported_type": "a Content-Type other than application/json",
    "unsupported_encoding": "a Content-Encoding other than identity",
    "rule_violation": "a rule of the game (no finer code yet)",
    "wrong_dice_count": "not the number of dice the game throws",
    "unknown_box": "a box the game does not have",
    "impossible_points": "points no throw can score in that box",
    "card_full": "a scorecard with no box left to fill",
    "series_order": "a second-series box before the first series is complete",
    "forced_order": "a box filled before an earlier one (forced order)",
    "throw_mismatch": "a throw number that contradicts the throws left",
    "impossible_bonus": "an extra bonus that is negative or not a multiple of the bonus",
    "no_such_bonus": "an extra bonus in a game without one",
    "bonus_without_basis": "an extra bonus while the five-of-a-kind box does not hold its points",
    "too_many_bonuses": "more extra bonuses than filled boxes allow",
    "throws_exceeded": "more throws than allowed",
    "wrong_starter": "a round started by another player than the ruling named",
    "set_aside_without_ones": "set-aside 1s that the dice do not show",
    "entry_minimum": "banking under the entry minimum while off the pad",
    "out_of_turn": "a turn out of the players' order",
    "impossible_turn_points": "turn points no set-asides can add up to",
    "no_players": "a game without players",
    "empty_name": "a player without a name",
    "duplicate_player": "a player named twice",
    "unknown_player": "a player who does not sit at this table",
    "game_over": "a turn or round after the game ended",
    "no_throw": "a turn without a throw",
    "impossible_total": "a banked total no sequence of turns can produce",
    "not_a_yardkle": "a turn declared a Yardkle whose last throw scores",
    "set_aside_after_yardkle": "dice set aside from a Yardkle (nothing in it scores)",
    "throw_after_yardkle": "a throw after a Yardkle, which ends the turn",
    "banked_yardkle": "a turn banked after a Yardkle, whose points are lost",
    "banked_hot_dice": "a turn banked right after hot dice while hot dice are forced "
    "(`hot_dice_optional: false`)",
    "nothing_set_aside": "a scoring throw with nothing set aside",
    "dice_not_thrown": "set-aside dice the throw did not show",
    "set_aside_not_scoring": "a set-aside with a die outside every scoring combination",
    "table_size": "a player count the game is not played with",
    "impossible_players_at_start": "fewer players at the start than are still in",
    "player_out": "a player with no life left taking part",
    "wrong_lives": "lives no game of that size can have at that point",
    "missing_player": "a player with lives left missing from a round",
    "seating_order": "a round not going round the table in the seating order",
    "kept_dice_changed": "dice kept on the table that the next throw does not show",
    "kept_before_first_throw": "kept or set-aside dice on a turn's first throw",
    "kept_not_on_table": "kept dice that are not on the table",
    "set_aside_not_kept": "set-aside 1s thrown again (they stay on the table)",
    "six_kept_after_conversion": "the 6 a conversion sends back kept on the table",
    "nothing_thrown": "a next throw with every die kept (standing ends the record)",
    "conversion_without_throw_left": "a conversion on the last throw",
    "conversion_without_sixes": "a conversion the sixes counted do not allow",
    "conversion_without_rethrow": "a conversion without the next throw it needs",
    "conversion_skipped": "a forced conversion not made",
    "throw_after_chicago": "a throw after 1-1-1 (Chicago), which ends the turn",
    "throw_after_round_end": "a throw after the round or game ended, or by a player out",
    "late_call": "a call by a player other than the starter",
    "call_before_last_throw": "the starter's call followed by another throw",
    "call_after_chicago": "a call after the starter's Chicago that ended the round",
    "missing_call": "the starter's last throw without a call",
    "victim_thrown_on": "a 1-6-5 victim named on a throw the player threw on",
    "victim_without_one_six_five": "a 1-6-5 victim named without a 1-6-5",
    "missing_victim": "a 1-6-5 that counts, without a victim",
    "invalid_victim": "a 1-6-5 victim not an opponent still in, or not the one due",
    "set_aside_too_early": "set-aside 1s with more throws left than a conversion allows",
    "target_without_call": "a target to beat without a call (the starter has none)",
    "cors_origin": "a CORS preflight from an origin not in DICEREF_CORS_ORIGINS",
    "cors_method": "a CORS preflight for a method other than GET, POST or OPTIONS",
    "cors_headers": "a CORS preflight asking for a request header not allowed",
    "unknown_parameter": "a `rules` name the game does not have",
    "unknown_choice": "a `rules` value outside the parameter's choices",
    "not_settable": "a parameter reported for information, which no request may set",
    "invalid_rule": "a `rules` or `ruleset` value that contradicts another, or that the game "
    "cannot play",
    "exclusive_fields": "two fields a request may not carry together (`game` and `ruleset`; "
    "`rules` with a `ruleset`)",
    "ruleset_limit": "rules or a custom ruleset beyond what the service solves (a scorecard: 5 "
    "dice, 1 to 15 boxes, a bounded table; Yardkle: a bounded policy table and target)",
    "invalid_id": "a ruleset id that is not lower-case letters, digits, '_' and '-'",
    "unknown_pattern": "a box pattern outside the vocabulary (docs/rules/house-rules.md)",
    "unknown_scoring": "a box scoring rule outside the vocabulary",
    "scoring_mismatch": "a scoring rule the box's pattern does not take",
    "wrong_section": "a box in the other section than its pattern's",
    "not_applicable": "a box field its pattern and scoring do not take",
    "invalid_run": "a straight's run whose faces are not different and ascending",
    "duplicate_box": "two boxes with one id",
    "upper_section": "an upper section other than six face boxes, ones to sixes, first",
    "five_of_a_kind_box": "a five-of-a-kind rule on a box that scores no five of a kind at "
    "fixed points",
    "forced_joker": "a five of a kind placed where the Joker rule does not send it",
    "box_filled": "a box filled a second time",
    "kept_not_thrown": "a kept die that was not in the throw",
    "kept_die_changed": "a kept die that changed in the next throw",
    "kept_all_dice": "all five dice kept (a throw throws at least one)",
    "keeps_mismatch": "not one keep per throw but the last",
    "pad_mismatch": "an `on_pad` that contradicts the banked total",
}


def problem_responses(*statuses: int) -> dict[int, ResponseSpec]:
    """The problem+json error responses a handler declares in its decorator, for OpenAPI."""
    return {
        status: ResponseSpec(
            data_container=ProblemDetails,
            generate_examples=False,
            description=PROBLEM_DESCRIPTIONS[status],
            media_type=PROBLEM_MEDIA_TYPE,
        )
        for status in statuses
    }
