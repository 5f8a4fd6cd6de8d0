"""The Yardkle race (issue 15): `/yardkle/holds` with a `need` gives every option its exact
chance of ending the turn with at least `need` points, and ranks and decides by it, under
the request's rules.

The chances are held to a brute-force enumeration written from the rules alone: every
ordered outcome of the dice thrown, every set-aside `set_asides` allows, bank once the need
is met, else throw on (memoised by turn points and dice left, nothing else shared with the
solver's merged options), under the built-in rules and house rules.  Small needs keep it to
seconds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import product
from typing import Any

import numpy as np
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES as RULES
from diceref.games.yardkle.rules.scoring import YardkleRules, set_asides
from diceref.games.yardkle.solver import race as race_module
from diceref.games.yardkle.solver.race import Race, win_chances
from helpers import put_policy, put_policy_for

# House rules that change the race: three 1s at 1,000 (a set-aside of 20 units), no entry
# minimum, a coarser unit (single 5s at 100: every score a multiple of 100) and a finer one
# (single 5s at 25), four dice without three pairs, one die (every scoring throw is hot
# dice), and a 500 straight with two triplets at 0.
HOUSE_RULES: dict[str, dict[str, Any]] = {
    "three_ones_1000": {"three_ones": 1000},
    "no_entry_minimum": {"entry_minimum": 0},
    "single_five_100": {"single_five": 100},
    "single_five_25": {"single_five": 25},
    "four_dice": {"dice": 4, "three_pairs": 0},
    "one_die": {"dice": 1},
    "cheap_straight": {"straight": 500, "two_triplets": 0, "entry_minimum": 350},
}


@cache
def outcomes(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every ordered outcome of n dice, grouped by the dice shown, with its chance."""
    seen = Counter(tuple(sorted(o)) for o in product(range(1, 7), repeat=n))
    return tuple((dice, count / 6**n) for dice, count in sorted(seen.items()))


def brute(need: int, on_pad: bool, rules: YardkleRules = RULES) -> Any:
    """W(t, n): chance of banking at least `need` with t in hand and n dice to throw."""
    goal = need if on_pad else max(need, rules.entry_minimum)

    @cache
    def w(t: int, n: int) -> float:
        total = 0.0
        for dice, p in outcomes(n):
            best = 0.0
            for s in set_asides(dice, rules):
                after = t + s.points
                left = n - len(s.dice) or rules.dice
                best = max(best, 1.0 if after >= goal else w(after, left))
            total += p * best
        return total

    return w


def yardkle_chance(n: int, rules: YardkleRules) -> float:
    return sum(p for d, p in outcomes(n) if not set_asides(d, rules))


CASES = [(need, pad) for need in (50, 100, 250, 350, 500, 600) for pad in (True, False)]


def check_against_brute_force(rules: YardkleRules, need: int, on_pad: bool) -> None:
    w = brute(need, on_pad, rules)
    for turn_points in range(0, need + 1, rules.unit):
        race = Race(rules, need, on_pad, turn_points)
        for n in range(1, rules.dice + 1):
            if race.won(turn_points):
                assert race.throw_on(turn_points, n) == pytest.approx(
                    1 - yardkle_chance(n, rules), abs=1e-12
                )
                continue
            assert race.throw_on(turn_points, n) == pytest.approx(w(turn_points, n), abs=1e-12)


@pytest.mark.parametrize(("need", "on_pad"), CASES)
def test_the_chances_are_the_brute_force_enumerations(need: int, on_pad: bool) -> None:
    check_against_brute_force(RULES, need, on_pad)


@pytest.mark.parametrize("name", HOUSE_RULES)
@pytest.mark.parametrize(("need", "on_pad"), [(300, True), (600, False), (1100, True)])
def test_under_house_rules_the_chances_are_the_brute_force_enumerations(
    name: str, need: int, on_pad: bool
) -> None:
    """The race under each house rule, every state of small needs, against the
    enumeration under the same rules (three 1s at 1,000 reach 1,100 from 100 at once)."""
    check_against_brute_force(YardkleRules(**HOUSE_RULES[name]), need, on_pad)


def test_the_house_rule_changes_the_chances() -> None:
    """Not the built-in numbers under another name: three 1s at 1,000 make a 1,000 need
    likelier, no entry minimum makes a 50 need off the pad a matter of one scoring throw."""
    thousand = YardkleRules(three_ones=1000)
    assert Race(thousand, 1000, True, 0).throw_on(0, 6) > Race(RULES, 1000, True, 0).throw_on(0, 6)
    free = YardkleRules(entry_minimum=0)
    assert Race(free, 50, False, 0).throw_on(0, 6) == pytest.approx(1 - yardkle_chance(6, free))
    assert Race(RULES, 50, False, 0).throw_on(0, 6) < 1 - yardkle_chance(6, RULES)


def test_levels_solved_in_pieces_are_those_of_one_sweep() -> None:
    """The kept levels of a ruleset grow request by request; every order of requests gives
    the numbers of one sweep from level 1, to the bit."""
    rules = YardkleRules(three_ones=1000, entry_minimum=0)
    race_module.forget_chances()
    whole = win_chances(rules, 700).copy()
    race_module.forget_chances()
    for levels in (3, 64, 65, 200, 129, 700, 1):
        assert np.array_equal(win_chances(rules, levels), whole[: levels + 1]), levels
    assert not win_chances(rules, 10).flags.writeable  # a caller cannot change the kept ones


def test_the_kept_levels_are_bounded() -> None:
    """At most `MEMO_RULESETS` rulesets keep their levels (the least recently raced leave),
    and a race never solves past `MAX_LEVELS`."""
    race_module.forget_chances()
    rulesets = [YardkleRules(target=1000 + 50 * i) for i in range(race_module.MEMO_RULESETS + 1)]
    for rules in rulesets:
        win_chances(rules, 5)
    assert list(race_module._MEMO) == rulesets[1:]
    win_chances(RULES, race_module.MAX_LEVELS)
    assert len(race_module._MEMO[RULES]) == (race_module.MAX_LEVELS + 2) * RULES.dice
    with pytest.raises(ValueError):
        win_chances(RULES, race_module.MAX_LEVELS + 1)


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


def test_every_need_a_request_may_send_is_raced_under_the_built_in_unit(
    race_client: TestClient[Any],
) -> None:
    out = holds(race_client, {"dice": [1, 1, 1, 5, 5, 5], "on_pad": True, "need": 100_000})
    assert 0 < out["best_option"]["win_probability"] < 1e-6


def test_a_need_beyond_the_solved_levels_of_a_fine_unit_is_refused(
    race_client: TestClient[Any],
) -> None:
    """Single 5s at 25 make the unit 25: the race is solved up to 2,000 units (50,000
    points), so a need of 60,000 is a 422 naming `need`, before any table is asked for."""
    body = {
        "dice": [1, 5, 2, 3, 4, 6],
        "on_pad": True,
        "need": 60_000,
        "rules": {"single_five": 25},
    }
    r = race_client.post("/yardkle/holds", json=body)
    assert r.status_code == 422, r.text
    [error] = r.json()["errors"]
    assert (error["field"], error["code"]) == ("need", "out_of_range")
    assert "50,000" in error["reason"]


@pytest.fixture
def house_client(app: Litestar) -> Iterator[TestClient[Any]]:
    put_policy(app)
    for rules in HOUSE_RULES.values():
        put_policy_for(app, YardkleRules(**rules))
    with TestClient(app) as c:
        yield c


@pytest.mark.parametrize("name", HOUSE_RULES)
@pytest.mark.parametrize(
    ("dice", "turn_points", "need", "on_pad"),
    [([1, 1, 1, 5, 2, 3], 0, 1100, True), ([1, 5, 2, 3], 100, 700, False)],
)
def test_every_options_chance_under_house_rules_is_the_brute_force_one(
    house_client: TestClient[Any],
    name: str,
    dice: list[int],
    turn_points: int,
    need: int,
    on_pad: bool,
) -> None:
    rules = YardkleRules(**HOUSE_RULES[name])
    dice = dice[: rules.dice]
    if turn_points % rules.unit:
        turn_points = 0
    body = {"dice": dice, "on_pad": on_pad, "turn_points": turn_points, "need": need}
    out = holds(house_client, body | {"rules": HOUSE_RULES[name]})
    assert out["ruleset_id"] == rules.rules_hash
    w = brute(need, on_pad, rules)
    goal = need if on_pad else max(need, rules.entry_minimum)
    assert {tuple(o["set_aside"]) for o in out["options"]} == {
        s.dice for s in set_asides(dice, rules)
    }
    for o in out["options"]:
        if o["turn_points"] >= goal:
            assert o["win_probability"] == 1.0 and o["decision"] == "bank"
        else:
            assert o["decision"] == "throw_on"
            assert o["win_probability"] == pytest.approx(
                w(o["turn_points"], o["dice_left_count"]), abs=1e-12
            )
    chances = [o["win_probability"] for o in out["options"]]
    assert chances == sorted(chances, reverse=True)
    assert out["best_option"]["win_probability"] == chances[0]


def test_three_ones_at_1000_bank_a_1000_need_the_built_in_rules_throw_on(
    house_client: TestClient[Any],
) -> None:
    """The decision follows the rules: under three 1s at 1,000 the 1-1-1 wins a 1,000 need
    at once (bank, certain); under the built-in 300 it must throw on."""
    body = {"dice": [1, 1, 1, 2, 3, 4], "on_pad": True, "need": 1000}
    house = holds(house_client, body | {"rules": {"three_ones": 1000}})
    assert house["best_option"] == {
        "set_aside": [1, 1, 1],
        "decision": "bank",
        "expected_points": house["options"][0]["expected_points"],
        "win_probability": 1.0,
    }
    built_in = holds(house_client, body)
    assert built_in["best_option"]["decision"] == "throw_on"
    assert built_in["best_option"]["win_probability"] < 0.5


def test_the_games_need_under_house_rules_passes_the_leader_by_their_unit(
    app: Litestar, house_client: TestClient[Any]
) -> None:
    """Single 5s at 100 (every score a multiple of 100) and a 3,000 target: Ann's six 2s
    reach it; Bo's last turn needs 3,100 (3,000 would only tie), not the built-in 3,050.
    Raced with that need under the same rules, every chance is the brute-force one."""
    sent = {"single_five": 100, "target": 3000}
    rules = YardkleRules(**sent)
    put_policy_for(app, rules)
    six = [2, 2, 2, 2, 2, 2]
    game = {
        "players": ["Ann", "Bo"],
        "turns": [{"player": "Ann", "throws": [{"dice": six, "set_aside": six}], "end": "bank"}],
    }
    r = house_client.post("/yardkle/games", json=game | {"rules": sent})
    assert r.status_code == 200, r.text
    bo = next(s for s in r.json()["standings"] if s["player"] == "Bo")
    assert bo["last_turn"] and bo["need"] == 3100
    built_in = house_client.post("/yardkle/games", json=game | {"rules": {"target": 3000}})
    assert next(s for s in built_in.json()["standings"] if s["player"] == "Bo")["need"] == 3050
    dice = [1, 1, 1, 5, 2, 3]
    out = holds(
        house_client,
        {"dice": dice, "on_pad": bo["on_pad"], "need": bo["need"], "rules": sent},
    )
    w = brute(3100, bo["on_pad"], rules)
    for o in out["options"]:
        assert o["decision"] == "throw_on"  # nothing in one throw makes 3,100
        assert o["win_probability"] == pytest.approx(
            w(o["turn_points"], o["dice_left_count"]), abs=1e-12
        )
    assert not Race(rules, 3100, False, 0).won(3000)  # a tie does not pass the leader
