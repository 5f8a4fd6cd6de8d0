"""Load test: a realistic mix of every diceref operation but the liveness probe (17 of the
document's 18), every answer checked for content.

Mix (task weights, out of 104): a frontend's turn loop dominates, POST /score 50 and POST
/holds 25; Chicago 10 (/chicago/throws 4, /chicago/holds 3, /chicago/rounds 2,
/chicago/games 1); Yardkle 10 (/yardkle/throws 4, /yardkle/holds 3, /yardkle/turns 2,
/yardkle/games 1); scorekeepers' POST /scorecards/check 3; the game descriptions 2 (GET
/games 1, GET /games/{id} 1); POST /rulesets 1 (a game's built-in rules: a house rule would
queue a table solve per distinct ruleset, which is a flood test of its own,
`benchmarks/bench_flood.py`); game reviews after a game 2 (POST /reviews 1, POST
/yardkle/reviews 1); a forecast, POST /distributions 1. Scorecard requests come from
positions reached by playing random legal games, Chicago rounds and Yardkle turns and games
are played by random legal moves, and every answer is compared with what diceref's rules say
locally (checks.py): /score exactly the legal boxes with their points and bonuses; /holds
the same boxes, every distinct keep once, options sorted best first; sheets' totals and
standings, a wrong claimed total named; Chicago scores, losers and lives; Yardkle
set-asides, turn points, totals and standings; reviews the turns sent as the rules score
them, one decision per throw (Yardkle: per throw that scored), no negative loss, the losses
adding up to each turn's and to expected_loss within 1e-9, decision_count, the final total
or points, and on a full card the luck (final = optimal - loss + luck); distributions adding
up to 1 with their mean, extremes and percentiles, and under target play the chance to reach
the target their mass at or above it; /games/{id} and /rulesets the known maximum scores. A
wrong answer counts as a failure, like an error status. A new operation is one more `@task`
here with its request generator and check in checks.py.

Thresholds, which set the exit code (1 if one is missed): no failed request, and the 95th
percentile latency over all requests under LOADTEST_P95_MS milliseconds (default 50).

    uv run locust -f loadtest/locustfile.py --headless -u 20 -r 10 -t 60s \\
        --host http://127.0.0.1:8000 --only-summary

Environment: LOADTEST_P95_MS; LOADTEST_GAMES, a comma list of the scorecard games to use
(default all: the server must have their tables loaded, or /holds answers 503 and fails);
LOADTEST_TARGET_GAMES, the games /distributions is asked of (default LOADTEST_GAMES: the
server needs their play-to-win tables, `diceref precompute --target`, loaded by a first
request each, or that request answers 503 and fails);
LOADTEST_SEED, the seed of the position pool (default 7); LOADTEST_WAIT_MAX, each user's
think time between requests is uniform in 0..this many seconds (default 0.05; 0 saturates).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from typing import Any

from checks import (
    ALL_GAME_IDS,
    GAMES,
    WrongAnswer,
    check_chicago_game,
    check_chicago_holds,
    check_chicago_round,
    check_chicago_throw,
    check_distribution,
    check_game,
    check_games,
    check_holds,
    check_review,
    check_ruleset,
    check_score,
    check_sheets,
    check_yardkle_game,
    check_yardkle_holds,
    check_yardkle_review,
    check_yardkle_throw,
    check_yardkle_turn,
    chicago_round_request,
    chicago_turns,
    distribution_request,
    positions,
    scorecard_game,
    sheets_request,
    yardkle_game,
    yardkle_review_request,
    yardkle_turn,
)
from locust import FastHttpUser, between, events, task
from locust.env import Environment

from diceref.games.yardkle.rules.scoring import DEFAULT_RULES as YARDKLE

P95_MS = float(os.environ.get("LOADTEST_P95_MS", "50"))
POSITIONS = positions(int(os.environ.get("LOADTEST_SEED", "7")))
RULESET_IDS: dict[str, str] = {}  # game -> the ruleset_id the service gave it first


class Player(FastHttpUser):
    """One client of the service: mostly scoring and coaching a scorecard game."""

    wait_time = between(0.0, float(os.environ.get("LOADTEST_WAIT_MAX", "0.05")))

    def on_start(self) -> None:
        self.rng = random.Random()

    def _post(self, path: str, payload: dict[str, Any]) -> Any:
        return self.client.post(
            path,
            data=json.dumps(payload),
            headers={"content-type": "application/json"},
            catch_response=True,
        )

    def _judge(self, response: Any, check: Callable[[Any], None]) -> None:
        with response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}: {response.text[:200]}")
                return
            try:
                check(response.json())
            except (WrongAnswer, KeyError, TypeError, ValueError) as exc:
                response.failure(f"wrong answer: {exc}")

    @task(50)
    def score(self) -> None:
        position = self.rng.choice(POSITIONS)
        throw = self.rng.randint(1, 3)
        payload = {"game": position.game, "dice": list(position.dice), "throw": throw,
                   "scorecard": position.card_json()}  # fmt: skip
        self._judge(self._post("/score", payload), lambda b: check_score(position, throw, b))

    @task(25)
    def holds(self) -> None:
        position = self.rng.choice(POSITIONS)
        left = self.rng.randint(0, 2)
        payload = {"game": position.game, "dice": list(position.dice), "throws_left": left,
                   "scorecard": position.card_json()}  # fmt: skip
        self._judge(self._post("/holds", payload), lambda b: check_holds(position, left, b))

    @task(1)
    def distributions(self) -> None:
        position, payload = distribution_request(self.rng, POSITIONS)
        response = self._post("/distributions", payload)
        self._judge(response, lambda b: check_distribution(position, payload, b))

    @task(3)
    def scorecards_check(self) -> None:
        payload, expected = sheets_request(self.rng, POSITIONS)
        response = self._post("/scorecards/check", payload)
        self._judge(response, lambda b: check_sheets(expected, b))

    @task(4)
    def chicago_throws(self) -> None:
        dice = [self.rng.randint(1, 6) for _ in range(3)]
        response = self._post("/chicago/throws", {"dice": dice})
        self._judge(response, lambda b: check_chicago_throw(dice, b))

    @task(3)
    def chicago_holds(self) -> None:
        dice = [self.rng.randint(1, 6) for _ in range(3)]
        response = self._post("/chicago/holds", {"dice": dice, "throws_left": 1})
        self._judge(response, check_chicago_holds)

    @task(2)
    def chicago_rounds(self) -> None:
        players = [f"P{i}" for i in range(self.rng.randint(2, 4))]
        turns, call = chicago_turns(self.rng, players)
        payload, lives = chicago_round_request(self.rng, players, turns)
        response = self._post("/chicago/rounds", payload)
        self._judge(response, lambda b: check_chicago_round(turns, call, lives, b))

    @task(1)
    def chicago_games(self) -> None:
        players = [f"P{i}" for i in range(self.rng.randint(2, 4))]
        turns, call = chicago_turns(self.rng, players)
        payload = {"players": players, "rounds": [{"turns": turns}]}
        response = self._post("/chicago/games", payload)
        self._judge(response, lambda b: check_chicago_game(turns, call, players, b))

    @task(4)
    def yardkle_throws(self) -> None:
        dice = [self.rng.randint(1, 6) for _ in range(self.rng.randint(1, 6))]
        response = self._post("/yardkle/throws", {"dice": dice})
        self._judge(response, lambda b: check_yardkle_throw(dice, b))

    @task(3)
    def yardkle_holds(self) -> None:
        n = self.rng.randint(1, 6)
        dice = [self.rng.randint(1, 6) for _ in range(n)]
        # fewer than six dice: some were set aside already, so the turn has points
        points = 0 if n == 6 else YARDKLE.unit * self.rng.randint(1, 40)
        payload = {"dice": dice, "turn_points": points, "on_pad": self.rng.random() < 0.5}
        self._judge(self._post("/yardkle/holds", payload), lambda b: check_yardkle_holds(dice, b))

    @task(2)
    def yardkle_turns(self) -> None:
        turn, points = yardkle_turn(self.rng, self.rng.choice([0, 0, 1500, 6050]))
        response = self._post("/yardkle/turns", turn)
        self._judge(response, lambda b: check_yardkle_turn(turn, points, b))

    @task(1)
    def yardkle_games(self) -> None:
        payload, totals = yardkle_game(self.rng)
        response = self._post("/yardkle/games", payload)
        self._judge(response, lambda b: check_yardkle_game(totals, b))

    @task(1)
    def reviews(self) -> None:
        game = self.rng.choice(GAMES)
        payload, played, complete = scorecard_game(self.rng, game)
        response = self._post("/reviews", payload)
        self._judge(response, lambda b: check_review(game, played, complete, b))

    @task(1)
    def yardkle_reviews(self) -> None:
        payload, expected = yardkle_review_request(self.rng)
        response = self._post("/yardkle/reviews", payload)
        self._judge(response, lambda b: check_yardkle_review(expected, b))

    @task(1)
    def rulesets(self) -> None:
        # the built-in rules of a game: house rules would queue a solve per ruleset
        game = self.rng.choice([*GAMES, "chicago", "yardkle"])
        response = self._post("/rulesets", {"game": game})
        self._judge(response, lambda b: check_ruleset(game, b, RULESET_IDS))

    @task(1)
    def games(self) -> None:
        self._judge(self.client.get("/games", catch_response=True), check_games)

    @task(1)
    def game(self) -> None:
        game = self.rng.choice(ALL_GAME_IDS)
        response = self.client.get(f"/games/{game}", name="/games/{game}", catch_response=True)
        self._judge(response, lambda b: check_game(game, b))


@events.quitting.add_listener
def enforce_thresholds(environment: Environment, **_: Any) -> None:
    """Exit code 1 unless every request succeeded and p95 stayed under LOADTEST_P95_MS."""
    total = environment.stats.total
    p95 = total.get_response_time_percentile(0.95) or 0.0
    problems = []
    if total.num_requests == 0:
        problems.append("no request was made")
    if total.num_failures:
        problems.append(f"{total.num_failures} of {total.num_requests} requests failed")
    if p95 > P95_MS:
        problems.append(f"p95 {p95:.0f} ms is over {P95_MS:.0f} ms")
    print(
        f"loadtest: {total.num_requests} requests, {total.total_rps:.1f} req/s, "
        f"p50 {total.median_response_time:.0f} ms, p95 {p95:.0f} ms, "
        f"failures {total.num_failures}: {'; '.join(problems) or 'thresholds met'}",
        flush=True,
    )
    environment.process_exit_code = 1 if problems else 0
