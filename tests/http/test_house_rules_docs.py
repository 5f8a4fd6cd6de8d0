"""docs/rules/house-rules.md explains every house rule a client can set: each settable
parameter `GET /games/{game}` reports is named there, or on the game's own page that it
links to (where the game's readings are documented with their sources).  Generic over the
games and their parameters, so a parameter added to a game fails here until documented."""

from __future__ import annotations

import re
from pathlib import Path

from litestar import Litestar
from litestar.testing import TestClient

RULES_DOCS = Path(__file__).parents[2] / "docs" / "rules"
HOUSE_RULES = RULES_DOCS / "house-rules.md"


def named(text: str) -> set[str]:
    """Every name written as code (`name`) in a Markdown text."""
    return set(re.findall(r"`([a-z0-9_]+)`", text))


def test_every_settable_parameter_is_documented(client: TestClient[Litestar]) -> None:
    house_rules = HOUSE_RULES.read_text()
    links = set(re.findall(r"\]\(([a-z0-9-]+\.md)\)", house_rules))
    games = [g["id"] for g in client.get("/games").json()]
    assert games
    missing: list[str] = []
    for game in games:
        page = f"{game}.md"
        assert page in links, f"house-rules.md does not link to {page}"
        documented = named(house_rules) | named((RULES_DOCS / page).read_text())
        parameters = client.get(f"/games/{game}").json()["parameters"]
        settable = [p["name"] for p in parameters if p["settable"]]
        assert settable, game  # every game takes house rules
        missing += [f"{game}: {name}" for name in settable if name not in documented]
    assert not missing, missing
