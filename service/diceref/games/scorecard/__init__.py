"""Scorecard games (Yahtzee and kin): one `Ruleset` description per game drives scoring,
sheet checks, the solver and the coach."""

from diceref.games.family import Family
from diceref.games.scorecard.rules.games import SCORECARD_BUILDERS, SCORECARD_GAMES
from diceref.games.scorecard.tables import table_specs

FAMILY = Family("scorecard", SCORECARD_GAMES, table_specs, SCORECARD_BUILDERS)
