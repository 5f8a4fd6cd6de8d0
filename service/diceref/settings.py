"""Configuration, from environment variables only (documented in the README).

Read once at start-up into a frozen object, so a handler never parses the environment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from diceref.rules.games import SCORECARD_GAMES


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


@dataclass(frozen=True)
class Settings:
    preload: tuple[str, ...]
    retry_after_seconds: int

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            preload=_games(os.environ.get("DICEREF_PRELOAD", "all")),
            retry_after_seconds=int(os.environ.get("DICEREF_RETRY_AFTER", "5")),
        )
