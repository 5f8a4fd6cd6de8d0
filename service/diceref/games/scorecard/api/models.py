"""The scorecard operations' requests and answers (msgspec Structs).

Constraints live in the types (`Meta`) so that they are enforced on decode and published in
the OpenAPI document from one place.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import msgspec
from msgspec import Meta

from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import BlockReason
from diceref.http.fields import BoxId, Die, PlayerName, Rules, ThrowNumber

FiveDice = Annotated[
    list[Die], Meta(min_length=5, max_length=5, description="Five dice, 1 to 6 each")
]

# Built from the ruleset catalogue, so a new scorecard game is accepted by describing it.
ScorecardGame = Enum(  # type: ignore[misc]
    "ScorecardGame", {gid.replace("-", "_").upper(): gid for gid in SCORECARD_GAMES}, type=str
)


class ScorecardIn(msgspec.Struct, forbid_unknown_fields=True):
    """The boxes filled so far and the extra five-of-a-kind bonus already earned."""

    filled: dict[BoxId, int] = {}
    extra_bonus: Annotated[int, Meta(ge=0)] = 0


class OptionOut(msgspec.Struct):
    box: str
    name: str
    points: int
    bonus: int
    upper_bonus: int
    extra_bonus: int


class BlockedOut(msgspec.Struct):
    """An open box these dice may not fill now."""

    box: str
    name: str
    code: BlockReason
    reason: str


RulesetId = Annotated[
    str,
    Meta(description="Content hash of the effective rules (present when `rules` was sent)"),
]


class ScoreRequest(msgspec.Struct, forbid_unknown_fields=True):
    game: ScorecardGame
    dice: FiveDice
    throw: ThrowNumber | None = None  # None: the turn's last throw
    scorecard: ScorecardIn | None = None
    rules: Rules | None = None


class ScoreResponse(msgspec.Struct, omit_defaults=True):
    game: str
    dice: list[int]
    options: list[OptionOut]
    blocked: list[BlockedOut]
    total: int
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET


ThrowsLeft = Annotated[
    int,
    Meta(
        ge=0,
        le=3,
        description="Throws still allowed this turn (at most the game's `throws_per_turn` - 1)",
    ),
]


class HoldsRequest(msgspec.Struct, forbid_unknown_fields=True):
    game: ScorecardGame
    dice: FiveDice
    throws_left: ThrowsLeft
    throw: ThrowNumber | None = None
    scorecard: ScorecardIn | None = None
    rules: Rules | None = None


class KeepOption(msgspec.Struct, tag_field="kind", tag="keep"):
    """Keep these dice (ascending) and throw the others."""

    keep: list[int]
    expected_total: float
    best: bool
    loss: float


class BoxOption(msgspec.Struct, tag_field="kind", tag="box"):
    """End the turn now in this box."""

    box: str
    name: str
    points: int
    bonus: int
    upper_bonus: int
    extra_bonus: int
    expected_total: float
    best: bool
    loss: float


class HoldsResponse(msgspec.Struct, omit_defaults=True):
    game: str
    dice: list[int]
    throws_left: int
    total: int
    options: list[KeepOption | BoxOption]
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET


class EntryIn(msgspec.Struct, forbid_unknown_fields=True):
    """One box as written on the sheet, optionally with the dice and throw behind it."""

    box: BoxId
    points: int
    dice: FiveDice | None = None
    throw: ThrowNumber | None = None  # None: the turn's last throw


class SheetIn(msgspec.Struct, forbid_unknown_fields=True):
    player: PlayerName
    entries: Annotated[list[EntryIn], Meta(max_length=64)]
    extra_bonus: Annotated[int, Meta(ge=0)] = 0
    claimed_upper_bonus: int | None = None
    claimed_total: int | None = None


class CheckRequest(msgspec.Struct, forbid_unknown_fields=True):
    game: ScorecardGame
    sheets: Annotated[list[SheetIn], Meta(min_length=1, max_length=50)]
    rules: Rules | None = None


class ProblemOut(msgspec.Struct):
    field: str
    box: str | None
    reason: str


class SheetOut(msgspec.Struct):
    player: str
    valid: bool
    problems: list[ProblemOut]
    upper_subtotal: int
    upper_bonus: int
    extra_bonus: int
    total: int
    complete: bool
    rank: int


class Standing(msgspec.Struct):
    rank: int
    player: str
    total: int


class CheckResponse(msgspec.Struct, omit_defaults=True):
    game: str
    sheets: list[SheetOut]
    standings: list[Standing]
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET
