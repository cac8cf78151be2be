"""Output comparison for the XLA oracle (`neuron_cc.testing.xla_oracle`).

The tolerances two runs are compared with (`Tolerance`: exact, strict, reassociated,
reassociated-bf16, and their bounds), the element types of a module's outputs (`output_types`)
and where two runs' outputs first differ (`difference`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TupleType
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.types import element_type_name, tensor_type
from neuron_cc.interpreter.runner import entry_function
from neuron_cc.testing.pass_configs import BF16_REASSOCIATION, F32_REASSOCIATION
from neuron_cc.testing.xla_cases import Array

Tolerance = Literal["exact", "strict", "reassociated", "reassociated-bf16"]
"""How closely two runs must agree. Integers and predicates: always bit for bit. Floats:
"exact" - bit for bit (NaN equals NaN); "strict" - f32 within 1e-5 relative (plus 1e-5
absolute near zero), bf16 exact; "reassociated" - within `F32_REASSOCIATION` (f32 outputs) or
`BF16_REASSOCIATION` (bf16 outputs) of the output's largest finite magnitude (at least 1): a
moved sum is legitimately reassociated; "reassociated-bf16" - `BF16_REASSOCIATION` for every
float output (the program computes in bf16: T bf16 roundings of a sum, then converted to f32)."""

F32_RTOL = 1e-5


def output_types(module: ModuleOp) -> list[str]:
    """XLA's element type name of every output (the entry's result tuple flattened)."""
    results: list[Attribute] = list(entry_function(module).function_type.outputs.data)
    if len(results) == 1 and isinstance(results[0], TupleType):
        results = list(results[0].types.data)
    return [element_type_name(tensor_type(t).element_type) for t in results]


def _close(a: Array, b: Array, element: str, tolerance: Tolerance) -> Array:
    if a.dtype.kind != "f":
        return a == b
    x, y = a.astype(np.float64), b.astype(np.float64)
    same = (x == y) | (np.isnan(x) & np.isnan(y))
    if tolerance == "exact" or (tolerance == "strict" and element != "f32"):
        return same
    if tolerance == "strict":
        return same | np.isclose(x, y, rtol=F32_RTOL, atol=F32_RTOL)
    scale = float(np.max(np.abs(y[np.isfinite(y)]), initial=1.0))
    in_bf16 = element == "bf16" or tolerance == "reassociated-bf16"
    bound = (BF16_REASSOCIATION if in_bf16 else F32_REASSOCIATION) * scale
    return same | (np.abs(x - y) <= bound)


def difference(
    expected: Sequence[Array], actual: Sequence[Array], types: Sequence[str], tolerance: Tolerance
) -> str | None:
    """Where `actual` first differs from `expected` (per output, leading device axis), or None."""
    if len(expected) != len(actual):
        return f"{len(actual)} outputs, expected {len(expected)}"
    for j, (e, a, t) in enumerate(zip(expected, actual, types, strict=True)):
        e, a = np.asarray(e), np.asarray(a)
        if e.shape != a.shape:
            return f"output {j} ({t}): shape {list(a.shape)}, expected {list(e.shape)}"
        close = _close(a.astype(e.dtype) if a.dtype != e.dtype else a, e, t, tolerance)
        if not bool(np.all(close)):
            bad = np.argwhere(~close)
            at = tuple(int(i) for i in bad[0])
            return (
                f"output {j} ({t}) differs in {len(bad)} elements, first on device {at[0]} at "
                f"{list(at[1:])}: {a[at]!r}, expected {e[at]!r}"
            )
    return None
