"""The array types the solvers, the tables store and the coaches pass around.

One spelling for each, so that a table solved by one module and served by another is the
same type to mypy as well as to numpy.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
IndexArray = npt.NDArray[np.intp]  # positions into another array: numpy's own index type
