"""The identity of a table: what it was solved for and by which solver.

The id doubles as a file name and a Redis key suffix, so its parts are restricted to
characters that are safe in both and chosen so that two different keys can never produce
the same id (only `game` may contain '-', and it sits between parts that cannot).
Lowercase only: a case-insensitive file system must not merge two tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PATTERNS = {
    "kind": re.compile(r"[a-z0-9_]+"),
    "game": re.compile(r"[a-z0-9_][a-z0-9_-]*"),
    "rules_hash": re.compile(r"[a-z0-9]+"),
    "solver_version": re.compile(r"[a-z0-9_.]+"),
}


@dataclass(frozen=True)
class TableKey:
    """A table is valid only for exactly these rules and this solver version."""

    kind: str  # what the table holds, e.g. "value" (expected points still to come)
    game: str
    rules_hash: str
    solver_version: str

    def __post_init__(self) -> None:
        for name, pattern in _PATTERNS.items():
            value = getattr(self, name)
            if not isinstance(value, str) or pattern.fullmatch(value) is None:
                raise ValueError(
                    f"TableKey.{name}={value!r} must match {pattern.pattern} "
                    "(it becomes part of a file name and a Redis key)"
                )

    @property
    def id(self) -> str:
        """Short, stable and unique per key: the file name and Redis key suffix."""
        return f"{self.kind}-{self.game}-{self.rules_hash}-v{self.solver_version}"

    def __str__(self) -> str:
        return self.id
