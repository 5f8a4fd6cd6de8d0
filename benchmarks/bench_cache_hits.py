"""A cache hit on the request path, keyed by a ruleset: `functools.lru_cache` against the
service's `per_ruleset` (a `PerRuleset` within the byte budget), in one process.

    uv run python benchmarks/bench_cache_hits.py [rounds]

Interleaved rounds, the best of each printed, with the ratio: `POST /score` and
`/yardkle/holds` hit these caches on every request, so a hit must cost about what an
`lru_cache` hit does.  Also Yardkle's set-asides of one throw (what `/yardkle/holds` asks
first), as an `lru_cache` per (throw, ruleset) against the served per-ruleset entry.
"""

from __future__ import annotations

import functools
import sys
import timeit
from collections.abc import Callable

from diceref.core.cache import per_ruleset
from diceref.core.dice import Dice, canonical
from diceref.games.yardkle.rules import scoring
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES, YardkleRules

CALLS = 50_000


def _built(rules: YardkleRules) -> object:
    return object()


def _set_asides(throw: Dice, rules: YardkleRules) -> tuple[scoring.SetAside, ...]:
    return scoring._set_asides(throw, scoring._valuations(rules))


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    rules, dice = DEFAULT_RULES, (1, 5, 5, 2, 3, 4)
    lru = functools.lru_cache(maxsize=256)(_built)
    kept = per_ruleset(256)(_built)
    lru_set_asides = functools.lru_cache(maxsize=16 * 923)(_set_asides)
    cases: dict[str, Callable[[], object]] = {
        "lru_cache hit": lambda: lru(rules),
        "per_ruleset hit": lambda: kept(rules),
        "set-asides, lru_cache": lambda: lru_set_asides(canonical(dice), rules),
        "set-asides, per_ruleset": lambda: scoring.set_asides(dice, rules),
    }
    best = dict.fromkeys(cases, float("inf"))
    for case in cases.values():
        case()  # the entries exist: every call below is a hit
    for _ in range(rounds):
        for name, case in cases.items():
            best[name] = min(best[name], timeit.timeit(case, number=CALLS) / CALLS)
    for name, seconds in best.items():
        print(f"{name:24} {seconds * 1e6:6.2f} us a call")
    hit = best["per_ruleset hit"] / best["lru_cache hit"]
    throw = best["set-asides, per_ruleset"] / best["set-asides, lru_cache"]
    print(f"per_ruleset : lru_cache = {hit:.2f}; set-asides = {throw:.2f}")


if __name__ == "__main__":
    main()
