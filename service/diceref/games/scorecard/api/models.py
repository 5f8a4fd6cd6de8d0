"""Request and response pieces shared by several routes (msgspec Structs).

Constraints live in the types (`Meta`) so that they are enforced on decode and published in
the OpenAPI document from one place.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import msgspec
from msgspec import Meta

from diceref.games.scorecard.rules.games import SCORECARD_GAMES

Die = Annotated[int, Meta(ge=1, le=6, description="A die's face, 1 to 6")]
FiveDice = Annotated[
    list[Die], Meta(min_length=5, max_length=5, description="Five dice, 1 to 6 each")
]
ThrowNumber = Annotated[
    int,
    Meta(ge=1, le=3, description="Which throw of the turn produced the dice (1, 2 or 3)"),
]

# Built from the ruleset catalogue, so a new scorecard game is accepted by describing it.
ScorecardGame = Enum(  # type: ignore[misc]
    "ScorecardGame", {gid.replace("-", "_").upper(): gid for gid in SCORECARD_GAMES}, type=str
)


class ScorecardIn(msgspec.Struct, forbid_unknown_fields=True):
    """The boxes filled so far and the extra five-of-a-kind bonus already earned."""

    boxes: dict[str, int] = {}
    extra_bonus: Annotated[int, Meta(ge=0)] = 0


class OptionOut(msgspec.Struct):
    box: str
    points: int
    bonus: int
