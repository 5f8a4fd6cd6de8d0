"""`diceref review FILE --target N`: the review of `POST /reviews` with that `target`, as
a table with each decision's chance and what it gave up of it.

Forced-order Yatzy, whose value and win tables solve in seconds (then on the test disk
cache): the command prints what the API answers for the same body, the chance given up
summed over the decisions; a Yardkle file or a negative target is refused.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from litestar.testing import TestClient
from review_games import play

from conftest import make_test_app, make_test_store
from diceref.cli import main
from diceref.games.scorecard.rules.games import variant
from diceref.games.scorecard.tables import value_spec, win_spec
from diceref.tables.spec import load_sync

ROOT = Path(__file__).parents[2]
RULES = {"order": "forced"}


@pytest.fixture(scope="module")
def body() -> dict[str, object]:
    """A whole forced-order Yatzy game, the coach's play with a slip at a quarter of the
    decisions; its tables loaded once into the test disk cache the command reads."""
    ruleset = variant("yatzy", **RULES)
    store = make_test_store()
    values = load_sync(store, value_spec(ruleset)).array
    load_sync(store, win_spec(ruleset))
    record, _ = play(ruleset, values, 3, 0.25)
    return {"game": "yatzy", "rules": RULES, "turns": record}


def api_review(body: dict[str, object]) -> dict[str, object]:
    ruleset = variant("yatzy", **RULES)
    store = make_test_store()
    app = make_test_app()
    for spec in (value_spec(ruleset), win_spec(ruleset)):
        app.state.tables.put(spec, load_sync(store, spec).array, "memory")
    with TestClient(app) as client:
        r = client.post("/reviews", json=body)
    assert r.status_code == 200, r.text
    answer: dict[str, object] = r.json()
    return answer


def test_a_target_adds_each_decisions_chance_and_what_it_gave_up(
    body: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.json"
    game.write_text(json.dumps(body))
    assert main(["review", str(game), "--target", "150"]) == 0
    out = capsys.readouterr().out
    answer = api_review({**body, "target": 150})
    turns = answer["turns"]
    assert isinstance(turns, list)
    decisions = [d for t in turns for d in t["decisions"]]
    given_up = sum(d["win_loss"] for d in decisions)
    assert given_up > 0
    line = f"chance given up         {given_up:.4f} over {len(decisions)} decisions (target 150)"
    assert line in out, out
    assert re.search(r"┃ chance ┃ win loss ┃", out), out
    for d in decisions:  # every chance shown, in the order of the decisions
        assert f"{d['chosen']['win_probability']:.4f}" in out
    dearest = max(decisions, key=lambda d: d["win_loss"])
    assert (
        f"costliest for the target: turn {dearest['turn_index'] + 1} throw {dearest['throw']}: "
    ) in out
    assert f"-{dearest['win_loss']:.4f}" in out
    # without it, the review as before: no chance column
    assert main(["review", str(game)]) == 0
    plain = capsys.readouterr().out
    assert "chance" not in plain and "final total" in plain


def test_the_files_target_is_the_commands_too(
    body: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A body with its own `target` is reviewed for it; `--target` replaces it."""
    game = tmp_path / "game.json"
    game.write_text(json.dumps({**body, "target": 100}))
    assert main(["review", str(game)]) == 0
    assert "(target 100)" in capsys.readouterr().out
    assert main(["review", str(game), "--target", "140"]) == 0
    assert "(target 140)" in capsys.readouterr().out


def test_a_target_is_refused_where_it_means_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    yardkle = ROOT / "docs" / "examples" / "yardkle-turns.json"
    assert main(["review", str(yardkle), "--target", "150"]) == 2
    assert "--target" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:
        main(["review", str(yardkle), "--target", "-1"])
    assert refused.value.code == 2
    assert "-1 must be at least 0" in capsys.readouterr().err
