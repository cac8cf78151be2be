"""Seeded single-op programs run on the interpreter and on XLA:CPU, compared by bits.

The op suites of the front-end work (tests/test_interp_structured_ops.py,
test_interp_numeric_ops.py, test_interp_element_types.py) build `OpCase`s: one HLO module
whose parameters get per-device values, run by `interpret` (the interpreter, tuple results
flattened) and by `run_on_xla` (XLA:CPU, excess precision off), compared by `differences`:
bit for bit (floats as their unsigned bits, complex as their parts), or within `rtol` of the
largest magnitude of XLA's output where a case allows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from neuron_cc.interpreter.runner import entry_function, inputs_from_npz, run_module
from neuron_cc.testing.xla_cases import XlaCase, XlaResult, numpy_name
from neuron_cc.testing.xla_run import run_xla
from neuron_cc.translate.hlo_text.importer import import_hlo

Array = np.ndarray[Any, Any]


@dataclass(frozen=True)
class OpCase:
    name: str
    hlo: str
    params: tuple[str, ...]
    """The numpy dtype name of each parameter as XLA takes it (`float32`, `complex64`, ...)."""
    inputs: tuple[Array, ...]
    """Per parameter, the per-device values stacked on a leading device axis."""
    rtol: float = 0.0
    """0: bit for bit; else the error allowed, relative to XLA's largest magnitude."""

    @property
    def devices(self) -> int:
        return int(self.inputs[0].shape[0]) if self.inputs else 1


def shape_text(ty: str, dims: Sequence[int]) -> str:
    return f"{ty}[{','.join(map(str, dims))}]"


def entry_module(
    name: str, params: Sequence[tuple[str, Sequence[int]]], root: str, extra: str = ""
) -> str:
    """A module whose entry takes `params` (XLA type, dims) as p0.. and returns `root`."""
    lines = [f"  p{i} = {shape_text(t, d)} parameter({i})" for i, (t, d) in enumerate(params)]
    return (
        f"HloModule {name}\n{extra}\nENTRY main {{\n" + "\n".join(lines) + f"\n  ROOT {root}\n}}\n"
    )


def op_case(
    name: str,
    params: Sequence[tuple[str, Sequence[int]]],
    root: str,
    inputs: Sequence[Array],
    *,
    extra: str = "",
    rtol: float = 0.0,
) -> OpCase:
    return OpCase(
        name,
        entry_module(name, params, root, extra),
        tuple(numpy_name(t) for t, _ in params),
        tuple(inputs),
        rtol,
    )


def interpret(case: OpCase) -> list[Array]:
    """The interpreter's outputs (tuple results flattened), each with the device axis."""
    module = import_hlo(case.hlo, case.name)
    devices = case.devices
    data = {f"arg{i}_dev{d}": x[d] for i, x in enumerate(case.inputs) for d in range(devices)}
    result = run_module(module, inputs_from_npz(entry_function(module), data, devices))
    outs: list[Array] = []
    for v in result.outputs:
        outs += [np.asarray(e) for e in v] if isinstance(v, tuple) else [np.asarray(v)]
    return outs


def bits(x: Array) -> Array:
    """Comparable bits: floats as unsigned integers, complex as the bits of their parts."""
    x = np.ascontiguousarray(x)
    if x.dtype.kind == "c":
        x = np.ascontiguousarray(x.view(np.float32 if x.dtype.itemsize == 8 else np.float64))
    return x.view(f"u{x.dtype.itemsize}") if x.dtype.kind == "f" else x


def run_on_xla(cases: Sequence[OpCase], workers: int = 1) -> list[XlaResult]:
    """XLA:CPU's result of every case (one batch), each on the case's devices as replicas."""
    return run_xla(
        [XlaCase(c.name, c.hlo, c.devices, 1, list(c.inputs), list(c.params)) for c in cases],
        workers=workers,
    )


def differences(case: OpCase, got: Sequence[Array], want: Sequence[Array]) -> list[str]:
    """What differs between our outputs and XLA's (empty: equal as the case requires)."""
    if len(got) != len(want):
        return [f"{case.name}: {len(got)} outputs, XLA gives {len(want)}"]
    problems: list[str] = []
    for j, (g, w) in enumerate(zip(got, want, strict=True)):
        w = np.asarray(w).astype(g.dtype).reshape(g.shape)
        if case.rtol:
            scale = float(np.max(np.abs(w), initial=1.0))
            if not np.allclose(g, w, rtol=0.0, atol=case.rtol * scale, equal_nan=True):
                err = float(np.max(np.abs(g - w)))
                problems.append(f"{case.name} out{j}: max error {err} > {case.rtol} x {scale}")
        elif not np.array_equal(bits(g), bits(w)):
            diff = int(np.sum(bits(g) != bits(w)))
            problems.append(f"{case.name} out{j}: {diff} elements differ")
    return problems


def xla_differences(cases: Sequence[OpCase]) -> list[str]:
    """Run every case on XLA:CPU and the interpreter; every difference (a refusal by XLA is
    one too)."""
    problems: list[str] = []
    for case, result in zip(cases, run_on_xla(cases), strict=True):
        if not result.ok:
            problems.append(f"{case.name}: {result.status} {result.stage} {result.message}")
            continue
        problems += differences(case, interpret(case), result.outputs)
    return problems
