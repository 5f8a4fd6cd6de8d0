"""The API's request and response bodies as msgspec Structs.

Each class mirrors the component of the same name in the diceref OpenAPI document
(`openapi/openapi.json`); a test in the diceref repository checks every one against it.
Requests leave out the fields left at their defaults, as the API's own defaults apply.
Responses decode leniently: a field the API adds later is ignored, not an error.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

Call = Literal["high", "low"]
Conversion = Literal["two_sixes", "three_sixes"]
Special = Literal["chicago", "one_six_five"]
Decision = Literal["bank", "throw_on"]
BlockReason = Literal["series_order", "forced_order", "forced_joker"]
TurnEnd = Literal["bank", "yardkle"]
Joker = Literal["none", "forced", "free_choice"]
Order = Literal["free", "series", "forced"]
Section = Literal["upper", "lower"]
Play = Literal["expected_points", "target"]
ScorecardGame = Literal["yahtzee", "yardzee", "dice-poker", "russian-poker", "chute-5", "yatzy"]
AnyGame = Literal[
    "yahtzee", "yardzee", "dice-poker", "russian-poker", "chute-5", "yatzy", "chicago", "yardkle"
]


class _In(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A request body or a part of one.  A request's `game` is `ScorecardGame | str` (or
    `AnyGame | str`), as OpenAI's SDK types its models: the games this release knows, for
    completion and checks, or any id (one a newer service lists in `GET /games`)."""


class _Out(msgspec.Struct, kw_only=True):
    """A response body or a part of one."""


# --- problems --------------------------------------------------------------------------------


class FieldError(_Out):
    field: str
    reason: str
    code: str


class ProblemDetails(_Out):
    """RFC 9457 problem details, the body of every error response."""

    type: str
    title: str
    status: int
    detail: str
    instance: str = ""
    errors: list[FieldError] = []
    retry_after: int | None = None
    progress: float | None = None
    request_id: str = ""


# --- operations and games --------------------------------------------------------------------


class Health(_Out):
    status: str
    api_version: str


class BoxSummary(_Out):
    id: str
    name: str
    section: str


class GameSummary(_Out):
    id: str
    name: str
    family: str
    dice_count: int
    throws_per_turn: int
    min_players: int
    max_players: int | None
    boxes: list[BoxSummary] | None = None


class ParameterOut(_Out):
    name: str
    value: int | bool | str | list[int]
    description: str
    reading: bool
    label: str
    value_type: Literal["boolean", "integer", "string", "integer_list"]
    settable: bool
    choices: list[str] | None = None
    minimum: int | None = None
    maximum: int | None = None
    length: int | None = None


class BoxRules(_Out):
    id: str
    name: str
    section: Section
    pattern: Literal[
        "face", "n_of_a_kind", "pair", "two_pairs", "full_house", "straight", "chance", "sum_over"
    ]
    scoring: Literal["face_sum", "face_relative", "notches", "sum_all", "sum_formed", "fixed"]
    how: str
    max_points: int
    # the fields the box's pattern and scoring take (None where they do not apply)
    face: int | None = None
    of_a_kind_count: int | None = None
    runs: list[list[int]] | None = None
    total_over: int | None = None
    fixed_points: int | None = None
    target_count: int | None = None
    notches: list[int] | None = None
    two_pairs_distinct: bool | None = None
    full_house_distinct: bool | None = None
    first_throw_multiplier: int | None = None
    premium: int | None = None
    premium_doubled: bool | None = None


class UpperBonusOut(_Out):
    threshold: int
    strictly_greater: bool
    points: int


class FiveOfAKindOut(_Out):
    box: str
    extra_bonus: int
    joker: Literal["forced", "free_choice", "none"]
    joker_when_scratched: bool
    matching_upper_forced: bool


class GameRules(_Out):
    id: str
    name: str
    family: str
    dice_count: int
    throws_per_turn: int
    min_players: int
    max_players: int | None
    source: str
    summary: str
    face_labels: list[str]
    parameters: list[ParameterOut]
    boxes: list[BoxRules] | None = None
    upper_bonus_rule: UpperBonusOut | None = None
    five_of_a_kind: FiveOfAKindOut | None = None
    series_order: bool | None = None
    order: Order | None = None
    # A game with solved tables gives these three; while its tables load, `tables` is
    # "loading" and the two figures are None (ask again later).
    max_score: int | None = None
    optimal_expected_score: float | None = None
    tables: Literal["ready", "loading"] | None = None


# --- scorecard games ---------------------------------------------------------------------------


class _BoxIn(_In, tag_field="pattern", kw_only=True):
    """A box of a custom ruleset, one class per `pattern` (the tag): each takes the fields
    its pattern and scoring rules take (`BoxRules` as `GET /games/{game}` gives it)."""

    id: str
    name: str | None = None
    section: Section | None = None
    how: str | None = None  # output only: ignored by the API
    max_points: int | None = None  # output only: ignored by the API


class FaceBox(_BoxIn, tag="face", kw_only=True):
    scoring: Literal["face_sum", "face_relative", "notches"]
    face: int
    target_count: int | None = None
    notches: list[int] | None = None


class _LowerBoxIn(_BoxIn, kw_only=True):
    scoring: Literal["sum_all", "sum_formed", "fixed"]
    fixed_points: int | None = None
    first_throw_multiplier: int | None = None
    premium: int | None = None
    premium_doubled: bool | None = None


class OfAKindBox(_LowerBoxIn, tag="n_of_a_kind", kw_only=True):
    of_a_kind_count: int


class PairBox(_LowerBoxIn, tag="pair", kw_only=True):
    pass


class TwoPairsBox(_LowerBoxIn, tag="two_pairs", kw_only=True):
    two_pairs_distinct: bool = True


class FullHouseBox(_LowerBoxIn, tag="full_house", kw_only=True):
    full_house_distinct: bool = True


class StraightBox(_LowerBoxIn, tag="straight", kw_only=True):
    runs: list[list[int]]


class ChanceBox(_LowerBoxIn, tag="chance", kw_only=True):
    pass


class SumOverBox(_LowerBoxIn, tag="sum_over", kw_only=True):
    total_over: int


BoxIn = (
    FaceBox
    | OfAKindBox
    | PairBox
    | TwoPairsBox
    | FullHouseBox
    | StraightBox
    | ChanceBox
    | SumOverBox
)


class UpperBonusRule(_In):
    threshold: int
    points: int
    strictly_greater: bool = False


class FiveOfAKindDocument(_In):
    box: str
    extra_bonus: int
    joker: Joker
    joker_when_scratched: bool = False
    matching_upper_forced: bool = True


class RulesetIn(_In):
    """A custom scorecard ruleset: a `GameRules` document, changed and sent back as
    `ruleset=` (its computed figures and prose are accepted and ignored)."""

    id: str
    name: str
    dice_count: int
    throws_per_turn: int
    boxes: list[BoxIn]
    upper_bonus_rule: UpperBonusRule
    order: Order
    five_of_a_kind: FiveOfAKindDocument | None = None
    series_order: bool | None = None
    family: str | None = None
    min_players: int | None = None
    max_players: int | None = None
    face_labels: list[str] | None = None
    source: str | None = None
    summary: str | None = None
    parameters: list[ParameterOut] | None = None
    max_score: int | None = None
    optimal_expected_score: float | None = None
    tables: Literal["ready", "loading"] | None = None


class ScorecardIn(_In):
    """The boxes filled so far (box id -> points) and the extra five-of-a-kind bonus."""

    filled: dict[str, int] = {}
    extra_bonus: int = 0


class ScoreRequest(_In):
    dice: list[int]
    throw: int | None = None
    scorecard: ScorecardIn | None = None
    game: ScorecardGame | str | None = None  # a built-in game, or `ruleset`: exactly one
    rules: dict[str, Any] | None = None
    ruleset: RulesetIn | None = None


class OptionOut(_Out):
    box: str
    name: str
    points: int
    bonus: int
    upper_bonus: int
    extra_bonus: int


class BlockedOut(_Out):
    """An open box these dice may not fill now."""

    box: str
    name: str
    code: BlockReason
    reason: str


class ScoreResponse(_Out):
    game: str
    dice: list[int]
    options: list[OptionOut]
    blocked: list[BlockedOut]
    total: int
    ruleset_id: str | None = None


class ScorecardHoldsRequest(_In):
    dice: list[int]
    throws_left: int
    throw: int | None = None
    scorecard: ScorecardIn | None = None
    game: ScorecardGame | str | None = None  # a built-in game, or `ruleset`: exactly one
    rules: dict[str, Any] | None = None
    ruleset: RulesetIn | None = None
    target: int | None = None  # play to win: the final total to reach


class KeepOption(_Out, tag_field="kind", tag="keep"):
    """Keep these dice (ascending) and throw the others."""

    keep: list[int]
    expected_total: float
    best: bool
    loss: float
    win_probability: float | None = None  # with a `target`: the chance to reach it


class BoxOption(_Out, tag_field="kind", tag="box"):
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
    win_probability: float | None = None  # with a `target`: the chance to reach it


class ScorecardHoldsResponse(_Out):
    game: str
    dice: list[int]
    throws_left: int
    total: int
    options: list[KeepOption | BoxOption]
    ruleset_id: str | None = None
    target: int | None = None


class DistributionRequest(_In):
    """A card (and optionally the dice of the turn under way, with `throws_left`) whose
    final total to forecast."""

    scorecard: ScorecardIn | None = None
    dice: list[int] | None = None
    throws_left: int | None = None
    target: int | None = None
    play: Play | None = None  # default: "target" with a target, else "expected_points"
    game: ScorecardGame | str | None = None  # a built-in game, or `ruleset`: exactly one
    rules: dict[str, Any] | None = None
    ruleset: RulesetIn | None = None


class TotalChance(_Out):
    """One final total and its chance."""

    total: int
    probability: float


class DistributionResponse(_Out):
    game: str
    total: int
    play: Play
    mean: float
    sd: float
    min: int
    max: int
    p1: int
    p5: int
    p25: int
    p50: int
    p75: int
    p95: int
    p99: int
    distribution: list[TotalChance]
    target: int | None = None
    win_probability: float | None = None  # with a `target`: the chance to reach it
    ruleset_id: str | None = None


class EntryIn(_In):
    """One box as written on a sheet, optionally with the dice and throw behind it."""

    box: str
    points: int
    dice: list[int] | None = None
    throw: int | None = None


class SheetIn(_In):
    player: str
    entries: list[EntryIn]
    extra_bonus: int = 0
    claimed_upper_bonus: int | None = None
    claimed_total: int | None = None


class CheckRequest(_In):
    sheets: list[SheetIn]
    game: ScorecardGame | str | None = None  # a built-in game, or `ruleset`: exactly one
    rules: dict[str, Any] | None = None
    ruleset: RulesetIn | None = None


class ProblemOut(_Out):
    field: str
    box: str | None
    reason: str


class SheetOut(_Out):
    player: str
    valid: bool
    problems: list[ProblemOut]
    upper_subtotal: int
    upper_bonus: int
    extra_bonus: int
    total: int
    complete: bool
    rank: int


class Standing(_Out):
    rank: int
    player: str
    total: int


class CheckResponse(_Out):
    game: str
    sheets: list[SheetOut]
    standings: list[Standing]
    ruleset_id: str | None = None


class RulesetRequest(_In):
    game: AnyGame | str | None = None  # a built-in game, or `ruleset`: exactly one
    rules: dict[str, Any] | None = None
    ruleset: RulesetIn | None = None


class RulesetResponse(_Out):
    game: str
    ruleset_id: str
    status: Literal["ready", "solving", "queued", "failed"]
    progress: float
    ruleset: GameRules
    max_score: int | None
    optimal_expected_score: float | None


# --- Chicago -----------------------------------------------------------------------------------


class ChicagoThrowsRequest(_In):
    dice: list[int]
    call: Call | None = None
    throw: int | None = None
    throws_allowed: int = 3
    kept: list[int] = []
    set_aside_count: int = 0
    rules: dict[str, Any] | None = None


class ConversionOut(_Out):
    kind: Conversion
    required: bool
    set_aside_count: int
    must_rethrow: list[int]
    may_keep: list[int]


class ChicagoThrowsResponse(_Out):
    dice: list[int]
    scores: dict[str, int]
    special: Special | None
    throws_left: int | None
    conversions: list[ConversionOut]
    ruleset_id: str | None = None


class ChicagoThrowIn(_In):
    """One throw: the three dice as they lie after it, then what the player did with them."""

    dice: list[int]
    kept: list[int] = []
    conversion: Conversion | None = None
    call: Call | None = None
    victim: str | None = None


class PlayerIn(_In):
    player: str
    lives: int
    throws: list[ChicagoThrowIn] = []


class RoundRequest(_In):
    turns: list[PlayerIn]
    players_at_start: int | None = None
    rules: dict[str, Any] | None = None


class PlayerOut(_Out):
    player: str
    lives: int
    throw_count: int
    dice: list[int] | None
    score: int | None
    special: Special | None
    lives_lost: int
    lives_after: int
    out: bool


class EventOut(_Out):
    kind: str
    player: str
    victim: str | None
    losers: list[str]
    knocked_out: list[str]
    throw: int | None
    score: int | None


class RoundResponse(_Out):
    call: Call | None
    throw_limit: int
    turns: list[PlayerOut]
    events: list[EventOut]
    knocked_out: list[str]
    ended_by: str
    next_starter: str | None
    game_over: bool
    winner: str | None
    ruleset_id: str | None = None


class TurnIn(_In):
    player: str
    throws: list[ChicagoThrowIn] = []


class GameRoundIn(_In):
    """A round's players in turn order, the starter first."""

    turns: list[TurnIn]


class ChicagoGameRequest(_In):
    players: list[str]
    rounds: list[GameRoundIn]
    rules: dict[str, Any] | None = None


class ChicagoStandingOut(_Out):
    rank: int
    player: str
    lives: int
    out_in_round: int | None


class ChicagoGameResponse(_Out):
    players: list[str]
    starting_lives: int
    rounds: list[RoundResponse]
    standings: list[ChicagoStandingOut]
    next_starter: str | None
    game_over: bool
    winner: str | None
    ruleset_id: str | None = None


class ChicagoHoldsRequest(_In):
    dice: list[int]
    throws_left: int
    call: Call | None = None
    target: int | None = None
    set_aside_count: int = 0
    kept: list[int] = []
    rules: dict[str, Any] | None = None


class ChicagoHoldOut(_Out):
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


class RankingOut(_Out):
    call: Call
    options: list[ChicagoHoldOut]


class ChicagoHoldsResponse(_Out):
    dice: list[int]
    throws_left: int
    set_aside_count: int
    call: Call | None
    target: int | None
    rankings: list[RankingOut]
    ruleset_id: str | None = None


# --- Yardkle -----------------------------------------------------------------------------------


class YardkleThrowsRequest(_In):
    dice: list[int]
    rules: dict[str, Any] | None = None


class PartOut(_Out):
    combination: str
    name: str
    dice: list[int]
    points: int


class SetAsideOut(_Out):
    dice: list[int]
    points: int
    split: list[PartOut]
    dice_left_count: int
    hot_dice: bool


class YardkleThrowsResponse(_Out):
    dice: list[int]
    yardkle: bool
    max_points: int
    set_asides: list[SetAsideOut]
    ruleset_id: str | None = None


class YardkleThrowIn(_In):
    dice: list[int]
    set_aside: list[int] = []


class TurnRequest(_In):
    throws: list[YardkleThrowIn]
    end: TurnEnd
    banked_total: int = 0
    rules: dict[str, Any] | None = None


class ThrowOut(_Out):
    dice: list[int]
    set_aside: list[int]
    points: int
    split: list[PartOut]
    running_total: int
    dice_left_count: int
    hot_dice: bool
    yardkle: bool


class EntryRuleOut(_Out):
    applied: bool
    threshold: int
    met: bool


class TurnResponse(_Out):
    end: str
    turn_points: int
    points: int
    banked_total: int
    new_total: int
    on_pad: bool
    entry_rule: EntryRuleOut
    throws: list[ThrowOut]
    ruleset_id: str | None = None


class GameTurnIn(_In):
    player: str
    throws: list[YardkleThrowIn]
    end: TurnEnd


class YardkleGameRequest(_In):
    players: list[str]
    turns: list[GameTurnIn] = []
    rules: dict[str, Any] | None = None


class GameTurnOut(_Out):
    turn_index: int
    player: str
    end: str
    turn_points: int
    points: int
    total: int
    last_turn: bool


class ReachedOut(_Out):
    turn_index: int
    player: str
    total: int


class YardkleStandingOut(_Out):
    rank: int
    player: str
    total: int
    on_pad: bool
    turn_count: int
    last_turn: bool
    need: int | None


class YardkleGameResponse(_Out):
    finished: bool
    winners: list[str]
    next_player: str | None
    reached: ReachedOut | None
    last_turns: list[int]
    last_turns_due: list[str]
    standings: list[YardkleStandingOut]
    turns: list[GameTurnOut]
    ruleset_id: str | None = None


class YardkleHoldsRequest(_In):
    dice: list[int]
    on_pad: bool
    turn_points: int = 0
    need: int | None = None
    rules: dict[str, Any] | None = None


class YardkleHoldOut(_Out):
    rank: int
    set_aside: list[int]
    points: int
    split: list[PartOut]
    turn_points: int
    dice_left_count: int
    hot_dice: bool
    bank_allowed: bool
    bank_expected_points: float
    throw_on_expected_points: float
    decision: Decision
    expected_points: float
    win_probability: float | None
    best: bool
    loss: float


class BestOut(_Out):
    set_aside: list[int]
    decision: Decision
    expected_points: float
    win_probability: float | None


class YardkleHoldsResponse(_Out):
    dice: list[int]
    turn_points: int
    on_pad: bool
    yardkle: bool
    options: list[YardkleHoldOut]
    best_option: BestOut | None
    ruleset_id: str | None = None


# --- reviews ---------------------------------------------------------------------------------


class ReviewTurnIn(_In):
    """A scorecard turn as played: the five dice after each throw, the keeps, the box."""

    throws: list[list[int]]
    box: str
    keeps: list[list[int]] = []


class ReviewRequest(_In):
    turns: list[ReviewTurnIn]
    game: ScorecardGame | str | None = None  # a built-in game, or `ruleset`: exactly one
    rules: dict[str, Any] | None = None
    ruleset: RulesetIn | None = None
    target: int | None = None  # play to win: each decision's `win_loss` too


class ReviewDecisionOut(_Out):
    turn_index: int
    decision_index: int
    throw: int
    dice: list[int]
    throws_left: int
    chosen: KeepOption | BoxOption
    best_options: list[KeepOption | BoxOption]
    loss: float
    win_loss: float | None = None  # with a `target`: the chance to reach it given up


class TurnReviewOut(_Out):
    turn_index: int
    box: str
    points: int
    total: int
    loss: float
    decisions: list[ReviewDecisionOut]


class ReviewResponse(_Out):
    game: str
    turns: list[TurnReviewOut]
    expected_loss: float
    decision_count: int
    mean_loss: float
    final_total: int
    optimal_expected_score: float
    complete: bool
    luck: float | None
    costliest: list[ReviewDecisionOut]
    ruleset_id: str | None = None
    target: int | None = None


class YardkleReviewTurnIn(_In):
    throws: list[YardkleThrowIn]
    end: TurnEnd
    banked_total: int = 0
    on_pad: bool | None = None


class YardkleReviewRequest(_In):
    turns: list[YardkleReviewTurnIn]
    rules: dict[str, Any] | None = None


class ChoiceOut(_Out):
    set_aside: list[int]
    decision: Decision
    expected_points: float


class YardkleDecisionOut(_Out):
    turn_index: int
    decision_index: int
    throw: int
    dice: list[int]
    turn_points: int
    chosen: ChoiceOut
    best_options: list[ChoiceOut]
    loss: float


class YardkleTurnReviewOut(_Out):
    turn_index: int
    end: TurnEnd
    points: int
    optimal_expected_points: float
    loss: float
    luck: float
    decisions: list[YardkleDecisionOut]


class YardkleReviewResponse(_Out):
    turns: list[YardkleTurnReviewOut]
    expected_loss: float
    decision_count: int
    mean_loss: float
    points: int
    optimal_expected_points: float
    luck: float
    costliest: list[YardkleDecisionOut]
    ruleset_id: str | None = None
