"""`PerRuleset`: what a process derives from a ruleset (its points table, state space, request
plans, table specs), kept for the rulesets used most recently, within one byte budget.

With house rules a client can name any number of rulesets, so a cache keyed by the rules
must be bounded: a flood of distinct rulesets would otherwise grow the process without end.
A count alone does not bound memory (a request plan is 2.4 MB at the built-in upper-bonus
threshold and 18.6 MB at 500), so every `PerRuleset` also charges the bytes of each entry
to one `MemoryBudget` per process, `BUDGET`, and the least recently used entry of any cache
goes first when the budget is exceeded.  Bytes held elsewhere for the same purpose (the
tables registry's house-rules tables) are charged to the budget too (`MemoryBudget.charge`),
so that together they stay within one bound (`DICEREF_ON_DEMAND_MEMORY_BYTES`).  The
built-in games are used all the time and stay in; a variant used once falls out.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Any, Generic, TypeVar

import numpy as np

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

DEFAULT_BUDGET_BYTES = 512 * 1024 * 1024  # the default of DICEREF_ON_DEMAND_MEMORY_BYTES
# Objects `nbytes_of` looks into at most: an entry is a few arrays in a few dataclasses, and
# an estimate that stops early only under-counts an entry, never fails a request.
MAX_OBJECTS_WALKED = 10_000


def nbytes_of(value: object) -> int:
    """About the bytes `value` holds: its numpy arrays' buffers (an array owning its data;
    a view counts once, through its base) and Python containers, followed through tuples,
    lists, dicts, sets, dataclasses and objects' attributes; each object counted once."""
    seen: set[int] = set()
    todo: list[object] = [value]
    total = 0
    while todo and len(seen) < MAX_OBJECTS_WALKED:
        item = todo.pop()
        if id(item) in seen or item is None or isinstance(item, type):
            continue
        seen.add(id(item))
        if isinstance(item, np.ndarray):
            root = item
            while isinstance(root.base, np.ndarray):
                root = root.base
            if root is item or id(root) not in seen:
                seen.add(id(root))
                total += root.nbytes
            continue
        total += sys.getsizeof(item)
        if isinstance(item, (str, bytes, int, float, bool, complex)):
            continue
        if isinstance(item, dict):
            todo += item.keys()
            todo += item.values()
        elif isinstance(item, (tuple, list, set, frozenset)):
            todo += item
        else:
            todo += getattr(item, "__dict__", {}).values()
            for cls in type(item).__mro__:
                for slot in getattr(cls, "__slots__", ()):
                    with contextlib.suppress(AttributeError):
                        todo.append(getattr(item, slot))
    return total


class _Entry:
    """One cached value, with the cache and key it is held under and the bytes it counts
    for.  The budget orders entries by identity: a hit then hashes its key only for the
    cache's own map, not again for the budget's order."""

    __slots__ = ("cache", "key", "nbytes", "value")

    def __init__(self, cache: PerRuleset[Any, Any], key: Hashable, value: Any, nbytes: int):
        self.cache, self.key, self.value, self.nbytes = cache, key, value, nbytes


class MemoryBudget:
    """The bytes a process may keep of what it derives from rulesets, over every cache.

    Entries are kept in one least-recently-used order across the caches; when the entries'
    bytes plus those charged by other holders exceed `limit`, the oldest entries are
    dropped from their caches (never the one just added: a request needs it)."""

    def __init__(self, limit: int = DEFAULT_BUDGET_BYTES) -> None:
        self.limit = limit
        self.cached = 0  # bytes of the caches' entries
        self._order: OrderedDict[_Entry, None] = OrderedDict()
        self._charged: dict[str, int] = {}
        self.lock = threading.RLock()

    def held(self) -> int:
        """The bytes counted against the budget: entries and charges."""
        return self.cached + sum(self._charged.values())

    def charge(self, holder: str, nbytes: int) -> None:
        """Count `nbytes` held by `holder` (replacing its previous charge), evicting cache
        entries beyond the limit."""
        with self.lock:
            if nbytes:
                self._charged[holder] = nbytes
            else:
                self._charged.pop(holder, None)
            self._evict(keep=None)

    def _add(self, entry: _Entry) -> None:
        with self.lock:
            self._order[entry] = None
            self.cached += entry.nbytes
            self._evict(keep=entry)

    def _remove(self, entry: _Entry) -> None:
        with self.lock:
            if entry in self._order:
                del self._order[entry]
                self.cached -= entry.nbytes

    def _touch(self, entry: _Entry) -> None:
        # try, not contextlib.suppress: this is every hit's path, and a context manager
        # costs more than the move itself
        try:
            self._order.move_to_end(entry)
        except KeyError:  # evicted meanwhile: nothing to move
            return

    def _evict(self, keep: _Entry | None) -> None:
        while self.held() > self.limit and self._order:
            entry = next(iter(self._order))
            if entry is keep:  # the newest entry is the only one left
                return
            del self._order[entry]
            self.cached -= entry.nbytes
            items = entry.cache._items
            if items.get(entry.key) is entry:
                del items[entry.key]


BUDGET = MemoryBudget()  # the process's one budget; its limit is set from the settings


class PerRuleset(Generic[K, V]):
    """A least-recently-used map of at most `size` entries whose bytes count against
    `budget`, safe across threads (the solver's threads and the request path read it)."""

    def __init__(self, size: int, budget: MemoryBudget | None = None) -> None:
        self.size = size
        self.budget = BUDGET if budget is None else budget
        self._items: OrderedDict[K, _Entry] = OrderedDict()

    def get(self, key: K, make: Callable[[], V]) -> V:
        found = self.peek(key)
        if found is not None:
            return found
        made = make()  # outside the lock: building a state space takes milliseconds
        self.put(key, made)
        return made

    def peek(self, key: K) -> V | None:
        """The entry if held (used now), else None; never builds one."""
        # A hit takes no lock (`POST /score` asks four times): under the GIL, `get` and
        # `move_to_end` are each atomic, and an entry evicted between the two is still a
        # valid answer.  Inserting and evicting together is what the lock is for.
        entry = self._items.get(key)
        if entry is None:
            return None
        value: V = entry.value
        try:
            self._items.move_to_end(key)
        except KeyError:  # evicted meanwhile: still a valid answer
            return value
        self.budget._touch(entry)
        return value

    def put(self, key: K, value: V) -> None:
        entry = _Entry(self, key, value, nbytes_of(value))
        with self.budget.lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.budget._remove(old)
            self._items[key] = entry
            while len(self._items) > self.size:
                _, oldest = self._items.popitem(last=False)
                self.budget._remove(oldest)
            self.budget._add(entry)

    def pop(self, key: K) -> V | None:
        """Take the entry out (a value handed over once), None if not held."""
        with self.budget.lock:
            entry = self._items.pop(key, None)
            if entry is None:
                return None
            self.budget._remove(entry)
        value: V = entry.value
        return value

    def clear(self) -> None:
        """Forget every entry (a benchmark that solves "from scratch" in one process)."""
        with self.budget.lock:
            for entry in self._items.values():
                self.budget._remove(entry)
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[K]:
        """The keys, least recently used first (a snapshot)."""
        return iter(list(self._items))

    def __getitem__(self, key: K) -> V:
        value: V = self._items[key].value
        return value

    def nbytes(self) -> int:
        """The bytes this cache's entries are counted for."""
        with self.budget.lock:
            return sum(entry.nbytes for entry in self.budget._order if entry.cache is self)


class Memoized(Generic[K, V]):
    """A function of one hashable argument (a ruleset, mostly) whose results a `PerRuleset`
    keeps: what `functools.lru_cache` would be, within the byte budget and seen by it."""

    def __init__(self, function: Callable[[K], V], size: int) -> None:
        self.function = function
        self.cache: PerRuleset[K, V] = PerRuleset(size)
        functools.update_wrapper(self, function)

    def __call__(self, key: K) -> V:
        found = self.cache.peek(key)
        if found is None:
            found = self.function(key)
            self.cache.put(key, found)
        return found

    def cache_clear(self) -> None:
        """Forget every result (a benchmark that measures the cold path)."""
        self.cache.clear()


def per_ruleset(size: int) -> Callable[[Callable[[K], V]], Memoized[K, V]]:
    """Decorate a function of one argument so that its results are kept in a `PerRuleset`
    of `size` entries (results must not be None: None means "not held")."""

    def decorate(function: Callable[[K], V]) -> Memoized[K, V]:
        return Memoized(function, size)

    return decorate
