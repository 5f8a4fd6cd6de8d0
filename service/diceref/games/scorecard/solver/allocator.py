"""Keep the solver's temporaries on the heap.

A solve allocates and frees the same few megabyte-sized arrays thousands of times.  glibc
serves allocations that large with fresh `mmap`s and hands them back on free, so every chunk
pays page faults again (docs/solver.md has the counts).  Raising the thresholds keeps freed
blocks for reuse; the process then holds on to its peak working set, which a long-lived
service would reuse on the next solve anyway.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger("diceref.solver")
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
_done = False


def reuse_freed_memory(mmap_threshold: int = 512 << 20, trim_threshold: int = 1 << 30) -> bool:
    """Raise glibc's mmap and trim thresholds once per process; False where not glibc."""
    global _done
    if _done:
        return True
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to tune
        return False
    ok = bool(mallopt(M_MMAP_THRESHOLD, mmap_threshold)) and bool(
        mallopt(M_TRIM_THRESHOLD, trim_threshold)
    )
    if not ok:
        log.debug("mallopt refused the thresholds; solving with the allocator's defaults")
    _done = ok
    return ok
