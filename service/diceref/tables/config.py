"""Where tables live and how patient the store is, read once from the environment.

Every knob has a default that works on a laptop with no Redis; deployments set `REDIS_URL`
and usually nothing else.  See docs/tables.md for the reasoning behind each default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from redis.asyncio.connection import parse_url


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

    def __post_init__(self) -> None:
        if self.redis_url is not None:
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

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> TableSettings:
        env = os.environ if environ is None else environ
        cache_dir = env.get("DICEREF_CACHE_DIR") or platformdirs.user_cache_dir("diceref")
        return cls(
            cache_dir=Path(cache_dir),
            redis_url=env.get("REDIS_URL") or None,
            redis_prefix=env.get("DICEREF_REDIS_PREFIX", "diceref:"),
            redis_connect_timeout=_seconds(env, "DICEREF_REDIS_CONNECT_TIMEOUT", 1.0),
            redis_timeout=_seconds(env, "DICEREF_REDIS_TIMEOUT", 5.0),
            lock_ttl=_seconds(env, "DICEREF_REDIS_LOCK_TTL", 30.0),
            wait_timeout=_seconds(env, "DICEREF_REDIS_WAIT_TIMEOUT", 300.0),
            poll_interval=_seconds(env, "DICEREF_REDIS_POLL_INTERVAL", 0.2),
        )


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r} is not a number of seconds") from None
