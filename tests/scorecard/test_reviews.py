"""`POST /reviews`: a played scorecard game replayed, every decision valued against the
table (issue 15).  The values are held to the coach's own (`advise`, which the reference
tests hold to yatzy-solver; `test_reviews_reference.py` compares a review with it
directly), the game's sums to their definitions, and every impossible record to its 422."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from review_games import play

from conftest import make_test_app
from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import SCORECARD_GAMES, variant
from diceref.games.scorecard.rules.ruleset import Ruleset
from diceref.games.scorecard.rules.scorecard import Scorecard
from diceref.games.scorecard.solver.advice import (
    BoxAdvice,
    KeepAdvice,
    advise,
    expected_final_score,
)
from diceref.games.scorecard.tables import value_spec

Client = TestClient[Litestar]
Json = dict[str, Any]
YAHTZEE = SCORECARD_GAMES["yahtzee"]


def review(coach: Client, body: Json) -> Json:
    r = coach.post("/reviews", json=body)
    assert r.status_code == 200, r.text
    out: Json = r.json()
    return out


def chosen_name(option: Json) -> Any:
    return option["box"] if option["kind"] == "box" else option["keep"]


def option_name(option: Json) -> str | tuple[int, ...]:
    return option["box"] if option["kind"] == "box" else tuple(option["keep"])


def advice_name(advice: BoxAdvice | KeepAdvice) -> str | tuple[int, ...]:
    return advice.box if isinstance(advice, BoxAdvice) else tuple(advice.keep)


@pytest.mark.parametrize(("game", "seed", "noise"), [("yahtzee", 1, 0.3), ("yatzy", 2, 0.5),
                                                     ("dice-poker", 3, 0.3),
                                                     ("russian-poker", 4, 0.3),
                                                     ("chute-5", 7, 0.3),
                                                     ("yardzee", 8, 0.3)])  # fmt: skip
def test_every_decision_is_the_coachs_view_of_it(
    coach: Client, solved: Callable[[str], FloatArray], game: str, seed: int, noise: float
) -> None:
    ruleset = SCORECARD_GAMES[game]
    record, seen = play(ruleset, solved(game), seed, noise)
    out = review(coach, {"game": game, "turns": record})
    decisions = [d for t in out["turns"] for d in t["decisions"]]
    assert len(decisions) == len(seen) == out["decision_count"]
    for d, s in zip(decisions, seen, strict=True):
        assert (d["dice"], d["throws_left"], d["throw"]) == (list(s.dice), s.throws_left, s.throw)
        chosen = d["chosen"]
        assert chosen_name(chosen) == (
            s.chosen.box if isinstance(s.chosen, BoxAdvice) else list(s.chosen.keep)
        )
        assert chosen["expected_total"] == s.chosen.expected_total
        best = d["best_options"]
        assert best and all(o["best"] and o["loss"] == 0.0 for o in best)
        top = best[0]["expected_total"]
        assert all(abs(o["expected_total"] - top) <= 1e-9 for o in best)
        # ... and every option tied with the best is among them (ties included)
        options = [
            o
            for o in advise(ruleset, solved(game), s.card, list(s.dice), s.throws_left, s.throw)
            if not (isinstance(o, KeepAdvice) and len(o.keep) == 5)
        ]
        coach_top = max(o.expected_total for o in options)
        assert math.isclose(top, coach_top, abs_tol=1e-9)
        tied = {advice_name(o) for o in options if coach_top - o.expected_total <= 1e-9}
        assert {option_name(o) for o in best} == tied, (d, tied)
        assert d["loss"] == chosen["loss"] >= 0.0
        assert math.isclose(d["loss"], max(0.0, top - chosen["expected_total"]), abs_tol=1e-9)
        assert (d["loss"] == 0.0) == chosen["best"]
    for i, t in enumerate(out["turns"]):
        assert t["turn_index"] == i and t["box"] == record[i]["box"]
        assert all(d["turn_index"] == i for d in t["decisions"])
        assert [d["decision_index"] for d in t["decisions"]] == list(range(len(t["decisions"])))
        assert math.isclose(t["loss"], sum(d["loss"] for d in t["decisions"]), abs_tol=1e-9)
    totals = [t["total"] for t in out["turns"]]
    assert totals == [sum(t["points"] for t in out["turns"][: i + 1]) for i in range(len(totals))]
    assert out["final_total"] == totals[-1]
    assert math.isclose(out["expected_loss"], sum(d["loss"] for d in decisions), abs_tol=1e-9)
    assert math.isclose(out["mean_loss"], out["expected_loss"] / len(decisions))
    assert out["complete"] is True
    assert math.isclose(
        out["luck"], out["final_total"] - out["optimal_expected_score"] + out["expected_loss"]
    )
    costly = sorted(decisions, key=lambda d: -d["loss"])[:3]
    assert [d["loss"] for d in out["costliest"]] == [d["loss"] for d in costly if d["loss"] > 0]
    assert out["expected_loss"] > 0  # the noise made mistakes


def test_optimal_play_loses_nothing(coach: Client, solved: Callable[[str], FloatArray]) -> None:
    record, _ = play(YAHTZEE, solved("yahtzee"), 5, 0.0)
    out = review(coach, {"game": "yahtzee", "turns": record})
    assert out["expected_loss"] == 0.0 and out["mean_loss"] == 0.0 and out["costliest"] == []
    assert all(d["chosen"]["best"] for t in out["turns"] for d in t["decisions"])
    assert out["optimal_expected_score"] == pytest.approx(254.5877, abs=1e-4)


def test_luck_over_many_games_averages_out(solved: Callable[[str], FloatArray]) -> None:
    """Luck is the part of the result the dice gave: over optimal games its mean is ~0
    (the final total's mean is the optimal expected score)."""
    from diceref.games.scorecard.rules.turns import TurnRecord, replay_game
    from diceref.games.scorecard.solver.review import review_game

    values = solved("yahtzee")
    lucks = []
    for seed in range(40):
        record, _ = play(YAHTZEE, values, 100 + seed, 0.0)
        played = replay_game(
            YAHTZEE,
            [TurnRecord(tuple(map(tuple, t["throws"])), tuple(map(tuple, t["keeps"])), t["box"])
             for t in record],
        )  # fmt: skip
        result = review_game(YAHTZEE, values, played)
        assert result.luck is not None and result.losses.expected_loss == 0.0
        lucks.append(result.luck)
    mean = sum(lucks) / len(lucks)
    spread = (sum((x - mean) ** 2 for x in lucks) / (len(lucks) - 1)) ** 0.5
    assert abs(mean) < 4 * spread / len(lucks) ** 0.5  # within four standard errors of 0


def test_a_part_played_game_has_no_luck(coach: Client, solved: Callable[[str], FloatArray]) -> None:
    record, seen = play(YAHTZEE, solved("yahtzee"), 6, 0.4, turns=4)
    out = review(coach, {"game": "yahtzee", "turns": record})
    assert out["complete"] is False and out["luck"] is None and len(out["turns"]) == 4
    assert out["decision_count"] == len(seen)
    empty = review(coach, {"game": "yahtzee", "turns": []})
    assert empty["turns"] == [] and empty["decision_count"] == 0 and empty["final_total"] == 0
    assert empty["optimal_expected_score"] == out["optimal_expected_score"]


def test_standing_early_is_compared_with_the_keeps_left(coach: Client) -> None:
    """Stood on a first-throw 1-2-3-4-6 in chance: with two throws left, rethrowing is
    better, and the box decision says so against every keep."""
    out = review(coach, {"game": "yahtzee", "turns": [{"throws": [[6, 4, 3, 2, 1]],
                                                        "box": "chance"}]})  # fmt: skip
    (d,) = out["turns"][0]["decisions"]
    assert d["throws_left"] == 2 and d["chosen"]["kind"] == "box" and d["loss"] > 0
    assert d["best_options"][0]["kind"] == "keep"
    assert out["turns"][0]["points"] == 16


def test_joker_and_bonuses_are_scored_by_the_service(coach: Client) -> None:
    """Further Yahtzees after a 50: the extra 100 each, the matching upper box forced, the
    Joker's full house, and the upper bonus when the fours secure it, in the turns' points."""
    turns = [
        {"throws": [[6, 6, 6, 6, 6]], "box": "yahtzee"},
        {"throws": [[6, 6, 6, 6, 6]], "box": "sixes"},
        {"throws": [[5, 5, 5, 5, 5]], "box": "fives"},
        {"throws": [[4, 4, 4, 4, 1]], "box": "fours"},
        {"throws": [[3, 3, 3, 3, 3]], "box": "threes"},
        {"throws": [[2, 2, 2, 1, 1]], "box": "twos"},
        {"throws": [[1, 1, 1, 1, 1]], "box": "ones"},
        {"throws": [[2, 2, 2, 2, 2]], "box": "full_house"},
    ]
    out = review(coach, {"game": "yahtzee", "turns": turns})
    points = [t["points"] for t in out["turns"]]
    # yahtzee 50; sixes 30 + 100; fives 25 + 100; fours 16: upper 71 -> +35 bonus;
    # threes 15 + 100; twos 6; ones 5 + 100; 2-2-2-2-2 with twos filled: the Joker full
    # house 25 + 100
    assert points == [50, 130, 125, 16 + 35, 115, 6, 105, 125]
    assert out["final_total"] == sum(points)


BASE = {"game": "yahtzee", "turns": [
    {"throws": [[1, 2, 3, 4, 6], [1, 2, 3, 4, 5]], "keeps": [[1, 2, 3, 4]],
     "box": "large_straight"},
    {"throws": [[6, 6, 2, 3, 1], [6, 6, 6, 2, 5], [6, 6, 6, 6, 4]], "keeps": [[6, 6], [6, 6, 6]],
     "box": "sixes"},
]}  # fmt: skip


def broken(path: list[Any], value: Any) -> Json:
    body = copy.deepcopy(BASE)
    target: Any = body
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return body


FULL = [{"throws": [[1, 1, 1, 1, 1]], "box": b.id} for b in YAHTZEE.boxes]
INVALID: list[tuple[Json, int, str, str]] = [
    (broken(["turns", 0, "keeps", 0], [1, 2, 3, 5]), 422, "turns[0].keeps[0]", "kept_not_thrown"),
    (broken(["turns", 1, "throws", 1], [6, 5, 1, 2, 5]), 422, "turns[1].throws[1]",
     "kept_die_changed"),
    (broken(["turns", 1, "keeps", 1], [6, 6, 6, 2, 5]), 422, "turns[1].keeps[1]",
     "kept_all_dice"),
    (broken(["turns", 1, "keeps"], [[6, 6]]), 422, "turns[1].keeps", "keeps_mismatch"),
    (broken(["turns", 0, "throws"], [[1, 2, 3, 4, 6]] * 4), 422, "turns[0].throws[3]",
     "throws_exceeded"),
    (broken(["turns", 1, "box"], "large_straight"), 422, "turns[1].box", "box_filled"),
    (broken(["turns", 1, "box"], "pair"), 422, "turns[1].box", "unknown_box"),
    (broken(["turns", 0, "throws", 0], [1, 2, 3, 4, 9]), 400, "turns[0].throws[0][4]",
     "not_a_die"),
    (broken(["turns", 0, "throws", 1], [1, 2, 3, 4]), 400, "turns[0].throws[1]",
     "wrong_dice_count"),
    ({"game": "yahtzee", "turns": [{"throws": [[6, 6, 6, 6, 6]], "box": "yahtzee"},
                                   {"throws": [[2, 2, 2, 2, 2]], "box": "chance"}]},
     422, "turns[1].box", "forced_joker"),
    ({"game": "yahtzee", "turns": [*FULL, {"throws": [[1, 2, 3, 4, 5]], "box": "chance"}]},
     422, "turns[13]", "card_full"),
    ({"game": "russian-poker", "turns": [{"throws": [[1, 2, 3, 4, 5]], "box": "pair"}]},
     422, "turns[0].box", "series_order"),
    ({"game": "yatzy", "rules": {"order": "forced"},
      "turns": [{"throws": [[1, 2, 3, 4, 5]], "box": "twos"}]}, 422, "turns[0].box",
     "forced_order"),
    ({"game": "yahtzee", "turns": [], "rules": {"joker": "sometimes"}}, 422, "rules.joker",
     "unknown_choice"),
]  # fmt: skip


@pytest.mark.parametrize(("body", "status", "field", "code"), INVALID)
def test_an_impossible_record_names_the_step_and_the_rule(
    coach: Client, body: Json, status: int, field: str, code: str
) -> None:
    r = coach.post("/reviews", json=body)
    assert r.status_code == status, r.text
    problem = r.json()
    assert r.headers["content-type"].startswith("application/problem+json")
    (error,) = problem["errors"]
    assert (error["field"], error["code"]) == (field, code), problem
    assert error["reason"]


def test_the_record_as_given_is_valid(coach: Client) -> None:
    out = review(coach, BASE)
    assert [t["points"] for t in out["turns"]] == [40, 24]


def test_a_missing_table_is_a_503_never_a_solve() -> None:
    with TestClient(make_test_app()) as client:
        r = client.post("/reviews", json=BASE)
    assert r.status_code == 503 and r.headers["retry-after"] == "5"


def test_the_command_line_prints_the_review_or_refuses_the_record(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], solved: Callable[[str], FloatArray]
) -> None:
    import json

    from diceref.cli import main

    solved("yahtzee")  # in the test cache, where the command loads it from
    game = tmp_path / "game.json"
    game.write_text(json.dumps(BASE))
    assert main(["review", str(game)]) == 0
    out = capsys.readouterr().out
    assert "yahtzee: 2 turn(s) reviewed" in out and "final total             64" in out
    assert "(part-played game)" in out
    game.write_text(json.dumps(broken(["turns", 1, "box"], "large_straight")))
    assert main(["review", str(game)]) == 2
    assert "turns[1].box" in capsys.readouterr().err
    game.write_text("{not json")
    assert main(["review", str(game)]) == 2


def test_a_custom_ruleset_is_reviewed_under_its_own_table(
    solved_ruleset: Callable[[Ruleset], FloatArray],
) -> None:
    """`ruleset` instead of `game`: Yatzy fetched, its bonus moved to 60 and sent back, is
    reviewed against the table of those rules (the coach's values for them), and answered
    under their `ruleset_id`."""
    ours = variant("yatzy", upper_bonus_threshold=60)
    values = solved_ruleset(ours)
    record, seen = play(ours, values, 9, 0.4)
    app = make_test_app()
    app.state.tables.put(value_spec(ours), values, "memory")
    with TestClient(app) as client:
        # first: GET /games/yatzy asks for the built-in tables in the background, which a
        # fast solve (or the disk cache) may have ready before a later request
        built_in = client.post("/reviews", json={"game": "yatzy", "turns": record})
        document = client.get("/games/yatzy").json()
        document["upper_bonus_rule"]["threshold"] = 60
        out = review(client, {"ruleset": document, "turns": record})
    assert out["game"] == "yatzy" and out["ruleset_id"] == ours.rules_hash
    decisions = [d for t in out["turns"] for d in t["decisions"]]
    assert [d["chosen"]["expected_total"] for d in decisions] == [
        s.chosen.expected_total for s in seen
    ]
    assert out["optimal_expected_score"] == expected_final_score(ours, values, Scorecard())
    assert out["optimal_expected_score"] > expected_final_score(
        SCORECARD_GAMES["yatzy"], solved_ruleset(SCORECARD_GAMES["yatzy"]), Scorecard()
    )  # the bonus is easier to reach
    assert out["complete"] is True and out["expected_loss"] > 0
    assert built_in.status_code == 503  # the built-in Yatzy's table is not in this app
