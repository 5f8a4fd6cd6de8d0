"""What every game is, whatever its family: the `GET /games` listing and its parameters.

Each family describes its games with a subclass (a scorecard `Ruleset`, `ChicagoRules`,
`YardkleRules` through its `info`) or an instance of `GameInfo`; the HTTP layer publishes
them without knowing the family.

A game's `parameters` are also what a client may override per request (`rules`): each one
states its type and its allowed values or range, `check_overrides` holds a request's
overrides against them, and the family's builder turns the checked values into the rules.
So the one list a client reads is the list the service enforces.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

ParameterType = Literal["boolean", "integer", "string", "integer_list"]
ParameterValue = int | bool | str | tuple[int, ...]


class RuleParameterError(ValueError):
    """A parameter value refused: unknown, of the wrong type, out of range, or contradicting
    another one.

    `name` is the parameter's name as `GET /games/{game}` reports it, so a caller can point
    at `rules.<name>` without parsing the message; `code` says which of those it was.
    """

    def __init__(self, name: str, reason: str, code: str = "invalid_rule") -> None:
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.reason = reason
        self.code = code


@dataclass(frozen=True)
class Parameter:
    """A named rule setting; `reading` marks a choice made where the source text is unclear;
    `label` is its short human name.

    `choices` (strings), `minimum`/`maximum` (integers, and each item of an integer list)
    and `length` (an integer list) bound what a request may set.  `settable` is False for a
    figure reported for information only (a printed maximum), which no request may change.
    `choice_descriptions` says what each choice means, in the order of `choices`: the
    `description` tells what the game plays, so a frontend offering another choice needs the
    words for that one too.
    """

    name: str
    value: ParameterValue
    description: str
    reading: bool = False
    # A short human name ("Upper bonus threshold") for a frontend: keyword-only and required,
    # so every parameter of every family writes its own.
    label: str = field(kw_only=True)
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    length: int | None = None
    settable: bool = True
    choice_descriptions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.choice_descriptions and len(self.choice_descriptions) != len(self.choices):
            raise ValueError(f"{self.name}: one description per choice, in their order")

    @property
    def type(self) -> ParameterType:
        if isinstance(self.value, bool):
            return "boolean"
        if isinstance(self.value, int):
            return "integer"
        if isinstance(self.value, str):
            return "string"
        return "integer_list"


@dataclass(frozen=True)
class GameInfo:
    """What every game shares, scorecard or not (the `GET /games` listing)."""

    id: str
    name: str
    family: str
    dice: int
    throws_per_turn: int
    min_players: int
    max_players: int | None
    source: str
    summary: str
    parameters: tuple[Parameter, ...] = ()
    face_labels: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")

    def parameter(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name), None)

    @property
    def ruleset_id(self) -> str:
        """Content hash of the effective rules: the game and every parameter's value.  A
        family whose rules hold more than their parameters (a scorecard's boxes) overrides
        it with the hash of everything that changes a score, which also keys its tables."""
        blob = json.dumps(
            {"game": self.id, **{p.name: p.value for p in self.parameters}},
            sort_keys=True,
            default=list,
        )
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _shown(value: object, limit: int = 40) -> str:
    """A refused value as a reason quotes it: its repr, cut (a request may send 60 KB)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}…"


def _check_integer(p: Parameter, value: int, what: str) -> None:
    if p.minimum is not None and value < p.minimum:
        raise RuleParameterError(
            p.name, f"{what} must be at least {p.minimum}, got {value}", "out_of_range"
        )
    if p.maximum is not None and value > p.maximum:
        raise RuleParameterError(
            p.name, f"{what} must be at most {p.maximum}, got {value}", "out_of_range"
        )


def check_value(p: Parameter, value: object) -> ParameterValue:
    """`value` as the parameter's type, or the error naming it (never a silent coercion:
    `1` is no boolean and `true` no integer)."""
    if not p.settable:
        raise RuleParameterError(
            p.name, "reported for information; it cannot be set", "not_settable"
        )
    kind = p.type
    if kind == "boolean":
        if not isinstance(value, bool):
            raise RuleParameterError(
                p.name, f"a boolean (true or false), got {_shown(value)}", "wrong_type"
            )
        return value
    if kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleParameterError(p.name, f"an integer, got {_shown(value)}", "wrong_type")
        _check_integer(p, value, "the value")
        return value
    if kind == "string":
        if not isinstance(value, str):
            raise RuleParameterError(p.name, f"a string, got {_shown(value)}", "wrong_type")
        if p.choices and value not in p.choices:
            allowed = ", ".join(p.choices)
            raise RuleParameterError(
                p.name, f"one of {allowed}, got {_shown(value)}", "unknown_choice"
            )
        return value
    if not isinstance(value, list | tuple) or any(
        isinstance(v, bool) or not isinstance(v, int) for v in value
    ):
        raise RuleParameterError(p.name, f"a list of integers, got {_shown(value)}", "wrong_type")
    if p.length is not None and len(value) != p.length:
        raise RuleParameterError(
            p.name, f"exactly {p.length} integers, got {len(value)}", "out_of_range"
        )
    for i, v in enumerate(value):
        _check_integer(p, v, f"item {i}")
    return tuple(value)


def check_overrides(game: GameInfo, rules: Mapping[str, object]) -> dict[str, ParameterValue]:
    """A request's `rules` held against the game's parameters: the checked values by name.

    An unknown name is refused with the names the game has, so a typo is never ignored.
    """
    checked: dict[str, ParameterValue] = {}
    for name, value in rules.items():
        p = game.parameter(name)
        if p is None:
            known = ", ".join(q.name for q in game.parameters if q.settable)
            raise RuleParameterError(
                name,
                f"'{game.id}' has no parameter '{name}' (it has: {known})",
                "unknown_parameter",
            )
        checked[name] = check_value(p, value)
    return checked


G = TypeVar("G", bound=GameInfo)


def build_variant(builder: Callable[..., G], game: G, rules: Mapping[str, object]) -> G:
    """The game under `rules`: checked by its parameters, then built by its builder (which
    refuses contradictions between values with a `RuleParameterError` of its own)."""
    kwargs: dict[str, Any] = dict(check_overrides(game, rules))
    return builder(**kwargs)
