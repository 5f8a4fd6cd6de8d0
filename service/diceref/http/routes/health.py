"""Liveness: answers without touching any dependency."""

from __future__ import annotations

import msgspec
from litestar import Response, get, head

from diceref.http.api_version import API_VERSION


class Health(msgspec.Struct):
    status: str
    api_version: str  # the API document's version, as in the `X-API-Version` header


@get(
    "/healthz",
    summary="Liveness",
    tags=["operations"],
    sync_to_thread=False,
)
def healthz() -> Health:
    """Answers `ok` while the process serves requests, with the version of the API it
    speaks (`api_version`, also every response's `X-API-Version` header); touches no
    table, store or Redis."""
    return Health(status="ok", api_version=API_VERSION)


@head("/healthz", tags=["operations"], sync_to_thread=False, include_in_schema=False)
def healthz_head() -> Response[None]:
    """`HEAD /healthz`: the same liveness answer without a body, for probes that send HEAD."""
    return Response(None, status_code=200)
