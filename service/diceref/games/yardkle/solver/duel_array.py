"""A solved two-player game (`duel_fast.CompactDuel`) as one flat float64 array, and back.

The tables store keeps float arrays, memory-mapped from disk and shared by the workers, so
the duel table is stored as one: a header of `HEADER` numbers, then `seat_values`
(seats, K, K), `yardkle_values` (seats, K, K), `caps` (seats, K, K, exact small integers as
floats), `last_turn` (2, gaps) and `last_turn_throws` (rows, D), each in C order; seats is
2 under `complete_the_round` (the thrower who started the round, then the other), else 1.
`from_array` gives views of the stored array for the values, the Yardkle values and the
last turn (no copy: they stay in the mapping); the caps are copied into integers (they are
checked, never read by a lookup), and what only the rules decide (the throws, the proven
caps, the sweep's classes) is built again from the rules, in about 0.2 s at the default
rules.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from diceref.core.arrays import FloatArray
from diceref.games.yardkle.rules.scoring import YardkleRules
from diceref.games.yardkle.solver.duel import _game
from diceref.games.yardkle.solver.duel_fast import CompactDuel, _Kernel

FORMAT = 2.0  # the layout's version, the header's first number
# format, K, dice, entry levels, tie value, error bound, contraction, gaps, throw rows, seats
HEADER = 10


def to_array(duel: CompactDuel) -> FloatArray:
    """The solved game as one flat float64 array (`from_array` reads it back)."""
    k, d = duel.levels, duel.rules.dice
    gaps = duel.last_turn.shape[1]
    rows = duel.last_turn_throws.shape[0]
    header = np.array(
        [
            FORMAT,
            k,
            d,
            duel.entry_levels,
            duel.tie_value,
            duel.error_bound,
            duel.contraction,
            gaps,
            rows,
            len(duel.seat_values),
        ],
        dtype=np.float64,
    )
    parts = (
        header,
        duel.seat_values.ravel(),
        duel.yardkle_values.ravel(),
        duel.caps.astype(np.float64).ravel(),
        duel.last_turn.ravel(),
        duel.last_turn_throws.ravel(),
    )
    return np.concatenate(parts).astype(np.float64, copy=False)


def from_array(rules: YardkleRules, table: FloatArray) -> CompactDuel:
    """The `CompactDuel` a `to_array` array holds, for the rules it was solved under: the
    big parts are views of `table` (a memory-mapped table stays mapped)."""
    if table.ndim != 1 or len(table) < HEADER or float(table[0]) != FORMAT:
        raise ValueError("not a duel table of this format")
    k, d, entry, gaps, rows, seats = (int(table[i]) for i in (1, 2, 3, 7, 8, 9))
    size = seats * k * k
    if d != rules.dice or len(table) != HEADER + 3 * size + 2 * gaps + rows * d:
        raise ValueError("the duel table's header does not match its length or the rules")
    game = _game(rules)
    if (game.levels, game.entry_levels, game.seats) != (k, entry, seats):
        raise ValueError("the duel table was solved for other rules")
    at = HEADER
    values = table[at : at + size].reshape(seats, k, k)
    at += size
    yardkle_values = table[at : at + size].reshape(seats, k, k)
    at += size
    caps = table[at : at + size].reshape(seats, k, k).astype(np.intp)
    at += size
    last_turn = table[at : at + 2 * gaps].reshape(2, gaps)
    at += 2 * gaps
    last_turn_throws = table[at : at + rows * d].reshape(rows, d)
    # The turns read the stored last turn (equal to the rebuilt one: the same solve).
    game = dataclasses.replace(game, last=last_turn, last_throws=last_turn_throws)
    return CompactDuel(
        rules=rules,
        levels=k,
        entry_levels=entry,
        tie_value=float(table[4]),
        seat_values=values,
        yardkle_values=yardkle_values,
        caps=caps,
        last_turn=last_turn,
        last_turn_throws=last_turn_throws,
        error_bound=float(table[5]),
        contraction=float(table[6]),
        game=game,
        kernel=_Kernel.of(game.opt),
    )
