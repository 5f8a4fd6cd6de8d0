"""The families registry lists each family before importing it (`ENTRIES`), so that a
command about one game imports that game's family alone: what an entry lists must be what
its family serves."""

from __future__ import annotations

import subprocess
import sys

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
