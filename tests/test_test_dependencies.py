"""The reference suites' peer solver is required where it must be: a missing yatzy-solver
skips them on a laptop, but fails them under CI=true, so that CI cannot pass by skipping
its option-by-option cross-checks."""

from __future__ import annotations

import sys

import pytest

from helpers import import_yatzy_solver


def test_yatzy_solver_is_installed_here() -> None:
    assert import_yatzy_solver().__name__ == "yatzy_solver"


@pytest.mark.parametrize(
    ("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)]
)
def test_a_missing_yatzy_solver_fails_under_ci_and_skips_elsewhere(
    monkeypatch: pytest.MonkeyPatch, ci: str, outcome: type[BaseException]
) -> None:
    monkeypatch.setitem(sys.modules, "yatzy_solver", None)  # `import` raises ImportError
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="yatzy-solver"):
        import_yatzy_solver()
