"""The within-turn arithmetic: from values after a throw to values of every keep, and back.

Two recursions over keep size make this cheap (about 3,000 array rows per state instead of
a 252 x 462 matrix product):

* expectation: a keep of k dice is worth the mean, over the face of one more die, of the
  keep of k + 1 dice (the rerolled dice are independent), down from the 252 throws;
* best keep: the best sub-keep of a multiset is either the multiset itself or the best
  sub-keep of it with one die removed, up from the empty keep.

Arrays are laid out (keeps, states) so that every step is a gather of whole rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from diceref.core.arrays import FloatArray, IndexArray
from diceref.core.dice import DICE_PER_THROW, FACES, THROWS, multiset_probability, multisets

SMALL_BATCH = 64  # below this many states, fewer and larger numpy calls win


@dataclass(frozen=True)
class KeepGraph:
    by_size: tuple[tuple[tuple[int, ...], ...], ...]  # keeps of each size, lexicographic
    index: tuple[dict[tuple[int, ...], int], ...]  # position of a keep within its size
    child: tuple[IndexArray, ...]  # child[k]: (n_k, 6) positions in size k+1 of keep + face
    parent: tuple[IndexArray, ...]  # parent[k]: (n_k, k) positions in size k-1 of keep - die
    throw_probability: FloatArray  # (252,) chance of each throw of five dice


@lru_cache(maxsize=1)
def keep_graph() -> KeepGraph:
    by_size = tuple(tuple(multisets(k)) for k in range(DICE_PER_THROW + 1))
    index = tuple({keep: i for i, keep in enumerate(level)} for level in by_size)
    child: list[IndexArray] = []
    parent: list[IndexArray] = [np.zeros((1, 0), dtype=np.intp)]
    for k, level in enumerate(by_size):
        if k < DICE_PER_THROW:
            child.append(
                np.array(
                    [[index[k + 1][tuple(sorted((*keep, f)))] for f in FACES] for keep in level],
                    dtype=np.intp,
                )
            )
        if k > 0:
            parent.append(
                np.array(
                    [[index[k - 1][keep[:j] + keep[j + 1 :]] for j in range(k)] for keep in level],
                    dtype=np.intp,
                )
            )
    assert by_size[DICE_PER_THROW] == THROWS
    probability = np.array([multiset_probability(t) for t in THROWS], dtype=np.float64)
    return KeepGraph(by_size, index, tuple(child), tuple(parent), probability)


def keep_expectations(after_throw: FloatArray) -> list[FloatArray]:
    """Value of each keep (per size) when the other dice are thrown and `after_throw` follows.

    `after_throw` is (252, N): the value of standing on each throw.  Returns [E_0 .. E_5],
    E_k of shape (n_k, N); E_5 is `after_throw` itself (keep all five).
    """
    graph = keep_graph()
    levels: list[FloatArray] = [after_throw]
    current = after_throw
    few = after_throw.shape[1] < SMALL_BATCH
    for k in range(DICE_PER_THROW - 1, -1, -1):
        child = graph.child[k]
        if few:  # one gather and one sum per level: numpy's call overhead dominates here
            current = current[child].sum(axis=1) * (1.0 / 6.0)
            levels.append(current)
            continue
        acc = current[child[:, 0]]
        for f in range(1, 6):
            acc += current[child[:, f]]
        acc *= 1.0 / 6.0
        levels.append(acc)
        current = acc
    levels.reverse()
    return levels


def best_keep(expectations: list[FloatArray]) -> FloatArray:
    """(252, N): for each throw, the value of its best keep (keeping all five included)."""
    graph = keep_graph()
    best = expectations[0]
    few = best.shape[1] < SMALL_BATCH
    for k in range(1, DICE_PER_THROW + 1):
        parent = graph.parent[k]
        if few:
            best = np.maximum(expectations[k], best[parent].max(axis=1))
            continue
        level = np.maximum(expectations[k], best[parent[:, 0]])
        for j in range(1, k):
            np.maximum(level, best[parent[:, j]], out=level)
        best = level
    return best
