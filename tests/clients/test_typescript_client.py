"""The TypeScript client, `clients/typescript` (the npm package `diceref-client`): its
generated types are current, it type-checks (strict) and builds, its unit tests pass, and
its integration suite and the README's snippet pass against a live `diceref serve`.

Each step runs npm's own command, with a timeout, and fails with its output.  Without node
and npm its tests are skipped, but under CI=true that is a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conftest import TEST_CACHE
from diceref.core.arrays import FloatArray
from diceref.games.scorecard.rules.games import SCORECARD_GAMES
from diceref.games.scorecard.tables import value_spec
from diceref.tables.disk import DiskCache
from diceref.tables.spec import TableSpec
from helpers import require_tools
from live_server import LiveServer

PACKAGE = Path(__file__).resolve().parents[2] / "clients" / "typescript"
README = PACKAGE / "README.md"


def run(command: list[str], timeout: float, env: dict[str, str] | None = None) -> str:
    """`command` in the package's directory; its output, or the test fails with it."""
    base = {k: v for k, v in os.environ.items() if k not in ("DICEREF_URL", "DICEREF_TEST_URL")}
    try:
        done = subprocess.run(
            command,
            cwd=PACKAGE,
            env=base | (env or {}),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{' '.join(command)}: no end in {timeout} s\n{exc.stdout!s}\n{exc.stderr!s}")
    if done.returncode != 0:
        name = " ".join(command)
        pytest.fail(f"{name} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def require_node() -> None:
    """node, npm and npx on PATH: skips the test where they are not, fails it under CI."""
    require_tools(("node", "npm", "npx"), "the TypeScript client needs Node 20+")


@pytest.mark.parametrize(
    ("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)]
)
def test_a_missing_node_fails_under_ci_and_skips_elsewhere(
    monkeypatch: pytest.MonkeyPatch, ci: str, outcome: type[BaseException]
) -> None:
    monkeypatch.setattr(shutil, "which", lambda tool: None if tool == "npm" else "/bin/true")
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="npm not found"):
        require_node()


@pytest.fixture(scope="session")
def installed() -> None:
    """`npm ci` once per session (the committed package-lock.json)."""
    require_node()
    run(["npm", "ci", "--no-audit", "--no-fund"], timeout=600)


@pytest.fixture(scope="session")
def built(installed: None) -> Path:
    """`npm run build`: dist/, which the README's snippet imports."""
    run(["npm", "run", "build"], timeout=300)
    return PACKAGE / "dist"


@pytest.mark.slow
def test_generated_types_are_current(installed: None) -> None:
    """src/schema.ts and src/apiVersion.ts are what openapi-typescript makes of
    openapi/openapi.json now (regenerated to a temporary directory and compared)."""
    out = run(["npm", "run", "generate:check"], timeout=120)
    assert "match openapi/openapi.json" in out
    document = json.loads((PACKAGE.parents[1] / "openapi" / "openapi.json").read_text())
    version = (PACKAGE / "src" / "apiVersion.ts").read_text()
    assert f'export const API_VERSION = "{document["info"]["version"]}";' in version


def without_comments(source: str) -> str:
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", source, flags=re.DOTALL))


@pytest.mark.slow
def test_types_check_strictly_and_build(built: Path) -> None:
    """`tsc --noEmit` (strict, sources and tests) passes; the build emits ESM with
    declarations for every module, no public type is `any`, and the package ships dist/
    alone (with its README and package.json)."""
    run(["npx", "tsc", "--noEmit"], timeout=300)
    package = json.loads((PACKAGE / "package.json").read_text())
    assert package["type"] == "module" and package["types"] == "./dist/index.d.ts"
    assert not package.get("dependencies"), "the client has no runtime dependency"
    for module in ("index", "client", "errors", "schema", "apiVersion", "versions"):
        assert (built / f"{module}.js").is_file() and (built / f"{module}.d.ts").is_file()
    packed = json.loads(run(["npm", "pack", "--dry-run", "--json"], timeout=120))
    shipped = {entry["path"] for entry in packed[0]["files"]}
    assert {"package.json", "README.md", "dist/index.js", "dist/index.d.ts"} <= shipped
    assert all(path.startswith("dist/") for path in shipped - {"package.json", "README.md"})
    for declarations in built.glob("*.d.ts"):
        code = without_comments(declarations.read_text())
        assert not re.search(r"\bany\b", code), f"`any` in {declarations.name}"


def vitest(directory: str, report: Path, env: dict[str, str] | None = None) -> set[str]:
    """vitest on one directory of tests; the names of its tests, all of which passed (none
    skipped: a suite that silently skips must not pass here)."""
    command = ["npx", "vitest", "run", directory, "--reporter=default", "--reporter=json"]
    run([*command, f"--outputFile={report}"], timeout=300, env=env)
    results = json.loads(report.read_text())
    assert results["numFailedTests"] == 0 and results["numPendingTests"] == 0
    assert results["numPassedTests"] == results["numTotalTests"] > 0
    return {t["title"] for f in results["testResults"] for t in f["assertionResults"]}


@pytest.mark.slow
def test_unit_suite(installed: None, tmp_path: Path) -> None:
    """vitest's unit tests, a mocked fetch: retries, waits, timeouts, errors, request ids,
    API versions, DICEREF_URL, waitForRuleset, the generated files' staleness."""
    names = vitest("test/unit", tmp_path / "unit.json")
    assert len(names) >= 30
    assert (
        "retries 408, 429, 502, 503 and 504 up to maxAttempts, then throws the last error" in names
    )
    assert "throws VersionMismatchError, unparsed, for a success from 1.0.0" in names
    assert "does not check a service that sends no X-API-Version (older services)" in names


@pytest.fixture(scope="module")
def live_server(
    tmp_path_factory: pytest.TempPathFactory,
    solved: Callable[[str], FloatArray],
    play_to_win: list[tuple[TableSpec, FloatArray]],
) -> Iterator[str]:
    """A server whose disk cache holds only Yahtzee's value table and the play-to-win
    tables of Yatzy in forced order (`distributions`' example), copied from the test cache:
    no house rules are solved there, so the integration suite's 503 is a real solve."""
    solved("yahtzee")  # fills the test cache
    cache = tmp_path_factory.mktemp("ts-live-cache")
    (cache / "tables").mkdir()
    test_cache = DiskCache(TEST_CACHE)
    specs = [value_spec(SCORECARD_GAMES["yahtzee"]), *(spec for spec, _ in play_to_win)]
    for spec in specs:
        shutil.copy(test_cache.path(spec.key), cache / "tables")
    log = tmp_path_factory.mktemp("ts-live") / "server.log"
    env = {"DICEREF_PRELOAD": "yahtzee", "DICEREF_CACHE_DIR": str(cache)}
    with LiveServer(log, env) as server:
        server.wait("/readyz", timeout=120)
        yield server.base


@pytest.mark.slow
def test_integration_suite_against_a_live_server(
    installed: None, live_server: str, tmp_path: Path
) -> None:
    """Every operation with its document example, and a 400, 404, 413, 422 and a 503 waited
    out with waitForRuleset, through the client against the live server; none skipped."""
    env = {"DICEREF_TEST_URL": live_server}
    names = vitest("test/integration", tmp_path / "integration.json", env)
    for operation in ("score", "holds", "distributions", "scorecardsCheck", "chicagoThrows",
                      "chicagoRounds", "chicagoGames", "chicagoHolds", "yardkleThrows",
                      "yardkleTurns", "yardkleGames", "yardkleHolds", "reviews",
                      "yardkleReviews", "rulesets"):  # fmt: skip
        assert any(name.startswith(f"{operation} answers") for name in names), operation
    for error in ("BadRequestError", "NotFoundError", "RuleViolationError",
                  "PayloadTooLargeError", "UnavailableError"):  # fmt: skip
        assert any(error in name for name in names), error


@pytest.mark.slow
def test_the_readmes_development_commands_run_as_written(installed: None) -> None:
    """The README's ```sh block, line by line through bash in the package, as written; its
    `npm run generate` leaves the committed generated files as they are."""
    (block,) = re.findall(r"```sh\n(.*?)```", README.read_text(), flags=re.DOTALL)
    lines = [line for line in block.splitlines() if line.strip()]
    assert [line.split()[:3] for line in lines][:2] == [["npm", "ci"], ["npm", "run", "generate"]]
    for line in lines:
        run(["bash", "-c", line], timeout=600)
    changed = subprocess.run(
        ["git", "status", "--porcelain", "--", "src"], cwd=PACKAGE, capture_output=True, text=True
    )
    assert changed.returncode == 0 and changed.stdout == "", changed.stdout


def readme_snippet() -> str:
    blocks = re.findall(r"```js\n(.*?)```", README.read_text(), flags=re.DOTALL)
    assert len(blocks) == 1, "the README has one ```js snippet"
    return blocks[0]


@pytest.mark.slow
def test_readme_snippet_runs_against_a_live_server(built: Path, live_server: str) -> None:
    """The README's snippet, verbatim, as a module inside the package (so that
    `import "diceref-client"` resolves to the built package itself): it type-checks
    against the built declarations (strict, checkJs) and runs with DICEREF_URL."""
    script = PACKAGE / f".snippet-{os.getpid()}.mjs"
    script.write_text(readme_snippet())
    try:
        run(["npx", "tsc", "--noEmit", "--allowJs", "--checkJs", "--strict", "--skipLibCheck",
             "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext",
             "--lib", "es2022,dom", "--types", "node", script.name], timeout=300)  # fmt: skip
        out = run(["node", script.name], timeout=60, env={"DICEREF_URL": live_server})
    finally:
        script.unlink()
    lines = out.splitlines()
    assert "full_house: 25" in lines[0] and "three_of_a_kind: 19" in lines[0]
    assert lines[1].startswith("best: ")
    assert lines[2] == "Ann: valid, total 18"
    refused = r"refused: throws_exceeded \(throws_left\), request [0-9a-f-]{36}"
    assert re.fullmatch(refused, lines[3])
