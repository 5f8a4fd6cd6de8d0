"""Exceptions: one per kind of problem+json answer, and two for answers that never came.

    DicerefError
    ├── APIError                 the API answered with an error (a problem+json body)
    │   ├── BadRequestError        400: the request does not match the API's document
    │   ├── NotFoundError          404: no such game (or path)
    │   ├── PayloadTooLargeError   413: the request body is over the API's limit
    │   ├── RuleViolationError     422: well-formed, but breaks a rule of the game
    │   ├── RateLimitedError       429: too many requests; `retry_after` seconds
    │   ├── UnavailableError       503: a table is still loading; `retry_after` seconds
    │   └── ServerError            any other 5xx
    ├── InvalidResponseError     a success status with a body that is not the documented one
    ├── VersionMismatch          a success from a service of another major API version
    └── APIConnectionError       no answer: cannot connect, connection lost
        └── APITimeoutError        no answer in time

An `APIError` keeps every field of the problem (`type`, `title`, `status`, `detail`,
`instance`, `errors`, `retry_after`, `request_id`), the whole `problem` and the `response`.
Every error has `request_id`: the `X-Request-ID` of the answer (the one the client sent,
when no answer came), to quote when reporting it, and `service_version`: the API version
the service said it speaks (`X-API-Version`; None when no answer came or it said none).
When that version's major differs from the one this client was generated from (for 0.x,
the minor: see `diceref_client._versions`), an `APIError`'s message ends with both
versions, and a success is not parsed but raised as `VersionMismatch`.
"""

from __future__ import annotations

import httpx
import msgspec

from diceref_client._api_version import API_VERSION
from diceref_client._versions import incompatible_version, mismatch_note, service_version
from diceref_client.models import FieldError, ProblemDetails, RulesetResponse


class DicerefError(Exception):
    """Base of every exception the client raises."""

    request_id: str | None = None
    service_version: str | None = None  # the answer's X-API-Version


class APIError(DicerefError):
    """The API answered with an error status."""

    def __init__(
        self, problem: ProblemDetails, response: httpx.Response, retry_after: float | None = None
    ) -> None:
        message = f"{problem.status} {problem.title}: {problem.detail}"
        other = incompatible_version(response)
        super().__init__(message if other is None else f"{message} ({mismatch_note(other)})")
        self.problem = problem
        self.response = response
        self.status: int = response.status_code
        self.type: str = problem.type
        self.title: str = problem.title
        self.detail: str = problem.detail
        self.instance: str = problem.instance
        self.errors: list[FieldError] = problem.errors
        # The Retry-After header when the API sent one, else the problem's own field.
        self.retry_after: float | None = (
            retry_after if retry_after is not None else problem.retry_after
        )
        self.request_id = response.headers.get("x-request-id") or problem.request_id or None
        self.service_version = service_version(response)


class BadRequestError(APIError):
    """400: the request does not match the API's document; `errors` names each field."""


class NotFoundError(APIError):
    """404: no such game (problem type `unknown-game`) or route (`unknown-route`)."""


class PayloadTooLargeError(APIError):
    """413: the request body is larger than the API accepts (`DICEREF_MAX_BODY_BYTES`)."""


class RuleViolationError(APIError):
    """422: the request is well-formed but breaks a rule of the game."""


class RateLimitedError(APIError):
    """429: too many requests; retry after `retry_after` seconds."""


class UnavailableError(APIError):
    """503: the API cannot answer yet (a solved table is loading); retry after `retry_after`."""


class ServerError(APIError):
    """A 5xx other than 503: the API failed to answer."""


class InvalidResponseError(DicerefError):
    """A success status whose body is not the documented shape (a proxy, a wrong base URL)."""

    def __init__(self, message: str, response: httpx.Response) -> None:
        super().__init__(message)
        self.response = response
        self.request_id = response.headers.get("x-request-id")
        self.service_version = service_version(response)


class VersionMismatch(DicerefError):
    """A success answer from a service of another major API version than this client's
    (`X-API-Version`): its body may not mean what this client's models say, so it is not
    parsed.  `service_version` and `client_version` name both; `response` is the answer.
    `where` is the operation's method and path (`GET /healthz`)."""

    def __init__(self, where: str, response: httpx.Response, version: str) -> None:
        super().__init__(f"{where}: {mismatch_note(version)}")
        self.response = response
        self.request_id = response.headers.get("x-request-id")
        self.service_version = version
        self.client_version = API_VERSION


class RulesetNotReady(DicerefError):
    """`wait_for_ruleset` gave up: the ruleset's tables were not ready within its timeout
    (`last` is the last answer, None if the queue was full)."""

    def __init__(self, last: RulesetResponse | None, timeout: float) -> None:
        where = "queue full" if last is None else f"{last.status}, {last.progress:.0%}"
        super().__init__(f"the ruleset's tables are not ready after {timeout} s ({where})")
        self.last = last


class RulesetFailed(DicerefError):
    """The service could not solve the ruleset's tables (`answer.status` is `failed`)."""

    def __init__(self, answer: RulesetResponse) -> None:
        super().__init__(f"solving the tables of ruleset {answer.ruleset_id} failed")
        self.answer = answer


class APIConnectionError(DicerefError):
    """No answer: the connection could not be made or was lost."""

    def __init__(self, message: str, request_id: str | None = None) -> None:
        super().__init__(message)
        self.request_id = request_id  # the X-Request-ID the client sent


class APITimeoutError(APIConnectionError):
    """No answer within the timeout."""


_BY_STATUS: dict[int, type[APIError]] = {
    400: BadRequestError,
    404: NotFoundError,
    413: PayloadTooLargeError,
    422: RuleViolationError,
    429: RateLimitedError,
    503: UnavailableError,
}


def error_for(response: httpx.Response, retry_after: float | None) -> APIError:
    """The exception for an error response, keeping its problem+json body."""
    try:
        problem = msgspec.json.decode(response.content, type=ProblemDetails)
    except msgspec.DecodeError:  # not problem+json (a proxy's page, say): keep what there is
        problem = ProblemDetails(
            type="about:blank",
            title=response.reason_phrase or f"HTTP {response.status_code}",
            status=response.status_code,
            detail=response.text[:500],
        )
    status = response.status_code
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else APIError)
    return cls(problem, response, retry_after)
