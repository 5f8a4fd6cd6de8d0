"""Where tables live and how patient the store is.

Every knob has a default that works on a laptop with no Redis; deployments set `REDIS_URL`
and usually nothing else.  `diceref.settings.Settings.tables` builds this from the
environment; see docs/tables.md for the reasoning behind each default.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class TableSettings:
    cache_dir: Path  # tables go to cache_dir / "tables"
    redis_url: str | None = None  # None: no Redis layer at all
    redis_prefix: str = "diceref:"
    # Small socket timeouts so a dead or unreachable Redis costs a request little time.
    redis_connect_timeout: float = 1.0
    redis_timeout: float = 5.0  # per socket read/write, not per 35 MB transfer
    # The compute lock expires this long after its last refresh (refreshed every ttl/3),
    # so a replica that dies while computing blocks the others for at most this long.
    lock_ttl: float = 30.0
    # A waiter that has not seen the table after this long computes it itself.
    wait_timeout: float = 300.0
    poll_interval: float = 0.2
    # Tables asked for on demand (house rules): solves at once per process, rulesets that
    # may wait for one (more: a 429), the bytes of them held in memory and on disk (least
    # recently used evicted), and the seconds and bytes Redis keeps them (oldest deleted).
    max_solves: int = 1
    solve_queue_size: int = 8
    on_demand_memory_bytes: int = 512 * 1024 * 1024
    on_demand_disk_bytes: int = 2 * 1024 * 1024 * 1024
    on_demand_redis_ttl: int = 7 * 24 * 3600
    on_demand_redis_bytes: int = 1024 * 1024 * 1024
    # A table whose load failed is tried again when next asked for, but not sooner than
    # this: until then it is reported `failed` (a solve that always fails is not run again
    # on every request).
    failed_retry_seconds: float = 30.0
    # The solver's compiled kernel (`diceref.core.kernel`); None: cache_dir / "kernels".
    kernel_cache_dir: Path | None = None

    @property
    def kernel_dir(self) -> Path:
        """Where the solver's compiled kernel is kept (`diceref.core.kernel.use_cache`)."""
        return self.kernel_cache_dir or self.cache_dir / "kernels"

    def __post_init__(self) -> None:
        if self.redis_url is not None:
            # imported only here: redis-py's import is paid only by a deployment that
            # uses Redis (`diceref precompute` and a laptop's serve do not)
            from redis.asyncio.connection import parse_url

            parse_url(self.redis_url)  # a malformed URL fails at start-up, not on first use
        for name in (
            "redis_connect_timeout",
            "redis_timeout",
            "lock_ttl",
            "wait_timeout",
            "poll_interval",
        ):
            if not getattr(self, name) > 0:
                raise ValueError(f"TableSettings.{name} must be positive")
