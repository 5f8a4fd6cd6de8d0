"""`advise` in process: microseconds per call for a state not asked before and for the next
decision of the same turn (its keep values cached), on the yahtzee table.

    uv run python benchmarks/bench_advice.py [--calls 2000]

The states are cards from seeded optimal play with fresh dice, as a frontend asks them;
"fresh" clears the per-turn cache before every call, so each pays the turn's evaluation.
Prints the median and the 95th percentile of each.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import Scorecard
from diceref.games.scorecard.solver import advice
from diceref.games.scorecard.solver.engine import solve

GAME = "yahtzee"


def situations(values: np.ndarray, count: int, seed: int) -> list[tuple[Scorecard, list[int]]]:
    """Cards along games played optimally (best box each turn), fresh dice for each ask."""
    ruleset = SCORECARD_GAMES[GAME]
    rng = np.random.default_rng(seed)
    out: list[tuple[Scorecard, list[int]]] = []
    card = Scorecard()
    while len(out) < count:
        if len(card.boxes) == len(ruleset.boxes):
            card = Scorecard()
        dice = sorted(int(d) for d in rng.integers(1, 7, size=5))
        out.append((card, dice))
        best = next(
            a
            for a in advice.advise(ruleset, values, card, dice, 0)
            if isinstance(a, advice.BoxAdvice)
        )
        card = Scorecard({**card.boxes, best.box: best.points}, card.extra_bonus)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    calls = parser.parse_args().calls
    ruleset = SCORECARD_GAMES[GAME]
    values = solve(ruleset)
    asks = situations(values, calls, seed=14)
    for label, clear in (("fresh state (turn not cached)", True), ("same turn again", False)):
        times: list[float] = []
        for card, dice in asks:
            if clear:
                advice._TURNS.clear()
            else:
                advice.advise(ruleset, values, card, dice, 2)
            start = time.perf_counter()
            advice.advise(ruleset, values, card, dice, 2)
            times.append((time.perf_counter() - start) * 1e6)
        times.sort()
        p95 = times[int(0.95 * len(times))]
        print(f"{label:32} median {statistics.median(times):7.1f} us  p95 {p95:7.1f} us")


if __name__ == "__main__":
    main()
