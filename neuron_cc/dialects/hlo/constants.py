"""The elements of dense constants as numpy arrays, for analyses (no interpreter needed).

`storage_values(attr)` reads the attribute's little-endian storage in its shape: pred (i1) as
0/1, signless and signed integers as signed values, `ui*` as unsigned values, and floats as
their bit patterns (unsigned integers of the same width: equal bits, equal constant); a splat is
broadcast to the whole shape. The interpreter reads float values itself
(`interpreter/conversions.py`); analyses compare elements or read integers only.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, Signedness


def _storage_dtype(element: Any) -> np.dtype[Any]:
    if isinstance(element, IntegerType):
        width = element.width.data
        unsigned = element.signedness.data == Signedness.UNSIGNED or width == 1
        return np.dtype(f"<{'u' if unsigned else 'i'}{max(1, (width + 7) // 8)}")
    return np.dtype(f"<u{element.compile_time_size}")


def storage_values(attr: DenseIntOrFPElementsAttr) -> NDArray[Any]:
    """The elements of `attr` in its shape: integer values, float bit patterns."""
    flat = np.frombuffer(attr.data.data, dtype=_storage_dtype(attr.get_element_type()))
    shape = tuple(attr.get_shape())
    count = math.prod(shape)
    if flat.size == 1 and count != 1:
        flat = np.broadcast_to(flat, (count,))
    return flat.reshape(shape)
