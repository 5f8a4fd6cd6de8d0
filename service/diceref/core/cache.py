"""`PerRuleset`: what a process derives from a ruleset (its points table, state space,
table specs), kept for the rulesets used most recently.

With house rules a client can name any number of rulesets, so a cache keyed by the rules
must be bounded: a flood of distinct rulesets would otherwise grow the process without end.
The built-in games are used all the time and stay in; a variant used once falls out.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class PerRuleset(Generic[K, V]):
    """A least-recently-used map of at most `size` entries, safe across threads (the
    solver's threads and the request path read it)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        # A hit takes no lock (`POST /score` asks four times): under the GIL, `get` and
        # `move_to_end` are each atomic, and an entry evicted between the two is still a
        # valid answer.  Inserting and evicting together is what the lock is for.
        found = self._items.get(key)
        if found is not None:
            with contextlib.suppress(KeyError):
                self._items.move_to_end(key)
            return found
        made = make()  # outside the lock: building a state space takes milliseconds
        with self._lock:
            self._items[key] = made
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return made

    def clear(self) -> None:
        """Forget every entry (a benchmark that solves "from scratch" in one process)."""
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
