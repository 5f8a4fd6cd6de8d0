"""The scorecard games the service knows: each one ruleset document, written from its
rulebook, and the house rules a request may apply to it.

A house rule (a request's `rules`) is a typed change to the document, reported as a
`Parameter` of `GET /games/{game}`; the changed document is then decoded, checked and
compiled like any custom `ruleset` (`description.py`), so a built-in game and its
variants obey exactly the rules a sent document does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import msgspec

from diceref.core.errors import RuleViolation
from diceref.core.game import (
    GameInfo,
    Parameter,
    ParameterValue,
    RuleParameterError,
    check_overrides,
)
from diceref.games.scorecard.rules.description import (
    About,
    compile_document,
    decode_document,
)
from diceref.games.scorecard.rules.document import (
    MODIFIER_DEFAULTS,
    BoxDocument,
    ChanceBox,
    FaceBox,
    FiveOfAKindDocument,
    FullHouseBox,
    OfAKindBox,
    PairBox,
    RulesetDocument,
    StraightBox,
    SumOverBox,
    TwoPairsBox,
    UpperBonusRule,
)
from diceref.games.scorecard.rules.ruleset import (
    MATCHING_UPPER_TEXT,
    MAX_POINTS,
    ORDER_TEXT,
    FiveOfAKindRule,
    Joker,
    Order,
    Ruleset,
    five_of_a_kind_parameters,
    play_parameters,
    upper_bonus_parameters,
    without_inert_readings,
)
from diceref.games.scorecard.rules.ruleset import UpperBonus as BonusRule
from diceref.games.scorecard.rules.summary import house_summary

UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")
Document = RulesetDocument


# --- house rules: typed changes to a document ----------------------------------------------


class HouseRules(Protocol):
    """Parameters of a game and the change each makes to its document."""

    @property
    def names(self) -> tuple[str, ...]: ...

    def change(self, doc: Document, name: str, value: Any) -> Document:
        """`doc` with parameter `name` set to `value` (already checked against its type and
        bounds by `check_overrides`)."""
        ...

    def report(self, doc: Document) -> tuple[Parameter, ...]:
        """The parameters as `GET /games/{game}` lists them, with the values of `doc`."""
        ...


def _with_boxes(doc: Document, boxes: Sequence[str], **fields: object) -> Document:
    """`doc` with `fields` set on the boxes named."""
    changed = [msgspec.structs.replace(b, **fields) if b.id in boxes else b for b in doc.boxes]
    return msgspec.structs.replace(doc, boxes=changed)


def _box(doc: Document, box_id: str) -> BoxDocument:
    return next(b for b in doc.boxes if b.id == box_id)


@dataclass(frozen=True)
class BoxField:
    """A field of some boxes (the two-pairs reading, a premium): one value for them all.
    `negated`: the parameter says the opposite of the field (`..._accepts_...`)."""

    parameter: Parameter
    field: str
    boxes: tuple[str, ...]
    negated: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return (self.parameter.name,)

    def change(self, doc: Document, name: str, value: Any) -> Document:
        return _with_boxes(doc, self.boxes, **{self.field: not value if self.negated else value})

    def report(self, doc: Document) -> tuple[Parameter, ...]:
        value = getattr(_box(doc, self.boxes[0]), self.field)
        if isinstance(value, msgspec.UnsetType):
            value = MODIFIER_DEFAULTS[self.field]
        value = not value if self.negated else value
        text = self.parameter.description.replace("{value}", str(value))
        return (replace(self.parameter, value=value, description=text),)


@dataclass(frozen=True)
class Notches:
    """The upper boxes' notch points, two per face (aces..sixes) in one flat list."""

    parameter: Parameter
    boxes: tuple[str, ...]  # the upper boxes, aces to sixes

    @property
    def names(self) -> tuple[str, ...]:
        return (self.parameter.name,)

    def change(self, doc: Document, name: str, value: Any) -> Document:
        for i, box_id in enumerate(self.boxes):
            doc = _with_boxes(doc, (box_id,), notches=list(value[2 * i : 2 * i + 2]))
        return doc

    def report(self, doc: Document) -> tuple[Parameter, ...]:
        flat: list[int] = []
        for box_id in self.boxes:
            box = _box(doc, box_id)
            assert isinstance(box, FaceBox) and isinstance(box.notches, list)
            flat += box.notches
        return (replace(self.parameter, value=tuple(flat)),)


@dataclass(frozen=True)
class Fixed:
    """A parameter with one value the service plays: reported, any other value refused
    (`refusal`), or not settable at all (no refusal)."""

    parameter: Parameter
    refusal: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        return (self.parameter.name,)

    def change(self, doc: Document, name: str, value: Any) -> Document:
        if value != self.parameter.value:
            raise RuleParameterError(name, self.refusal)
        return doc

    def report(self, doc: Document) -> tuple[Parameter, ...]:
        return (self.parameter,)


@dataclass(frozen=True)
class SeriesOrder:
    """`series_order`, the name `order: series` had first: still accepted and reported;
    false switches series order off, true contradicting `order` is refused."""

    parameter: Parameter

    @property
    def names(self) -> tuple[str, ...]:
        return (self.parameter.name,)

    def change(self, doc: Document, name: str, value: Any) -> Document:
        if not value and doc.order is Order.SERIES:
            doc = msgspec.structs.replace(doc, order=Order.FREE)
        return msgspec.structs.replace(doc, series_order=value)

    def report(self, doc: Document) -> tuple[Parameter, ...]:
        return (replace(self.parameter, value=doc.order is Order.SERIES),)


@dataclass(frozen=True)
class UpperBonus:
    """The upper bonus: `upper_bonus_threshold`, `_strictly_greater`, `_points`."""

    section: str  # what the rulebook calls the upper section

    names = ("upper_bonus_threshold", "upper_bonus_strictly_greater", "upper_bonus_points")

    def change(self, doc: Document, name: str, value: Any) -> Document:
        field = name.removeprefix("upper_bonus_")
        bonus = msgspec.structs.replace(doc.upper_bonus_rule, **{field: value})
        return msgspec.structs.replace(doc, upper_bonus_rule=bonus)

    def report(self, doc: Document) -> tuple[Parameter, ...]:
        given = doc.upper_bonus_rule
        bonus = BonusRule(given.threshold, given.points, given.strictly_greater)
        return upper_bonus_parameters(bonus, self.section)


NO_JOKER_TEXT = (
    "'forced' or 'free_choice' add a Joker on the five-of-a-kind box (see yahtzee and "
    "yardzee); this game has none by default."
)
NO_SCRATCH_TEXT = "With a Joker: does a 0 in the five-of-a-kind box still trigger it?"


@dataclass(frozen=True)
class FiveOfAKind:
    """The extra bonus and the Joker: `extra_bonus`, `joker`, `joker_when_scratched`,
    `matching_upper_forced`; reported without the readings no score depends on."""

    joker_text: str
    scratched_text: str = NO_SCRATCH_TEXT
    scratched_reading: bool = False
    forced_text: str = MATCHING_UPPER_TEXT
    forced_reading: bool = False

    names = ("extra_bonus", "joker", "joker_when_scratched", "matching_upper_forced")

    def change(self, doc: Document, name: str, value: Any) -> Document:
        assert doc.five_of_a_kind is not None  # every built-in game names its box
        rule = msgspec.structs.replace(doc.five_of_a_kind, **{name: value})
        return msgspec.structs.replace(doc, five_of_a_kind=rule)

    def report(self, doc: Document) -> tuple[Parameter, ...]:
        given = doc.five_of_a_kind
        assert given is not None
        rule = without_inert_readings(
            FiveOfAKindRule(
                given.box,
                given.extra_bonus,
                Joker(given.joker),
                given.joker_when_scratched,
                given.matching_upper_forced,
            )
        )
        return five_of_a_kind_parameters(
            rule,
            self.joker_text,
            self.scratched_text,
            self.scratched_reading,
            self.forced_text,
            self.forced_reading,
        )


@dataclass(frozen=True)
class Play:
    """How a turn goes: `throws_per_turn` and `order`.  `series_text`: the game's own
    words for series order, reported as a reading while series order is in force."""

    series_text: str | None = None

    names = ("throws_per_turn", "order")

    def change(self, doc: Document, name: str, value: Any) -> Document:
        return msgspec.structs.replace(doc, **{name: Order(value) if name == "order" else value})

    def report(self, doc: Document) -> tuple[Parameter, ...]:
        series = doc.order is Order.SERIES and self.series_text is not None
        text = self.series_text if series and self.series_text else ORDER_TEXT[doc.order]
        return play_parameters(doc.throws_per_turn, doc.order, text, series)


# --- the games ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BuiltInGame:
    """A built-in game: its document, what `GET /games` says of it, and its house rules
    in the order it lists their parameters."""

    document: Document
    source: str
    summary: str
    house_rules: tuple[HouseRules, ...]


def _upper(names: Sequence[str], **fields: Any) -> list[BoxDocument]:
    """The six face boxes, ones to sixes, every scorecard game opens with."""
    return [FaceBox(id=UPPER_IDS[f - 1], name=names[f - 1], face=f, **fields) for f in range(1, 7)]


def _document(boxes: list[BoxDocument], **fields: Any) -> Document:
    return Document(
        **{"dice_count": 5, "throws_per_turn": 3, "order": Order.FREE, **fields}, boxes=boxes
    )


def _five_box(box_id: str, name: str, points: int) -> OfAKindBox:
    """The five-of-a-kind box at fixed points: what a Joker and an extra bonus key on."""
    return OfAKindBox(id=box_id, name=name, scoring="fixed", fixed_points=points, of_a_kind_count=5)


def _fixed_straight(box_id: str, name: str, points: int, runs: list[list[int]]) -> StraightBox:
    return StraightBox(id=box_id, name=name, scoring="fixed", fixed_points=points, runs=runs)


def _no_joker(box_id: str) -> FiveOfAKindDocument:
    """No Joker and no extra bonus on `box_id`: the rule a request's `rules` may turn on."""
    return FiveOfAKindDocument(box=box_id, extra_bonus=0, joker=Joker.NONE)


TITLES = tuple(name.title() for name in UPPER_IDS)
SMALL_RUNS = [[1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]]
LARGE_RUNS = [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]]
FIXED_25_30_40: list[BoxDocument] = [
    FullHouseBox(id="full_house", name="Full house", scoring="fixed", fixed_points=25),
    _fixed_straight("small_straight", "Small straight", 30, SMALL_RUNS),
    _fixed_straight("large_straight", "Large straight", 40, LARGE_RUNS),
]


def _yahtzee_card(five_box_name: str) -> list[BoxDocument]:
    return [
        *_upper(TITLES, scoring="face_sum"),
        OfAKindBox(
            id="three_of_a_kind", name="Three of a kind", scoring="sum_all", of_a_kind_count=3
        ),
        OfAKindBox(
            id="four_of_a_kind", name="Four of a kind", scoring="sum_all", of_a_kind_count=4
        ),
        *FIXED_25_30_40,
        _five_box("yahtzee", five_box_name, 50),
        ChanceBox(id="chance", name="Chance", scoring="sum_all"),
    ]


YAHTZEE = BuiltInGame(
    _document(
        _yahtzee_card("Yahtzee"),
        id="yahtzee",
        name="Yahtzee (official rules)",
        upper_bonus_rule=UpperBonusRule(threshold=63, points=35),
        five_of_a_kind=FiveOfAKindDocument(
            box="yahtzee", extra_bonus=100, joker=Joker.FORCED, joker_when_scratched=True
        ),
    ),
    source="Yahtzee, the official rules (Hasbro, English); forced Joker",
    summary="13 boxes; upper bonus 35 at 63; 100 per extra Yahtzee; forced Joker.",
    house_rules=(
        UpperBonus("upper section"),
        FiveOfAKind(
            "Forced Joker: matching upper box if open, else any open lower box at full "
            "value, else any open upper box for 0. 'free_choice': any open box once the "
            "matching one is filled; 'none': no Joker.",
            "A 0 in the Yahtzee box still triggers the Joker (without the 100 bonus).",
        ),
        Play(),
    ),
)

# Yahtzee as the Yardzee text writes it: its own name for the five-of-a-kind box, and the
# Joker in free choice.
YARDZEE = BuiltInGame(
    msgspec.structs.replace(
        YAHTZEE.document,
        id="yardzee",
        name="Yardzee",
        boxes=_yahtzee_card("Yardzee"),
        five_of_a_kind=FiveOfAKindDocument(
            box="yahtzee", extra_bonus=100, joker=Joker.FREE_CHOICE, joker_when_scratched=True
        ),
    ),
    source="Yardzee rulebook (English)",
    summary="Yahtzee with the Joker as the Yardzee text writes it (free choice).",
    house_rules=(
        YAHTZEE.house_rules[0],
        FiveOfAKind(
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
        YAHTZEE.house_rules[2],
    ),
)

# 'maggiore di 63' is taken as written (greater than): 64 is the least that earns.
DICE_POKER = BuiltInGame(
    _document(
        [
            *_upper(("Assi", "Due", "Tre", "Quattro", "Cinque", "Sei"), scoring="face_sum"),
            PairBox(id="pair", name="Coppia", scoring="sum_all"),
            TwoPairsBox(id="two_pairs", name="Doppia coppia", scoring="sum_all"),
            OfAKindBox(id="three_of_a_kind", name="Tris", scoring="sum_all", of_a_kind_count=3),
            OfAKindBox(
                id="four_of_a_kind", name="Four of a kind", scoring="sum_all", of_a_kind_count=4
            ),
            *FIXED_25_30_40,
            _five_box("poker", "Poker", 50),
            ChanceBox(id="chance", name="Chance", scoring="sum_all"),
        ],
        id="dice-poker",
        name="Dice Poker (Italian)",
        upper_bonus_rule=UpperBonusRule(threshold=63, points=35, strictly_greater=True),
        five_of_a_kind=FiveOfAKindDocument(box="poker", extra_bonus=100, joker=Joker.FORCED),
    ),
    source="Dice Poker rulebook (Italian)",
    summary="15 boxes with pair and two pairs; left bonus 35 above 63; poker Joker.",
    house_rules=(
        UpperBonus("left side"),
        BoxField(
            Parameter(
                "two_pairs_distinct",
                True,
                "Two pairs need two different faces: a full house qualifies, four of a kind "
                "does not.",
                reading=True,
                label="Two pairs of different faces",
            ),
            "two_pairs_distinct",
            ("two_pairs",),
        ),
        FiveOfAKind(
            "Matching left box if open, else any open right box at full value, else 0 in "
            "any open left box.",
            "The text ties bonus and Joker to the poker box holding 50 ('riempita con il "
            "risultato di 50 punti'); with 0 there a further poker scores like any throw.",
        ),
        Play(),
    ),
)

RUSSIAN_FACE_LABELS = ("9", "10", "J", "Q", "K", "A")
RUSSIAN_DOUBLED = (
    "pair",
    "two_pairs",
    "three_of_a_kind",
    "small_straight",
    "large_straight",
    "full_house",
    "four_of_a_kind",
    "poker",
)
RUSSIAN_SERIES_TEXT = (
    "The second series opens only when all six first-series boxes are filled "
    "(the game 'is divided into two series')."
)
_FORMED: dict[str, Any] = {"scoring": "sum_formed", "first_throw_multiplier": 2}
RUSSIAN_POKER = BuiltInGame(
    _document(
        [
            *_upper(RUSSIAN_FACE_LABELS, scoring="face_relative", target_count=3),
            PairBox(id="pair", name="Pair", **_FORMED),
            TwoPairsBox(id="two_pairs", name="Two pairs", **_FORMED),
            OfAKindBox(id="three_of_a_kind", name="Three of a kind", of_a_kind_count=3, **_FORMED),
            StraightBox(
                id="small_straight", name="Small straight", runs=[[1, 2, 3, 4, 5]], **_FORMED
            ),
            StraightBox(
                id="large_straight", name="Large straight", runs=[[2, 3, 4, 5, 6]], **_FORMED
            ),
            FullHouseBox(id="full_house", name="Full house", **_FORMED),
            OfAKindBox(id="four_of_a_kind", name="Four of a kind", of_a_kind_count=4, **_FORMED),
            OfAKindBox(id="poker", name="Poker", of_a_kind_count=5, premium=50, **_FORMED),
            ChanceBox(id="chance", name="Chance", scoring="sum_formed"),
        ],
        id="russian-poker",
        name="Russian poker (Покер на костях)",
        upper_bonus_rule=UpperBonusRule(threshold=0, points=50),
        five_of_a_kind=_no_joker("poker"),
        face_labels=list(RUSSIAN_FACE_LABELS),
        order=Order.SERIES,
    ),
    source="Покер на костях, rulebook of the two-series poker-dice game (Russian)",
    summary="Two series; first series counts against three of each face; second-series "
    "combinations doubled on the first throw; poker premium 50.",
    house_rules=(
        BoxField(
            Parameter(
                "upper_target_count",
                3,
                "First series: (count - {value}) x face.",
                minimum=0,
                maximum=5,
                label="Upper target count",
            ),
            "target_count",
            UPPER_IDS,
        ),
        UpperBonus("first-series"),
        SeriesOrder(
            Parameter(
                "series_order",
                True,
                f"{RUSSIAN_SERIES_TEXT} The name before 'order' existed: true is order 'series'.",
                reading=True,
                label="Upper section first",
            )
        ),
        BoxField(
            Parameter(
                "two_pairs_distinct",
                True,
                "Two pairs are 'two dice of one value plus two of another value' (другого "
                "достоинства): four of a kind is not two pairs.",
                label="Two pairs of different faces",
            ),
            "two_pairs_distinct",
            ("two_pairs",),
        ),
        BoxField(
            Parameter(
                "first_throw_multiplier",
                2,
                "A second-series combination other than chance made on the first throw of the "
                "turn scores this many times its points.",
                minimum=1,
                maximum=10,
                label="First-throw multiplier",
            ),
            "first_throw_multiplier",
            RUSSIAN_DOUBLED,
        ),
        BoxField(
            Parameter(
                "poker_premium",
                50,
                "Added to every poker.",
                minimum=0,
                maximum=MAX_POINTS,
                label="Poker premium",
            ),
            "premium",
            ("poker",),
        ),
        BoxField(
            Parameter(
                "poker_premium_doubled",
                False,
                "The premium is added after doubling, not doubled.",
                reading=True,
                label="Poker premium doubled",
            ),
            "premium_doubled",
            ("poker",),
        ),
        Fixed(
            Parameter(
                "strike_unmet_with_zero",
                True,
                "An unmet combination can be struck with 0 (no other way to end the game).",
                reading=True,
                label="Unmet upper box struck with 0",
            ),
            "strike_unmet_with_zero=False leaves a game without an end",
        ),
        FiveOfAKind(
            NO_JOKER_TEXT + " The poker box scores no fixed value, so only 'none' applies."
        ),
        Play(RUSSIAN_SERIES_TEXT),
    ),
)

# Per face (aces..sixes), the points of one notch then of two: face, face + 1.
CHUTE_NOTCHES: tuple[int, ...] = tuple(p for f in range(1, 7) for p in (f, f + 1))
CHUTE_UPPER = ("aces", "twos", "threes", "fours", "fives", "sixes")
CHUTE_5 = BuiltInGame(
    _document(
        [
            *(
                FaceBox(
                    id=CHUTE_UPPER[f - 1],
                    name=CHUTE_UPPER[f - 1].title(),
                    face=f,
                    scoring="notches",
                    notches=[f, f + 1],
                )
                for f in range(1, 7)
            ),
            OfAKindBox(
                id="three_of_a_kind",
                name="Three of a kind",
                scoring="fixed",
                fixed_points=4,
                of_a_kind_count=3,
            ),
            OfAKindBox(
                id="four_of_a_kind",
                name="Four of a kind",
                scoring="fixed",
                fixed_points=8,
                of_a_kind_count=4,
            ),
            FullHouseBox(id="full_house", name="Full house", scoring="fixed", fixed_points=6),
            _fixed_straight("small_straight", "Small straight", 7, SMALL_RUNS),
            SumOverBox(id="break", name="Break", scoring="fixed", fixed_points=8, total_over=20),
            _fixed_straight("large_straight", "Large straight", 9, LARGE_RUNS),
            _five_box("chute_5", "Chute-5", 20),
        ],
        id="chute-5",
        name="Chute-5",
        upper_bonus_rule=UpperBonusRule(threshold=21, points=10),
        five_of_a_kind=_no_joker("chute_5"),
    ),
    source="Chute-5 Rulebook, the game's leaflet (English, partly illegible)",
    summary="13 windows with slides; three of a face one notch, four two; bonus 10 at 21.",
    house_rules=(
        Notches(
            Parameter(
                "notches",
                CHUTE_NOTCHES,
                "Upper windows, per face (aces..sixes): points for one notch (three of the "
                "face) then two notches (four or five): face, face + 1. The legible examples "
                "(Twos 2/3, Aces 2 for two notches) fix this; the low-contrast Fives example "
                "contradicts them.",
                reading=True,
                minimum=0,
                maximum=MAX_POINTS,
                length=12,
                label="Notches",
            ),
            CHUTE_UPPER,
        ),
        UpperBonus("upper windows"),
        BoxField(
            Parameter(
                "break_over",
                20,
                "Break scores 8 for any five dice totalling more than this; no further "
                "condition (the text explains when it is useful, not a restriction).",
                reading=True,
                minimum=5,
                maximum=29,
                label="Break over",
            ),
            "total_over",
            ("break",),
        ),
        Fixed(
            Parameter(
                "printed_perfect_score",
                186,
                "The leaflet's 'perfect score 186' cannot be reached under any reading of the "
                "legible values; this ruleset's maximum is reported as max_score.",
                reading=True,
                settable=False,
                label="Printed perfect score",
            )
        ),
        FiveOfAKind(NO_JOKER_TEXT),
        Play(),
    ),
)

# Scandinavian Yatzy: every combination scores only the dice that form it (pairs, n of a
# kind) or the sum of all five (full house, chance); straights exactly 1-2-3-4-5 and
# 2-3-4-5-6.  The two readings are where published rules differ: most say two pairs and a
# full house need two different faces (the defaults), some tables accept four of a kind as
# two pairs or five of a kind as a full house.
YATZY = BuiltInGame(
    _document(
        [
            *_upper(TITLES, scoring="face_sum"),
            PairBox(id="one_pair", name="One pair", scoring="sum_formed"),
            TwoPairsBox(id="two_pairs", name="Two pairs", scoring="sum_formed"),
            OfAKindBox(
                id="three_of_a_kind",
                name="Three of a kind",
                scoring="sum_formed",
                of_a_kind_count=3,
            ),
            OfAKindBox(
                id="four_of_a_kind",
                name="Four of a kind",
                scoring="sum_formed",
                of_a_kind_count=4,
            ),
            StraightBox(
                id="small_straight",
                name="Small straight",
                scoring="sum_formed",
                runs=[[1, 2, 3, 4, 5]],
            ),
            StraightBox(
                id="large_straight",
                name="Large straight",
                scoring="sum_formed",
                runs=[[2, 3, 4, 5, 6]],
            ),
            FullHouseBox(id="full_house", name="Full house", scoring="sum_all"),
            ChanceBox(id="chance", name="Chance", scoring="sum_all"),
            _five_box("yatzy", "Yatzy", 50),
        ],
        id="yatzy",
        name="Yatzy (Scandinavian)",
        upper_bonus_rule=UpperBonusRule(threshold=63, points=50),
        five_of_a_kind=_no_joker("yatzy"),
    ),
    source="Yatzyregler, skandinaviska varianten (tarningsspel.se, Swedish); Outdoor "
    "yacht game manual, Vinga of Sweden (English)",
    summary="15 boxes with one pair, two pairs and only the matching dice counting; "
    "straights 1-5 for 15 and 2-6 for 20; upper bonus 50 at 63; no Joker.",
    house_rules=(
        UpperBonus("upper section"),
        BoxField(
            Parameter(
                "full_house_accepts_five_of_a_kind",
                False,
                "Five of a kind also scores as a full house (the sum). Published rules say "
                "'a set of three combined with a different pair', so it does not by default.",
                reading=True,
                label="Five of a kind as full house",
            ),
            "full_house_distinct",
            ("full_house",),
            negated=True,
        ),
        BoxField(
            Parameter(
                "two_pairs_accepts_four_of_a_kind",
                False,
                "Four (or five) of a kind also scores as two pairs (four dice). Published "
                "rules say 'two different pairs', so it does not by default.",
                reading=True,
                label="Four of a kind as two pairs",
            ),
            "two_pairs_distinct",
            ("two_pairs",),
            negated=True,
        ),
        FiveOfAKind(NO_JOKER_TEXT),
        Play(),
    ),
)

BUILT_IN: dict[str, BuiltInGame] = {
    game.document.id: game for game in (YAHTZEE, YARDZEE, DICE_POKER, RUSSIAN_POKER, CHUTE_5, YATZY)
}


# --- from a game and its house rules to the ruleset ------------------------------------------


def _parameter_of(violation: RuleViolation, doc: Document, values: Mapping[str, object]) -> str:
    """The parameter a refusal of the changed document is about, for `rules.<name>`."""
    field = violation.field.removeprefix("ruleset.")
    if field == "five_of_a_kind.box":
        five = doc.five_of_a_kind
        return "joker" if five is not None and five.joker is not Joker.NONE else "extra_bonus"
    named = {"upper_bonus_rule.threshold": "upper_bonus_threshold"}.get(field, field)
    return named if named in values or not values else next(iter(values))


def house_rules(game: str, **values: ParameterValue) -> Ruleset:
    """Built-in `game` with its parameters set to `values` (checked against their types and
    bounds already: see `variant`): the document changed, then decoded, checked and
    compiled as a custom `ruleset` is.  A refusal raises `RuleParameterError`."""
    built_in = BUILT_IN[game]
    doc = built_in.document
    owner = {name: rules for rules in built_in.house_rules for name in rules.names}
    # `order` first: `series_order` is held against the order in force.
    for name in sorted(values, key=lambda n: n != "order"):
        doc = owner[name].change(doc, name, values[name])
    try:
        doc = decode_document(msgspec.to_builtins(doc))
        parameters = tuple(p for rules in built_in.house_rules for p in rules.report(doc))
        ruleset = compile_document(doc, about=About(built_in.source, built_in.summary, parameters))
    except RuleViolation as refused:
        name = _parameter_of(refused, doc, values)
        # A contradiction between parameters is `invalid_rule`, whichever document field
        # the check names; a table too large keeps its own code.
        code = refused.code if refused.code == "ruleset_limit" else "invalid_rule"
        raise RuleParameterError(name, refused.reason, code) from None
    # A variant is summarized from its own rules, not by the built-in game's prose.
    base = SCORECARD_GAMES.get(game)
    if base is not None and [p.value for p in parameters] != [p.value for p in base.parameters]:
        ruleset = replace(ruleset, summary=house_summary(ruleset, base))
    return ruleset


SCORECARD_GAMES: dict[str, Ruleset] = {}
SCORECARD_GAMES.update((game, house_rules(game)) for game in BUILT_IN)


def variant(game: str, **rules: object) -> Ruleset:
    """Built-in `game` under a request's `rules`, each checked against its parameter."""
    built: GameInfo = SCORECARD_GAMES[game]
    return house_rules(game, **check_overrides(built, rules))
