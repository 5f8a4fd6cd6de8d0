"""What the compiled kernel (`diceref.core.kernel`, llvmlite) costs a process.

    uv run python benchmarks/bench_kernel.py [--runs 5]

Prints llvmlite's installed size, then, each in a fresh process (`--runs` of each,
alternating, medians printed): the import of `llvmlite.binding`, the kernel compiled with
an empty cache directory (LLVM's passes and code generation), and the kernel loaded from a
cache an earlier process wrote (what a container image, which ships it, pays).  The import
is timed in the process itself, after numpy, as `diceref precompute` pays it; compile and
load are timed from the call to `kernel()` until it returns, the import excluded.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

PROBE = """
import sys, time
from pathlib import Path
import numpy
t = time.perf_counter()
import llvmlite.binding
imported = time.perf_counter() - t
from diceref.core import kernel
kernel.use_cache(Path(sys.argv[1]))
t = time.perf_counter()
got = kernel.kernel()
print(imported, time.perf_counter() - t, got.cached)
"""


def probe(cache: Path) -> tuple[float, float, bool]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(cache)], capture_output=True, text=True, check=True
    )
    imported, seconds, cached = done.stdout.split()
    return float(imported), float(seconds), cached == "True"


def installed_mb(distribution: str) -> float:
    files = importlib.metadata.distribution(distribution).files or []
    return sum(Path(str(f.locate())).stat().st_size for f in files) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    version = importlib.metadata.version("llvmlite")
    print(f"llvmlite {version}: {installed_mb('llvmlite'):.0f} MB installed")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    imports: list[float] = []
    cold: list[float] = []
    warm: list[float] = []
    with tempfile.TemporaryDirectory(prefix="diceref-kernel-") as root:
        for run in range(runs):
            empty = Path(root) / f"cold-{run}"
            imported, seconds, cached = probe(empty)
            assert not cached
            imports.append(imported)
            cold.append(seconds)
            imported, seconds, cached = probe(empty)  # the cache the cold run wrote
            assert cached
            imports.append(imported)
            warm.append(seconds)
            print(
                f"run {run + 1}  import {imports[-2] * 1e3:6.1f} ms   cold compile "
                f"{cold[-1] * 1e3:6.1f} ms   warm load {warm[-1] * 1e3:6.1f} ms"
            )
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"median  import of llvmlite.binding {statistics.median(imports) * 1e3:.1f} ms, "
        f"cold compile {statistics.median(cold) * 1e3:.1f} ms, "
        f"warm load {statistics.median(warm) * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    main()
