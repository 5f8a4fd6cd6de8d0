"""What a distinct house ruleset costs the serving worker before its tables are asked for:
`with_rules` (checked, built, hashed) and `tables_of` (its table specs), the work a flood
of distinct rulesets makes a worker do for each request a full solve queue then refuses.

Run: uv run python benchmarks/bench_ruleset_build.py [rulesets] [rounds]
It prints the median over the rounds of the time per distinct Yatzy variant, in ms.
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time

from diceref.games.families import FAMILIES


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    scorecard = next(f for f in FAMILIES if f.name == "scorecard")
    points = itertools.count(1)

    def build() -> None:
        rules = {"upper_bonus_points": next(points), "upper_bonus_threshold": 40}
        scorecard.tables_of(scorecard.with_rules("yatzy", rules))

    build()  # the first use builds what every ruleset shares
    per_ruleset = []
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(count):
            build()
        per_ruleset.append((time.perf_counter() - started) / count * 1e3)
    print(
        f"{statistics.median(per_ruleset):.2f} ms a distinct ruleset "
        f"(rounds: {', '.join(f'{t:.2f}' for t in per_ruleset)})"
    )


if __name__ == "__main__":
    main()
