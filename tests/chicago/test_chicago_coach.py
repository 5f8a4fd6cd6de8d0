"""The coach against a brute force written from the rules alone.

The brute force shares no code with the service: its own values, its own moves (by dice
position, so the same keep may appear twice), and every ordered outcome of every rethrow
(`itertools.product`), exact in `Fraction`s.  The service must list the same moves with the
same chance and expected score, ranked best first.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from typing import Any

import pytest
from chicago_records import post
from litestar.testing import TestClient

from conftest import make_test_app
from diceref.games.chicago.rules.ruleset import CHICAGO, Call, chicago
from diceref.games.chicago.solver.coach import Advice, advise

# The app of the tests: test disk cache, no Redis, no preloading (never the env's).
app = make_test_app()

HIGH = {1: 100, 2: 2, 3: 3, 4: 4, 5: 5, 6: 60}
LOW = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}
THROWS = list(combinations_with_replacement(range(1, 7), 3))

Label = tuple[tuple[int, ...], int, str | None]  # dice left on the table, 1s aside, conversion
Value = tuple[Fraction, Fraction]  # chance of beating the target, expected signed score


def brute_moves(dice: tuple[int, ...], aside: int, left: int) -> list[Label]:
    """Every move by dice position: stand; keep any positions; convert sixes."""
    if left == 0 or sorted(dice) == [1, 1, 1]:
        return [(tuple(sorted(dice)), aside, None)]
    sixes = [i for i in range(3) if dice[i] == 6]
    moves: list[Label] = []
    if len(sixes) < 3:
        moves.append((tuple(sorted(dice)), aside, None))
        for mask in range(7):  # not all three
            kept = [dice[i] for i in range(3) if mask >> i & 1]
            if kept.count(1) >= aside:  # set-aside 1s are never thrown again
                moves.append((tuple(sorted(kept)), aside, None))
    if len(sixes) == 2:
        other = next(i for i in range(3) if i not in sixes)
        for keep_other in (False, True):
            kept = [1] + ([dice[other]] if keep_other else [])
            if kept.count(1) >= aside + 1:
                moves.append((tuple(sorted(kept)), aside + 1, "two_sixes"))
    if len(sixes) == 3:
        moves.append(((1, 1), 2, "three_sixes"))
    return moves


def make_brute(
    call: Call, target: int | None, safe_165: bool = False
) -> Callable[[tuple[int, ...], int, int], dict[Label, Value]]:
    values = HIGH if call is Call.HIGH else LOW
    sign = 1 if call is Call.HIGH else -1

    def final(dice: tuple[int, ...]) -> Value:
        score = sign * sum(values[d] for d in dice)
        strength = 10**6 if safe_165 and sorted(dice) == [1, 5, 6] else score
        beats = target is not None and strength > sign * target
        return Fraction(int(beats)), Fraction(score)

    @cache
    def best(dice: tuple[int, ...], aside: int, left: int) -> Value:
        return max(options(dice, aside, left).values())

    @cache
    def options(dice: tuple[int, ...], aside: int, left: int) -> dict[Label, Value]:
        out: dict[Label, Value] = {}
        for label in brute_moves(dice, aside, left):
            kept, new_aside, _ = label
            n = 3 - len(kept)
            if n == 0:
                out[label] = final(dice)
                continue
            chance = score = Fraction(0)
            for shown in product(range(1, 7), repeat=n):
                c, s = best(tuple(sorted(kept + shown)), new_aside, left - 1)
                chance += c
                score += s
            out[label] = (chance / 6**n, score / 6**n)
        return out

    return options


def service_options(advice: list[Advice], call: Call) -> dict[Label, Value]:
    sign = 1 if call is Call.HIGH else -1
    return {
        (
            a.move.kept,
            a.move.aside,
            None if a.move.conversion is None else a.move.conversion.value,
        ): (a.probability or Fraction(0), sign * a.expected_score)
        for a in advice
    }


def states() -> list[tuple[tuple[int, ...], int, int]]:
    """Every throw with 0-2 throws left, and with set-aside 1s where the dice allow them."""
    out = [(d, 0, left) for d in THROWS for left in range(3)]
    out += [(d, a, left) for d in THROWS for a in (1, 2) if d.count(1) >= a for left in (0, 1)]
    return out


@pytest.mark.parametrize(
    ("call", "target"),
    [(Call.HIGH, 150), (Call.HIGH, 202), (Call.LOW, 7), (Call.LOW, 12), (Call.HIGH, None)],
)
def test_coach_matches_brute_force(call: Call, target: int | None) -> None:
    brute = make_brute(call, target)
    for dice, aside, left in states():
        advice = advise(CHICAGO, dice, left, call, target, aside)[call]
        got = service_options(advice, call)
        assert got == brute(dice, aside, left), (dice, aside, left)
        ranked = [(v[0], v[1]) for v in (got[k] for k in got)]
        assert ranked == sorted(ranked, reverse=True)  # best first
        if target is None:
            assert all(a.probability is None for a in advice)


def test_coach_for_the_starter_ranks_each_call_by_expected_score() -> None:
    for call in Call:
        brute = make_brute(call, None)
        for dice in THROWS[::5]:
            got = service_options(advise(CHICAGO, dice, 2, None)[call], call)
            assert got == brute(dice, 0, 2)


def test_coach_with_a_1_6_5_that_cannot_be_worst() -> None:
    rules = chicago(one_six_five_scores=False)
    brute = make_brute(Call.LOW, 4, safe_165=True)
    for dice in [(1, 5, 6), (1, 5, 2), (6, 6, 5), (2, 3, 4), (6, 6, 6)]:
        for left in range(3):
            got = service_options(advise(rules, dice, left, Call.LOW, 4)[Call.LOW], Call.LOW)
            assert got == brute(dice, 0, left)


def test_a_worked_example_by_hand() -> None:
    """6-6-3 on low, one throw left, 9 to beat: convert, keep 1 and 3, throw the 6 again:
    1 + 3 + x < 9 for x in 1..4, so 4/6, and 1 + 3 + 3.5 on average."""
    [top, *_] = advise(CHICAGO, (6, 6, 3), 1, Call.LOW, 9)[Call.LOW]
    assert (top.move.kept, top.move.aside, top.move.conversion) == ((1, 3), 1, "two_sixes")
    assert top.probability == Fraction(2, 3)
    assert top.expected_score == Fraction(15, 2)


def test_holds_endpoint() -> None:
    with TestClient(app) as client:
        body: dict[str, Any] = {"dice": [6, 3, 6], "throws_left": 1, "call": "low", "target": 9}
        out = post(client, "/chicago/holds", body)
        assert out["dice"] == [3, 6, 6]
        [ranking] = out["rankings"]
        assert ranking["call"] == "low"
        top = ranking["options"][0]
        assert top == {
            "keep": [1, 3],
            "conversion": "two_sixes",
            "set_aside_count": 1,
            "rethrow_count": 1,
            "win_probability": pytest.approx(2 / 3, abs=1e-12),
            "win_probability_exact": "2/3",
            "expected_points": 7.5,
            "expected_points_exact": "15/2",
            "best": True,
            "loss": 0.0,
        }
        assert len(ranking["options"]) == 8
        for o in ranking["options"][1:]:  # the loss is in probability when a target ranks
            loss = Fraction(2, 3) - Fraction(o["win_probability_exact"])
            assert o["loss"] == pytest.approx(float(loss), abs=1e-12) and not o["best"]
        stand = next(o for o in ranking["options"] if o["rethrow_count"] == 0)
        assert stand["keep"] == [3, 6, 6]
        assert stand["win_probability_exact"] == "0"

        starter = post(client, "/chicago/holds", {"dice": [2, 3, 4], "throws_left": 2})
        assert [r["call"] for r in starter["rankings"]] == ["high", "low"]
        high, low = starter["rankings"]
        assert high["options"][0]["keep"] == []  # on high, throw everything again
        assert low["options"][0]["keep"] == [2]
        assert all(o["win_probability"] is None for o in high["options"])

        forced = post(client, "/chicago/holds", {"dice": [6, 6, 6], "throws_left": 1})
        assert [(o["keep"], o["conversion"]) for o in forced["rankings"][0]["options"]] == [
            ([1, 1], "three_sixes")
        ]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"dice": [2, 3, 4], "throws_left": 1, "target": 10}, "target"),
        (
            {"dice": [2, 3, 4], "throws_left": 1, "call": "high", "set_aside_count": 1},
            "set_aside_count",
        ),
        (
            {"dice": [1, 3, 4], "throws_left": 2, "call": "high", "set_aside_count": 1},
            "set_aside_count",
        ),
    ],
)
def test_holds_rejections(body: dict[str, Any], field: str) -> None:
    with TestClient(app) as client:
        problem = post(client, "/chicago/holds", body, 422)
    assert problem["errors"][0]["field"] == field


def test_holds_schema_rejections() -> None:
    with TestClient(app) as client:
        for body in (
            {"dice": [2, 3], "throws_left": 1},
            {"dice": [2, 3, 7], "throws_left": 1},
            {"dice": [2, 3, 4], "throws_left": 3},
            {"dice": [2, 3, 4], "throws_left": 1, "call": "middle"},
            {"dice": [2, 3, 4], "throws_left": 1, "extra": 1},
        ):
            assert client.post("/chicago/holds", json=body).status_code == 400
