"""The ruleset description of a scorecard game: the single source for scoring, validation,
the solver and `GET /games`.

A ruleset is frozen data.  Every reading of an unclear rulebook passage is a `Parameter`
that both changes the data the ruleset is built from and is reported to clients, so a
frontend can show which reading is in force and the tables' identity changes with it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

import msgspec

from diceref.core.game import GameInfo, Parameter
from diceref.games.scorecard.rules.boxes import Box, Section


class Order(StrEnum):
    """Which open boxes a turn may fill."""

    FREE = "free"  # any open box
    SERIES = "series"  # upper boxes first (any order among them), then the lower ones
    FORCED = "forced"  # only the first open box in scorecard order (Swedish "tvångsyatzy")


ORDER_TEXT = {
    Order.FREE: "Any open box may be filled on any turn.",
    Order.SERIES: "Upper boxes first, in any order among them; the lower boxes open only once "
    "every upper box is filled.",
    Order.FORCED: "Every box in scorecard order: the only legal box is the first open one "
    "(Swedish 'tvångsyatzy').",
}

MIN_THROWS, MAX_THROWS = 1, 4
# Bounds on a request's point values: far above any published game, low enough that every
# total stays an exact integer in the solver's float64 tables.
MAX_POINTS = 10_000
MAX_BONUS_THRESHOLD = 1_000
DEFAULT_THROWS = 3  # the throws every table keyed before `throws_per_turn` became a rule


class Joker(StrEnum):
    """What a further five of a kind may fill once the five-of-a-kind box is used."""

    NONE = "none"  # no Joker: the throw scores like any other
    FORCED = "forced"  # matching upper box, else any lower box at full value, else 0 upper
    FREE_CHOICE = "free_choice"  # matching upper box, else any open box (upper 0, lower full)


def joker_texts(box: str) -> dict[Joker, str]:
    """What each Joker choice means, for a game whose five-of-a-kind box is `box`."""
    after = f"Once the '{box}' box is filled, a further five of a kind"
    return {
        Joker.NONE: "No Joker: a further five of a kind scores like any other throw.",
        Joker.FORCED: f"{after} is a Joker: an open lower box at full value, and only when no "
        "lower box is open an upper box (scoring what the dice make there, 0 but in the "
        "matching one); the matching upper box first while matching_upper_forced holds.",
        Joker.FREE_CHOICE: f"{after} is a Joker for any open box: lower boxes at full value, "
        "upper boxes scoring what the dice make there; the matching upper box first while "
        "matching_upper_forced holds.",
    }


def upper_bonus_parameters(bonus: UpperBonus, section: str) -> tuple[Parameter, ...]:
    """The bonus rule as parameters, read off the rule object so the two cannot drift."""
    compare = "more than" if bonus.strictly_greater else "at least"
    return (
        Parameter(
            "upper_bonus_threshold",
            bonus.threshold,
            f"The {section} total must be {compare} this for the bonus.",
            minimum=0,
            maximum=MAX_BONUS_THRESHOLD,
            label="Upper bonus threshold",
        ),
        Parameter(
            "upper_bonus_strictly_greater",
            bonus.strictly_greater,
            "True: the total must exceed the threshold; False: reaching it is enough.",
            label="Bonus only above the threshold",
        ),
        Parameter(
            "upper_bonus_points",
            bonus.points,
            f"The {section} bonus.",
            minimum=0,
            maximum=MAX_POINTS,
            label="Upper bonus points",
        ),
    )


MATCHING_UPPER_TEXT = (
    "While the matching upper box is open a Joker roll must go there (True); False: it may "
    "go in any open box at natural value, the Joker values applying once that box is filled "
    "(Verhoeff's free-choice convention)."
)


def five_of_a_kind_parameters(
    rule: FiveOfAKindRule,
    joker_text: str,
    scratched_text: str,
    scratched_reading: bool,
    forced_text: str = MATCHING_UPPER_TEXT,
    forced_reading: bool = False,
) -> tuple[Parameter, ...]:
    """The five-of-a-kind rule as parameters (a game without one reports it switched off:
    see `games.py`, which passes a rule with `Joker.NONE` and no extra bonus)."""
    return (
        Parameter(
            "extra_bonus",
            rule.extra_bonus,
            f"Per further five of a kind once '{rule.box}' holds its top value (0: none).",
            minimum=0,
            maximum=MAX_POINTS,
            label="Extra five-of-a-kind bonus",
        ),
        Parameter(
            "joker",
            rule.joker.value,
            joker_text,
            choices=tuple(j.value for j in Joker),
            label="Joker rule",
            choice_descriptions=tuple(joker_texts(rule.box).values()),
        ),
        Parameter(
            "joker_when_scratched",
            rule.joker_when_scratched,
            scratched_text,
            scratched_reading,
            label="Joker after a scratched five of a kind",
        ),
        Parameter(
            "matching_upper_forced",
            rule.matching_upper_forced,
            forced_text,
            forced_reading,
            label="Matching upper box first",
        ),
    )


def play_parameters(
    throws_per_turn: int, order: Order, order_text: str, order_reading: bool = False
) -> tuple[Parameter, ...]:
    """How a turn goes: throws and which boxes it may fill."""
    return (
        Parameter(
            "throws_per_turn",
            throws_per_turn,
            f"Throws per turn, the first included ({MIN_THROWS} to {MAX_THROWS}).",
            minimum=MIN_THROWS,
            maximum=MAX_THROWS,
            label="Throws per turn",
        ),
        Parameter(
            "order",
            order.value,
            order_text,
            order_reading,
            choices=tuple(o.value for o in Order),
            label="Box order",
            choice_descriptions=tuple(ORDER_TEXT[o] for o in Order),
        ),
    )


# Box fields added after tables were first keyed, with the value every earlier box had:
# left out of the canonical description at that value (see `canonical_description`).
LATE_BOX_DEFAULTS: dict[str, object] = {"full_house_distinct": True}


@dataclass(frozen=True)
class UpperBonus:
    threshold: int
    points: int
    strictly_greater: bool = False

    def reached(self, subtotal: int) -> bool:
        if self.strictly_greater:
            return subtotal > self.threshold
        return subtotal >= self.threshold

    @property
    def target(self) -> int:
        """Smallest subtotal that earns the bonus."""
        return self.threshold + 1 if self.strictly_greater else self.threshold


@dataclass(frozen=True)
class FiveOfAKindRule:
    """Extra five-of-a-kind bonus and Joker, keyed to the box that holds the first one."""

    box: str
    extra_bonus: int
    joker: Joker
    joker_when_scratched: bool  # does a 0 in the box still trigger the Joker?
    # While the matching upper box is open: must the roll go there (True), or may it go in
    # any open box at natural value, the Joker values only once that box is filled (False)?
    matching_upper_forced: bool = True


def without_inert_readings(rule: FiveOfAKindRule) -> FiveOfAKindRule:
    """The rule with the readings that cannot change a score set to one value: with no
    Joker, `joker_when_scratched` and `matching_upper_forced` (both say where a Joker
    goes) are inert, so they take the values a `ruleset` document that leaves them out has
    (false and true).  A content hash of the effective rules (`ruleset_id`, the tables'
    key) then gives rules that score alike one id and one table, however they were
    written."""
    if rule.joker is not Joker.NONE:
        return rule
    return replace(rule, joker_when_scratched=False, matching_upper_forced=True)


def _flat(rule: Box | UpperBonus | FiveOfAKindRule) -> dict[str, Any]:
    """A rule's fields by name: `dataclasses.asdict` without its deep copy (these fields
    are flat: strings, numbers, enums and tuples of numbers), which a flood of distinct
    house rules would pay for on every ruleset it sends."""
    return {f.name: getattr(rule, f.name) for f in fields(rule)}


@dataclass(frozen=True)
class Ruleset(GameInfo):
    boxes: tuple[Box, ...] = ()
    upper_bonus: UpperBonus = UpperBonus(63, 35)
    five_of_a_kind: FiveOfAKindRule | None = None
    order: Order = Order.FREE
    notes: tuple[str, ...] = field(default=(), compare=False)
    # The document the ruleset was compiled from (a `document.RulesetDocument`, which
    # imports this module): what `GET /games/{game}` shows of a box.
    document: msgspec.Struct | None = field(default=None, compare=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        """The fields, without the cached properties: a table's solve is pickled for the
        solver pool while request threads may be filling those caches, and pickling the
        instance's `__dict__` as it grows fails ("dictionary changed size during
        iteration").  The pool's copy works its caches out again."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @cached_property
    def box_index(self) -> dict[str, int]:
        return {b.id: i for i, b in enumerate(self.boxes)}

    @cached_property
    def box_ids(self) -> tuple[str, ...]:
        return tuple(b.id for b in self.boxes)

    @cached_property
    def upper_indices(self) -> tuple[int, ...]:
        return tuple(i for i, b in enumerate(self.boxes) if b.section is Section.UPPER)

    @cached_property
    def lower_indices(self) -> tuple[int, ...]:
        return tuple(i for i, b in enumerate(self.boxes) if b.section is Section.LOWER)

    @cached_property
    def upper_set(self) -> frozenset[int]:
        return frozenset(self.upper_indices)

    @cached_property
    def lower_set(self) -> frozenset[int]:
        return frozenset(self.lower_indices)

    @cached_property
    def upper_box_of_face(self) -> dict[int, int]:
        """Face -> index of the upper box that counts it (where a Joker's dice may belong)."""
        return {self.boxes[i].face: i for i in self.upper_indices}

    @cached_property
    def five_box_index(self) -> int | None:
        return None if self.five_of_a_kind is None else self.box_index[self.five_of_a_kind.box]

    @cached_property
    def five_box_top(self) -> int:
        """Points the five-of-a-kind box records for a real one (50): the bonus condition."""
        if self.five_box_index is None:
            return 0
        return self.boxes[self.five_box_index].fixed

    @property
    def series_order(self) -> bool:
        """Lower boxes open only once every upper box is filled (`order` is `series`)."""
        return self.order is Order.SERIES

    @cached_property
    def box_name(self) -> dict[str, str]:
        """Box id -> display name."""
        return {b.id: b.name for b in self.boxes}

    def box(self, box_id: str) -> Box:
        return self.boxes[self.box_index[box_id]]

    def canonical_description(self) -> dict[str, Any]:
        """Everything that changes a score, as plain JSON data (names and prose left out).

        Rules added after the first tables were keyed (`LATE_BOX_DEFAULTS`, the throws per
        turn, forced order) appear only when they differ from what every table before them
        assumed, so the built-in games keep their hashes and their solved tables.
        """
        out: dict[str, Any] = {
            "boxes": [
                {
                    k: v
                    for k, v in _flat(b).items()
                    if k not in ("name", "how")
                    and not (k in LATE_BOX_DEFAULTS and v == LATE_BOX_DEFAULTS[k])
                }
                for b in self.boxes
            ],
            "upper_bonus": _flat(self.upper_bonus),
            "five_of_a_kind": None if self.five_of_a_kind is None else _flat(self.five_of_a_kind),
        }
        if self.order is Order.FORCED:
            out["order"] = self.order.value
        else:  # the key used before `order` existed: free and series keep their hashes
            out["series_order"] = self.order is Order.SERIES
        if self.throws_per_turn != DEFAULT_THROWS:
            out["throws_per_turn"] = self.throws_per_turn
        return out

    @property
    def ruleset_id(self) -> str:
        """The scoring rules' hash: equal for any two descriptions that score alike (a
        built-in game sent back as a custom `ruleset` included), and the tables' key."""
        return self.rules_hash

    @cached_property
    def rules_hash(self) -> str:
        """Identity of the scoring rules: tables solved for one hash serve only that hash."""
        blob = json.dumps(self.canonical_description(), sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]
