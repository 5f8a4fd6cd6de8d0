"""Replaying a scorecard game as it was played: every throw, every keep, every box.

A review (`POST /reviews`) values each decision of a game against the tables, so it must
first know that the record could have happened: the dice kept were in the throw and stayed
as they were in the next one, fewer than five were kept (keeping all five is standing),
the turn had no more throws than the game allows, and the box was open and legal for the
dice (Joker, series and forced order applied) on a card that was not full.  The first
broken rule stops the replay with a `RuleViolation` naming `turns[i].throws[j]`,
`turns[i].keeps[j]` or `turns[i].box`, because after an impossible step nothing later in
the record can be judged.  The placement is scored here, by the same `legal_options` that
`/score` uses, so a review never trusts points a client wrote down.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from diceref.core.dice import DICE_PER_THROW, Dice, canonical, more_than_shown
from diceref.core.errors import RuleViolation
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import (
    Option,
    Scorecard,
    blocked_boxes,
    card_total,
    is_complete,
    legal_options,
    validate_dice,
)


@dataclass(frozen=True)
class TurnRecord:
    """A turn as played: the five dice after each throw (kept dice included), the dice
    kept before each throw but the first, and the box filled at the end."""

    throws: tuple[Dice, ...]
    keeps: tuple[Dice, ...]
    box: str


@dataclass(frozen=True)
class ReplayedTurn:
    """A legal turn: the card it started from, its record (dice in canonical order), the
    placement it ended with, and the card after it."""

    before: Scorecard
    record: TurnRecord
    placement: Option
    after: Scorecard

    @property
    def points(self) -> int:
        """What the turn added to the card: the box's points and every bonus it earned."""
        return self.placement.points + self.placement.bonus


def _text(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def _check_keep(ruleset: Ruleset, record: TurnRecord, at: str, j: int) -> None:
    """The keep after throw j+1 was in that throw, is not all five dice, and lies unchanged
    in throw j+2."""
    keep, thrown, following = record.keeps[j], record.throws[j], record.throws[j + 1]
    if Counter(keep) - Counter(thrown):
        raise RuleViolation(
            f"{at}.keeps[{j}]",
            f"kept {_text(canonical(keep))} after throw {j + 1} ({_text(thrown)}): "
            f"{more_than_shown(thrown, keep, 'kept', 'thrown')}",
            "kept_not_thrown",
        )
    if len(keep) == DICE_PER_THROW:
        raise RuleViolation(
            f"{at}.keeps[{j}]",
            f"all five dice kept after throw {j + 1}: a throw throws at least one die (to "
            "stand, end the turn there and fill a box)",
            "kept_all_dice",
        )
    changed = Counter(keep) - Counter(following)
    if changed:
        raise RuleViolation(
            f"{at}.throws[{j + 1}]",
            f"throw {j + 2} ({_text(following)}) lacks the kept "
            f"{_text(sorted(changed.elements()))}: kept dice are not thrown again",
            "kept_die_changed",
        )


def _placement(ruleset: Ruleset, card: Scorecard, record: TurnRecord, at: str) -> Option:
    """The legal option of the turn's last throw for the box named, or why there is none."""
    box, dice, throw = record.box, record.throws[-1], len(record.throws)
    options = legal_options(ruleset, card, dice, throw)
    for option in options:
        if option.box == box:
            return option
    where = f"{at}.box"
    if box not in ruleset.box_index:
        raise RuleViolation(where, f"{ruleset.id} has no box '{box}'", "unknown_box")
    if box in card.boxes:
        raise RuleViolation(
            where,
            f"'{box}' is already filled (with {card.boxes[box]}): each box is filled once",
            "box_filled",
        )
    blocked = next(b for b in blocked_boxes(ruleset, card, options) if b.box == box)
    raise RuleViolation(
        where, f"'{box}' may not take {_text(dice)} now: {blocked.reason}", blocked.code.value
    )


def replay_turn(ruleset: Ruleset, card: Scorecard, record: TurnRecord, at: str) -> ReplayedTurn:
    """One turn from `card`: checked throw by throw, then placed and scored."""
    if is_complete(ruleset, card.boxes):
        raise RuleViolation(
            at, "the scorecard is already full: a game has no turn after its last box", "card_full"
        )
    n = len(record.throws)
    if n == 0:
        raise RuleViolation(f"{at}.throws", "a turn has at least one throw", "too_few")
    if n > ruleset.throws_per_turn:
        raise RuleViolation(
            f"{at}.throws[{ruleset.throws_per_turn}]",
            f"{ruleset.id} allows {ruleset.throws_per_turn} throw(s) a turn, this turn has {n}",
            "throws_exceeded",
        )
    for j, dice in enumerate(record.throws):
        validate_dice(dice, f"{at}.throws[{j}]")
    if len(record.keeps) != n - 1:
        raise RuleViolation(
            f"{at}.keeps",
            f"one keep per throw but the last: {n} throw(s) take {n - 1} keep(s), "
            f"got {len(record.keeps)}",
            "keeps_mismatch",
        )
    for j in range(n - 1):
        _check_keep(ruleset, record, at, j)
    record = TurnRecord(
        tuple(canonical(t) for t in record.throws),
        tuple(canonical(k) for k in record.keeps),
        record.box,
    )
    option = _placement(ruleset, card, record, at)
    after = Scorecard(
        {**card.boxes, option.box: option.points}, card.extra_bonus + option.extra_bonus
    )
    return ReplayedTurn(card, record, option, after)


def replay_game(
    ruleset: Ruleset, turns: Sequence[TurnRecord], where: str = "turns"
) -> list[ReplayedTurn]:
    """Every turn from the empty card, in order; raises at the first impossible step."""
    card = Scorecard()
    played: list[ReplayedTurn] = []
    for i, record in enumerate(turns):
        turn = replay_turn(ruleset, card, record, f"{where}[{i}]")
        played.append(turn)
        card = turn.after
    return played


def final_total(ruleset: Ruleset, played: Sequence[ReplayedTurn]) -> int:
    """The card's total after the turns (0 before any)."""
    return card_total(ruleset, played[-1].after) if played else 0
