"""`X-Request-ID`: one id per request, on every response, in its logs and its problem body.

A well-formed `X-Request-ID` from a client or an ingress comes back, so one id follows a
call through every log; anything else is replaced by a new random id, never echoed.  Two
pieces, because Litestar runs route middleware only for requests that match a route:
`add_request_id` (a `before_send` hook: every response, 404s and CORS preflights included)
and `request_id_middleware` (app middleware, around the lean JSON path too), which puts the
id in `diceref.logs.REQUEST_ID` while the handler runs.  The id is worked out once per
request and kept in the scope's state (`request_id_of`).
"""

from __future__ import annotations

import re
import uuid
from typing import TYPE_CHECKING

from diceref.logs import REQUEST_ID

if TYPE_CHECKING:
    from litestar.types import ASGIApp, Message, Receive, Scope, Send

HEADER = "X-Request-ID"
_HEADER = b"x-request-id"
_STATE_KEY = "diceref_request_id"
# What a request id may be: up to 128 characters that need no quoting in a header or a
# log (UUIDs, ULIDs, W3C trace ids, base64 and the ids of the common ingresses).
WELL_FORMED = re.compile(rb"[A-Za-z0-9._:@/+=~-]{1,128}")


def new_request_id() -> str:
    return uuid.uuid4().hex


def request_id_of(scope: Scope) -> str:
    """The request's id: the client's `X-Request-ID` if well-formed, else a new one."""
    state = scope.setdefault("state", {})
    found: str | None = state.get(_STATE_KEY)
    if found is not None:
        return found
    chosen = None
    for name, value in scope.get("headers", ()):
        if name == _HEADER:
            chosen = value.decode("ascii") if WELL_FORMED.fullmatch(value) else None
            break
    state[_STATE_KEY] = chosen = chosen or new_request_id()
    return chosen


async def add_request_id(message: Message, scope: Scope) -> None:
    """`before_send` hook: the id on every response's head."""
    if message["type"] == "http.response.start":
        headers = message.setdefault("headers", [])
        headers.append((_HEADER, request_id_of(scope).encode()))  # type: ignore[attr-defined]


def request_id_middleware(app: ASGIApp) -> ASGIApp:
    """The id in `REQUEST_ID` (hence in every log line) while the route handles it."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        token = REQUEST_ID.set(request_id_of(scope))
        try:
            await app(scope, receive, send)
        finally:
            REQUEST_ID.reset(token)

    return middleware
