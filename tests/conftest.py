"""Shared fixtures.  Redis tests talk to the real server at REDIS_URL, each under its own
key prefix that is deleted afterwards, so tests never see each other's keys."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
import redis

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.fixture(scope="session")
def redis_url() -> str:
    """REDIS_URL (default local); no server fails the test under CI=true, else skips it."""
    url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    try:
        with redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2) as client:
            client.ping()
    except (redis.RedisError, OSError) as exc:
        message = f"no Redis answers at {url} ({exc}); start one or set REDIS_URL"
        if _in_ci():
            pytest.fail(message)
        pytest.skip(message)
    return url


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A fresh key prefix; every key under it is deleted after the test."""
    prefix = f"diceref-test:{uuid.uuid4().hex}:"
    yield prefix
    with redis.Redis.from_url(redis_url) as client:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
