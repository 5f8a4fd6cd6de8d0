"""Chicago described once: values, lives, the 6 -> 1 conversions and every reading.

The referee, the coach and `GET /games/chicago` all read the one `ChicagoRules` object, so
a reading changed in the builder changes the rulings, the advice and what clients are told
together.  Readings that can take another value are fields the logic branches on; readings
the service supports in one way only are still reported as parameters, so a frontend can
show them, and the builder refuses what it cannot honour.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from diceref.core.dice import Dice, canonical
from diceref.core.game import GameInfo, Parameter

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


def chicago(
    worst_tie_loser: TieLoser = TieLoser.LATER,
    one_six_five_scores: bool = True,
    two_sixes: Obligation = Obligation.MAY,
    three_sixes: Obligation = Obligation.MUST,
) -> ChicagoRules:
    lives_table = (4, 3, 3, 3, 2)
    high_values = (100, 2, 3, 4, 5, 60)
    low_values = (1, 2, 3, 4, 5, 6)
    return ChicagoRules(
        id="chicago",
        name="Chicago",
        family="chicago",
        dice=CHICAGO_DICE,
        throws_per_turn=CHICAGO_THROWS,
        min_players=2,
        max_players=6,
        source="rulebooks/001 (Chicago)",
        summary="Three dice, up to three throws, the starter sets the throw limit and calls "
        "high (1 = 100, 6 = 60) or low (1 = 1, 6 = 6); the worst score loses a life and "
        "starts the next round; 1-1-1 (Chicago) costs every opponent a life and ends the "
        "round; 1-6-5 costs an opponent of the roller's choice a life; two 6s may, three "
        "6s must become 1s with a throw left; 4/3/2 lives for 2/3-5/6 players.",
        lives_table=lives_table,
        high_values=high_values,
        low_values=low_values,
        two_sixes=two_sixes,
        three_sixes=three_sixes,
        worst_tie_loser=worst_tie_loser,
        one_six_five_scores=one_six_five_scores,
        parameters=(
            Parameter(
                "lives_by_players",
                lives_table,
                "Lives each player starts with for 2, 3, 4, 5 and 6 players (the game's "
                "player count at the start). Out at 0 lives; the last player with lives wins.",
            ),
            Parameter("high_values", high_values, "Faces 1..6 under 'high'."),
            Parameter("low_values", low_values, "Faces 1..6 under 'low'."),
            Parameter(
                "throw_limit",
                "starter",
                "The starter throws 1 to 3 times; no later player may throw more often.",
            ),
            Parameter(
                "two_sixes_conversion",
                two_sixes.value,
                "Two 6s with a throw left: one may become a 1, set aside for the rest of the "
                "turn; the other 6 goes back into the shaker; the third die may be kept.",
            ),
            Parameter(
                "three_sixes_conversion",
                three_sixes.value,
                "Three 6s with a throw left: two must become 1s, set aside; the third is "
                "thrown again. Standing on 6-6-6 with a throw left is illegal.",
            ),
            Parameter(
                "sixes_counted_as_they_lie",
                True,
                "Two or three 6s are counted on the dice as they lie after a throw, kept "
                "sixes included (the text says 'rolls two 6s' and does not single out the "
                "dice just thrown).",
                reading=True,
            ),
            Parameter(
                "chicago_ends_round",
                True,
                "1-1-1 costs every opponent a life and ends the round at once: the thrower's "
                "turn ends, nobody else throws, no worst score is ruled.",
            ),
            Parameter(
                "next_starter_after_chicago",
                "lot",
                "After a Chicago the next starter is drawn by lot: the ruling names none.",
            ),
            Parameter(
                "starter_chicago_call",
                "none",
                "A starter who throws 1-1-1 makes no call: the round ends before a call is "
                "due, and a call recorded with it is rejected.",
                reading=True,
            ),
            Parameter(
                "one_six_five_victim",
                "roller_choice",
                "The roller of a 1-6-5 names one opponent still in the game, who loses a life.",
            ),
            Parameter(
                "one_six_five_round_goes_on",
                True,
                "After a 1-6-5 the round goes on (only Chicago is said to end it).",
                reading=True,
            ),
            Parameter(
                "specials_on_final_dice",
                True,
                "A 1-6-5 counts only when it is the dice the player stands on: throwing on "
                "gives it up (otherwise it would be a free life with a rethrow to follow).",
                reading=True,
            ),
            Parameter(
                "one_six_five_scores",
                one_six_five_scores,
                "A 1-6-5 the player stands on is also a score (165 high, 12 low) for the "
                "worst-score rule: the text gives it one effect, the opponent's life, and no "
                "protection.",
                reading=True,
            ),
            Parameter(
                "worst_tie_loser",
                worst_tie_loser.value,
                "A tie for the worst score goes against the player who threw it later: "
                "equal is not enough, a later player must be strictly better (strictly "
                "higher on high, strictly lower on low).",
                reading=True,
            ),
            Parameter(
                "knockout",
                "immediate",
                "A life is taken when its event happens; a player at 0 is out at once: no "
                "further throws, no part in the worst score, and the game ends as soon as "
                "one player has lives left.",
                reading=True,
            ),
            Parameter(
                "next_starter_when_worst_out",
                "next_in_turn",
                "The worst score starts the next round; if that life was the last, the next "
                "player still in after them in turn order starts.",
                reading=True,
            ),
            Parameter(
                "seating_fixed",
                True,
                "In a game, every round goes round the table in the first round's order, "
                "from its starter, skipping players who are out.",
                reading=True,
            ),
        ),
    )


CHICAGO = chicago()
