"""Export handlers of the data-movement and computation ops (`op -> opcode(operands),
attr=value, ...`), merged into the exporter's table: broadcast, transpose, slice,
dynamic-slice, concatenate, pad, dot, reduce, reduce-window, gather, scatter and sort, with
XLA's attribute order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from neuron_cc.dialects.hlo import computation, data_movement
from neuron_cc.translate.hlo_text.export_collectives import Builder, to_apply
from neuron_cc.translate.hlo_text.export_text import (
    dims_text,
    int_value,
    padding_text,
    slice_text,
    window_text,
)


def _broadcast(b: Builder, op: data_movement.BroadcastOp) -> str:
    return f"broadcast({b.ref(op.operand)}), dimensions={dims_text(op.dimensions.data)}"


def _transpose(b: Builder, op: data_movement.TransposeOp) -> str:
    return f"transpose({b.ref(op.operand)}), dimensions={dims_text(op.permutation.data)}"


def _slice_op(b: Builder, op: data_movement.SliceOp) -> str:
    spec = slice_text(op.start_indices.data, op.limit_indices.data, op.strides.data)
    return f"slice({b.ref(op.operand)}), slice={spec}"


def _dynamic_slice(b: Builder, op: data_movement.DynamicSliceOp) -> str:
    sizes = dims_text(op.slice_sizes.data)
    return f"dynamic-slice({b.refs(op.operands)}), dynamic_slice_sizes={sizes}"


def _concatenate(b: Builder, op: data_movement.ConcatenateOp) -> str:
    return f"concatenate({b.refs(op.operands)}), dimensions={{{int_value(op.dimension)}}}"


def _pad(b: Builder, op: data_movement.PadOp) -> str:
    spec = padding_text(
        op.edge_padding_low.data, op.edge_padding_high.data, op.interior_padding.data
    )
    return f"pad({b.ref(op.operand)}, {b.ref(op.padding_value)}), padding={spec}"


def _dot(b: Builder, op: computation.DotOp) -> str:
    dn = op.dot_dimension_numbers.data
    parts = [f"dot({b.ref(op.lhs)}, {b.ref(op.rhs)})"]
    if dn.lhs_batch:
        parts.append(f"lhs_batch_dims={dims_text(dn.lhs_batch)}")
    parts.append(f"lhs_contracting_dims={dims_text(dn.lhs_contracting)}")
    if dn.rhs_batch:
        parts.append(f"rhs_batch_dims={dims_text(dn.rhs_batch)}")
    parts.append(f"rhs_contracting_dims={dims_text(dn.rhs_contracting)}")
    return ", ".join(parts)


def _reduce(b: Builder, op: computation.ReduceOp) -> str:
    dims = dims_text(op.dimensions.data)
    return f"reduce({b.refs(op.operands)}), dimensions={dims}, {to_apply(b, op.body, op)}"


def _reduce_window(b: Builder, op: computation.ReduceWindowOp) -> str:
    if not op.window.data.size:  # rank 0: XLA prints no window
        return f"reduce-window({b.refs(op.operands)}), {to_apply(b, op.body, op)}"
    window = window_text(op.window.data)
    return f"reduce-window({b.refs(op.operands)}), window={window}, {to_apply(b, op.body, op)}"


def _gather(b: Builder, op: computation.GatherOp) -> str:
    dn = op.dimension_numbers.data
    parts = [
        f"gather({b.ref(op.operand)}, {b.ref(op.start_indices)})",
        f"offset_dims={dims_text(dn.offset_dims)}",
        f"collapsed_slice_dims={dims_text(dn.collapsed_slice_dims)}",
    ]
    if dn.operand_batching_dims or dn.start_indices_batching_dims:
        parts.append(f"operand_batching_dims={dims_text(dn.operand_batching_dims)}")
        parts.append(f"start_indices_batching_dims={dims_text(dn.start_indices_batching_dims)}")
    parts.append(f"start_index_map={dims_text(dn.start_index_map)}")
    parts.append(f"index_vector_dim={dn.index_vector_dim}")
    parts.append(f"slice_sizes={dims_text(op.slice_sizes.data)}")
    if op.indices_are_sorted is not None:
        parts.append("indices_are_sorted=true")
    return ", ".join(parts)


def _scatter(b: Builder, op: computation.ScatterOp) -> str:
    dn = op.dimension_numbers.data
    parts = [
        f"scatter({b.refs(op.operands)})",
        f"update_window_dims={dims_text(dn.update_window_dims)}",
        f"inserted_window_dims={dims_text(dn.inserted_window_dims)}",
    ]
    if dn.input_batching_dims or dn.scatter_indices_batching_dims:
        parts.append(f"input_batching_dims={dims_text(dn.input_batching_dims)}")
        parts.append(f"scatter_indices_batching_dims={dims_text(dn.scatter_indices_batching_dims)}")
    parts.append(f"scatter_dims_to_operand_dims={dims_text(dn.scatter_dims_to_operand_dims)}")
    parts.append(f"index_vector_dim={dn.index_vector_dim}")
    if op.indices_are_sorted is not None:
        parts.append("indices_are_sorted=true")
    if op.unique_indices is not None:
        parts.append("unique_indices=true")
    parts.append(to_apply(b, op.update_computation, op))
    return ", ".join(parts)


def _sort(b: Builder, op: computation.SortOp) -> str:
    parts = [f"sort({b.refs(op.operands)})", f"dimensions={{{int_value(op.dimension)}}}"]
    if op.is_stable is not None:
        parts.append("is_stable=true")
    parts.append(to_apply(b, op.comparator, op))
    return ", ".join(parts)


HANDLERS: dict[str, Callable[[Builder, Any], str]] = {
    data_movement.BroadcastOp.name: _broadcast,
    data_movement.TransposeOp.name: _transpose,
    data_movement.SliceOp.name: _slice_op,
    data_movement.DynamicSliceOp.name: _dynamic_slice,
    data_movement.ConcatenateOp.name: _concatenate,
    data_movement.PadOp.name: _pad,
    computation.DotOp.name: _dot,
    computation.ReduceOp.name: _reduce,
    computation.ReduceWindowOp.name: _reduce_window,
    computation.GatherOp.name: _gather,
    computation.ScatterOp.name: _scatter,
    computation.SortOp.name: _sort,
}
