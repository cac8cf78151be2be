"""Export handlers of the hlo ops added for issue 17 (`op -> opcode(operands), attr=value, ...`),
merged into the exporter's table; they print XLA's attribute order and omit defaults as XLA's
printer does (no `window=` without spatial dimensions, group counts of 1)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

import numpy as np
from xdsl.ir import Operation, Region, SSAValue

from neuron_cc.dialects.hlo.batch_norm import (
    BatchNormBase,
    BatchNormGradOp,
    BatchNormInferenceOp,
    BatchNormTrainingOp,
)
from neuron_cc.dialects.hlo.convolution import ConvolutionOp
from neuron_cc.dialects.hlo.data_movement import ReverseOp
from neuron_cc.dialects.hlo.elementwise_map import MapOp
from neuron_cc.dialects.hlo.fft import FftOp
from neuron_cc.dialects.hlo.linalg import CholeskyOp, TriangularSolveOp
from neuron_cc.dialects.hlo.select_and_scatter import SelectAndScatterOp
from neuron_cc.dialects.hlo.topk import TopKOp
from neuron_cc.translate.hlo_text.export_text import dims_text, int_value, window_text


class Builder(Protocol):
    """What a handler needs of the exporter's per-computation builder."""

    def ref(self, value: SSAValue) -> str: ...
    def refs(self, values: Iterable[SSAValue]) -> str: ...
    def region_name(self, region: Region, op: Operation) -> str: ...


def _reverse(b: Builder, op: ReverseOp) -> str:
    return f"reverse({b.ref(op.operand)}), dimensions={dims_text(op.dimensions.data)}"


def _convolution(b: Builder, op: ConvolutionOp) -> str:
    parts = [f"convolution({b.ref(op.lhs)}, {b.ref(op.rhs)})"]
    window = op.window.data
    if window.size:
        text = window_text(window)
        if op.window_reversal is not None and any(op.window_reversal.data):
            flags = "x".join(map(str, op.window_reversal.data))
            text = text[:-1] + f" rhs_reversal={flags}}}"
        parts.append(f"window={text}")
    parts.append(f"dim_labels={op.dim_labels.data}")
    for key, attr in (
        ("feature_group_count", op.feature_group_count),
        ("batch_group_count", op.batch_group_count),
    ):
        if attr is not None:
            parts.append(f"{key}={int_value(attr)}")
    return ", ".join(parts)


def _select_and_scatter(b: Builder, op: SelectAndScatterOp) -> str:
    parts = [f"select-and-scatter({b.refs(op.operands)})"]
    if op.window.data.size:
        parts.append(f"window={window_text(op.window.data)}")
    parts.append(f"select=%{b.region_name(op.select, op)}")
    parts.append(f"scatter=%{b.region_name(op.scatter, op)}")
    return ", ".join(parts)


def _map(b: Builder, op: MapOp) -> str:
    dims = dims_text(op.dimensions.data)
    return f"map({b.refs(op.operands)}), dimensions={dims}, to_apply=%{b.region_name(op.computation, op)}"


def _topk(b: Builder, op: TopKOp) -> str:
    largest = "true" if op.largest.value.data else "false"
    return f"topk({b.ref(op.operand)}), k={int_value(op.k)}, largest={largest}"


def _batch_norm(b: Builder, op: BatchNormBase) -> str:
    opcode = op.name.removeprefix("hlo.").replace("_", "-")
    epsilon = str(np.float32(op.epsilon.value.data))
    return (
        f"{opcode}({b.refs(op.operands)}), epsilon={epsilon}, "
        f"feature_index={int_value(op.feature_index)}"
    )


def _cholesky(b: Builder, op: CholeskyOp) -> str:
    text = f"cholesky({b.ref(op.operand)})"
    return text + ", lower=true" if op.lower.value.data else text


def _triangular_solve(b: Builder, op: TriangularSolveOp) -> str:
    parts = [f"triangular-solve({b.ref(op.a)}, {b.ref(op.b)})"]
    for key, flag in (
        ("left_side", op.left_side),
        ("lower", op.lower),
        ("unit_diagonal", op.unit_diagonal),
    ):
        if flag.value.data:
            parts.append(f"{key}=true")
    parts.append(f"transpose_a={op.transpose_a.data.value}")
    return ", ".join(parts)


def _fft(b: Builder, op: FftOp) -> str:
    return (
        f"fft({b.ref(op.operand)}), fft_type={op.fft_type.data.value}, "
        f"fft_length={dims_text(op.fft_length.data)}"
    )


HANDLERS: dict[str, Callable[[Any, Any], str]] = {
    ReverseOp.name: _reverse,
    ConvolutionOp.name: _convolution,
    SelectAndScatterOp.name: _select_and_scatter,
    MapOp.name: _map,
    TopKOp.name: _topk,
    BatchNormTrainingOp.name: _batch_norm,
    BatchNormInferenceOp.name: _batch_norm,
    BatchNormGradOp.name: _batch_norm,
    CholeskyOp.name: _cholesky,
    TriangularSolveOp.name: _triangular_solve,
    FftOp.name: _fft,
}
