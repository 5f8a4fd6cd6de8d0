"""Seeded scorecard games played with our rules and tables, recorded as `POST /reviews`
takes them (the dice after each throw, the keeps, the box), with the coach's own view of
every decision so a test can hold the review to it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import Scorecard, is_complete, legal_options
from diceref.games.scorecard.solver.advice import BoxAdvice, KeepAdvice, advise


@dataclass(frozen=True)
class Seen:
    """A decision as the coach saw it: the card, the dice, throws left and the choice."""

    card: Scorecard
    dice: tuple[int, ...]
    throws_left: int
    throw: int
    chosen: KeepAdvice | BoxAdvice


def play(
    ruleset: Ruleset, values: FloatArray, seed: int, noise: float, turns: int | None = None
) -> tuple[list[dict[str, Any]], list[Seen]]:
    """A game (or its first `turns` turns): the coach's best option, or with chance `noise`
    a random one (keeping all five excluded: it is no record)."""
    rng = np.random.default_rng(seed)
    card = Scorecard()
    record: list[dict[str, Any]] = []
    seen: list[Seen] = []
    while not is_complete(ruleset, card.boxes) and (turns is None or len(record) < turns):
        dice = sorted(rng.integers(1, 7, 5).tolist())
        throws, keeps = [dice], []
        throws_left = ruleset.throws_per_turn - 1
        while True:
            throw = ruleset.throws_per_turn - throws_left
            options = [
                o
                for o in advise(ruleset, values, card, dice, throws_left, throw)
                if not (isinstance(o, KeepAdvice) and len(o.keep) == 5)
            ]
            pick = options[int(rng.integers(len(options)))] if rng.random() < noise else None
            choice = options[0] if pick is None else pick
            seen.append(Seen(card, tuple(dice), throws_left, throw, choice))
            if isinstance(choice, KeepAdvice):
                keeps.append(list(choice.keep))
                dice = sorted([*choice.keep, *rng.integers(1, 7, 5 - len(choice.keep)).tolist()])
                throws.append(dice)
                throws_left -= 1
                continue
            record.append({"throws": throws, "keeps": keeps, "box": choice.box})
            option = next(
                o for o in legal_options(ruleset, card, dice, throw) if o.box == choice.box
            )
            card = Scorecard(
                {**card.boxes, option.box: option.points}, card.extra_bonus + option.extra_bonus
            )
            break
    return record, seen
