"""Our solver against an independent one: the `yatzy-solver` package (a dev dependency, used
here and in benchmarks only, never by the service).

Two pairs of rules are compared:

- ``yahtzee`` (official forced Joker) with the reference's ``american+forced-joker``;
- ``variant("yardzee", matching_upper_forced=False)`` (Verhoeff's free choice) with ``american``.

The situations come from seeded games played with our own rules and tables, a mix of
optimal and partly or wholly random play, so the cards are realistic: every filled set
size, upper subtotals on both sides of 63, the Yahtzee box open, 0 and 50.  While the
Yahtzee box is filled, some turns are also asked about with five of a kind showing (dice
that can always come up), so the Joker and the extra bonus are exercised with the
matching upper box open and filled.  For each situation we compare, to 1e-9 relative:

- the state value at the start of that turn (their ``state_value``);
- every option, one to one: each distinct keep and each legal box (their
  ``option_values``).

Reference notation (yatzy-solver 1.0.0, read off its docstrings, error messages and
docs/notation.md):

    state      upper <n> | filled <ids>[ | five_of_a_kind <0|50>]
    situation  dice <d1 ... d5 ascending> | rolls <rerolls left 0..2> | <state>
    action     keep <faces ascending> | keep - | score <category>

``upper`` is the uncapped upper subtotal (must be 0 while no upper box is filled);
``filled`` lists categories comma-separated in score-card order, ``-`` for none; the
Yahtzee box is called ``five_of_a_kind`` and, once filled, the state must say whether it
holds 50 (extra Yahtzees earn 100) or 0.  The extra bonus already earned is part of the
score so far and appears nowhere in the state.  Their values are expected *remaining*
points, ours (``expected_total``) are card total plus points to come, so ours are compared
after subtracting ``card_total``.

The one known difference in the option sets: with rerolls left, our ``advise`` also lists
keeping all five dice (a ``KeepAdvice`` of length 5), which the reference does not list
('keeping every die is not an action').  Ours passes a reroll with the same dice, so it is
worth the best option of the same dice with one reroll fewer (standing, the best box, with
one reroll left; with two, it can exceed every box, since a reroll remains).  The tests
check that this is the only difference, and value it against the reference's best option
with one reroll fewer; any other difference fails the test with the situation named.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import pytest

from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant
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

REL = 1e-9
ABS = 1e-12  # only for values that are exactly 0 on both sides (the last box scratched)
FIVE_BOX = "yahtzee"
REF_NAME = {FIVE_BOX: "five_of_a_kind"}  # every other box id is the same on both sides
GAMES = 20  # per pair; about 600 decisions, from which the situations are drawn
POLICY_NOISE = (0.0, 0.0, 0.15, 0.4, 1.0)  # chance of a random option, cycled per game
JOKER_ASK = 0.35  # per turn with the Yahtzee box filled: also ask with five of a kind
SITUATIONS = 150
JOKER_SITUATIONS = 40  # of SITUATIONS, asked with five of a kind (when enough were met)


@dataclass(frozen=True)
class Situation:
    card: Scorecard
    dice: tuple[int, ...]
    throws_left: int
    five_of_a_kind_asked: bool = False  # dice replaced by five of a kind for the Joker


@dataclass
class Pair:
    name: str
    ruleset: Ruleset
    values: FloatArray
    solver: object  # ys.Solver
    situations: list[Situation]
    turn_starts: list[Scorecard]


# ---------------------------------------------------------------- reference notation


def ref_state(ruleset: Ruleset, card: Scorecard) -> str:
    filled = [REF_NAME.get(b.id, b.id) for b in ruleset.boxes if b.id in card.boxes]
    text = f"upper {upper_subtotal(ruleset, card.boxes)} | filled {','.join(filled) or '-'}"
    if FIVE_BOX in card.boxes:
        text += f" | five_of_a_kind {card.boxes[FIVE_BOX]}"
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


def play(
    ruleset: Ruleset, values: FloatArray, seed: int
) -> tuple[list[Situation], list[Situation], list[Scorecard]]:
    """Seeded games under our rules: (decisions met, five-of-a-kind asks, turn starts)."""
    rng = np.random.default_rng(seed)
    decisions: list[Situation] = []
    jokers: list[Situation] = []
    starts: list[Scorecard] = []
    for game in range(GAMES):
        noise = POLICY_NOISE[game % len(POLICY_NOISE)]
        card = Scorecard()
        while not is_complete(ruleset, card.boxes):
            starts.append(card)
            if FIVE_BOX in card.boxes and rng.random() < JOKER_ASK:
                face = int(rng.integers(1, 7))
                jokers.append(Situation(card, (face,) * 5, int(rng.integers(0, 3)), True))
            dice = sorted(rng.integers(1, 7, size=5).tolist())
            throws_left = 2
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
    return decisions, jokers, starts


def draw_situations(
    ruleset: Ruleset, values: FloatArray, seed: int
) -> tuple[list[Situation], list[Scorecard]]:
    decisions, jokers, starts = play(ruleset, values, seed)
    rng = np.random.default_rng(seed + 1)
    n_joker = min(JOKER_SITUATIONS, len(jokers))
    chosen = rng.choice(len(jokers), n_joker, replace=False) if n_joker else []
    picked = [jokers[i] for i in sorted(chosen)]
    rest = rng.choice(len(decisions), SITUATIONS - n_joker, replace=False)
    picked += [decisions[i] for i in sorted(rest)]
    distinct_starts = list({ref_state(ruleset, c): c for c in starts}.values())
    return picked, distinct_starts


# ---------------------------------------------------------------- fixtures

PAIRS: dict[str, tuple[str, str, int]] = {
    # name: (our ruleset, reference variant, seed)
    "official-forced-joker": ("yahtzee", "american+forced-joker", 20260),
    "verhoeff-free-choice": ("yardzee-free", "american", 20261),
}


@pytest.fixture(scope="session")
def reference_solver() -> Callable[[str], object]:
    """Each reference variant built once per session (a few seconds each, both cores)."""
    built: dict[str, object] = {}

    def get(variant: str) -> object:
        if variant not in built:
            built[variant] = ys.Solver.build(ys.Variant(variant))
        return built[variant]

    return get


def our_rules(name: str, solved: Callable[[str], FloatArray]) -> tuple[Ruleset, FloatArray]:
    if name == "yardzee-free":
        from conftest import make_test_store
        from diceref.games.scorecard.tables import value_spec
        from diceref.tables.spec import load_sync

        ruleset = variant("yardzee", matching_upper_forced=False)
        return ruleset, load_sync(make_test_store(), value_spec(ruleset)).array
    return SCORECARD_GAMES[name], solved(name)


@pytest.fixture(scope="module", params=sorted(PAIRS))
def pair(
    request: pytest.FixtureRequest,
    solved: Callable[[str], FloatArray],
    reference_solver: Callable[[str], object],
) -> Iterator[Pair]:
    ours, variant, seed = PAIRS[request.param]
    ruleset, values = our_rules(ours, solved)
    situations, starts = draw_situations(ruleset, values, seed)
    yield Pair(request.param, ruleset, values, reference_solver(variant), situations, starts)


def close(ours: float, theirs: float) -> bool:
    return math.isclose(ours, theirs, rel_tol=REL, abs_tol=ABS)


# ---------------------------------------------------------------- tests


def test_categories_line_up(pair: Pair) -> None:
    variant = pair.solver.variant  # type: ignore[attr-defined]
    assert [REF_NAME.get(b.id, b.id) for b in pair.ruleset.boxes] == list(variant.categories)
    assert variant.dice == 5 and variant.rolls == pair.ruleset.throws_per_turn == 3


def test_situations_cover_the_interesting_cases(pair: Pair) -> None:
    """The draw is only worth its pass if it reaches the cases that differ between rules."""
    rules = pair.ruleset
    c: Counter[str] = Counter()
    for s in pair.situations:
        boxes = s.card.boxes
        c[f"rolls {s.throws_left}"] += 1
        c[f"five box {boxes.get(FIVE_BOX, 'open')}"] += 1
        c[f"filled {len(boxes) // 4 * 4}+"] += 1
        upper_open = any(rules.boxes[i].id not in boxes for i in rules.upper_indices)
        sub = upper_subtotal(rules, boxes)
        if upper_open and 48 <= sub <= 78:
            c["upper open, subtotal 48..78"] += 1
        if sub >= 63:
            c["upper bonus secured"] += 1
        if len(set(s.dice)) == 1 and FIVE_BOX in boxes:
            face_box = rules.boxes[rules.upper_indices[s.dice[0] - 1]].id
            c[f"joker, five box {boxes[FIVE_BOX]}"] += 1
            c[f"joker, matching upper {'filled' if face_box in boxes else 'open'}"] += 1
            if all(rules.boxes[i].id in boxes for i in rules.lower_indices):
                c["joker, every lower box filled"] += 1
    print(f"\n{pair.name}: coverage {dict(sorted(c.items()))}")
    for key in ("rolls 0", "rolls 1", "rolls 2", "five box open", "five box 0", "five box 50"):
        assert c[key] >= 5, (key, c)
    for key in (
        "joker, five box 0",
        "joker, five box 50",
        "joker, matching upper open",
        "joker, matching upper filled",
        "upper open, subtotal 48..78",
        "upper bonus secured",
    ):
        assert c[key] >= 3, (key, c)
    assert sum(v for k, v in c.items() if k.startswith("filled ")) == len(pair.situations)
    assert len({k for k in c if k.startswith("filled ")}) == 4  # 0-3, 4-7, 8-11, 12


def test_start_of_turn_state_values_match(pair: Pair) -> None:
    """Every distinct card met at the start of a turn in the games played (a superset of
    the situations' cards), the empty card included."""
    space = state_space(pair.ruleset)
    cards = [Scorecard(), *pair.turn_starts]
    cards += [s.card for s in pair.situations]
    by_state = {ref_state(pair.ruleset, c): c for c in cards}
    wrong: list[str] = []
    for text, card in by_state.items():
        ours = state_value(space, pair.values, card_state(pair.ruleset, card))
        theirs = pair.solver.state_value(text)  # type: ignore[attr-defined]
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
    worst = 0.0  # largest relative difference among the matched options
    for s in pair.situations:
        total = card_total(rules, s.card)
        advice = advise(rules, pair.values, s.card, s.dice, s.throws_left)
        text = ref_situation(rules, s)
        ours: dict[str, float] = {}
        for a in advice:
            if isinstance(a, KeepAdvice) and len(a.keep) == 5:
                # Ours only: keeping all five passes one reroll with the same dice, so it is
                # worth the best option of the same dice with one reroll fewer (the best box
                # when one reroll was left).  Checked against the reference's options there.
                fewer = text.replace(f"| rolls {s.throws_left} |", f"| rolls {s.throws_left - 1} |")
                theirs_fewer = max(v for _, v in pair.solver.option_values(fewer))  # type: ignore[attr-defined]
                ours_fewer = advise(rules, pair.values, s.card, s.dice, s.throws_left - 1)[0]
                if not (
                    close(a.expected_total - total, theirs_fewer)
                    and close(a.expected_total, ours_fewer.expected_total)
                ):
                    value_differences.append(
                        f"{describe(rules, s)}: our keep-all-five {a.expected_total - total!r}, "
                        f"our best with one reroll fewer {ours_fewer.expected_total - total!r}, "
                        f"theirs {theirs_fewer!r}"
                    )
                stand_checked += 1
                continue
            name = ref_action(a)
            assert name not in ours, f"our advice lists {name} twice: {describe(rules, s)}"
            ours[name] = a.expected_total - total
        got = pair.solver.option_values(text)  # type: ignore[attr-defined]
        theirs = dict(got)
        assert len(theirs) == len(got), f"the reference lists an option twice: {text}"
        if ours.keys() != theirs.keys():
            only_ours = sorted(ours.keys() - theirs.keys())
            only_theirs = sorted(theirs.keys() - ours.keys())
            set_differences.append(
                f"{describe(rules, s)}: only ours {only_ours}, only theirs {only_theirs}"
            )
        for name in sorted(ours.keys() & theirs.keys()):
            if close(ours[name], theirs[name]):
                matched += 1
                if theirs[name]:
                    worst = max(worst, abs(ours[name] - theirs[name]) / abs(theirs[name]))
            else:
                value_differences.append(
                    f"{describe(rules, s)}: {name}: ours {ours[name]!r} "
                    f"theirs {theirs[name]!r} diff {ours[name] - theirs[name]:+.3e}"
                )
    print(
        f"\n{pair.name}: {len(pair.situations)} situations, {matched} options matched one to "
        f"one, {stand_checked} keep-all-five (ours only) = best option one reroll fewer, "
        f"{len(set_differences)} option-set differences, {len(value_differences)} value "
        f"differences; largest relative difference matched {worst:.2e}"
    )
    report = [*set_differences[:20], *value_differences[:20]]
    assert not set_differences and not value_differences, (
        f"{len(set_differences)} option-set and {len(value_differences)} value differences "
        f"in {len(pair.situations)} situations:\n" + "\n".join(report)
    )
