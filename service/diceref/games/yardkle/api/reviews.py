"""`POST /yardkle/reviews`: what each decision of played Yardkle turns cost.

Each turn is sent as `/yardkle/turns` takes it, with the player's banked total before it
(which says whether they are on the pad); the rules layer referees it (a 422 at the first
illegal step, naming `turns[i]...`), and every decision is valued against the optimal
expected-points policy from the registry's table (a 503 while it loads).  Under house
rules (`rules`, being added to the Yardkle routes), the turns are refereed and valued under
the same rules: `RULES` below is then the request's.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Request
from litestar.params import JSONBody
from msgspec import Meta

from diceref.core.arrays import FloatArray
from diceref.core.errors import RuleViolation
from diceref.games.yardkle.api.models import Total, TurnThrows
from diceref.games.yardkle.api.routes import _records
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES as RULES
from diceref.games.yardkle.rules.turns import TurnEnd, adjudicate_turn
from diceref.games.yardkle.solver.advice import Decision
from diceref.games.yardkle.solver.review import Choice, ThrowDecision, review_turns
from diceref.games.yardkle.tables import policy_spec
from diceref.http.family import operation, registry_of


class YardkleReviewTurnIn(msgspec.Struct, forbid_unknown_fields=True):
    """A turn as played, and the player's standing before it."""

    throws: TurnThrows
    end: TurnEnd
    banked_total: Total = 0
    on_pad: bool | None = None  # omitted: follows from banked_total


class YardkleReviewRequest(msgspec.Struct, forbid_unknown_fields=True):
    turns: Annotated[list[YardkleReviewTurnIn], Meta(max_length=500)]


class ChoiceOut(msgspec.Struct):
    set_aside: list[int]
    decision: Decision
    expected_points: float


class YardkleDecisionOut(msgspec.Struct):
    """After a throw that scored: the set-aside, then bank or throw on."""

    turn_index: int
    decision_index: int
    throw: int
    dice: list[int]
    turn_points: int
    chosen: ChoiceOut
    best_options: list[ChoiceOut]
    loss: float


class YardkleTurnReviewOut(msgspec.Struct):
    turn_index: int
    end: TurnEnd
    points: int
    optimal_expected_points: float
    loss: float
    luck: float
    decisions: list[YardkleDecisionOut]


class YardkleReviewResponse(msgspec.Struct):
    turns: list[YardkleTurnReviewOut]
    expected_loss: float
    decision_count: int
    mean_loss: float
    points: int
    optimal_expected_points: float
    luck: float
    costliest: list[YardkleDecisionOut]


def _choice(c: Choice) -> ChoiceOut:
    return ChoiceOut(list(c.set_aside), c.decision, c.expected_points)


def _decision_out(d: ThrowDecision) -> YardkleDecisionOut:
    return YardkleDecisionOut(
        d.turn,
        d.index,
        d.index + 1,
        list(d.dice),
        d.turn_points,
        _choice(d.chosen),
        [_choice(c) for c in d.best],
        d.loss,
    )


@operation("/reviews", summary="Review played Yardkle turns", problems=(400, 422))
def yardkle_reviews(
    data: JSONBody[YardkleReviewRequest],
    request: Request,  # type: ignore[type-arg]
) -> YardkleReviewResponse:
    """Every decision of the turns (after each throw that scored: the set-aside, then bank
    or throw on) against the optimal expected-points policy: what was chosen, the best
    options (ties included) and the `loss` in expected turn points; per turn its points,
    the policy's expected points, its loss and its luck; in all, the same sums and the
    three costliest decisions.  An illegal turn is a 422 naming `turns[i]` and the rule."""
    table = registry_of(request).require(policy_spec(RULES))
    return review_answer(data, table)


def review_answer(data: YardkleReviewRequest, table: FloatArray) -> YardkleReviewResponse:
    """The answer to `data` with the policy table given (the handler's, or the CLI's)."""
    results = []
    for i, turn in enumerate(data.turns):
        on_pad = turn.banked_total > 0 or RULES.entry_minimum == 0
        if turn.on_pad is not None and turn.on_pad != on_pad:
            raise RuleViolation(
                f"turns[{i}].on_pad",
                f"a banked total of {turn.banked_total} means the player is "
                f"{'' if on_pad else 'not '}on the pad",
                "pad_mismatch",
            )
        results.append(
            adjudicate_turn(
                _records(turn.throws), turn.end, turn.banked_total, RULES, where=f"turns[{i}]"
            )
        )
    review = review_turns(table, RULES, results)
    return YardkleReviewResponse(
        turns=[
            YardkleTurnReviewOut(
                i,
                t.result.end,
                t.result.points,
                t.optimal_expected_points,
                t.loss,
                t.luck,
                [_decision_out(d) for d in t.decisions],
            )
            for i, t in enumerate(review.turns)
        ],
        expected_loss=review.expected_loss,
        decision_count=review.decisions,
        mean_loss=review.mean_loss,
        points=review.points,
        optimal_expected_points=review.optimal_expected_points,
        luck=review.luck,
        costliest=[_decision_out(d) for d in review.costliest],
    )
