"""Yardkle (Farkle with six dice) described once, as frozen data.

The scoring table is a tuple of `Combination`s built from the ruleset's numbers, and every
reading of the rulebook is a field here.  Scoring, turn and game adjudication, the solver and
`GET /games/yardkle` all read this one object, so a changed reading changes everything at
once (and, the object being hashable, keys its own solved table).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property, reduce
from math import gcd
from typing import Any

from diceref.core.dice import FACES
from diceref.core.game import GameInfo, Parameter, RuleParameterError

# Bounds of a house rule's numbers: any points up to 10,000 a combination, a target up to
# a million (a Yardkle total is at most 10,000,000 in a request).
MAX_POINTS = 10_000
MAX_TARGET = 1_000_000
# What a process derives from a ruleset (its valuations, throw options, tables, race) is kept
# for at most this many rulesets, least recently used first out: any number of house rules
# can be sent, and a flood of them must not grow the process without end.
RULESETS_KEPT = 256
POINTS_PARAMETERS = (
    "single_one",
    "single_five",
    "three_ones",
    "three_of_a_kind_per_pip",
    "four_of_a_kind",
    "five_of_a_kind",
    "six_of_a_kind",
    "straight",
    "three_pairs",
    "four_of_a_kind_with_pair",
    "two_triplets",
)

# Readings with no coherent other value: reported (`settable: false`) so a frontend can show
# them, and why no table plays them otherwise is in the description.  A request cannot set
# them (`not_settable`), rather than have another value ignored.
# name: (value, description, label)
FIXED_READINGS: dict[str, tuple[bool | str, str, str]] = {
    "best_valuation": (
        True,
        "Dice set aside together are scored at their best split into combinations "
        "(1-1-1-5-5-5 is two triplets, 2,500, not 300 + 500; six 1s are 3,000). The "
        "text lists combinations without saying how overlapping ones count. Not settable: "
        "a player always claims the best split, and no table names a worse one to use "
        "instead.",
        "Best valuation",
    ),
    "set_aside_scores_completely": (
        True,
        "Every die set aside must belong to a scoring combination of that throw: a "
        "non-scoring die cannot be put aside to throw fewer dice. Not settable: with "
        "non-scoring dice allowed, a player would set aside all six after any scoring "
        "throw (one 5 and five junk dice) and throw six again, so hot dice and the "
        "Yardkle risk would mean nothing; no Farkle table plays that.",
        "Every set-aside die scores",
    ),
    "turn_order": (
        "players_as_listed",
        "The first listed player starts; play passes to the next listed ('to the left'). "
        "Not settable: how the starter is chosen (highest throw, youngest) is expressed by "
        "listing the players in that order; within a game no table plays another order.",
        "Turn order",
    ),
}

LAST_TURNS = ("every_other_player_once", "complete_the_round", "none")
LAST_TURNS_TEXT = {
    "every_other_player_once": "RULES.md: every other player has exactly one last turn, in "
    "turn order; passing the leader does not start another round",
    "complete_the_round": "only the players after him in the listed order throw, so every "
    "player has had as many turns",
    "none": "the game ends at once: first to the target wins",
}
"""What happens once a player reaches the target (the `last_turns` choices):
every other player has one last turn; only the players after him in the round (so all
have had as many turns); or the game ends at once (first to the target wins)."""


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
    """The ruleset; the defaults are the readings in force (docs/rules/yardkle.md).

    A combination worth 0 points is not a combination in this game (a house rule without
    three pairs, say): it leaves the scoring table."""

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
    entry_minimum: int = 500
    target: int = 10_000
    target_inclusive: bool = True
    hot_dice_optional: bool = True  # False: hot dice forced, all dice must be thrown again
    last_turns: str = "every_other_player_once"
    ties_share_win: bool = True  # False: a tie goes to who reached that total first

    def __post_init__(self) -> None:
        """Refuse what no game can be played with, naming the parameter (a request's house
        rules come back as a 422 naming `rules.<name>`)."""
        if not 1 <= self.dice <= 6:
            raise RuleParameterError(
                "dice", "Yardkle is played with one to six dice", "out_of_range"
            )
        for name in ("single_one", "single_five"):
            if getattr(self, name) <= 0:
                raise RuleParameterError(
                    name,
                    "single 1s and 5s must score: every Farkle table scores them, and a "
                    "game without them is not one the referee and the coach know",
                    "invalid_rule",
                )
        for name in POINTS_PARAMETERS:
            if getattr(self, name) < 0:
                raise RuleParameterError(name, "points cannot be negative", "out_of_range")
        if self.entry_minimum < 0:
            raise RuleParameterError("entry_minimum", "at least 0 (0: none)", "out_of_range")
        if self.target <= 0:
            raise RuleParameterError("target", "the target is above 0", "out_of_range")
        if self.last_turns not in LAST_TURNS:
            raise RuleParameterError(
                "last_turns", f"one of {', '.join(LAST_TURNS)}", "unknown_choice"
            )
        if not self.hot_dice_optional and self.dice == 1:
            raise RuleParameterError(
                "hot_dice_optional",
                "with one die every scoring throw is hot dice: forced to throw again, no "
                "turn could ever be banked",
                "invalid_rule",
            )

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
        return tuple(c for c in table if c.size <= self.dice and c.points > 0)

    @cached_property
    def unit(self) -> int:
        """Every score is a multiple of this (50 by default): the solver's step in points."""
        return reduce(gcd, (c.points for c in self.combinations))

    @cached_property
    def parameters(self) -> tuple[Parameter, ...]:
        def points(name: str, text: str, maximum: int = MAX_POINTS, *, label: str) -> Parameter:
            least = 1 if name in ("single_one", "single_five") else 0
            return Parameter(
                name, getattr(self, name), text, minimum=least, maximum=maximum, label=label
            )

        fixed = tuple(
            Parameter(name, value, text, reading=True, settable=False, label=label)
            for name, (value, text, label) in FIXED_READINGS.items()
        )
        return (
            Parameter(
                "dice",
                self.dice,
                "Dice thrown at the start of a turn and after hot dice.",
                minimum=1,
                maximum=6,
                label="Dice per turn",
            ),
            points("single_one", "A single 1 (it must score).", label="Single 1"),
            points("single_five", "A single 5 (it must score).", label="Single 5"),
            points(
                "three_ones",
                "Three 1s. The Farkle Facts table gives 300; many tables use 1,000.",
                label="Three 1s",
            ),
            points(
                "three_of_a_kind_per_pip",
                "Three 2s..6s score the face times this (0: they do not score).",
                MAX_POINTS // 10,
                label="Three of a kind, per pip",
            ),
            points(
                "four_of_a_kind", "Four of any face (0: not a combination).", label="Four of a kind"
            ),
            points(
                "five_of_a_kind", "Five of any face (0: not a combination).", label="Five of a kind"
            ),
            points(
                "six_of_a_kind", "Six of any face (0: not a combination).", label="Six of a kind"
            ),
            points(
                "straight", "1-2-3-4-5-6 in one throw (0: not a combination).", label="Straight"
            ),
            points(
                "three_pairs",
                "Three pairs in one throw (0: not a combination).",
                label="Three pairs",
            ),
            points(
                "four_of_a_kind_with_pair",
                "Four of one face and a pair of another in one throw (0: not a combination).",
                label="Four of a kind with a pair",
            ),
            points(
                "two_triplets",
                "Two triplets in one throw (0: not a combination).",
                label="Two triplets",
            ),
            Parameter(
                "groups_distinct_faces",
                self.groups_distinct_faces,
                "The groups of three pairs, two triplets and four with a pair show different "
                "faces: six of a kind is not two triplets or three pairs, four of a kind with "
                "a pair is not three pairs. Four with a pair is listed on its own at the same "
                "1,500, and six of a kind outscores both, so no score changes with this.",
                reading=True,
                label="Groups of distinct faces",
            ),
            Parameter(
                "entry_minimum",
                self.entry_minimum,
                "Turn points needed to get on the pad the first time (0: none); reaching it "
                "exactly is enough ('your first score of 500 points or more'). Banking less "
                "before that is not a legal end of turn.",
                minimum=0,
                maximum=MAX_POINTS,
                label="Entry minimum",
            ),
            Parameter(
                "target",
                self.target,
                "Total that starts the last turns.",
                minimum=1,
                maximum=MAX_TARGET,
                label="Target score",
            ),
            Parameter(
                "target_inclusive",
                self.target_inclusive,
                "Banking exactly the target starts the last turns: 'over 10,000' is read as "
                "'10,000 or more', as most published tables do.",
                reading=True,
                label="Target reached at equal",
            ),
            Parameter(
                "hot_dice_optional",
                self.hot_dice_optional,
                "true: with all dice set aside (hot dice) the player may throw all of them "
                "again or bank ('you can roll them all again'). false: hot dice forced, "
                "the player must throw them all again (a common house rule: 'you must roll "
                "hot dice'), so banking right after hot dice is refused and the coach "
                "values that state as a throw.",
                reading=True,
                label="Hot dice optional",
            ),
            Parameter(
                "last_turns",
                self.last_turns,
                "Once a player reaches the target: "
                + "; ".join(f"{c} ({LAST_TURNS_TEXT[c]})" for c in LAST_TURNS)
                + ".",
                reading=True,
                choices=LAST_TURNS,
                label="Last turns",
                choice_descriptions=tuple(LAST_TURNS_TEXT[c] for c in LAST_TURNS),
            ),
            Parameter(
                "ties_share_win",
                self.ties_share_win,
                "true: equal highest totals share the win (RULES.md). false: a tie goes "
                "to the player who reached that total first, so a last turn must pass the "
                "leader, not equal him ('beat the high score'); the standings rank tied "
                "totals the same way.",
                reading=True,
                label="Ties share the win",
            ),
            *fixed,
        )

    @cached_property
    def rules_hash(self) -> str:
        """Identity of the ruleset: every field, so any changed reading gets a new table
        (and a new `ruleset_id`).  Fields that became settable later count only when set
        away from their default, so the ids of the rulesets that existed before do not
        change."""
        fields = dataclasses.asdict(self)
        defaults = {f.name: f.default for f in dataclasses.fields(self)}
        for name in HASHED_WHEN_SET:
            if fields[name] == defaults[name]:
                del fields[name]
        blob = json.dumps(fields, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def reaches_target(self, total: int) -> bool:
        return total >= self.target if self.target_inclusive else total > self.target


HASHED_WHEN_SET = ("hot_dice_optional", "last_turns", "ties_share_win")
DEFAULT_RULES = YardkleRules()


@dataclass(frozen=True)
class YardkleGame(GameInfo):
    """Yardkle as `GET /games` lists it, carrying the rules it was built from."""

    rules: YardkleRules = field(default=DEFAULT_RULES, compare=False)

    @property
    def ruleset_id(self) -> str:
        """The rules' content hash, which also keys the coach's table."""
        return self.rules.rules_hash


def game_info(rules: YardkleRules = DEFAULT_RULES) -> YardkleGame:
    """Yardkle as `GET /games` lists it."""
    entry = (
        f"{rules.entry_minimum:,} in one turn to get on the pad"
        if rules.entry_minimum
        else "no entry minimum"
    )
    hot = "may be thrown again" if rules.hot_dice_optional else "must be thrown again"
    ending = {
        "every_other_player_once": f"{rules.target:,} starts one last turn for every other "
        "player; highest total wins",
        "complete_the_round": f"{rules.target:,} ends the game once the round is complete; "
        "highest total wins",
        "none": f"the first to {rules.target:,} wins",
    }[rules.last_turns]
    ties = "ties share" if rules.ties_share_win else "a tie goes to who reached it first"
    if not rules.target_inclusive:
        ending = ending.replace(f"{rules.target:,}", f"more than {rules.target:,}", 1)
    return YardkleGame(
        id="yardkle",
        name="Yardkle (Farkle)",
        family="yardkle",
        dice=rules.dice,
        throws_per_turn=0,
        min_players=1,
        max_players=None,
        source="Yardkle, in the Yardzee and Yardkle rulebook (English); the full scoring "
        "table from the Farkle Facts sheet (English)",
        summary=f"{rules.dice} dice; after each throw set aside scoring dice (1s, 5s, three or "
        "more of a kind, straight, three pairs, four with a pair, two triplets), then bank "
        "or throw the rest; nothing to set aside is a Yardkle and loses the turn's points; "
        f"all dice set aside (hot dice) {hot}; {entry}; {ending}; {ties}{_house_points(rules)}.",
        parameters=rules.parameters,
        rules=rules,
    )


def _house_points(rules: YardkleRules) -> str:
    """The combinations whose points differ from the built-in table's (or that no longer
    score; those larger than the dice go without saying), as a clause of the summary;
    empty under the built-in points."""
    if rules.combinations == DEFAULT_RULES.combinations:
        return ""
    now = {c.id: c for c in rules.combinations}
    changed = [
        f"{c.name} {now[c.id].points:,}" if c.id in now else f"{c.name} not scored"
        for c in DEFAULT_RULES.combinations
        if c.size <= rules.dice and (c.id not in now or now[c.id].points != c.points)
    ]
    return f"; house points: {', '.join(changed)}" if changed else ""


def yardkle(**values: Any) -> YardkleGame:
    """The game under a request's checked `rules` (the built-in one for none): the readings
    with one coherent value are not settable (refused before this is called); the rest go
    to `YardkleRules`, which refuses what cannot be played."""
    rules = YardkleRules(**values)
    return GAME_INFO if rules == DEFAULT_RULES else game_info(rules)


GAME_INFO = game_info()
