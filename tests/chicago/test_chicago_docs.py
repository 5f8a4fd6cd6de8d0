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
    assert paths.count("/chicago/rounds") == 6  # five worked rounds, one under house rules
    assert {"/chicago/games", "/chicago/throws", "/chicago/holds"} <= set(paths)


@pytest.mark.parametrize(("path", "request_body", "excerpt"), examples())
def test_worked_example(path: str, request_body: Any, excerpt: Any) -> None:
    with TestClient(app) as client:
        response = client.post(path, json=request_body)
    assert response.status_code == 200, response.text
    contains(response.json(), excerpt)
