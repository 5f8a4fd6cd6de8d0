"""Liveness: answers without touching any dependency."""

from __future__ import annotations

import msgspec
from litestar import get


class Health(msgspec.Struct):
    status: str


@get(
    "/healthz",
    operation_id="healthz",
    summary="Liveness",
    tags=["operations"],
    sync_to_thread=False,
)
def healthz() -> Health:
    """Answers `ok` while the process serves requests; touches no table, store or Redis."""
    return Health(status="ok")
