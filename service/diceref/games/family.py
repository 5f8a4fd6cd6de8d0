"""`Family`: what a game family tells the rest of the service about itself.

A family is one package under `diceref/games/<name>/`: its rules (pure), its solver or coach,
its table specs and its HTTP API (`api/`).  Its `__init__.py` describes it with one
`Family`; `diceref.games.families.FAMILIES` lists them, and that list is the only place a
new family is registered.  This description is pure (no web framework): the HTTP layer
finds the family's API at `api_module`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from diceref.core.game import GameInfo
from diceref.tables.spec import TableSpec


@dataclass(frozen=True)
class Family:
    name: str  # the package's name under diceref/games/
    games: Mapping[str, GameInfo]  # by id, in the order `GET /games` lists them
    table_specs: Callable[[], tuple[TableSpec, ...]]  # every built-in table it serves

    @property
    def api_module(self) -> str:
        """The module holding the family's `API` (its router and examples)."""
        return f"diceref.games.{self.name}.api"
