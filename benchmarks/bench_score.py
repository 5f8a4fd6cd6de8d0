"""POST /score throughput against GET /healthz on the same single-worker server.

Target (issue 2): /score keeps at least half of /healthz's throughput.
Run: uv run python benchmarks/bench_score.py [seconds per measurement] [rounds]
"""

from __future__ import annotations

import statistics
import sys

from _server import load, serve

SCORE = {
    "game": "yahtzee",
    "dice": [6, 6, 6, 6, 6],
    "throw": 2,
    "scorecard": {
        "filled": {"yahtzee": 50, "sixes": 24, "ones": 3, "chance": 22},
        "extra_bonus": 100,
    },
}


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    ratios = []
    with serve(workers=1, env={"DICEREF_PRELOAD": "none"}) as server:
        base = server.base
        load(base + "/healthz", None, 2)  # warm up
        load(base + "/score", SCORE, 2)
        # Alternate the two routes: on a shared machine the speed drifts over a run, and
        # a ratio is only fair between figures measured side by side.
        for n in range(1, rounds + 1):
            health = load(base + "/healthz", None, seconds)
            score = load(base + "/score", SCORE, seconds)
            ratios.append(score["rps"] / health["rps"])
            for name, fig in (("GET /healthz", health), ("POST /score", score)):
                print(
                    f"round {n}  {name:13} {fig['rps']:9.0f} req/s  p50 {fig['p50_ms']:.2f} ms  "
                    f"p95 {fig['p95_ms']:.2f} ms  errors {fig['errors']:.0f}"
                )
            print(f"round {n}  ratio /score : /healthz = {ratios[-1]:.2f}")
    ratio = statistics.median(ratios)
    print(
        f"median ratio over {rounds} rounds = {ratio:.2f} (target >= 0.50) "
        f"{'OK' if ratio >= 0.5 else 'BELOW TARGET'}"
    )


if __name__ == "__main__":
    main()
