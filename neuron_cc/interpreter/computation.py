"""Interpretation of the hlo computation ops: dot, reduce, reduce_window, gather, scatter, sort.

XLA semantics on values with a leading device axis of size D (operand dimension k is numpy
axis k + 1). Regions (reducers, scatter combiners, comparators) run on whole stacks of elements
at once: every region argument has shape (D, ...), and values of shape (D,) (constants) are
broadcast to the stack (`run_region`). Common regions are recognised and
replaced by numpy: a reducer whose result k is add/multiply/maximum/minimum/and/or of its
arguments k and N+k, a scatter combiner that returns its update (replace), and key
comparators (see sort below).

Decisions (XLA:CPU's observable behaviour):
- dot converts the operands to the result element type and accumulates there (f16/bf16 in
  f32, rounded once; integers wrap in the result type).
- f32/f64 arithmetic of the numpy paths (dot, reduce, reduce_window, scatter) flushes
  denormal inputs and results to zero, like XLA:CPU (FTZ/DAZ); regions get it from the
  elementwise ops. Signed zeros of max/min fast paths follow numpy, not XLA (-0 < +0).
- reduce, reduce_window and scatter follow XLA:CPU's order and roundings (measured with jax
  0.10.2 and --xla_allow_excess_precision=false; tests/test_interp_reduce_rounding.py): every
  step of a fold rounds to the element type (bf16: computed in f32, rounded to bf16, as XLA's
  float normalisation wraps every region op in converts; f16 in f16; f32/f64 with FTZ).
- reduce: a one-input reduce with a reduced dimension longer than 32 is first cut into windows
  (XLA's TreeReductionRewriter): every reduced dimension of size n gets windows of
  w = min(n, 32) with stride w, padded to a multiple of w (the low side takes the smaller half),
  and each window is folded from the init; this repeats on the result until every reduced
  dimension is at most 32 (`reduction_passes`). Variadic reduces skip it. The final reduce and
  every window fold sequentially, acc = init, then acc = f(acc, x) for the elements in
  row-major order of the reduced dimensions (ascending dimension numbers, whatever the order of
  `dimensions`), padding skipped, except that a window dimension padded by one at its end
  runs its last position after all the others (`window_order`). A non-identity init is
  therefore applied once per window of every pass, as in XLA. Add/multiply of floats run that
  loop step by step (vectorised over the windows); the order-free kinds (max, min, and, or,
  and every integer kind) use the ufunc's reduce per window. Exception: XLA:CPU hands a
  one-input f32 add/max/min reduce of at least 4096 elements per device to YNNPACK, which
  applies the init once; its summation order is not modelled (numpy's pairwise order stands
  in for it: the last bits of an f32 sum differ).
- reduce_window: a fold per output over its taps, padding and dilation holes skipped, in the
  order of XLA's loop emitter (`window_order`): row-major, except that XLA's PeelLoops pass
  moves the last position of one window dimension (the innermost whose bounds or hole test
  it removes) into a loop of its own that runs after all the others. A prefix scan - one
  non-trivial window dimension whose window covers the whole dimension of n > 16, stride 1,
  padding n - 1 (inclusive) or n (exclusive) on one side, JAX's cumsum/cumprod/cummax - is
  computed as XLA's ReduceWindowRewriter rewrites it (`scan_last`): padded with the init to a
  multiple of 16, scanned directly per row of 16, the rows' carries scanned exclusively
  (recursively), then step(row value, carry in).
- Not modelled (documented differences): for f32/f16 add/multiply (not bf16, whose converts
  pin the order) XLA emits LLVM `reassoc` arithmetic and LLVM vectorises some small
  multi-dimensional loop nests, e.g. a 4x4 or 32x2 window, or the final 2x4 reduce after the
  tree passes of a 64x100 reduce over both dimensions; a reduce over no dimension returns the
  operand on XLA (init dropped) but init + x here; XLA simplifies regions before recognising
  them (`maximum(c, c)` becomes `c`), the interpreter does not.
- scatter: duplicates combine in update order; the numpy fast path (`ufunc.at`, f16 in f16)
  serves f32/f16 and the order-free kinds, while bf16 add/multiply go through the region, which
  rounds every update like XLA.
- gather clamps each start so the slice fits; scatter skips a whole update window whose start
  does not fit (XLA's ScatterExpander); duplicates combine in update order.
- sort is always stable. A key comparator (`compare LT|GT` of the same scalar function of
  arguments 2k and 2k+1, e.g. JAX's -0/NaN canonicalisation before a TOTALORDER compare, and
  the lexicographic `or(lt, and(eq, ...))` of several keys) becomes numpy stable sorts on the
  key arrays, computed once by running the key function's ops on the whole operand. Any other
  comparator is evaluated on all pairs of a row at once (or pair by pair for very long rows)
  and drives Python's merge sort.

The ops' numerics live in topic modules: regions in `computation_regions`, reduce (and the
order of a window's taps) in `computation_reduce`, reduce_window and prefix scans in
`computation_reduce_window`, key comparators of sort in `computation_sort`; this module holds
dot, scatter's rounds, general comparators of sort, the device axis as a batching dimension
and the interpreter functions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cmp_to_key
from typing import Any

import numpy as np
from xdsl.dialects.builtin import i1
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Attribute, Region, SSAValue

from neuron_cc.dialects.hlo.computation import (
    DotOp,
    GatherOp,
    ReduceOp,
    ReduceWindowOp,
    ScatterOp,
    SortOp,
)
from neuron_cc.dialects.hlo.control_flow import ReturnOp
from neuron_cc.dialects.hlo.dimension_numbers import (
    DotDimensionNumbers,
    GatherDimensionNumbers,
    ScatterDimensionNumbers,
)
from neuron_cc.dialects.hlo.types import tensor_type
from neuron_cc.interpreter.computation_reduce import (
    SEQUENTIAL_KINDS,
    fast_reduce,
    fold_reduce,
    numpy_reduce,
    offloaded_to_ynn,
    rounding_step,
)
from neuron_cc.interpreter.computation_reduce_window import find_scan, reduce_window, scan_window
from neuron_cc.interpreter.computation_regions import (
    UFUNC_KINDS,
    compute_dtype,
    pack,
    reducer_kinds,
    run_region,
    ufunc_for,
)
from neuron_cc.interpreter.computation_sort import comparator_keys, lexicographic_order, sort_keys
from neuron_cc.interpreter.conversions import flush_denormals
from neuron_cc.interpreter.data_movement import ScatterTargets, gather, scatter_targets
from neuron_cc.interpreter.values import is_bf16, normalize, numpy_dtype

Array = np.ndarray[Any, Any]

# --- dot -------------------------------------------------------------------------------------


def dot_general(lhs: Array, rhs: Array, dn: DotDimensionNumbers, dtype: np.dtype[Any]) -> Array:
    """XLA DotGeneral of (D, ...) stacks: result = batch, lhs free, rhs free dims.

    One batched `np.matmul` (BLAS for floats) of the operands transposed to (batch, free,
    contracting) and (batch, contracting, free); the device axis is one more batch dimension.
    """
    l_batch = [0, *(1 + d for d in dn.lhs_batch)]
    r_batch = [0, *(1 + d for d in dn.rhs_batch)]
    l_contract = [1 + d for d in dn.lhs_contracting]
    r_contract = [1 + d for d in dn.rhs_contracting]
    l_free = [d for d in range(lhs.ndim) if d not in {*l_batch, *l_contract}]
    r_free = [d for d in range(rhs.ndim) if d not in {*r_batch, *r_contract}]
    compute = np.dtype(np.int64) if dtype == np.bool_ else compute_dtype(dtype)
    a = flush_denormals(lhs.astype(compute, copy=False)).transpose(l_batch + l_free + l_contract)
    b = flush_denormals(rhs.astype(compute, copy=False)).transpose(r_batch + r_contract + r_free)
    batch = a.shape[: len(l_batch)]
    m_shape = a.shape[len(l_batch) : len(l_batch) + len(l_free)]
    n_shape = b.shape[len(r_batch) + len(r_contract) :]
    k = math.prod(a.shape[len(l_batch) + len(l_free) :])
    product = np.matmul(
        a.reshape(math.prod(batch), math.prod(m_shape), k),
        b.reshape(math.prod(batch), k, math.prod(n_shape)),
    )
    return flush_denormals(product.reshape(*batch, *m_shape, *n_shape))


# --- scatter ---------------------------------------------------------------------------------


def _last_occurrences(keys: Array) -> Array:
    """Positions of the last occurrence of each distinct key."""
    _, first_in_reversed = np.unique(keys[::-1], return_index=True)
    return keys.shape[0] - 1 - first_in_reversed


def _occurrence_rank(keys: Array) -> Array:
    """For each key, how many equal keys come before it."""
    order = np.argsort(keys, kind="stable")
    _, first, inverse = np.unique(keys[order], return_index=True, return_inverse=True)
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0]) - first[inverse]
    return rank


def _scatter_rounds(
    interpreter: Interpreter,
    region: Region,
    outs: list[Array],
    updates: Sequence[Array],
    targets: ScatterTargets,
    elements: Sequence[Attribute],
) -> None:
    """Combine updates with the region, in update order: round r applies, on every device, the
    r-th update of each destination; arguments are (D, max updates per device in the round)."""
    devices = outs[0].shape[0]
    if targets.keys.size == 0:
        return
    rank = _occurrence_rank(targets.keys)
    for r in range(int(rank.max()) + 1):
        sel = np.nonzero(rank == r)[0]
        dev, pos = targets.device[sel], targets.position[sel]
        counts = np.bincount(dev, minlength=devices)
        column = np.arange(sel.shape[0]) - (np.cumsum(counts) - counts)[dev]
        width = int(counts.max())
        current = [_padded(o[dev, pos], dev, column, (devices, width)) for o in outs]
        incoming = [_padded(u[sel], dev, column, (devices, width)) for u in updates]
        new = run_region(
            interpreter, region, [*current, *incoming], (devices, width), elements, "scatter"
        )
        for o, n in zip(outs, new, strict=True):
            o[dev, pos] = n[dev, column]


def _padded(values: Array, dev: Array, column: Array, shape: tuple[int, int]) -> Array:
    """Scatter `values` into a (D, width) array; unused slots repeat the first value."""
    out = np.full(shape, values[0], dtype=values.dtype)
    out[dev, column] = values
    return out


def _scatter_fast(kind: str, out: Array, update: Array, targets: ScatterTargets) -> None:
    flat_out = out.reshape(-1)
    if kind == "keep":
        return
    if kind == "replace":
        last = _last_occurrences(targets.keys)
        flat_out[targets.keys[last]] = update[last]
        return
    keys = targets.keys
    flat_out[keys] = flush_denormals(flat_out[keys])
    ufunc_for(kind, out.dtype).at(flat_out, keys, flush_denormals(update))
    flat_out[keys] = flush_denormals(flat_out[keys])


# --- sort: general comparators ---------------------------------------------------------------

_PAIRWISE_LIMIT = 1 << 24


def _less_matrix(interpreter: Interpreter, region: Region, rows: Sequence[Array]) -> Array:
    """less[..., i, j] = comparator(row_i, row_j) for every pair of every row, in one call."""
    shape = (*rows[0].shape, rows[0].shape[-1])
    args: list[Array] = []
    for r in rows:
        args += [np.broadcast_to(r[..., :, None], shape), np.broadcast_to(r[..., None, :], shape)]
    (less,) = run_region(interpreter, region, args, shape, [i1], "sort.comparator")
    return less


def _pair_comparator(
    interpreter: Interpreter, region: Region, rows: Sequence[Array], pos: tuple[int, ...]
) -> Callable[[int, int], bool]:
    """comparator(row_i, row_j) of the row at `pos` (device first), one region call per pair;
    every device gets the pair, the row's device answers."""
    devices = rows[0].shape[0]

    def less(i: int, j: int) -> bool:
        args: list[Array] = []
        for r in rows:
            args += [np.full((devices,), r[(*pos, i)]), np.full((devices,), r[(*pos, j)])]
        (result,) = run_region(interpreter, region, args, (devices,), [i1], "sort.comparator")
        return bool(result[pos[0]])

    return less


def _sorted_positions(n: int, less: Callable[[int, int], bool]) -> list[int]:
    def cmp(i: int, j: int) -> int:
        if less(i, j):
            return -1
        return 1 if less(j, i) else 0

    return sorted(range(n), key=cmp_to_key(cmp))


def general_sort_order(interpreter: Interpreter, region: Region, rows: Sequence[Array]) -> Array:
    """The stable order of each row (last axis) under an arbitrary comparator region."""
    shape = rows[0].shape
    n = shape[-1]
    order = np.empty(shape, dtype=np.int64)
    if int(np.prod(shape, dtype=np.int64)) * n <= _PAIRWISE_LIMIT:
        less = _less_matrix(interpreter, region, rows)
        for pos in np.ndindex(*shape[:-1]):
            matrix = less[pos]
            order[pos] = _sorted_positions(n, lambda i, j: bool(matrix[i, j]))
        return order
    for pos in np.ndindex(*shape[:-1]):
        order[pos] = _sorted_positions(n, _pair_comparator(interpreter, region, rows, pos))
    return order


# --- the device axis as a batching dimension -------------------------------------------------


def _up(dims: Sequence[int]) -> tuple[int, ...]:
    return tuple(d + 1 for d in dims)


def gather_with_devices(dn: GatherDimensionNumbers) -> GatherDimensionNumbers:
    """`dn` for (D, ...) operands: the device axis is an extra leading batching dimension."""
    return GatherDimensionNumbers(
        offset_dims=_up(dn.offset_dims),
        collapsed_slice_dims=_up(dn.collapsed_slice_dims),
        start_index_map=_up(dn.start_index_map),
        index_vector_dim=dn.index_vector_dim + 1,
        operand_batching_dims=(0, *_up(dn.operand_batching_dims)),
        start_indices_batching_dims=(0, *_up(dn.start_indices_batching_dims)),
    )


def scatter_with_devices(dn: ScatterDimensionNumbers) -> ScatterDimensionNumbers:
    """`dn` for (D, ...) operands: the device axis is an extra leading batching dimension."""
    return ScatterDimensionNumbers(
        update_window_dims=_up(dn.update_window_dims),
        inserted_window_dims=_up(dn.inserted_window_dims),
        scatter_dims_to_operand_dims=_up(dn.scatter_dims_to_operand_dims),
        index_vector_dim=dn.index_vector_dim + 1,
        input_batching_dims=(0, *_up(dn.input_batching_dims)),
        scatter_indices_batching_dims=(0, *_up(dn.scatter_indices_batching_dims)),
    )


def _elements(values: Sequence[SSAValue]) -> list[Attribute]:
    return [tensor_type(v).element_type for v in values]


def _as_elements(values: Sequence[Any], elements: Sequence[Attribute]) -> list[Array]:
    return [normalize(np.asarray(v), e) for v, e in zip(values, elements, strict=True)]


def _fast_kinds(region: Region, allowed: frozenset[str]) -> list[str] | None:
    kinds = reducer_kinds(region)
    return kinds if kinds is not None and allowed.issuperset(kinds) else None


_SCATTER_KINDS = UFUNC_KINDS | {"replace", "keep"}


def _rounds_every_update(kinds: Sequence[str], elements: Sequence[Attribute]) -> bool:
    """A bf16 add/multiply scatter: numpy's `ufunc.at` on the f32 storage cannot round to bf16
    after each update, as XLA:CPU does (f16 is stored as f16, so `at` rounds it)."""
    return any(is_bf16(e) and k in SEQUENTIAL_KINDS for k, e in zip(kinds, elements, strict=True))


@register_impls
class HloComputationFunctions(InterpreterFunctions):
    """dot, reduce, reduce_window, gather, scatter, sort."""

    @impl(DotOp)
    def run_dot(self, interpreter: Interpreter, op: DotOp, args: PythonValues) -> PythonValues:
        element = tensor_type(op.result).element_type
        with np.errstate(all="ignore"):
            out = dot_general(args[0], args[1], op.dot_dimension_numbers.data, numpy_dtype(element))
        return (normalize(np.ascontiguousarray(out), element),)

    @impl(ReduceOp)
    def run_reduce(
        self, interpreter: Interpreter, op: ReduceOp, args: PythonValues
    ) -> PythonValues:
        n = len(op.inputs)
        elements = _elements(op.init_values)
        inputs = _as_elements(args[:n], elements)
        inits = [np.asarray(v) for v in args[n:]]
        axes = [1 + d for d in op.dimensions.data]
        kinds = _fast_kinds(op.body, UFUNC_KINDS)
        with np.errstate(all="ignore"):
            if kinds is not None and offloaded_to_ynn(inputs[0], axes, kinds, elements[0]):
                outs = [numpy_reduce(inputs[0], inits[0], axes, kinds[0])]
            elif kinds is not None:
                outs = [
                    fast_reduce(x, i, axes, k, e, tree=n == 1)
                    for x, i, k, e in zip(inputs, inits, kinds, elements, strict=True)
                ]
            else:
                outs = fold_reduce(interpreter, op.body, inputs, inits, axes, elements)
        return (pack(outs, op.result.type),)

    @impl(ReduceWindowOp)
    def run_reduce_window(
        self, interpreter: Interpreter, op: ReduceWindowOp, args: PythonValues
    ) -> PythonValues:
        n = len(op.inputs)
        elements = _elements(op.init_values)
        inputs = _as_elements(args[:n], elements)
        inits = [np.asarray(v) for v in args[n:]]
        kinds = _fast_kinds(op.body, UFUNC_KINDS)
        if kinds is not None:
            inputs = [flush_denormals(x) for x in inputs]
            steps = [rounding_step(k, e) for k, e in zip(kinds, elements, strict=True)]

            def step(acc: list[Array], taps: list[Array]) -> list[Array]:
                return [s(flush_denormals(a), t) for s, a, t in zip(steps, acc, taps)]
        else:

            def step(acc: list[Array], taps: list[Array]) -> list[Array]:
                shape = acc[0].shape
                return run_region(
                    interpreter, op.body, [*acc, *taps], shape, elements, "reduce_window"
                )

        window = op.window.data
        scan = find_scan(inputs[0].shape[1:], window)
        with np.errstate(all="ignore"):
            if scan is not None:
                outs = scan_window(step, inputs, inits, scan)
            else:
                outs = reduce_window(step, inputs, inits, window)
        return (pack(outs, op.result.type),)

    @impl(GatherOp)
    def run_gather(
        self, interpreter: Interpreter, op: GatherOp, args: PythonValues
    ) -> PythonValues:
        dn = gather_with_devices(op.dimension_numbers.data)
        out = gather(np.asarray(args[0]), np.asarray(args[1]), dn, (1, *op.slice_sizes.data))
        element = tensor_type(op.result).element_type
        return (normalize(np.ascontiguousarray(out), element),)

    @impl(ScatterOp)
    def run_scatter(
        self, interpreter: Interpreter, op: ScatterOp, args: PythonValues
    ) -> PythonValues:
        n = len(op.inputs)
        elements = _elements(op.inputs)
        kinds = _fast_kinds(op.update_computation, _SCATTER_KINDS)
        if kinds is not None and _rounds_every_update(kinds, elements):
            kinds = None  # bf16 add/multiply: the region's own bf16 ops round every update
        outs = [np.array(x) for x in _as_elements(args[:n], elements)]
        raw_updates = args[n + 1 :]
        dn = scatter_with_devices(op.dimension_numbers.data)
        full, valid, perm = scatter_targets(
            outs[0].shape, np.asarray(args[n]), raw_updates[0].shape, dn
        )
        targets = ScatterTargets(outs[0].shape, full, valid)
        devices = outs[0].shape[0]
        updates = [
            u.transpose(perm).reshape(devices, -1)[targets.mask].astype(o.dtype)
            for u, o in zip(_as_elements(raw_updates, elements), outs, strict=True)
        ]
        with np.errstate(all="ignore"):
            if kinds is not None:
                for kind, o, u in zip(kinds, outs, updates, strict=True):
                    _scatter_fast(kind, o, u, targets)
            else:
                flat = [o.reshape(devices, -1) for o in outs]
                _scatter_rounds(
                    interpreter, op.update_computation, flat, updates, targets, elements
                )
        return (pack(outs, op.result.type),)

    @impl(SortOp)
    def run_sort(self, interpreter: Interpreter, op: SortOp, args: PythonValues) -> PythonValues:
        axis = op.dimension.value.data + 1
        operands = [np.asarray(a) for a in args]
        order = self._key_order(interpreter, op, operands, axis)
        if order is None:
            rows = [np.moveaxis(o, axis, -1) for o in operands]
            order = np.moveaxis(general_sort_order(interpreter, op.comparator, rows), -1, axis)
        outs = [np.take_along_axis(o, order, axis) for o in operands]
        return (pack(outs, op.result.type),)

    def _key_order(
        self, interpreter: Interpreter, op: SortOp, operands: Sequence[Array], axis: int
    ) -> Array | None:
        """The order from the comparator's keys, or None if it is not a key comparator."""
        last = op.comparator.block.last_op
        if not isinstance(last, ReturnOp) or len(last.results_) != 1:
            return None
        keys = comparator_keys(last.results_[0], op.comparator.block)
        if keys is None:
            return None
        with np.errstate(all="ignore"):
            arrays = sort_keys(interpreter, op.comparator, keys, operands)
        if arrays is None:
            return None
        return lexicographic_order(arrays, [k.descending for k in keys], axis)
