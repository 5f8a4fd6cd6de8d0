"""What `client.with_raw_response.<method>(...)` returns: the answer with its HTTP side."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

import httpx

T = TypeVar("T")
# Seconds for the whole attempt, or an httpx.Timeout (connect, read, write, pool).
Timeout = float | httpx.Timeout


@dataclass(frozen=True)
class RawResponse(Generic[T]):
    """The parsed answer, its status and headers, and the request id to quote."""

    status_code: int
    headers: httpx.Headers
    parsed: T
    request_id: str | None  # the response's X-Request-ID
    http_response: httpx.Response
    retries_taken: int  # attempts before this one (0: the first answered)
