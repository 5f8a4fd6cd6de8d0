"""Chicago described once: values, lives, the 6 -> 1 conversions and every reading.

The referee, the coach and `GET /games/chicago` all read the one `ChicagoRules` object, so
a reading changed in the builder changes the rulings, the advice and what clients are told
together.  Readings that can take another value are fields the logic branches on; readings
the service supports in one way only are still reported as parameters, so a frontend can
show them, and the builder refuses what it cannot honour.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from diceref.core.dice import Dice, canonical
from diceref.core.game import GameInfo, Parameter, RuleParameterError

CHICAGO_DICE = 3
CHICAGO_THROWS = 3
CHICAGO_THROW: Dice = (1, 1, 1)
ONE_SIX_FIVE: Dice = (1, 5, 6)
# A strength above every score: what a 1-6-5 is worth when it cannot be the worst.
UNBEATABLE = 10_000


class Call(StrEnum):
    HIGH = "high"
    LOW = "low"


class Special(StrEnum):
    CHICAGO = "chicago"  # 1-1-1
    ONE_SIX_FIVE = "one_six_five"


class Conversion(StrEnum):
    TWO_SIXES = "two_sixes"  # one 6 becomes a 1 (set aside), the other 6 is thrown again
    THREE_SIXES = "three_sixes"  # two 6s become 1s (set aside), the third is thrown again


class Obligation(StrEnum):
    MAY = "may"
    MUST = "must"


class TieLoser(StrEnum):
    """Who loses a tie for the worst score."""

    LATER = "later"  # the player who threw it later: equal is not enough
    EARLIER = "earlier"


# How many sixes each conversion needs, and how many of them become set-aside 1s.
CONVERSION_SIXES: dict[Conversion, int] = {Conversion.TWO_SIXES: 2, Conversion.THREE_SIXES: 3}
CONVERSION_ONES: dict[Conversion, int] = {Conversion.TWO_SIXES: 1, Conversion.THREE_SIXES: 2}


def special(dice: Dice) -> Special | None:
    d = canonical(dice)
    if d == CHICAGO_THROW:
        return Special.CHICAGO
    if d == ONE_SIX_FIVE:
        return Special.ONE_SIX_FIVE
    return None


@dataclass(frozen=True)
class ChicagoRules(GameInfo):
    """Chicago's rules as data; `GameInfo.dice` and `throws_per_turn` are its 3 and 3."""

    lives_table: tuple[int, ...] = (4, 3, 3, 3, 2)  # lives for min_players .. max_players
    high_values: tuple[int, ...] = (100, 2, 3, 4, 5, 60)  # faces 1..6
    low_values: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    two_sixes: Obligation = Obligation.MAY
    three_sixes: Obligation = Obligation.MUST
    worst_tie_loser: TieLoser = TieLoser.LATER
    one_six_five_scores: bool = True  # False: a 1-6-5 can never be the worst score
    one_six_five_round_goes_on: bool = True  # False: a 1-6-5 ends the round, as a Chicago

    def __post_init__(self) -> None:
        if self.max_players is None:
            raise ValueError("Chicago needs a largest table size for its lives table")
        if len(self.lives_table) != self.max_players - self.min_players + 1:
            raise ValueError("the lives table needs one entry per player count")

    def lives_for(self, players: int) -> int:
        """Lives each player starts with; `players` is the count at the start of the game."""
        return self.lives_table[players - self.min_players]

    def value(self, dice: Dice, call: Call) -> int:
        table = self.high_values if call is Call.HIGH else self.low_values
        return sum(table[d - 1] for d in dice)

    def signed_value(self, dice: Dice, call: Call) -> int:
        """The score turned so that larger is always better (low scores are negated)."""
        v = self.value(dice, call)
        return v if call is Call.HIGH else -v

    def strength(self, dice: Dice, call: Call) -> int:
        """What the worst-score rule compares: larger is better, equal is a tie."""
        if not self.one_six_five_scores and special(dice) is Special.ONE_SIX_FIVE:
            return UNBEATABLE
        return self.signed_value(dice, call)

    def target_strength(self, score: int, call: Call) -> int:
        """A plain score to beat, on the `strength` scale."""
        return score if call is Call.HIGH else -score

    def conversion(self, dice: Dice) -> tuple[Conversion, Obligation] | None:
        """The conversion the dice as they lie allow (held sixes count), and whether it is
        forced; `None` without two sixes.  Whether a throw is left is the caller's part."""
        sixes = Counter(dice)[6]
        if sixes == 3:
            return Conversion.THREE_SIXES, self.three_sixes
        if sixes == 2:
            return Conversion.TWO_SIXES, self.two_sixes
        return None


# Bounds of a house rule's numbers: lives per player, and a face's value (three dice score
# at most 3 x 300, inside a request's score range of 0..1000).
MAX_LIVES = 20
MAX_FACE_VALUE = 300
LIVES_TABLE = (4, 3, 3, 3, 2)
HIGH_VALUES = (100, 2, 3, 4, 5, 60)
LOW_VALUES = (1, 2, 3, 4, 5, 6)

# Readings the referee and the coach implement one way only: reported (and accepted with
# this value) so a frontend can show them; another value is refused by name, never ignored.
FIXED_READINGS: dict[str, tuple[bool | str, str]] = {
    "throw_limit": (
        "starter",
        "The starter throws 1 to 3 times; no later player may throw more often.",
    ),
    "sixes_counted_as_they_lie": (
        True,
        "Two or three 6s are counted on the dice as they lie after a throw, kept sixes "
        "included (the text says 'rolls two 6s' and does not single out the dice just "
        "thrown).",
    ),
    "chicago_ends_round": (
        True,
        "1-1-1 costs every opponent a life and ends the round at once: the thrower's turn "
        "ends, nobody else throws, no worst score is ruled.",
    ),
    "next_starter_after_chicago": (
        "lot",
        "After a Chicago (or a 1-6-5 that ends the round) the next starter is drawn by lot: "
        "the ruling names none.",
    ),
    "starter_chicago_call": (
        "none",
        "A starter who throws 1-1-1 makes no call: the round ends before a call is due, and "
        "a call recorded with it is rejected.",
    ),
    "one_six_five_victim": (
        "roller_choice",
        "The roller of a 1-6-5 names one opponent still in the game, who loses a life.",
    ),
    "specials_on_final_dice": (
        True,
        "A 1-6-5 counts only when it is the dice the player stands on: throwing on gives it "
        "up (otherwise it would be a free life with a rethrow to follow).",
    ),
    "knockout": (
        "immediate",
        "A life is taken when its event happens; a player at 0 is out at once: no further "
        "throws, no part in the worst score, and the game ends as soon as one player has "
        "lives left.",
    ),
    "next_starter_when_worst_out": (
        "next_in_turn",
        "The worst score starts the next round; if that life was the last, the next player "
        "still in after them in turn order starts.",
    ),
    "seating_fixed": (
        True,
        "In a game, every round goes round the table in the first round's order, from its "
        "starter, skipping players who are out.",
    ),
}
# Of those, the ones the text states (the others are readings of a silent or unclear text).
STATED = frozenset(
    ("throw_limit", "chicago_ends_round", "next_starter_after_chicago", "one_six_five_victim")
)
OBLIGATIONS = tuple(o.value for o in Obligation)


def _fixed(name: str) -> Parameter:
    value, text = FIXED_READINGS[name]
    choices = (value,) if isinstance(value, str) else ()
    return Parameter(name, value, text, reading=name not in STATED, choices=choices)


def chicago(
    *,
    lives_by_players: tuple[int, ...] = LIVES_TABLE,
    high_values: tuple[int, ...] = HIGH_VALUES,
    low_values: tuple[int, ...] = LOW_VALUES,
    two_sixes_conversion: str = Obligation.MAY,
    three_sixes_conversion: str = Obligation.MUST,
    one_six_five_round_goes_on: bool = True,
    one_six_five_scores: bool = True,
    worst_tie_loser: str = TieLoser.LATER,
    **readings: bool | str,
) -> ChicagoRules:
    """Chicago under the given readings (the built-in game with none).  Every parameter it
    reports is a keyword here, by the same name, so a request's checked `rules` build it;
    a reading the service implements one way only accepts only that value."""
    for name, given in readings.items():
        if name not in FIXED_READINGS:
            raise TypeError(f"chicago() has no parameter {name!r}")
        fixed = FIXED_READINGS[name][0]
        if given != fixed:
            raise RuleParameterError(
                name,
                f"the service referees and coaches Chicago only with {name} = {json.dumps(fixed)}",
                "invalid_rule",
            )
    two_sixes = Obligation(two_sixes_conversion)
    three_sixes = Obligation(three_sixes_conversion)
    tie_loser = TieLoser(worst_tie_loser)
    lives_table = tuple(lives_by_players)
    players = (
        "4/3/2 lives for 2/3-5/6 players"
        if lives_table == LIVES_TABLE
        else ("lives for 2 to 6 players: " + "/".join(str(n) for n in lives_table))
    )
    return ChicagoRules(
        id="chicago",
        name="Chicago",
        family="chicago",
        dice=CHICAGO_DICE,
        throws_per_turn=CHICAGO_THROWS,
        min_players=2,
        max_players=6,
        source="Chicago: Instructions, rulebook (English)",
        summary="Three dice, up to three throws, the starter sets the throw limit and calls "
        f"high (1 = {high_values[0]}, 6 = {high_values[5]}) or low (1 = {low_values[0]}, "
        f"6 = {low_values[5]}); the worst score loses a life and starts the next round; "
        "1-1-1 (Chicago) costs every opponent a life and ends the round; 1-6-5 costs an "
        "opponent of the roller's choice a life"
        + ("" if one_six_five_round_goes_on else " and ends the round")
        + f"; two 6s {two_sixes.value}, three 6s {three_sixes.value} become 1s with a throw "
        f"left; {players}.",
        lives_table=lives_table,
        high_values=tuple(high_values),
        low_values=tuple(low_values),
        two_sixes=two_sixes,
        three_sixes=three_sixes,
        worst_tie_loser=tie_loser,
        one_six_five_scores=one_six_five_scores,
        one_six_five_round_goes_on=one_six_five_round_goes_on,
        parameters=(
            Parameter(
                "lives_by_players",
                lives_table,
                "Lives each player starts with for 2, 3, 4, 5 and 6 players (the game's "
                "player count at the start). Out at 0 lives; the last player with lives wins.",
                minimum=1,
                maximum=MAX_LIVES,
                length=len(LIVES_TABLE),
            ),
            Parameter(
                "high_values",
                tuple(high_values),
                "Faces 1..6 under 'high'.",
                minimum=0,
                maximum=MAX_FACE_VALUE,
                length=6,
            ),
            Parameter(
                "low_values",
                tuple(low_values),
                "Faces 1..6 under 'low'.",
                minimum=0,
                maximum=MAX_FACE_VALUE,
                length=6,
            ),
            _fixed("throw_limit"),
            Parameter(
                "two_sixes_conversion",
                two_sixes.value,
                "Two 6s with a throw left: one may (or must) become a 1, set aside for the "
                "rest of the turn; the other 6 goes back into the shaker; the third die may "
                "be kept.",
                choices=OBLIGATIONS,
            ),
            Parameter(
                "three_sixes_conversion",
                three_sixes.value,
                "Three 6s with a throw left: two must (or may) become 1s, set aside; the "
                "third is thrown again. Under 'must', standing on 6-6-6 with a throw left "
                "is illegal.",
                choices=OBLIGATIONS,
            ),
            _fixed("sixes_counted_as_they_lie"),
            _fixed("chicago_ends_round"),
            _fixed("next_starter_after_chicago"),
            _fixed("starter_chicago_call"),
            _fixed("one_six_five_victim"),
            Parameter(
                "one_six_five_round_goes_on",
                one_six_five_round_goes_on,
                "After a 1-6-5 the round goes on (only Chicago is said to end it). False: a "
                "1-6-5 ends the round as a Chicago does (nobody else throws, no worst score, "
                "the next starter drawn by lot).",
                reading=True,
            ),
            _fixed("specials_on_final_dice"),
            Parameter(
                "one_six_five_scores",
                one_six_five_scores,
                "A 1-6-5 the player stands on is also a score (165 high, 12 low) for the "
                "worst-score rule: the text gives it one effect, the opponent's life, and no "
                "protection. False: a 1-6-5 is never the worst score.",
                reading=True,
            ),
            Parameter(
                "worst_tie_loser",
                tie_loser.value,
                "Who loses a tie for the worst score: 'later', the player who threw it later "
                "(equal is not enough, a later player must be strictly better: strictly "
                "higher on high, strictly lower on low), or 'earlier'.",
                reading=True,
                choices=tuple(t.value for t in TieLoser),
            ),
            _fixed("knockout"),
            _fixed("next_starter_when_worst_out"),
            _fixed("seating_fixed"),
        ),
    )


CHICAGO = chicago()
