"""What a Chicago player may do between throws: stand, keep some dice, or convert sixes.

The referee checks one recorded move and the coach enumerates them all; both go through
this module, so the coach never advises a move the referee would reject.  A move is named by
the dice that stay on the table (set-aside 1s included), which is what the next throw must
still show.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from diceref.core.dice import Dice, canonical, more_than_shown, sub_multisets
from diceref.core.errors import RuleViolation
from diceref.games.chicago.rules.ruleset import (
    CHICAGO_DICE,
    CONVERSION_ONES,
    CONVERSION_SIXES,
    ChicagoRules,
    Conversion,
    Obligation,
    Special,
    special,
)


@dataclass(frozen=True)
class Move:
    kept: Dice  # dice that stay on the table, set-aside 1s included; all three: stand
    aside: int  # 1s set aside (never thrown again this turn) after the move
    conversion: Conversion | None = None

    @property
    def rethrow(self) -> int:
        return CHICAGO_DICE - len(self.kept)


def stand(dice: Dice, aside: int) -> Move:
    return Move(canonical(dice), aside)


def converted(dice: Dice, conversion: Conversion) -> Dice:
    """The dice with the conversion's sixes turned into 1s."""
    ones = CONVERSION_ONES[conversion]
    out = list(canonical(dice))
    for i in range(len(out) - 1, len(out) - 1 - ones, -1):  # sixes sort last
        out[i] = 1
    return canonical(out)


def contains(dice: Dice, part: Dice) -> bool:
    """`part` is a sub-multiset of `dice`."""
    return not Counter(part) - Counter(dice)


def move_error(
    rules: ChicagoRules,
    dice: Dice,
    aside: int,
    throw_left: bool,
    conversion: Conversion | None,
    kept: Dice | None,
    held: Dice = (),
) -> tuple[str, str, str] | None:
    """Why a move is illegal, as (field, rule broken, its code), or None.

    The field is `conversion`, `kept`, or `next` (the next throw should not exist).  `kept`
    is None when the player stands (the record ends here); `held` is what stayed on the
    table from the previous throw (it matters when only the sixes just thrown count).
    Checked in the order a table would: the conversion first (it changes the dice), then
    what stays on the table.
    """
    dice = canonical(dice)
    allowed = rules.conversion(dice, held)
    if conversion is not None:
        if not throw_left:
            return (
                "conversion",
                "a conversion needs a throw left, and this is the last throw",
                "conversion_without_throw_left",
            )
        sixes = rules.sixes(dice, held)
        if allowed is None or allowed[0] is not conversion:
            shown = "the dice show" if rules.sixes_counted_as_they_lie else "the throw brought"
            return (
                "conversion",
                f"'{conversion.value}' needs {CONVERSION_SIXES[conversion]} sixes, {shown} {sixes}",
                "conversion_without_sixes",
            )
        if kept is None:
            return (
                "conversion",
                "a conversion sends a 6 back into the shaker, but no next throw is recorded",
                "conversion_without_rethrow",
            )
    elif allowed is not None and allowed[1] is Obligation.MUST and throw_left:
        n = CONVERSION_SIXES[allowed[0]]
        return (
            "conversion",
            f"{n} sixes with a throw left must be converted ('{allowed[0].value}'): "
            "the forced conversion was skipped",
            "conversion_skipped",
        )
    if kept is None:
        return None
    if not throw_left:
        return "next", "no throw is left", "throws_exceeded"
    if rules.ends_turn(dice):
        if special(dice) is Special.CHICAGO:
            return (
                "next",
                "1-1-1 (Chicago) ends the turn"
                + (" and the round" if rules.chicago_ends_round else "")
                + ": no further throw",
                "throw_after_chicago",
            )
        return (
            "next",
            "a 1-6-5 counts as it lies and ends the round: no further throw",
            "throw_after_round_end",
        )
    table = dice if conversion is None else converted(dice, conversion)
    ones_aside = aside + (0 if conversion is None else CONVERSION_ONES[conversion])
    kept = canonical(kept)
    if not contains(table, kept):
        on_table = more_than_shown(table, kept, "kept", "on the table")
        return "kept", f"kept {list(kept)} from {list(table)}: {on_table}", "kept_not_on_table"
    if Counter(kept)[1] < ones_aside:
        return (
            "kept",
            f"{ones_aside} set-aside 1(s) must stay out of the shaker",
            "set_aside_not_kept",
        )
    if conversion is not None and Counter(kept)[6] >= Counter(table)[6]:
        return (
            "kept",
            "after a conversion the remaining 6 goes back into the shaker",
            "six_kept_after_conversion",
        )
    if len(kept) >= CHICAGO_DICE:
        return (
            "kept",
            "a throw throws at least one die; to stand, end the record here",
            "nothing_thrown",
        )
    return None


def legal_moves(
    rules: ChicagoRules, dice: Dice, aside: int, throw_left: bool, held: Dice = ()
) -> list[Move]:
    """Every move allowed from these dice (`held`: those kept from the previous throw),
    standing first, then keeps by size and face."""
    dice = canonical(dice)
    if not throw_left or rules.ends_turn(dice):
        return [stand(dice, aside)]
    moves: list[Move] = []
    allowed = rules.conversion(dice, held)
    if allowed is None or allowed[1] is Obligation.MAY:
        moves.append(stand(dice, aside))
        moves.extend(
            Move(k, aside)
            for k in sub_multisets(dice)
            if len(k) < CHICAGO_DICE and Counter(k)[1] >= aside
        )
    if allowed is not None:
        conversion = allowed[0]
        table = converted(dice, conversion)
        ones_aside = aside + CONVERSION_ONES[conversion]
        free = list(table)
        free.remove(6)  # the 6 that goes back into the shaker
        moves.extend(
            Move(k, ones_aside, conversion)
            for k in sub_multisets(tuple(free))
            if Counter(k)[1] >= ones_aside
        )
    return moves


@dataclass(frozen=True)
class ConversionOffer:
    """A conversion the dice allow with a throw left, spelled out for a player."""

    conversion: Conversion
    required: bool
    ones_set_aside: int
    must_rethrow: Dice  # the 6 that goes back into the shaker
    may_keep: Dice  # the other dice, kept or thrown again at the player's choice


def conversion_offer(
    rules: ChicagoRules, dice: Dice, aside: int = 0, held: Dice = ()
) -> ConversionOffer | None:
    """The conversion the dice allow, for a turn with `aside` 1s already set aside by
    earlier conversions: those stay out of the shaker, so they are not among the dice the
    player may keep or throw (`may_keep`), and `ones_set_aside` counts them with the new.
    `held` (kept from the previous throw) matters when only the sixes just thrown count."""
    allowed = rules.conversion(canonical(dice), held)
    if allowed is None:
        return None
    conversion, obligation = allowed
    rest = list(canonical(dice))
    for _ in range(CONVERSION_SIXES[conversion]):
        rest.remove(6)
    for _ in range(aside):
        rest.remove(1)
    return ConversionOffer(
        conversion,
        obligation is Obligation.MUST,
        aside + CONVERSION_ONES[conversion],
        (6,),
        tuple(rest),
    )


def check_turn_so_far(dice: Dice, kept: Dice, aside: int, throw: int | None) -> None:
    """A throw in the middle of a turn: the dice kept from the previous throw are among
    the dice, and they include the 1s set aside by earlier conversions."""
    if throw == 1 and (kept or aside):
        field = "kept" if kept else "set_aside_count"
        raise RuleViolation(
            field,
            "throw 1 follows no throw of the turn: nothing can be kept or set aside yet",
            "kept_before_first_throw",
        )
    if not contains(canonical(dice), canonical(kept)):
        raise RuleViolation(
            "dice",
            f"{list(canonical(kept))} stayed on the table, but the dice show "
            f"{list(canonical(dice))}: kept dice cannot change",
            "kept_dice_changed",
        )
    if Counter(kept)[1] < aside:
        raise RuleViolation(
            "kept",
            f"{aside} 1(s) set aside by conversions stay on the table, so `kept` holds at "
            f"least {aside} 1(s), got {list(canonical(kept))}",
            "set_aside_not_kept",
        )


def throws_left_after(throw: int | None, throws_allowed: int) -> int | None:
    """Throws still allowed after throw number `throw` of `throws_allowed` (None when the
    throw number is not given); a throw past the limit cannot happen."""
    if throw is None:
        return None
    if throw > throws_allowed:
        raise RuleViolation(
            "throw", f"throw {throw} of {throws_allowed} allowed cannot happen", "throws_exceeded"
        )
    return throws_allowed - throw
