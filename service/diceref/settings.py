"""Configuration, from environment variables only (documented in the README, "Operations").

Read once at start-up into a frozen object, so a handler never parses the environment.  The
tables store reads its own variables (`diceref.tables.config`), and `diceref serve` the
server's (host, port, workers, access log).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from diceref.games.scorecard.rules.games import SCORECARD_GAMES

LOG_FORMATS = ("json", "text")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _games(raw: str) -> tuple[str, ...]:
    raw = raw.strip().lower()
    if raw in ("", "all"):
        return tuple(SCORECARD_GAMES)
    if raw == "none":
        return ()
    games = tuple(g.strip() for g in raw.split(",") if g.strip())
    unknown = [g for g in games if g not in SCORECARD_GAMES]
    if unknown:
        raise ValueError(f"DICEREF_PRELOAD names unknown games: {', '.join(unknown)}")
    return games


def _origins(raw: str) -> tuple[str, ...]:
    return tuple(o.strip().rstrip("/") for o in raw.split(",") if o.strip())


def _int(env: Mapping[str, str], name: str, default: int, minimum: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r} is not an integer") from None
    if value < minimum:
        raise ValueError(f"{name}={value} must be at least {minimum}")
    return value


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r} is not a number") from None
    if not value > 0:
        raise ValueError(f"{name}={value} must be positive")
    return value


def _choice(env: Mapping[str, str], name: str, default: str, choices: tuple[str, ...]) -> str:
    raw = env.get(name, "").strip() or default
    value = raw.upper() if choices is LOG_LEVELS else raw.lower()
    if value not in choices:
        raise ValueError(f"{name}={raw!r} must be one of {', '.join(choices)}")
    return value


@dataclass(frozen=True)
class Settings:
    preload: tuple[str, ...]
    retry_after_seconds: int
    # Request bodies larger than this get a 413 problem (before they are parsed).
    max_body_bytes: int = 64 * 1024
    # Browser origins allowed by CORS; empty: no CORS headers at all.  "*" allows any.
    cors_origins: tuple[str, ...] = ()
    # How often each worker pings Redis (and, once Redis answers again, publishes the tables
    # it holds that Redis lost).
    redis_check_interval: float = 5.0
    log_level: str = "INFO"
    # None: leave logging as it is (tests); "json" or "text": configure the root logger.
    log_format: str | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        return cls(
            preload=_games(env.get("DICEREF_PRELOAD", "all")),
            retry_after_seconds=_int(env, "DICEREF_RETRY_AFTER", 5, minimum=0),
            max_body_bytes=_int(env, "DICEREF_MAX_BODY_BYTES", 64 * 1024, minimum=1),
            cors_origins=_origins(env.get("DICEREF_CORS_ORIGINS", "")),
            redis_check_interval=_float(env, "DICEREF_REDIS_CHECK_INTERVAL", 5.0),
            log_level=_choice(env, "DICEREF_LOG_LEVEL", "INFO", LOG_LEVELS),
            log_format=_choice(env, "DICEREF_LOG_FORMAT", "json", LOG_FORMATS),
        )
