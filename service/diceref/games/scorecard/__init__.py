"""Scorecard games (Yahtzee and kin): one `Ruleset` description per game drives scoring,
sheet checks, the solver and the coach."""

from functools import partial

from diceref.core.game import GameInfo
from diceref.games.family import Family
from diceref.games.scorecard.rules.games import BUILT_IN, SCORECARD_GAMES, house_rules
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.tables import ruleset_specs, table_specs, target_specs
from diceref.tables.spec import TableSpec


def _tables_of(game: GameInfo) -> tuple[TableSpec, ...]:
    assert isinstance(game, Ruleset)
    return ruleset_specs(game)


def _target_tables_of(game: GameInfo) -> tuple[TableSpec, ...]:
    assert isinstance(game, Ruleset)
    return target_specs(game)


FAMILY = Family(
    "scorecard",
    SCORECARD_GAMES,
    table_specs,
    {game: partial(house_rules, game) for game in BUILT_IN},
    _tables_of,
    _target_tables_of,
)
