"""Liveness: answers without touching any dependency."""

from __future__ import annotations

import msgspec
from litestar import Response, get, head


class Health(msgspec.Struct):
    status: str


@get(
    "/healthz",
    summary="Liveness",
    tags=["operations"],
    sync_to_thread=False,
)
def healthz() -> Health:
    """Answers `ok` while the process serves requests; touches no table, store or Redis."""
    return Health(status="ok")


@head("/healthz", tags=["operations"], sync_to_thread=False, include_in_schema=False)
def healthz_head() -> Response[None]:
    """`HEAD /healthz`: the same liveness answer without a body, for probes that send HEAD."""
    return Response(None, status_code=200)
