"""`POST /yardkle/reviews` (issue 15): every decision of played turns valued against the
optimal expected-points policy, held to the policy table directly; under house rules,
refereed and valued under those rules against their own table."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from conftest import make_test_app
from diceref.games.yardkle.cli import yardkle_review
from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES as RULES
from diceref.games.yardkle.rules.ruleset import YardkleRules
from diceref.games.yardkle.solver.advice import advise
from diceref.games.yardkle.solver.policy import throw_value
from diceref.games.yardkle.tables import solve_policy_table
from helpers import put_policy, put_policy_for

TABLE = solve_policy_table(RULES)


@pytest.fixture
def yclient(app: Litestar) -> Iterator[TestClient[Any]]:
    put_policy(app)
    with TestClient(app) as c:
        yield c


def play_turn(
    rng: random.Random, banked: int, noise: float, rules: YardkleRules = RULES
) -> dict[str, Any]:
    """A turn played by the policy, or with chance `noise` per throw a random choice."""
    on_pad = banked > 0 or rules.entry_minimum == 0
    table = solve_policy_table(rules)
    throws: list[dict[str, Any]] = []
    in_hand, n = 0, rules.dice
    while True:
        dice = [rng.randint(1, 6) for _ in range(n)]
        options = advise(table, rules, dice, in_hand, on_pad)
        if not options:
            throws.append({"dice": dice})
            return {"throws": throws, "end": "yardkle", "banked_total": banked}
        h = options[0] if rng.random() >= noise else rng.choice(options)
        bank = h.bank_allowed and (
            h.decision.value == "bank" if h is options[0] else rng.random() < 0.5
        )
        throws.append({"dice": dice, "set_aside": list(h.set_aside.dice)})
        in_hand, n = h.turn_points, h.dice_left
        if bank:
            return {"throws": throws, "end": "bank", "banked_total": banked}


def test_optimal_turns_lose_nothing_and_weak_ones_their_exact_loss(
    yclient: TestClient[Any],
) -> None:
    rng = random.Random(7)
    for noise, banked in ((0.0, 0), (0.0, 1000), (0.5, 0), (0.5, 2000), (1.0, 500)):
        turns = [play_turn(rng, banked, noise) for _ in range(12)]
        r = yclient.post("/yardkle/reviews", json={"turns": turns})
        assert r.status_code == 200, r.text
        out = r.json()
        every = [d for t in out["turns"] for d in t["decisions"]]
        if noise == 0.0:
            assert out["expected_loss"] == 0.0 and out["costliest"] == []
        else:
            assert out["expected_loss"] > 0
        for t, sent in zip(out["turns"], turns, strict=True):
            on_pad = sent["banked_total"] > 0
            start = throw_value(TABLE, RULES, on_pad, 0, RULES.dice)
            assert t["optimal_expected_points"] == start
            assert math.isclose(t["loss"], sum(d["loss"] for d in t["decisions"]), abs_tol=1e-9)
            assert math.isclose(t["luck"], t["points"] - start + t["loss"], abs_tol=1e-9)
            scoring = [x for x in sent["throws"] if x.get("set_aside")]
            assert len(t["decisions"]) == len(scoring)
            for k, d in enumerate(t["decisions"]):
                last = k == len(t["decisions"]) - 1 and sent["end"] == "bank"
                chosen = d["chosen"]
                assert chosen["decision"] == ("bank" if last else "throw_on")
                options = advise(TABLE, RULES, d["dice"], d["turn_points"], on_pad)
                kept = next(h for h in options if list(h.set_aside.dice) == chosen["set_aside"])
                if last:
                    assert chosen["expected_points"] == kept.turn_points
                else:
                    assert chosen["expected_points"] == throw_value(
                        TABLE, RULES, on_pad, kept.turn_points, kept.dice_left
                    )
                top = max(h.value for h in options)
                assert all(b["expected_points"] == pytest.approx(top, abs=1e-9)
                           for b in d["best_options"])  # fmt: skip
                assert d["loss"] == pytest.approx(max(0.0, top - chosen["expected_points"]),
                                                  abs=1e-9)  # fmt: skip
                assert d["loss"] >= 0
        assert out["decision_count"] == len(every)
        assert out["points"] == sum(t["points"] for t in out["turns"])
        assert math.isclose(
            out["luck"], out["points"] - out["optimal_expected_points"] + out["expected_loss"]
        )


def test_the_issues_banked_400_needing_more_is_no_loss_in_expected_points(
    yclient: TestClient[Any],
) -> None:
    """Banking 400 with three dice left is the expected-points policy's own choice."""
    turn = {"throws": [{"dice": [1, 1, 2, 3, 4, 6], "set_aside": [1, 1]},
                       {"dice": [1, 2, 3, 4], "set_aside": [1]},
                       {"dice": [2, 5, 6], "set_aside": [5]}],
            "end": "bank", "banked_total": 3000}  # fmt: skip
    out = yclient.post("/yardkle/reviews", json={"turns": [turn]}).json()
    assert out["turns"][0]["points"] == 350


@pytest.mark.parametrize(
    ("turn", "field", "code"),
    [
        ({"throws": [{"dice": [1, 5, 2, 3, 3, 4], "set_aside": [1]}], "end": "bank"},
         "turns[0].end", "entry_minimum"),
        ({"throws": [{"dice": [1, 5, 2, 3, 3, 4], "set_aside": [1]}], "end": "bank",
          "banked_total": 1000, "on_pad": False}, "turns[0].on_pad", "pad_mismatch"),
        ({"throws": [{"dice": [1, 5, 2, 3, 3, 4], "set_aside": [6]}], "end": "bank",
          "banked_total": 1000}, "turns[0].throws[0].set_aside", "dice_not_thrown"),
    ],
)  # fmt: skip
def test_an_illegal_turn_is_refused_naming_it(
    yclient: TestClient[Any], turn: dict[str, Any], field: str, code: str
) -> None:
    r = yclient.post("/yardkle/reviews", json={"turns": [turn]})
    assert r.status_code == 422, r.text
    (error,) = r.json()["errors"]
    assert (error["field"], error["code"]) == (field, code)


# --- under house rules --------------------------------------------------------------------

THOUSAND = YardkleRules(three_ones=1000)
NO_ENTRY = YardkleRules(entry_minimum=0)


@pytest.fixture
def house_client(app: Litestar) -> Iterator[TestClient[Any]]:
    put_policy(app)
    put_policy_for(app, THOUSAND)
    put_policy_for(app, NO_ENTRY)
    with TestClient(app) as c:
        yield c


def review(client: TestClient[Any], turns: list[dict[str, Any]], rules: Any = None) -> Any:
    body: dict[str, Any] = {"turns": turns}
    if rules is not None:
        body["rules"] = rules
    r = client.post("/yardkle/reviews", json=body)
    assert r.status_code == 200, r.text
    return r.json()


ONE_AND_ON = {
    "throws": [
        {"dice": [1, 1, 1, 2, 3, 4], "set_aside": [1]},
        {"dice": [5, 2, 3, 4, 6], "set_aside": [5]},
    ],
    "end": "bank",
    "banked_total": 1000,
}
THREE_ONES_BANKED = {
    "throws": [{"dice": [1, 1, 1, 2, 3, 4], "set_aside": [1, 1, 1]}],
    "end": "bank",
    "banked_total": 1000,
}


def test_a_decision_optimal_under_the_built_in_rules_loses_under_three_ones_1000(
    house_client: TestClient[Any],
) -> None:
    """1-1-1-2-3-4: the built-in policy sets aside one 1 and throws on (370.1 expected
    against 300 banked for the three 1s); under three 1s at 1,000 the three 1s banked are
    worth 1,000, and the single 1 thrown on loses 1,000 - 404.2.  The losses are each
    rules' own table's, the points each rules' own scoring."""
    default_table, house_table = solve_policy_table(RULES), solve_policy_table(THOUSAND)
    built_in = review(house_client, [ONE_AND_ON, THREE_ONES_BANKED])
    house = review(house_client, [ONE_AND_ON, THREE_ONES_BANKED], {"three_ones": 1000})
    assert "ruleset_id" not in built_in
    assert house["ruleset_id"] == THOUSAND.rules_hash
    one_on, three_banked = (t["decisions"][0] for t in built_in["turns"])
    default_options = advise(default_table, RULES, [1, 1, 1, 2, 3, 4], 0, True)
    assert one_on["loss"] == 0.0 and one_on["chosen"]["set_aside"] == [1]
    assert three_banked["loss"] == pytest.approx(default_options[0].value - 300, abs=1e-9)
    assert three_banked["loss"] > 70
    house_one_on, house_banked = (t["decisions"][0] for t in house["turns"])
    assert house_banked["loss"] == 0.0
    assert house_banked["best_options"] == [
        {"set_aside": [1, 1, 1], "decision": "bank", "expected_points": 1000.0}
    ]
    single = throw_value(house_table, THOUSAND, True, 100, 5)
    assert house_one_on["chosen"]["expected_points"] == single
    assert house_one_on["loss"] == pytest.approx(1000 - single, abs=1e-9)
    assert house_one_on["loss"] > 500
    assert [t["points"] for t in built_in["turns"]] == [150, 300]
    assert [t["points"] for t in house["turns"]] == [150, 1000]
    on_pad_start = throw_value(house_table, THOUSAND, True, 0, THOUSAND.dice)
    assert house["turns"][0]["optimal_expected_points"] == on_pad_start
    assert on_pad_start > built_in["turns"][0]["optimal_expected_points"]


def test_no_entry_minimum_reviews_a_first_turn_the_built_in_rules_refuse(
    house_client: TestClient[Any],
) -> None:
    """Banking 50 with nothing banked: illegal under the entry minimum of 500 (a 422
    naming the turn's end), a turn like any other without one, valued on the pad (with no
    entry minimum every player is on it)."""
    turn = {"throws": [{"dice": [5, 2, 3, 4, 6, 6], "set_aside": [5]}], "end": "bank"}
    refused = house_client.post("/yardkle/reviews", json={"turns": [turn]})
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["code"] == "entry_minimum"
    out = review(house_client, [turn | {"on_pad": True}], {"entry_minimum": 0})
    assert out["ruleset_id"] == NO_ENTRY.rules_hash
    [decision] = out["turns"][0]["decisions"]
    table = solve_policy_table(NO_ENTRY)
    top = advise(table, NO_ENTRY, [5, 2, 3, 4, 6, 6], 0, True)[0]
    assert decision["chosen"] == {"set_aside": [5], "decision": "bank", "expected_points": 50.0}
    assert decision["loss"] == pytest.approx(top.value - 50, abs=1e-9)
    assert out["turns"][0]["optimal_expected_points"] == throw_value(table, NO_ENTRY, True, 0, 6)
    pad = house_client.post("/yardkle/reviews", json={"turns": [turn | {"on_pad": True}]})
    assert pad.json()["errors"][0]["code"] == "pad_mismatch"  # built in: 0 banked is off it


@pytest.mark.parametrize("rules", [THOUSAND, NO_ENTRY], ids=["three_ones_1000", "no_entry"])
def test_house_rules_turns_lose_exactly_against_their_own_policy(
    house_client: TestClient[Any], rules: YardkleRules
) -> None:
    """Turns played by each rules' own policy lose nothing; with random choices every loss
    is the gap to that policy's best option, read from that rules' table."""
    table = solve_policy_table(rules)
    sent = {k: v for k, v in dataclasses.asdict(rules).items() if v != getattr(RULES, k)}
    rng = random.Random(11)
    for noise, banked in ((0.0, 0), (0.0, 1000), (0.6, 0), (0.6, 1500)):
        turns = [play_turn(rng, banked, noise, rules) for _ in range(10)]
        out = review(house_client, turns, sent)
        if noise == 0.0:
            assert out["expected_loss"] == 0.0
        for t, played in zip(out["turns"], turns, strict=True):
            on_pad = played["banked_total"] > 0 or rules.entry_minimum == 0
            assert t["optimal_expected_points"] == throw_value(table, rules, on_pad, 0, 6)
            for d in t["decisions"]:
                options = advise(table, rules, d["dice"], d["turn_points"], on_pad)
                top = options[0].value
                assert d["loss"] == pytest.approx(
                    max(0.0, top - d["chosen"]["expected_points"]), abs=1e-9
                )
                assert all(b["expected_points"] == pytest.approx(top, abs=1e-9)
                           for b in d["best_options"])  # fmt: skip


def test_house_rules_whose_table_is_not_served_answer_503(tmp_path: Path) -> None:
    """A fresh app on a disk cache of its own (the shared one may hold the table from an
    earlier run): the first request queues the solve and is a 503, never a solve inline;
    refused rules are a 422 naming them, table or not."""
    app = make_test_app(cache_dir=tmp_path)
    put_policy(app)
    with TestClient(app) as c:
        body = {"turns": [THREE_ONES_BANKED], "rules": {"three_ones": 1000}}
        r = c.post("/yardkle/reviews", json=body)
        assert r.status_code == 503, r.text
        assert "retry-after" in r.headers
        bad = c.post("/yardkle/reviews", json=body | {"rules": {"three_one": 1000}})
        assert bad.status_code == 422
        assert bad.json()["errors"][0] == {
            "field": "rules.three_one",
            "reason": bad.json()["errors"][0]["reason"],
            "code": "unknown_parameter",
        }


def test_the_command_line_reviews_under_the_files_rules(house_client: TestClient[Any]) -> None:
    """`diceref review` on a Yardkle file with `rules` gives the operation's answer."""
    body = {"turns": [ONE_AND_ON, THREE_ONES_BANKED], "rules": {"three_ones": 1000}}
    printed = msgspec.to_builtins(yardkle_review(body))
    assert printed == review(house_client, body["turns"], body["rules"])
    assert printed["turns"][1]["points"] == 1000
