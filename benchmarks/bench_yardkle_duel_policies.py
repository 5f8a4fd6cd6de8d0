"""Two-player Yardkle, default rules: how many more games the two-player coach wins than
the expected-points coach, in a seeded simulation of the one against the other.

    uv run python benchmarks/bench_yardkle_duel_policies.py [--games 2000] [--seed 29]

Player "duel" takes every decision from the two-player table (`CompactDuel.advise`: the
set-aside and bank or throw on that maximise the chance to win the game); player "points"
from the expected-points policy (`solver.advice.advise`, today's coach without `need`).
They start alternately.  Once one of them reaches the target, the other's last turn is
played by both the same way, as the coach with `need` plays it: the race to pass the
leader (`advise(..., need=...)`), so the two differ only before the goal.  A tie shares the
win (the default rules).  The duel table and the policy table come from DICEREF_CACHE_DIR
(default the test cache `.cache/`), solved there first when missing (minutes).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time
from functools import cache
from pathlib import Path

from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES
from diceref.games.yardkle.solver.advice import Decision, advise
from diceref.games.yardkle.solver.duel import Turn, open_levels
from diceref.games.yardkle.solver.duel_fast import CompactDuel
from diceref.games.yardkle.tables import duel_of, duel_spec, policy_spec
from diceref.tables.config import TableSettings
from diceref.tables.spec import load_sync
from diceref.tables.store import TableStore

CACHE = Path(os.environ.get("DICEREF_CACHE_DIR", Path(__file__).parent.parent / ".cache"))
RULES = DEFAULT_RULES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    store = TableStore(TableSettings(cache_dir=CACHE))
    policy = load_sync(store, policy_spec(RULES)).array
    duel = duel_of(RULES, load_sync(store, duel_spec(RULES)).array)
    solved = duel.turn

    @cache
    def turn(a: int, b: int) -> Turn:  # a pair's turn is recomputed once, not per throw
        return solved(a, b)

    object.__setattr__(duel, "turn", turn)  # the frozen table's lookups read the cache
    unit, dice, goal = RULES.unit, RULES.dice, open_levels(RULES) * RULES.unit
    rng = random.Random(args.seed)

    def play_turn(who: str, total: int, theirs: int, need: int | None) -> int:
        """The points banked (0 on a Yardkle) by `who` from `total` against `theirs`;
        with `need`, the last turn's race."""
        points, left = 0, dice
        while True:
            throw = [rng.randint(1, 6) for _ in range(left)]
            on_pad = total > 0
            if who == "duel" and need is None:
                move = duel_advice(duel, total, theirs, points, throw)
                if move is None:
                    return 0
                kept, gained, banks = move
            else:
                options = advise(policy, RULES, throw, points, on_pad, need)
                if not options:
                    return 0
                best = options[0]
                kept, gained = best.set_aside.dice, best.set_aside.points
                banks = best.decision is Decision.BANK
            points += gained
            left = left - len(kept) or dice
            if banks:
                return points

    start = time.perf_counter()
    duel_score = 0.0
    for game in range(args.games):
        order = ["duel", "points"] if game % 2 == 0 else ["points", "duel"]
        totals = {"duel": 0, "points": 0}
        mover = 0
        while True:
            who, other = order[mover], order[1 - mover]
            totals[who] += play_turn(who, totals[who], totals[other], None)
            if totals[who] >= goal:
                break
            mover = 1 - mover
        gap = totals[who] - totals[other]
        made = play_turn(other, totals[other], totals[who], gap + unit)
        if made > gap:
            winner = other
        elif made == gap:
            winner = "tie"
        else:
            winner = who
        duel_score += {"duel": 1.0, "points": 0.0, "tie": 0.5}[winner]
    seconds = time.perf_counter() - start
    share = duel_score / args.games
    error = math.sqrt(share * (1 - share) / args.games)
    print(
        f"{args.games} games (seed {args.seed}), starting alternately: the two-player coach "
        f"wins {share:.4f} ± {error:.4f} (one standard error) against the expected-points "
        f"coach, {(share - 0.5) / error:.1f} standard errors above even; {seconds:.0f} s"
    )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def duel_advice(
    duel: CompactDuel, total: int, theirs: int, points: int, throw: list[int]
) -> tuple[tuple[int, ...], int, bool] | None:
    """The two-player coach's move after `throw` (None: a Yardkle): the dice set aside,
    their points and whether it banks."""
    advice = duel.advise(total, theirs, points, throw)
    if not advice.keep:
        return None
    return tuple(advice.keep), advice.points, advice.bank


if __name__ == "__main__":
    main()
