"""Functions compiled by numba when first called, not when imported.

The service imports numba only where a compiled loop is needed (about 0.8 s), and each
function's machine code is cached on disk by numba (beside the module, or in numba's own
cache directory); where neither is writable the function is compiled once per process.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class Compiled(Generic[P, R]):
    """`py_func` compiled with numba (nopython, no GIL held) at its first call; a
    decorator (the plain Python function stays at `.py_func`).  `cache=False` for a
    function that reads a value fixed only at run time (a kernel's address) as a
    constant: numba cannot keep its machine code for another process."""

    def __init__(self, py_func: Callable[P, R], *, cache: bool = True) -> None:
        self.py_func = py_func
        self.cache = cache
        self._compiled: Callable[P, R] | None = None
        self._lock = threading.Lock()

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.compiled()(*args, **kwargs)

    def compiled(self) -> Callable[P, R]:
        if self._compiled is None:
            with self._lock:
                if self._compiled is None:
                    import numba

                    try:
                        fn: Any = numba.njit(cache=self.cache, nogil=True)(self.py_func)
                    except RuntimeError:  # no writable cache directory
                        fn = numba.njit(nogil=True)(self.py_func)
                    self._compiled = fn
        assert self._compiled is not None
        return self._compiled
