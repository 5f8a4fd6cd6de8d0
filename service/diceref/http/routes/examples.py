"""Examples of the operations every family shares (`/healthz`, `/games`), each a real
exchange that `tests/http/test_contract.py` replays against the app.  The two `/games`
answers are the handlers' own, so a new game or reading cannot make them stale."""

from __future__ import annotations

import msgspec

from diceref.games.families import ALL_GAMES
from diceref.http.api_version import API_VERSION
from diceref.http.examples import Example, invalid, problem, queue_full, unknown_game
from diceref.http.routes.games import game_rules, summaries

YAHTZEE_NO_JOKER = {"game": "yahtzee", "rules": {"joker": "none", "extra_bonus": 0}}

EXAMPLES: dict[str, list[Example]] = {
    "healthz": [
        Example("ok", "The process answers", 200, {"status": "ok", "api_version": API_VERSION})
    ],
    "games": [
        Example(
            "all",
            "Every game, scorecard games with their boxes",
            200,
            msgspec.to_builtins(summaries()),
        )
    ],
    "gamesByGame": [
        Example(
            "chicago",
            "Chicago's rules and readings",
            200,
            msgspec.to_builtins(game_rules("chicago")),
            path={"game": "chicago"},
        ),
        Example(
            "unknown-game",
            "A game the service does not know",
            404,
            unknown_game("/games/backgammon", "backgammon"),
            path={"game": "backgammon"},
        ),
    ],
    "rulesets": [
        Example(
            "no-tables",
            "Chicago as built in: a game without solved tables is ready at once",
            200,
            {
                "game": "chicago",
                "ruleset_id": ALL_GAMES["chicago"].ruleset_id,
                "status": "ready",
                "progress": 1.0,
                "ruleset": msgspec.to_builtins(game_rules("chicago")),
                "max_score": None,
                "optimal_expected_score": None,
            },
            body={"game": "chicago"},
        ),
        Example(
            "unknown-parameter",
            "A parameter the game does not have",
            422,
            problem(
                422,
                "invalid-rules",
                "Rules not accepted",
                "/rulesets",
                [
                    (
                        "rules.jokers",
                        "'yahtzee' has no parameter 'jokers' (it has: "
                        + ", ".join(p.name for p in ALL_GAMES["yahtzee"].parameters)
                        + ")",
                        "unknown_parameter",
                    )
                ],
            ),
            body={"game": "yahtzee", "rules": {"jokers": "none"}},
        ),
        Example(
            "rules-not-an-object",
            "`rules` must be an object of parameter overrides",
            400,
            invalid("/rulesets", "rules", "Expected `object | null`, got `array`", "wrong_type"),
            body={"game": "yahtzee", "rules": []},
        ),
        Example(
            "unknown-game",
            "A game the service does not know",
            404,
            unknown_game("/rulesets", "backgammon"),
            body={"game": "backgammon"},
        ),
        queue_full("/rulesets", YAHTZEE_NO_JOKER),
    ],
}
