"""Refereeing one Yardkle turn: replay its throws and set-asides, then settle the points.

The first broken rule stops the replay with a `RuleViolation` whose field points at the throw
(`throws[2].set_aside`) and whose reason names the throw by its dice and the rule, because a
turn record is one story: after an illegal step nothing later in it can be judged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from diceref.core.dice import canonical, more_than_shown
from diceref.core.errors import RuleViolation
from diceref.games.yardkle.rules.scoring import (
    DEFAULT_RULES,
    Part,
    YardkleRules,
    missing_dice,
    set_asides,
    validate_throw,
    valuation,
)


class TurnEnd(StrEnum):
    BANK = "bank"
    YARDKLE = "yardkle"


@dataclass(frozen=True)
class ThrowRecord:
    dice: tuple[int, ...]
    set_aside: tuple[int, ...] = ()


@dataclass(frozen=True)
class ThrowResult:
    dice: tuple[int, ...]
    set_aside: tuple[int, ...]
    points: int
    parts: tuple[Part, ...]
    running_total: int  # turn points after this throw's set-aside
    dice_left: int  # dice the next throw would use (all of them again after hot dice)
    hot_dice: bool
    yardkle: bool


@dataclass(frozen=True)
class EntryRule:
    applied: bool  # the player was not on the pad, so the turn needed the threshold
    threshold: int
    met: bool  # the turn banked at least the threshold (always true when not applied)


@dataclass(frozen=True)
class TurnResult:
    end: TurnEnd
    throws: tuple[ThrowResult, ...]
    turn_points: int  # running total when the turn ended (lost on a Yardkle)
    points: int  # what the turn adds to the player's total
    banked_total: int
    new_total: int
    entry_rule: EntryRule

    @property
    def on_pad(self) -> bool:
        return self.new_total > 0 or self.entry_rule.threshold == 0


def validate_banked_total(total: int, where: str, rules: YardkleRules = DEFAULT_RULES) -> None:
    """A total no sequence of turns can produce is refused before any throw is judged."""
    if total < 0:
        raise RuleViolation(
            where, f"a banked total cannot be negative, got {total}", "impossible_total"
        )
    if total % rules.unit:
        raise RuleViolation(
            where, f"every score is a multiple of {rules.unit}, got {total}", "impossible_total"
        )
    if 0 < total < rules.entry_minimum:
        raise RuleViolation(
            where,
            f"{total} is below the entry minimum {rules.entry_minimum}: the first score "
            "banked is at least that much",
            "impossible_total",
        )


def validate_turn_state(
    dice: Sequence[int], turn_points: int, rules: YardkleRules = DEFAULT_RULES
) -> None:
    """A throw in the middle of a turn: its size must fit the points set aside before it."""
    validate_throw(dice, "dice", rules)
    if turn_points < 0 or turn_points % rules.unit:
        raise RuleViolation(
            "turn_points",
            f"every score is a non-negative multiple of {rules.unit}",
            "impossible_turn_points",
        )
    if len(dice) < rules.dice and turn_points == 0:
        raise RuleViolation(
            "turn_points",
            f"{len(dice)} dice are thrown only after dice were set aside this turn, and every "
            "set-aside scores: turn points cannot be 0",
            "impossible_turn_points",
        )


def _dice_text(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def adjudicate_turn(
    throws: Sequence[ThrowRecord],
    end: TurnEnd,
    banked_total: int,
    rules: YardkleRules = DEFAULT_RULES,
    where: str = "",
) -> TurnResult:
    """Replay a turn; raise at the first throw that breaks a rule, else settle the points."""
    at = f"{where}." if where else ""
    validate_banked_total(banked_total, f"{at}banked_total", rules)
    on_pad = banked_total > 0 or rules.entry_minimum == 0
    if not throws:
        raise RuleViolation(f"{at}throws", "a turn has at least one throw", "no_throw")
    results: list[ThrowResult] = []
    running = 0
    dice_left = rules.dice
    for i, record in enumerate(throws):
        path = f"{at}throws[{i}]"
        name = f"throw {i + 1} ({_dice_text(record.dice)})"
        validate_throw(record.dice, f"{path}.dice", rules)
        if len(record.dice) != dice_left:
            raise RuleViolation(
                f"{path}.dice",
                f"throw {i + 1} must throw the {dice_left} dice left, got {len(record.dice)}",
                "wrong_dice_count",
            )
        options = set_asides(record.dice, rules)
        if not options:
            _check_yardkle(throws, end, i, name, path, at)
            results.append(ThrowResult(canonical(record.dice), (), 0, (), running, 0, False, True))
            return _settle(results, TurnEnd.YARDKLE, running, 0, banked_total, on_pad, rules)
        result = _judge_set_aside(record, name, path, running, dice_left, rules, options[0].dice)
        results.append(result)
        running, dice_left = result.running_total, result.dice_left
    if end is TurnEnd.YARDKLE:
        last = len(throws) - 1
        raise RuleViolation(
            f"{at}end",
            f"throw {last + 1} ({_dice_text(throws[last].dice)}) scores, so the turn cannot "
            "end in a Yardkle: a Yardkle is a throw from which nothing can be set aside",
            "not_a_yardkle",
        )
    if results[-1].hot_dice and not rules.hot_dice_optional:
        last = len(throws) - 1
        raise RuleViolation(
            f"{at}end",
            f"throw {last + 1} ({_dice_text(throws[last].dice)}) sets aside every die (hot "
            f"dice): with hot dice forced (hot_dice_optional false) the player must throw all "
            f"{rules.dice} again, so the turn cannot be banked there",
            "banked_hot_dice",
        )
    if not on_pad and running < rules.entry_minimum:
        raise RuleViolation(
            f"{at}end",
            f"banking {running} after throw {len(throws)} before getting on the pad: the "
            f"first score must be at least {rules.entry_minimum} in one turn (entry rule); "
            "keep throwing",
            "entry_minimum",
        )
    return _settle(results, TurnEnd.BANK, running, running, banked_total, on_pad, rules)


def _check_yardkle(
    throws: Sequence[ThrowRecord], end: TurnEnd, i: int, name: str, path: str, at: str
) -> None:
    """A throw with nothing to set aside must be the turn's last, empty-handed, and declared."""
    if throws[i].set_aside:
        raise RuleViolation(
            f"{path}.set_aside",
            f"{name} is a Yardkle: nothing in it scores, so nothing can be set aside",
            "set_aside_after_yardkle",
        )
    if i + 1 < len(throws):
        raise RuleViolation(
            f"{at}throws[{i + 1}]",
            f"throwing again after the Yardkle on {name}: a Yardkle ends the turn",
            "throw_after_yardkle",
        )
    if end is not TurnEnd.YARDKLE:
        raise RuleViolation(
            f"{at}end",
            f"{name} is a Yardkle: the turn ends there and its points are lost, it cannot be "
            "banked",
            "banked_yardkle",
        )


def _judge_set_aside(
    record: ThrowRecord,
    name: str,
    path: str,
    running: int,
    dice_left: int,
    rules: YardkleRules,
    best: tuple[int, ...],
) -> ThrowResult:
    kept = record.set_aside
    where = f"{path}.set_aside"
    if not kept:
        raise RuleViolation(
            where,
            f"nothing set aside after {name}: at least one scoring die must be set aside after "
            f"each throw (e.g. {_dice_text(best)})",
            "nothing_set_aside",
        )
    if missing_dice(record.dice, kept):
        raise RuleViolation(
            where,
            f"{name}: {more_than_shown(record.dice, kept, 'set aside', 'thrown')}: only dice "
            "of this throw can be set aside",
            "dice_not_thrown",
        )
    scored = valuation(kept, rules)
    if scored is None:
        raise RuleViolation(
            where,
            f"{name}: {_dice_text(canonical(kept))} does not score completely: every die set "
            "aside must belong to a scoring combination of this throw",
            "set_aside_not_scoring",
        )
    left = dice_left - len(kept)
    hot = left == 0
    return ThrowResult(
        dice=canonical(record.dice),
        set_aside=scored.dice,
        points=scored.points,
        parts=scored.parts,
        running_total=running + scored.points,
        dice_left=rules.dice if hot else left,
        hot_dice=hot,
        yardkle=False,
    )


def _settle(
    results: list[ThrowResult],
    end: TurnEnd,
    running: int,
    points: int,
    banked_total: int,
    on_pad: bool,
    rules: YardkleRules,
) -> TurnResult:
    applied = not on_pad
    return TurnResult(
        end=end,
        throws=tuple(results),
        turn_points=running,
        points=points,
        banked_total=banked_total,
        new_total=banked_total + points,
        entry_rule=EntryRule(
            applied=applied,
            threshold=rules.entry_minimum,
            met=not applied or points >= rules.entry_minimum,
        ),
    )
