"""The solved tables against published values, an independent brute force, and themselves."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

import numpy as np
import pytest

from diceref.core.arrays import FloatArray
from diceref.core.dice import FACES
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.rules.scorecard import Scorecard, card_total, legal_options
from diceref.games.scorecard.solver.advice import (
    BoxAdvice,
    KeepAdvice,
    advise,
    expected_final_score,
)

Solved = Callable[[str], FloatArray]


def start_value(game: str, solved: Solved) -> float:
    return expected_final_score(SCORECARD_GAMES[game], solved(game), Scorecard())


def test_yahtzee_published_optimum(solved: Solved) -> None:
    assert start_value("yahtzee", solved) == pytest.approx(254.5877287, abs=5e-7)


def test_yardzee_verhoeff_free_choice_optimum() -> None:
    """RULES.md's Known 254.5896095 is Verhoeff's free-choice convention: the service's
    `matching_upper_forced=False` reading of the yardzee ruleset reproduces it."""
    from conftest import make_test_store
    from diceref.games.scorecard.rules.games import variant
    from diceref.games.scorecard.tables import value_spec
    from diceref.tables.spec import load_sync

    ruleset = variant("yardzee", matching_upper_forced=False)
    values = load_sync(make_test_store(), value_spec(ruleset)).array
    assert expected_final_score(ruleset, values, Scorecard()) == pytest.approx(
        254.5896095, abs=5e-7
    )


def test_yardzee_as_written_is_worth_more_than_the_forced_joker(solved: Solved) -> None:
    """The written Yardzee Joker only adds choices to the official one (upper boxes for 0
    while lower boxes are open), so its optimum cannot be lower, and it is not Verhoeff's."""
    yardzee_value = start_value("yardzee", solved)
    assert yardzee_value > start_value("yahtzee", solved) + 1e-4
    assert abs(yardzee_value - 254.5896095) > 1e-4


def test_known_decision_at_the_start(solved: Solved) -> None:
    ruleset = SCORECARD_GAMES["yahtzee"]
    advice = advise(ruleset, solved("yahtzee"), Scorecard(), [4, 4, 6, 6, 6], throws_left=2)
    best = advice[0]
    assert isinstance(best, KeepAdvice) and best.keep == (6, 6, 6)
    assert best.expected_total == pytest.approx(265.1134, abs=5e-5)
    full_house = next(a for a in advice if isinstance(a, BoxAdvice) and a.box == "full_house")
    assert full_house.expected_total == pytest.approx(253.9092, abs=5e-5)


@pytest.mark.parametrize("game", sorted(SCORECARD_GAMES))
def test_every_game_has_a_finite_start_value_within_bounds(game: str, solved: Solved) -> None:
    value = start_value(game, solved)
    assert (
        0
        < value
        < {
            "yahtzee": 1575,
            "yardzee": 1575,
            "dice-poker": 1835,
            "russian-poker": 510,
            "chute-5": 99,
            "yatzy": 374,
        }[game]
    )


def brute_force(game: str, card: Scorecard) -> float:
    """Expected points to come, by exhaustive recursion over turns, keeps and throws, using
    only the scalar scoring rules (no solver code)."""
    ruleset = SCORECARD_GAMES[game]
    outcomes = {
        n: [(tuple(sorted(roll)), 1.0 / 6**n) for roll in itertools.product(FACES, repeat=n)]
        for n in range(6)
    }

    @cache
    def future(boxes: tuple[tuple[str, int], ...]) -> float:
        if len(boxes) == len(ruleset.boxes):
            return 0.0
        current = Scorecard(dict(boxes))

        @cache
        def stop(dice: tuple[int, ...], throw: int) -> float:
            return max(
                o.points + o.bonus + future(tuple(sorted({**dict(boxes), o.box: o.points}.items())))
                for o in legal_options(ruleset, current, dice, throw)
            )

        @cache
        def keep_value(keep: tuple[int, ...], throw: int) -> float:
            return sum(
                (
                    p * after(tuple(sorted(keep + roll)), throw)
                    for roll, p in outcomes[5 - len(keep)]
                ),
                0.0,
            )

        @cache
        def after(dice: tuple[int, ...], throw: int) -> float:
            best = stop(dice, throw)
            if throw < 3:
                subs = {tuple(d for i, d in enumerate(dice) if m >> i & 1) for m in range(32)}
                best = max(best, *(keep_value(k, throw + 1) for k in subs))
            return best

        return keep_value((), 1)

    return future(tuple(sorted(card.boxes.items())))


CASES = [
    ("yahtzee", {"chance": 0}, {"chance", "yahtzee"}),
    ("yahtzee", {"yahtzee": 50}, {"fours", "full_house"}),
    ("yahtzee", {"yahtzee": 0, "ones": 3, "twos": 6, "threes": 9, "fives": 15}, {"sixes", "fours"}),
    ("yardzee", {"yahtzee": 50}, {"sixes", "large_straight"}),
    (
        "dice-poker",
        {"poker": 50, "ones": 4, "twos": 8, "threes": 12, "fours": 16, "fives": 20},
        {"sixes", "two_pairs"},
    ),
    ("dice-poker", {"poker": 0}, {"two_pairs", "fours"}),
    ("russian-poker", {"ones": -1, "sixes": 6}, {"pair", "full_house"}),
    ("russian-poker", {}, {"poker", "small_straight"}),
    ("chute-5", {"aces": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5}, {"sixes", "break"}),
]


@pytest.mark.parametrize(("game", "fixed", "open_boxes"), CASES)
def test_table_matches_brute_force_near_the_end(
    game: str, fixed: dict[str, int], open_boxes: set[str], solved: Solved
) -> None:
    ruleset = SCORECARD_GAMES[game]
    if game == "russian-poker" and "poker" in open_boxes:
        fixed = {b.id: 0 for b in ruleset.boxes if b.id not in open_boxes}
    boxes = {b.id: fixed.get(b.id, 0) for b in ruleset.boxes if b.id not in open_boxes}
    card = Scorecard(boxes)
    exact = brute_force(game, card)
    table = expected_final_score(ruleset, solved(game), card) - card_total(ruleset, card)
    assert table == pytest.approx(exact, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("game", sorted(SCORECARD_GAMES))
def test_best_box_advice_agrees_with_the_table_value(game: str, solved: Solved) -> None:
    """Standing on a throw is worth what the table's placement step says; the best keep with
    two throws left is never worth less than with one (more throws never hurt)."""
    ruleset = SCORECARD_GAMES[game]
    rng = np.random.default_rng(7)
    for _ in range(5):
        dice = [int(d) for d in rng.integers(1, 7, size=5)]
        two = advise(ruleset, solved(game), Scorecard(), dice, throws_left=2)
        one = advise(ruleset, solved(game), Scorecard(), dice, throws_left=1)
        best_keep_two = max(a.expected_total for a in two if isinstance(a, KeepAdvice))
        best_keep_one = max(a.expected_total for a in one if isinstance(a, KeepAdvice))
        assert best_keep_two >= best_keep_one - 1e-9
        keep_all = next(a for a in two if isinstance(a, KeepAdvice) and len(a.keep) == 5)
        best_one = one[0].expected_total
        assert keep_all.expected_total == pytest.approx(best_one, rel=1e-12)
