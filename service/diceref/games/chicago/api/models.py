"""Chicago's requests and answers (msgspec Structs), with every constraint in the types.

Constraints live in the types (`Meta`) so that they are enforced on decode and published in
the OpenAPI document from one place.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from diceref.games.chicago.rules.ruleset import Call, Conversion, Special
from diceref.http.fields import Die, PlayerName, Rules, RulesetId, ThrowNumber

ThreeDice = Annotated[
    list[Die], Meta(min_length=3, max_length=3, description="Three dice, 1 to 6 each")
]


Kept = Annotated[
    list[Die],
    Meta(
        max_length=3,
        description="Dice left on the table for the next throw, set-aside 1s included",
    ),
]


Name = PlayerName


Lives = Annotated[int, Meta(ge=0, le=100, description="Lives at the start of the round")]


ThrowsLeft = Annotated[int, Meta(ge=0, le=2, description="Throws still allowed after these dice")]


Score = Annotated[int, Meta(ge=0, le=1000, description="A score, under the call")]


SetAside = Annotated[int, Meta(ge=0, le=2, description="1s set aside by earlier conversions")]


PlayersAtStart = Annotated[
    int, Meta(ge=2, le=6, description="Players the game began with; omit for the first round")
]


TurnKept = Annotated[
    list[Die],
    Meta(
        max_length=2,
        description="Dice kept on the table from the turn's previous throw, set-aside 1s "
        "included (these dice are among `dice`)",
    ),
]


class ThrowsRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A throw, and the turn so far: what stayed on the table from the previous throw and
    how many 1s earlier conversions set aside (those may not be thrown again)."""

    dice: ThreeDice
    call: Call | None = None
    throw: ThrowNumber | None = None
    throws_allowed: ThrowNumber = 3
    kept: TurnKept = []
    set_aside_count: SetAside = 0
    rules: Rules | None = None


class ConversionOut(msgspec.Struct):
    kind: Conversion
    required: bool
    set_aside_count: int
    must_rethrow: list[int]
    may_keep: list[int]


class ThrowsResponse(msgspec.Struct, omit_defaults=True):
    dice: list[int]
    scores: dict[str, int]
    special: Special | None
    throws_left: int | None
    conversions: list[ConversionOut]
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET


class ThrowIn(msgspec.Struct, forbid_unknown_fields=True):
    """One throw: the three dice as they lie after it, then what the player did with them."""

    dice: ThreeDice
    kept: Kept = []
    conversion: Conversion | None = None
    call: Call | None = None
    victim: Name | None = None


Throws = Annotated[list[ThrowIn], Meta(max_length=6, description="The player's throws in order")]


class PlayerIn(msgspec.Struct, forbid_unknown_fields=True):
    player: Name
    lives: Lives
    throws: Throws = []


class RoundRequest(msgspec.Struct, forbid_unknown_fields=True):
    """The players in turn order, the starter first, with their lives and throws."""

    turns: Annotated[list[PlayerIn], Meta(min_length=1, max_length=6)]
    players_at_start: PlayersAtStart | None = None
    rules: Rules | None = None


class PlayerOut(msgspec.Struct):
    player: str
    lives: int
    throw_count: int
    dice: list[int] | None
    score: int | None
    special: Special | None
    lives_lost: int
    lives_after: int
    out: bool


class EventOut(msgspec.Struct):
    kind: str
    player: str
    victim: str | None
    losers: list[str]
    knocked_out: list[str]
    throw: int | None
    score: int | None


class RoundResponse(msgspec.Struct, omit_defaults=True):
    call: Call | None
    throw_limit: int
    turns: list[PlayerOut]
    events: list[EventOut]
    knocked_out: list[str]
    ended_by: str
    next_starter: str | None
    game_over: bool
    winner: str | None
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET


class TurnIn(msgspec.Struct, forbid_unknown_fields=True):
    player: Name
    throws: Throws = []


class GameRoundIn(msgspec.Struct, forbid_unknown_fields=True):
    """A round's players in turn order, the starter first; lives are carried by the service."""

    turns: Annotated[list[TurnIn], Meta(min_length=1, max_length=6)]


class GameRequest(msgspec.Struct, forbid_unknown_fields=True):
    players: Annotated[
        list[Name], Meta(min_length=1, max_length=6, description="The seating order")
    ]
    rounds: Annotated[list[GameRoundIn], Meta(max_length=64)]
    rules: Rules | None = None


class StandingOut(msgspec.Struct):
    rank: int
    player: str
    lives: int
    out_in_round: int | None


class GameResponse(msgspec.Struct, omit_defaults=True):
    players: list[str]
    starting_lives: int
    rounds: list[RoundResponse]
    standings: list[StandingOut]
    next_starter: str | None
    game_over: bool
    winner: str | None
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET


HeldKept = Annotated[
    list[Die],
    Meta(
        max_length=2,
        description="Dice kept on the table from the turn's previous throw (these dice are "
        "among `dice`); the conversions look at them when only the sixes just thrown count "
        "(`sixes_counted_as_they_lie` false)",
    ),
]


class HoldsRequest(msgspec.Struct, forbid_unknown_fields=True):
    dice: ThreeDice
    throws_left: ThrowsLeft
    call: Call | None = None
    target: Score | None = None
    set_aside_count: SetAside = 0
    kept: HeldKept = []
    rules: Rules | None = None


class HoldOut(msgspec.Struct):
    keep: list[int]
    conversion: Conversion | None
    set_aside_count: int
    rethrow_count: int
    win_probability: float | None
    win_probability_exact: str | None
    expected_points: float
    expected_points_exact: str
    best: bool
    loss: float


class RankingOut(msgspec.Struct):
    call: Call
    options: list[HoldOut]


class HoldsResponse(msgspec.Struct, omit_defaults=True):
    dice: list[int]
    throws_left: int
    set_aside_count: int
    call: Call | None
    target: int | None
    rankings: list[RankingOut]
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET
