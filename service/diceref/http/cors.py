"""CORS: Litestar's middleware, with its refusals answered as problem+json.

Litestar's `CORSConfig` does the work (origins, methods, headers, preflight caching), but it
refuses a preflight with a plain-text 400 ("Disallowed CORS headers") from outside the
app's exception handlers, where no handler of ours can reach it.  `PreflightProblems` wraps
the app's outermost ASGI handler and turns exactly those answers into the service's one
error format, naming what was refused (`origin`, `method`, `headers`) with a stable code.

The request headers a browser frontend sends for tracing and correlation (`traceparent`,
`tracestate`, `x-request-id`) are allowed whenever CORS is on.
"""

from __future__ import annotations

from typing import Any, cast

import msgspec
from litestar.config.cors import CORSConfig
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from diceref.http.problems import PROBLEM_BASE, PROBLEM_MEDIA_TYPE, FieldError, ProblemDetails

ALLOWED_HEADERS = ["Content-Type", "Accept", "traceparent", "tracestate", "x-request-id"]
EXPOSED_HEADERS = ["Retry-After", "X-Request-ID", "X-API-Version", "ETag"]

# What Litestar's refusal names -> (field, code, reason).
_REFUSED = {
    "Origin": ("origin", "cors_origin", "this origin is not allowed (DICEREF_CORS_ORIGINS)"),
    "method": ("access-control-request-method", "cors_method", "only GET, POST and OPTIONS"),
    "headers": (
        "access-control-request-headers",
        "cors_headers",
        "allowed request headers: " + ", ".join(ALLOWED_HEADERS),
    ),
}


def cors_config(origins: tuple[str, ...]) -> CORSConfig | None:
    """CORS for these browser origins; none configured, no CORS."""
    if not origins:
        return None
    return CORSConfig(
        allow_origins=list(origins),
        allow_methods=["GET", "POST", "OPTIONS"],
        allow_headers=ALLOWED_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        max_age=600,
    )


def refusal_problem(text: str, path: str) -> bytes:
    """The problem body for Litestar's "Disallowed CORS Origin, headers" text."""
    named = [part.strip() for part in text.removeprefix("Disallowed CORS").split(",")]
    errors = [
        FieldError(field, reason, code)
        for field, code, reason in (_REFUSED[n] for n in named if n in _REFUSED)
    ]
    body = ProblemDetails(
        type=PROBLEM_BASE + "cors-rejected",
        title="CORS request refused",
        status=400,
        detail="; ".join(f"{e.field}: {e.reason}" for e in errors) or text,
        instance=path,
        errors=errors,
    )
    return msgspec.json.encode(body)


class PreflightProblems:
    """Rewrites a refused CORS preflight (400 text/plain to an OPTIONS with an `Origin`)
    as problem+json; every other answer passes through untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP or scope["method"] != "OPTIONS":
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] | None = None

        async def wrapped(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start" and message["status"] == 400:
                start = dict(message)
                kinds = [v for k, v in message.get("headers", []) if k.lower() == b"content-type"]
                if any(v.startswith(b"text/plain") for v in kinds):
                    return  # Litestar's refusal: rewritten with its body below
                start = None
            if start is not None and message["type"] == "http.response.body":
                body = refusal_problem(bytes(message.get("body", b"")).decode(), scope["path"])
                headers = [
                    (k, v)
                    for k, v in start.get("headers", [])
                    if k.lower() not in (b"content-type", b"content-length")
                ]
                headers += [
                    (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
                    (b"content-length", str(len(body)).encode()),
                ]
                await send(cast(Message, {**start, "headers": headers}))
                await send(cast(Message, {"type": "http.response.body", "body": body}))
                return
            await send(message)

        await self.app(scope, receive, wrapped)
