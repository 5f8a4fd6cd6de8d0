"""Yardkle readings a table may play the other way (issue 13): hot dice forced, ties not
shared, the last turns, and the bound on the solvable rules.  Each choice is shown changing
an outcome: a turn or a game refereed differently, or an expected value or a chance that
differs, checked against an independent computation (the reference's enumeration, a seeded
simulation) rather than against the solver itself."""

from __future__ import annotations

import math
import random
import re
import time
from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from math import factorial
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient
from yardkle_reference import best_points

from conftest import make_test_app
from diceref.core.arrays import FloatArray
from diceref.core.dice import multisets
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES, POINTS_PARAMETERS, YardkleRules
from diceref.games.yardkle.rules.scoring import set_asides
from diceref.games.yardkle.solver.policy import (
    bank_value,
    hot_dice_forced,
    layout,
    solve,
    throw_value,
)
from diceref.games.yardkle.tables import (
    MAX_LEVELS,
    levels_at_most,
    levels_needed,
    solve_policy_table,
)
from diceref.http.app import create_app
from diceref.settings import Settings
from helpers import put_policy, put_policy_for

FORCED = YardkleRules(hot_dice_optional=False)
DOCS = Path(__file__).parents[2] / "docs" / "rules"
app = make_test_app()


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Any]]:
    put_policy(app)
    put_policy_for(app, FORCED)
    with TestClient(app) as c:
        yield c


def errors(r: Any) -> list[tuple[str, str]]:
    assert r.status_code == 422, r.text
    return [(e["field"], e["code"]) for e in r.json()["errors"]]


# --- hot dice forced: the referee ------------------------------------------------------------

HOT = {"dice": [1, 1, 1, 5, 5, 5], "set_aside": [1, 1, 1, 5, 5, 5]}  # two triplets, 2,500
THEN = {"dice": [1, 2, 3, 4, 6, 6], "set_aside": [1]}


def test_banking_right_after_hot_dice_is_refused_when_they_are_forced(
    client: TestClient[Any],
) -> None:
    turn = {"throws": [HOT], "end": "bank", "banked_total": 500}
    optional = client.post("/yardkle/turns", json=turn)
    assert optional.status_code == 200, optional.text
    assert (optional.json()["points"], optional.json()["new_total"]) == (2500, 3000)
    forced = client.post("/yardkle/turns", json=turn | {"rules": {"hot_dice_optional": False}})
    assert errors(forced) == [("end", "banked_hot_dice")]
    assert "must throw all 6 again" in forced.json()["errors"][0]["reason"]
    # throwing the six again, then banking, is legal under both
    on = {"throws": [HOT, THEN], "end": "bank", "banked_total": 500}
    for rules in ({}, {"hot_dice_optional": False}):
        r = client.post("/yardkle/turns", json=on | {"rules": rules})
        assert r.status_code == 200, r.text
        assert r.json()["points"] == 2600


def test_a_game_referees_hot_dice_forced_too(client: TestClient[Any]) -> None:
    game = {"players": ["Ann", "Bo"], "turns": [{"player": "Ann", "throws": [HOT], "end": "bank"}]}
    assert client.post("/yardkle/games", json=game).json()["standings"][0]["total"] == 2500
    forced = client.post("/yardkle/games", json=game | {"rules": {"hot_dice_optional": False}})
    assert errors(forced) == [("turns[0].end", "banked_hot_dice")]


# --- hot dice forced: the solver and the coach -----------------------------------------------


def only_hot_chance_by_reference(dice: int = 6) -> float:
    """Chance that `dice` dice score only all together (the reference's scoring: every
    partition tried), by enumerating the multisets with their multinomial weights."""
    total = 0.0
    for throw in multisets(dice):
        if best_points(throw) is None:
            continue
        proper = (
            sub
            for k in range(1, dice)
            for idx in combinations(range(dice), k)
            for sub in [tuple(throw[i] for i in idx)]
        )
        if all(best_points(sub) is None for sub in proper):
            ways = factorial(dice)
            for c in Counter(throw).values():
                ways //= factorial(c)
            total += ways / 6**dice
    return total


def test_the_chance_of_keeping_points_through_forced_hot_dice() -> None:
    """With the points in hand enough (a race won), a forced throw of six keeps them unless
    it is a Yardkle; a throw scoring only all six together (three pairs without 1s or 5s)
    forces another: K = (1 - q6 - r6) / (1 - r6)."""
    r6 = only_hot_chance_by_reference()
    assert 0 < r6 < 0.01
    q6 = 5 / 216  # RULES.md
    assert hot_dice_forced(FORCED).reach == pytest.approx((1 - q6 - r6) / (1 - r6), abs=1e-12)


def test_the_race_coach_counts_the_forced_throw(client: TestClient[Any]) -> None:
    """Needing 2,500 with 1-1-1-5-5-5 thrown: set aside all six and win, or, forced to
    throw them again, win only if that throw (and any it forces) keeps them."""
    body = {"dice": [1, 1, 1, 5, 5, 5], "on_pad": True, "need": 2500}
    optional = client.post("/yardkle/holds", json=body).json()["options"][0]
    assert (optional["set_aside"], optional["decision"]) == ([1, 1, 1, 5, 5, 5], "bank")
    assert optional["win_probability"] == 1.0
    forced = client.post("/yardkle/holds", json=body | {"rules": {"hot_dice_optional": False}})
    assert forced.status_code == 200, forced.text
    best = forced.json()["options"][0]
    assert (best["set_aside"], best["decision"]) == ([1, 1, 1, 5, 5, 5], "throw_on")
    assert best["bank_allowed"] is False
    r6, q6 = only_hot_chance_by_reference(), 5 / 216
    assert best["win_probability"] == pytest.approx((1 - q6 - r6) / (1 - r6), abs=1e-12)
    assert round(best["win_probability"], 6) == 0.976672  # as docs/rules/yardkle.md says


def test_the_coach_values_hot_dice_as_a_throw_when_forced(client: TestClient[Any]) -> None:
    """20,000 in hand and 1-1-1-5-5-5 thrown: optional, banking 22,500 is best; forced, the
    six must be thrown again, worth less than 22,500 (a Yardkle loses it all)."""
    body = {"dice": [1, 1, 1, 5, 5, 5], "on_pad": True, "turn_points": 20_000}
    optional = client.post("/yardkle/holds", json=body).json()["best_option"]
    assert optional == {
        "set_aside": [1, 1, 1, 5, 5, 5],
        "decision": "bank",
        "expected_points": 22_500.0,
        "win_probability": None,
    }
    r = client.post("/yardkle/holds", json=body | {"rules": {"hot_dice_optional": False}})
    assert r.status_code == 200, r.text
    hot = next(o for o in r.json()["options"] if o["set_aside"] == [1, 1, 1, 5, 5, 5])
    assert hot["bank_allowed"] is False and hot["decision"] == "throw_on"
    assert hot["bank_expected_points"] == 0.0
    table = solve_policy_table(FORCED)
    assert hot["expected_points"] == throw_value(table, FORCED, True, 22_500, 6) < 22_500
    assert round(hot["expected_points"], 1) == 22_353.9  # as docs/rules/yardkle.md says


def simulate_from(
    table: FloatArray, rules: YardkleRules, t: int, n: int, turns: int, seed: int
) -> list[int]:
    """Play on from throwing n dice with t in hand, the policy read from the table, dice
    from a seeded generator; after hot dice forced the player throws again."""
    rng = random.Random(seed)

    def worth(t: int, n: int, hot: bool) -> float:
        go = throw_value(table, rules, True, t, n)
        return go if hot and not rules.hot_dice_optional else max(float(t), go)

    scores = []
    for _ in range(turns):
        at, dice = t, n
        while True:
            options = set_asides([rng.randint(1, 6) for _ in range(dice)], rules)
            if not options:
                scores.append(0)
                break
            after = [
                (at + o.points, dice - len(o.dice) or rules.dice, len(o.dice) == dice)
                for o in options
            ]
            at, dice, hot = max(after, key=lambda s: worth(*s))
            if (rules.hot_dice_optional or not hot) and bank_value(rules, True, at) >= worth(
                at, dice, hot
            ):
                scores.append(at)
                break
    return scores


def test_a_seeded_simulation_confirms_the_forced_value() -> None:
    """From 22,500 in hand and six dice to throw (forced after hot dice): playing the
    policy's decisions with real dice averages the table's value, well under 22,500."""
    table = solve_policy_table(FORCED)
    expected = throw_value(table, FORCED, True, 22_500, 6)
    scores = simulate_from(table, FORCED, 22_500, 6, 20_000, 20261201)
    mean = float(np.mean(scores))
    se = float(np.std(scores, ddof=1)) / math.sqrt(len(scores))
    assert abs(mean - expected) < 4 * se, (mean, expected, se)
    assert mean + 4 * se < 22_500  # forcing the throw costs points


def test_raising_the_forced_table_above_its_bound_changes_nothing() -> None:
    """The bound with hot dice forced (`HotDiceForced`) checked as the built-in one is: a
    table 200 levels higher has the same values, and the closed form above the table is
    what the higher table computed."""
    lay = layout(FORCED)
    table = solve_policy_table(FORCED)
    higher = solve(FORCED, levels=lay.levels + 200).values
    assert np.max(np.abs(higher[:, : lay.levels] - table)) <= 1e-9
    for level in (lay.levels, lay.levels + 77, lay.levels + 199):
        for n in range(1, 7):
            t = level * lay.unit
            assert throw_value(table, FORCED, True, t, n) == pytest.approx(
                higher[1, level, n - 1], rel=1e-12
            )


def test_forced_hot_dice_change_a_small_games_expected_points() -> None:
    """Three dice, no entry minimum: a turn expects 92.73 points when hot dice may be banked
    and 91.53 when they must be thrown again (both agree with the brute-force reference in
    test_yardkle_solver.py); the built-in game differs only far up the table."""
    free = solve(YardkleRules(dice=3, entry_minimum=0)).values
    forced = solve(YardkleRules(dice=3, entry_minimum=0, hot_dice_optional=False)).values
    assert free[1, 0, 2] == pytest.approx(92.7294096, abs=1e-7)
    assert forced[1, 0, 2] == pytest.approx(91.5311676, abs=1e-7)
    built_in, forced_six = solve_policy_table(DEFAULT_RULES), solve_policy_table(FORCED)
    for on_pad, value in ((1, 542.063), (0, 510.195)):
        assert round(forced_six[on_pad, 0, 5], 3) == value
        assert 0 <= built_in[on_pad, 0, 5] - forced_six[on_pad, 0, 5] < 1e-10


@pytest.mark.parametrize(
    ("rules", "dice", "points"),
    [
        ({"two_triplets": 0}, [1, 1, 1, 5, 5, 5], 800),
        ({"four_of_a_kind_with_pair": 0}, [2, 2, 2, 2, 1, 1], 1200),
        ({"groups_distinct_faces": False, "four_of_a_kind_with_pair": 0}, [2, 2, 2, 2, 3, 3], 1500),
        ({"four_of_a_kind_with_pair": 0}, [2, 2, 2, 2, 3, 3], 1000),
    ],
)
def test_the_documented_house_rule_examples_score_as_stated(
    client: TestClient[Any], rules: dict[str, Any], dice: list[int], points: int
) -> None:
    r = client.post("/yardkle/throws", json={"dice": dice, "rules": rules})
    assert r.status_code == 200, r.text
    assert r.json()["max_points"] == points


def test_a_table_in_tenths_is_the_same_game() -> None:
    tenths = YardkleRules(
        **{
            n: getattr(DEFAULT_RULES, n) // 10
            for n in (*POINTS_PARAMETERS, "entry_minimum", "target")
        }
    )
    assert tenths.unit == 5 and levels_needed(tenths) == levels_needed(DEFAULT_RULES) == 336
    values = solve_policy_table(tenths)
    assert np.allclose(values * 10, solve_policy_table(DEFAULT_RULES), rtol=0, atol=1e-9)


# --- ties and the last turns: the referee ----------------------------------------------------

STRAIGHT = {"throws": [{"dice": [1, 2, 3, 4, 5, 6], "set_aside": [1, 2, 3, 4, 5, 6]}]}
ONE = {"throws": [{"dice": [1, 2, 3, 4, 6, 6], "set_aside": [1]}]}


def turn(player: str, how: dict[str, Any]) -> dict[str, Any]:
    return {"player": player, **how, "end": "bank"}


def test_a_tie_is_shared_or_goes_to_who_reached_it_first(client: TestClient[Any]) -> None:
    """Target 1,500, no entry minimum: Ann's straight reaches it, Bo's straight on his last
    turn equals her."""
    rules = {"target": 1500, "entry_minimum": 0}
    game = {"players": ["Ann", "Bo"], "turns": [turn("Ann", STRAIGHT), turn("Bo", STRAIGHT)]}
    shared = client.post("/yardkle/games", json=game | {"rules": rules}).json()
    assert shared["finished"] and shared["winners"] == ["Ann", "Bo"]
    assert [s["rank"] for s in shared["standings"]] == [1, 1]
    broken = client.post("/yardkle/games", json=game | {"rules": rules | {"ties_share_win": False}})
    assert broken.status_code == 200, broken.text
    out = broken.json()
    assert out["finished"] and out["winners"] == ["Ann"]
    assert [(s["player"], s["rank"]) for s in out["standings"]] == [("Ann", 1), ("Bo", 2)]


def test_the_tie_goes_to_the_earlier_total_not_the_earlier_player(
    client: TestClient[Any],
) -> None:
    """Single 1s at 750: Ann (listed first) banks 750, Bo's straight reaches 1,500 first,
    Ann's last turn brings her to 1,500 too: shared, or Bo's."""
    rules = {"target": 1500, "entry_minimum": 0, "single_one": 750}
    game = {
        "players": ["Ann", "Bo"],
        "turns": [turn("Ann", ONE), turn("Bo", STRAIGHT), turn("Ann", ONE)],
    }
    shared = client.post("/yardkle/games", json=game | {"rules": rules}).json()
    assert shared["finished"] and shared["winners"] == ["Ann", "Bo"]
    broken = client.post("/yardkle/games", json=game | {"rules": rules | {"ties_share_win": False}})
    out = broken.json()
    assert [(s["player"], s["total"], s["rank"]) for s in out["standings"]] == [
        ("Bo", 1500, 1),
        ("Ann", 1500, 2),
    ]
    assert out["finished"] and out["winners"] == ["Bo"]


def test_last_turns_complete_the_round(client: TestClient[Any]) -> None:
    """Bo, second of three, reaches the target: by default Cy and Ann each have a last
    turn; completing the round, only Cy (so every player has had as many turns)."""
    game = {
        "players": ["Ann", "Bo", "Cy"],
        "turns": [turn("Ann", ONE), turn("Bo", STRAIGHT)],
    }
    rules: dict[str, Any] = {"target": 1500, "entry_minimum": 0}
    default = client.post("/yardkle/games", json=game | {"rules": rules}).json()
    assert default["last_turns_due"] == ["Cy", "Ann"] and not default["finished"]
    rules |= {"last_turns": "complete_the_round"}
    rounded = client.post("/yardkle/games", json=game | {"rules": rules}).json()
    assert rounded["last_turns_due"] == ["Cy"] and rounded["next_player"] == "Cy"
    done = client.post(
        "/yardkle/games", json={**game, "turns": [*game["turns"], turn("Cy", ONE)], "rules": rules}
    ).json()
    assert done["finished"] and done["winners"] == ["Bo"]
    over = client.post(
        "/yardkle/games",
        json={**game, "turns": [*game["turns"], turn("Cy", ONE), turn("Ann", ONE)], "rules": rules},
    )
    assert errors(over) == [("turns[3]", "game_over")]
    assert "the round is complete" in over.json()["errors"][0]["reason"]


def test_completing_the_round_after_the_last_listed_player_ends_the_game(
    client: TestClient[Any],
) -> None:
    game = {"players": ["Ann", "Bo"], "turns": [turn("Ann", ONE), turn("Bo", STRAIGHT)]}
    rules = {"target": 1500, "entry_minimum": 0, "last_turns": "complete_the_round"}
    out = client.post("/yardkle/games", json=game | {"rules": rules}).json()
    assert out["finished"] and out["winners"] == ["Bo"] and out["next_player"] is None
    default = client.post(
        "/yardkle/games", json=game | {"rules": rules | {"last_turns": "every_other_player_once"}}
    ).json()
    assert default["last_turns_due"] == ["Ann"]


def test_no_last_turns_the_first_to_the_target_wins(client: TestClient[Any]) -> None:
    game = {"players": ["Ann", "Bo"], "turns": [turn("Ann", STRAIGHT)]}
    rules = {"target": 1500, "entry_minimum": 0, "last_turns": "none"}
    out = client.post("/yardkle/games", json=game | {"rules": rules}).json()
    assert out["finished"] and out["winners"] == ["Ann"] and out["last_turns_due"] == []
    default = client.post("/yardkle/games", json=game | {"rules": {"target": 1500}}).json()
    assert not default["finished"] and default["last_turns_due"] == ["Bo"]


def test_readings_without_another_coherent_value_are_not_settable(
    client: TestClient[Any],
) -> None:
    r = client.post("/yardkle/throws", json={"dice": [1], "rules": {"best_valuation": False}})
    assert errors(r) == [("rules.best_valuation", "not_settable")]


# --- the bound on the solvable rules ---------------------------------------------------------

# A 1-point step (single 5 at 49) with a straight at 6,371 needs exactly MAX_LEVELS levels;
# at 6,372 one more.
BORDER = {"single_five": 49, "straight": 6371}
BEYOND = {"single_five": 49, "straight": 6372}


def test_the_bound_is_reached_exactly_by_the_borderline_rules() -> None:
    assert levels_needed(YardkleRules(**BORDER)) == MAX_LEVELS
    assert levels_needed(YardkleRules(**BEYOND)) == MAX_LEVELS + 1
    assert levels_needed(DEFAULT_RULES) == 336
    assert levels_needed(FORCED) == 2218
    # the other figures of the docs' table
    assert levels_needed(YardkleRules(single_one=1, single_five=1)) == 12_012
    assert levels_needed(YardkleRules(single_five=25, target=1_000_000)) == 40_000


def test_rules_beyond_the_bound_are_a_ruleset_limit(client: TestClient[Any]) -> None:
    r = client.post("/rulesets", json={"game": "yardkle", "rules": BEYOND})
    [error] = r.json()["errors"]
    assert r.status_code == 422 and r.json()["type"].endswith("/invalid-rules")
    # straight back at 1,500 needs 16,753 levels; single 5 back at 50 a step of 2 (fewer)
    assert (error["field"], error["code"]) == ("rules.single_five", "ruleset_limit")
    assert "20,001 levels of 1 points" in error["reason"]


def test_the_borderline_rules_solve_on_demand(tmp_path: Path) -> None:
    """Through `POST /rulesets`: queued, then ready (solved by the app's solver workers)."""
    body = {"game": "yardkle", "rules": BORDER}
    with TestClient(create_app(Settings(preload=(), cache_dir=str(tmp_path)))) as c:
        first = c.post("/rulesets", json=body)
        assert first.status_code == 200, first.text
        assert first.json()["status"] in ("queued", "solving")
        deadline = time.monotonic() + 120
        while (answer := c.post("/rulesets", json=body).json())["status"] != "ready":
            assert answer["status"] in ("queued", "solving"), answer
            assert time.monotonic() < deadline
            time.sleep(0.2)
        r = c.post(
            "/yardkle/holds",
            json={"dice": [5, 5], "on_pad": True, "turn_points": 98, "rules": BORDER},
        )
        assert r.status_code == 200, r.text
        assert r.json()["ruleset_id"] == answer["ruleset_id"]


def test_the_bound_in_the_docs_is_the_code_s() -> None:
    """docs/rules/yardkle.md states the bound and the table's size at it."""
    text = (DOCS / "yardkle.md").read_text()
    levels = re.search(r"at most \*\*([\d,]+) levels\*\*", text)
    size = re.search(r"2 × [\d,]+ × 6 × 8 bytes = ([\d,]+) bytes", text)
    assert levels and size, "the bound is documented"
    assert int(levels.group(1).replace(",", "")) == MAX_LEVELS
    table = solve_policy_table(YardkleRules(**BORDER))
    assert table.nbytes == int(size.group(1).replace(",", "")) == 2 * MAX_LEVELS * 6 * 8


@settings(max_examples=40, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "dice": st.integers(2, 6),
            "single_one": st.integers(1, 10).map(lambda k: 50 * k),
            "single_five": st.sampled_from([25, 50, 100, 150]),
            "three_ones": st.sampled_from([0, 300, 1000, 2000]),
            "three_of_a_kind_per_pip": st.sampled_from([0, 50, 100, 200]),
            "four_of_a_kind": st.sampled_from([0, 1000, 2000]),
            "straight": st.sampled_from([0, 500, 1500, 2500]),
            "three_pairs": st.sampled_from([0, 750, 1500]),
            "groups_distinct_faces": st.booleans(),
            "entry_minimum": st.sampled_from([0, 350, 500, 1000]),
            "target": st.sampled_from([5000, 10_000, 20_000]),
        },
    )
)
def test_the_cheap_level_bound_is_never_below_the_exact_count(overrides: dict[str, Any]) -> None:
    """`levels_at_most` accepts rules without their set-asides (25 ms of Python on the
    request path of every new ruleset): it must never say fewer levels than they need."""
    rules = YardkleRules(**overrides)
    cheap = levels_at_most(rules)
    assert cheap is not None and cheap >= levels_needed(rules)
