"""Multisets of six-sided dice: the alphabet every scorecard rule and the solver speak.

The order of dice never matters to any rule, so a throw is stored as a sorted tuple and
every table is indexed by position in the canonical enumeration below: 252 throws of five
dice and 462 keeps (sub-multisets of zero to five dice).  Building these once, here, keeps
scoring (a table lookup) and the solver (array arithmetic over the same indices) in step.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import numpy.typing as npt

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
DICE_PER_THROW = 5

Dice = tuple[int, ...]


def multisets(size: int) -> list[Dice]:
    """All sorted tuples of `size` faces, in lexicographic order."""
    return list(combinations_with_replacement(FACES, size))


THROWS: tuple[Dice, ...] = tuple(multisets(DICE_PER_THROW))
KEEPS: tuple[Dice, ...] = tuple(k for n in range(DICE_PER_THROW + 1) for k in multisets(n))
THROW_INDEX: dict[Dice, int] = {t: i for i, t in enumerate(THROWS)}
KEEP_INDEX: dict[Dice, int] = {k: i for i, k in enumerate(KEEPS)}
N_THROWS = len(THROWS)  # 252
N_KEEPS = len(KEEPS)  # 462


def wrong_dice_count(least: int | None, most: int | None, got: int) -> str:
    """The one wording of a throw with the wrong number of dice (code `wrong_dice_count`),
    from a rules check or from the request document's length bounds alike."""
    if least == most and least is not None:
        expected = f"{least}"
    elif least is not None and most is not None:
        expected = f"{least} to {most}"
    elif most is not None:
        expected = f"at most {most}"
    else:
        expected = f"at least {least}"
    return f"expected {expected} dice, got {got}"


NUMBER_WORDS = ("none", "one", "two", "three", "four", "five", "six")


def count_text(n: int, face: int) -> str:
    """'three 1s', 'one 5', 'no 2s' (counts up to six, as dice go)."""
    word = "no" if n == 0 else NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)
    return f"{word} {face}" + ("" if n == 1 else "s")


def more_than_shown(shown: Sequence[int], taken: Sequence[int], took: str, showed: str) -> str:
    """Each face taken more often than shown, counted in words: 'two 1s kept, one thrown'
    (`took` 'kept', `showed` 'thrown'), so a client sees how many of a face were there,
    not only that some were not."""
    parts = []
    for face in sorted(set(taken)):
        k, t = list(taken).count(face), list(shown).count(face)
        if k > t:
            word = NUMBER_WORDS[t] if t < len(NUMBER_WORDS) else str(t)
            parts.append(f"{count_text(k, face)} {took}, {word} {showed}")
    return "; ".join(parts)


def canonical(dice: Sequence[int]) -> Dice:
    """Order never matters to a rule: dice are compared, stored and reported sorted."""
    return tuple(sorted(dice))


def throw_index(dice: list[int] | tuple[int, ...]) -> int:
    return THROW_INDEX[canonical(dice)]


def counts(dice: Dice) -> tuple[int, ...]:
    """Count of each face 1..6, as a 6-tuple (looked up for the sorted keeps and throws
    every table is built from, which ask it tens of thousands of times)."""
    found = _COUNTS.get(dice) if type(dice) is tuple else None
    return found if found is not None else tuple(map(dice.count, FACES))


_COUNTS: dict[Dice, tuple[int, ...]] = {k: tuple(map(k.count, FACES)) for k in KEEPS}


def multiset_probability(dice: Dice) -> float:
    """Chance that len(dice) fair dice show exactly this multiset."""
    n = len(dice)
    ways = factorial(n)
    for c in counts(dice):
        ways //= factorial(c)
    return ways / 6.0**n


@lru_cache(maxsize=1)
def face_counts() -> npt.NDArray[np.int64]:
    """(252, 6) array: how many of each face every throw shows."""
    return np.array([counts(t) for t in THROWS], dtype=np.int64)


@lru_cache(maxsize=len(THROWS))
def sub_multisets(dice: Dice) -> list[Dice]:
    """Every distinct keep a player can make from these dice (none to all)."""
    found: set[Dice] = set()
    n = len(dice)
    for mask in range(1 << n):
        found.add(tuple(dice[i] for i in range(n) if mask >> i & 1))
    return sorted(found, key=lambda k: (len(k), k))  # callers must not mutate (cached)
