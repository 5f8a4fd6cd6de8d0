"""The Yardkle policy table: solved once per ruleset, shared through the tables store, and
installed in each process by the API's table registry.

`policy_table(rules)` is what the routes read: the installed table, never a solve, so that no
request can start one; without an installed table it raises `TableNotLoaded`, which the API
answers with a 503 and Retry-After (the registry loads the table at startup, before the
service takes requests).  `solve_policy_table(rules)` is the pure, cached solve: the store's
compute step, and what tests use.  Every array handed out is read-only, so no caller can
corrupt the copy every later request shares.
"""

from __future__ import annotations

from functools import cache

from diceref.games.yardkle.rules.scoring import YardkleRules
from diceref.games.yardkle.solver.policy import FloatArray, yardkle_table

GAME = "yardkle"

_installed: dict[YardkleRules, FloatArray] = {}


class TableNotLoaded(LookupError):
    """The table a request needs is not in this process yet (it is loading)."""

    def __init__(self, game: str) -> None:
        super().__init__(f"the {game} table is not loaded yet")
        self.game = game


@cache
def solve_policy_table(rules: YardkleRules) -> FloatArray:
    """No default argument: `functools.cache` keys on the call, so one spelling per table."""
    table = yardkle_table(rules)
    table.setflags(write=False)
    return table


def install(rules: YardkleRules, table: FloatArray) -> None:
    """Serve `table` for `rules` in this process from now on (read-only)."""
    if table.flags.writeable:
        table.setflags(write=False)
    _installed[rules] = table


def installed(rules: YardkleRules) -> FloatArray | None:
    return _installed.get(rules)


def policy_table(rules: YardkleRules) -> FloatArray:
    """The installed table; `TableNotLoaded` if this process has none for `rules`."""
    table = _installed.get(rules)
    if table is None:
        raise TableNotLoaded(GAME)
    return table
