"""The Yardkle race (issue 15): `/yardkle/holds` with a `need` gives every option its exact
chance of ending the turn with at least `need` points, and ranks and decides by it.

The chances are held to a brute-force enumeration written from the rules alone: every
ordered outcome of the dice thrown, every set-aside `set_asides` allows, bank once the need
is met, else throw on (memoised by turn points and dice left, nothing else shared with the
solver's merged options).  Small needs keep it to seconds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import product
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES as RULES
from diceref.games.yardkle.rules.scoring import set_asides
from diceref.games.yardkle.solver.race import Race, win_chances
from helpers import put_policy


@cache
def outcomes(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every ordered outcome of n dice, grouped by the dice shown, with its chance."""
    seen = Counter(tuple(sorted(o)) for o in product(range(1, 7), repeat=n))
    return tuple((dice, count / 6**n) for dice, count in sorted(seen.items()))


def brute(need: int, on_pad: bool) -> Any:
    """W(t, n): chance of banking at least `need` with t in hand and n dice to throw."""
    goal = need if on_pad else max(need, RULES.entry_minimum)

    @cache
    def w(t: int, n: int) -> float:
        total = 0.0
        for dice, p in outcomes(n):
            best = 0.0
            for s in set_asides(dice, RULES):
                after = t + s.points
                left = n - len(s.dice) or RULES.dice
                best = max(best, 1.0 if after >= goal else w(after, left))
            total += p * best
        return total

    return w


CASES = [(need, pad) for need in (50, 100, 250, 350, 500, 600) for pad in (True, False)]


@pytest.mark.parametrize(("need", "on_pad"), CASES)
def test_the_chances_are_the_brute_force_enumerations(need: int, on_pad: bool) -> None:
    w = brute(need, on_pad)
    for turn_points in range(0, need + 1, 50):
        race = Race(RULES, need, on_pad, turn_points)
        for n in range(1, RULES.dice + 1):
            if race.won(turn_points):
                assert race.throw_on(turn_points, n) == pytest.approx(
                    1 - sum(p for d, p in outcomes(n) if not set_asides(d, RULES)), abs=1e-12
                )
                continue
            assert race.throw_on(turn_points, n) == pytest.approx(w(turn_points, n), abs=1e-12)


def test_the_chance_falls_as_the_need_grows() -> None:
    w = win_chances(RULES, 200)
    assert (w[1:] <= w[:-1] + 1e-15).all() and (w[0] == 1).all()
    assert 0 < w[200, 5] < w[40, 5] < w[1, 5] < 1


@pytest.fixture
def race_client(app: Litestar) -> Iterator[TestClient[Any]]:
    put_policy(app)
    with TestClient(app) as c:
        yield c


def holds(client: TestClient[Any], body: dict[str, Any]) -> dict[str, Any]:
    r = client.post("/yardkle/holds", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_last_turn_that_needs_2000_throws_on(race_client: TestClient[Any]) -> None:
    """The issue's case: 300 in hand and four dice thrown, a 1 to set aside: the
    expected-points coach banks 400, the race coach, needing 2,000, throws on."""
    body = {"dice": [1, 2, 3, 4], "on_pad": True, "turn_points": 300}
    plain = holds(race_client, body)
    assert plain["best_option"]["decision"] == "bank"
    assert all(o["win_probability"] is None for o in plain["options"])
    raced = holds(race_client, {**body, "need": 2000})
    best = raced["best_option"]
    assert best["decision"] == "throw_on" and 0 < best["win_probability"] < 1
    chances = [o["win_probability"] for o in raced["options"]]
    assert chances == sorted(chances, reverse=True)
    for o in raced["options"]:
        race = Race(RULES, 2000, True, 300)
        assert o["win_probability"] == race.throw_on(o["turn_points"], o["dice_left_count"])
        assert o["loss"] == pytest.approx(max(0.0, chances[0] - o["win_probability"]), abs=1e-9)
        assert o["best"] == (o["loss"] == 0.0)
        assert o["decision"] == "throw_on"  # nothing reaches 2,000 now
        assert o["expected_points"] > 0  # the expected points stay beside the chance


@pytest.mark.parametrize(("need", "on_pad", "turn_points"), [(350, True, 0), (600, False, 100),
                                                              (250, True, 200)])  # fmt: skip
def test_every_options_chance_is_the_brute_force_one(
    race_client: TestClient[Any], need: int, on_pad: bool, turn_points: int
) -> None:
    dice = [1, 5, 5, 2, 3, 3] if turn_points == 0 else [1, 5, 2, 3]
    out = holds(
        race_client, {"dice": dice, "on_pad": on_pad, "turn_points": turn_points, "need": need}
    )
    w = brute(need, on_pad)
    goal = need if on_pad else max(need, RULES.entry_minimum)
    for o in out["options"]:
        if o["turn_points"] >= goal:
            assert o["win_probability"] == 1.0 and o["decision"] == "bank"
        else:
            assert o["decision"] == "throw_on"
            assert o["win_probability"] == pytest.approx(
                w(o["turn_points"], o["dice_left_count"]), abs=1e-12
            )
    assert out["best_option"]["win_probability"] == max(
        o["win_probability"] for o in out["options"]
    )


def test_need_is_bounded(race_client: TestClient[Any]) -> None:
    r = race_client.post("/yardkle/holds", json={"dice": [1], "on_pad": True, "need": -50})
    assert r.status_code == 400 and r.json()["errors"][0]["field"] == "need"
