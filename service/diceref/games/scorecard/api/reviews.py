"""`POST /reviews`: what each decision of a played scorecard game cost.

The request is the game as it was played (per turn: the dice after each throw, the dice
kept before each throw but the first, the box filled); the rules layer replays it
(`rules/turns.py`, a 422 at the first step that cannot have happened) and scores every
placement itself; the solver values every decision against the game's table
(`solver/review.py`).  The table comes from the registry like `/holds`' (a 503 while it
loads, never a solve on the request's path).

The rules are resolved by `_review_ruleset` alone: the custom `ruleset` field (a complete
description instead of `game`, being added for every scorecard operation) goes beside
`game` in `ReviewRequest`, and that one resolver call picks it up.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Request
from litestar.params import JSONBody
from msgspec import Meta

from diceref.games.scorecard.api.custom import ruleset_of
from diceref.games.scorecard.api.models import (
    BoxOption,
    EchoedTarget,
    FiveDice,
    GameField,
    KeepOption,
    RulesetField,
    RulesetId,
    TargetTotal,
    option_out,
)
from diceref.games.scorecard.api.routes import _ruleset_id, play_to_win
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import card_total
from diceref.games.scorecard.rules.turns import TurnRecord, replay_game
from diceref.games.scorecard.solver.review import Decision, GameReview, review_game
from diceref.http.family import operation, registry_of
from diceref.http.fields import BoxId, Die, Rules

KeptDice = Annotated[
    list[Die], Meta(max_length=5, description="The dice kept before the next throw")
]


class ReviewTurnIn(msgspec.Struct, forbid_unknown_fields=True):
    """One turn as played."""

    throws: Annotated[
        list[FiveDice],
        Meta(
            min_length=1,
            max_length=8,
            description="The five dice as they lay after each throw, kept dice included",
        ),
    ]
    box: BoxId
    keeps: Annotated[
        list[KeptDice],
        Meta(max_length=7, description="One keep per throw but the last"),
    ] = []


class ReviewRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A game as played, from the empty card: complete or part-played; a built-in `game`
    (under its `rules`) or a custom `ruleset`."""

    game: GameField | None = None
    turns: Annotated[list[ReviewTurnIn], Meta(max_length=64)]
    rules: Rules | None = None
    ruleset: RulesetField | None = None
    target: TargetTotal | None = None


AnyOption = KeepOption | BoxOption


class ReviewDecisionOut(msgspec.Struct, omit_defaults=True):
    """One decision: the keep after a throw followed by another, else the box."""

    turn_index: int
    decision_index: int
    throw: int
    dice: list[int]
    throws_left: int
    chosen: AnyOption
    best_options: list[AnyOption]
    loss: float
    win_loss: (
        Annotated[
            float,
            Meta(
                description="With a `target`: the best chance to reach it minus the chosen "
                "option's (0 for a best option)"
            ),
        ]
        | msgspec.UnsetType
    ) = msgspec.UNSET


class TurnReviewOut(msgspec.Struct):
    turn_index: int
    box: str
    points: int
    total: int
    loss: float
    decisions: list[ReviewDecisionOut]


class ReviewResponse(msgspec.Struct, omit_defaults=True):
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
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET
    target: EchoedTarget | msgspec.UnsetType = msgspec.UNSET


def _review_ruleset(data: ReviewRequest) -> tuple[Ruleset, bool]:
    """The request's ruleset, and whether the answer names it (`ruleset_id`)."""
    return ruleset_of(None if data.game is None else data.game.value, data.rules, data.ruleset)


def turn_records(data: ReviewRequest) -> list[TurnRecord]:
    return [
        TurnRecord(tuple(map(tuple, t.throws)), tuple(map(tuple, t.keeps)), t.box)
        for t in data.turns
    ]


def _decision_out(ruleset: Ruleset, d: Decision) -> ReviewDecisionOut:
    top = d.best[0].expected_total
    return ReviewDecisionOut(
        turn_index=d.turn,
        decision_index=d.index,
        throw=d.index + 1,
        dice=list(d.dice),
        throws_left=d.throws_left,
        chosen=option_out(ruleset, d.chosen, top),
        best_options=[option_out(ruleset, o, top) for o in d.best],
        loss=d.loss,
        win_loss=msgspec.UNSET if d.win_loss is None else d.win_loss,
    )


def review_out(
    ruleset: Ruleset, review: GameReview, chosen: bool, target: int | None = None
) -> ReviewResponse:
    return ReviewResponse(
        game=ruleset.id,
        turns=[
            TurnReviewOut(
                turn_index=i,
                box=t.turn.placement.box,
                points=t.turn.points,
                total=card_total(ruleset, t.turn.after),
                loss=t.loss,
                decisions=[_decision_out(ruleset, d) for d in t.decisions],
            )
            for i, t in enumerate(review.turns)
        ],
        **review.losses.totals(),
        final_total=review.final_total,
        optimal_expected_score=review.optimal_expected_score,
        complete=review.complete,
        luck=review.luck,
        costliest=[_decision_out(ruleset, d) for d in review.losses.costliest],
        ruleset_id=_ruleset_id(ruleset, chosen),
        target=msgspec.UNSET if target is None else target,
    )


@operation("/reviews", summary="Review a played game", problems=(400, 404, 422, 429, 503))
def reviews(data: JSONBody[ReviewRequest], request: Request) -> ReviewResponse:  # type: ignore[type-arg]
    """Every decision of the game (the keep after each throw but the last, then the box)
    against every option it had, by exact expected final score under optimal play: what
    was chosen, the best options (ties included) and the `loss`; per turn its points and
    loss; for the game the expected loss, the mean loss per decision, the final total, the
    optimal expected score, the luck (for a complete game) and the three costliest
    decisions.  An impossible record is a 422 naming the turn, the throw or keep, and the
    rule.  With a `target`, each decision also gives its `win_loss`, the chance to reach
    the target it gave away (from the win table, solved when first asked for), and its
    options their `win_probability`."""
    ruleset, chosen = _review_ruleset(data)
    played = replay_game(ruleset, turn_records(data))
    values, target = play_to_win(registry_of(request), ruleset, data.target)
    review = review_game(ruleset, values, played, target)
    return review_out(ruleset, review, chosen, data.target)
