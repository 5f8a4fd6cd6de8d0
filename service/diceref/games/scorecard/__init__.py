"""Scorecard games (Yahtzee and kin): one `Ruleset` description per game drives scoring,
sheet checks, the solver and the coach."""

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from diceref.core.game import GameInfo, RuleParameterError
from diceref.games.family import Family
from diceref.games.scorecard.rules.description import MAX_STATES, table_states
from diceref.games.scorecard.rules.games import SCORECARD_BUILDERS, SCORECARD_GAMES
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.summary import house_summary
from diceref.games.scorecard.tables import ruleset_specs, table_specs
from diceref.tables.spec import TableSpec


def _tables_of(game: GameInfo) -> tuple[TableSpec, ...]:
    assert isinstance(game, Ruleset)
    return ruleset_specs(game)


def _bounded(build: Callable[..., Ruleset]) -> Callable[..., Ruleset]:
    """A builder whose house rules may not ask for a table beyond what the service solves
    (the bound a custom `ruleset` has too): an upper bonus threshold of 1,000 would be a
    16-million-state table.  A variant that differs from the built-in game is summarized
    from its own rules (`house_summary`), not by the built-in game's prose."""

    def built(**rules: Any) -> Ruleset:
        ruleset = build(**rules)
        base = SCORECARD_GAMES[ruleset.id]
        if [p.value for p in ruleset.parameters] != [p.value for p in base.parameters]:
            ruleset = replace(ruleset, summary=house_summary(ruleset, base))
        states = table_states(ruleset)
        if states > MAX_STATES:
            raise RuleParameterError(
                "upper_bonus_threshold",
                f"these rules' table would hold {states:,} states, over the {MAX_STATES:,} the "
                "service solves: lower the upper bonus threshold",
                "ruleset_limit",
            )
        return ruleset

    return built


FAMILY = Family(
    "scorecard",
    SCORECARD_GAMES,
    table_specs,
    {game: _bounded(build) for game, build in SCORECARD_BUILDERS.items()},
    _tables_of,
)
