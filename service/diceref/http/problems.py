"""RFC 9457 problem details: the one shape every error response of the service takes.

Domain code raises `RuleViolation` (rules layer) or `Problem` (API layer); the exception
handlers (`diceref.http.problem_handlers`) turn those and Litestar's own errors into this
shape, so a client never sees another error format and never a 500 for bad input.
"""

from __future__ import annotations

import msgspec
from litestar.openapi.datastructures import ResponseSpec
from litestar.status_codes import HTTP_413_REQUEST_ENTITY_TOO_LARGE

from diceref.http.problem_catalogue import PROBLEM_DESCRIPTIONS

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_BASE = "https://diceref.dev/problems/"


class FieldError(msgspec.Struct):
    field: str
    reason: str
    # Stable and machine-readable (`out_of_range`, `unknown_box`, ...): the catalogue is
    # `diceref.http.vocabulary.error_codes()`.
    code: str


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


def body_too_large(limit: int, instance: str = "") -> ProblemDetails:
    """The 413 answer (also the OpenAPI document's example of it)."""
    return ProblemDetails(
        type=PROBLEM_BASE + "body-too-large",
        title="Request body too large",
        status=HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        detail=f"request bodies are limited to {limit} bytes (DICEREF_MAX_BODY_BYTES)",
        instance=instance,
    )


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
