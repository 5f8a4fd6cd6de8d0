"""Yardkle (Farkle, six dice): set-asides scored, turns and games refereed, and the optimal
turn policy as the coach's table."""

from diceref.games.family import Family
from diceref.games.yardkle.rules.ruleset import GAME_INFO, yardkle
from diceref.games.yardkle.tables import GAME, table_specs

FAMILY = Family("yardkle", {GAME: GAME_INFO}, table_specs, {GAME: yardkle})
