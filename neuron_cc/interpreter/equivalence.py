"""Semantic equivalence of two hlo modules by execution on simulated devices.

`assert_equivalent(before, after)` runs both modules' entry functions on the same inputs (given,
or seeded random ones, see `random_inputs`) and compares every output on every device,
raising `EquivalenceError` that names the first mismatching output, device and index.
`reference_run(module)` + `assert_matches(reference, after)` do the same in two steps, for a
caller that rewrites the module in place between them (neuron-opt's --verify-equivalence).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute

from neuron_cc.analysis.replication import replicated_parameters
from neuron_cc.dialects.hlo.types import is_float_type, is_pred_type
from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.interpreter.control_inputs import control_parameters
from neuron_cc.interpreter.runner import RunResult, entry_function, run_module
from neuron_cc.interpreter.values import InterpretationError, Value, is_bf16, normalize, numpy_dtype

Array = np.ndarray[Any, Any]


class EquivalenceError(AssertionError):
    """The two programs produce different outputs."""


CONTROL_INTEGER_BOUND = 8
"""Integer inputs that decide control flow are drawn from [0, 8): loops run a few iterations."""


def random_value(
    t: Attribute, devices: int, rng: np.random.Generator, replicated: bool = False
) -> Array:
    """A seeded random value of type `t` for `devices` devices: different on every device, or
    with `replicated` one value on every device (integers then in [0, CONTROL_INTEGER_BOUND))."""
    if not isinstance(t, TensorType):
        raise InterpretationError(f"cannot generate a random value of type {t}")
    shape = (1 if replicated else devices, *t.get_shape())
    element = t.element_type
    if is_pred_type(element):
        value = rng.random(shape) < 0.5
    elif is_float_type(element):
        value = rng.standard_normal(shape).astype(numpy_dtype(element))
        value = normalize(value, element) if is_bf16(element) else value
    else:
        # Small non-negative integers: safe as loop bounds, indices and divisors (+1).
        high = CONTROL_INTEGER_BOUND if replicated else 4
        value = rng.integers(0, high, size=shape).astype(numpy_dtype(element))
    return np.repeat(value, devices, axis=0) if replicated else value


def random_inputs(
    module: ModuleOp, seed: int = 0, *, devices: int | None = None, per_device: bool = False
) -> list[Value]:
    """Seeded random entry arguments for `devices` devices (default: the module's R x P).

    Every device gets its own values, except for the parameters that decide control flow
    (`control_parameters`: they reach a while condition or a conditional index), which get one
    value on every device, so the program does not diverge, and the parameters whose
    `xla.sharding` is replicated (SPMD guarantees them equal). `per_device` gives every
    parameter per-device values.
    """
    r, p = device_counts(module)
    rng = np.random.default_rng(seed)
    entry = entry_function(module)
    uniform = (
        frozenset[int]()
        if per_device
        else control_parameters(module) | replicated_parameters(entry)
    )
    return [
        random_value(t, devices or r * p, rng, i in uniform)
        for i, t in enumerate(entry.function_type.inputs.data)
    ]


def _compare(what: str, a: Array, b: Array, rtol: float, atol: float) -> str | None:
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"{what}: {a.dtype}{list(a.shape[1:])} vs {b.dtype}{list(b.shape[1:])}"
    if a.dtype.kind == "f":
        close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
    else:
        close = a == b
    if close.all():
        return None
    index = tuple(int(i) for i in np.argwhere(~close)[0])
    return (
        f"{what} differs on device {index[0]} at index {list(index[1:])}: "
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
    per_device_inputs: bool = False,
    infeed: Sequence[Sequence[Array]] = (),
) -> tuple[RunResult, RunResult]:
    """Run both modules on the same inputs (default: `random_inputs(before, seed,
    per_device=per_device_inputs)`) and host infeed; raise EquivalenceError on the first
    difference of an output or of what the outfeeds wrote."""
    reference = reference_run(
        before, inputs, seed=seed, per_device_inputs=per_device_inputs, infeed=infeed
    )
    return reference.result, assert_matches(reference, after, rtol=rtol, atol=atol)


@dataclass(frozen=True)
class Reference:
    """What a module computed on `inputs` / `infeed`: the yardstick of `assert_matches`."""

    inputs: list[Value]
    infeed: Sequence[Sequence[Array]]
    result: RunResult


def reference_run(
    module: ModuleOp,
    inputs: Sequence[Value] | None = None,
    *,
    seed: int = 0,
    per_device_inputs: bool = False,
    infeed: Sequence[Sequence[Array]] = (),
) -> Reference:
    """Run `module` once (inputs as in `assert_equivalent`); keep what it computed. Taken before
    a pipeline rewrites the module in place, it spares a clone of the whole module."""
    args = (
        list(inputs)
        if inputs is not None
        else random_inputs(module, seed, per_device=per_device_inputs)
    )
    return Reference(args, infeed, run_module(module, _copies(args), infeed=infeed))


def assert_matches(
    reference: Reference, after: ModuleOp, *, rtol: float = 1e-5, atol: float = 1e-6
) -> RunResult:
    """Run `after` on the reference's inputs; raise EquivalenceError on the first output or
    outfeed array that differs from the reference's."""
    first = reference.result
    second = run_module(after, _copies(reference.inputs), infeed=reference.infeed)
    for what, outs_a, outs_b in (
        ("output", flatten_values(first.outputs), flatten_values(second.outputs)),
        (
            "outfeed array",
            [a for entry in first.state.outfeed for a in entry],
            [a for entry in second.state.outfeed for a in entry],
        ),
    ):
        if len(outs_a) != len(outs_b):
            raise EquivalenceError(f"{len(outs_a)} {what}s before, {len(outs_b)} after")
        for j, (a, b) in enumerate(zip(outs_a, outs_b, strict=True)):
            problem = _compare(f"{what} {j}", a, b, rtol, atol)
            if problem is not None:
                raise EquivalenceError(problem)
    return second


def _copies(args: Sequence[Value]) -> list[Value]:
    return [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]
