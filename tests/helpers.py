"""Small helpers shared by the rules tests (plain functions, no fixtures)."""

from __future__ import annotations

from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import Option, Scorecard, legal_options


def options(
    game: str,
    dice: list[int],
    boxes: dict[str, int] | None = None,
    throw: int = 3,
    extra_bonus: int = 0,
) -> dict[str, Option]:
    card = Scorecard(boxes or {}, extra_bonus)
    return {o.box: o for o in legal_options(SCORECARD_GAMES[game], card, dice, throw)}


def points(game: str, dice: list[int], throw: int = 3) -> dict[str, int]:
    return {box: o.points for box, o in options(game, dice, throw=throw).items()}


def fill(game: str, value_by_box: dict[str, int], leave_open: set[str]) -> dict[str, int]:
    """A card with every box filled (with the given value, else 0) except `leave_open`."""
    ruleset = SCORECARD_GAMES[game]
    return {b.id: value_by_box.get(b.id, 0) for b in ruleset.boxes if b.id not in leave_open}
