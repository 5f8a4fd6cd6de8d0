"""`POST /yardkle/reviews`: what each decision of played Yardkle turns cost.

Each turn is sent as `/yardkle/turns` takes it, with the player's banked total before it
(which says whether they are on the pad); the rules layer referees it (a 422 at the first
illegal step, naming `turns[i]...`), and every decision is valued against the optimal
expected-points policy from the registry's table.  Under house rules (`rules`, as on every
Yardkle operation) the turns are refereed and valued under those rules, against their own
table: solved on demand like `/yardkle/holds`'s (a 503 with `Retry-After` while it is
solved, a 429 when the solve queue is full), never on the request's path.  A turn sent with
its `opponent` (a two-player game) is valued by the chance to win too, from the rules'
two-player table, read the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import msgspec
from litestar import Request
from litestar.params import JSONBody
from msgspec import Meta

from diceref.core.arrays import FloatArray
from diceref.core.errors import RuleViolation
from diceref.games.yardkle.api.models import OpponentIn, Total, TurnThrows
from diceref.games.yardkle.api.routes import _game, _records, duel_levels, duel_seat
from diceref.games.yardkle.rules.ruleset import YardkleRules
from diceref.games.yardkle.rules.turns import TurnEnd, TurnResult, adjudicate_turn
from diceref.games.yardkle.solver.advice import Decision
from diceref.games.yardkle.solver.duel_fast import CompactDuel
from diceref.games.yardkle.solver.review import Choice, DuelTurn, ThrowDecision, review_turns
from diceref.games.yardkle.tables import check_duel_solvable, duel_of, duel_spec, policy_spec
from diceref.http.family import operation, registry_of, ruleset_id_of
from diceref.http.fields import Rules, RulesetId


class YardkleReviewTurnIn(msgspec.Struct, forbid_unknown_fields=True):
    """A turn as played, and the player's standing before it."""

    throws: TurnThrows
    end: TurnEnd
    banked_total: Total = 0
    on_pad: bool | None = None  # omitted: follows from banked_total
    opponent: OpponentIn | None = None
    first_in_round: bool | None = None  # read with an `opponent` only


class YardkleReviewRequest(msgspec.Struct, forbid_unknown_fields=True):
    turns: Annotated[list[YardkleReviewTurnIn], Meta(max_length=500)]
    rules: Rules | None = None


class ChoiceOut(msgspec.Struct, omit_defaults=True):
    set_aside: list[int]
    decision: Decision
    expected_points: float
    win_probability: float | msgspec.UnsetType = msgspec.UNSET


class YardkleDecisionOut(msgspec.Struct, omit_defaults=True):
    """After a throw that scored: the set-aside, then bank or throw on."""

    turn_index: int
    decision_index: int
    throw: int
    dice: list[int]
    turn_points: int
    chosen: ChoiceOut
    best_options: list[ChoiceOut]
    loss: float
    win_loss: (
        Annotated[
            float,
            Meta(
                description="With the turn's `opponent`: the best chance to win the game "
                "minus the chosen decision's, under two-player optimal play (0 for a best "
                "decision; left out after throwing on from turn points where banking is "
                "proven best, which the two-player table holds no value for)"
            ),
        ]
        | msgspec.UnsetType
    ) = msgspec.UNSET


class YardkleTurnReviewOut(msgspec.Struct):
    turn_index: int
    end: TurnEnd
    points: int
    optimal_expected_points: float
    loss: float
    luck: float
    decisions: list[YardkleDecisionOut]


class YardkleReviewResponse(msgspec.Struct, omit_defaults=True):
    turns: list[YardkleTurnReviewOut]
    expected_loss: float
    decision_count: int
    mean_loss: float
    points: int
    optimal_expected_points: float
    luck: float
    costliest: list[YardkleDecisionOut]
    ruleset_id: RulesetId | msgspec.UnsetType = msgspec.UNSET


def _choice(c: Choice) -> ChoiceOut:
    win = msgspec.UNSET if c.win_probability is None else c.win_probability
    return ChoiceOut(list(c.set_aside), c.decision, c.expected_points, win)


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
        msgspec.UNSET if d.win_loss is None else d.win_loss,
    )


@operation("/reviews", summary="Review played Yardkle turns", problems=(400, 422, 429, 503))
def yardkle_reviews(
    data: JSONBody[YardkleReviewRequest],
    request: Request,  # type: ignore[type-arg]
) -> YardkleReviewResponse:
    """Every decision of the turns (after each throw that scored: the set-aside, then bank
    or throw on) against the optimal expected-points policy under the request's rules:
    what was chosen, the best options (ties included) and the `loss` in expected turn
    points; per turn its points, the policy's expected points, its loss and its luck; in
    all, the same sums and the three costliest decisions.  An illegal turn is a 422 naming
    `turns[i]` and the rule; under house rules whose table is not solved yet, a 503 with
    `Retry-After` (the solve is queued).  A turn sent with its `opponent` also gives each
    decision's `win_loss` and the chosen choice's `win_probability`, against that
    opponent under two-player optimal play (the rules' two-player table: a 503 with
    `progress` until it is solved); under `last_turns: complete_the_round` such a turn
    also says whether its player started the round (`first_in_round`)."""
    registry = registry_of(request)
    return review_answer(
        data,
        lambda rules: registry.require(policy_spec(rules)),
        lambda rules: duel_of(rules, registry.require(duel_spec(rules))),
    )


def review_answer(
    data: YardkleReviewRequest,
    table_of: Callable[[YardkleRules], FloatArray],
    duel_table_of: Callable[[YardkleRules], CompactDuel] | None = None,
) -> YardkleReviewResponse:
    """The answer to `data`: the rules checked (a 422 naming `rules.<name>`), every turn
    refereed under them, then the decisions valued with `table_of(rules)`, the policy
    table of those rules (the registry's for the handler, raising a 503 while it is not
    ready; solved on the spot for the CLI), and the turns with an `opponent` with
    `duel_table_of(rules)`, the two-player table (None: such turns are a 422)."""
    game = _game(data.rules)
    rules = game.rules
    results = referee(data, rules)
    duels = duel_turns(data, rules, duel_table_of)
    review = review_turns(table_of(rules), rules, results, duels)
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
        **review.losses.totals(),
        points=review.points,
        optimal_expected_points=review.optimal_expected_points,
        luck=review.luck,
        costliest=[_decision_out(d) for d in review.losses.costliest],
        ruleset_id=ruleset_id_of(game, data.rules),
    )


def referee(data: YardkleReviewRequest, rules: YardkleRules) -> list[TurnResult]:
    """Every turn as the rules score it against the banked total before it; the first
    illegal step (or an `on_pad` that contradicts the total) raises, naming `turns[i]`."""
    results = []
    for i, turn in enumerate(data.turns):
        on_pad = turn.banked_total > 0 or rules.entry_minimum == 0
        if turn.on_pad is not None and turn.on_pad != on_pad:
            raise RuleViolation(
                f"turns[{i}].on_pad",
                f"a banked total of {turn.banked_total} means the player is "
                f"{'' if on_pad else 'not '}on the pad",
                "pad_mismatch",
            )
        results.append(
            adjudicate_turn(
                _records(turn.throws), turn.end, turn.banked_total, rules, where=f"turns[{i}]"
            )
        )
    return results


def duel_turns(
    data: YardkleReviewRequest,
    rules: YardkleRules,
    duel_table_of: Callable[[YardkleRules], CompactDuel] | None,
) -> list[DuelTurn | None]:
    """Per turn, the two-player game it was played in (None without an `opponent`): both
    totals checked against the rules and the table (a 422 naming `turns[i]...`) before
    the table is asked for."""
    pairs: list[tuple[int, int, int] | None] = []
    for i, turn in enumerate(data.turns):
        if turn.opponent is None:
            pairs.append(None)
            continue
        if duel_table_of is None:
            raise RuleViolation(
                f"turns[{i}].opponent",
                "two-player reviews are served by the service, which holds the two-player "
                "table (POST /yardkle/reviews)",
                "not_served_here",
            )
        check_duel_solvable(rules)
        on_pad = turn.banked_total > 0 or rules.entry_minimum == 0
        a = duel_levels(
            rules, turn.banked_total, on_pad, f"turns[{i}].banked_total", f"turns[{i}].on_pad"
        )
        b = duel_levels(
            rules,
            turn.opponent.total,
            turn.opponent.on_pad,
            f"turns[{i}].opponent.total",
            f"turns[{i}].opponent.on_pad",
        )
        seat = duel_seat(rules, turn.first_in_round, f"turns[{i}].first_in_round")
        pairs.append((a, b, seat))
    if all(p is None for p in pairs):
        return [None] * len(pairs)
    assert duel_table_of is not None
    duel = duel_table_of(rules)
    out: list[DuelTurn | None] = []
    for pair in pairs:
        if pair is None:
            out.append(None)
            continue
        a, b, seat = pair
        bank, _, _ = duel.game.bank(a, b, duel.seat_values, seat)
        out.append(DuelTurn(duel.turn(a, b, seat), bank))
    return out
