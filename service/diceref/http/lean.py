"""The lean request path of the JSON operations: decode, call the handler, encode.

`lean_json` is a middleware (declared once per family router) that answers with the
handler's own function: the body is read through Litestar's `Request` (its body limit and
413 stay), decoded once and strictly by a msgspec `Decoder` for the handler's `data` type
(Litestar's lax conversion would turn `"2"` into `2`), and the returned Struct encoded by
msgspec.  Routing, the OpenAPI document, app middleware and the problem+json handlers stay
Litestar's; only its per-request handler machinery, which costs about as much as a whole
`GET /healthz`, is skipped.  A handler served this way takes `data` and optionally
`request`, and returns a Struct with its declared status code.
"""

from __future__ import annotations

import asyncio
import inspect
import math
import re
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import UnionType
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import (
    ClientException,
    InternalServerException,
    ValidationException,
)
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.handlers import HTTPRouteHandler
from litestar.types import ASGIApp, Receive, Scope, Send

from diceref.http.depth import check_depth
from diceref.http.dice_count import dice_count_error
from diceref.http.msgspec_errors import MSGSPEC_MESSAGE
from diceref.http.problems import (
    FieldError,
    Problem,
    quote,
    unsupported_media,
)

_ENCODER = msgspec.json.Encoder()


@dataclass(frozen=True)
class _Plan:
    """What serving one handler needs, worked out once from its signature."""

    call: Callable[..., Any]
    is_async: bool
    data_type: Any
    decoder: msgspec.json.Decoder[Any]
    wants_request: bool
    headers: list[tuple[bytes, bytes]]
    status: int
    max_body_size: float  # the route's request_max_body_size (inf: no limit)


def _plan(handler: HTTPRouteHandler) -> _Plan | None:
    """How to serve `handler` lean; None for a handler that takes no JSON body, such as the
    OPTIONS handler Litestar adds to every path, which takes Litestar's generic path."""
    fn = handler.fn
    params = set(inspect.signature(fn).parameters)
    if "data" not in params:
        return None
    if not params <= {"data", "request"}:
        raise TypeError(
            f"lean_json serves handlers taking `data` (and optionally `request`); "
            f"{fn.__qualname__} takes {sorted(params)}"
        )
    hints = typing.get_type_hints(fn, include_extras=True)
    data_type = hints["data"]
    if typing.get_origin(data_type) is typing.Annotated:  # JSONBody[T] is Annotated[T, Body]
        data_type = typing.get_args(data_type)[0]
    return _Plan(
        call=fn,
        is_async=inspect.iscoroutinefunction(fn),
        data_type=data_type,
        decoder=msgspec.json.Decoder(data_type),
        wants_request="request" in params,
        headers=[(b"content-type", (handler.media_type or "application/json").encode())],
        status=handler.status_code,
        max_body_size=handler.resolve_request_max_body_size() or math.inf,
    )


def decode(plan: _Plan, body: bytes) -> Any:
    """The body as the handler's `data` type, strictly: a string is never taken for a number.

    JSON has one number type, so `5.0` is the integer 5 (JSON Schema agrees: the published
    document's `integer` admits it).  msgspec's strict decoder refuses it, so a body it
    refuses for that reason alone is decoded again with integral floats read as integers;
    well-formed requests never take that second path.
    """
    try:
        return plan.decoder.decode(body)
    except msgspec.ValidationError as exc:
        if "got `float`" not in str(exc):
            raise _refused(exc, body, plan.data_type) from None
    except msgspec.DecodeError as exc:  # not JSON at all
        raise invalid_body(exc, body) from None
    value = _integral_floats_as_int(msgspec.json.decode(body))
    try:
        return msgspec.convert(value, plan.data_type)
    except msgspec.ValidationError as exc:
        raise _refused(exc, body, plan.data_type) from None


def _refused(exc: msgspec.ValidationError, body: bytes, data_type: Any) -> Exception:
    """The 400 of a body the decoder refused: a list of dice of the wrong length in the
    domain's words (`diceref.http.dice_count`), anything else in msgspec's."""
    counted = dice_count_error(str(exc), body, data_type)
    if counted is not None:
        field, reason = counted
        message = f"{reason} - at `$.{field}`"
        return invalid_body(msgspec.ValidationError(message), body, "wrong_dice_count")
    refused = _document_refusal(exc, body, data_type)
    if refused is not None:
        return refused
    return invalid_body(_with_keys(exc, body, data_type), body)


DOCUMENT_FIELD = "ruleset"


def _document_types(data_type: Any) -> list[Any]:
    """The types a request's custom rules document (its `ruleset` field) may be, each a
    family's Struct; one with a `refusal` classmethod words msgspec's refusals of it."""
    if not (isinstance(data_type, type) and issubclass(data_type, msgspec.Struct)):
        return []
    kind = typing.get_type_hints(data_type).get(DOCUMENT_FIELD)
    members = (
        typing.get_args(kind) if typing.get_origin(kind) in (typing.Union, UnionType) else (kind,)
    )
    return [m for m in members if callable(getattr(m, "refusal", None))]


def _document_refusal(
    exc: msgspec.ValidationError, body: bytes, data_type: Any
) -> Exception | None:
    """A custom rules document (the request's `ruleset`) refused as its family words it
    (the document type's `refusal`), given the path into the document; None to leave it
    msgspec's 400.  Error path only: the body is decoded once more, as JSON data, for the
    values the reason quotes."""
    match = MSGSPEC_MESSAGE.match(str(exc))
    path = match.group("path") if match else None
    if match is None or path is None or match.group("key"):
        return None
    head, rest = path[: len(DOCUMENT_FIELD) + 1], path[len(DOCUMENT_FIELD) + 1 :]
    if head != "." + DOCUMENT_FIELD or rest[:1] not in ("", ".", "["):
        return None
    raw = msgspec.json.decode(body)
    document = raw.get(DOCUMENT_FIELD) if isinstance(raw, dict) else None
    at = f" - at `${rest}`" if rest else ""
    inner = msgspec.ValidationError(match.group("reason") + at)
    for kind in _document_types(data_type):
        refused: Exception | None = kind.refusal(inner, document)
        if refused is not None:
            return refused
    return None


def _integral_floats_as_int(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_integral_floats_as_int(v) for v in value]
    if isinstance(value, dict):
        return {k: _integral_floats_as_int(v) for k, v in value.items()}
    return value


_STEP = re.compile(r"\.(?P<name>[^.\[]+)|\[(?P<index>\d+)\]|\[\.\.\.\]")


def _with_keys(exc: msgspec.ValidationError, body: bytes, data_type: Any) -> Exception:
    """msgspec names a bad dict value `boxes[...]`; the client wants `boxes.ones`.  Each key
    of that dict is tried alone, and the first one that still fails the same way is named.
    (Error path only: the body is decoded once more per key of that one dict.)"""
    message = str(exc)
    match = MSGSPEC_MESSAGE.match(message)
    path = match.group("path") if match else None
    if match is None or path is None or "[...]" not in path:
        return exc
    document = _integral_floats_as_int(msgspec.json.decode(body))
    parent: Any = document
    named = ""
    for step in _STEP.finditer(path):
        if step.group(0) != "[...]":
            key: Any = step.group("name") or int(step.group("index"))
            named += step.group(0)
            parent = parent[key]
            continue
        if not isinstance(parent, dict):
            return exc
        everything = dict(parent)
        for key, item in everything.items():
            parent.clear()
            parent[key] = item
            try:
                msgspec.convert(document, data_type)
            except msgspec.ValidationError as alone:
                if str(alone) == message:
                    rest = path[step.end() :]
                    reason = match.group("reason")
                    return msgspec.ValidationError(f"{reason} - at `${named}.{key}{rest}`")
        return exc  # no key fails alone: keep msgspec's own wording
    return exc


def invalid_body(exc: Exception, body: bytes, code: str | None = None) -> ValidationException:
    """A body that is not the documented JSON, named by field (`body` when it is not JSON
    at all) in the shape of Litestar's own validation errors, so one handler renders both
    (`code`: the error's code, when msgspec's words do not say it)."""
    empty = not body.strip()
    message = "the request body is empty: expected a JSON object" if empty else str(exc)
    detail = "Validation failed for the request body"
    item = {"message": message, "key": "body"} | ({} if code is None else {"code": code})
    return ValidationException(detail=detail, extra=[item])


@dataclass(frozen=True)
class BodyHeaders:
    """The request headers the lean path reads, found in one pass over the ASGI scope's
    (lower-case) header list: building Litestar's `Headers` for three lookups cost more
    than a whole `/healthz`."""

    content_type: str | None
    content_encoding: str | None
    content_length: bytes | None

    @classmethod
    def of(cls, scope: Scope) -> BodyHeaders:
        found: dict[bytes, bytes] = {}
        for key, value in scope["headers"]:
            if key in _BODY_HEADERS and key not in found:
                found[key] = bytes(value)
        kind = found.get(b"content-type")
        encoding = found.get(b"content-encoding")
        return cls(
            None if kind is None else kind.decode("latin-1"),
            None if encoding is None else encoding.decode("latin-1"),
            found.get(b"content-length"),
        )


_BODY_HEADERS = frozenset((b"content-type", b"content-encoding", b"content-length"))


def check_content_headers(headers: BodyHeaders) -> bool:
    """Refuse, with a 415 before the body is read, a body that is not declared as JSON:
    `Content-Type` must be `application/json` (its only parameter, if any, `charset=utf-8`)
    and `Content-Encoding` absent or `identity`.  Returns whether a type was declared: a
    body with none is taken as JSON only if it parses (`require_json`)."""
    encoding = (headers.content_encoding or "").strip().lower()
    if encoding not in ("", "identity"):
        raise unsupported_media(
            "Content-Encoding",
            f"{quote(encoding)} is not supported: send the body unencoded",
            {"Accept-Encoding": "identity"},
            code="unsupported_encoding",
        )
    raw = headers.content_type
    if raw is None or not raw.strip():
        return False
    media, *params = (part.strip() for part in raw.split(";"))
    if media.lower() != "application/json":
        raise unsupported_media(
            "Content-Type", f"{quote(media)} is not supported: send application/json"
        )
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() != "charset" or value.strip().strip('"').lower() != "utf-8":
            raise unsupported_media(
                "Content-Type",
                f"parameter {quote(param)} is not supported: application/json takes only "
                "charset=utf-8",
            )
    return True


def require_json(body: bytes) -> None:
    """A body sent without a `Content-Type` is JSON only if it parses; otherwise a 415."""
    try:
        msgspec.json.decode(body)
    except msgspec.DecodeError:
        raise unsupported_media(
            "Content-Type",
            "missing, and the body is not JSON: send Content-Type: application/json",
        ) from None


class BodyDeadlines:
    """The deadlines of the bodies being read in one event loop, watched by one timer.

    `asyncio.timeout` around each read arms and cancels a timer handle per request, a cost
    that shows against a whole `POST /score`.  Here a read only enters and leaves a dict, and
    a timer that runs every `TICK` seconds while reads are pending cancels each read whose
    deadline has passed, so a late body is cut off at most `TICK` after its deadline.
    """

    TICK = 0.25

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.reading: dict[asyncio.Task[Any], float] = {}
        self.expired: set[asyncio.Task[Any]] = set()
        self.timer: asyncio.TimerHandle | None = None

    def enter(self, task: asyncio.Task[Any], timeout: float) -> None:
        self.reading[task] = self.loop.time() + timeout
        if self.timer is None:
            self.timer = self.loop.call_later(self.TICK, self._tick)

    def leave(self, task: asyncio.Task[Any]) -> bool:
        """Stop watching `task`; whether its deadline passed (and it was cancelled for it)."""
        self.reading.pop(task, None)
        if task in self.expired:
            self.expired.discard(task)
            return True
        return False

    def _tick(self) -> None:
        now = self.loop.time()
        for task, deadline in list(self.reading.items()):
            if deadline <= now:
                del self.reading[task]
                self.expired.add(task)
                task.cancel()
        self.timer = self.loop.call_later(self.TICK, self._tick) if self.reading else None


_DEADLINES: dict[int, BodyDeadlines] = {}  # by id of the running loop (tests run several)


def body_deadlines() -> BodyDeadlines:
    loop = asyncio.get_running_loop()
    got = _DEADLINES.get(id(loop))
    if got is None or got.loop is not loop:
        _DEADLINES.clear()  # a server runs one loop; an earlier loop's watch is done with
        got = _DEADLINES[id(loop)] = BodyDeadlines(loop)
    return got


async def read_body(receive: Receive, headers: BodyHeaders, limit: float, timeout: float) -> bytes:
    """The whole body, within `timeout` seconds of the headers (`DICEREF_BODY_TIMEOUT`):
    granian has no body timeout, and a body trickled a byte a second held a connection (and
    a shutdown) for as long as the client liked.  A late body gets a 408 problem and the
    connection is closed.

    Read straight off `receive`, with Litestar's own limits and errors: a body (announced or
    received) over the route's `request_max_body_size` is Litestar's 413, a malformed
    `Content-Length` its 400 (Litestar's `Request.body` would cost more a request)."""
    if headers.content_length is not None:
        try:
            announced = int(headers.content_length)
        except ValueError:
            raise ClientException(
                f"Invalid content-length: {headers.content_length.decode('latin-1')!r}"
            ) from None
        if announced > limit:
            raise RequestEntityTooLarge
    task = asyncio.current_task()
    assert task is not None
    deadlines = body_deadlines()
    deadlines.enter(task, timeout)
    try:
        return await _receive_body(receive, limit)
    except asyncio.CancelledError:
        if not deadlines.leave(task):
            raise
        task.uncancel()
        raise Problem(
            408,
            "body-timeout",
            "Request body too slow",
            f"the request body did not arrive within {timeout:g} s (DICEREF_BODY_TIMEOUT)",
            [FieldError("body", f"not complete after {timeout:g} s", "body_timeout")],
            headers={"Connection": "close"},
        ) from None
    finally:
        deadlines.leave(task)


async def _receive_body(receive: Receive, limit: float) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        event = await receive()
        if event["type"] == "http.disconnect":
            raise InternalServerException("client disconnected prematurely")
        if event["type"] != "http.request":
            continue
        chunk = event.get("body", b"")
        if chunk:
            size += len(chunk)
            if size > limit:
                raise RequestEntityTooLarge
            chunks.append(chunk)
        if not event.get("more_body", False):
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def lean_json(app: ASGIApp) -> ASGIApp:
    """Serve the wrapped route's handler on the lean path (`app`, Litestar's generic
    handling of the same route, is called only for handlers without a JSON body)."""
    plans: dict[int, _Plan | None] = {}

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        route_handler = typing.cast("HTTPRouteHandler", scope["route_handler"])
        key = id(route_handler)
        plan = plans[key] if key in plans else plans.setdefault(key, _plan(route_handler))
        if plan is None:
            await app(scope, receive, send)
            return
        request: Request[Any, Any, Any] = Request(scope, receive)
        try:
            headers = BodyHeaders.of(scope)
            declared = check_content_headers(headers)
            timeout = request.app.state.settings.body_timeout
            body = await read_body(receive, headers, plan.max_body_size, timeout)
            check_depth(body)
            if not declared:
                require_json(body)
            data = decode(plan, body)
            if plan.wants_request:
                result = plan.call(data=data, request=request)
            else:
                result = plan.call(data=data)
            if plan.is_async:
                result = await typing.cast("Awaitable[Any]", result)
            content = _ENCODER.encode(result)
        except Exception as exc:
            await _answer_exception(request, route_handler, exc)(scope, receive, send)
            return
        await send(
            {
                "type": "http.response.start",
                "status": plan.status,
                "headers": [*plan.headers, (b"content-length", str(len(content)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": content, "more_body": False})

    return serve


def _answer_exception(
    request: Request[Any, Any, Any], route_handler: HTTPRouteHandler, exc: Exception
) -> ASGIApp:
    """The response the route's exception handlers give `exc` (the same problem+json as on
    Litestar's generic path); an exception nobody handles is raised again."""
    handlers = route_handler.resolve_exception_handlers()
    for cls in type(exc).__mro__:
        handler = handlers.get(cls)
        if handler is not None:
            response: Response[Any] = handler(request, exc)
            return response.to_asgi_response(app=None, request=request)
    raise exc
