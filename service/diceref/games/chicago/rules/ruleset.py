"""Chicago described once: values, lives, the 6 -> 1 conversions and every reading.

The referee, the coach and `GET /games/chicago` all read the one `ChicagoRules` object, so
a reading changed in the builder changes the rulings, the advice and what clients are told
together.  Every reading is a field the logic branches on, with the alternative real tables
play; the one reading without a coherent alternative (`knockout`) is still reported, as
not settable, with the reason in its description.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

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


class ThrowLimit(StrEnum):
    """How many throws a later player has."""

    STARTER = "starter"  # no more than the starter took
    FREE = "free"  # up to three, whatever the starter took


class NextStarter(StrEnum):
    """Who starts the round after one that ended at a Chicago (or a round-ending 1-6-5)."""

    LOT = "lot"  # drawn by lot: the ruling names nobody
    THROWER = "thrower"  # the player who threw it
    NEXT_IN_TURN = "next_in_turn"  # the next player still in after the thrower


class StarterChicagoCall(StrEnum):
    """Whether a starter who throws 1-1-1 calls, when the Chicago ends the round."""

    NONE = "none"  # no call: a recorded call is rejected
    CALL = "call"  # the starter calls as after any last throw


class Victim(StrEnum):
    """Who loses the life a 1-6-5 takes."""

    ROLLER_CHOICE = "roller_choice"  # the opponent the roller names
    NEXT_IN_TURN = "next_in_turn"  # the next player still in after the roller


class WorstOutStarter(StrEnum):
    """Who starts the next round when the worst score lost their last life."""

    NEXT_IN_TURN = "next_in_turn"  # the next player still in after them
    LOT = "lot"  # drawn by lot: the ruling names nobody


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
    throw_limit: ThrowLimit = ThrowLimit.STARTER
    sixes_counted_as_they_lie: bool = True  # False: only the sixes just thrown count
    chicago_ends_round: bool = True  # False: the Chicago's lives are taken, the round goes on
    next_starter_after_chicago: NextStarter = NextStarter.LOT
    starter_chicago_call: StarterChicagoCall = StarterChicagoCall.NONE
    one_six_five_victim: Victim = Victim.ROLLER_CHOICE
    specials_on_final_dice: bool = True  # False: a 1-6-5 counts on any throw that shows it
    next_starter_when_worst_out: WorstOutStarter = WorstOutStarter.NEXT_IN_TURN
    seating_fixed: bool = True  # False: each round of a game sets its own turn order

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

    def sixes(self, dice: Dice, held: Dice = ()) -> int:
        """The sixes a conversion counts: all of them on the dice as they lie, or (with
        `sixes_counted_as_they_lie` false) only those just thrown, not the `held` dice that
        stayed on the table from the previous throw."""
        if self.sixes_counted_as_they_lie:
            return Counter(dice)[6]
        return Counter(dice)[6] - Counter(held)[6]

    def conversion(self, dice: Dice, held: Dice = ()) -> tuple[Conversion, Obligation] | None:
        """The conversion the dice allow (`held`: the dice kept from the previous throw),
        and whether it is forced; `None` without two sixes counted.  Whether a throw is left
        is the caller's part."""
        sixes = self.sixes(dice, held)
        if sixes == 3:
            return Conversion.THREE_SIXES, self.three_sixes
        if sixes == 2:
            return Conversion.TWO_SIXES, self.two_sixes
        return None

    def ends_turn(self, dice: Dice) -> bool:
        """Dice on which the turn stops at once: a Chicago always (the best throw, and its
        lives are taken), a 1-6-5 when it counts as it lies and ends the round."""
        kind = special(dice)
        if kind is Special.CHICAGO:
            return True
        return (
            kind is Special.ONE_SIX_FIVE
            and not self.specials_on_final_dice
            and not self.one_six_five_round_goes_on
        )

    def chicago_call_due(self) -> bool:
        """Whether a starter standing on 1-1-1 calls: always when the round goes on after
        it, else as `starter_chicago_call` says."""
        return not self.chicago_ends_round or self.starter_chicago_call is StarterChicagoCall.CALL


# Bounds of a house rule's numbers: lives per player, and a face's value (three dice score
# at most 3 x 300, inside a request's score range of 0..1000).
MAX_LIVES = 20
MAX_FACE_VALUE = 300
LIVES_TABLE = (4, 3, 3, 3, 2)
HIGH_VALUES = (100, 2, 3, 4, 5, 60)
LOW_VALUES = (1, 2, 3, 4, 5, 6)

# Readings the text states (the others are readings of a silent or unclear text).
STATED = frozenset(
    ("throw_limit", "chicago_ends_round", "next_starter_after_chicago", "one_six_five_victim")
)
OBLIGATIONS = tuple(o.value for o in Obligation)
KNOCKOUT = "immediate"


def _choice(
    name: str, value: StrEnum, intro: str, meanings: Mapping[Any, str], *, label: str
) -> Parameter:
    """A parameter choosing among `value`'s enum: `meanings` says what each member means,
    in the enum's order, and the description is the intro followed by every meaning."""
    members = tuple(type(value))
    assert tuple(meanings) == members, f"{name}: one meaning per choice, in the enum's order"
    told = " ".join(f"'{m.value}': {meanings[m]}" for m in members)
    return Parameter(
        name,
        value.value,
        f"{intro} {told}" if intro else told,
        reading=name not in STATED,
        choices=tuple(m.value for m in members),
        label=label,
        choice_descriptions=tuple(meanings[m] for m in members),
    )


# What each conversion obligation means, for both conversions.
OBLIGATION_TEXT = {
    Obligation.MAY: "converting is the player's choice: standing, or keeping other dice, "
    "stays legal.",
    Obligation.MUST: "with a throw left the conversion is forced: standing or keeping other "
    "dice is illegal.",
}


def _flag(name: str, value: bool, text: str, *, label: str) -> Parameter:
    return Parameter(name, value, text, reading=name not in STATED, label=label)


def chicago(
    *,
    lives_by_players: tuple[int, ...] = LIVES_TABLE,
    high_values: tuple[int, ...] = HIGH_VALUES,
    low_values: tuple[int, ...] = LOW_VALUES,
    throw_limit: str = ThrowLimit.STARTER,
    two_sixes_conversion: str = Obligation.MAY,
    three_sixes_conversion: str = Obligation.MUST,
    sixes_counted_as_they_lie: bool = True,
    chicago_ends_round: bool = True,
    next_starter_after_chicago: str = NextStarter.LOT,
    starter_chicago_call: str = StarterChicagoCall.NONE,
    one_six_five_victim: str = Victim.ROLLER_CHOICE,
    one_six_five_round_goes_on: bool = True,
    specials_on_final_dice: bool = True,
    one_six_five_scores: bool = True,
    worst_tie_loser: str = TieLoser.LATER,
    next_starter_when_worst_out: str = WorstOutStarter.NEXT_IN_TURN,
    seating_fixed: bool = True,
) -> ChicagoRules:
    """Chicago under the given readings (the built-in game with none).  Every settable
    parameter it reports is a keyword here, by the same name, so a request's checked
    `rules` build it."""
    two_sixes = Obligation(two_sixes_conversion)
    three_sixes = Obligation(three_sixes_conversion)
    tie_loser = TieLoser(worst_tie_loser)
    limit = ThrowLimit(throw_limit)
    after_chicago = NextStarter(next_starter_after_chicago)
    chicago_call = StarterChicagoCall(starter_chicago_call)
    victim = Victim(one_six_five_victim)
    worst_out = WorstOutStarter(next_starter_when_worst_out)
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
        summary="Three dice, up to three throws, "
        + (
            "the starter sets the throw limit and calls "
            if limit is ThrowLimit.STARTER
            else "the starter calls "
        )
        + f"high (1 = {high_values[0]}, 6 = {high_values[5]}) or low (1 = {low_values[0]}, "
        f"6 = {low_values[5]}); the worst score loses a life and starts the next round; "
        "1-1-1 (Chicago) costs every opponent a life"
        + (" and ends the round" if chicago_ends_round else "")
        + "; 1-6-5 costs "
        + (
            "an opponent of the roller's choice"
            if victim is Victim.ROLLER_CHOICE
            else "the next player in turn"
        )
        + " a life"
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
        throw_limit=limit,
        sixes_counted_as_they_lie=sixes_counted_as_they_lie,
        chicago_ends_round=chicago_ends_round,
        next_starter_after_chicago=after_chicago,
        starter_chicago_call=chicago_call,
        one_six_five_victim=victim,
        specials_on_final_dice=specials_on_final_dice,
        next_starter_when_worst_out=worst_out,
        seating_fixed=seating_fixed,
        parameters=(
            Parameter(
                "lives_by_players",
                lives_table,
                "Lives each player starts with for 2, 3, 4, 5 and 6 players (the game's "
                "player count at the start). Out at 0 lives; the last player with lives wins.",
                minimum=1,
                maximum=MAX_LIVES,
                length=len(LIVES_TABLE),
                label="Lives by player count",
            ),
            Parameter(
                "high_values",
                tuple(high_values),
                "Faces 1..6 under 'high'.",
                minimum=0,
                maximum=MAX_FACE_VALUE,
                length=6,
                label="Face values under high",
            ),
            Parameter(
                "low_values",
                tuple(low_values),
                "Faces 1..6 under 'low'.",
                minimum=0,
                maximum=MAX_FACE_VALUE,
                length=6,
                label="Face values under low",
            ),
            _choice(
                "throw_limit",
                limit,
                "",
                {
                    ThrowLimit.STARTER: "the starter throws 1 to 3 times and no later player "
                    "may throw more often (as written).",
                    ThrowLimit.FREE: "every player may throw up to 3 times, whatever the "
                    "starter took.",
                },
                label="Throw limit",
            ),
            Parameter(
                "two_sixes_conversion",
                two_sixes.value,
                "Two 6s with a throw left: one may (or must) become a 1, set aside for the "
                "rest of the turn; the other 6 goes back into the shaker; the third die may "
                "be kept.",
                choices=OBLIGATIONS,
                label="Two sixes conversion",
                choice_descriptions=tuple(OBLIGATION_TEXT[o] for o in Obligation),
            ),
            Parameter(
                "three_sixes_conversion",
                three_sixes.value,
                "Three 6s with a throw left: two must (or may) become 1s, set aside; the "
                "third is thrown again. Under 'must', standing on 6-6-6 with a throw left "
                "is illegal.",
                choices=OBLIGATIONS,
                label="Three sixes conversion",
                choice_descriptions=tuple(OBLIGATION_TEXT[o] for o in Obligation),
            ),
            _flag(
                "sixes_counted_as_they_lie",
                sixes_counted_as_they_lie,
                "Two or three 6s are counted on the dice as they lie after a throw, kept sixes "
                "included (the text says 'rolls two 6s' and does not single out the dice just "
                "thrown). False: only the sixes the throw itself brought count, so a kept 6 "
                "and a new 6 convert nothing.",
                label="Sixes counted as they lie",
            ),
            _flag(
                "chicago_ends_round",
                chicago_ends_round,
                "1-1-1 costs every opponent a life and ends the round at once: the thrower's "
                "turn ends, nobody else throws, no worst score is ruled. False: the lives "
                "are taken and the round goes on ('the player to roll next' throws); the "
                "Chicago is the thrower's score, and the worst score is ruled as usual.",
                label="Chicago ends the round",
            ),
            _choice(
                "next_starter_after_chicago",
                after_chicago,
                "Who starts after a round a Chicago (or a 1-6-5 that ends the round) ended:",
                {
                    NextStarter.LOT: "drawn by lot, so the ruling names none (the text: "
                    "'automatically decided').",
                    NextStarter.THROWER: "the player who threw it.",
                    NextStarter.NEXT_IN_TURN: "the next player still in after the thrower.",
                },
                label="Next starter after a Chicago",
            ),
            _choice(
                "starter_chicago_call",
                chicago_call,
                "A starter whose 1-1-1 ends the round (when the round goes on after a "
                "Chicago, chicago_ends_round false, the starter always calls):",
                {
                    StarterChicagoCall.NONE: "makes no call (the round ends before a call is "
                    "due) and a recorded call is rejected.",
                    StarterChicagoCall.CALL: "calls as after any last throw, and the ruling "
                    "shows the call and the score.",
                },
                label="Starter's call after a Chicago",
            ),
            _choice(
                "one_six_five_victim",
                victim,
                "Who loses the life a 1-6-5 takes:",
                {
                    Victim.ROLLER_CHOICE: "the opponent still in whom the roller names (as "
                    "written).",
                    Victim.NEXT_IN_TURN: "the next player still in after the roller, in the "
                    "round's turn order (a named victim must be that player, and may be left "
                    "out).",
                },
                label="Who loses a life to 1-6-5",
            ),
            Parameter(
                "one_six_five_round_goes_on",
                one_six_five_round_goes_on,
                "After a 1-6-5 the round goes on (only Chicago is said to end it). False: a "
                "1-6-5 ends the round as a Chicago does (nobody else throws, no worst score, "
                "the next starter drawn by lot).",
                reading=True,
                label="Round goes on after 1-6-5",
            ),
            _flag(
                "specials_on_final_dice",
                specials_on_final_dice,
                "A 1-6-5 counts only when it is the dice the player stands on: throwing on "
                "gives it up. False: it counts on every throw that shows it, the victim "
                "named on that throw, and the player may throw on (unless the 1-6-5 ends the "
                "round).",
                label="Specials on final dice only",
            ),
            Parameter(
                "one_six_five_scores",
                one_six_five_scores,
                "A 1-6-5 the player stands on is also a score (165 high, 12 low) for the "
                "worst-score rule: the text gives it one effect, the opponent's life, and no "
                "protection. False: a 1-6-5 is never the worst score.",
                reading=True,
                label="1-6-5 counts as a score",
            ),
            Parameter(
                "worst_tie_loser",
                tie_loser.value,
                "Who loses a tie for the worst score: 'later', the player who threw it later "
                "(equal is not enough, a later player must be strictly better: strictly "
                "higher on high, strictly lower on low), or 'earlier'.",
                reading=True,
                choices=tuple(t.value for t in TieLoser),
                label="Loser of a worst-score tie",
                choice_descriptions=(
                    "the player who threw it later: a later player escapes only by being "
                    "strictly better.",
                    "the player who threw it earlier: a later player takes the worst score "
                    "only by being strictly worse.",
                ),
            ),
            Parameter(
                "knockout",
                KNOCKOUT,
                "A life is taken when its event happens; a player at 0 is out at once: no "
                "further throws, no part in the worst score, and the game ends as soon as one "
                "player has lives left. Not settable: the other reading, out only at the end "
                "of the round, lets every player reach 0 in one round (a 1-6-5, then a "
                "Chicago by its victim), and the text, whose winner 'still has at least one "
                "life', gives such a game no winner and no way to go on.",
                reading=True,
                choices=(KNOCKOUT,),
                settable=False,
                label="Knockout",
            ),
            _choice(
                "next_starter_when_worst_out",
                worst_out,
                "The worst score starts the next round; if that life was their last:",
                {
                    WorstOutStarter.NEXT_IN_TURN: "the next player still in after them in "
                    "turn order.",
                    WorstOutStarter.LOT: "drawn by lot (the ruling names none).",
                },
                label="Next starter when the loser is out",
            ),
            _flag(
                "seating_fixed",
                seating_fixed,
                "In a game, every round goes round the table in the first seating's order, "
                "from its starter, skipping players who are out. False: each round sets its "
                "own turn order (players change seats, or the starter picks who follows); "
                "the starter is still the one the previous ruling named.",
                label="Fixed seating",
            ),
        ),
    )


CHICAGO = chicago()
