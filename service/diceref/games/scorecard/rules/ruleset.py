"""The ruleset description of a scorecard game: the single source for scoring, validation,
the solver and `GET /games`.

A ruleset is frozen data.  Every reading of an unclear rulebook passage is a `Parameter`
that both changes the data the ruleset is built from and is reported to clients, so a
frontend can show which reading is in force and the tables' identity changes with it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from diceref.core.game import GameInfo, Parameter
from diceref.games.scorecard.rules.boxes import Box, Section


class Joker(StrEnum):
    """What a further five of a kind may fill once the five-of-a-kind box is used."""

    NONE = "none"  # no Joker: the throw scores like any other
    FORCED = "forced"  # matching upper box, else any lower box at full value, else 0 upper
    FREE_CHOICE = "free_choice"  # matching upper box, else any open box (upper 0, lower full)


def upper_bonus_parameters(bonus: UpperBonus, section: str) -> tuple[Parameter, ...]:
    """The bonus rule as parameters, read off the rule object so the two cannot drift."""
    compare = "more than" if bonus.strictly_greater else "at least"
    return (
        Parameter(
            "upper_bonus_threshold",
            bonus.threshold,
            f"The {section} total must be {compare} this for the bonus.",
        ),
        Parameter(
            "upper_bonus_strictly_greater",
            bonus.strictly_greater,
            "True: the total must exceed the threshold; False: reaching it is enough.",
        ),
        Parameter("upper_bonus_points", bonus.points, f"The {section} bonus."),
    )


def five_of_a_kind_parameters(
    rule: FiveOfAKindRule,
    joker_text: str,
    scratched_text: str,
    scratched_reading: bool,
    forced_text: str = "",
    forced_reading: bool = False,
) -> tuple[Parameter, ...]:
    params: tuple[Parameter, ...] = (
        Parameter(
            "extra_bonus",
            rule.extra_bonus,
            f"Per further five of a kind once '{rule.box}' holds its 50.",
        ),
        Parameter("joker", rule.joker.value, joker_text),
        Parameter(
            "joker_when_scratched", rule.joker_when_scratched, scratched_text, scratched_reading
        ),
    )
    if forced_text:
        params += (
            Parameter(
                "matching_upper_forced", rule.matching_upper_forced, forced_text, forced_reading
            ),
        )
    return params


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


@dataclass(frozen=True)
class Ruleset(GameInfo):
    boxes: tuple[Box, ...] = ()
    upper_bonus: UpperBonus = UpperBonus(63, 35)
    five_of_a_kind: FiveOfAKindRule | None = None
    series_order: bool = False  # lower boxes open only once every upper box is filled
    notes: tuple[str, ...] = field(default=(), compare=False)

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

    def box(self, box_id: str) -> Box:
        return self.boxes[self.box_index[box_id]]

    def canonical_description(self) -> dict[str, Any]:
        """Everything that changes a score, as plain JSON data (names and prose left out)."""
        return {
            "boxes": [
                {k: v for k, v in asdict(b).items() if k not in ("name", "how")} for b in self.boxes
            ],
            "upper_bonus": asdict(self.upper_bonus),
            "five_of_a_kind": None if self.five_of_a_kind is None else asdict(self.five_of_a_kind),
            "series_order": self.series_order,
        }

    @cached_property
    def rules_hash(self) -> str:
        """Identity of the scoring rules: tables solved for one hash serve only that hash."""
        blob = json.dumps(self.canonical_description(), sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]
