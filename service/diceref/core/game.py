"""What every game is, whatever its family: the `GET /games` listing and its parameters.

Each family describes its games with a subclass (a scorecard `Ruleset`, `ChicagoRules`,
`YardkleRules` through its `info`) or an instance of `GameInfo`; the HTTP layer publishes
them without knowing the family.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Parameter:
    """A named rule setting; `reading` marks a choice made where the source text is unclear."""

    name: str
    value: int | bool | str | tuple[int, ...]
    description: str
    reading: bool = False


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
