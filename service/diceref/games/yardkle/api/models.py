"""Request and response Structs of the Yardkle routes, and their conversion from the rules.

Shape limits live in the types (`Meta`) so they are enforced on decode and published in
the OpenAPI document; everything that needs the rules (which set-aside scores, the entry
rule, turn order) is judged by the rules layer and comes back as a 422 naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

import msgspec
from msgspec import Meta

from diceref.core.losses import BEST_WITHIN, loss_of
from diceref.games.yardkle.rules.games import GameResult, PlayedTurn
from diceref.games.yardkle.rules.scoring import Part, SetAside
from diceref.games.yardkle.rules.turns import ThrowResult, TurnEnd, TurnResult
from diceref.games.yardkle.solver.advice import Decision, HoldAdvice
from diceref.http.fields import Die, PlayerName, Rules, RulesetId

YardkleDice = Annotated[
    list[Die], Meta(min_length=1, max_length=6, description="One to six dice, 1 to 6 each")
]
SetAsideDice = Annotated[
    list[Die],
    Meta(max_length=6, description="Dice set aside from this throw; empty after a Yardkle"),
]
Total = Annotated[
    int, Meta(ge=0, le=10_000_000, description="Points, a multiple of the scoring unit (50)")
]


# --- requests -----------------------------------------------------------------------------


class ThrowsRequest(msgspec.Struct, forbid_unknown_fields=True):
    dice: YardkleDice
    rules: Rules | None = None


class ThrowIn(msgspec.Struct, forbid_unknown_fields=True):
    dice: YardkleDice
    set_aside: SetAsideDice = []


TurnThrows = Annotated[list[ThrowIn], Meta(min_length=1, max_length=500)]


class TurnRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A turn as played: its throws, the dice set aside after each, and how it ended."""

    throws: TurnThrows
    end: TurnEnd
    banked_total: Total = 0
    rules: Rules | None = None


class GameTurnIn(msgspec.Struct, forbid_unknown_fields=True):
    player: PlayerName
    throws: TurnThrows
    end: TurnEnd


class GameRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Players in turn order (the first listed starts) and the turns played so far; with
    `chances`, each player's chance to win (two players)."""

    players: Annotated[list[PlayerName], Meta(min_length=1, max_length=20)]
    turns: Annotated[list[GameTurnIn], Meta(max_length=5000)] = []
    chances: bool = False
    rules: Rules | None = None


Need = Annotated[
    int,
    Meta(
        ge=0,
        le=100_000,
        description="Turn points to reach (the race: a last turn, the entry minimum); "
        "omitted: maximise expected points",
    ),
]


BankedTotal = Annotated[
    int,
    Meta(
        ge=0,
        le=10_000_000,
        description="The player's banked total, a multiple of the scoring unit (50), under "
        "the target",
    ),
]


class OpponentIn(msgspec.Struct, forbid_unknown_fields=True):
    """The one opponent of a two-player game: the banked total and the pad."""

    total: BankedTotal
    on_pad: bool


class HoldsRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A throw, the turn points set aside before it, and whether the player is on the pad;
    with an `opponent`, the thrower's banked `total` too (0 when omitted), and under
    `last_turns: complete_the_round` whether he started the round (`first_in_round`)."""

    dice: YardkleDice
    on_pad: bool
    turn_points: Total = 0
    need: Need | None = None
    total: BankedTotal | None = None  # read with an `opponent` only
    opponent: OpponentIn | None = None
    first_in_round: bool | None = None  # read with an `opponent` only
    rules: Rules | None = None


# --- responses ----------------------------------------------------------------------------


class PartOut(msgspec.Struct):
    combination: str
    name: str
    dice: list[int]
    points: int


class SetAsideOut(msgspec.Struct):
    dice: list[int]
    points: int
    split: list[PartOut]
    dice_left_count: int  # dice the next throw would use: all of them again after hot dice
    hot_dice: bool


class ThrowsResponse(msgspec.Struct, omit_defaults=True):
    dice: list[int]
    yardkle: bool
    max_points: int
    set_asides: list[SetAsideOut]
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET


class ThrowOut(msgspec.Struct):
    dice: list[int]
    set_aside: list[int]
    points: int
    split: list[PartOut]
    running_total: int
    dice_left_count: int
    hot_dice: bool
    yardkle: bool


class EntryRuleOut(msgspec.Struct):
    applied: bool
    threshold: int
    met: bool


class TurnResponse(msgspec.Struct, omit_defaults=True):
    end: str
    turn_points: int
    points: int
    banked_total: int
    new_total: int
    on_pad: bool
    entry_rule: EntryRuleOut
    throws: list[ThrowOut]
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET


class GameTurnOut(msgspec.Struct):
    turn_index: int
    player: str
    end: str
    turn_points: int
    points: int
    total: int
    last_turn: bool


class ReachedOut(msgspec.Struct):
    turn_index: int
    player: str
    total: int


class StandingOut(msgspec.Struct, omit_defaults=True):
    rank: int
    player: str
    total: int
    on_pad: bool
    turn_count: int
    last_turn: bool  # the player's next turn is a last turn (owed after the target)
    need: int | None  # the turn points that pass the leader on that last turn, else null
    win_probability: float | msgspec.UnsetType = msgspec.UNSET  # with `chances` only


class GameResponse(msgspec.Struct, omit_defaults=True):
    finished: bool
    winners: list[str]
    next_player: str | None
    reached: ReachedOut | None
    last_turns: list[int]
    last_turns_due: list[str]
    standings: list[StandingOut]
    turns: list[GameTurnOut]
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET


class HoldOut(msgspec.Struct):
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


class BestOut(msgspec.Struct):
    set_aside: list[int]
    decision: Decision
    expected_points: float
    win_probability: float | None


class HoldsResponse(msgspec.Struct, omit_defaults=True):
    dice: list[int]
    turn_points: int
    on_pad: bool
    yardkle: bool
    options: list[HoldOut]
    best_option: BestOut | None
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET


# --- conversion ---------------------------------------------------------------------------


def parts_out(parts: tuple[Part, ...]) -> list[PartOut]:
    return [PartOut(p.combination.id, p.combination.name, list(p.dice), p.points) for p in parts]


def set_aside_out(option: SetAside, thrown: int, all_dice: int) -> SetAsideOut:
    left = thrown - len(option.dice)
    return SetAsideOut(
        list(option.dice), option.points, parts_out(option.parts), left or all_dice, left == 0
    )


def turn_out(
    result: TurnResult, ruleset_id: str | msgspec.UnsetType = msgspec.UNSET
) -> TurnResponse:
    entry = result.entry_rule
    return TurnResponse(
        end=result.end.value,
        turn_points=result.turn_points,
        points=result.points,
        banked_total=result.banked_total,
        new_total=result.new_total,
        on_pad=result.on_pad,
        entry_rule=EntryRuleOut(entry.applied, entry.threshold, entry.met),
        throws=[_throw_out(t) for t in result.throws],
        ruleset_id=ruleset_id,
    )


def _throw_out(t: ThrowResult) -> ThrowOut:
    return ThrowOut(
        dice=list(t.dice),
        set_aside=list(t.set_aside),
        points=t.points,
        split=parts_out(t.parts),
        running_total=t.running_total,
        dice_left_count=t.dice_left,
        hot_dice=t.hot_dice,
        yardkle=t.yardkle,
    )


def _game_turn_out(t: PlayedTurn) -> GameTurnOut:
    r = t.result
    return GameTurnOut(
        t.index, t.player, r.end.value, r.turn_points, r.points, r.new_total, t.last_turn
    )


def game_out(
    result: GameResult,
    ruleset_id: str | msgspec.UnsetType = msgspec.UNSET,
    chances: Mapping[str, float] | None = None,
) -> GameResponse:
    reached = result.reached
    due = set(result.last_turns_due)
    need = dict(result.needs)
    chance = chances or {}
    return GameResponse(
        finished=result.finished,
        winners=list(result.winners),
        next_player=result.next_player,
        reached=None
        if reached is None
        else ReachedOut(reached.index, reached.player, reached.result.new_total),
        last_turns=list(result.last_turns),
        last_turns_due=list(result.last_turns_due),
        standings=[
            StandingOut(
                s.rank,
                s.player,
                s.total,
                s.on_pad,
                s.turns,
                s.player in due,
                need.get(s.player),
                chance.get(s.player, msgspec.UNSET),
            )
            for s in result.standings
        ],
        turns=[_game_turn_out(t) for t in result.turns],
        ruleset_id=ruleset_id,
    )


def hold_out(h: HoldAdvice, top: float) -> HoldOut:
    """`top`: the best option's value in the coach's unit (the loss is against it): its
    win probability with a `need`, else its expected points."""
    own = h.value if h.win_probability is None else h.win_probability
    return HoldOut(
        rank=h.rank,
        set_aside=list(h.set_aside.dice),
        points=h.set_aside.points,
        split=parts_out(h.set_aside.parts),
        turn_points=h.turn_points,
        dice_left_count=h.dice_left,
        hot_dice=h.hot_dice,
        bank_allowed=h.bank_allowed,
        bank_expected_points=h.bank,
        throw_on_expected_points=h.throw_on,
        decision=h.decision,
        expected_points=h.value,
        win_probability=h.win_probability,
        best=top - own <= BEST_WITHIN,
        loss=loss_of(top, own),
    )
