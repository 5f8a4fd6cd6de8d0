"""POST /score throughput against GET /healthz on the same single-worker server.

Target (issue 2): /score keeps at least half of /healthz's throughput.
Run: uv run python benchmarks/bench_score.py [seconds]
"""

from __future__ import annotations

import sys

from _server import load, serve

SCORE = {
    "game": "yahtzee",
    "dice": [6, 6, 6, 6, 6],
    "throw": 2,
    "scorecard": {
        "boxes": {"yahtzee": 50, "sixes": 24, "ones": 3, "chance": 22},
        "extra_bonus": 100,
    },
}


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10
    with serve(workers=1, env={"DICEREF_PRELOAD": "none"}) as server:
        base = server.base
        load(base + "/healthz", None, 2)  # warm up
        load(base + "/score", SCORE, 2)
        health = load(base + "/healthz", None, seconds)
        score = load(base + "/score", SCORE, seconds)
    for name, fig in (("GET /healthz", health), ("POST /score", score)):
        print(
            f"{name:13} {fig['rps']:9.0f} req/s  p50 {fig['p50_ms']:.2f} ms  "
            f"p95 {fig['p95_ms']:.2f} ms  errors {fig['errors']:.0f}"
        )
    ratio = score["rps"] / health["rps"]
    print(
        f"ratio /score : /healthz = {ratio:.2f} (target >= 0.50) "
        f"{'OK' if ratio >= 0.5 else 'BELOW TARGET'}"
    )


if __name__ == "__main__":
    main()
