"""What each decision of played Yardkle turns cost, in expected turn points.

After every scoring throw the player sets dice aside, then banks or throws on; the
decision's value is what the optimal policy expects of the turn from there (`advise`), and
its `loss` the best option's value minus the chosen one's.  Per turn,
`points = optimal_expected_points - loss + luck` (docs/reviews.md).  A turn played against
one opponent (`DuelTurn`) also values each decision by the chance to win the game under
two-player optimal play: its `win_loss` is the best chance minus the chosen one's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from diceref.core.arrays import FloatArray
from diceref.core.dice import Dice, canonical
from diceref.core.losses import BEST_WITHIN, Losses, loss_of, losses
from diceref.games.yardkle.rules.scoring import YardkleRules
from diceref.games.yardkle.rules.turns import TurnEnd, TurnResult
from diceref.games.yardkle.solver.advice import Decision, HoldAdvice, advise
from diceref.games.yardkle.solver.duel import Turn
from diceref.games.yardkle.solver.policy import throw_value


@dataclass(frozen=True)
class Choice:
    set_aside: Dice
    decision: Decision
    expected_points: float
    win_probability: float | None = None  # against the opponent, for the chosen choice


@dataclass(frozen=True)
class DuelTurn:
    """The two-player game a turn was played in: the thrower's turn at the two banked
    totals (`duel.Turn`) and the worth of banking each turn points there (`bank`, in the
    rules' units, from `duel._Game.bank`)."""

    turn: Turn
    bank: FloatArray


@dataclass(frozen=True)
class ThrowDecision:
    turn: int
    index: int  # the throw's index in the turn
    dice: Dice
    turn_points: int  # in hand before the throw
    chosen: Choice
    best: tuple[Choice, ...]
    loss: float
    win_loss: float | None = None  # against the opponent: the best chance minus the chosen


@dataclass(frozen=True)
class TurnReview:
    result: TurnResult
    optimal_expected_points: float  # the policy's value of the turn's first throw
    decisions: tuple[ThrowDecision, ...]

    @property
    def loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def luck(self) -> float:
        return self.result.points - self.optimal_expected_points + self.loss


def _best_choice(h: HoldAdvice) -> Choice:
    return Choice(h.set_aside.dice, h.decision, h.value)


def _win_chances(
    duel: DuelTurn,
    rules: YardkleRules,
    options: Sequence[HoldAdvice],
    kept: HoldAdvice,
    banked: bool,
) -> tuple[float, float] | None:
    """(the best chance to win among the options, the chosen decision's), or None where the
    table holds no value for the choice: throwing on from turn points where banking is
    proven best (from the turn's cap on), which loses some chance the table does not hold.
    Past the turn's rows (after hot dice past the cap, with hot dice forced) the options
    are worth the turn's closed forms (`Turn.worth`), a bank there among them."""
    turn = duel.turn
    best = max(turn.worth(h.turn_points // rules.unit, h.dice_left) for h in options)
    after = kept.turn_points // rules.unit
    if banked:
        if after < len(duel.bank):
            return best, float(duel.bank[after])
        return best, turn.worth(after, kept.dice_left)  # from the cap on a free state banks
    if kept.hot_dice and not rules.hot_dice_optional:  # forced on: the turn holds the throw
        return best, turn.worth(after, kept.dice_left)
    if after >= turn.cap:
        return None
    return best, float(turn.throw[after, kept.dice_left - 1])


def review_turn(
    table: FloatArray,
    rules: YardkleRules,
    i: int,
    result: TurnResult,
    duel: DuelTurn | None = None,
) -> TurnReview:
    """The decisions of one refereed turn (`adjudicate_turn`'s result); with `duel`, each
    valued by the chance to win against the opponent too."""
    on_pad = result.banked_total > 0 or rules.entry_minimum == 0
    decisions: list[ThrowDecision] = []
    in_hand = 0
    last = len(result.throws) - 1
    for k, throw in enumerate(result.throws):
        if throw.yardkle:
            break
        options = advise(table, rules, throw.dice, in_hand, on_pad)
        banked = k == last and result.end is TurnEnd.BANK
        kept = next(h for h in options if h.set_aside.dice == canonical(throw.set_aside))
        chances = None if duel is None else _win_chances(duel, rules, options, kept, banked)
        chosen = Choice(
            kept.set_aside.dice,
            Decision.BANK if banked else Decision.THROW_ON,
            kept.bank if banked else kept.throw_on,
            None if chances is None else chances[1],
        )
        top = options[0].value
        best = tuple(_best_choice(h) for h in options if top - h.value <= BEST_WITHIN)
        loss = loss_of(top, chosen.expected_points)
        win_loss = None if chances is None else loss_of(*chances)
        decisions.append(ThrowDecision(i, k, throw.dice, in_hand, chosen, best, loss, win_loss))
        in_hand = throw.running_total
    start = throw_value(table, rules, on_pad, 0, rules.dice)
    return TurnReview(result, start, tuple(decisions))


@dataclass(frozen=True)
class Review:
    """The review of a player's turns: every decision valued and their losses summed."""

    turns: tuple[TurnReview, ...]
    losses: Losses[ThrowDecision]  # the decisions' losses summed, the costliest listed
    points: int
    optimal_expected_points: float
    luck: float


def review_turns(
    table: FloatArray,
    rules: YardkleRules,
    results: Sequence[TurnResult],
    duels: Sequence[DuelTurn | None] | None = None,
) -> Review:
    """Every turn reviewed; `duels[i]`, where given, the two-player game turn i was in."""
    duels = duels if duels is not None else [None] * len(results)
    turns = tuple(
        review_turn(table, rules, i, r, d)
        for i, (r, d) in enumerate(zip(results, duels, strict=True))
    )
    summed = losses([d for t in turns for d in t.decisions])
    points = sum(t.result.points for t in turns)
    optimal = sum(t.optimal_expected_points for t in turns)
    return Review(
        turns=turns,
        losses=summed,
        points=points,
        optimal_expected_points=optimal,
        luck=points - optimal + summed.expected_loss,
    )
