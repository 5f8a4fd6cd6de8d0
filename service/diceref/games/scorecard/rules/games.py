"""The games the service knows, each described once from its rulebook and `RULES.md`.

Each builder takes the game's readings as keyword arguments (defaults are the readings in
force) and records them as `Parameter`s, so the value that shapes the boxes is the value
`GET /games/{game}` reports.
"""

from __future__ import annotations

from diceref.core.game import Parameter
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
    FiveOfAKindRule,
    Joker,
    Ruleset,
    UpperBonus,
    five_of_a_kind_parameters,
    upper_bonus_parameters,
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


def yahtzee() -> Ruleset:
    bonus = UpperBonus(63, 35)
    five = FiveOfAKindRule("yahtzee", 100, Joker.FORCED, joker_when_scratched=True)
    return Ruleset(
        id="yahtzee",
        name="Yahtzee (official rules)",
        family="scorecard",
        dice=5,
        throws_per_turn=3,
        min_players=1,
        max_players=None,
        source="Official Yahtzee rules (see RULES.md); forced Joker",
        summary="13 boxes; upper bonus 35 at 63; 100 per extra Yahtzee; forced Joker.",
        boxes=_yahtzee_boxes("Yahtzee"),
        upper_bonus=bonus,
        five_of_a_kind=five,
        parameters=(
            *upper_bonus_parameters(bonus, "upper section"),
            *five_of_a_kind_parameters(
                five,
                "Forced Joker: matching upper box if open, else any open lower box at full "
                "value, else any open upper box for 0.",
                "A 0 in the Yahtzee box still triggers the Joker (without the 100 bonus).",
                scratched_reading=False,
            ),
        ),
    )


def yardzee(joker_when_scratched: bool = True, matching_upper_forced: bool = True) -> Ruleset:
    bonus = UpperBonus(63, 35)
    five = FiveOfAKindRule(
        "yahtzee",
        100,
        Joker.FREE_CHOICE,
        joker_when_scratched=joker_when_scratched,
        matching_upper_forced=matching_upper_forced,
    )
    return Ruleset(
        id="yardzee",
        name="Yardzee",
        family="scorecard",
        dice=5,
        throws_per_turn=3,
        min_players=1,
        max_players=None,
        source="rulebooks/004 (Yardzee)",
        summary="Yahtzee with the Joker as the Yardzee text writes it (free choice).",
        boxes=_yahtzee_boxes("Yardzee"),
        upper_bonus=bonus,
        five_of_a_kind=five,
        parameters=(
            *upper_bonus_parameters(bonus, "upper section"),
            *five_of_a_kind_parameters(
                five,
                "As written: matching upper box if open, else any open box; upper boxes score "
                "0, lower boxes full value.",
                "With 0 in the Yardzee box the Joker placement still applies, without the 100 "
                "bonus (the official rule; the Yardzee text is silent).",
                scratched_reading=True,
                forced_text="The text: 'If the corresponding Upper Section category is not "
                "filled then you must score there.' False gives Verhoeff's free-choice "
                "convention (any open box at natural value while that box is open), whose "
                "optimum 254.5896095 RULES.md quotes.",
            ),
        ),
    )


def dice_poker(
    upper_bonus_threshold: int = 63,
    upper_bonus_strictly_greater: bool = True,
    two_pairs_distinct: bool = True,
) -> Ruleset:
    """'maggiore di 63' is taken as written (greater than): 64 is the least that earns."""
    bonus = UpperBonus(upper_bonus_threshold, 35, strictly_greater=upper_bonus_strictly_greater)
    five = FiveOfAKindRule("poker", 100, Joker.FORCED, joker_when_scratched=False)

    def sum_box(box_id: str, name: str, pattern: Pattern, n: int = 0) -> Box:
        return Box(
            box_id, name, L, pattern, Points.SUM_ALL, n=n, two_pairs_distinct=two_pairs_distinct
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
    return Ruleset(
        id="dice-poker",
        name="Dice Poker (Italian)",
        family="scorecard",
        dice=5,
        throws_per_turn=3,
        min_players=1,
        max_players=None,
        source="rulebooks/003 (Dice Poker, Italian)",
        summary="15 boxes with pair and two pairs; left bonus 35 above 63; poker Joker.",
        boxes=boxes,
        upper_bonus=bonus,
        five_of_a_kind=five,
        parameters=(
            *upper_bonus_parameters(bonus, "left side"),
            Parameter(
                "two_pairs_distinct",
                two_pairs_distinct,
                "Two pairs need two different faces: a full house qualifies, four of a kind "
                "does not.",
                reading=True,
            ),
            *five_of_a_kind_parameters(
                five,
                "Matching left box if open, else any open right box at full value, else 0 in "
                "any open left box.",
                "The text ties bonus and Joker to the poker box holding 50 ('riempita con il "
                "risultato di 50 punti'); with 0 there a further poker scores like any throw.",
                scratched_reading=False,
            ),
        ),
    )


RUSSIAN_FACE_LABELS = ("9", "10", "J", "Q", "K", "A")


def russian_poker(
    series_order: bool = True,
    poker_premium_doubled: bool = False,
    strike_unmet_with_zero: bool = True,
    two_pairs_distinct: bool = True,
) -> Ruleset:
    target = 3  # first series: (count - 3) x face
    multiplier = 2  # second series made on the turn's first throw
    premium = 50
    bonus = UpperBonus(0, 50)

    def formed(box_id: str, name: str, pattern: Pattern, doubled: bool = True, **kw: object) -> Box:
        return Box(
            box_id,
            name,
            L,
            pattern,
            Points.SUM_FORMED,
            first_throw_multiplier=multiplier if doubled else 1,
            two_pairs_distinct=two_pairs_distinct,
            **kw,  # type: ignore[arg-type]
        )

    boxes = (
        *(
            upper(
                f,
                UPPER_NAMES[f - 1],
                RUSSIAN_FACE_LABELS[f - 1],
                Points.FACE_RELATIVE,
                target=target,
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
            premium=premium,
            premium_doubled=poker_premium_doubled,
        ),
        formed("chance", "Chance", Pattern.CHANCE, doubled=False),
    )
    if not strike_unmet_with_zero:
        raise ValueError("strike_unmet_with_zero=False leaves a game without an end")
    return Ruleset(
        id="russian-poker",
        name="Russian poker (Покер на костях)",
        family="scorecard",
        dice=5,
        throws_per_turn=3,
        min_players=1,
        max_players=None,
        source="rulebooks/002 (Покер на костях)",
        summary="Two series; first series counts against three of each face; second-series "
        "combinations doubled on the first throw; poker premium 50.",
        boxes=boxes,
        upper_bonus=bonus,
        five_of_a_kind=None,
        series_order=series_order,
        face_labels=RUSSIAN_FACE_LABELS,
        parameters=(
            Parameter("upper_target_count", target, f"First series: (count - {target}) x face."),
            *upper_bonus_parameters(bonus, "first-series"),
            Parameter(
                "series_order",
                series_order,
                "The second series opens only when all six first-series boxes are filled "
                "(the game 'is divided into two series').",
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
                multiplier,
                "A second-series combination other than chance made on the first throw of the "
                "turn scores double.",
            ),
            Parameter("poker_premium", premium, "Added to every poker."),
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
        ),
    )


CHUTE_NOTCHES: tuple[tuple[int, int], ...] = tuple((f, f + 1) for f in range(1, 7))
CHUTE_UPPER = ("aces", "twos", "threes", "fours", "fives", "sixes")


def chute_5(
    notches: tuple[tuple[int, int], ...] = CHUTE_NOTCHES,
    break_over: int = 20,
    upper_bonus_threshold: int = 21,
) -> Ruleset:
    bonus = UpperBonus(upper_bonus_threshold, 10)

    def fixed(box_id: str, name: str, pattern: Pattern, points: int, **kw: object) -> Box:
        return Box(box_id, name, L, pattern, Points.FIXED, fixed=points, **kw)  # type: ignore[arg-type]

    boxes = (
        *(
            upper(
                f,
                CHUTE_UPPER[f - 1],
                CHUTE_UPPER[f - 1].title(),
                Points.NOTCHES,
                notches=notches[f - 1],
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
    return Ruleset(
        id="chute-5",
        name="Chute-5",
        family="scorecard",
        dice=5,
        throws_per_turn=3,
        min_players=1,
        max_players=None,
        source="rulebooks/000 (Chute-5 leaflet)",
        summary="13 windows with slides; three of a face one notch, four two; bonus 10 at 21.",
        boxes=boxes,
        upper_bonus=bonus,
        five_of_a_kind=None,
        parameters=(
            Parameter(
                "notches",
                tuple(p for pair in notches for p in pair),
                "Upper windows, per face (aces..sixes): points for one notch (three of the "
                "face) then two notches (four or five): face, face + 1. The legible examples "
                "(Twos 2/3, Aces 2 for two notches) fix this; the low-contrast Fives example "
                "contradicts them.",
                reading=True,
            ),
            *upper_bonus_parameters(bonus, "upper windows"),
            Parameter(
                "break_over",
                break_over,
                "Break scores 8 for any five dice totalling more than this; no further "
                "condition (the text explains when it is useful, not a restriction).",
                reading=True,
            ),
            Parameter(
                "printed_perfect_score",
                186,
                "The leaflet's 'perfect score 186' cannot be reached under any reading of the "
                "legible values; this ruleset's maximum is reported as max_score.",
                reading=True,
            ),
        ),
    )


SCORECARD_GAMES: dict[str, Ruleset] = {
    r.id: r for r in (yahtzee(), yardzee(), dice_poker(), russian_poker(), chute_5())
}
