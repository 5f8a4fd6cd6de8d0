"""A player's scorecard under a ruleset: what it is worth and where the next throw may go.

Pure functions over plain data.  Validation raises `RuleViolation`, which names the field
and the reason; the API turns it into problem+json, the score-sheet checker into a list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from diceref.core.dice import DICE_PER_THROW, FACES, throw_index, wrong_dice_count
from diceref.core.errors import RuleViolation
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Joker, Order, Ruleset

__all__ = ["RuleViolation"]


@dataclass(frozen=True)
class Scorecard:
    boxes: Mapping[str, int] = field(default_factory=dict)
    extra_bonus: int = 0


class Option(NamedTuple):
    """A legal placement (a named tuple: scoring builds a dozen per request).  `bonus` is
    what the placement earns in all: the upper bonus it secures plus the extra
    five-of-a-kind bonus."""

    box: str
    points: int
    bonus: int
    upper_bonus: int = 0
    extra_bonus: int = 0


class BlockReason(StrEnum):
    """Why an open box may not take these dice now."""

    SERIES_ORDER = "series_order"  # the second series opens once the first is complete
    FORCED_ORDER = "forced_order"  # every box in scorecard order: only the first open one
    FORCED_JOKER = "forced_joker"  # a Joker must go to the matching upper box, or a lower one


class Blocked(NamedTuple):
    """An open box these dice may not fill now, and why."""

    box: str
    code: BlockReason
    reason: str


def validate_dice(dice: list[int] | tuple[int, ...], where: str = "dice") -> None:
    if len(dice) != DICE_PER_THROW:
        reason = wrong_dice_count(DICE_PER_THROW, DICE_PER_THROW, len(dice))
        raise RuleViolation(where, reason, "wrong_dice_count")
    for i, d in enumerate(dice):
        if d not in FACES:
            raise RuleViolation(f"{where}[{i}]", f"a die shows 1 to 6, got {d}", "not_a_die")


def upper_subtotal(ruleset: Ruleset, boxes: Mapping[str, int]) -> int:
    return sum(boxes.get(ruleset.boxes[i].id, 0) for i in ruleset.upper_indices)


def upper_bonus_secured(ruleset: Ruleset, boxes: Mapping[str, int]) -> bool:
    """The bonus counts as soon as no remaining upper box can take it away.

    For games whose upper boxes never score below 0 this is 'threshold reached'; for
    russian-poker, where boxes go negative, it settles when the series is complete (or the
    margin already covers every remaining box's worst case).
    """
    return ruleset.upper_bonus.reached(_worst_upper_total(ruleset, boxes))


def _worst_upper_total(ruleset: Ruleset, boxes: Mapping[str, int]) -> int:
    """Upper subtotal if every open upper box took its lowest possible value."""
    total = 0
    for box_id, least in points_table(ruleset).upper_floor:
        total += boxes.get(box_id, least)
    return total


def card_total(ruleset: Ruleset, card: Scorecard) -> int:
    bonus = ruleset.upper_bonus.points if upper_bonus_secured(ruleset, card.boxes) else 0
    return sum(card.boxes.values()) + bonus + card.extra_bonus


def is_complete(ruleset: Ruleset, boxes: Mapping[str, int]) -> bool:
    return len(boxes) >= len(ruleset.box_ids) and all(b in boxes for b in ruleset.box_ids)


def five_box_holds_top(ruleset: Ruleset, boxes: Mapping[str, int]) -> bool:
    rule = ruleset.five_of_a_kind
    return rule is not None and boxes.get(rule.box) == ruleset.five_box_top


def validate_scorecard(ruleset: Ruleset, card: Scorecard, where: str = "scorecard") -> None:
    """Reject a card no sequence of legal turns can produce (box by box, then bonuses)."""
    achievable = points_table(ruleset).achievable
    for box_id, points in card.boxes.items():
        allowed = achievable.get(box_id)
        if allowed is None:
            raise RuleViolation(
                f"{where}.filled.{box_id}", f"{ruleset.id} has no box '{box_id}'", "unknown_box"
            )
        if points not in allowed:
            raise RuleViolation(
                f"{where}.filled.{box_id}",
                f"no throw can score {points} in '{box_id}'",
                "impossible_points",
            )
    if ruleset.order is Order.FORCED:
        first_open = next((b for b in ruleset.box_ids if b not in card.boxes), None)
        later = [b for b in ruleset.box_ids if b in card.boxes]
        if (
            first_open is not None
            and later
            and ruleset.box_index[later[-1]] > ruleset.box_index[first_open]
        ):
            raise RuleViolation(
                f"{where}.filled.{later[-1]}",
                f"boxes are filled in scorecard order ('{first_open}' is still open)",
                "forced_order",
            )
    if ruleset.series_order:
        upper_open = [
            ruleset.boxes[i].id
            for i in ruleset.upper_indices
            if ruleset.boxes[i].id not in card.boxes
        ]
        lower_filled = [
            ruleset.boxes[i].id for i in ruleset.lower_indices if ruleset.boxes[i].id in card.boxes
        ]
        if upper_open and lower_filled:
            raise RuleViolation(
                f"{where}.filled.{lower_filled[0]}",
                f"the second series opens only when the first is complete "
                f"('{upper_open[0]}' is still open)",
                "series_order",
            )
    validate_extra_bonus(ruleset, card, where)


def open_card(ruleset: Ruleset, card: Scorecard, where: str = "scorecard") -> Scorecard:
    """`card`, validated, when it still has a box to fill (scoring or coaching a throw on a
    full card is a request no game can make)."""
    validate_scorecard(ruleset, card, where)
    if is_complete(ruleset, card.boxes):
        raise RuleViolation(
            f"{where}.filled", "the scorecard is full: no box left to fill", "card_full"
        )
    return card


def check_throw(ruleset: Ruleset, throw: int, field: str = "throw") -> None:
    """A throw number the game's turn has (a 4th throw only where `throws_per_turn` is 4)."""
    if throw > ruleset.throws_per_turn:
        raise RuleViolation(
            field,
            f"{ruleset.id} allows {ruleset.throws_per_turn} throw(s) a turn, not a throw {throw}",
            "throws_exceeded",
        )


def throw_of(ruleset: Ruleset, throws_left: int, throw: int | None) -> int:
    """The throw that produced dice with `throws_left` throws still allowed: it follows
    from `throws_left` while a throw is left; on the last throw a player who stood early
    (fewer throws) may name it.  A `throw` that contradicts `throws_left` is refused."""
    last = ruleset.throws_per_turn
    if throws_left > last - 1:
        raise RuleViolation(
            "throws_left",
            f"{ruleset.id} allows {last} throw(s) a turn, so at most {last - 1} can be left, "
            f"not {throws_left}",
            "throws_exceeded",
        )
    natural = last - throws_left
    if throw is None:
        return natural
    check_throw(ruleset, throw)
    if throws_left > 0 and throw != natural:
        raise RuleViolation(
            "throw",
            f"with {throws_left} throw(s) left the dice come from throw {natural}, not {throw}",
            "throw_mismatch",
        )
    return throw


def validate_extra_bonus(ruleset: Ruleset, card: Scorecard, where: str) -> None:
    path = f"{where}.extra_bonus"
    bonus = card.extra_bonus
    if bonus == 0:
        return
    rule = ruleset.five_of_a_kind
    if bonus < 0:
        raise RuleViolation(path, "an extra bonus cannot be negative", "impossible_bonus")
    if rule is None or rule.extra_bonus == 0:
        raise RuleViolation(
            path, f"{ruleset.id} has no extra five-of-a-kind bonus", "no_such_bonus"
        )
    if bonus % rule.extra_bonus:
        raise RuleViolation(path, f"must be a multiple of {rule.extra_bonus}", "impossible_bonus")
    if not five_box_holds_top(ruleset, card.boxes):
        raise RuleViolation(
            path,
            f"claimed without a basis: '{rule.box}' does not hold {ruleset.five_box_top}",
            "bonus_without_basis",
        )
    extras = bonus // rule.extra_bonus
    other_filled = sum(1 for b in card.boxes if b != rule.box)
    if extras > other_filled:
        raise RuleViolation(
            path,
            f"{extras} extra five-of-a-kind bonuses need {extras} boxes filled besides "
            f"'{rule.box}', the card has {other_filled}",
            "too_many_bonuses",
        )


def legal_options(
    ruleset: Ruleset, card: Scorecard, dice: list[int] | tuple[int, ...], throw: int = 3
) -> list[Option]:
    """Every box these dice may fill now, with points and the bonus the placement earns.

    Runs on every `POST /score`, so it reads the ruleset's precomputed Python lists rather
    than numpy arrays (a numpy scalar lookup costs more than the arithmetic here).
    """
    table = points_table(ruleset)
    t = throw_index(dice)
    boxes = card.boxes
    ids = ruleset.box_ids
    open_ids = [i for i, box_id in enumerate(ids) if box_id not in boxes]
    if ruleset.order is Order.SERIES:
        upper = ruleset.upper_set
        open_ids = [i for i in open_ids if i in upper] or open_ids
    elif ruleset.order is Order.FORCED:
        open_ids = open_ids[:1]  # the first open box in scorecard order, and only it
    rule = ruleset.five_of_a_kind
    face = table.five_face_of[t]  # 0 unless the dice are a five of a kind
    holds_top = rule is not None and boxes.get(rule.box) == ruleset.five_box_top
    if (
        face
        and rule is not None
        and rule.box in boxes
        and rule.joker is not Joker.NONE
        and (holds_top or rule.joker_when_scratched)
    ):
        placements = _joker_placements(ruleset, open_ids, t, face)
    else:
        column = table.by_throw[1 if throw == 1 else 0][t]
        placements = [(i, column[i]) for i in open_ids]
    extra = rule.extra_bonus if face and holds_top and rule is not None else 0
    worst = _worst_upper_total(ruleset, boxes)
    reached = ruleset.upper_bonus.reached
    if reached(worst):  # bonus already secured: no placement earns it
        return [Option(ids[i], points, extra, 0, extra) for i, points in placements]
    bonus = ruleset.upper_bonus.points
    upper_min = table.upper_min
    options = []
    for i, points in placements:
        earned = bonus if i in upper_min and reached(worst - upper_min[i] + points) else 0
        options.append(Option(ids[i], points, earned + extra, earned, extra))
    return options


def blocked_boxes(ruleset: Ruleset, card: Scorecard, options: list[Option]) -> list[Blocked]:
    """The open boxes that `options` (the legal placements of a throw) leave out, in
    scorecard order, each with the rule that closes it to these dice."""
    legal = {o.box for o in options}
    blocked = []
    first_open = next((b for b in ruleset.box_ids if b not in card.boxes), None)
    for box_id in ruleset.box_ids:
        if box_id in card.boxes or box_id in legal:
            continue
        if ruleset.order is Order.FORCED:
            blocked.append(
                Blocked(
                    box_id,
                    BlockReason.FORCED_ORDER,
                    f"boxes are filled in scorecard order: '{first_open}' comes first",
                )
            )
        elif ruleset.order is Order.SERIES and ruleset.box_index[box_id] not in ruleset.upper_set:
            blocked.append(
                Blocked(
                    box_id,
                    BlockReason.SERIES_ORDER,
                    "the second series opens once every box of the first is filled",
                )
            )
        else:
            blocked.append(
                Blocked(
                    box_id,
                    BlockReason.FORCED_JOKER,
                    "a further five of a kind must go where the Joker rule sends it",
                )
            )
    return blocked


def extra_bonus_for(
    ruleset: Ruleset, boxes: Mapping[str, int], dice: list[int] | tuple[int, ...]
) -> int:
    """The extra bonus a further five of a kind earns: its box must already hold 50."""
    rule = ruleset.five_of_a_kind
    if rule is None or len(set(dice)) != 1 or not five_box_holds_top(ruleset, boxes):
        return 0
    return rule.extra_bonus


def _joker_placements(
    ruleset: Ruleset, open_ids: list[int], t: int, face: int
) -> list[tuple[int, int]]:
    table = points_table(ruleset)
    rule = ruleset.five_of_a_kind
    assert rule is not None
    natural = table.by_throw[0][t]
    matching = ruleset.upper_box_of_face[face]
    if matching in open_ids:
        if rule.matching_upper_forced:
            return [(matching, natural[matching])]
        return [(i, natural[i]) for i in open_ids]  # natural values only
    joker = table.joker_by_throw[t]
    lower_set, upper_set = ruleset.lower_set, ruleset.upper_set
    lower = [(i, joker[i]) for i in open_ids if i in lower_set]
    upper = [(i, 0) for i in open_ids if i in upper_set]
    if rule.joker is Joker.FORCED:
        return lower or upper
    return sorted(upper + lower)
