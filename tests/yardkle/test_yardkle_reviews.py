"""`POST /yardkle/reviews` (issue 15): every decision of played turns valued against the
optimal expected-points policy, held to the policy table directly."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from diceref.games.yardkle.rules.ruleset import DEFAULT_RULES as RULES
from diceref.games.yardkle.solver.advice import advise
from diceref.games.yardkle.solver.policy import throw_value
from diceref.games.yardkle.tables import solve_policy_table
from helpers import put_policy

TABLE = solve_policy_table(RULES)


@pytest.fixture
def yclient(app: Litestar) -> Iterator[TestClient[Any]]:
    put_policy(app)
    with TestClient(app) as c:
        yield c


def play_turn(rng: random.Random, banked: int, noise: float) -> dict[str, Any]:
    """A turn played by the policy, or with chance `noise` per throw a random choice."""
    on_pad = banked > 0
    throws: list[dict[str, Any]] = []
    in_hand, n = 0, RULES.dice
    while True:
        dice = [rng.randint(1, 6) for _ in range(n)]
        options = advise(TABLE, RULES, dice, in_hand, on_pad)
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
