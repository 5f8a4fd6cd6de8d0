"""The game documents of `GET /games` and `GET /games/{game}`, shared by every family.

The common part is every game's `GameInfo`.  A family declares its own optional fields
(a scorecard game's boxes, bonuses and table figures) as a Struct (`FamilyApi.summary_fields`,
`FamilyApi.rules_fields`) and fills them through its hooks; `GameSummary` and `GameRules`
are the common part joined with every family's fields, one document shape for every game.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from diceref.core.game import GameInfo
from diceref.http.family import FamilyApi, family_apis


class GameSummaryBase(msgspec.Struct, omit_defaults=True):
    """What `GET /games` lists of every game (the joined `GameSummary` adds the families')."""

    id: str
    name: str
    family: str
    dice_count: int
    throws_per_turn: int
    min_players: int
    max_players: int | None


class ParameterOut(msgspec.Struct, omit_defaults=True):
    """A rule setting as a client reads it, and may set it per request under `rules`."""

    # Bounded, as every text a request may carry: a client sends this document back in a
    # custom `ruleset` (where it is ignored).
    name: Annotated[str, Meta(max_length=64)]
    value: int | bool | Annotated[str, Meta(max_length=64)] | list[int]
    description: Annotated[str, Meta(max_length=2000)]
    reading: bool
    # A short human name for the parameter ("Upper bonus threshold"), for a frontend to show.
    label: Annotated[str, Meta(max_length=80)]
    value_type: Literal["boolean", "integer", "string", "integer_list"]
    settable: bool
    choices: list[Annotated[str, Meta(max_length=64)]] | None = None
    minimum: int | None = None
    maximum: int | None = None
    length: int | None = None
    # What each choice means, by choice (`description` tells what the game plays).
    choice_descriptions: (
        Annotated[
            dict[Annotated[str, Meta(max_length=64)], Annotated[str, Meta(max_length=2000)]],
            Meta(max_length=64),
        ]
        | None
    ) = None


class ParameterIn(ParameterOut, kw_only=True):
    """A rule setting sent back in a custom `ruleset` (where it is ignored): one without a
    `label`, as in a document saved from a service older than labels, is taken too."""

    label: Annotated[str, Meta(max_length=80)] = ""


def parameters_out(game: GameInfo) -> list[ParameterOut]:
    return [
        ParameterOut(
            p.name,
            list(p.value) if isinstance(p.value, tuple) else p.value,
            p.description,
            p.reading,
            p.label,
            p.type,
            p.settable,
            list(p.choices) or None,
            p.minimum,
            p.maximum,
            p.length,
            dict(zip(p.choices, p.choice_descriptions, strict=True))
            if p.choice_descriptions
            else None,
        )
        for p in game.parameters
    ]


class GameRulesBase(GameSummaryBase, omit_defaults=True):
    """What `GET /games/{game}` says of every game: what `GET /games` lists, and more (the
    joined `GameRules` adds the families' fields)."""

    source: str
    summary: str
    face_labels: list[str]
    parameters: list[ParameterOut]
    # A game with solved tables (a scorecard game) always gives these three: while a table
    # is not loaded yet, `tables` is "loading" and the figure it gives is null (the request
    # never waits for a load; it starts one in the background).  Other games omit them.
    max_score: (
        Annotated[int, Meta(description="The highest score the rules allow; null while loading")]
        | msgspec.UnsetType
        | None
    ) = msgspec.UNSET
    optimal_expected_score: (
        Annotated[
            float,
            Meta(
                description="Expected final score of optimal play from an empty card; null "
                "while loading"
            ),
        ]
        | msgspec.UnsetType
        | None
    ) = msgspec.UNSET
    tables: (
        Annotated[
            Literal["ready", "loading"],
            Meta(
                description="`loading` while the game's solved tables are being loaded (in "
                "the background: ask again later), then `ready`"
            ),
        ]
        | msgspec.UnsetType
    ) = msgspec.UNSET


@cache
def document_types() -> tuple[type[GameSummaryBase], type[GameRulesBase]]:
    """`GameSummary` and `GameRules`: the common fields, then each family's, in family order."""
    apis = family_apis().values()
    return (
        _joined("GameSummary", GameSummaryBase, [a.summary_fields for a in apis]),
        _joined("GameRules", GameRulesBase, [a.rules_fields for a in apis]),
    )


def _joined(name: str, base: type[Any], parts: list[type[msgspec.Struct] | None]) -> Any:
    fields = [(f.name, f.type, f.default) for p in parts if p for f in msgspec.structs.fields(p)]
    names = [f[0] for f in fields] + [f.name for f in msgspec.structs.fields(base)]
    if len(set(names)) != len(names):
        raise RuntimeError(f"two families declare one field of {name}: {sorted(names)}")
    return msgspec.defstruct(name, fields, bases=(base,), omit_defaults=True, module=__name__)


def _listed(game: GameInfo) -> dict[str, Any]:
    """The fields of both documents: what `GET /games` lists of every game."""
    return {
        "id": game.id,
        "name": game.name,
        "family": game.family,
        "dice_count": game.dice,
        "throws_per_turn": game.throws_per_turn,
        "min_players": game.min_players,
        "max_players": game.max_players,
    }


def summary_of(game: GameInfo, api: FamilyApi) -> GameSummaryBase:
    """The game's `GET /games` entry: the common part and its family's."""
    own: Mapping[str, Any] = {} if api.summarize is None else api.summarize(game)
    summary: GameSummaryBase = document_types()[0](**_listed(game), **own)
    return summary


def rules_of(game: GameInfo, api: FamilyApi) -> GameRulesBase:
    """What the game's rules say (`GET /games/{game}`): the common part and its family's."""
    own: Mapping[str, Any] = {} if api.describe is None else api.describe(game)
    rules: GameRulesBase = document_types()[1](
        **_listed(game),
        source=game.source,
        summary=game.summary,
        face_labels=list(game.face_labels),
        parameters=parameters_out(game),
        **own,
    )
    return rules
