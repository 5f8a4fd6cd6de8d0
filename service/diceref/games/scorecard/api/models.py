"""The scorecard operations' requests and answers (msgspec Structs).

Constraints live in the types (`Meta`) so that they are enforced on decode and published in
the OpenAPI document from one place.
"""

from __future__ import annotations

from enum import Enum, StrEnum
from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

from diceref.core.errors import RuleViolation
from diceref.core.losses import BEST_WITHIN, loss_of
from diceref.games.scorecard.rules.description import document_refusal
from diceref.games.scorecard.rules.document import IGNORED, Prose, RulesetDocument
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import BlockReason
from diceref.games.scorecard.solver.advice import Advice, BoxAdvice
from diceref.http.fields import BoxId, Die, PlayerName, Rules, ThrowNumber
from diceref.http.game_models import ParameterIn

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


# --- a custom ruleset: the document `GET /games/{game}` returns, sent back -------------
# The rules layer's typed document itself (`rules/document.py`), decoded straight from the
# request: its types and limits are enforced on decode, the rules between fields when it is
# compiled (`rules/description.py`); either refusal is a 422 naming `ruleset.<path>`, a
# value of the wrong JSON type a 400 like any field's.


class RulesetIn(RulesetDocument, frozen=True, omit_defaults=True):
    """A complete scorecard ruleset in the shape `GET /games/{game}` returns: fetch a game,
    change it, send it back.  Its computed figures and prose are accepted and ignored."""

    source: Prose | UnsetType = UNSET
    summary: Prose | UnsetType = UNSET
    parameters: Annotated[list[ParameterIn], Meta(description=IGNORED)] | UnsetType = UNSET
    max_score: Annotated[int, Meta(description=IGNORED)] | UnsetType | None = UNSET
    optimal_expected_score: Annotated[float, Meta(description=IGNORED)] | UnsetType | None = UNSET
    tables: Annotated[Literal["ready", "loading"], Meta(description=IGNORED)] | UnsetType = UNSET

    @classmethod
    def refusal(cls, error: msgspec.ValidationError, raw: object) -> RuleViolation | None:
        """How the lean JSON path answers msgspec's refusal of a request's `ruleset` (`raw`,
        as JSON data; `error`'s path is into it): the rules layer's words and codes."""
        return document_refusal(error, raw)


GameField = Annotated[
    ScorecardGame,
    Meta(
        description="A built-in game's id, as `GET /games` lists them; exactly one of "
        "`game` and `ruleset`"
    ),
]
RulesetField = Annotated[
    RulesetIn,
    Meta(
        description="A custom ruleset instead of a built-in `game` (exactly one of the two): "
        "the document `GET /games/{game}` returns, changed at will"
    ),
]


RulesetId = Annotated[
    str,
    Meta(
        description="Content hash of the effective rules (present when `rules` or `ruleset` "
        "was sent)"
    ),
]


class ScoreRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    game: GameField | None = None
    dice: FiveDice
    throw: ThrowNumber | None = None  # None: the turn's last throw
    scorecard: ScorecardIn | None = None
    rules: Rules | None = None
    ruleset: RulesetField | None = None


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


MAX_TARGET = 1_000_000  # beyond any game's maximum score
TargetTotal = Annotated[
    int,
    Meta(
        ge=0,
        le=MAX_TARGET,
        description="Play to win: the final total to reach (bonuses included); a total above "
        "the game's maximum is reached with probability 0",
    ),
]
EchoedTarget = Annotated[int, Meta(description="The request's `target`")]
WinProbability = Annotated[
    float,
    Meta(
        ge=0,
        le=1,
        description="The chance to reach `target` from here, playing every later decision for "
        "the greatest chance (present when the request has a `target`)",
    ),
]


class HoldsRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    game: GameField | None = None
    dice: FiveDice
    throws_left: ThrowsLeft
    throw: ThrowNumber | None = None
    scorecard: ScorecardIn | None = None
    rules: Rules | None = None
    ruleset: RulesetField | None = None
    target: TargetTotal | None = None


class KeepOption(msgspec.Struct, omit_defaults=True, tag_field="kind", tag="keep"):
    """Keep these dice (ascending) and throw the others."""

    keep: list[int]
    expected_total: float
    best: bool
    loss: float
    win_probability: WinProbability | UnsetType = UNSET


class BoxOption(msgspec.Struct, omit_defaults=True, tag_field="kind", tag="box"):
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
    win_probability: WinProbability | UnsetType = UNSET


def option_out(
    ruleset: Ruleset, o: Advice, top: float, by_chance: bool = False
) -> KeepOption | BoxOption:
    """A coach's option as answered, with its loss against `top`, the best expected total
    (`by_chance`: the best chance to reach the target): within BEST_WITHIN it is a best
    option and its loss is 0.  Its `win_probability` is given when it has one."""
    value = o.expected_total
    if by_chance:
        assert o.win_probability is not None
        value = o.win_probability
    best, loss = top - value <= BEST_WITHIN, loss_of(top, value)
    chance = UNSET if o.win_probability is None else o.win_probability
    if isinstance(o, BoxAdvice):
        return BoxOption(
            o.box,
            ruleset.box_name[o.box],
            o.points,
            o.bonus,
            o.upper_bonus,
            o.extra_bonus,
            o.expected_total,
            best,
            loss,
            chance,
        )
    return KeepOption(list(o.keep), o.expected_total, best, loss, chance)


class HoldsResponse(msgspec.Struct, omit_defaults=True):
    game: str
    dice: list[int]
    throws_left: int
    total: int
    options: list[KeepOption | BoxOption]
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET
    target: EchoedTarget | UnsetType = UNSET


# --- POST /distributions ----------------------------------------------------------------


class Play(StrEnum):
    """Which play the reported distribution follows."""

    EXPECTED_POINTS = "expected_points"  # every decision for the greatest expected total
    TARGET = "target"  # every decision for the greatest chance to reach `target`


class DistributionRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A card (and optionally the dice of the turn under way) whose final total to
    forecast."""

    game: GameField | None = None
    scorecard: ScorecardIn | None = None
    dice: (
        Annotated[
            list[Die],
            Meta(
                min_length=5,
                max_length=5,
                description="The dice of the turn under way (with `throws_left`); none: the "
                "card at the start of its next turn",
            ),
        ]
        | None
    ) = None
    throws_left: ThrowsLeft | None = None
    target: TargetTotal | None = None
    play: (
        Annotated[
            Play,
            Meta(
                description="The play the distribution follows: `target` (the default with a "
                "`target`: every decision for the greatest chance to reach it, followed turn "
                "by turn, so for cards near their end) or `expected_points` (the default "
                "without one; from any card)"
            ),
        ]
        | None
    ) = None
    rules: Rules | None = None
    ruleset: RulesetField | None = None


class TotalChance(msgspec.Struct):
    """One final total and its chance."""

    total: int
    probability: float


Percentile = Annotated[
    int,
    Meta(
        description="The least final total t with P(final <= t) >= the percentile "
        "(`p50`: the median)"
    ),
]


class DistributionResponse(msgspec.Struct, omit_defaults=True):
    game: str
    total: int
    play: Play
    mean: float
    sd: float
    min: int
    max: int
    p1: Percentile
    p5: Percentile
    p25: Percentile
    p50: Percentile
    p75: Percentile
    p95: Percentile
    p99: Percentile
    distribution: list[TotalChance]
    target: EchoedTarget | UnsetType = UNSET
    win_probability: WinProbability | UnsetType = UNSET
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


class CheckRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    game: GameField | None = None
    sheets: Annotated[list[SheetIn], Meta(min_length=1, max_length=50)]
    rules: Rules | None = None
    ruleset: RulesetField | None = None


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
