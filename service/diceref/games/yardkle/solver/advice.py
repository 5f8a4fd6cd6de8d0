"""Advice for one Yardkle throw: every legal set-aside, valued with the solved table.

For each set-aside the two ways to go on are valued separately (bank now, or throw the dice
left and play on optimally) so a player sees what the better choice gains, not only which it
is.  The values are read from the same table the policy was solved into, so advice and
policy cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from diceref.core.arrays import FloatArray
from diceref.games.yardkle.rules.scoring import SetAside, YardkleRules, set_asides
from diceref.games.yardkle.solver.duel import Turn
from diceref.games.yardkle.solver.policy import bank_value, throw_value
from diceref.games.yardkle.solver.race import Race


class Decision(StrEnum):
    BANK = "bank"
    THROW_ON = "throw_on"


@dataclass(frozen=True)
class HoldAdvice:
    set_aside: SetAside
    turn_points: int  # turn points after setting these dice aside
    dice_left: int  # dice the next throw would use (all again after hot dice)
    hot_dice: bool
    bank_allowed: bool  # false while off the pad under the entry threshold
    bank: float  # expected turn points if the player banks now (0 when not allowed)
    throw_on: float  # ... if the player throws the dice left and plays on optimally
    decision: Decision
    value: float  # the better of the two
    rank: int
    # With a `need`: the chance of ending the turn with at least `need` points, deciding
    # (bank or throw on) to make it; None without one.
    win_probability: float | None = None


def advise(
    table: FloatArray,
    rules: YardkleRules,
    dice: Sequence[int],
    turn_points: int,
    on_pad: bool,
    need: int | None = None,
) -> list[HoldAdvice]:
    """Every legal set-aside of the throw, best first (empty: the throw is a Yardkle).

    With a `need` (the turn points that win, see `race.py`), the decision and the order
    follow the chance of reaching it, expected points breaking ties; without one, the
    expected points (the expected-points policy)."""
    race = None if need is None else Race(rules, need, on_pad, turn_points)
    found: list[HoldAdvice] = []
    for option in set_asides(dice, rules):
        after = turn_points + option.points
        left = len(dice) - len(option.dice)
        hot = left == 0
        next_dice = rules.dice if hot else left
        # Banking needs the pad or the entry minimum, and after hot dice that the rules let
        # the player stop there (`hot_dice_optional`).
        allowed = (on_pad or after >= rules.entry_minimum) and (rules.hot_dice_optional or not hot)
        bank = bank_value(rules, on_pad, after) if allowed else 0.0
        throw = throw_value(table, rules, on_pad, after, next_dice)
        # Equal values go to banking: the same expectation without the risk.
        decision = Decision.BANK if allowed and bank >= throw else Decision.THROW_ON
        win = None
        if race is not None:  # banking wins once the need is met, else only throwing can
            won = allowed and race.won(after)
            decision = Decision.BANK if won else Decision.THROW_ON
            win = 1.0 if won else race.throw_on(after, next_dice)
        found.append(
            HoldAdvice(
                set_aside=option,
                turn_points=after,
                dice_left=next_dice,
                hot_dice=hot,
                bank_allowed=allowed,
                bank=bank,
                throw_on=throw,
                decision=decision,
                value=max(bank, throw) if allowed else throw,
                rank=0,
                win_probability=win,
            )
        )
    return _ranked(found)


def advise_duel(
    options: Sequence[HoldAdvice], rules: YardkleRules, turn: Turn, bank: FloatArray
) -> list[HoldAdvice]:
    """The options of `advise` (expected points) valued for two players instead: each
    option's `win_probability` is the thrower's chance to win the game under optimal
    play by both (the better of banking and throwing on, from the pair's `turn` and its
    `bank` row, `duel._Game.bank`), the decision follows it (equal chances go to banking,
    as in the turn's table) and so does the order, expected points breaking ties.

    From the turn's cap banking is proven best, so there the turn holds no throwing-on
    value and the option banks.  With hot dice forced, an option of hot dice may not bank
    (`bank_allowed`) and throws on, from the cap too; after hot dice at or past the cap the
    throw's options lie past the turn's table, and `Turn.worth` reads their closed forms."""
    found: list[HoldAdvice] = []
    for h in options:
        after = h.turn_points // rules.unit
        win = turn.worth(after, h.dice_left)
        banks = h.bank_allowed and (after >= turn.cap or float(bank[after]) >= win)
        decision = Decision.BANK if banks else Decision.THROW_ON
        found.append(replace(h, decision=decision, win_probability=win))
    return _ranked(found)


def _ranked(found: list[HoldAdvice]) -> list[HoldAdvice]:
    """The options best first, ranked: by chance (when there is one), then expected points,
    then the larger set-aside, then the fewer dice."""
    found.sort(
        key=lambda h: (
            -(h.win_probability or 0.0),
            -h.value,
            -h.set_aside.points,
            len(h.set_aside.dice),
        )
    )
    return [replace(h, rank=i + 1) for i, h in enumerate(found)]
