"""What each decision of a played scorecard game cost, valued with the solved table.

Every keep and every box is the coach's question asked after the fact, compared with every
option those dice had; the values are `advise`'s, so a review and `/holds` cannot disagree.
A decision's `loss` is the best option's expected total minus the chosen one's, so that
`final_total = optimal_expected_score - expected_loss + luck` (docs/reviews.md).  Given a
target, each decision also prices its chance to reach it (`win_loss`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from diceref.core.arrays import FloatArray
from diceref.core.dice import DICE_PER_THROW, Dice
from diceref.core.losses import BEST_WITHIN, Losses, loss_of, losses
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import Scorecard, is_complete
from diceref.games.scorecard.rules.turns import ReplayedTurn, final_total
from diceref.games.scorecard.solver.advice import (
    Advice,
    BoxAdvice,
    KeepAdvice,
    Target,
    advise,
    expected_final_score,
)


@dataclass(frozen=True)
class Decision:
    turn: int  # index of the turn in the game
    index: int  # index of the decision in its turn (one per throw)
    dice: Dice
    throws_left: int
    chosen: Advice
    best: tuple[Advice, ...]  # every option within BEST_WITHIN of the top (ties)
    loss: float  # best minus chosen, >= 0; exactly 0 within BEST_WITHIN
    # with a target: the best chance to reach it minus the chosen option's (as `loss`)
    win_loss: float | None = None


@dataclass(frozen=True)
class TurnReview:
    turn: ReplayedTurn
    decisions: tuple[Decision, ...]

    @property
    def loss(self) -> float:
        return sum(d.loss for d in self.decisions)


@dataclass(frozen=True)
class GameReview:
    """A played game's review: every decision valued, their losses summed, and the final
    total against the optimal expected score (the rest is luck)."""

    turns: tuple[TurnReview, ...]
    losses: Losses[Decision]  # the decisions' losses summed, the costliest listed
    final_total: int
    optimal_expected_score: float
    complete: bool
    luck: float | None  # final - optimal + expected loss, for a complete game only


def _is_chosen(option: Advice, keep: Dice | None, box: str | None) -> bool:
    if keep is not None:
        return isinstance(option, KeepAdvice) and option.keep == keep
    return isinstance(option, BoxAdvice) and option.box == box


def review_decision(
    ruleset: Ruleset,
    values: FloatArray,
    card: Scorecard,
    dice: Dice,
    throws_left: int,
    throw: int,
    keep: Dice | None = None,
    box: str | None = None,
    target: Target | None = None,
) -> tuple[Advice, tuple[Advice, ...], float, float | None]:
    """(chosen option, best options, loss, loss in the chance to reach `target`) of keeping
    `keep` (or filling `box`) with these dice.  Keeping all five is no option (it is
    standing, and a record refuses it)."""
    options = [
        o
        for o in advise(ruleset, values, card, dice, throws_left, throw, target)
        if not (isinstance(o, KeepAdvice) and len(o.keep) == DICE_PER_THROW)
    ]
    top = options[0].expected_total
    chosen = next(o for o in options if _is_chosen(o, keep, box))
    best = tuple(o for o in options if top - o.expected_total <= BEST_WITHIN)
    win_loss = None
    if target is not None:
        chances = [o.win_probability or 0.0 for o in options]
        win_loss = loss_of(max(chances), chosen.win_probability or 0.0)
    return chosen, best, loss_of(top, chosen.expected_total), win_loss


def review_turn(
    ruleset: Ruleset,
    values: FloatArray,
    i: int,
    turn: ReplayedTurn,
    target: Target | None = None,
) -> TurnReview:
    record = turn.record
    last = len(record.throws) - 1
    decisions = []
    for j, dice in enumerate(record.throws):
        keep = record.keeps[j] if j < last else None
        chosen, best, loss, win_loss = review_decision(
            ruleset,
            values,
            turn.before,
            dice,
            ruleset.throws_per_turn - 1 - j,
            j + 1,
            keep=keep,
            box=None if keep is not None else record.box,
            target=target,
        )
        left = ruleset.throws_per_turn - 1 - j
        decisions.append(Decision(i, j, dice, left, chosen, best, loss, win_loss))
    return TurnReview(turn, tuple(decisions))


def review_game(
    ruleset: Ruleset,
    values: FloatArray,
    played: Sequence[ReplayedTurn],
    target: Target | None = None,
) -> GameReview:
    """The review of a replayed game (see `diceref.games.scorecard.rules.turns`); with a
    `target`, each decision's `win_loss` too."""
    turns = tuple(review_turn(ruleset, values, i, t, target) for i, t in enumerate(played))
    summed = losses([d for t in turns for d in t.decisions])
    final = final_total(ruleset, played)
    optimal = expected_final_score(ruleset, values, Scorecard())
    complete = bool(played) and is_complete(ruleset, played[-1].after.boxes)
    return GameReview(
        turns=turns,
        losses=summed,
        final_total=final,
        optimal_expected_score=optimal,
        complete=complete,
        luck=final - optimal + summed.expected_loss if complete else None,
    )
