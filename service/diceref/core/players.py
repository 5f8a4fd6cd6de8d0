"""Player names: every family refuses the same impossible tables in the same words."""

from __future__ import annotations

from collections.abc import Sequence

from diceref.core.errors import RuleViolation


def check_player_names(names: Sequence[str], path: str, suffix: str = "") -> None:
    """At least one player, every name non-empty and seated once.

    `path[i]suffix` names the offending entry (`players[1]`, `players[1].name`), so the
    client is pointed at the field it sent.
    """
    if not names:
        raise RuleViolation(path, "a game needs at least one player", "no_players")
    seen: set[str] = set()
    for i, name in enumerate(names):
        if not name:
            raise RuleViolation(f"{path}[{i}]{suffix}", "a player needs a name", "empty_name")
        if name in seen:
            raise RuleViolation(
                f"{path}[{i}]{suffix}",
                f"'{name}' appears twice: each player takes part once",
                "duplicate_player",
            )
        seen.add(name)
