"""Every cache a process keeps of what requests send is bounded.

Any number of house rules can be sent, so a cache keyed by a ruleset (or by a throw and a
ruleset) must evict: a flood of distinct rulesets would otherwise grow a worker without end.
Only caches of functions without parameters (one entry, whatever is asked) may be unbounded.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

import diceref


def _caches() -> list[tuple[str, Any]]:
    found = []
    for info in pkgutil.walk_packages(diceref.__path__, "diceref."):
        if ".http" in info.name or info.name.endswith("cli"):
            # importing diceref.http.app builds the served app; the HTTP layer's caches are
            # keyed by a built-in game id (a closed set), never by rules
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if callable(getattr(value, "cache_info", None)) and hasattr(value, "__wrapped__"):
                found.append((f"{info.name}.{name}", value))
    return found


def test_every_cache_keyed_by_what_a_request_sends_is_bounded() -> None:
    caches = _caches()
    assert len(caches) >= 10, "the walk found too few caches: it is broken"
    unbounded = [
        name
        for name, fn in caches
        if fn.cache_info().maxsize is None and inspect.signature(fn.__wrapped__).parameters
    ]
    assert unbounded == []
