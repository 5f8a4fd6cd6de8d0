"""Every yatzy-solver variant that the rule parameters can express, against the package
itself, option by option (issue 13, item 7).

`test_solver_reference.py` compares the built-in `yahtzee` (``american+forced-joker``) and
Verhoeff's free choice (``american``, through `yardzee`).  This module takes the other
variants of yatzy-solver 1.0.0 (``builtin_variants()``), each reached through builder
parameters only:

    american                  variant("yahtzee", joker=free_choice, matching_upper_forced=False)
    american+no-joker         variant("yahtzee", joker=none)                 (extra bonus 100 kept)
    american+no-bonus         variant("yahtzee", joker=none, extra_bonus=0)
    yatzy-scandinavian[+fh5][+tp4][+forced]
                              variant("yatzy", full_house_accepts_five_of_a_kind, two_pairs_accepts_
                              four_of_a_kind, order=forced)

For each: the box points of all 252 throws (their ``Variant.score``), the value of every
distinct card met at the start of a turn in seeded games played with our rules and
tables (their ``state_value``), and every option of sampled situations of those games, one
to one (their ``option_values``), to 1e-9 relative.  Some turns are also asked about with
dice that separate the variants (five of a kind, four of a kind, a full house), so the
readings and the extra bonus without a Joker are exercised.  Notation as in
`test_solver_reference.py`; the ``five_of_a_kind`` field of a state exists only where the
variant has an extra bonus (``american+no-bonus`` refuses it).

The reference's tables are written once to the test cache (`<cache>/yatzy-solver/`) and
loaded from there afterwards (building one takes 3 to 20 seconds on two cores).
"""

from __future__ import annotations

import math
import os
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import TEST_CACHE
from diceref.core.arrays import FloatArray
from diceref.core.dice import THROWS
from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.rules.points import points_table
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import (
    Scorecard,
    card_total,
    extra_bonus_for,
    is_complete,
    upper_subtotal,
)
from diceref.games.scorecard.solver.advice import (
    Advice,
    BoxAdvice,
    KeepAdvice,
    advise,
    card_state,
    state_value,
)
from diceref.games.scorecard.solver.statespace import state_space
from helpers import import_yatzy_solver

ys = import_yatzy_solver()
pytestmark = pytest.mark.slow

REL = 1e-9
ABS = 1e-12  # only for values that are exactly 0 on both sides (the last box scratched)
REF_NAME = {"yahtzee": "five_of_a_kind"}  # every other box id is the same on both sides
GAMES = 8  # per variant; about 300 decisions, from which the situations are drawn
POLICY_NOISE = (0.0, 0.15, 0.4, 1.0)  # chance of a random option, cycled per game
ASK = 0.3  # per turn: also ask about dice that separate the variants
SITUATIONS = 60
ASKED_SITUATIONS = 20  # of SITUATIONS, asked with separating dice

FH5 = {"full_house_accepts_five_of_a_kind": True}
TP4 = {"two_pairs_accepts_four_of_a_kind": True}
FORCED = {"order": "forced"}
VARIANTS: dict[str, tuple[str, dict[str, Any], int]] = {
    # reference variant: (our game, its parameters, seed)
    "american": ("yahtzee", {"joker": "free_choice", "matching_upper_forced": False}, 31),
    "american+no-joker": ("yahtzee", {"joker": "none"}, 32),
    "american+no-bonus": ("yahtzee", {"joker": "none", "extra_bonus": 0}, 33),
    "yatzy-scandinavian": ("yatzy", {}, 34),
    "yatzy-scandinavian+fh5": ("yatzy", FH5, 35),
    "yatzy-scandinavian+tp4": ("yatzy", TP4, 36),
    "yatzy-scandinavian+fh5+tp4": ("yatzy", {**FH5, **TP4}, 37),
    "yatzy-scandinavian+forced": ("yatzy", FORCED, 38),
    "yatzy-scandinavian+fh5+forced": ("yatzy", {**FH5, **FORCED}, 39),
    "yatzy-scandinavian+tp4+forced": ("yatzy", {**TP4, **FORCED}, 40),
    "yatzy-scandinavian+fh5+tp4+forced": ("yatzy", {**FH5, **TP4, **FORCED}, 41),
}


@dataclass(frozen=True)
class Situation:
    card: Scorecard
    dice: tuple[int, ...]
    throws_left: int
    asked: bool = False  # dice chosen to separate the variants, not thrown


@dataclass
class Pair:
    name: str
    ruleset: Ruleset
    values: FloatArray
    solver: Any  # ys.Solver
    situations: list[Situation]
    turn_starts: list[Scorecard]


# ---------------------------------------------------------------- reference notation


def five_box(ruleset: Ruleset) -> str:
    return next(b.id for b in ruleset.boxes if b.is_five_of_a_kind)


def ref_state(ruleset: Ruleset, card: Scorecard) -> str:
    filled = [REF_NAME.get(b.id, b.id) for b in ruleset.boxes if b.id in card.boxes]
    text = f"upper {upper_subtotal(ruleset, card.boxes)} | filled {','.join(filled) or '-'}"
    rule = ruleset.five_of_a_kind
    if rule is not None and rule.extra_bonus and rule.box in card.boxes:
        text += f" | five_of_a_kind {card.boxes[rule.box]}"
    return text


def ref_situation(ruleset: Ruleset, s: Situation) -> str:
    dice = " ".join(str(d) for d in sorted(s.dice))
    return f"dice {dice} | rolls {s.throws_left} | {ref_state(ruleset, s.card)}"


def ref_action(option: Advice) -> str:
    if isinstance(option, BoxAdvice):
        return f"score {REF_NAME.get(option.box, option.box)}"
    return "keep " + (" ".join(str(d) for d in option.keep) or "-")


def describe(ruleset: Ruleset, s: Situation) -> str:
    return (
        f"{ref_situation(ruleset, s)}  [our card {dict(s.card.boxes)}, "
        f"extra_bonus {s.card.extra_bonus}]"
    )


# ---------------------------------------------------------------- situations from play


def separating_dice(rng: np.random.Generator) -> tuple[int, ...]:
    """Five of a kind, four of a kind or a full house: where the variants differ."""
    face, other = (int(f) for f in rng.choice(np.arange(1, 7), 2, replace=False))
    kind = int(rng.integers(3))
    counts = (5, 0) if kind == 0 else (4, 1) if kind == 1 else (3, 2)
    return tuple(sorted((face,) * counts[0] + (other,) * counts[1]))


def play(
    ruleset: Ruleset, values: FloatArray, seed: int
) -> tuple[list[Situation], list[Situation], list[Scorecard]]:
    """Seeded games under our rules: (decisions met, separating asks, turn starts)."""
    rng = np.random.default_rng(seed)
    decisions: list[Situation] = []
    asks: list[Situation] = []
    starts: list[Scorecard] = []
    last = ruleset.throws_per_turn - 1
    for game in range(GAMES):
        noise = POLICY_NOISE[game % len(POLICY_NOISE)]
        card = Scorecard()
        while not is_complete(ruleset, card.boxes):
            starts.append(card)
            if rng.random() < ASK:
                asks.append(Situation(card, separating_dice(rng), int(rng.integers(0, 3)), True))
            dice = sorted(rng.integers(1, 7, size=5).tolist())
            throws_left = last
            while True:
                decisions.append(Situation(card, tuple(dice), throws_left))
                options = advise(ruleset, values, card, dice, throws_left)
                pick = options[int(rng.integers(len(options)))] if rng.random() < noise else None
                choice = options[0] if pick is None else pick
                if isinstance(choice, KeepAdvice) and len(choice.keep) < 5:
                    rolled = rng.integers(1, 7, size=5 - len(choice.keep)).tolist()
                    dice = sorted([*choice.keep, *rolled])
                    throws_left -= 1
                    continue
                if isinstance(choice, KeepAdvice):  # keeping all five is standing
                    boxes = [a for a in options if isinstance(a, BoxAdvice)]
                    choice = boxes[0] if pick is None else boxes[int(rng.integers(len(boxes)))]
                assert isinstance(choice, BoxAdvice)
                extra = extra_bonus_for(ruleset, card.boxes, dice)
                card = Scorecard(
                    {**card.boxes, choice.box: choice.points}, card.extra_bonus + extra
                )
                break
    return decisions, asks, starts


def draw_situations(
    ruleset: Ruleset, values: FloatArray, seed: int
) -> tuple[list[Situation], list[Scorecard]]:
    decisions, asks, starts = play(ruleset, values, seed)
    rng = np.random.default_rng(seed + 1)
    n_asked = min(ASKED_SITUATIONS, len(asks))
    picked = [asks[i] for i in sorted(rng.choice(len(asks), n_asked, replace=False))]
    rest = rng.choice(len(decisions), SITUATIONS - n_asked, replace=False)
    picked += [decisions[i] for i in sorted(rest)]
    distinct_starts = list({ref_state(ruleset, c): c for c in starts}.values())
    return picked, distinct_starts


# ---------------------------------------------------------------- fixtures


def reference_solver(variant: str) -> Any:
    """The reference's table for `variant`, built once into the test cache (f64, so its
    values are those of `Solver.build`), then loaded."""
    v = ys.Variant(variant)
    directory = TEST_CACHE / "yatzy-solver"
    path = directory / f"{variant}-{ys.SOLVER_VERSION}-f64.table"
    if path.exists():
        try:
            return ys.Solver.load(str(path), v)
        except (OSError, ValueError):
            path.unlink(missing_ok=True)  # damaged or from another build: build it again
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{variant}.", suffix=".tmp")
    os.close(fd)
    try:
        ys.Solver.build_table(v, tmp, precision="f64")
        os.replace(tmp, path)  # atomic: a concurrent run sees the whole file or none
    finally:
        Path(tmp).unlink(missing_ok=True)
    return ys.Solver.load(str(path), v)


@pytest.fixture(scope="module", params=sorted(VARIANTS))
def pair(
    request: pytest.FixtureRequest, solved_ruleset: Callable[[Ruleset], FloatArray]
) -> Iterator[Pair]:
    game, rules, seed = VARIANTS[request.param]
    ruleset = variant(game, **rules)
    values = solved_ruleset(ruleset)
    situations, starts = draw_situations(ruleset, values, seed)
    yield Pair(request.param, ruleset, values, reference_solver(request.param), situations, starts)


def close(ours: float, theirs: float) -> bool:
    return math.isclose(ours, theirs, rel_tol=REL, abs_tol=ABS)


# ---------------------------------------------------------------- tests


def test_every_reference_variant_is_covered() -> None:
    """The variants here and the two in `test_solver_reference.py` are all there are."""
    elsewhere = {"american+forced-joker"}  # the built-in yahtzee, compared there
    assert set(ys.builtin_variants()) == VARIANTS.keys() | elsewhere


def test_categories_and_box_points_line_up(pair: Pair) -> None:
    """Same boxes in the same order, and the same points for every throw in every box."""
    variant = pair.solver.variant
    rules = pair.ruleset
    assert [REF_NAME.get(b.id, b.id) for b in rules.boxes] == list(variant.categories)
    assert variant.dice == 5 and variant.rolls == rules.throws_per_turn == 3
    natural = points_table(rules).natural[0]
    wrong = [
        (b.id, dice, int(natural[i, t]), variant.score(REF_NAME.get(b.id, b.id), list(dice)))
        for i, b in enumerate(rules.boxes)
        for t, dice in enumerate(THROWS)
        if int(natural[i, t]) != variant.score(REF_NAME.get(b.id, b.id), list(dice))
    ]
    assert not wrong, wrong[:10]


def test_situations_cover_the_interesting_cases(pair: Pair) -> None:
    rules = pair.ruleset
    c: Counter[str] = Counter()
    for s in pair.situations:
        boxes = s.card.boxes
        c[f"rolls {s.throws_left}"] += 1
        c[f"filled {len(boxes) // 4 * 4}+"] += 1
        most = max(s.dice.count(f) for f in set(s.dice))
        if most == 5:
            c["five of a kind"] += 1
            if five_box(rules) in boxes:
                c["five of a kind, its box filled"] += 1
            if "full_house" not in boxes:
                c["five of a kind, full house open"] += 1
        if most >= 4 and "two_pairs" in rules.box_ids and "two_pairs" not in boxes:
            c["four of a kind, two pairs open"] += 1
        upper_open = any(rules.boxes[i].id not in boxes for i in rules.upper_indices)
        if upper_open and 48 <= upper_subtotal(rules, boxes) <= 78:
            c["upper open, subtotal 48..78"] += 1
    print(f"\n{pair.name}: coverage {dict(sorted(c.items()))}")
    for key in ("rolls 0", "rolls 1", "rolls 2", "five of a kind"):
        assert c[key] >= 3, (key, c)
    assert c["five of a kind, full house open"] >= 1, c
    if rules.five_of_a_kind is not None:  # the extra bonus (and Joker) cases
        assert c["five of a kind, its box filled"] >= 2, c
    if rules.order.value != "forced":  # forced: the upper boxes are all filled first
        assert c["upper open, subtotal 48..78"] >= 2, c
    if "two_pairs" in rules.box_ids:
        assert c["four of a kind, two pairs open"] >= 1, c
    assert len({k for k in c if k.startswith("filled ")}) >= 3


def test_start_of_turn_state_values_match(pair: Pair) -> None:
    space = state_space(pair.ruleset)
    cards = [Scorecard(), *pair.turn_starts, *(s.card for s in pair.situations)]
    by_state = {ref_state(pair.ruleset, c): c for c in cards}
    wrong: list[str] = []
    for text, card in by_state.items():
        ours = state_value(space, pair.values, card_state(pair.ruleset, card))
        theirs = pair.solver.state_value(text)
        if not close(ours, theirs):
            wrong.append(f"{text}: ours {ours!r} theirs {theirs!r} diff {ours - theirs:+.3e}")
    print(f"\n{pair.name}: {len(by_state) - len(wrong)}/{len(by_state)} start-of-turn states match")
    assert not wrong, f"{len(wrong)} of {len(by_state)} state values differ:\n" + "\n".join(
        wrong[:30]
    )


def test_every_option_matches_one_to_one(pair: Pair) -> None:
    rules = pair.ruleset
    set_differences: list[str] = []
    value_differences: list[str] = []
    matched = stand_checked = 0
    for s in pair.situations:
        total = card_total(rules, s.card)
        advice = advise(rules, pair.values, s.card, s.dice, s.throws_left)
        text = ref_situation(rules, s)
        ours: dict[str, float] = {}
        for a in advice:
            if isinstance(a, KeepAdvice) and len(a.keep) == 5:
                # Ours only (see test_solver_reference.py): keeping all five passes a throw,
                # worth the best option of the same dice with one reroll fewer.
                fewer = text.replace(f"| rolls {s.throws_left} |", f"| rolls {s.throws_left - 1} |")
                theirs_fewer = max(v for _, v in pair.solver.option_values(fewer))
                if not close(a.expected_total - total, theirs_fewer):
                    value_differences.append(
                        f"{describe(rules, s)}: our keep-all-five {a.expected_total - total!r}, "
                        f"their best with one reroll fewer {theirs_fewer!r}"
                    )
                stand_checked += 1
                continue
            name = ref_action(a)
            assert name not in ours, f"our advice lists {name} twice: {describe(rules, s)}"
            ours[name] = a.expected_total - total
        got = pair.solver.option_values(text)
        theirs = dict(got)
        assert len(theirs) == len(got), f"the reference lists an option twice: {text}"
        if ours.keys() != theirs.keys():
            set_differences.append(
                f"{describe(rules, s)}: only ours {sorted(ours.keys() - theirs.keys())}, "
                f"only theirs {sorted(theirs.keys() - ours.keys())}"
            )
        for name in sorted(ours.keys() & theirs.keys()):
            if close(ours[name], theirs[name]):
                matched += 1
            else:
                value_differences.append(
                    f"{describe(rules, s)}: {name}: ours {ours[name]!r} "
                    f"theirs {theirs[name]!r} diff {ours[name] - theirs[name]:+.3e}"
                )
    print(
        f"\n{pair.name}: {len(pair.situations)} situations, {matched} options matched one to "
        f"one, {stand_checked} keep-all-five checked, {len(set_differences)} option-set and "
        f"{len(value_differences)} value differences"
    )
    report = [*set_differences[:20], *value_differences[:20]]
    assert not set_differences and not value_differences, "\n".join(report)
