"""Semantic equivalence of two hlo modules by execution on simulated devices.

`assert_equivalent(before, after)` runs both modules' entry functions on the same inputs (given,
or seeded random ones that differ per device) and compares every output on every device,
raising `EquivalenceError` that names the first mismatching output, device and index.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute

from neuron_cc.analysis.replica_groups import device_counts
from neuron_cc.dialects.hlo.types import is_float_type, is_pred_type
from neuron_cc.interpreter.runner import RunResult, entry_function, run_module
from neuron_cc.interpreter.values import InterpretationError, Value, is_bf16, normalize, numpy_dtype

Array = np.ndarray[Any, Any]


class EquivalenceError(AssertionError):
    """The two programs produce different outputs."""


def random_value(t: Attribute, devices: int, rng: np.random.Generator) -> Array:
    if not isinstance(t, TensorType):
        raise InterpretationError(f"cannot generate a random value of type {t}")
    shape = (devices, *t.get_shape())
    element = t.element_type
    if is_pred_type(element):
        return rng.random(shape) < 0.5
    if is_float_type(element):
        value = rng.standard_normal(shape).astype(numpy_dtype(element))
        return normalize(value, element) if is_bf16(element) else value
    # Small non-negative integers: safe as loop bounds, indices and divisors (+1).
    return rng.integers(0, 4, size=shape).astype(numpy_dtype(element))


def random_inputs(module: ModuleOp, seed: int = 0) -> list[Value]:
    """Seeded random entry arguments, different on every device."""
    r, p = device_counts(module)
    rng = np.random.default_rng(seed)
    entry = entry_function(module)
    return [random_value(t, r * p, rng) for t in entry.function_type.inputs.data]


def _compare(j: int, a: Array, b: Array, rtol: float, atol: float) -> str | None:
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"output {j}: {a.dtype}{list(a.shape[1:])} vs {b.dtype}{list(b.shape[1:])}"
    if a.dtype.kind == "f":
        close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
    else:
        close = a == b
    if close.all():
        return None
    index = tuple(int(i) for i in np.argwhere(~close)[0])
    return (
        f"output {j} differs on device {index[0]} at index {list(index[1:])}: "
        f"{a[index]} before vs {b[index]} after ({int((~close).sum())} elements differ)"
    )


def flatten_values(values: Sequence[Value]) -> list[Array]:
    """The arrays of `values` in order, tuples flattened (tokens dropped)."""
    flat: list[Array] = []
    for value in values:
        if isinstance(value, tuple):
            flat.extend(flatten_values(value))
        elif isinstance(value, np.ndarray):
            flat.append(value)
    return flat


def assert_equivalent(
    before: ModuleOp,
    after: ModuleOp,
    inputs: Sequence[Value] | None = None,
    rtol: float = 1e-5,
    atol: float = 1e-6,
    seed: int = 0,
) -> tuple[RunResult, RunResult]:
    """Run both modules on the same inputs; raise EquivalenceError on the first difference."""
    args = list(inputs) if inputs is not None else random_inputs(before, seed)
    first = run_module(before, [np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
    second = run_module(after, [np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
    outs_a = flatten_values(first.outputs)
    outs_b = flatten_values(second.outputs)
    if len(outs_a) != len(outs_b):
        raise EquivalenceError(f"{len(outs_a)} outputs before, {len(outs_b)} after")
    for j, (a, b) in enumerate(zip(outs_a, outs_b, strict=True)):
        problem = _compare(j, a, b, rtol, atol)
        if problem is not None:
            raise EquivalenceError(problem)
    return first, second
