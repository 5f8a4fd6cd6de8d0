"""Two-player Yardkle: the reference solver (`solver/duel.py`) against the compiled one
(`solver/duel_fast.py`) on the same games, one after the other in one run; and the
compiled solve of the default rules (goal 10,000).

    uv run python benchmarks/bench_yardkle_duel.py [--six] [--forced]
    uv run python benchmarks/bench_yardkle_duel.py --full [--deadline SECONDS] [--save FILE]
        [--last-turns complete_the_round] [--forced]

The games table prints, for each small game, the first player's chance to win (under
`complete_the_round` the round's first player's, seat 0), the proven
error bound and contraction factor (the reference's), the deepest turn cap, both solve
times, their ratio and the largest difference of a value.  `--six` adds the six-dice games
to 1,000 (about a minute and a half each for the reference); the others play three dice,
the games the tests hold to a brute force.  The compiled solve's time includes numba's
import and, on a first run, its compile (cached on disk after).

`--full` solves the default rules (with `--last-turns` another reading) with a progress
line every few sums (the share is of all turn levels, by the caps) and stops at the
deadline if one is given, printing how far it got and the time that share extrapolates
to.  A finished solve prints V(0, 0) (seat 0's), the bound, the sizes of the compact
table, and the time to recompute the deepest turn.
`--save` writes values, Yardkle values and caps to an `.npz`.  `--forced` plays every game
with hot dice forced (`hot_dice_optional: false`) instead.  Times are wall time on a
shared machine, so the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np

from diceref.games.yardkle.rules.ruleset import LAST_TURNS, YardkleRules
from diceref.games.yardkle.solver.duel import solve_duel
from diceref.games.yardkle.solver.duel_fast import solve_duel_fast

THREE_DICE: dict[str, dict[str, Any]] = {
    "3 dice to 1,000": {"dice": 3, "target": 1000},
    "3 dice to 1,000, no entry minimum": {"dice": 3, "target": 1000, "entry_minimum": 0},
    "3 dice to 1,000, three 1s 1,000": {"dice": 3, "target": 1000, "three_ones": 1000},
    "3 dice to 1,000, ties not shared": {"dice": 3, "target": 1000, "ties_share_win": False},
    "3 dice to 2,000": {"dice": 3, "target": 2000},
    "3 dice to 2,000, no entry minimum": {"dice": 3, "target": 2000, "entry_minimum": 0},
    "3 dice to 1,000, complete the round": {
        "dice": 3,
        "target": 1000,
        "last_turns": "complete_the_round",
    },
    "3 dice to 1,000, no entry minimum, complete the round": {
        "dice": 3,
        "target": 1000,
        "entry_minimum": 0,
        "last_turns": "complete_the_round",
    },
}
FORCED = {"hot_dice_optional": False}
SIX_DICE: dict[str, dict[str, Any]] = {
    "6 dice to 1,000": {"target": 1000},
    "6 dice to 1,000, no entry minimum": {"target": 1000, "entry_minimum": 0},
    "6 dice to 1,000, complete the round": {"target": 1000, "last_turns": "complete_the_round"},
}


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def games(six: bool, forced: bool) -> None:
    cases = {**THREE_DICE, **(SIX_DICE if six else {})}
    if forced:
        cases = {f"{name}, hot dice forced": {**r, **FORCED} for name, r in cases.items()}
    print(
        "| game | first player wins | error bound | L | deepest cap | reference s | "
        "compiled s | ratio | largest difference | load |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, rules in cases.items():
        start = time.perf_counter()
        table = solve_duel(YardkleRules(**rules))
        took = time.perf_counter() - start
        start = time.perf_counter()
        fast = solve_duel_fast(YardkleRules(**rules))
        fast_took = time.perf_counter() - start
        cap = max(turn.cap for turn in table.turns.values())
        diff = float(np.abs(fast.seat_values - table.seat_values).max())
        print(
            f"| {name} | {table.values[0, 0]:.9f} | {table.error_bound:.1e} | "
            f"{table.contraction:.5f} | {cap} | {took:.1f} | {fast_took:.2f} | "
            f"{took / fast_took:.0f} | {diff:.1e} | {load()} |",
            flush=True,
        )


class Deadline(Exception):
    pass


def full(deadline: float | None, save: str | None, last_turns: str, forced: bool) -> None:
    start = time.perf_counter()
    reached = [0.0, 0.0]  # share of the levels, seconds

    def progress(s: int, share: float) -> None:
        took = time.perf_counter() - start
        reached[:] = [share, took]
        if s % 20 == 0:
            print(
                f"sum {s}: {share:.1%} of the levels in {took:.0f} s, "
                f"{took / share:.0f} s projected, load {load()}",
                flush=True,
            )
        if deadline is not None and took > deadline and s:
            raise Deadline

    try:
        rules = YardkleRules(last_turns=last_turns, **(FORCED if forced else {}))
        table = solve_duel_fast(rules, progress=progress)
    except Deadline:
        share, took = reached
        print(
            f"stopped at the deadline: {share:.1%} of the turn levels in {took:.0f} s, "
            f"the whole solve extrapolates to {took / share:.0f} s (load {load()})"
        )
        return
    took = time.perf_counter() - start
    if save:
        np.savez(
            save,
            values=table.values,
            yardkle_values=table.yardkle_values,
            caps=table.caps,
            last_turn=table.last_turn,
            error_bound=table.error_bound,
            contraction=table.contraction,
        )
    k = table.levels
    rows = table.caps + table.kernel.max_step + 1
    turns_f32 = int((table.caps.sum() + rows.sum()) * table.rules.dice * 4)
    compact = (
        table.seat_values.nbytes + table.yardkle_values.nbytes + table.caps.astype(np.int16).nbytes
    )
    seat, a, b = np.unravel_index(int(np.argmax(table.caps)), table.caps.shape)
    table.turn(int(a), int(b), int(seat))
    turn_times = []
    for _ in range(20):
        t0 = time.perf_counter()
        table.turn(int(a), int(b), int(seat))
        turn_times.append(time.perf_counter() - t0)
    print(
        f"default rules (K = {k}): {took:.0f} s, load {load()}; "
        f"V(0, 0) = {table.values[0, 0]:.9f} (seats: {len(table.seat_values)}, the other's "
        f"{table.seat_values[-1, 0, 0]:.9f}), error bound {table.error_bound:.1e}, "
        f"L {table.contraction:.5f}, deepest cap {int(table.caps.max())}"
    )
    print(
        f"kept: values + Yardkle values (float64) + caps (int16) = {compact / 1e6:.2f} MB; "
        f"every turn's throw and stop rows as float32 would be {turns_f32 / 1e6:.0f} MB; "
        f"the deepest turn ({a}, {b}) recomputes in {min(turn_times) * 1e3:.2f} ms "
        f"(median {sorted(turn_times)[10] * 1e3:.2f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--six", action="store_true")
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--deadline", type=float, default=None, help="seconds (--full)")
    parser.add_argument("--save", default=None, help="an .npz for the full table (--full)")
    parser.add_argument(
        "--last-turns", default="every_other_player_once", choices=LAST_TURNS, help="(--full)"
    )
    parser.add_argument("--forced", action="store_true", help="hot dice forced")
    args = parser.parse_args()
    if args.full:
        full(args.deadline, args.save, args.last_turns, args.forced)
    else:
        games(args.six, args.forced)


if __name__ == "__main__":
    main()
