"""The game families the service serves: adding a family adds one entry here.

Everything that spans families reads this list: `GET /games`, the tables registry (every
family's table specs), `diceref precompute`, the app's routers and the OpenAPI examples.

A family is imported when it is first needed, not with this module: `FAMILIES`,
`ALL_GAMES` and `table_specs()` import every family, `family_of(game)` and
`table_specs(games)` only the families of the games named, so that `diceref precompute
yahtzee` or `diceref score` imports the scorecard family alone (the others' import is a
cost such a command need not pay, docs/solver.md).  For that each entry lists its
family's games, which tests/test_families.py holds to what the family itself serves.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diceref.core.game import GameInfo
    from diceref.games.family import Family, FamilyCli
    from diceref.tables.spec import TableSpec


@dataclass(frozen=True)
class Entry:
    """A family as listed before it is imported."""

    package: str  # its package under diceref/games/, whose `FAMILY` describes it
    games: tuple[str, ...]  # its games' ids, in the order `GET /games` lists them
    # It has tables that are not loaded at start-up, which DICEREF_PRELOAD may name: the
    # settings read them off the table specs of these families only.
    preloads: bool
    # The `diceref` commands its `FamilyCli` serves (`score`, `review`), known before the
    # family is imported (the command line lists a command's games without importing any).
    commands: tuple[str, ...] = ()


ENTRIES: tuple[Entry, ...] = (
    Entry(
        "scorecard",
        ("yahtzee", "yardzee", "dice-poker", "russian-poker", "chute-5", "yatzy"),
        preloads=True,
        commands=("score", "review"),
    ),
    Entry("chicago", ("chicago",), preloads=False),
    Entry("yardkle", ("yardkle",), preloads=False, commands=("review",)),
)

# Every game, in `GET /games` order: the keys of `ALL_GAMES`, known without a family imported.
GAME_IDS: tuple[str, ...] = tuple(game for entry in ENTRIES for game in entry.games)

if TYPE_CHECKING:  # built by `__getattr__` on first use
    FAMILIES: tuple[Family, ...]
    ALL_GAMES: dict[str, GameInfo]


def __getattr__(name: str) -> object:
    """`FAMILIES` and `ALL_GAMES`, every family imported, built on first use and kept."""
    value: object
    if name == "FAMILIES":
        value = _families(None)
    elif name == "ALL_GAMES":
        value = {g.id: g for f in _families(None) for g in f.games.values()}
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later reads find a plain module attribute
    return value


def table_specs(games: Collection[str] | None = None) -> tuple[TableSpec, ...]:
    """Every built-in table of every family, in family order; those of `games` alone when
    they are named (and only their families imported)."""
    return tuple(
        spec
        for family in _families(games)
        for spec in family.table_specs()
        if games is None or spec.game in games
    )


def on_demand_built_in_specs() -> tuple[TableSpec, ...]:
    """The tables of built-in games solved only when a request first needs them (the
    play-to-win tables): disk trimming spares them, as it spares every built-in table, and
    start-up maps the ones already on disk."""
    return tuple(
        spec
        for family in _families(None)
        for game in family.games.values()
        for spec in family.target_tables_of(game)
    )


def family_of(game: str) -> Family:
    """The family that serves `game` (a game listed by `GAME_IDS`), imported alone."""
    return _imported(next(e.package for e in ENTRIES if game in e.games))


def games_with_command(command: str) -> tuple[str, ...]:
    """The games whose family serves the `diceref` command `command` (none imported)."""
    return tuple(game for e in ENTRIES if command in e.commands for game in e.games)


def families_with_command(command: str) -> tuple[Family, ...]:
    """The families serving `command`, in order (imported)."""
    return tuple(_imported(e.package) for e in ENTRIES if command in e.commands)


def family_cli(family: Family) -> FamilyCli:
    """The family's commands (its `cli.py`'s `CLI`), imported on first use."""
    cli: FamilyCli = importlib.import_module(family.cli_module).CLI
    return cli


def preloadable_games() -> tuple[str, ...]:
    """The games whose tables DICEREF_PRELOAD may name: every game with a table that is not
    loaded at start-up anyway."""
    specs = (s for e in ENTRIES if e.preloads for s in _imported(e.package).table_specs())
    return tuple(dict.fromkeys(s.game for s in specs if not s.at_startup))


def _families(games: Collection[str] | None) -> tuple[Family, ...]:
    """The families in order, or those serving one of `games`."""
    return tuple(
        _imported(e.package)
        for e in ENTRIES
        if games is None or any(game in games for game in e.games)
    )


@lru_cache(maxsize=len(ENTRIES))  # keyed by ENTRIES' packages only
def _imported(package: str) -> Family:
    family: Family = importlib.import_module(f"diceref.games.{package}").FAMILY
    return family
