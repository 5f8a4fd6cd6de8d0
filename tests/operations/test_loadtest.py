"""The load test: its answer checks reject wrong answers, and a short headless run against a
live two-worker server passes its thresholds (exit code 0), with the server's own request
counters (summed over both workers) matching what locust sent."""

from __future__ import annotations

import csv
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from conftest import TEST_CACHE, make_test_store
from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.tables import target_specs
from diceref.tables.spec import TableSpec, load_sync
from helpers import loaded_rules
from live_server import LiveServer

LOADTEST = Path(__file__).parents[2] / "loadtest"
sys.path.insert(0, str(LOADTEST))

import checks  # noqa: E402

SMOKE_GAMES = ("yahtzee", "chute-5")
# The smoke run's /distributions game: its play-to-win tables solve in seconds.
TARGET_GAME = "chute-5"
DOCUMENT = json.loads((Path(__file__).parents[2] / "openapi" / "openapi.json").read_text())
OPERATION_PATHS = {p for p, item in DOCUMENT["paths"].items() for m in item if p != "/healthz"}


@pytest.fixture(scope="module")
def target_tables() -> list[tuple[TableSpec, FloatArray]]:
    """TARGET_GAME's play-to-win tables, in the test disk cache (solved there once)."""
    store = make_test_store()
    return [(s, load_sync(store, s).array) for s in target_specs(SCORECARD_GAMES[TARGET_GAME])]


@pytest.fixture(scope="module")
def pool() -> list[checks.Position]:
    return checks.positions(seed=3, games=SMOKE_GAMES, per_game=10)


def test_the_checks_accept_the_services_answers_and_reject_wrong_ones(
    coach: TestClient[Litestar],
    pool: list[checks.Position],
    target_tables: list[tuple[TableSpec, FloatArray]],
) -> None:
    for position in pool:
        payload: dict[str, Any] = {"game": position.game, "dice": list(position.dice),
                                   "scorecard": position.card_json()}  # fmt: skip
        score = coach.post("/score", json=payload | {"throw": 2}).json()
        checks.check_score(position, 2, score)
        holds = coach.post("/holds", json=payload | {"throws_left": 1}).json()
        checks.check_holds(position, 1, holds)

        wrong = dict(score, options=score["options"][1:])
        with pytest.raises(checks.WrongAnswer):
            checks.check_score(position, 2, wrong)
        swapped = dict(holds, options=holds["options"][::-1])
        with pytest.raises(checks.WrongAnswer):
            checks.check_holds(position, 1, swapped)
        doubled = dict(holds, options=[*holds["options"], holds["options"][-1]])
        with pytest.raises(checks.WrongAnswer):
            checks.check_holds(position, 1, doubled)
        with pytest.raises(checks.WrongAnswer):  # keeps offered with no throw left
            checks.check_holds(position, 0, holds)
    throw = coach.post("/chicago/throws", json={"dice": [1, 4, 6]}).json()
    checks.check_chicago_throw([1, 4, 6], throw)
    with pytest.raises(checks.WrongAnswer):
        checks.check_chicago_throw([1, 4, 5], throw)
    yardkle = coach.post("/yardkle/holds", json={"dice": [1, 5, 5, 2, 3, 3], "turn_points": 0,
                                                 "on_pad": True}).json()  # fmt: skip
    checks.check_yardkle_holds([1, 5, 5, 2, 3, 3], yardkle)
    with pytest.raises(checks.WrongAnswer):
        checks.check_yardkle_holds(
            [1, 5, 5, 2, 3, 3], dict(yardkle, options=yardkle["options"][1:])
        )
    check_the_new_operations(coach, pool)
    check_the_reviews(coach)
    check_the_distributions(coach, pool, target_tables)
    known: dict[str, str] = {}
    for game in ("chicago", "yardkle"):
        body = coach.post("/rulesets", json={"game": game}).json()
        checks.check_ruleset(game, body, known)
        checks.check_ruleset(game, coach.post("/rulesets", json={"game": game}).json(), known)
        with pytest.raises(checks.WrongAnswer):
            checks.check_ruleset(game, dict(body, ruleset_id="0" * 16), known)
    game = loaded_rules(coach, "yahtzee")
    checks.check_game("yahtzee", game)
    with pytest.raises(checks.WrongAnswer):
        checks.check_game("yahtzee", dict(game, max_score=1574))


def check_the_new_operations(client: TestClient[Litestar], pool: list[checks.Position]) -> None:
    """Score sheets, Chicago rounds and games, Yardkle turns and games: the generated
    requests are legal, the checks accept the answers and reject altered ones."""
    rng = random.Random(11)
    for _ in range(20):
        body, expected = checks.sheets_request(rng, pool)
        answer = client.post("/scorecards/check", json=body).json()
        checks.check_sheets(expected, answer)
        with pytest.raises(checks.WrongAnswer):
            first = dict(answer["standings"][0], rank=2)
            checks.check_sheets(expected, dict(answer, standings=[first, *answer["standings"][1:]]))
        sheet = dict(answer["sheets"][0], total=answer["sheets"][0]["total"] + 1)
        with pytest.raises(checks.WrongAnswer):
            checks.check_sheets(expected, dict(answer, sheets=[sheet, *answer["sheets"][1:]]))

        players = [f"P{i}" for i in range(rng.randint(2, 4))]
        turns, call = checks.chicago_turns(rng, players)
        body, lives = checks.chicago_round_request(rng, players, turns)
        ruling = client.post("/chicago/rounds", json=body).json()
        checks.check_chicago_round(turns, call, lives, ruling)
        with pytest.raises(checks.WrongAnswer):
            checks.check_chicago_round(turns, "low" if call == "high" else "high", lives, ruling)
        game = client.post(
            "/chicago/games", json={"players": players, "rounds": [{"turns": turns}]}
        )
        checks.check_chicago_game(turns, call, players, game.json())
        with pytest.raises(checks.WrongAnswer):
            checks.check_chicago_game(turns, call, players, dict(game.json(), game_over=True))

        turn, points = checks.yardkle_turn(rng, rng.choice([0, 1500]))
        replay = client.post("/yardkle/turns", json=turn).json()
        checks.check_yardkle_turn(turn, points, replay)
        with pytest.raises(checks.WrongAnswer):
            checks.check_yardkle_turn(turn, points + 50, replay)
        body, totals = checks.yardkle_game(rng)
        result = client.post("/yardkle/games", json=body).json()
        checks.check_yardkle_game(totals, result)
        with pytest.raises(checks.WrongAnswer):
            checks.check_yardkle_game({p: t + 50 for p, t in totals.items()}, result)


def check_the_reviews(client: TestClient[Litestar]) -> None:
    """Scorecard and Yardkle reviews: the generated games are legal, the checks accept the
    answers and reject altered ones."""
    rng = random.Random(13)
    full = len(SCORECARD_GAMES["yahtzee"].boxes)
    for game, count in [*((g, None) for g in SMOKE_GAMES * 3), ("yahtzee", full)]:
        body, played, complete = checks.scorecard_game(rng, game, count)
        assert count is None or complete
        answer = client.post("/reviews", json=body)
        assert answer.status_code == 200, answer.text
        review = answer.json()
        checks.check_review(game, played, complete, review)
        first, *rest = review["turns"]
        other = "chance" if first["box"] != "chance" else "ones"
        altered = [
            dict(review, final_total=review["final_total"] + 1),
            dict(review, decision_count=review["decision_count"] + 1),
            dict(review, expected_loss=review["expected_loss"] + 1e-6),
            dict(review, turns=[dict(first, points=first["points"] + 1), *rest]),
            dict(review, turns=[dict(first, loss=-1.0), *rest]),
            dict(review, turns=[dict(first, box=other), *rest]),
        ]
        for wrong in altered:
            with pytest.raises(checks.WrongAnswer):
                checks.check_review(game, played, complete, wrong)
        with pytest.raises(checks.WrongAnswer):  # a game it was not
            checks.check_review(game, played[:-1], complete, review)
        if complete:
            with pytest.raises(checks.WrongAnswer):
                checks.check_review(game, played, complete, dict(review, luck=review["luck"] + 1))
    for _ in range(10):
        body, expected = checks.yardkle_review_request(rng)
        answer = client.post("/yardkle/reviews", json=body)
        assert answer.status_code == 200, answer.text
        review = answer.json()
        checks.check_yardkle_review(expected, review)
        first, *rest = review["turns"]
        altered = [
            dict(review, points=review["points"] + 50),
            dict(review, decision_count=review["decision_count"] + 1),
            dict(review, expected_loss=review["expected_loss"] + 1e-6),
            dict(review, turns=[dict(first, points=first["points"] + 50), *rest]),
            dict(review, turns=[dict(first, loss=first["loss"] + 1e-6), *rest]),
        ]
        for wrong in altered:
            with pytest.raises(checks.WrongAnswer):
                checks.check_yardkle_review(expected, wrong)


def check_the_distributions(
    client: TestClient[Litestar],
    pool: list[checks.Position],
    target_tables: list[tuple[TableSpec, FloatArray]],
) -> None:
    """Forecasts under both plays: the generated requests are answered, the checks accept
    the answers and reject altered ones."""
    for spec, table in target_tables:
        client.app.state.tables.put(spec, table, "memory")
    rng = random.Random(17)
    plays = set()
    for _ in range(30):
        position, payload = checks.distribution_request(rng, pool, (TARGET_GAME,))
        answer = client.post("/distributions", json=payload)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        checks.check_distribution(position, payload, body)
        plays.add((body["play"], "target" in payload))
        first, *rest = body["distribution"]
        altered = [
            dict(body, mean=body["mean"] + 0.01),
            dict(body, max=body["max"] + 1),
            dict(body, p50=body["p50"] + 0.5),
            dict(body, distribution=[dict(first, probability=first["probability"] + 1e-5), *rest]),
        ]
        if rest:
            altered.append(dict(body, distribution=[*rest, first]))
        if body["play"] == "target":
            altered.append(dict(body, win_probability=body["win_probability"] + 1e-5))
        for wrong in altered:
            with pytest.raises(checks.WrongAnswer):
                checks.check_distribution(position, payload, wrong)
    assert plays == {("target", True), ("expected_points", True), ("expected_points", False)}


@pytest.fixture
def server(
    tmp_path: Path,
    solved: Callable[[str], FloatArray],
    target_tables: list[tuple[TableSpec, FloatArray]],
) -> Iterator[LiveServer]:
    for game in SMOKE_GAMES:
        solved(game)  # in the test disk cache, which the server reads
    env = {"DICEREF_CACHE_DIR": str(TEST_CACHE), "DICEREF_PRELOAD": ",".join(SMOKE_GAMES)}
    with LiveServer(tmp_path / "server.log", env, workers=2) as live:
        live.wait("/healthz")
        deadline = time.monotonic() + 60
        loads = [("value", g) for g in SMOKE_GAMES] + [(s.kind, s.game) for s, _ in target_tables]
        while any(
            live.metric("diceref_table_loads_total", kind=kind, game=g) < 2 for kind, g in loads
        ):  # both workers hold every table: the play-to-win ones mapped at start-up
            assert time.monotonic() < deadline, live.log()
            time.sleep(0.2)
        yield live


@pytest.mark.slow
def test_smoke_run_meets_the_thresholds(server: LiveServer, tmp_path: Path) -> None:
    cmd = [
        sys.executable, "-m", "locust", "-f", str(LOADTEST / "locustfile.py"), "--headless",
        "-u", "6", "-r", "6", "-t", "8s", "--host", server.base, "--only-summary",
        "--csv", str(tmp_path / "smoke"), "--loglevel", "WARNING",
    ]  # fmt: skip
    env = dict(server.env) | {"LOADTEST_GAMES": ",".join(SMOKE_GAMES), "LOADTEST_P95_MS": "250",
                              "LOADTEST_TARGET_GAMES": TARGET_GAME,
                              "LOADTEST_WAIT_MAX": "0.02"}  # fmt: skip
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "thresholds met" in run.stdout
    with (tmp_path / "smoke_stats.csv").open() as f:
        rows = {(r["Type"], r["Name"]): r for r in csv.DictReader(f)}
    total = rows[("", "Aggregated")]
    assert int(total["Failure Count"]) == 0 and int(total["Request Count"]) > 100
    # every operation is in the mix
    assert {name for _, name in rows} - {"Aggregated"} == OPERATION_PATHS
    sent = int(rows[("POST", "/score")]["Request Count"])
    answered = server.metric("diceref_http_requests_total", route="/score", status="200")
    # Counted by two workers and summed (multiprocess mode): one worker's count alone would be
    # about half.  Locust's CSV is written before its last requests end (by up to its stats
    # interval on a loaded machine), so the server may have answered more than it counts.
    assert sent <= answered <= sent * 1.5 + 20
