"""What checking a Yardkle rules document costs the serving process, for the worst ones:
every combination near the 10,000 maximum (a 1-point unit), the target at 1,000,000 or
just under, hot dice forced, and the borderline rules accepted and refused
(`diceref.games.yardkle.bounded_yardkle`, what every route runs on a request's `rules`).

    uv run python benchmarks/bench_yardkle_checks.py [--runs 20]

Each check is timed cold (every per-ruleset cache emptied first: new points), and warm
for another target alone (what the throws' summary is kept by); the first check of the
process, which lists the throws' packings once, is printed apart.
Beside it, for the same rules, the enumeration of every option of every throw
(`policy.throw_options`, the solve's input, which the check once ran once per parameter)
is timed, and the ratio printed: the machine being shared, compare the ratio, not the
milliseconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from diceref.core.game import RuleParameterError
from diceref.games import family
from diceref.games.yardkle import bounded_yardkle
from diceref.games.yardkle.rules import scoring
from diceref.games.yardkle.rules.ruleset import POINTS_PARAMETERS, YardkleRules
from diceref.games.yardkle.solver import policy, throws

NEAR_MAX = {name: 10_000 - i for i, name in enumerate(POINTS_PARAMETERS)} | {
    "three_of_a_kind_per_pip": 997
}
CASES: dict[str, dict[str, Any]] = {
    "near 10,000, target 1,000,000": NEAR_MAX | {"target": 1_000_000},
    "near 10,000": NEAR_MAX,
    "near 10,000, hot dice forced": NEAR_MAX | {"hot_dice_optional": False},
    "borderline accepted (single 5 at 49, straight 6,371)": {"single_five": 49, "straight": 6371},
    "borderline refused (straight 6,372)": {"single_five": 49, "straight": 6372},
    "built-in, another target": {},
}


def forget() -> None:
    """Empty every per-ruleset cache the check reads (the process-wide packings stay)."""
    for cache in (throws._summary, policy.layout, policy.hot_dice_forced):
        cache.cache_clear()
    family._VARIANTS.clear()
    for enumeration in (policy._throw_options, scoring._valuations, scoring._set_asides_of):
        enumeration.cache_clear()


def check(rules: dict[str, Any], cold: bool = True) -> tuple[float, str]:
    if cold:
        forget()
    started = time.perf_counter()
    try:
        bounded_yardkle(**rules)
        outcome = "accepted"
    except RuleParameterError as refused:
        outcome = f"422 rules.{refused.name}"
    return time.perf_counter() - started, outcome


def enumerate_options(rules: dict[str, Any]) -> float:
    forget()
    started = time.perf_counter()
    policy.throw_options(YardkleRules(**rules))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    print(f"load average {os.getloadavg()[0]:.2f}", flush=True)
    first, outcome = check(NEAR_MAX | {"target": 999_999})
    print(f"first check of the process: {first * 1000:.1f} ms ({outcome})")
    for name, rules in CASES.items():
        seconds, outcomes = [], set()
        for run in range(runs):
            changed = rules | {"target": rules.get("target", 10_000) - 1 - run}
            took, outcome = check(changed)
            seconds.append(took)
            outcomes.add(outcome)
        warm = [check(rules | {"target": 20_000 + run}, cold=False)[0] for run in range(runs)]
        options = [enumerate_options(rules) for _ in range(3)]
        check_ms = statistics.median(seconds) * 1000
        options_ms = statistics.median(options) * 1000
        print(
            f"{name:53} {'/'.join(sorted(outcomes)):22} check {check_ms:5.2f} ms cold "
            f"(max {max(seconds) * 1000:5.2f}), {statistics.median(warm) * 1000:5.2f} ms "
            f"for another target; every option of every throw {options_ms:5.0f} ms "
            f"({options_ms / check_ms:.0f} x)",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
