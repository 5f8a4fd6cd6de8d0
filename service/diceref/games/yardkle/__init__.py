"""Yardkle (Farkle, six dice): set-asides scored, turns and games refereed, and the optimal
turn policy as the coach's table."""

from typing import Any

from diceref.core.game import GameInfo
from diceref.games.family import Family
from diceref.games.yardkle.rules.ruleset import GAME_INFO, YardkleGame, yardkle
from diceref.games.yardkle.tables import (
    GAME,
    check_solvable,
    policy_spec,
    table_specs,
    target_specs,
)
from diceref.tables.spec import TableSpec


def bounded_yardkle(**rules: Any) -> YardkleGame:
    """Yardkle under house rules the coach can solve: rules needing a table beyond
    `MAX_LEVELS` (a 1-point step with big combinations, say) are a `ruleset_limit`, as a
    scorecard's are."""
    game = yardkle(**rules)
    check_solvable(game.rules)
    return game


def _tables_of(game: GameInfo) -> tuple[TableSpec, ...]:
    """The coach's table under the game's rules: what `/yardkle/holds` reads, so that
    `POST /rulesets` and `diceref precompute --rules` start the same solve."""
    assert isinstance(game, YardkleGame)
    return (policy_spec(game.rules),)


def _target_tables_of(game: GameInfo) -> tuple[TableSpec, ...]:
    """The two-player table under the game's rules (`diceref precompute --target`): what
    `/yardkle/holds` with an `opponent` reads; `ruleset_limit` beyond its bound."""
    assert isinstance(game, YardkleGame)
    return target_specs(game.rules)


FAMILY = Family(
    "yardkle",
    {GAME: GAME_INFO},
    table_specs,
    {GAME: bounded_yardkle},
    _tables_of,
    _target_tables_of,
)
