"""HTTP caching of the game descriptions: `Cache-Control`, a strong `ETag`, and 304 for a
matching `If-None-Match`.

`GET /games` and `GET /games/{game}` change only with a release (and, for one game, once
when its tables finish loading), yet a frontend asks for them at every start.  The ETag is
a hash of the answer's JSON, so every replica of one release gives the same tag and a
client revalidates against any of them.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, TypeVar, cast

import msgspec
from litestar import Response
from litestar.datastructures import ResponseHeader
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter

T = TypeVar("T")

# Fresh for five minutes, then revalidated (a 304 costs no body): a release reaches every
# client within that time.
MAX_AGE = 300
FRESH = f"public, max-age={MAX_AGE}"
# An answer that will change soon (a game whose tables are still loading): always revalidate.
REVALIDATE = "no-cache"

IfNoneMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-None-Match",
        description="ETags of answers the client holds: a match gets 304 Not Modified, "
        "no body (RFC 9110 weak comparison, `*` matches any).",
    ),
]

RESPONSE_HEADERS = [
    ResponseHeader(
        name="ETag",
        description="A strong validator of the answer: a hash of its JSON.",
        documentation_only=True,
    ),
    ResponseHeader(
        name="Cache-Control",
        description=f"`{FRESH}`; `{REVALIDATE}` while the game's tables are loading.",
        documentation_only=True,
    ),
]
NOT_MODIFIED = {
    304: ResponseSpec(
        data_container=None,
        description="The `If-None-Match` header names the answer's current ETag: no body.",
        generate_examples=False,
    )
}


def etag_of(content: Any) -> str:
    return '"' + hashlib.sha256(msgspec.json.encode(content)).hexdigest()[:32] + '"'


def matches(if_none_match: str | None, etag: str) -> bool:
    """Whether `If-None-Match` names `etag` (weak comparison: `W/` is ignored)."""
    if not if_none_match:
        return False
    tags = (tag.strip().removeprefix("W/") for tag in if_none_match.split(","))
    return any(tag in ("*", etag) for tag in tags)


def cached(content: T, if_none_match: str | None, cache_control: str = FRESH) -> Response[T]:
    """The answer with its validators, or a bodiless 304 when the client holds it."""
    etag = etag_of(content)
    headers = {"ETag": etag, "Cache-Control": cache_control}
    if matches(if_none_match, etag):
        return Response(content=cast("T", None), status_code=304, headers=headers)
    return Response(content=content, headers=headers)
