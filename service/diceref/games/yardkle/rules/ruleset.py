"""Yardkle (Farkle with six dice) described once, as frozen data.

The scoring table is a tuple of `Combination`s built from the ruleset's numbers, and every
reading of the rulebook is a field here.  Scoring, turn and game adjudication, the solver and
`GET /games/yardkle` all read this one object, so a changed reading changes everything at
once (and, the object being hashable, keys its own solved table).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, reduce
from math import gcd

from diceref.core.dice import FACES
from diceref.core.game import GameInfo, Parameter


@dataclass(frozen=True)
class Combination:
    """A scoring group: same-face groups of the given sizes, worth fixed points.

    `groups` lists the sizes of the groups of equal faces (three pairs: (2, 2, 2); a straight:
    six groups of one, which with `distinct_faces` means one die of each face).  `faces`
    restricts which faces may form it (a single die scores only as a 1 or a 5).
    """

    id: str
    name: str
    groups: tuple[int, ...]
    points: int
    faces: tuple[int, ...] = FACES
    distinct_faces: bool = True

    @property
    def size(self) -> int:
        return sum(self.groups)


@dataclass(frozen=True)
class YardkleRules:
    """The ruleset; the defaults are the readings in force (RULES.md, section `yardkle`)."""

    dice: int = 6
    single_one: int = 100
    single_five: int = 50
    three_ones: int = 300
    three_of_a_kind_per_pip: int = 100  # three 2s..6s score face x this
    four_of_a_kind: int = 1000
    five_of_a_kind: int = 2000
    six_of_a_kind: int = 3000
    straight: int = 1500
    three_pairs: int = 1500
    four_of_a_kind_with_pair: int = 1500
    two_triplets: int = 2500
    groups_distinct_faces: bool = True
    entry_threshold: int = 500
    target: int = 10_000
    target_inclusive: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.dice <= 6:
            raise ValueError("Yardkle is played with one to six dice")
        if min(self.single_one, self.single_five) <= 0:
            raise ValueError("single 1s and 5s must score, or a turn could stall")
        if self.entry_threshold < 0 or self.target <= 0:
            raise ValueError("the entry threshold is at least 0 and the target above 0")

    @cached_property
    def combinations(self) -> tuple[Combination, ...]:
        """The scoring table as data, in the order the rulebook lists it."""
        distinct = self.groups_distinct_faces
        table = [
            Combination("single_1", "Single 1", (1,), self.single_one, faces=(1,)),
            Combination("single_5", "Single 5", (1,), self.single_five, faces=(5,)),
            Combination("three_1s", "Three 1s", (3,), self.three_ones, faces=(1,)),
            *(
                Combination(
                    f"three_{f}s", f"Three {f}s", (3,), f * self.three_of_a_kind_per_pip, (f,)
                )
                for f in FACES[1:]
            ),
            Combination("four_of_a_kind", "Four of a kind", (4,), self.four_of_a_kind),
            Combination("five_of_a_kind", "Five of a kind", (5,), self.five_of_a_kind),
            Combination("six_of_a_kind", "Six of a kind", (6,), self.six_of_a_kind),
            Combination("straight", "Straight 1-6", (1,) * 6, self.straight),
            Combination("three_pairs", "Three pairs", (2, 2, 2), self.three_pairs, FACES, distinct),
            Combination(
                "four_of_a_kind_with_pair",
                "Four of a kind with a pair",
                (4, 2),
                self.four_of_a_kind_with_pair,
                FACES,
                distinct,
            ),
            Combination("two_triplets", "Two triplets", (3, 3), self.two_triplets, FACES, distinct),
        ]
        return tuple(c for c in table if c.size <= self.dice)

    @cached_property
    def unit(self) -> int:
        """Every score is a multiple of this (50 by default): the solver's step in points."""
        return reduce(gcd, (c.points for c in self.combinations))

    @cached_property
    def parameters(self) -> tuple[Parameter, ...]:
        return (
            Parameter("dice", self.dice, "Dice thrown at the start of a turn and after hot dice."),
            Parameter("single_one", self.single_one, "A single 1."),
            Parameter("single_five", self.single_five, "A single 5."),
            Parameter(
                "three_ones",
                self.three_ones,
                "Three 1s. The Farkle Facts table gives 300; many tables use 1,000.",
            ),
            Parameter(
                "three_of_a_kind_per_pip",
                self.three_of_a_kind_per_pip,
                "Three 2s..6s score the face times this.",
            ),
            Parameter("four_of_a_kind", self.four_of_a_kind, "Four of any face."),
            Parameter("five_of_a_kind", self.five_of_a_kind, "Five of any face."),
            Parameter("six_of_a_kind", self.six_of_a_kind, "Six of any face."),
            Parameter("straight", self.straight, "1-2-3-4-5-6 in one throw."),
            Parameter("three_pairs", self.three_pairs, "Three pairs in one throw."),
            Parameter(
                "four_of_a_kind_with_pair",
                self.four_of_a_kind_with_pair,
                "Four of one face and a pair of another in one throw.",
            ),
            Parameter("two_triplets", self.two_triplets, "Two triplets in one throw."),
            Parameter(
                "groups_distinct_faces",
                self.groups_distinct_faces,
                "The groups of three pairs, two triplets and four with a pair show different "
                "faces: six of a kind is not two triplets or three pairs, four of a kind with "
                "a pair is not three pairs. Four with a pair is listed on its own at the same "
                "1,500, and six of a kind outscores both, so no score changes with this.",
                reading=True,
            ),
            Parameter(
                "best_valuation",
                True,
                "Dice set aside together are scored at their best split into combinations "
                "(1-1-1-5-5-5 is two triplets, 2,500, not 300 + 500; six 1s are 3,000). The "
                "text lists combinations without saying how overlapping ones count.",
                reading=True,
            ),
            Parameter(
                "set_aside_scores_completely",
                True,
                "Every die set aside must belong to a scoring combination of that throw: a "
                "non-scoring die cannot be put aside to throw fewer dice.",
                reading=True,
            ),
            Parameter(
                "entry_threshold",
                self.entry_threshold,
                "Turn points needed to get on the pad the first time; reaching it exactly is "
                "enough ('your first score of 500 points or more'). Banking less before that "
                "is not a legal end of turn.",
            ),
            Parameter(
                "hot_dice_optional",
                True,
                "With all dice set aside the player may throw all of them again or bank "
                "('you can roll them all again').",
                reading=True,
            ),
            Parameter("target", self.target, "Total that starts the last turns."),
            Parameter(
                "target_inclusive",
                self.target_inclusive,
                "Banking exactly the target starts the last turns: 'over 10,000' is read as "
                "'10,000 or more', as RULES.md and most published tables do.",
                reading=True,
            ),
            Parameter(
                "last_turns",
                "every_other_player_once",
                "Once a player reaches the target every other player has exactly one last "
                "turn, in turn order; passing the leader does not start another round.",
                reading=True,
            ),
            Parameter(
                "turn_order",
                "players_as_listed",
                "The first listed player starts; play passes to the next listed ('to the left').",
                reading=True,
            ),
            Parameter(
                "ties_share_win",
                True,
                "Equal highest totals share the win.",
                reading=True,
            ),
        )

    def reaches_target(self, total: int) -> bool:
        return total >= self.target if self.target_inclusive else total > self.target


DEFAULT_RULES = YardkleRules()


def game_info(rules: YardkleRules = DEFAULT_RULES) -> GameInfo:
    """Yardkle as `GET /games` lists it."""
    return GameInfo(
        id="yardkle",
        name="Yardkle (Farkle)",
        family="farkle",
        dice=rules.dice,
        throws_per_turn=0,
        min_players=1,
        max_players=None,
        source="rulebooks/004 (Yardkle); full table from the Farkle Facts sheet (RULES.md)",
        summary=f"{rules.dice} dice; after each throw set aside scoring dice (1s, 5s, three or "
        "more of a kind, straight, three pairs, four with a pair, two triplets), then bank "
        "or throw the rest; nothing to set aside is a Yardkle and loses the turn's points; "
        f"all dice set aside (hot dice) may be thrown again; {rules.entry_threshold} in one "
        f"turn to get on the pad; {rules.target:,} starts one last turn for every other "
        "player; highest total wins, ties share.",
        parameters=rules.parameters,
    )
