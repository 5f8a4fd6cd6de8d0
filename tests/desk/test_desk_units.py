"""The desk's pure helpers (static/pure.js) under Node's own test runner, without a browser
or a dependency: tests/desk/unit/*.test.mjs, run by `node --test`."""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers import require_tools

UNIT = Path(__file__).parent / "unit"


def test_the_pure_helpers_pass_their_node_unit_tests() -> None:
    require_tools(("node",), "the desk's unit tests need Node 20+")
    files = sorted(str(p) for p in UNIT.glob("*.test.mjs"))
    assert files, "no unit tests found"
    done = subprocess.run(["node", "--test", *files], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    # every test ran and passed (node prints its tallies as TAP comments)
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout, done.stdout
