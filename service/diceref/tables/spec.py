"""`TableSpec`: one table a game family serves, described once for every consumer.

A family lists its tables as specs: what the table holds (`kind`), for which game and rules
(`rules_hash`, the content hash of the rules it was solved for), by which solver version,
its shape, and the pure function that solves it.  The registry loads and serves every spec
the same way, the CLI precomputes them, and the store keys them; nothing outside the family
knows how a table is solved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from diceref.tables.codec import DTYPE, Shape
from diceref.tables.key import TableKey

if TYPE_CHECKING:
    from diceref.tables.lookup import LoadedTable, SyncTables

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class TableSpec:
    kind: str  # what the table holds: "value", "max", "policy", ...
    game: str
    rules_hash: str
    solver_version: str
    # The table's shape, or a function giving it at first use (`shape`): Yardkle's comes from
    # its layout, which listing the specs at start-up need not work out.  An axis of None
    # has the length its solve gives (checked against the stored header only).
    _shape: Shape | Callable[[], Shape] = field(compare=False, repr=False)
    # The pure solve, given an optional progress callback (done, total); it runs in a worker
    # thread, never on a request's path.
    solve: Callable[[Progress | None], npt.ArrayLike] = field(compare=False, repr=False)
    # Loaded before the service takes its first request (small tables a route always needs),
    # rather than on demand or by DICEREF_PRELOAD.
    at_startup: bool = field(default=False, compare=False)
    # How it is stored: "<f8", or "<f4" for a table float32 holds exactly enough.
    dtype: str = field(default=DTYPE, compare=False)
    # The tables of one ruleset load as one group, in order; a spec with a `group` of its
    # own loads apart from the ruleset's others (a long solve that most requests do not
    # wait for), and is always solved on demand, when a request first needs it.
    group: str = field(default="", compare=False)
    # Whether it goes through Redis (fetched, solved under its lock, stored, published).
    # False for tables of up to a GB or more: one Redis string holds at most 512 MB, and
    # writing or reading such a value stalls the server for every replica; replicas share
    # those by a volume or solve their own (docs/tables.md).
    in_redis: bool = field(default=True, compare=False)
    # Called with the table, in a worker thread, once it is loaded and before it is served:
    # work each process must do once before it answers from the table (a compiled kernel
    # imported and compiled, structures rebuilt from the array), so that no request pays it.
    warm: Callable[[npt.NDArray[Any]], object] | None = field(
        default=None, compare=False, repr=False
    )

    @cached_property
    def shape(self) -> Shape:
        return self._shape() if callable(self._shape) else self._shape

    @cached_property
    def key(self) -> TableKey:
        """Built once per spec: every request that reads a table looks it up by this key,
        and a `TableKey` checks its fields when it is made."""
        return TableKey(self.kind, self.game, self.rules_hash, self.solver_version)

    def compute(self, progress: Progress | None = None) -> Callable[[], npt.ArrayLike]:
        """The solve as the store calls it (no arguments)."""
        return lambda: self.solve(progress)


class TableNotLoaded(LookupError):
    """The table a request needs is not in this process yet: it is loading in the
    background, and the request is answered 503 with Retry-After instead of waiting."""

    def __init__(self, spec: TableSpec) -> None:
        super().__init__(f"the {spec.game} {spec.kind} table is not loaded yet")
        self.spec = spec
        self.game = spec.game


def load_sync(store: SyncTables, spec: TableSpec, progress: Progress | None = None) -> LoadedTable:
    """The table from the store's caches, or solved and written back (the CLI and tests;
    never from inside a running event loop)."""
    return store.get_sync(
        spec.key, spec.compute(progress), shape=spec.shape, dtype=spec.dtype, in_redis=spec.in_redis
    )
