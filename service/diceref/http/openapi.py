"""The published contract: the OpenAPI document, built from the app in one place.

Litestar generates the document from the route handlers; `contract_document` then makes it
truthful where the generator falls short, reading every correction from the code itself:
constraints and docstrings from msgspec's own JSON Schema of the same types, family-prefixed
names for colliding components, each handler's problem+json responses (`problem_responses`),
and every operation's examples (`all_examples`), which a test replays against the app.  It
is served at `/schema/openapi.json` and committed as `openapi/openapi.json`
(`uv run diceref openapi > openapi/openapi.json`); a test fails when the two differ.
"""

from __future__ import annotations

import copy
import json
import re
import typing
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import msgspec
import msgspec.inspect as mi
from litestar import Litestar, Request, Response
from litestar.handlers import HTTPRouteHandler
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, RedocRenderPlugin, SwaggerRenderPlugin
from litestar.openapi.spec import Tag
from litestar.routes import HTTPRoute
from litestar.types.internal_types import PathParameterDefinition

from diceref import __version__
from diceref.http.desk import FAVICON, REDOC_JS, SWAGGER_CSS, SWAGGER_JS, SWAGGER_PRESET_JS
from diceref.http.examples import EXAMPLE_REQUEST_ID, Example
from diceref.http.family import family_apis
from diceref.http.problem_catalogue import PROBLEM_DESCRIPTIONS, PROBLEM_TYPES
from diceref.http.problems import (
    PROBLEM_BASE,
    PROBLEM_MEDIA_TYPE,
    FieldError,
    Problem,
    ProblemDetails,
    body_too_large,
    unsupported_media,
)
from diceref.http.vocabulary import error_codes, glossary

JSON = dict[str, Any]
REF = "#/components/schemas/"

GAMES_TAG = Tag(name="games", description="The games the service referees and their full rulesets.")
OPERATIONS_TAG = Tag(
    name="operations", description="Probes for the people and machines that run the service."
)


def tags() -> list[Tag]:
    """The document's tags: the shared operations', then each family's own, in family order."""
    return [GAMES_TAG, *(api.tag for api in family_apis().values()), OPERATIONS_TAG]


DESCRIPTION = """\
Referee and coach for dice games.  Every operation is a pure computation on the request:
the service keeps no state between calls, so every call (POST included) may be retried.

Errors are RFC 9457 problem details (`application/problem+json`): `type`, `title`,
`status`, `detail`, `instance`, and `errors` naming each offending field with the reason.
400 is a request that does not match this document, 404 an unknown game, 422 a request
that matches the document but breaks a rule of the game, 503 a solved table that is still
loading (retry after the `Retry-After` header's seconds, also given as `retry_after`).
Every response carries an `X-Request-ID` header (the client's own when it sent a
well-formed one), also given as `request_id` in problem bodies: quote it when reporting
one.  Every response also carries `X-API-Version`, the version of this document
(`info.version`) the service speaks, also given by `GET /healthz` as `api_version`: a
client generated from a document of another major version (for 0.x, another minor) says
so in its errors.  Numbers are never taken from strings: `"throw": "2"` is a 400 naming
`throw`.  A body that is empty, not JSON or not an object is a 400 whose field is `body`.
"""

# Components whose class names collide across families get the family's name as a prefix,
# read off the module path (diceref.games.<family>.api...).
FAMILY_MODULE = re.compile(r"^diceref\.games\.(?P<family>[a-z_]+)\.")

# JSON Schema keywords copied from msgspec where Litestar left them out.
COPIED = (
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "description",
)


def operation_id_of(path: str) -> str:
    """An operation's id: the camelCase of its path's segments, a path parameter written
    `By` + its name (`/chicago/throws` -> `chicagoThrows`, `/games/{game}` -> `gamesByGame`),
    so that the id, and the SDK method named after it, follow from the path alone."""
    words: list[str] = []
    for segment in path.strip("/").split("/"):
        parameter = re.fullmatch(r"\{(\w+)(?::\w+)?\}", segment)
        words += ["by", parameter.group(1)] if parameter else re.split(r"[-_]", segment)
    first, *rest = [w for w in words if w]
    return first.lower() + "".join(w[:1].upper() + w[1:] for w in rest)


def _operation_id(
    handler: HTTPRouteHandler, method: str, components: list[str | PathParameterDefinition]
) -> str:
    """Litestar's hook: the id of `operation_id_of` for the handler's full path."""
    parts = [f"{{{c.name}}}" if isinstance(c, PathParameterDefinition) else c for c in components]
    return operation_id_of("/" + "/".join(parts))


def openapi_config() -> OpenAPIConfig:
    return OpenAPIConfig(
        operation_id_creator=_operation_id,
        title="diceref",
        version=__version__,
        description=DESCRIPTION,
        tags=tags(),
        use_handler_docstrings=True,
        path="/schema",
        render_plugins=[
            ContractJsonPlugin(),
            # Their assets are the service's own (diceref.http.desk), never a CDN's.
            ContractRedocPlugin(
                path=["/", "/redoc"], js_url=REDOC_JS, google_fonts=False, favicon=FAVICON
            ),
            ContractSwaggerPlugin(
                path="/swagger",
                js_url=SWAGGER_JS,
                css_url=SWAGGER_CSS,
                standalone_preset_js_url=SWAGGER_PRESET_JS,
                favicon=FAVICON,
            ),
        ],
    )


# --- the document ------------------------------------------------------------------------


def render_document(app: Litestar) -> str:
    """The document as committed: sorted keys, two-space indent, a trailing newline."""
    return json.dumps(contract_document(app), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def all_examples() -> dict[str, list[Example]]:
    """Every operation's examples: the shared operations' and each family's."""
    from diceref.http.routes.examples import EXAMPLES

    found: dict[str, list[Example]] = dict(EXAMPLES)
    for api in family_apis().values():
        for op_id, examples in api.examples.items():
            if op_id in found:
                raise RuntimeError(f"two families give examples of {op_id}")
            found[op_id] = list(examples)
    return found


def contract_document(app: Litestar) -> JSON:
    """The app's OpenAPI document as published."""
    doc: JSON = copy.deepcopy(app.openapi_schema.to_schema())
    routes = list(_handlers(app))
    handlers = [handler for _, handler in routes]
    examples = all_examples()
    types = _component_types(handlers)
    components: JSON = doc["components"]["schemas"]
    expected = _litestar_names(types)
    if set(expected) != set(components):
        raise RuntimeError(
            "cannot map the generated components to their types: "
            f"unmatched {sorted(set(components) ^ set(expected))}"
        )
    for name, cls in expected.items():
        if issubclass(cls, msgspec.Struct):
            _merge(components[name], _msgspec_component(cls), set())
    _rename_components(doc, expected)
    _describe_properties(doc["components"]["schemas"])
    for path, handler in routes:
        operation = _operation(doc, path, handler)
        _error_responses(operation)
        _add_examples(operation, handler, examples.get(operation["operationId"], []))
        if "requestBody" in operation:
            limit = app.state.settings.max_body_bytes
            _body_too_large(operation, path, limit)
            _body_refused(operation, path, app.state.settings.body_timeout)
        _response_headers(operation)
    doc["x-problem-types"] = {
        PROBLEM_BASE + kind: {"status": status, "title": title, "when": when}
        for kind, (status, title, when) in PROBLEM_TYPES.items()
    }
    doc["x-error-codes"] = error_codes()
    return doc


def _body_too_large(operation: JSON, path: str, limit: int) -> None:
    """Every operation with a body may answer 413 (the service's body limit, which a
    schema-valid body can exceed: lists of turns and throws are long)."""
    example = msgspec.to_builtins(body_too_large(limit, instance=path))
    example["request_id"] = EXAMPLE_REQUEST_ID
    operation["responses"]["413"] = {
        "description": PROBLEM_DESCRIPTIONS[413],
        "content": {
            PROBLEM_MEDIA_TYPE: {
                "schema": {"$ref": "#/components/schemas/ProblemDetails"},
                "examples": {"too-large": {"summary": "A body over the limit", "value": example}},
            }
        },
    }


def _body_refused(operation: JSON, path: str, body_timeout: float) -> None:
    """Every operation with a body may answer 415 (not declared as JSON, or encoded) and
    408 (a body slower than `DICEREF_BODY_TIMEOUT`): both are `diceref.http.lean`'s, before
    the body is decoded, so they are declared here once for all of them."""
    samples = {
        415: (
            "not-json",
            "A body sent as text/plain",
            unsupported_media(
                "Content-Type", "'text/plain' is not supported: send application/json"
            ),
        ),
        408: (
            "too-slow",
            "A body that did not arrive in time",
            Problem(
                408,
                "body-timeout",
                "Request body too slow",
                f"the request body did not arrive within {body_timeout:g} s (DICEREF_BODY_TIMEOUT)",
                [FieldError("body", f"not complete after {body_timeout:g} s", "body_timeout")],
            ),
        ),
    }
    for status, (name, summary, problem) in samples.items():
        example = ProblemDetails(
            type=PROBLEM_BASE + problem.kind,
            title=problem.title,
            status=problem.status,
            detail=problem.detail,
            instance=path,
            errors=problem.errors,
            request_id=EXAMPLE_REQUEST_ID,
        )
        operation["responses"][str(status)] = {
            "description": PROBLEM_DESCRIPTIONS[status],
            "content": {
                PROBLEM_MEDIA_TYPE: {
                    "schema": {"$ref": "#/components/schemas/ProblemDetails"},
                    "examples": {name: {"summary": summary, "value": msgspec.to_builtins(example)}},
                }
            },
        }


def _handlers(app: Litestar) -> Iterator[tuple[str, HTTPRouteHandler]]:
    """Every published handler with its full path (its router's prefix included)."""
    for route in app.routes:
        if isinstance(route, HTTPRoute):
            for handler in route.route_handlers:
                if handler.resolve_include_in_schema():
                    yield route.path, handler


def _operation(doc: JSON, path: str, handler: HTTPRouteHandler) -> JSON:
    """The handler's operation in the document (`path` is the route's full path)."""
    (method,) = handler.http_methods
    operation: JSON = doc["paths"][re.sub(r"\{(\w+):\w+\}", r"{\1}", path)][method.lower()]
    return operation


# --- components: which type is which, msgspec's view of it, names ----------------------------


def _component_types(handlers: list[HTTPRouteHandler]) -> list[type]:
    """Every Struct and Enum reachable from the handlers' bodies and responses."""
    roots: list[Any] = []
    for handler in handlers:
        hints = typing.get_type_hints(handler.fn, include_extras=True)
        for hint in (hints[k] for k in ("data", "return") if k in hints):
            # a handler that sets headers returns `Response[T]`: the body is a T
            roots.append(typing.get_args(hint)[0] if typing.get_origin(hint) is Response else hint)
        responses = (handler.responses or {}).values()
        roots += [spec.data_container for spec in responses if spec.data_container is not None]
    found: dict[type, None] = {}
    for info in mi.multi_type_info(roots):
        _walk(info, found)
    return list(found)


def _walk(info: mi.Type, found: dict[type, None]) -> None:
    if isinstance(info, mi.StructType | mi.EnumType):
        if info.cls in found:
            return
        found[info.cls] = None
    if isinstance(info, mi.StructType):
        for f in info.fields:
            _walk(f.type, found)
    elif isinstance(info, mi.Metadata):
        _walk(info.type, found)
    elif isinstance(info, mi.ListType | mi.SetType | mi.FrozenSetType | mi.VarTupleType):
        _walk(info.item_type, found)
    elif isinstance(info, mi.DictType):
        _walk(info.key_type, found)
        _walk(info.value_type, found)
    elif isinstance(info, mi.UnionType):
        for t in info.types:
            _walk(t, found)
    elif isinstance(info, mi.TupleType):
        for t in info.item_types:
            _walk(t, found)


def _key(cls: type) -> tuple[str, ...]:
    return (*cls.__module__.split("."), re.sub(r"[^a-zA-Z0-9._-]+", "_", cls.__qualname__))


def _litestar_names(types: list[type]) -> dict[str, type]:
    """The component name Litestar gives each type: the class name, or for names shared by
    several modules the module path after their common prefix, joined by `_`."""
    groups: defaultdict[str, list[type]] = defaultdict(list)
    for cls in types:
        groups[_key(cls)[-1]].append(cls)
    names: dict[str, type] = {}
    for name, group in groups.items():
        if len(group) == 1:
            names[name] = group[0]
            continue
        keys = [_key(cls) for cls in group]
        common = 0
        while all(len(k) > common + 1 and k[common] == keys[0][common] for k in keys):
            common += 1
        for cls, key in zip(group, keys, strict=True):
            names["_".join(key[common:])] = cls
    return names


def _public_name(litestar_name: str, cls: type) -> str:
    if litestar_name == cls.__qualname__:
        return litestar_name
    family = FAMILY_MODULE.match(cls.__module__)
    if family is None:
        raise RuntimeError(
            f"{cls.__module__}.{cls.__qualname__} shares its name with another component "
            "outside any game family: rename one of them"
        )
    return family.group("family").title() + cls.__qualname__


def _describe_properties(components: JSON) -> None:
    """Every property gets the glossary's description of its name, unless its type carries
    its own; a name missing from every glossary stops the document (`vocabulary.glossary`)."""
    described = glossary()
    missing = []
    for name, component in components.items():
        for prop, schema in (component.get("properties") or {}).items():
            if "description" in schema:
                continue
            if prop not in described:
                missing.append(f"{name}.{prop}")
                continue
            schema["description"] = described[prop]
    if missing:
        raise RuntimeError(f"properties missing from every glossary: {missing}")


def _rename_components(doc: JSON, names: dict[str, type]) -> None:
    renames = {old: _public_name(old, cls) for old, cls in names.items()}
    if len(set(renames.values())) != len(renames):
        raise RuntimeError(f"component names collide after renaming: {renames}")
    schemas = doc["components"]["schemas"]
    doc["components"]["schemas"] = {renames[k]: v for k, v in sorted(schemas.items())}
    for name, schema in doc["components"]["schemas"].items():
        if "title" in schema:
            schema["title"] = name

    def fix(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(REF):
                node["$ref"] = REF + renames[ref[len(REF) :]]
            for value in node.values():
                fix(value)
        elif isinstance(node, list):
            for value in node:
                fix(value)

    fix(doc)


def _msgspec_component(cls: type) -> JSON:
    (ref,), defs = msgspec.json.schema_components([cls], ref_template=REF + "{name}")
    component: JSON = defs[ref["$ref"][len(REF) :]]
    return component


def _merge(ours: JSON, theirs: JSON, inherited: set[str]) -> None:
    """Copy msgspec's keywords into Litestar's schema node where Litestar has none.

    `inherited` holds the keywords an enclosing `oneOf` node already states (Litestar puts
    an optional field's constraints beside its `oneOf`, msgspec inside the `anyOf` branch).
    """
    if "$ref" in theirs or "$ref" in ours:
        return
    present = inherited | set(ours)
    for keyword in COPIED:
        if keyword in theirs and keyword not in present:
            ours[keyword] = theirs[keyword]
    if theirs.get("additionalProperties") is False and "additionalProperties" not in ours:
        ours["additionalProperties"] = False
    for name, sub in ours.get("properties", {}).items():
        if name in theirs.get("properties", {}):
            _merge(sub, theirs["properties"][name], set())
    for keyword in ("items", "additionalProperties"):
        if isinstance(ours.get(keyword), dict) and isinstance(theirs.get(keyword), dict):
            _merge(ours[keyword], theirs[keyword], set())
    branches: list[JSON] = theirs.get("anyOf") or theirs.get("oneOf") or []
    own: list[JSON] = ours.get("oneOf") or ours.get("anyOf") or []
    for branch in own:
        match = [b for b in branches if _same_kind(branch, b)]
        if len(match) == 1:
            _merge(branch, match[0], present - {"oneOf", "anyOf"})


def _same_kind(a: JSON, b: JSON) -> bool:
    if "$ref" in a or "$ref" in b:
        return a.get("$ref") == b.get("$ref")
    return bool(a.get("type")) and a.get("type") == b.get("type")


# --- responses and examples --------------------------------------------------------------------


def _error_responses(operation: JSON) -> None:
    """Keep only the problem+json error responses the handler declares."""
    responses: JSON = operation["responses"]
    for status in list(responses):
        if int(status) < 400:
            continue
        if PROBLEM_MEDIA_TYPE not in responses[status].get("content", {}):
            del responses[status]  # Litestar's generic ValidationException shape
        elif status == "503":
            responses[status]["headers"] = {
                "Retry-After": {
                    "description": "Seconds to wait before retrying (also `retry_after`).",
                    "required": True,
                    "schema": {"type": "integer", "minimum": 0},
                }
            }


REQUEST_ID_HEADER = {
    "description": "The request's id: the client's own `X-Request-ID` when well-formed (up "
    "to 128 letters, digits and `._:@/+=~-`), else a new one; also a problem's `request_id`.",
    "required": True,
    "schema": {"type": "string", "maxLength": 128},
}


API_VERSION_HEADER = {
    "description": "The version of this document (`info.version`) the service speaks; a "
    "client generated for another major version (for 0.x, another minor) says so.",
    "required": True,
    "schema": {"type": "string"},
    "example": __version__,
}


def _response_headers(operation: JSON) -> None:
    """Every response carries `X-Request-ID` and `X-API-Version`; a header Litestar lists
    without a schema is a string."""
    for response in operation["responses"].values():
        headers = response.setdefault("headers", {})
        for header in headers.values():
            header.setdefault("schema", {"type": "string"})
        headers["X-Request-ID"] = REQUEST_ID_HEADER
        headers["X-API-Version"] = API_VERSION_HEADER


def _add_examples(operation: JSON, handler: HTTPRouteHandler, examples: list[Example]) -> None:
    op_id = operation["operationId"]
    if not examples:
        raise RuntimeError(f"operation {op_id} has no example (see diceref.http.examples)")
    statuses = {e.status for e in examples}
    # a response without a body (304 Not Modified) has no example
    documented = {int(s) for s, r in operation["responses"].items() if "content" in r}
    if statuses != documented:
        raise RuntimeError(
            f"{op_id}: examples cover statuses {sorted(statuses)}, "
            f"the operation documents {sorted(documented)}"
        )
    for example in examples:
        response = operation["responses"][str(example.status)]
        media = next(iter(response["content"].values()))
        media.setdefault("examples", {})[example.name] = {
            "summary": example.summary,
            "value": example.response,
            **({"description": example.request_text()} if example.request_text() else {}),
        }
        if example.status == 400:
            continue  # the request does not match the document: no request example
        if example.body is not None:
            body = operation["requestBody"]["content"]["application/json"]
            body.setdefault("examples", {})[example.name] = {
                "summary": example.summary,
                "value": example.body,
            }
        for name, value in (example.path or {}).items():
            (param,) = [p for p in operation["parameters"] if p["name"] == name]
            param.setdefault("examples", {})[example.name] = {
                "summary": example.summary,
                "value": value,
            }


# --- serving the same document -------------------------------------------------------------


class ContractJsonPlugin(JsonRenderPlugin):
    """`/schema/openapi.json`: the published document, not Litestar's raw one."""

    def __init__(self) -> None:
        super().__init__()
        self._rendered: bytes | None = None  # one plugin per app: build the document once

    def render(self, request: Request[Any, Any, Any], openapi_schema: JSON) -> bytes:
        if self._rendered is None:
            self._rendered = render_document(request.app).encode()
        return self._rendered


class ContractRedocPlugin(RedocRenderPlugin):
    def render(self, request: Request[Any, Any, Any], openapi_schema: JSON) -> bytes:
        return super().render(request, contract_document(request.app))


class ContractSwaggerPlugin(SwaggerRenderPlugin):
    def render(self, request: Request[Any, Any, Any], openapi_schema: JSON) -> bytes:
        return super().render(request, contract_document(request.app))


__all__ = [
    "ContractJsonPlugin",
    "contract_document",
    "openapi_config",
    "render_document",
]
