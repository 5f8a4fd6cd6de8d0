"""`X-API-Version`: the version of the API document (`info.version`) on every response.

A client compares it with the version it was generated from, and says so in its errors
when the major versions differ (for 0.x versions the minor counts as the major, since
semver lets a 0.x API break on a minor release).  The version is `diceref.__version__`,
the document's `info.version` (`diceref.http.openapi.openapi_config`).  `add_api_version`
is a `before_send` hook, as `diceref.http.request_id.add_request_id` is, so that every
answer carries it: 404s, problems, CORS preflights and the lean JSON path's answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from diceref import __version__

if TYPE_CHECKING:
    from litestar.types import Message, Scope

API_VERSION = __version__
HEADER = "X-API-Version"
_HEADER = b"x-api-version"
_VALUE = API_VERSION.encode("ascii")


async def add_api_version(message: Message, scope: Scope) -> None:
    """`before_send` hook: the API's version on every response's head."""
    if message["type"] == "http.response.start":
        headers = message.setdefault("headers", [])
        headers.append((_HEADER, _VALUE))  # type: ignore[attr-defined]
