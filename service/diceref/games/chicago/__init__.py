"""Chicago (three dice, lives): throws, rounds and games refereed, and an exact coach."""

from diceref.games.chicago.rules.ruleset import CHICAGO, chicago
from diceref.games.family import Family

FAMILY = Family("chicago", {CHICAGO.id: CHICAGO}, lambda: (), {CHICAGO.id: chicago})
