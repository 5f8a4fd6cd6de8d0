"""A family's HTTP API: everything the family brings to the web layer, declared once.

Each family's `api/__init__.py` builds one `FamilyApi`, named `API`: its router, OpenAPI tag
and examples, the `code`s of its rule violations, the glossary of its own property names,
its fields holding dice, and its hooks.  The app, the OpenAPI document, the problem
catalogue and the shared routes find it through `Family.api_module` and name no family.

`family_router` declares once, for every operation of the family, what each handler would
otherwise repeat: the path prefix, the OpenAPI tag and the lean JSON path.  `operation`
declares a JSON-body operation the same way everywhere.
"""

from __future__ import annotations

import importlib
import importlib.resources
import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

import msgspec
from litestar import Request, Router, post
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import Tag

from diceref.core.game import GameInfo
from diceref.games.families import FAMILIES
from diceref.games.family import Family
from diceref.http.examples import Example
from diceref.http.lean import lean_json
from diceref.http.problems import problem_responses
from diceref.tables.registry import TableRegistry

F = TypeVar("F", bound=Callable[..., Any])


def vocabulary(package: str) -> tuple[dict[str, str], dict[str, str]]:
    """A family's `code`s and glossary, as its API package's `vocabulary.json` lists them
    (`error_codes` and `glossary`: name -> what it means): data, beside its models."""
    text = importlib.resources.files(package).joinpath("vocabulary.json").read_text("utf-8")
    listed = msgspec.json.decode(text, type=dict[str, dict[str, str]])
    return listed["error_codes"], listed["glossary"]


@dataclass(frozen=True)
class FamilyApi:
    router: Router
    tag: Tag  # the OpenAPI tag of the router's operations, with its description
    examples: Mapping[str, Sequence[Example]]
    # The `code` of each of its rule violations (the shared ones: diceref.http.problem_catalogue)
    # and what each property name only its models use means (the shared ones:
    # diceref.http.glossary): its `vocabulary.json` (`vocabulary`).
    error_codes: Mapping[str, str]
    glossary: Mapping[str, str]
    # Its request fields holding dice beyond `dice` (`throws[]`: every item of `throws` is a
    # list of dice), whose out-of-range items are `not_a_die`.
    dice_fields: tuple[str, ...] = ()
    # A family whose rules are a document a client may send whole (a scorecard's boxes):
    # its Struct (`POST /rulesets` takes any family's: one, or a union tagged by `family`)
    # and the hook that checks and builds it, given the request's `game` and `rules` too
    # (a custom document refuses them: `exclusive_fields`).
    rules_document: type[msgspec.Struct] | None = None
    custom_ruleset: Callable[[str | None, dict[str, Any] | None, Any], GameInfo] | None = None
    # The family's own parts of `GET /games` and `GET /games/{game}`: its fields, as a
    # Struct's (`diceref.http.game_models` joins every family's into one document), what
    # its rules give them (by name, computed once per game) and what the loaded tables add
    # (per request, from what is loaded: the document with its figures replaced).
    summary_fields: type[msgspec.Struct] | None = None
    rules_fields: type[msgspec.Struct] | None = None
    summarize: Callable[[GameInfo], Mapping[str, Any]] | None = None
    describe: Callable[[GameInfo], Mapping[str, Any]] | None = None
    with_tables: Callable[[GameInfo, Any, TableRegistry], Awaitable[Any]] | None = None


def family_router(path: str, tag: str, handlers: Sequence[HTTPRouteHandler]) -> Router:
    """The family's operations under `path`, tagged `tag`, every one on the lean JSON path
    (decoded once and strictly by msgspec, see `diceref.http.lean`)."""
    return Router(path, route_handlers=list(handlers), tags=[tag], middleware=[lean_json])


def operation(
    path: str, *, summary: str, problems: Sequence[int]
) -> Callable[[F], HTTPRouteHandler]:
    """A POST operation with a JSON body answered 200, run on the event loop (every handler
    is a pure computation of microseconds; a thread hop would cost more than the work), and
    the problem+json responses it may give.  Its operation id follows from its path
    (`diceref.http.openapi.operation_id_of`)."""

    def wrap(fn: F) -> HTTPRouteHandler:
        sync = {} if inspect.iscoroutinefunction(fn) else {"sync_to_thread": False}
        decorator = post(
            path,
            summary=summary,
            responses=problem_responses(*problems),
            status_code=200,
            **sync,  # type: ignore[arg-type]
        )
        return decorator(fn)

    return wrap


def ruleset_id_of(game: GameInfo, rules: object) -> str | msgspec.UnsetType:
    """An answer's `ruleset_id`: given whenever the request chose its rules (`rules` sent,
    even equal to the defaults), absent for the built-in game."""
    return msgspec.UNSET if rules is None else game.ruleset_id


def registry_of(request: Request[Any, Any, Any]) -> TableRegistry:
    """The app's tables registry (set by the app factory)."""
    registry: TableRegistry = request.app.state.tables
    return registry


@cache
def family_apis() -> dict[str, FamilyApi]:
    """Every family's `API`, by family name, in the order of `FAMILIES` (imported on first
    use: a family's API module imports this one)."""
    apis: dict[str, FamilyApi] = {}
    for family in FAMILIES:
        api = importlib.import_module(family.api_module).API
        if not isinstance(api, FamilyApi):
            raise TypeError(f"{family.api_module}.API is not a FamilyApi")
        apis[family.name] = api
    return apis


def family_of_document(document: msgspec.Struct) -> tuple[Family, FamilyApi]:
    """The family whose rules document `document` is (a request's custom `ruleset`)."""
    for family in FAMILIES:
        api = family_apis()[family.name]
        if api.rules_document is not None and isinstance(document, api.rules_document):
            return family, api
    raise TypeError(f"no family's rules document is a {type(document).__name__}")


@cache
def api_of_game(game_id: str) -> FamilyApi:
    """The API of the family that serves `game_id` (a game listed by `ALL_GAMES`)."""
    for family in FAMILIES:
        if game_id in family.games:
            return family_apis()[family.name]
    raise KeyError(game_id)
