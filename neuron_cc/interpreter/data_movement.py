"""Interpretation of the hlo data-movement ops (docs/interpreter.md §7).

reshape, bitcast, copy, broadcast, transpose, slice, dynamic_slice, dynamic_update_slice,
concatenate and pad, with XLA semantics. Every value carries a leading device axis of size D, so
operand dimension k is numpy axis k + 1. Runtime start indices (dynamic_slice,
dynamic_update_slice) and the pad value are per-device scalars of shape (D,): devices may use
different indices, and each start is clamped into [0, dim - size] as XLA does. The indexing
of gather and scatter (used by `computation.py`) lives here too: the device axis is handled as
one more batching dimension of the operand and the indices.

bitcast reinterprets the PHYSICAL buffer, so it honours non-default layouts: the operand's layout
comes from the `xla.shape` attribute of its producer (or of the function argument, or the
producer bitcast's `layout`), the result's from the op's `layout` property or its own
`xla.shape`; with default layouts on both sides a bitcast is a row-major reshape.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, BlockArgument, OpResult, SSAValue

from neuron_cc.dialects.hlo.data_movement import (
    BitcastOp,
    BroadcastOp,
    ConcatenateOp,
    CopyOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    PadOp,
    ReshapeOp,
    SliceOp,
    TransposeOp,
)
from neuron_cc.dialects.hlo.dimension_numbers import (
    GatherDimensionNumbers,
    ScatterDimensionNumbers,
)
from neuron_cc.dialects.hlo.types import shape_of, tensor_type
from neuron_cc.interpreter.values import normalize

Array = np.ndarray[Any, Any]
Shape = tuple[int, ...]

_SHAPE_LAYOUT = re.compile(r"^\s*\w+\[([0-9,\s]*)\]\{([0-9,\s]*)(?::[^}]*)?\}\s*$")


def _element(value: SSAValue) -> Attribute:
    return tensor_type(value).element_type


def to_int64(index: Array) -> Array:
    """Runtime indices as int64 (huge unsigned values saturate instead of wrapping)."""
    if index.dtype == np.uint64:
        index = np.minimum(index, np.uint64(np.iinfo(np.int64).max))
    return index.astype(np.int64)


# --- layouts (bitcast) -----------------------------------------------------------------------


def parse_layout(text: str, shape: Sequence[int]) -> tuple[int, ...] | None:
    """The minor-to-major list of an XLA array shape text like `f32[4,8]{0,1}`.

    None when the text has no layout, is a tuple/token shape, or describes other dimensions
    than `shape` (a stale annotation).
    """
    match = _SHAPE_LAYOUT.match(text)
    if match is None:
        return None
    dims = tuple(int(v) for v in match.group(1).replace(" ", "").split(",") if v)
    layout = tuple(int(v) for v in match.group(2).replace(" ", "").split(",") if v)
    if dims != tuple(shape) or sorted(layout) != list(range(len(shape))):
        return None
    return layout


def _shape_attr_layout(attr: Attribute | None, shape: Sequence[int]) -> tuple[int, ...] | None:
    if not isinstance(attr, StringAttr):
        return None
    return parse_layout(attr.data, shape)


def _argument_layout(arg: BlockArgument, shape: Sequence[int]) -> tuple[int, ...] | None:
    """The layout of a function argument's `xla.shape` argument attribute."""
    parent = arg.block.parent_op()
    if not isinstance(parent, FuncOp) or not isinstance(parent.arg_attrs, ArrayAttr):
        return None
    attrs = parent.arg_attrs.data
    if arg.index >= len(attrs) or not isinstance(attrs[arg.index], DictionaryAttr):
        return None
    return _shape_attr_layout(attrs[arg.index].data.get("xla.shape"), shape)


def value_layout(value: SSAValue) -> tuple[int, ...]:
    """The minor-to-major layout of `value` recorded in the IR, XLA's default otherwise."""
    shape = shape_of(value)
    layout: tuple[int, ...] | None = None
    if isinstance(value, OpResult):
        producer = value.op
        if isinstance(producer, BitcastOp) and producer.layout is not None:
            layout = tuple(producer.layout.data)
        else:
            layout = _shape_attr_layout(producer.attributes.get("xla.shape"), shape)
    elif isinstance(value, BlockArgument):
        layout = _argument_layout(value, shape)
    return layout if layout is not None else tuple(range(len(shape) - 1, -1, -1))


def _bitcast_result_layout(op: BitcastOp) -> tuple[int, ...]:
    shape = shape_of(op.result)
    if op.layout is not None:
        return tuple(op.layout.data)
    layout = _shape_attr_layout(op.attributes.get("xla.shape"), shape)
    return layout if layout is not None else tuple(range(len(shape) - 1, -1, -1))


def to_physical(x: Array, layout: Sequence[int]) -> Array:
    """Per device, the elements of `x` in buffer order (major-to-minor), flattened."""
    major_to_minor = [1 + d for d in reversed(layout)]
    return x.transpose([0, *major_to_minor]).reshape(x.shape[0], -1)


def from_physical(flat: Array, shape: Sequence[int], layout: Sequence[int]) -> Array:
    """The logical array of `shape` whose buffer (in `layout`) holds `flat` per device."""
    major_to_minor = list(reversed(layout))
    physical = flat.reshape(flat.shape[0], *(shape[d] for d in major_to_minor))
    inverse = np.argsort(major_to_minor)
    return physical.transpose([0, *(1 + int(p) for p in inverse)])


# --- slicing helpers -------------------------------------------------------------------------


def clamped_starts(indices: Sequence[Array], dims: Sequence[int], sizes: Sequence[int]) -> Array:
    """(D, rank) start indices, each clamped into [0, dim - size] (XLA's rule)."""
    columns = [
        np.clip(to_int64(np.asarray(i).reshape(-1)), 0, dim - size)
        for i, dim, size in zip(indices, dims, sizes, strict=True)
    ]
    if not columns:
        return np.zeros((0, 0), dtype=np.int64)
    return np.stack(columns, axis=1)


def _window(start: Array, sizes: Sequence[int]) -> tuple[slice, ...]:
    return tuple(slice(int(s), int(s) + n) for s, n in zip(start, sizes, strict=True))


def dynamic_slice(x: Array, indices: Sequence[Array], sizes: Sequence[int]) -> Array:
    """Per-device clamped dynamic slice of the (D, ...) array `x`."""
    devices = x.shape[0]
    starts = clamped_starts(indices, x.shape[1:], sizes)
    if not sizes:
        return x.copy()
    if (starts == starts[0]).all():
        return x[(slice(None), *_window(starts[0], sizes))].copy()
    out = np.empty((devices, *sizes), dtype=x.dtype)
    for d in range(devices):
        out[d] = x[(d, *_window(starts[d], sizes))]
    return out


def dynamic_update_slice(x: Array, update: Array, indices: Sequence[Array]) -> Array:
    """Per-device clamped overwrite of a window of `x` by `update`."""
    sizes = update.shape[1:]
    starts = clamped_starts(indices, x.shape[1:], sizes)
    out = x.copy()
    if not sizes:
        out[...] = update
        return out
    if (starts == starts[0]).all():
        out[(slice(None), *_window(starts[0], sizes))] = update
        return out
    for d in range(x.shape[0]):
        out[(d, *_window(starts[d], sizes))] = update[d]
    return out


def pad(
    x: Array, value: Array, low: Sequence[int], high: Sequence[int], interior: Sequence[int]
) -> Array:
    """XLA pad of the (D, ...) array `x` with the per-device scalar `value`.

    Built with the non-negative part of the edge padding, then cropped by the negative part.
    """
    devices = x.shape[0]
    grown: list[int] = []
    placed: list[slice] = []
    crop: list[slice] = []
    for size, lo, hi, gap in zip(x.shape[1:], low, high, interior, strict=True):
        core = size + max(size - 1, 0) * gap
        before, after = max(lo, 0), max(hi, 0)
        grown.append(before + core + after)
        placed.append(slice(before, before + core, gap + 1))
        crop.append(slice(max(-lo, 0), before + core + after - max(-hi, 0)))
    fill = np.asarray(value).reshape(devices, *([1] * len(grown)))
    out = np.empty((devices, *grown), dtype=x.dtype)
    out[...] = fill
    out[(slice(None), *placed)] = x
    return out[(slice(None), *crop)]


def broadcast_in_dims(x: Array, shape: Sequence[int], dims: Sequence[int]) -> Array:
    """XLA broadcast: operand dimension i becomes result dimension dims[i]."""
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    moved = x.transpose([0, *(1 + i for i in order)])
    expanded = [shape[d] if d in dims else 1 for d in range(len(shape))]
    out = np.empty((x.shape[0], *shape), dtype=x.dtype)
    out[...] = moved.reshape(x.shape[0], *expanded)  # broadcasting copy (no broadcast_to view)
    return out


# --- gather / scatter indexing ------------------------------------------------------------------------


def _index_vectors(indices: Array, ivd: int) -> Array:
    """The indices with the index vector as the last axis, as int64."""
    moved = indices[..., None] if ivd == indices.ndim else np.moveaxis(indices, ivd, -1)
    return to_int64(moved)


def along(values: Array, axis: int, rank: int) -> Array:
    """A 1-D array laid along `axis` of a rank-`rank` broadcastable shape."""
    shape = [1] * rank
    shape[axis] = values.shape[0]
    return values.reshape(shape)


def _batch_position(indices_dim: int, ivd: int) -> int:
    return indices_dim if indices_dim < ivd else indices_dim - 1


def _starts(
    vectors: Array,
    index_map: Sequence[int],
    batching: tuple[Sequence[int], Sequence[int]],
    ivd: int,
    rank: int,
) -> list[Array]:
    """Per operand dimension, the start index of every batch position (unclamped)."""
    batch = vectors.shape[:-1]
    operand_batching, indices_batching = batching
    starts: list[Array] = []
    for d in range(rank):
        if d in index_map:
            start = vectors[..., index_map.index(d)]
        elif d in operand_batching:
            pos = _batch_position(indices_batching[operand_batching.index(d)], ivd)
            start = along(np.arange(batch[pos], dtype=np.int64), pos, len(batch))
        else:
            start = np.zeros((1,) * len(batch), dtype=np.int64)
        starts.append(np.broadcast_to(start, batch))
    return starts


def _interleave_axes(window_dims: Sequence[int], batch_rank: int) -> list[int]:
    """Source axis (batch axes first, then window axes) of each dimension of a layout that puts
    the window axes at `window_dims` and the batch axes elsewhere, in order."""
    rank = batch_rank + len(window_dims)
    batch_axes = iter(range(batch_rank))
    return [
        batch_rank + window_dims.index(r) if r in window_dims else next(batch_axes)
        for r in range(rank)
    ]


def _full_indices(
    starts: Sequence[Array], windows: Sequence[tuple[int, int]], nwin: int
) -> tuple[Array, ...]:
    """Operand index of every (batch..., window...) position: start + window offset.

    `windows` holds (operand dim, window size) for the window dims in order."""
    batch_rank = starts[0].ndim
    rank = batch_rank + nwin
    full: list[Array] = []
    for d, start in enumerate(starts):
        index = start.reshape(start.shape + (1,) * nwin)
        for j, (wd, size) in enumerate(windows):
            if wd == d:
                index = index + along(np.arange(size, dtype=np.int64), batch_rank + j, rank)
        full.append(index)
    shape = np.broadcast_shapes(*(f.shape for f in full)) if full else ()
    return tuple(np.broadcast_to(f, shape) for f in full)


def gather(
    operand: Array, indices: Array, dn: GatherDimensionNumbers, sizes: Sequence[int]
) -> Array:
    """XLA gather (with batching dims), start indices clamped so every slice fits."""
    rank = operand.ndim
    vectors = _index_vectors(indices, dn.index_vector_dim)
    batching = (dn.operand_batching_dims, dn.start_indices_batching_dims)
    starts = _starts(vectors, dn.start_index_map, batching, dn.index_vector_dim, rank)
    starts = [np.clip(s, 0, operand.shape[d] - sizes[d]) for d, s in enumerate(starts)]
    dropped = {*dn.collapsed_slice_dims, *dn.operand_batching_dims}
    windows = [(d, sizes[d]) for d in range(rank) if d not in dropped]
    full = _full_indices(starts, windows, len(windows))
    batch = vectors.shape[:-1]
    out = operand[full] if full else operand.reshape(()).copy()
    out = np.broadcast_to(out, (*batch, *(s for _, s in windows)))
    return out.transpose(_interleave_axes(list(dn.offset_dims), len(batch)))


def scatter_targets(
    operand_shape: Shape, indices: Array, updates_shape: Shape, dn: ScatterDimensionNumbers
) -> tuple[tuple[Array, ...], Array, list[int]]:
    """The operand index of each update element in canonical order (batch axes, then window
    axes), the validity of each (its whole window fits), and the axis permutation that brings
    the updates into that order."""
    rank = len(operand_shape)
    vectors = _index_vectors(indices, dn.index_vector_dim)
    batching = (dn.input_batching_dims, dn.scatter_indices_batching_dims)
    starts = _starts(vectors, dn.scatter_dims_to_operand_dims, batching, dn.index_vector_dim, rank)
    skipped = {*dn.inserted_window_dims, *dn.input_batching_dims}
    window_dims = [d for d in range(rank) if d not in skipped]
    windows = [
        (d, updates_shape[u]) for d, u in zip(window_dims, dn.update_window_dims, strict=True)
    ]
    sizes = dict(windows)
    valid = np.ones(vectors.shape[:-1], dtype=np.bool_)
    for d, start in enumerate(starts):
        valid &= (start >= 0) & (start <= operand_shape[d] - sizes.get(d, 1))
    full = _full_indices(starts, windows, len(windows))
    valid = np.broadcast_to(valid.reshape(valid.shape + (1,) * len(windows)), full[0].shape)
    scatter_dims = [u for u in range(len(updates_shape)) if u not in dn.update_window_dims]
    return full, valid, [*scatter_dims, *dn.update_window_dims]


class ScatterTargets:
    """Flattened scatter destinations: device and flat operand position of each valid update."""

    def __init__(self, operand_shape: Shape, full: tuple[Array, ...], valid: Array) -> None:
        devices = operand_shape[0]
        self.size = int(np.prod(operand_shape[1:], dtype=np.int64))
        mask = valid.reshape(devices, -1) & (self.size > 0)
        inner = [np.where(valid, f, 0) for f in full[1:]] if self.size else []
        flat = (
            np.ravel_multi_index(inner, operand_shape[1:])
            if inner
            else np.zeros(valid.shape, np.int64)
        )
        flat = np.asarray(flat).reshape(devices, -1)
        device = np.broadcast_to(np.arange(devices)[:, None], flat.shape)
        self.mask = mask
        self.device = device[mask]
        self.position = flat[mask]
        self.keys = self.device * self.size + self.position


@register_impls
class HloDataMovementFunctions(InterpreterFunctions):
    """reshape, bitcast, copy, broadcast, transpose, slices, concatenate, pad."""

    @impl(ReshapeOp)
    def run_reshape(
        self, interpreter: Interpreter, op: ReshapeOp, args: PythonValues
    ) -> PythonValues:
        x: Array = args[0]
        out = x.reshape(x.shape[0], *shape_of(op.result))
        return (normalize(out, _element(op.result)),)

    @impl(BitcastOp)
    def run_bitcast(
        self, interpreter: Interpreter, op: BitcastOp, args: PythonValues
    ) -> PythonValues:
        """Reinterpret the physical buffer.

        The operand's elements are read in buffer order (transposed major-to-minor by the
        operand's layout and flattened), then laid out as the result's physical dims and
        transposed back by the result's layout. Default layouts make this a reshape.
        """
        x: Array = args[0]
        flat = to_physical(x, value_layout(op.operand))
        out = from_physical(flat, shape_of(op.result), _bitcast_result_layout(op))
        return (normalize(np.ascontiguousarray(out), _element(op.result)),)

    @impl(CopyOp)
    def run_copy(self, interpreter: Interpreter, op: CopyOp, args: PythonValues) -> PythonValues:
        return (normalize(np.array(args[0]), _element(op.result)),)

    @impl(BroadcastOp)
    def run_broadcast(
        self, interpreter: Interpreter, op: BroadcastOp, args: PythonValues
    ) -> PythonValues:
        out = broadcast_in_dims(args[0], shape_of(op.result), op.dimensions.data)
        return (normalize(out, _element(op.result)),)

    @impl(TransposeOp)
    def run_transpose(
        self, interpreter: Interpreter, op: TransposeOp, args: PythonValues
    ) -> PythonValues:
        x: Array = args[0]
        out = np.ascontiguousarray(x.transpose([0, *(1 + p for p in op.permutation.data)]))
        return (normalize(out, _element(op.result)),)

    @impl(SliceOp)
    def run_slice(self, interpreter: Interpreter, op: SliceOp, args: PythonValues) -> PythonValues:
        x: Array = args[0]
        bounds = zip(op.start_indices.data, op.limit_indices.data, op.strides.data, strict=True)
        out = x[(slice(None), *(slice(s, e, st) for s, e, st in bounds))].copy()
        return (normalize(out, _element(op.result)),)

    @impl(DynamicSliceOp)
    def run_dynamic_slice(
        self, interpreter: Interpreter, op: DynamicSliceOp, args: PythonValues
    ) -> PythonValues:
        out = dynamic_slice(args[0], args[1:], op.slice_sizes.data)
        return (normalize(out, _element(op.result)),)

    @impl(DynamicUpdateSliceOp)
    def run_dynamic_update_slice(
        self, interpreter: Interpreter, op: DynamicUpdateSliceOp, args: PythonValues
    ) -> PythonValues:
        out = dynamic_update_slice(args[0], args[1], args[2:])
        return (normalize(out, _element(op.result)),)

    @impl(ConcatenateOp)
    def run_concatenate(
        self, interpreter: Interpreter, op: ConcatenateOp, args: PythonValues
    ) -> PythonValues:
        out = np.concatenate(args, axis=op.dimension.value.data + 1)
        return (normalize(out, _element(op.result)),)

    @impl(PadOp)
    def run_pad(self, interpreter: Interpreter, op: PadOp, args: PythonValues) -> PythonValues:
        out = pad(
            args[0],
            args[1],
            op.edge_padding_low.data,
            op.edge_padding_high.data,
            op.interior_padding.data,
        )
        return (normalize(np.ascontiguousarray(out), _element(op.result)),)
