"""`POST /rulesets` summarizes the rules it compiled, not the built-in game's: a scorecard
game's variant is summarized from its `Ruleset` (`games/scorecard/rules/summary.py`),
Chicago's and Yardkle's from their rules objects."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

Client = TestClient[Litestar]

CASES = [
    ("yahtzee", {"joker": "none", "extra_bonus": 0, "upper_bonus_threshold": 60,
                 "throws_per_turn": 4},
     "Yahtzee (official rules) under house rules: 13 boxes; upper bonus 35 at 60; no extra "
     "bonus; no Joker; 4 throws a turn."),
    ("yahtzee", {"joker": "free_choice", "extra_bonus": 50},
     "Yahtzee (official rules) under house rules: 13 boxes; upper bonus 35 at 63; 50 per extra "
     "Yahtzee; free-choice Joker."),
    ("yahtzee", {"upper_bonus_strictly_greater": True, "order": "series"},
     "Yahtzee (official rules) under house rules: 13 boxes; upper bonus 35 above 63; 100 per "
     "extra Yahtzee; forced Joker; upper boxes first (series order)."),
    ("yatzy", {"full_house_accepts_five_of_a_kind": True, "upper_bonus_points": 25,
               "order": "forced"},
     "Yatzy (Scandinavian) under house rules: 15 boxes; upper bonus 25 at 63; no extra bonus; "
     "no Joker; boxes filled in scorecard order; full_house_accepts_five_of_a_kind true."),
    ("yardkle", {"three_ones": 1000, "three_pairs": 0, "target_inclusive": False},
     "6 dice; after each throw set aside scoring dice (1s, 5s, three or more of a kind, "
     "straight, three pairs, four with a pair, two triplets), then bank or throw the rest; "
     "nothing to set aside is a Yardkle and loses the turn's points; all dice set aside (hot "
     "dice) may be thrown again; 500 in one turn to get on the pad; more than 10,000 starts "
     "one last turn for every other player; highest total wins; ties share; house points: "
     "Three 1s 1,000, Three pairs not scored."),
]  # fmt: skip


@pytest.mark.parametrize(("game", "rules", "summary"), CASES)
def test_the_summary_describes_the_house_rules_sent(
    client: Client, game: str, rules: dict[str, Any], summary: str
) -> None:
    r = client.post("/rulesets", json={"game": game, "rules": rules})
    assert r.status_code == 200, r.text
    assert r.json()["ruleset"]["summary"] == summary


def test_chicago_s_summary_follows_its_house_rules(client: Client) -> None:
    rules = {"lives_by_players": [5, 5, 5, 5, 5], "chicago_ends_round": False}
    r = client.post("/rulesets", json={"game": "chicago", "rules": rules})
    summary = r.json()["ruleset"]["summary"]
    assert "lives for 2 to 6 players: 5/5/5/5/5" in summary, summary
    assert "1-1-1 (Chicago) costs every opponent a life;" in summary, summary


@pytest.mark.parametrize("game", ["yahtzee", "yatzy", "chicago", "yardkle"])
def test_rules_equal_to_the_built_in_ones_keep_its_summary(client: Client, game: str) -> None:
    built_in = client.get(f"/games/{game}").json()
    first = built_in["parameters"][0]
    rules = {first["name"]: first["value"]}
    r = client.post("/rulesets", json={"game": game, "rules": rules})
    assert r.json()["ruleset"]["summary"] == built_in["summary"]
