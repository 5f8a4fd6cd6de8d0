"""The game families the service serves: adding a family adds one entry here.

Everything that spans families reads this list: `GET /games`, the tables registry (every
family's table specs), `diceref precompute`, the app's routers and the OpenAPI examples.
"""

from __future__ import annotations

from diceref.core.game import GameInfo
from diceref.games import chicago, scorecard, yardkle
from diceref.games.family import Family
from diceref.tables.spec import TableSpec

FAMILIES: tuple[Family, ...] = (scorecard.FAMILY, chicago.FAMILY, yardkle.FAMILY)

ALL_GAMES: dict[str, GameInfo] = {g.id: g for f in FAMILIES for g in f.games.values()}


def table_specs() -> tuple[TableSpec, ...]:
    """Every built-in table of every family, in family order."""
    return tuple(spec for f in FAMILIES for spec in f.table_specs())


def family_of(game: str) -> Family:
    """The family that serves `game` (a game listed by `ALL_GAMES`)."""
    return next(f for f in FAMILIES if game in f.games)
