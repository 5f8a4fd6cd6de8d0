"""The layering of docs/architecture.md, enforced: every module's imports (top-level and
inside functions) are read with `ast` and checked against the rules below."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "service" / "diceref"
WEB = ("litestar", "granian", "uvicorn", "prometheus_client")
IO = ("redis", "platformdirs", "httpx", *WEB)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every import in the file, wherever it stands."""
    package = module_name(path).rsplit(".", 0 if path.name == "__init__.py" else 1)[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the importing package
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            yield node.lineno, base
            for alias in node.names:  # `from diceref.games import chicago` names a module
                if f"{base}.{alias.name}" in modules():
                    yield node.lineno, f"{base}.{alias.name}"


def family_of(module: str) -> str | None:
    parts = module.split(".")
    if (
        len(parts) > 2
        and parts[:2] == ["diceref", "games"]
        and parts[2]
        not in (
            "family",
            "families",
        )
    ):
        return parts[2]
    return None


def within(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def import_graph() -> dict[str, list[tuple[int, str]]]:
    return {name: list(imports(path)) for name, path in modules().items()}


def violations(graph: dict[str, list[tuple[int, str]]]) -> Iterator[str]:
    for name, found in graph.items():
        family = family_of(name)
        for line, target in found:
            where = f"{name}:{line} imports {target}"
            is_api = family is not None and within(name, f"diceref.games.{family}.api")
            if within(target, "litestar") and not (within(name, "diceref.http") or is_api):
                yield f"{where}: only http/ and games/*/api/ may import Litestar"
            if within(name, "diceref.core"):
                if within(target, "diceref") and not within(target, "diceref.core"):
                    yield f"{where}: core/ imports nothing above it"
                if within(target, *IO):
                    yield f"{where}: core/ is pure"
            if within(name, "diceref.tables") and within(
                target, "diceref.games", "diceref.http", "diceref.settings", "diceref.cli"
            ):
                yield f"{where}: the tables store knows no family and no web layer"
            if (
                within(name, "diceref.http", "diceref.tables", "diceref.cli")
                and family_of(target) is not None
            ):
                yield f"{where}: http/, tables/ and the CLI find families in the registry only"
            if family is None:
                continue
            other = family_of(target)
            if other is not None and other != family:
                yield f"{where}: families never import one another"
            if not is_api and within(target, "diceref.http"):
                yield f"{where}: only a family's api/ may import the web layer"
            for layer, allowed in (
                ("rules", ("rules",)),
                ("solver", ("rules", "solver")),
            ):
                if not within(name, f"diceref.games.{family}.{layer}"):
                    continue
                own = [f"diceref.games.{family}.{a}" for a in allowed]
                if within(target, "diceref") and not within(target, "diceref.core", *own):
                    yield f"{where}: a family's {layer} imports only core/ and its own " + (
                        " and ".join(allowed)
                    )
                if within(target, *IO):
                    yield f"{where}: a family's {layer} is pure (no I/O, no web)"


def test_the_layers_hold() -> None:
    found = list(violations(import_graph()))
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("module", "target", "rule"),
    [
        ("diceref.core.bad", "litestar", "only http/"),
        ("diceref.core.bad", "diceref.tables.store", "core/ imports nothing"),
        ("diceref.core.bad", "redis", "core/ is pure"),
        ("diceref.tables.bad", "diceref.games.families", "knows no family"),
        ("diceref.http.routes.bad", "diceref.games.scorecard.api.custom", "registry only"),
        ("diceref.cli", "diceref.games.scorecard.rules.games", "registry only"),
        ("diceref.tables.bad", "diceref.games.yardkle", "registry only"),
        ("diceref.games.chicago.rules.bad", "diceref.games.yardkle.rules", "one another"),
        ("diceref.games.chicago.rules.bad", "diceref.tables.spec", "rules imports only"),
        ("diceref.games.yardkle.solver.bad", "diceref.http.problems", "web layer"),
        ("diceref.games.yardkle.solver.bad", "redis", "is pure"),
        ("diceref.games.yardkle.tables", "litestar", "only http/"),
    ],
)
def test_each_rule_bites(module: str, target: str, rule: str) -> None:
    """A checker that found nothing would pass the test above: each rule must fire."""
    found = list(violations({module: [(1, target)]}))
    assert any(rule in v for v in found), found


def test_the_web_layer_and_the_cli_may_read_the_registry() -> None:
    for module in ("diceref.http.family", "diceref.cli"):
        for target in ("diceref.games.families", "diceref.games.family"):
            assert list(violations({module: [(1, target)]})) == []


def import_cycles(graph: dict[str, list[tuple[int, str]]]) -> list[list[str]]:
    """The groups of diceref modules that import one another, directly or round a cycle
    (imports inside functions and under TYPE_CHECKING count: a circle is a design fault
    even where Python resolves it): Tarjan's strongly connected components."""
    edges = {
        name: sorted({t for _, t in found if t in graph and t != name})
        for name, found in graph.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in edges[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = stack[stack.index(module) :]
            del stack[stack.index(module) :]
            if len(group) > 1:
                cycles.append(sorted(group))

    for module in edges:
        if module not in index:
            visit(module)
    return cycles


def test_no_modules_import_each_other() -> None:
    assert import_cycles(import_graph()) == []


@pytest.mark.parametrize(
    ("graph", "cycles"),
    [
        ({"a": [(1, "b")], "b": [(1, "a")]}, [["a", "b"]]),
        ({"a": [(1, "b")], "b": [(1, "c")], "c": [(9, "a")], "d": [(1, "a")]}, [["a", "b", "c"]]),
        ({"a": [(1, "b"), (2, "a")], "b": [(1, "redis")]}, []),
    ],
)
def test_the_cycle_check_bites(
    graph: dict[str, list[tuple[int, str]]], cycles: list[list[str]]
) -> None:
    assert import_cycles(graph) == cycles


def test_the_reader_sees_imports_inside_functions() -> None:
    cli = dict(imports(PACKAGE / "cli.py"))
    assert "diceref.http.app" in cli.values()  # imported inside _openapi


# Code comments explain the code: a reference to an issue or to "the brief" is history that
# goes stale (it belongs in the commit message), and a module docstring says what the
# module is for in a few lines (the narrative goes to docs/).
REFERENCE = re.compile(r"\bissues? #?\d+\b|(?<![\w&])#\d+\b|\bthe brief\b", re.I)
MODULE_DOCSTRING_LINES = 12


def prose(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every comment and docstring of a module's source."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                for offset, line in enumerate(first.value.value.splitlines()):
                    yield first.lineno + offset, line
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def hygiene(name: str, source: str) -> Iterator[str]:
    for line, text in prose(source):
        for found in REFERENCE.finditer(text):
            yield f"{name}:{line}: {found.group()!r} in a comment or docstring"
    doc = ast.get_docstring(ast.parse(source), clean=False)
    lines = 0 if doc is None else len(doc.strip().splitlines())
    if lines > MODULE_DOCSTRING_LINES:
        yield f"{name}: module docstring of {lines} lines (at most {MODULE_DOCSTRING_LINES})"


def test_comments_and_docstrings_explain_rather_than_narrate() -> None:
    found = [v for name, path in modules().items() for v in hygiene(name, path.read_text())]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("source", "complaint"),
    [
        ("x = 1  # the fix of issue 18\n", "'issue 18'"),
        ('def f() -> None:\n    """As asked in #24."""\n', "'#24'"),
        ('"""Why.\n\nThe brief says so."""\n', "'The brief'"),
        ('"""' + "\n".join(["line"] * 14) + '"""\n', "module docstring of 14 lines"),
    ],
)
def test_the_hygiene_check_bites(source: str, complaint: str) -> None:
    assert any(complaint in v for v in hygiene("m", source)), list(hygiene("m", source))


def test_the_hygiene_check_passes_plain_prose() -> None:
    source = '"""A module.\n\nIt does one thing."""\nCOLOR = "#fff"  # a color, not #x\n'
    assert list(hygiene("m", source)) == []
