"""Examples of the operations every family shares (`/healthz`, `/games`), each a real
exchange that `tests/http/test_contract.py` replays against the app.  The two `/games`
answers are the handlers' own, so a new game or reading cannot make them stale."""

from __future__ import annotations

import msgspec

from diceref.http.examples import Example, unknown_game
from diceref.http.routes.games import game_rules, summaries

EXAMPLES: dict[str, list[Example]] = {
    "healthz": [Example("ok", "The process answers", 200, {"status": "ok"})],
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
}
