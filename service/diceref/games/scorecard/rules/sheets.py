"""Checking finished or running score sheets, as a scorekeeper at an event would.

Unlike `validate_scorecard`, which stops at the first impossibility (a request must be
consistent to be answered), the checker lists every problem it finds on every sheet, so a
table can correct a sheet in one pass.  Entries are replayed in the order written, which
is what lets it check the dice behind an entry against the card as it was at that turn
(Joker, extra bonus, series order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from diceref.core.dice import DICE_PER_THROW, FACES, canonical
from diceref.core.ranking import competition_ranking
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Order, Ruleset
from diceref.games.scorecard.rules.scorecard import (
    RuleViolation,
    Scorecard,
    extra_bonus_for,
    is_complete,
    legal_options,
    upper_bonus_secured,
    upper_subtotal,
    validate_extra_bonus,
)


@dataclass(frozen=True)
class Entry:
    box: str
    points: int
    dice: tuple[int, ...] | None = None
    throw: int | None = None  # None: the turn's last throw (the game's `throws_per_turn`)


@dataclass(frozen=True)
class Sheet:
    player: str
    entries: tuple[Entry, ...]
    extra_bonus: int = 0
    claimed_upper_bonus: int | None = None
    claimed_total: int | None = None


@dataclass(frozen=True)
class SheetProblem:
    field: str
    box: str | None
    reason: str


@dataclass
class SheetReport:
    player: str
    problems: list[SheetProblem] = field(default_factory=list)
    upper_subtotal: int = 0
    upper_bonus: int = 0
    extra_bonus: int = 0
    total: int = 0
    complete: bool = False
    rank: int = 0


def check_sheet(ruleset: Ruleset, sheet: Sheet, where: str) -> SheetReport:
    table = points_table(ruleset)
    report = SheetReport(player=sheet.player)
    boxes: dict[str, int] = {}
    earned_extra = 0
    dice_known = True

    def problem(path: str, box: str | None, reason: str) -> None:
        report.problems.append(SheetProblem(path, box, reason))

    for n, entry in enumerate(sheet.entries):
        path = f"{where}.entries[{n}]"
        if entry.box not in ruleset.box_index:
            problem(f"{path}.box", entry.box, f"{ruleset.id} has no box '{entry.box}'")
            continue
        if entry.box in boxes:
            problem(f"{path}.box", entry.box, "box filled twice; only the first entry counts")
            continue
        if entry.points not in table.achievable[entry.box]:
            problem(
                f"{path}.points",
                entry.box,
                f"impossible value: no throw can score {entry.points} in '{entry.box}'",
            )
        if ruleset.series_order and entry.box in _lower_ids(ruleset):
            still_open = [u for u in _upper_ids(ruleset) if u not in boxes]
            if still_open:
                problem(
                    f"{path}.box",
                    entry.box,
                    f"order broken: the second series opens only when the first is "
                    f"complete ('{still_open[0]}' was still open)",
                )
        if ruleset.order is Order.FORCED:
            first_open = next(b for b in ruleset.box_ids if b not in boxes)
            if entry.box != first_open:
                problem(
                    f"{path}.box",
                    entry.box,
                    f"order broken: boxes are filled in scorecard order ('{first_open}' was "
                    "still open)",
                )
        if entry.dice is None:
            dice_known = False
        else:
            earned_extra += _check_dice(ruleset, boxes, entry, path, problem)
        boxes[entry.box] = entry.points

    report.upper_subtotal = upper_subtotal(ruleset, boxes)
    if upper_bonus_secured(ruleset, boxes):
        report.upper_bonus = ruleset.upper_bonus.points
    report.extra_bonus = sheet.extra_bonus
    try:
        validate_extra_bonus(ruleset, Scorecard(boxes, sheet.extra_bonus), where)
    except RuleViolation as exc:
        problem(exc.field, None, f"bonus claimed without a basis: {exc.reason}")
    if dice_known and sheet.extra_bonus != earned_extra:
        problem(
            f"{where}.extra_bonus",
            None,
            f"the dice given earn an extra bonus of {earned_extra}, "
            f"the sheet claims {sheet.extra_bonus}",
        )
    report.total = sum(boxes.values()) + report.upper_bonus + sheet.extra_bonus
    report.complete = is_complete(ruleset, boxes)
    if sheet.claimed_upper_bonus is not None and sheet.claimed_upper_bonus != report.upper_bonus:
        problem(
            f"{where}.claimed_upper_bonus",
            None,
            f"upper bonus claimed {sheet.claimed_upper_bonus}, the boxes give "
            f"{report.upper_bonus} (upper subtotal {report.upper_subtotal})",
        )
    if sheet.claimed_total is not None and sheet.claimed_total != report.total:
        problem(
            f"{where}.claimed_total",
            None,
            f"total claimed {sheet.claimed_total}, the sheet adds up to {report.total}",
        )
    return report


def _check_dice(
    ruleset: Ruleset,
    boxes: dict[str, int],
    entry: Entry,
    path: str,
    problem: Callable[[str, str | None, str], None],
) -> int:
    """Check one entry against its dice; returns the extra bonus that placement earned."""
    dice = entry.dice
    assert dice is not None
    if len(dice) != DICE_PER_THROW or any(d not in FACES for d in dice):
        problem(f"{path}.dice", entry.box, "five dice showing 1 to 6 are needed")
        return 0
    throw = ruleset.throws_per_turn if entry.throw is None else entry.throw
    if throw > ruleset.throws_per_turn:
        problem(
            f"{path}.throw",
            entry.box,
            f"{ruleset.id} allows {ruleset.throws_per_turn} throw(s) a turn, not a throw {throw}",
        )
        return 0
    options = legal_options(ruleset, Scorecard(dict(boxes)), canonical(dice), throw)
    legal = {o.box: o for o in options}
    option = legal.get(entry.box)
    if option is None:
        allowed = ", ".join(sorted(legal)) or "none"
        problem(
            f"{path}.box",
            entry.box,
            f"these dice may not go in '{entry.box}' now (allowed: {allowed})",
        )
        return 0
    if option.points != entry.points:
        problem(
            f"{path}.points",
            entry.box,
            f"points do not match the dice: {list(dice)} on throw {throw} score "
            f"{option.points} in '{entry.box}', the sheet says {entry.points}",
        )
    return extra_bonus_for(ruleset, boxes, dice)


def _upper_ids(ruleset: Ruleset) -> list[str]:
    return [ruleset.boxes[i].id for i in ruleset.upper_indices]


def _lower_ids(ruleset: Ruleset) -> list[str]:
    return [ruleset.boxes[i].id for i in ruleset.lower_indices]


def rank(reports: list[SheetReport]) -> list[SheetReport]:
    """Highest total first; equal totals share a rank (1, 2, 2, 4)."""
    ordered = competition_ranking(reports, lambda r: r.total)
    for rank_, r in ordered:
        r.rank = rank_
    return [r for _, r in ordered]
