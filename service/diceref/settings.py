"""Configuration: one object, parsed once from environment variables (documented in the
README, "Operations"), used by `diceref serve`, every other command and the app.

msgspec does the parsing: the variables are gathered into a dict by field name and
converted in lax mode (`"8000"` to 8000, `"true"` to True), with every bound declared on
the field (`Meta`), so one declaration gives the type, the default, the check and the words
of the error.  A bad value is a `SettingsError` naming the variable, the value and what is
allowed, which the CLI prints as one line (exit status 2), never a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
import msgspec.inspect as mi

from diceref.games.families import preloadable_games  # imports the scorecard family alone
from diceref.tables.config import TableSettings

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
LogFormat = Literal["json", "text"]
Seconds = Annotated[float, msgspec.Meta(gt=0)]


class SettingsError(ValueError):
    """A variable whose value is not allowed; the message is the one line to print."""


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    # diceref serve
    host: str = "127.0.0.1"
    port: Annotated[int, msgspec.Meta(ge=1, le=65535)] = 8000
    workers: Annotated[int, msgspec.Meta(ge=1, le=64)] = 1
    access_log: bool = False
    # The connection limits (granian; see the README, "What the service withstands").
    # Connections the kernel queues before a worker accepts them (the one listener the
    # workers share).
    backlog: Annotated[int, msgspec.Meta(ge=128, le=65535)] = 1024
    # Connections one worker holds at once; more wait in the backlog.
    max_connections: Annotated[int, msgspec.Meta(ge=1, le=65535)] = 512
    # Seconds a connection has to send a request's headers, counted from when it opens or
    # from the end of its previous response (so it is also the keep-alive idle timeout).
    header_timeout: Annotated[float, msgspec.Meta(ge=0.001, le=60)] = 10.0
    # Seconds a request has, once its headers are in, to send its whole body (a 408).
    body_timeout: Seconds = 30.0
    # Seconds an answer's bytes may wait for the client to take them (its receive window
    # shut, or nothing acknowledged) before the connection is aborted.
    send_timeout: Annotated[float, msgspec.Meta(ge=0.5, le=600)] = 10.0
    # Keep a connection open for the next request (closed after DICEREF_HEADER_TIMEOUT idle).
    keep_alive: bool = True
    # Seconds SIGTERM waits for in-flight requests before the workers are killed; below
    # the chart's terminationGracePeriodSeconds (30) minus its preStop sleep (5).
    shutdown_timeout: Annotated[int, msgspec.Meta(ge=1, le=1800)] = 20
    # the app
    preload: tuple[str, ...] = ()
    retry_after_seconds: Annotated[int, msgspec.Meta(ge=0, le=3600)] = 5
    # Request bodies larger than this get a 413 problem (before they are parsed).
    max_body_bytes: Annotated[int, msgspec.Meta(ge=1)] = 64 * 1024
    # Browser origins allowed by CORS; empty: no CORS headers at all.  "*" allows any.
    cors_origins: tuple[str, ...] = ()
    # How often each worker pings Redis (and, once Redis answers again, publishes the tables
    # it holds that Redis lost).
    redis_check_interval: Seconds = 5.0
    log_level: LogLevel = "INFO"
    # None: leave logging as it is (tests); "json" or "text": configure the root logger.
    log_format: LogFormat | None = None
    # the tables store (see docs/tables.md)
    cache_dir: str | None = None  # None: the platform's user cache directory
    # the solver's compiled kernel (docs/solver.md); None: <cache_dir>/kernels
    kernel_cache_dir: str | None = None
    redis_url: str | None = None  # None: no Redis layer at all
    redis_prefix: str = "diceref:"
    redis_connect_timeout: Seconds = 1.0
    redis_timeout: Seconds = 5.0
    lock_ttl: Seconds = 30.0
    wait_timeout: Seconds = 300.0
    poll_interval: Seconds = 0.2
    # tables solved on demand for house rules (see docs/tables.md, "House rules")
    max_solves: Annotated[int, msgspec.Meta(ge=1, le=16)] = 1
    solve_queue_size: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 8
    on_demand_memory_bytes: Annotated[int, msgspec.Meta(ge=1)] = 512 * 1024 * 1024
    on_demand_disk_bytes: Annotated[int, msgspec.Meta(ge=1)] = 2 * 1024 * 1024 * 1024
    on_demand_redis_ttl: Annotated[int, msgspec.Meta(ge=1)] = 7 * 24 * 3600
    on_demand_redis_bytes: Annotated[int, msgspec.Meta(ge=1)] = 1024 * 1024 * 1024

    @property
    def tables(self) -> TableSettings:
        cache_dir = self.cache_dir
        if not cache_dir:
            import platformdirs  # imported only without DICEREF_CACHE_DIR

            cache_dir = platformdirs.user_cache_dir("diceref")
        return TableSettings(
            cache_dir=Path(cache_dir),
            kernel_cache_dir=Path(self.kernel_cache_dir) if self.kernel_cache_dir else None,
            redis_url=self.redis_url,
            redis_prefix=self.redis_prefix,
            redis_connect_timeout=self.redis_connect_timeout,
            redis_timeout=self.redis_timeout,
            lock_ttl=self.lock_ttl,
            wait_timeout=self.wait_timeout,
            poll_interval=self.poll_interval,
            max_solves=self.max_solves,
            solve_queue_size=self.solve_queue_size,
            on_demand_memory_bytes=self.on_demand_memory_bytes,
            on_demand_disk_bytes=self.on_demand_disk_bytes,
            on_demand_redis_ttl=self.on_demand_redis_ttl,
            on_demand_redis_bytes=self.on_demand_redis_bytes,
        )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        given = {name: env[name].strip() for name in VARIABLES if env.get(name, "").strip()}
        raw: dict[str, Any] = {"log_format": "json"}
        for name, value in given.items():
            raw[VARIABLES[name]] = value
        if "log_level" in raw:
            raw["log_level"] = raw["log_level"].upper()
        if "log_format" in raw:
            raw["log_format"] = raw["log_format"].lower()
        raw["preload"] = _preload(given.get("DICEREF_PRELOAD", "all"))
        raw["cors_origins"] = _list(given.get("DICEREF_CORS_ORIGINS", ""))
        if "redis_url" in raw:
            from redis.asyncio.connection import parse_url  # redis-py: only with REDIS_URL

            try:
                parse_url(raw["redis_url"])
            except ValueError as exc:
                raise SettingsError(f"REDIS_URL={raw['redis_url']!r}: {exc}") from None
        try:
            return msgspec.convert(raw, cls, strict=False)
        except msgspec.ValidationError as exc:
            raise _error(exc, given) from None


# Environment variable -> field.  The README's table lists every one (a test keeps it so).
VARIABLES: dict[str, str] = {
    "DICEREF_HOST": "host",
    "DICEREF_PORT": "port",
    "DICEREF_WORKERS": "workers",
    "DICEREF_ACCESS_LOG": "access_log",
    "DICEREF_BACKLOG": "backlog",
    "DICEREF_MAX_CONNECTIONS": "max_connections",
    "DICEREF_HEADER_TIMEOUT": "header_timeout",
    "DICEREF_BODY_TIMEOUT": "body_timeout",
    "DICEREF_SEND_TIMEOUT": "send_timeout",
    "DICEREF_KEEP_ALIVE": "keep_alive",
    "DICEREF_SHUTDOWN_TIMEOUT": "shutdown_timeout",
    "DICEREF_PRELOAD": "preload",
    "DICEREF_RETRY_AFTER": "retry_after_seconds",
    "DICEREF_MAX_BODY_BYTES": "max_body_bytes",
    "DICEREF_CORS_ORIGINS": "cors_origins",
    "DICEREF_REDIS_CHECK_INTERVAL": "redis_check_interval",
    "DICEREF_LOG_LEVEL": "log_level",
    "DICEREF_LOG_FORMAT": "log_format",
    "DICEREF_CACHE_DIR": "cache_dir",
    "DICEREF_KERNEL_CACHE_DIR": "kernel_cache_dir",
    "REDIS_URL": "redis_url",
    "DICEREF_REDIS_PREFIX": "redis_prefix",
    "DICEREF_REDIS_CONNECT_TIMEOUT": "redis_connect_timeout",
    "DICEREF_REDIS_TIMEOUT": "redis_timeout",
    "DICEREF_REDIS_LOCK_TTL": "lock_ttl",
    "DICEREF_REDIS_WAIT_TIMEOUT": "wait_timeout",
    "DICEREF_REDIS_POLL_INTERVAL": "poll_interval",
    "DICEREF_MAX_SOLVES": "max_solves",
    "DICEREF_SOLVE_QUEUE": "solve_queue_size",
    "DICEREF_ON_DEMAND_MEMORY_BYTES": "on_demand_memory_bytes",
    "DICEREF_ON_DEMAND_DISK_BYTES": "on_demand_disk_bytes",
    "DICEREF_ON_DEMAND_REDIS_TTL": "on_demand_redis_ttl",
    "DICEREF_ON_DEMAND_REDIS_BYTES": "on_demand_redis_bytes",
}
_VARIABLE_OF = {field: name for name, field in VARIABLES.items()}


def _preload(raw: str) -> tuple[str, ...]:
    raw = raw.strip().lower()
    games = preloadable_games()
    if raw in ("", "all"):
        return games
    if raw == "none":
        return ()
    named = tuple(g.strip() for g in raw.split(",") if g.strip())
    unknown = [g for g in named if g not in games]
    if unknown:
        raise SettingsError(
            f"DICEREF_PRELOAD={raw!r} names unknown games ({', '.join(unknown)}): "
            f"allowed are all, none or a comma list of {', '.join(games)}"
        )
    return named


def _list(raw: str) -> tuple[str, ...]:
    return tuple(o.strip().rstrip("/") for o in raw.split(",") if o.strip())


def _error(exc: msgspec.ValidationError, given: Mapping[str, str]) -> SettingsError:
    """One line: the variable, its value, and what it may be."""
    path = str(exc).rsplit("`$.", 1)[-1].rstrip("`")
    field = path.split("[", 1)[0].split(".", 1)[0]
    name = _VARIABLE_OF.get(field, field)
    return SettingsError(f"{name}={given.get(name, '')!r} is not allowed: {allowed(field)}")


def allowed(field: str) -> str:
    """What a field accepts, in words, read off its declared type."""
    info = {f.name: f.type for f in _struct_info().fields}[field]
    if isinstance(info, mi.UnionType):  # X | None: None is the default, never written
        info = next(t for t in info.types if not isinstance(t, mi.NoneType))
    if isinstance(info, mi.BoolType):
        return "true or false (or 1 or 0)"
    if isinstance(info, mi.LiteralType):
        return "one of " + ", ".join(str(v) for v in info.values)
    if isinstance(info, mi.IntType):
        low = "" if info.ge is None else f" from {info.ge}"
        high = "" if info.le is None else f" to {info.le}"
        return f"a whole number{low}{high}" if low else f"a whole number{high}"
    if isinstance(info, mi.FloatType):
        if info.gt == 0:
            return "a number of seconds greater than 0"
        if info.ge is not None and info.le is not None:
            return f"a number of seconds from {info.ge:g} to {info.le:g}"
        return "a number"
    return "a string"


def _struct_info() -> mi.StructType:
    info = mi.type_info(Settings)
    assert isinstance(info, mi.StructType)
    return info
