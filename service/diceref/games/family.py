"""`Family`: what a game family tells the rest of the service about itself.

A family is one package under `diceref/games/<name>/`: its rules (pure), its solver or coach,
its table specs and its HTTP API (`api/`).  Its `__init__.py` describes it with one
`Family`; `diceref.games.families.FAMILIES` lists them, and that list is the only place a
new family is registered.  This description is pure (no web framework): the HTTP layer
finds the family's API at `api_module`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from diceref.core.cache import PerRuleset
from diceref.core.game import GameInfo, RuleParameterError, build_variant
from diceref.tables.spec import TableSpec

# Variants built per process (a ruleset's boxes, parameters and hash): a frontend sends the
# same house rules on every request, so each is built once, not per request.
VARIANT_CACHE_SIZE = 256


G = TypeVar("G", bound=GameInfo)


@dataclass(frozen=True, eq=False)
class Family:
    name: str  # the package's name under diceref/games/
    games: Mapping[str, GameInfo]  # by id, in the order `GET /games` lists them
    table_specs: Callable[[], tuple[TableSpec, ...]]  # every built-in table it serves
    # Game id -> the builder that takes the game's parameters as keywords (`rules`): the
    # built-in game is the builder called with none.
    builders: Mapping[str, Callable[..., GameInfo]] = field(default_factory=dict)
    # A game's tables under given rules, in the order a client needs them (none: a game
    # without solved tables, refereed and coached from its rules alone).
    tables_of: Callable[[GameInfo], tuple[TableSpec, ...]] = lambda _: ()
    # A game's play-to-win tables under given rules (solved on demand; `diceref precompute
    # --target` solves them ahead), none for a family without them.
    target_tables_of: Callable[[GameInfo], tuple[TableSpec, ...]] = lambda _: ()

    def with_rules(self, game: str, rules: Mapping[str, object] | None) -> GameInfo:
        """`game` under a request's `rules` (its parameter overrides), checked and built;
        the built-in game for none.  A refused value raises `RuleParameterError`."""
        if not rules:
            return self.games[game]
        if game not in self.builders:
            name = next(iter(rules))
            raise RuleParameterError(name, f"'{game}' takes no rules yet", "unknown_parameter")
        return _variant(self, game, json.dumps(rules, sort_keys=True))

    def game_of(self, kind: type[G], game: str, rules: Mapping[str, object] | None) -> G:
        """`with_rules`, for a family whose games are all of one `kind`."""
        built = self.with_rules(game, rules)
        if not isinstance(built, kind):
            raise TypeError(f"{game} is a {type(built).__name__}, not a {kind.__name__}")
        return built

    @property
    def api_module(self) -> str:
        """The module holding the family's `API` (its router and examples)."""
        return f"diceref.games.{self.name}.api"

    @property
    def cli_module(self) -> str:
        """The module holding the family's `CLI` (a `FamilyCli`), if it has commands."""
        return f"diceref.games.{self.name}.cli"


@dataclass(frozen=True)
class FamilyCli:
    """What a family brings to the `diceref` command line: the `CLI` of its `cli.py`, for
    the commands its entry in `diceref.games.families` lists."""

    # `diceref score GAME D D D D D`: the lines saying what the throw (dice, throw number)
    # may score on an empty card under the game's rules; whether house rules were given.
    # A refused throw raises `RuleViolation`.
    score: Callable[[GameInfo, Sequence[int], int, bool], list[str]] | None = None
    # `diceref review FILE.json`: the review of the file's body, its tables loaded by the
    # function given (`TableSpec` -> its array).  A body that is not this family's review
    # raises `msgspec.ValidationError`.
    review: Callable[[Any, Callable[[TableSpec], Any]], ReviewTable] | None = None


@dataclass(frozen=True)
class ReviewTable:
    """A review as `diceref review` prints it: a row per decision, a section per turn,
    then lines of sums."""

    title: str
    columns: tuple[str, ...]  # the family's, after `turn`, `throw` and `dice`
    # Per turn, per decision: the throw's number, its dice, and the family's cells.
    turns: list[list[tuple[int, Sequence[int], tuple[str, ...]]]]
    lines: list[str]

    @classmethod
    def of(
        cls,
        title: str,
        columns: tuple[str, ...],
        turns: Sequence[Any],
        cells: Callable[[Any], tuple[str, ...]],
        lines: list[str],
    ) -> ReviewTable:
        """The table of a review answer's `turns`, each decision's cells given by `cells`."""
        rows = [[(d.throw, d.dice, cells(d)) for d in t.decisions] for t in turns]
        return cls(title, columns, rows, lines)


_VARIANTS: PerRuleset[tuple[Family, str, str], GameInfo] = PerRuleset(VARIANT_CACHE_SIZE)


def _variant(family: Family, game: str, rules_json: str) -> GameInfo:
    return _VARIANTS.get(
        (family, game, rules_json),
        lambda: build_variant(family.builders[game], family.games[game], json.loads(rules_json)),
    )
