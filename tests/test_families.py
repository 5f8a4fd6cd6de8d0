"""The families registry lists each family before importing it (`ENTRIES`), so that a
command about one game imports that game's family alone: what an entry lists must be what
its family serves."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from diceref.games import families


def test_each_entry_lists_what_its_family_serves() -> None:
    for entry, family in zip(families.ENTRIES, families.FAMILIES, strict=True):
        assert family.name == entry.package
        assert tuple(family.games) == entry.games
        assert entry.preloads == any(not spec.at_startup for spec in family.table_specs())
    assert tuple(families.ALL_GAMES) == families.GAME_IDS


def test_a_family_has_one_name_everywhere() -> None:
    """The name a game's document gives its family (`GET /games`) is the family's package."""
    for family in families.FAMILIES:
        assert {game.family for game in family.games.values()} == {family.name}


def test_the_games_named_give_the_tables_of_every_family_filtered() -> None:
    every = families.table_specs()
    for games in (["yahtzee"], ["yardkle", "chute-5"], ["chicago"], list(families.GAME_IDS)):
        assert families.table_specs(games) == tuple(s for s in every if s.game in games)
    for game in families.GAME_IDS:
        assert game in families.family_of(game).games


def test_a_family_is_imported_only_when_one_of_its_games_is_asked_for() -> None:
    code = (
        "import sys\n"
        "from diceref.games.families import family_of, table_specs\n"
        "assert [s.game for s in table_specs(['chicago'])] == []\n"
        "assert family_of('chicago').name == 'chicago'\n"
        "print(' '.join(m for m in ('scorecard', 'chicago', 'yardkle')"
        " if f'diceref.games.{m}' in sys.modules))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["chicago"]


def test_each_entry_lists_the_commands_its_family_serves() -> None:
    for entry, family in zip(families.ENTRIES, families.FAMILIES, strict=True):
        cli = families.family_cli(family) if entry.commands else None
        served = {name for name in ("score", "review") if getattr(cli, name, None)}
        assert served == set(entry.commands), family.name


PIG = {
    "__init__.py": """
from diceref.games.family import Family
from diceref.games.pig.rules.ruleset import PIG

FAMILY = Family("pig", {PIG.id: PIG}, table_specs=lambda: ())
""",
    "rules/__init__.py": "",
    "rules/ruleset.py": """
from diceref.core.errors import RuleViolation
from diceref.core.game import GameInfo

PIG = GameInfo(
    id="pig", name="Pig", family="pig", dice=1, throws_per_turn=0, min_players=2,
    max_players=None, source="Pig, folk rules", summary="one die; a 1 loses the turn",
)


def turn_points(throws: list[int]) -> int:
    if 1 in throws[:-1]:
        raise RuleViolation("throws", "a throw after a 1, which ends the turn", "throw_after_one")
    return 0 if throws[-1:] == [1] else sum(throws)
""",
    "api/__init__.py": """
from litestar.openapi.spec import Tag

from diceref.games.pig.api import routes
from diceref.games.pig.api.examples import EXAMPLES
from diceref.http.family import FamilyApi, family_router

TAG = Tag(name="pig", description="Pig (one die): turns refereed.")
API = FamilyApi(
    router=family_router("/pig", TAG.name, [routes.pig_turns]),
    tag=TAG,
    examples=EXAMPLES,
    error_codes={"throw_after_one": "a throw after a 1, which ends the turn"},
    glossary={"banked": "The points the turn banks."},
    dice_fields=("throws",),
)
""",
    "api/routes.py": '''
import msgspec
from litestar.params import JSONBody

from diceref.games.pig.rules.ruleset import turn_points
from diceref.http.family import operation
from diceref.http.fields import Die


class TurnRequest(msgspec.Struct, forbid_unknown_fields=True):
    throws: list[Die]


class TurnResponse(msgspec.Struct):
    banked: int


@operation("/turns", summary="Referee a Pig turn", problems=(400, 422))
def pig_turns(data: JSONBody[TurnRequest]) -> TurnResponse:
    """The points the turn banks."""
    return TurnResponse(turn_points(data.throws))
''',
    "api/examples.py": """
from diceref.http.examples import Example, invalid, rule_violation

BROKEN = ("throws", "a throw after a 1, which ends the turn", "throw_after_one")
EXAMPLES = {
    "pigTurns": [
        Example("banked", "Two throws banked", 200, {"banked": 9}, {"throws": [4, 5]}),
        Example(
            "not-a-die", "A 7", 400,
            invalid("/pig/turns", "throws[1]", "Expected `int` <= 6", "not_a_die"),
            {"throws": [4, 7]},
        ),
        Example(
            "after-a-one", "A throw after a 1", 422,
            rule_violation("/pig/turns", *BROKEN), {"throws": [1, 5]},
        ),
    ]
}
""",
}

# The app with Pig's package beside the others and its one line in ENTRIES.
WITH_PIG = """
import json, sys
import diceref.games
diceref.games.__path__.append(sys.argv[1])
from diceref.games import families
families.ENTRIES += (families.Entry("pig", ("pig",), preloads=False),)
families.GAME_IDS += ("pig",)
from litestar.testing import TestClient
from diceref.http.app import create_app
from diceref.http.openapi import contract_document
from diceref.settings import Settings
app = create_app(Settings())
client = TestClient(app)
document = contract_document(app)
print(json.dumps({
    "games": [g["id"] for g in client.get("/games").json()],
    "family": client.get("/games/pig").json()["family"],
    "banked": client.post("/pig/turns", json={"throws": [4, 5]}).json(),
    "broken": client.post("/pig/turns", json={"throws": [1, 5]}).json()["errors"],
    "not_a_die": client.post("/pig/turns", json={"throws": [4, 7]}).json()["errors"],
    "tags": [t["name"] for t in document["tags"]],
    "code": document["x-error-codes"].get("throw_after_one"),
    "banked_described": document["components"]["schemas"]["PigTurnResponse"]["properties"]
    ["banked"]["description"],
}))
"""


def test_a_new_family_is_its_package_and_one_line(tmp_path: Path) -> None:
    """docs/architecture.md's worked example: Pig's package and its entry, and nothing else,
    give its game, its route under its tag, its code and its glossary."""
    for name, text in PIG.items():
        path = tmp_path / "pig" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.lstrip())
    run = subprocess.run(
        [sys.executable, "-c", WITH_PIG, str(tmp_path)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.splitlines()[-1])  # after the app's log lines
    assert seen["games"][-1] == "pig" and seen["family"] == "pig"
    assert seen["banked"] == {"banked": 9}
    assert [e["code"] for e in seen["broken"]] == ["throw_after_one"]
    assert [e["code"] for e in seen["not_a_die"]] == ["not_a_die"]
    assert seen["tags"] == ["games", "scorecard", "chicago", "yardkle", "pig", "operations"]
    assert seen["code"] == "a throw after a 1, which ends the turn"
    assert seen["banked_described"] == "The points the turn banks."
