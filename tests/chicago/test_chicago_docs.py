"""The worked examples in `docs/rules/chicago.md` are what the service answers.

Each `<!-- request METHOD PATH -->` block is posted and the answer must contain the
following `<!-- ruling excerpt -->` block: objects may leave keys out, lists must have the
same length (`{}` stands for an element not shown), everything shown must be equal.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from conftest import make_test_app

# The app of the tests: test disk cache, no Redis, no preloading (never the env's).
app = make_test_app()

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "chicago.md"
EXAMPLE = re.compile(
    r"<!-- request POST (?P<path>\S+) -->\s*```json\n(?P<request>.*?)```\s*"
    r"<!-- ruling excerpt -->\s*```json\n(?P<excerpt>.*?)```",
    re.DOTALL,
)


def examples() -> list[tuple[str, Any, Any]]:
    found = [
        (m["path"], json.loads(m["request"]), json.loads(m["excerpt"]))
        for m in EXAMPLE.finditer(DOC.read_text())
    ]
    assert DOC.read_text().count("<!-- request ") == len(found)
    return found


def contains(got: Any, shown: Any, where: str = "$") -> None:
    if isinstance(shown, dict):
        assert isinstance(got, dict), where
        for key, value in shown.items():
            assert key in got, f"{where}.{key} missing"
            contains(got[key], value, f"{where}.{key}")
    elif isinstance(shown, list):
        assert isinstance(got, list) and len(got) == len(shown), where
        for i, (g, s) in enumerate(zip(got, shown, strict=True)):
            contains(g, s, f"{where}[{i}]")
    else:
        assert got == shown, f"{where}: {got!r} != {shown!r}"


def test_the_doc_has_its_examples() -> None:
    paths = [p for p, _, _ in examples()]
    assert paths.count("/chicago/rounds") == 8  # five worked rounds, three under house rules
    assert {"/chicago/games", "/chicago/throws", "/chicago/holds"} <= set(paths)


@pytest.mark.parametrize(("path", "request_body", "excerpt"), examples())
def test_worked_example(path: str, request_body: Any, excerpt: Any) -> None:
    with TestClient(app) as client:
        response = client.post(path, json=request_body)
    assert response.status_code == 200, response.text
    contains(response.json(), excerpt)


def test_every_parameter_is_a_documented_house_rule() -> None:
    """Each parameter `GET /games/chicago` reports is a row of the house-rules table on
    this page and of the Chicago table in `house-rules.md`, with its choices named."""
    from diceref.games.chicago.rules.ruleset import CHICAGO

    page = DOC.read_text().split("## House rules (`rules`)")[1].split("\n## ")[0]
    general = (DOC.parent / "house-rules.md").read_text().split("### Chicago")[1]
    general = general.split("\n### ")[0]
    for p in CHICAGO.parameters:
        row = next((line for line in page.splitlines() if line.startswith(f"| `{p.name}` |")), "")
        assert row, p.name
        assert any(f"`{p.name}`" in line for line in general.splitlines() if line.startswith("|"))
        for choice in p.choices:
            assert f"`{choice}`" in row, (p.name, choice)
