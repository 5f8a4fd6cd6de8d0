"""`helm lint --strict` and `helm template` for this chart, without a `helm` binary.

The project installs no Helm; its dev dependencies hold helm-python-sdk, the Helm SDK as a
library (the tests lint and render the chart through it).  This lints the chart with the
values given (a warning counts as an error, as `--strict` makes it) and then prints every
manifest as `helm template` would, a YAML stream for `kubectl apply -f -` or a review.

    uv run python helm/template.py [RELEASE] [--namespace NS] [--set key=value ...]

Exit status 1 when the lint finds anything above an informational message, 2 for a
malformed `--set`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import helm_python as helm

CHART = Path(__file__).parent / "diceref"


def merged(into: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """`values` laid over `into`, nested maps merged key by key (as repeated --set are)."""
    for key, value in values.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            merged(into[key], value)
        else:
            into[key] = value
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="helm/template.py", description=__doc__.split("\n")[0])
    parser.add_argument("release", nargs="?", default="diceref")
    parser.add_argument("--namespace", default="default")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    values: dict[str, Any] = {}
    for expression in args.set:
        try:
            merged(values, helm.parse_set_string(expression))
        except helm.HelmValuesError as exc:
            print(f"helm/template.py: error: --set {expression!r}: {exc}", file=sys.stderr)
            return 2
    report = helm.lint(CHART, values, strict=True, namespace=args.namespace)
    for message in report["messages"]:
        print(f"lint: {message}", file=sys.stderr)
    if report["errors"] or any(m["severity"] > 1 for m in report["messages"]):
        print(f"lint: {CHART} failed: {report['errors']}", file=sys.stderr)
        return 1
    with helm.Chart.load(CHART) as chart:
        manifests = chart.render(values, name=args.release, namespace=args.namespace)
    for path, text in sorted(manifests.items()):
        if path.endswith(".yaml") and text.strip():
            sys.stdout.write(f"---\n# Source: {path}\n{text.strip()}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
