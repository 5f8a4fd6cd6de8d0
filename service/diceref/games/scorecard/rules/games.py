"""The games the service knows, each described once from its rulebook and its readings.

Each builder takes the game's readings as keyword arguments (defaults are the readings in
force) and records them as `Parameter`s, so the value that shapes the boxes is the value
`GET /games/{game}` reports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from diceref.core.game import Parameter, RuleParameterError
from diceref.games.scorecard.rules.boxes import (
    LARGE_STRAIGHT_RUNS,
    SMALL_STRAIGHT_RUNS,
    Box,
    Pattern,
    Points,
    Section,
    upper,
)
from diceref.games.scorecard.rules.ruleset import (
    MAX_POINTS,
    MAX_THROWS,
    MIN_THROWS,
    FiveOfAKindRule,
    Joker,
    Order,
    Ruleset,
    UpperBonus,
    five_of_a_kind_parameters,
    play_parameters,
    upper_bonus_parameters,
    without_inert_readings,
)

L = Section.LOWER
UPPER_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")


def _full_house_and_straights() -> tuple[Box, Box, Box]:
    """The fixed-value boxes Yahtzee and the Italian Dice Poker share: 25, 30 and 40."""
    return (
        Box("full_house", "Full house", L, Pattern.FULL_HOUSE, Points.FIXED, fixed=25),
        Box(
            "small_straight",
            "Small straight",
            L,
            Pattern.STRAIGHT,
            Points.FIXED,
            runs=SMALL_STRAIGHT_RUNS,
            fixed=30,
        ),
        Box(
            "large_straight",
            "Large straight",
            L,
            Pattern.STRAIGHT,
            Points.FIXED,
            runs=LARGE_STRAIGHT_RUNS,
            fixed=40,
        ),
    )


def _yahtzee_boxes(five_box_name: str) -> tuple[Box, ...]:
    return (
        *(upper(f, UPPER_NAMES[f - 1], UPPER_NAMES[f - 1].title()) for f in range(1, 7)),
        Box("three_of_a_kind", "Three of a kind", L, Pattern.N_OF_A_KIND, Points.SUM_ALL, n=3),
        Box("four_of_a_kind", "Four of a kind", L, Pattern.N_OF_A_KIND, Points.SUM_ALL, n=4),
        *_full_house_and_straights(),
        Box("yahtzee", five_box_name, L, Pattern.N_OF_A_KIND, Points.FIXED, n=5, fixed=50),
        Box("chance", "Chance", L, Pattern.CHANCE, Points.SUM_ALL),
    )


def _two_pairs(pattern: Pattern, distinct: bool) -> bool:
    """The two-pairs reading, on the two-pairs box only (elsewhere the default): on another
    box it would change no score, yet the ruleset's hash (and `GET /games`' document) would
    carry it."""
    return distinct if pattern is Pattern.TWO_PAIRS else True


ORDER_TEXT = {
    Order.FREE: "Any open box may be filled on any turn.",
    Order.SERIES: "Upper boxes first, in any order among them; the lower boxes open only once "
    "every upper box is filled.",
    Order.FORCED: "Every box in scorecard order: the only legal box is the first open one "
    "(Swedish 'tvångsyatzy').",
}
NO_JOKER_TEXT = (
    "'forced' or 'free_choice' add a Joker on the five-of-a-kind box (see yahtzee and "
    "yardzee); this game has none by default."
)
NO_SCRATCH_TEXT = "With a Joker: does a 0 in the five-of-a-kind box still trigger it?"


def _choice(kind: type[Joker] | type[Order], value: str, name: str) -> Any:
    """A string from a request as the rule's enum, or the error naming the parameter."""
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise RuleParameterError(name, f"one of {allowed}, got {value!r}") from None


@dataclass(frozen=True)
class TurnRules:
    """The rules every scorecard game's builder takes: bonus, five of a kind, turn, order.

    Built and checked once per builder call, so every game refuses the same out-of-range
    or contradictory values with the same message.
    """

    bonus: UpperBonus
    reported_five: FiveOfAKindRule  # what `parameters` reports, switched off or not
    five_of_a_kind: FiveOfAKindRule | None  # None when it cannot change a score
    throws_per_turn: int
    order: Order

    @classmethod
    def check(
        cls,
        boxes: tuple[Box, ...],
        five_box: str,
        *,
        upper_bonus_threshold: int,
        upper_bonus_points: int,
        upper_bonus_strictly_greater: bool,
        joker: Joker | str,
        extra_bonus: int,
        joker_when_scratched: bool,
        matching_upper_forced: bool,
        throws_per_turn: int,
        order: Order | str,
    ) -> TurnRules:
        joker_rule: Joker = _choice(Joker, joker, "joker")
        order_rule: Order = _choice(Order, order, "order")
        if isinstance(throws_per_turn, bool) or not MIN_THROWS <= throws_per_turn <= MAX_THROWS:
            raise RuleParameterError(
                "throws_per_turn", f"{MIN_THROWS} to {MAX_THROWS} throws, got {throws_per_turn}"
            )
        if extra_bonus < 0:
            raise RuleParameterError("extra_bonus", "an extra bonus cannot be negative")
        if upper_bonus_points < 0:
            raise RuleParameterError("upper_bonus_points", "a bonus cannot be negative")
        # Reported and in force alike without the readings no score depends on (no Joker:
        # where a Joker goes), so that rules scoring alike get one `ruleset_id`.
        reported = without_inert_readings(
            FiveOfAKindRule(
                five_box, extra_bonus, joker_rule, joker_when_scratched, matching_upper_forced
            )
        )
        # No Joker and no extra bonus: the rule cannot change a score, and leaving it out
        # keeps the state space without the five-of-a-kind flag (and the tables' key exact).
        effective = None if joker_rule is Joker.NONE and extra_bonus == 0 else reported
        if effective is not None:
            box = next(b for b in boxes if b.id == five_box)
            if box.points is not Points.FIXED or box.fixed <= 0:
                raise RuleParameterError(
                    "joker" if joker_rule is not Joker.NONE else "extra_bonus",
                    f"'{five_box}' scores no fixed value, so 'holds its top value' (what the "
                    "Joker and the extra bonus depend on) is undefined",
                )
        if order_rule is Order.FORCED and joker_rule is not Joker.NONE:
            raise RuleParameterError(
                "order",
                f"forced order leaves no choice of box, which a Joker ('{joker_rule.value}') is; "
                "set joker to none",
            )
        bonus = UpperBonus(upper_bonus_threshold, upper_bonus_points, upper_bonus_strictly_greater)
        return cls(bonus, reported, effective, throws_per_turn, order_rule)

    def play_parameters(
        self, order_text: str | None = None, order_reading: bool = False
    ) -> tuple[Parameter, ...]:
        text = ORDER_TEXT[self.order] if order_text is None else order_text
        return play_parameters(self.throws_per_turn, self.order, text, order_reading)


def yahtzee(
    *,
    joker: Joker | str = Joker.FORCED,
    matching_upper_forced: bool = True,
    joker_when_scratched: bool = True,
    extra_bonus: int = 100,
    upper_bonus_threshold: int = 63,
    upper_bonus_points: int = 35,
    upper_bonus_strictly_greater: bool = False,
    throws_per_turn: int = 3,
    order: Order | str = Order.FREE,
) -> Ruleset:
    boxes = _yahtzee_boxes("Yahtzee")
    rules = TurnRules.check(
        boxes,
        "yahtzee",
        upper_bonus_threshold=upper_bonus_threshold,
        upper_bonus_points=upper_bonus_points,
        upper_bonus_strictly_greater=upper_bonus_strictly_greater,
        joker=joker,
        extra_bonus=extra_bonus,
        joker_when_scratched=joker_when_scratched,
        matching_upper_forced=matching_upper_forced,
        throws_per_turn=throws_per_turn,
        order=order,
    )
    return Ruleset(
        id="yahtzee",
        name="Yahtzee (official rules)",
        family="scorecard",
        dice=5,
        throws_per_turn=rules.throws_per_turn,
        min_players=1,
        max_players=None,
        source="Yahtzee, the official rules (Hasbro, English); forced Joker",
        summary="13 boxes; upper bonus 35 at 63; 100 per extra Yahtzee; forced Joker.",
        boxes=boxes,
        upper_bonus=rules.bonus,
        five_of_a_kind=rules.five_of_a_kind,
        order=rules.order,
        parameters=(
            *upper_bonus_parameters(rules.bonus, "upper section"),
            *five_of_a_kind_parameters(
                rules.reported_five,
                "Forced Joker: matching upper box if open, else any open lower box at full "
                "value, else any open upper box for 0. 'free_choice': any open box once the "
                "matching one is filled; 'none': no Joker.",
                "A 0 in the Yahtzee box still triggers the Joker (without the 100 bonus).",
                scratched_reading=False,
            ),
            *rules.play_parameters(),
        ),
    )


def yardzee(
    *,
    joker_when_scratched: bool = True,
    matching_upper_forced: bool = True,
    joker: Joker | str = Joker.FREE_CHOICE,
    extra_bonus: int = 100,
    upper_bonus_threshold: int = 63,
    upper_bonus_points: int = 35,
    upper_bonus_strictly_greater: bool = False,
    throws_per_turn: int = 3,
    order: Order | str = Order.FREE,
) -> Ruleset:
    boxes = _yahtzee_boxes("Yardzee")
    rules = TurnRules.check(
        boxes,
        "yahtzee",
        upper_bonus_threshold=upper_bonus_threshold,
        upper_bonus_points=upper_bonus_points,
        upper_bonus_strictly_greater=upper_bonus_strictly_greater,
        joker=joker,
        extra_bonus=extra_bonus,
        joker_when_scratched=joker_when_scratched,
        matching_upper_forced=matching_upper_forced,
        throws_per_turn=throws_per_turn,
        order=order,
    )
    return Ruleset(
        id="yardzee",
        name="Yardzee",
        family="scorecard",
        dice=5,
        throws_per_turn=rules.throws_per_turn,
        min_players=1,
        max_players=None,
        source="Yardzee rulebook (English)",
        summary="Yahtzee with the Joker as the Yardzee text writes it (free choice).",
        boxes=boxes,
        upper_bonus=rules.bonus,
        five_of_a_kind=rules.five_of_a_kind,
        order=rules.order,
        parameters=(
            *upper_bonus_parameters(rules.bonus, "upper section"),
            *five_of_a_kind_parameters(
                rules.reported_five,
                "As written: matching upper box if open, else any open box; upper boxes score "
                "0, lower boxes full value.",
                "With 0 in the Yardzee box the Joker placement still applies, without the 100 "
                "bonus (the official rule; the Yardzee text is silent).",
                scratched_reading=True,
                forced_text="The text: 'If the corresponding Upper Section category is not "
                "filled then you must score there.' False gives Verhoeff's free-choice "
                "convention (any open box at natural value while that box is open), whose "
                "optimum, 254.5896095, is the published one.",
            ),
            *rules.play_parameters(),
        ),
    )


def dice_poker(
    *,
    upper_bonus_threshold: int = 63,
    upper_bonus_strictly_greater: bool = True,
    two_pairs_distinct: bool = True,
    upper_bonus_points: int = 35,
    joker: Joker | str = Joker.FORCED,
    matching_upper_forced: bool = True,
    joker_when_scratched: bool = False,
    extra_bonus: int = 100,
    throws_per_turn: int = 3,
    order: Order | str = Order.FREE,
) -> Ruleset:
    """'maggiore di 63' is taken as written (greater than): 64 is the least that earns."""

    def sum_box(box_id: str, name: str, pattern: Pattern, n: int = 0) -> Box:
        return Box(
            box_id,
            name,
            L,
            pattern,
            Points.SUM_ALL,
            n=n,
            two_pairs_distinct=_two_pairs(pattern, two_pairs_distinct),
        )

    boxes = (
        *(
            upper(f, UPPER_NAMES[f - 1], name)
            for f, name in enumerate(("Assi", "Due", "Tre", "Quattro", "Cinque", "Sei"), start=1)
        ),
        sum_box("pair", "Coppia", Pattern.PAIR),
        sum_box("two_pairs", "Doppia coppia", Pattern.TWO_PAIRS),
        sum_box("three_of_a_kind", "Tris", Pattern.N_OF_A_KIND, 3),
        sum_box("four_of_a_kind", "Four of a kind", Pattern.N_OF_A_KIND, 4),
        *_full_house_and_straights(),
        Box("poker", "Poker", L, Pattern.N_OF_A_KIND, Points.FIXED, n=5, fixed=50),
        sum_box("chance", "Chance", Pattern.CHANCE),
    )
    rules = TurnRules.check(
        boxes,
        "poker",
        upper_bonus_threshold=upper_bonus_threshold,
        upper_bonus_points=upper_bonus_points,
        upper_bonus_strictly_greater=upper_bonus_strictly_greater,
        joker=joker,
        extra_bonus=extra_bonus,
        joker_when_scratched=joker_when_scratched,
        matching_upper_forced=matching_upper_forced,
        throws_per_turn=throws_per_turn,
        order=order,
    )
    return Ruleset(
        id="dice-poker",
        name="Dice Poker (Italian)",
        family="scorecard",
        dice=5,
        throws_per_turn=rules.throws_per_turn,
        min_players=1,
        max_players=None,
        source="Dice Poker rulebook (Italian)",
        summary="15 boxes with pair and two pairs; left bonus 35 above 63; poker Joker.",
        boxes=boxes,
        upper_bonus=rules.bonus,
        five_of_a_kind=rules.five_of_a_kind,
        order=rules.order,
        parameters=(
            *upper_bonus_parameters(rules.bonus, "left side"),
            Parameter(
                "two_pairs_distinct",
                two_pairs_distinct,
                "Two pairs need two different faces: a full house qualifies, four of a kind "
                "does not.",
                reading=True,
            ),
            *five_of_a_kind_parameters(
                rules.reported_five,
                "Matching left box if open, else any open right box at full value, else 0 in "
                "any open left box.",
                "The text ties bonus and Joker to the poker box holding 50 ('riempita con il "
                "risultato di 50 punti'); with 0 there a further poker scores like any throw.",
                scratched_reading=False,
            ),
            *rules.play_parameters(),
        ),
    )


RUSSIAN_FACE_LABELS = ("9", "10", "J", "Q", "K", "A")


def russian_poker(
    *,
    series_order: bool | None = None,
    poker_premium_doubled: bool = False,
    strike_unmet_with_zero: bool = True,
    two_pairs_distinct: bool = True,
    upper_target_count: int = 3,
    first_throw_multiplier: int = 2,
    poker_premium: int = 50,
    upper_bonus_threshold: int = 0,
    upper_bonus_points: int = 50,
    upper_bonus_strictly_greater: bool = False,
    joker: Joker | str = Joker.NONE,
    matching_upper_forced: bool = True,
    joker_when_scratched: bool = False,
    extra_bonus: int = 0,
    throws_per_turn: int = 3,
    order: Order | str = Order.SERIES,
) -> Ruleset:
    """`series_order` is the name this reading had before `order`: still accepted and
    reported, and refused when it contradicts `order`."""
    order_rule: Order = _choice(Order, order, "order")
    if series_order is not None and series_order != (order_rule is Order.SERIES):
        if series_order:
            raise RuleParameterError(
                "series_order", f"series_order true contradicts order '{order_rule.value}'"
            )
        order_rule = Order.FREE  # series_order=False with order left at series: switch off
    if first_throw_multiplier < 1:
        raise RuleParameterError("first_throw_multiplier", "a multiplier of 1 or more")
    if poker_premium < 0:
        raise RuleParameterError("poker_premium", "a premium cannot be negative")

    def formed(box_id: str, name: str, pattern: Pattern, doubled: bool = True, **kw: object) -> Box:
        return Box(
            box_id,
            name,
            L,
            pattern,
            Points.SUM_FORMED,
            first_throw_multiplier=first_throw_multiplier if doubled else 1,
            two_pairs_distinct=_two_pairs(pattern, two_pairs_distinct),
            **kw,  # type: ignore[arg-type]
        )

    boxes = (
        *(
            upper(
                f,
                UPPER_NAMES[f - 1],
                RUSSIAN_FACE_LABELS[f - 1],
                Points.FACE_RELATIVE,
                target=upper_target_count,
            )
            for f in range(1, 7)
        ),
        formed("pair", "Pair", Pattern.PAIR),
        formed("two_pairs", "Two pairs", Pattern.TWO_PAIRS),
        formed("three_of_a_kind", "Three of a kind", Pattern.N_OF_A_KIND, n=3),
        formed("small_straight", "Small straight", Pattern.STRAIGHT, runs=((1, 2, 3, 4, 5),)),
        formed("large_straight", "Large straight", Pattern.STRAIGHT, runs=((2, 3, 4, 5, 6),)),
        formed("full_house", "Full house", Pattern.FULL_HOUSE),
        formed("four_of_a_kind", "Four of a kind", Pattern.N_OF_A_KIND, n=4),
        formed(
            "poker",
            "Poker",
            Pattern.N_OF_A_KIND,
            n=5,
            premium=poker_premium,
            premium_doubled=poker_premium_doubled,
        ),
        formed("chance", "Chance", Pattern.CHANCE, doubled=False),
    )
    if not strike_unmet_with_zero:
        raise RuleParameterError(
            "strike_unmet_with_zero", "strike_unmet_with_zero=False leaves a game without an end"
        )
    rules = TurnRules.check(
        boxes,
        "poker",
        upper_bonus_threshold=upper_bonus_threshold,
        upper_bonus_points=upper_bonus_points,
        upper_bonus_strictly_greater=upper_bonus_strictly_greater,
        joker=joker,
        extra_bonus=extra_bonus,
        joker_when_scratched=joker_when_scratched,
        matching_upper_forced=matching_upper_forced,
        throws_per_turn=throws_per_turn,
        order=order_rule,
    )
    series_text = (
        "The second series opens only when all six first-series boxes are filled "
        "(the game 'is divided into two series')."
    )
    return Ruleset(
        id="russian-poker",
        name="Russian poker (Покер на костях)",
        family="scorecard",
        dice=5,
        throws_per_turn=rules.throws_per_turn,
        min_players=1,
        max_players=None,
        source="Покер на костях, rulebook of the two-series poker-dice game (Russian)",
        summary="Two series; first series counts against three of each face; second-series "
        "combinations doubled on the first throw; poker premium 50.",
        boxes=boxes,
        upper_bonus=rules.bonus,
        five_of_a_kind=rules.five_of_a_kind,
        order=rules.order,
        face_labels=RUSSIAN_FACE_LABELS,
        parameters=(
            Parameter(
                "upper_target_count",
                upper_target_count,
                f"First series: (count - {upper_target_count}) x face.",
                minimum=0,
                maximum=5,
            ),
            *upper_bonus_parameters(rules.bonus, "first-series"),
            Parameter(
                "series_order",
                rules.order is Order.SERIES,
                f"{series_text} The name before 'order' existed: true is order 'series'.",
                reading=True,
            ),
            Parameter(
                "two_pairs_distinct",
                two_pairs_distinct,
                "Two pairs are 'two dice of one value plus two of another value' (другого "
                "достоинства): four of a kind is not two pairs.",
            ),
            Parameter(
                "first_throw_multiplier",
                first_throw_multiplier,
                "A second-series combination other than chance made on the first throw of the "
                "turn scores this many times its points.",
                minimum=1,
                maximum=10,
            ),
            Parameter(
                "poker_premium",
                poker_premium,
                "Added to every poker.",
                minimum=0,
                maximum=MAX_POINTS,
            ),
            Parameter(
                "poker_premium_doubled",
                poker_premium_doubled,
                "The premium is added after doubling, not doubled.",
                reading=True,
            ),
            Parameter(
                "strike_unmet_with_zero",
                strike_unmet_with_zero,
                "An unmet combination can be struck with 0 (no other way to end the game).",
                reading=True,
            ),
            *five_of_a_kind_parameters(
                rules.reported_five,
                NO_JOKER_TEXT + " The poker box scores no fixed value, so only 'none' applies.",
                NO_SCRATCH_TEXT,
                scratched_reading=False,
            ),
            *rules.play_parameters(
                series_text if rules.order is Order.SERIES else None,
                order_reading=rules.order is Order.SERIES,
            ),
        ),
    )


# Per face (aces..sixes), the points of one notch then of two, flat: (1, 2, 2, 3, ...).
CHUTE_NOTCHES: tuple[int, ...] = tuple(p for f in range(1, 7) for p in (f, f + 1))
CHUTE_UPPER = ("aces", "twos", "threes", "fours", "fives", "sixes")


def chute_5(
    *,
    notches: tuple[int, ...] = CHUTE_NOTCHES,
    break_over: int = 20,
    upper_bonus_threshold: int = 21,
    upper_bonus_points: int = 10,
    upper_bonus_strictly_greater: bool = False,
    joker: Joker | str = Joker.NONE,
    matching_upper_forced: bool = True,
    joker_when_scratched: bool = False,
    extra_bonus: int = 0,
    throws_per_turn: int = 3,
    order: Order | str = Order.FREE,
) -> Ruleset:
    def fixed(box_id: str, name: str, pattern: Pattern, points: int, **kw: object) -> Box:
        return Box(box_id, name, L, pattern, Points.FIXED, fixed=points, **kw)  # type: ignore[arg-type]

    boxes = (
        *(
            upper(
                f,
                CHUTE_UPPER[f - 1],
                CHUTE_UPPER[f - 1].title(),
                Points.NOTCHES,
                notches=(notches[2 * f - 2], notches[2 * f - 1]),
            )
            for f in range(1, 7)
        ),
        fixed("three_of_a_kind", "Three of a kind", Pattern.N_OF_A_KIND, 4, n=3),
        fixed("four_of_a_kind", "Four of a kind", Pattern.N_OF_A_KIND, 8, n=4),
        fixed("full_house", "Full house", Pattern.FULL_HOUSE, 6),
        fixed("small_straight", "Small straight", Pattern.STRAIGHT, 7, runs=SMALL_STRAIGHT_RUNS),
        fixed("break", "Break", Pattern.SUM_OVER, 8, over=break_over),
        fixed("large_straight", "Large straight", Pattern.STRAIGHT, 9, runs=LARGE_STRAIGHT_RUNS),
        fixed("chute_5", "Chute-5", Pattern.N_OF_A_KIND, 20, n=5),
    )
    rules = TurnRules.check(
        boxes,
        "chute_5",
        upper_bonus_threshold=upper_bonus_threshold,
        upper_bonus_points=upper_bonus_points,
        upper_bonus_strictly_greater=upper_bonus_strictly_greater,
        joker=joker,
        extra_bonus=extra_bonus,
        joker_when_scratched=joker_when_scratched,
        matching_upper_forced=matching_upper_forced,
        throws_per_turn=throws_per_turn,
        order=order,
    )
    return Ruleset(
        id="chute-5",
        name="Chute-5",
        family="scorecard",
        dice=5,
        throws_per_turn=rules.throws_per_turn,
        min_players=1,
        max_players=None,
        source="Chute-5 Rulebook, the game's leaflet (English, partly illegible)",
        summary="13 windows with slides; three of a face one notch, four two; bonus 10 at 21.",
        boxes=boxes,
        upper_bonus=rules.bonus,
        five_of_a_kind=rules.five_of_a_kind,
        order=rules.order,
        parameters=(
            Parameter(
                "notches",
                tuple(notches),
                "Upper windows, per face (aces..sixes): points for one notch (three of the "
                "face) then two notches (four or five): face, face + 1. The legible examples "
                "(Twos 2/3, Aces 2 for two notches) fix this; the low-contrast Fives example "
                "contradicts them.",
                reading=True,
                minimum=0,
                maximum=MAX_POINTS,
                length=12,
            ),
            *upper_bonus_parameters(rules.bonus, "upper windows"),
            Parameter(
                "break_over",
                break_over,
                "Break scores 8 for any five dice totalling more than this; no further "
                "condition (the text explains when it is useful, not a restriction).",
                reading=True,
                minimum=5,
                maximum=29,
            ),
            Parameter(
                "printed_perfect_score",
                186,
                "The leaflet's 'perfect score 186' cannot be reached under any reading of the "
                "legible values; this ruleset's maximum is reported as max_score.",
                reading=True,
                settable=False,
            ),
            *five_of_a_kind_parameters(
                rules.reported_five, NO_JOKER_TEXT, NO_SCRATCH_TEXT, scratched_reading=False
            ),
            *rules.play_parameters(),
        ),
    )


def yatzy(
    *,
    full_house_accepts_five_of_a_kind: bool = False,
    two_pairs_accepts_four_of_a_kind: bool = False,
    upper_bonus_threshold: int = 63,
    upper_bonus_points: int = 50,
    upper_bonus_strictly_greater: bool = False,
    joker: Joker | str = Joker.NONE,
    matching_upper_forced: bool = True,
    joker_when_scratched: bool = False,
    extra_bonus: int = 0,
    throws_per_turn: int = 3,
    order: Order | str = Order.FREE,
) -> Ruleset:
    """Scandinavian Yatzy: 15 boxes where every combination scores only the dice that form
    it (pairs, n of a kind) or the sum of all five (full house, chance), straights exactly
    1-2-3-4-5 and 2-3-4-5-6; bonus 50 at 63; no Joker, no extra Yatzy bonus.

    The two readings are where published rules differ: most say two pairs and a full house
    need two different faces (the defaults), some tables accept four of a kind as two pairs
    or five of a kind as a full house.
    """

    def formed(box_id: str, name: str, pattern: Pattern, **kw: object) -> Box:
        return Box(box_id, name, L, pattern, Points.SUM_FORMED, **kw)  # type: ignore[arg-type]

    boxes = (
        *(upper(f, UPPER_NAMES[f - 1], UPPER_NAMES[f - 1].title()) for f in range(1, 7)),
        formed("one_pair", "One pair", Pattern.PAIR),
        formed(
            "two_pairs",
            "Two pairs",
            Pattern.TWO_PAIRS,
            two_pairs_distinct=not two_pairs_accepts_four_of_a_kind,
        ),
        formed("three_of_a_kind", "Three of a kind", Pattern.N_OF_A_KIND, n=3),
        formed("four_of_a_kind", "Four of a kind", Pattern.N_OF_A_KIND, n=4),
        formed("small_straight", "Small straight", Pattern.STRAIGHT, runs=((1, 2, 3, 4, 5),)),
        formed("large_straight", "Large straight", Pattern.STRAIGHT, runs=((2, 3, 4, 5, 6),)),
        Box(
            "full_house",
            "Full house",
            L,
            Pattern.FULL_HOUSE,
            Points.SUM_ALL,
            full_house_distinct=not full_house_accepts_five_of_a_kind,
        ),
        Box("chance", "Chance", L, Pattern.CHANCE, Points.SUM_ALL),
        Box("yatzy", "Yatzy", L, Pattern.N_OF_A_KIND, Points.FIXED, n=5, fixed=50),
    )
    rules = TurnRules.check(
        boxes,
        "yatzy",
        upper_bonus_threshold=upper_bonus_threshold,
        upper_bonus_points=upper_bonus_points,
        upper_bonus_strictly_greater=upper_bonus_strictly_greater,
        joker=joker,
        extra_bonus=extra_bonus,
        joker_when_scratched=joker_when_scratched,
        matching_upper_forced=matching_upper_forced,
        throws_per_turn=throws_per_turn,
        order=order,
    )
    return Ruleset(
        id="yatzy",
        name="Yatzy (Scandinavian)",
        family="scorecard",
        dice=5,
        throws_per_turn=rules.throws_per_turn,
        min_players=1,
        max_players=None,
        source="Yatzyregler, skandinaviska varianten (tarningsspel.se, Swedish); Outdoor "
        "yacht game manual, Vinga of Sweden (English)",
        summary="15 boxes with one pair, two pairs and only the matching dice counting; "
        "straights 1-5 for 15 and 2-6 for 20; upper bonus 50 at 63; no Joker.",
        boxes=boxes,
        upper_bonus=rules.bonus,
        five_of_a_kind=rules.five_of_a_kind,
        order=rules.order,
        parameters=(
            *upper_bonus_parameters(rules.bonus, "upper section"),
            Parameter(
                "full_house_accepts_five_of_a_kind",
                full_house_accepts_five_of_a_kind,
                "Five of a kind also scores as a full house (the sum). Published rules say "
                "'a set of three combined with a different pair', so it does not by default.",
                reading=True,
            ),
            Parameter(
                "two_pairs_accepts_four_of_a_kind",
                two_pairs_accepts_four_of_a_kind,
                "Four (or five) of a kind also scores as two pairs (four dice). Published "
                "rules say 'two different pairs', so it does not by default.",
                reading=True,
            ),
            *five_of_a_kind_parameters(
                rules.reported_five, NO_JOKER_TEXT, NO_SCRATCH_TEXT, scratched_reading=False
            ),
            *rules.play_parameters(),
        ),
    )


# Each game's builder, by id: called with no argument it is the built-in game; with a
# request's `rules` (checked against the parameters it reports) the house-rules variant.
SCORECARD_BUILDERS: dict[str, Callable[..., Ruleset]] = {
    "yahtzee": yahtzee,
    "yardzee": yardzee,
    "dice-poker": dice_poker,
    "russian-poker": russian_poker,
    "chute-5": chute_5,
    "yatzy": yatzy,
}
SCORECARD_GAMES: dict[str, Ruleset] = {g: build() for g, build in SCORECARD_BUILDERS.items()}
