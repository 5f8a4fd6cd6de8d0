"""Competition ranking ("1224"): the one way every family ranks players.

Equal keys share a rank and the next rank skips the shared places (1, 1, 3), as score
sheets, Chicago standings and Yardkle standings all print them; players with equal keys stay
in the order given (the seating or listing order).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

T = TypeVar("T")


def competition_ranking(
    items: Iterable[T], key: Callable[[T], Hashable], *, best_first: bool = True
) -> list[tuple[int, T]]:
    """`items` ordered by `key` (highest first unless `best_first` is False), each with
    its rank; the sort is stable, so ties keep their given order."""
    ordered = sorted(items, key=key, reverse=best_first)  # type: ignore[arg-type]
    ranked: list[tuple[int, T]] = []
    for i, item in enumerate(ordered):
        shared = i > 0 and key(ordered[i - 1]) == key(item)
        ranked.append((ranked[-1][0] if shared else i + 1, item))
    return ranked
