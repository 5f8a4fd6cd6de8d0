"""An independent Yardkle reference for the tests: the RULES.md table read line by line, and
scoring by trying every partition of the dice into groups.  Nothing here imports diceref.

Slow on purpose (index subsets, ordered outcomes): it only has to be obviously right.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, product


def group_points(group: tuple[int, ...], three_ones: int = 300) -> int | None:
    """Points of one group of dice if it is exactly one combination of the table."""
    c = Counter(group)
    n = len(group)
    shape = sorted(c.values())
    if n == 1:
        return {1: 100, 5: 50}.get(group[0])
    if len(c) == 1 and n == 3:
        return three_ones if group[0] == 1 else 100 * group[0]
    if len(c) == 1 and n >= 4:
        return {4: 1000, 5: 2000, 6: 3000}[n]
    if n == 6 and len(c) == 6:
        return 1500  # straight 1-6
    if shape == [2, 2, 2]:
        return 1500  # three pairs
    if shape == [2, 4]:
        return 1500  # four of a kind with a pair
    if shape == [3, 3]:
        return 2500  # two triplets
    return None


@cache
def best_points(dice: tuple[int, ...], three_ones: int = 300) -> int | None:
    """Best total over every partition of the dice into combinations; None if none covers."""
    dice = tuple(sorted(dice))
    if not dice:
        return 0
    first, rest = dice[0], dice[1:]
    best: int | None = None
    for k in range(len(rest) + 1):
        for picked in combinations(range(len(rest)), k):
            group = (first, *(rest[i] for i in picked))
            g = group_points(group, three_ones)
            if g is None:
                continue
            tail = best_points(
                tuple(rest[i] for i in range(len(rest)) if i not in picked), three_ones
            )
            if tail is not None and (best is None or g + tail > best):
                best = g + tail
    return best


@cache
def outcome_options(n: int, three_ones: int = 300) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each of the 6**n ordered outcomes: every (points, dice kept) a player may choose."""
    out = []
    for roll in product(range(1, 7), repeat=n):
        found: set[tuple[int, int]] = set()
        for k in range(1, n + 1):
            for picked in combinations(roll, k):
                p = best_points(picked, three_ones)
                if p is not None:
                    found.add((p, k))
        out.append(tuple(sorted(found)))
    return tuple(out)


def brute_force_values(
    dice: int, entry: int, cap: int, three_ones: int = 300, hot_forced: bool = False
) -> dict[tuple[bool, int, int], float]:
    """Expected turn points of throwing n dice with t in hand, by plain expectimax over
    ordered outcomes; from `cap` points on the player must bank.  Keys (on_pad, t, n).

    `hot_forced`: after setting aside every die the player must throw them all again
    (below the cap), rather than choose."""
    memo: dict[tuple[bool, int, int], float] = {}

    def bank(t: int, on_pad: bool) -> float:
        return float(t) if on_pad or t >= entry else 0.0

    def stop_or_go(t: int, n: int, on_pad: bool) -> float:
        if t >= cap:
            return bank(t, on_pad)
        return max(bank(t, on_pad), throw(t, n, on_pad))

    def throw(t: int, n: int, on_pad: bool) -> float:
        key = (on_pad, t, n)
        if key not in memo:
            total = 0.0
            for options in outcome_options(n, three_ones):
                best = 0.0  # a Yardkle
                for p, k in options:
                    if hot_forced and k == n and t + p < cap:
                        best = max(best, throw(t + p, dice, on_pad))
                        continue
                    left = n - k or dice
                    best = max(best, stop_or_go(t + p, left, on_pad))
                total += best
            memo[key] = total / 6**n
        return memo[key]

    for on_pad in (False, True):
        for t in range(cap - 50, -1, -50):  # top down keeps the recursion shallow
            for n in range(1, dice + 1):
                throw(t, n, on_pad)
    return memo
