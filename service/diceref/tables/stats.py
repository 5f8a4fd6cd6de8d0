"""Plain counters of where tables came from and what went wrong, for metrics exporters.

Kept free of any metrics library so the store stays importable everywhere; an exporter
reads `TableStore.stats()` and publishes the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Source = Literal["memory", "disk", "redis", "computed"]
SOURCES: tuple[Source, ...] = ("memory", "disk", "redis", "computed")
Layer = Literal["disk", "redis"]


@dataclass(frozen=True)
class StoreStats:
    """A snapshot: counts only grow, so exporters can publish them as counters."""

    loads: dict[Source, int]  # TableStore.get results per source
    load_seconds: dict[Source, float]  # summed wall time of those gets
    corrupt: dict[Layer, int]  # stored tables found damaged and discarded
    waits: int  # gets that waited for another replica's (or worker's) computation
    redis_errors: int  # failed Redis operations (each one treated as a miss)
    disk_errors: int  # failed disk reads or writes other than corruption
    published: int = 0  # tables written back to Redis by `publish` (Redis had lost them)


@dataclass
class Counters:
    loads: dict[Source, int] = field(default_factory=lambda: dict.fromkeys(SOURCES, 0))
    load_seconds: dict[Source, float] = field(default_factory=lambda: dict.fromkeys(SOURCES, 0.0))
    corrupt: dict[Layer, int] = field(default_factory=lambda: {"disk": 0, "redis": 0})
    waits: int = 0
    disk_errors: int = 0
    published: int = 0

    def loaded(self, source: Source, seconds: float) -> None:
        self.loads[source] += 1
        self.load_seconds[source] += seconds

    def snapshot(self, redis_errors: int) -> StoreStats:
        return StoreStats(
            loads=dict(self.loads),
            load_seconds=dict(self.load_seconds),
            corrupt=dict(self.corrupt),
            waits=self.waits,
            redis_errors=redis_errors,
            disk_errors=self.disk_errors,
            published=self.published,
        )
