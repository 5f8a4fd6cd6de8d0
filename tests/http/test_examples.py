"""The scripts in `examples/` run against the app in-process, as they would against a server:
their functions with an SDK client over the ASGI app, and their `main` with the client they
build pointed at the same app."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref_client import Client

EXAMPLES = Path(__file__).parents[2] / "examples"
TEST_URL = "http://testserver.local"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"examples_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


frontend_loop = load("frontend_loop")
event_table = load("event_table")
review_game = load("review_game")


@pytest.fixture
def sdk(coach: TestClient[Litestar]) -> Client:
    return Client(TEST_URL, http_client=coach, max_retries=0)


def in_process(coach: TestClient[Litestar]) -> Any:
    """Stands in for `Client` in a script's `main`: the same client, over the app."""

    def make(base_url: str | None = None, **kwargs: Any) -> Client:
        return Client(TEST_URL, http_client=coach, **kwargs)

    return make


@pytest.mark.parametrize("game", sorted(SCORECARD_GAMES))
def test_frontend_loop_plays_a_whole_game(sdk: Client, game: str) -> None:
    played = frontend_loop.play_game(sdk, game, seed=7)
    boxes = sdk.games_by_game(game).boxes
    assert boxes is not None
    assert len(played.turns) == len(boxes) and set(played.card.filled) == {b.id for b in boxes}
    for turn in played.turns:
        assert 1 <= len(turn.throws) <= 3 and len(turn.kept) == len(turn.throws) - 1
        for kept, after in zip(turn.kept, turn.throws[1:], strict=False):
            assert after[: len(kept)] == kept  # the kept dice stay, the others are thrown
    # The sheet's total is the boxes, the extra bonuses the loop kept, and the upper bonus.
    rules = sdk.games_by_game(game)
    assert rules.upper_bonus_rule is not None
    rest = played.total - sum(played.card.filled.values()) - played.card.extra_bonus
    assert rest in (0, rules.upper_bonus_rule.points) and played.total > 0


def test_frontend_loop_is_reproducible(sdk: Client) -> None:
    first = frontend_loop.play_game(sdk, "yahtzee", seed=3)
    again = frontend_loop.play_game(sdk, "yahtzee", seed=3)
    assert first.total == again.total and first.card == again.card


def test_frontend_loop_script(
    coach: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(frontend_loop, "Client", in_process(coach))
    assert frontend_loop.main(["--url", "http://ignored", "--game", "chute-5", "--seed", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(SCORECARD_GAMES["chute-5"].boxes) + 1
    assert out[-1].startswith("chute-5, seed 2: ") and out[-1].endswith(" points")


def test_event_table_checks_and_ranks(sdk: Client) -> None:
    result = event_table.check_table(sdk)
    by_player = {s.player: s for s in result.sheets}
    assert by_player["Ann"].valid and by_player["Ann"].total == 127
    assert [p.field for p in by_player["Bob"].problems] == ["sheets[1].entries[0].points"]
    assert [p.field for p in by_player["Cy"].problems] == ["sheets[2].claimed_total"]
    assert [(s.rank, s.player) for s in result.standings] == [(1, "Ann"), (2, "Bob"), (3, "Cy")]
    text = event_table.report(result)
    assert "Bob: 89 points, 1 problem(s)" in text and "1. Ann 127" in text


def test_event_table_script(
    coach: TestClient[Litestar],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.setattr(event_table, "Client", in_process(coach))
    assert event_table.main([]) == 1  # two sheets have problems
    assert "ranking:" in capsys.readouterr().out
    sheets = tmp_path / "sheets.json"
    sheets.write_text(
        '{"game": "yahtzee", "sheets": [{"player": "Dee", "entries": '
        '[{"box": "chance", "points": 20, "dice": [6, 6, 4, 2, 2]}]}]}'
    )
    assert event_table.main(["--url", "http://ignored", str(sheets)]) == 0
    assert "Dee: 20 points, ok" in capsys.readouterr().out


def test_review_game_finds_where_the_weak_policy_lost(sdk: Client) -> None:
    turns = review_game.play_weakly(sdk, "yahtzee", seed=4)
    review = sdk.reviews("yahtzee", turns)
    assert review.complete and review.luck is not None
    assert review.expected_loss > 20 and len(review.costliest) == 3  # it plays badly
    assert review.final_total == sum(t.points for t in review.turns)
    text = review_game.report(review)
    assert "where the points went:" in text and text.count("instead of") == 3


def test_review_game_script(
    coach: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(review_game, "Client", in_process(coach))
    assert review_game.main(["--url", "http://ignored", "--game", "yatzy", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("yatzy: ") and "luck of the dice: " in out and "instead of" in out
