"""Interpreter of the hlo ops added for issue 17: reverse, convolution (`convolution.py`),
select_and_scatter, map and topk, each on (D, ...) stacks with XLA:CPU's semantics.

- select_and_scatter visits each window's in-bounds positions in row-major order and keeps
  the current pick while `select(current, candidate)` holds, then scatters the windows in
  row-major order of the source, rounding after every step, as XLA:CPU's loops do. Dilated
  windows are refused (XLA's CPU emitter has none either).
- topk orders floats by XLA:CPU's total order (runtime_topk.cc: -NaN < -inf < -0 < +0 < inf
  < NaN), equal keys by ascending index, for `largest = false` ascending.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.convolution import ConvolutionOp
from neuron_cc.dialects.hlo.data_movement import ReverseOp
from neuron_cc.dialects.hlo.elementwise_map import MapOp
from neuron_cc.dialects.hlo.select_and_scatter import SelectAndScatterOp
from neuron_cc.dialects.hlo.topk import TopKOp
from neuron_cc.dialects.hlo.types import tensor_type
from neuron_cc.interpreter.computation_regions import (
    UFUNC_KINDS,
    reducer_kinds,
    run_region,
    ufunc_for,
)
from neuron_cc.interpreter.computation_sort import stable_order, total_order_key
from neuron_cc.interpreter.convolution import convolution
from neuron_cc.interpreter.values import InterpretationError, normalize, numpy_dtype

Array = np.ndarray[Any, Any]


def _element(t: Attribute) -> Attribute:
    return tensor_type(t).element_type


def _window_picks(
    interpreter: Interpreter, op: SelectAndScatterOp, x: Array
) -> tuple[Array, Array]:
    """Per window (D, *source shape): the flat operand index picked, and whether any was."""
    w = op.window.data
    devices, shape = x.shape[0], x.shape[1:]
    out = list(tensor_type(op.source).get_shape())
    element = _element(op.operand.type)
    picked = np.zeros((devices, *out), np.int64)
    current = np.zeros((devices, *out), x.dtype)
    has = np.zeros(tuple(out), bool)
    strides = np.cumprod([1, *shape[::-1]])[:-1][::-1]
    for tap in np.ndindex(*w.size):
        positions = [
            np.arange(out[k]) * w.stride[k] + tap[k] - w.padding[k][0] for k in range(len(shape))
        ]
        valid = np.ones(tuple(out), bool)
        flat = np.zeros(tuple(out), np.int64)
        for k, p in enumerate(positions):
            axis = [1] * len(shape)
            axis[k] = out[k]
            inside = (p >= 0) & (p < shape[k])
            valid = valid & inside.reshape(axis)
            flat = flat + (np.clip(p, 0, shape[k] - 1) * strides[k]).reshape(axis)
        candidate = np.take(x.reshape(devices, -1), flat.reshape(1, -1), axis=1)
        candidate = candidate.reshape(devices, *out)
        first = valid & ~has
        later = valid & has
        take = np.broadcast_to(first, (devices, *out)).copy()
        if later.any():
            keep = run_region(
                interpreter, op.select, [current, candidate], current.shape, [element], "select"
            )[0].astype(bool)
            take |= later & ~keep
        current = np.where(take, candidate, current)
        picked = np.where(take, flat, picked)
        has = has | valid
    return picked, has


@register_impls
class HloStructuredFunctions(InterpreterFunctions):
    """reverse, convolution, select_and_scatter, map, topk."""

    @impl(ReverseOp)
    def run_reverse(
        self, interpreter: Interpreter, op: ReverseOp, args: PythonValues
    ) -> PythonValues:
        axes = tuple(1 + d for d in op.dimensions.data)
        return (np.ascontiguousarray(np.flip(np.asarray(args[0]), axes)),)

    @impl(ConvolutionOp)
    def run_convolution(
        self, interpreter: Interpreter, op: ConvolutionOp, args: PythonValues
    ) -> PythonValues:
        element = _element(op.result.type)
        fgc = 1 if op.feature_group_count is None else op.feature_group_count.value.data
        bgc = 1 if op.batch_group_count is None else op.batch_group_count.value.data
        rank = len(op.window.data.size)
        reversal = (0,) * rank if op.window_reversal is None else op.window_reversal.data
        with np.errstate(all="ignore"):
            out = convolution(
                np.asarray(args[0]),
                np.asarray(args[1]),
                op.dims(),
                op.window.data,
                (fgc, bgc),
                reversal,
                numpy_dtype(element),
            )
        return (normalize(np.ascontiguousarray(out), element),)

    @impl(SelectAndScatterOp)
    def run_select_and_scatter(
        self, interpreter: Interpreter, op: SelectAndScatterOp, args: PythonValues
    ) -> PythonValues:
        w = op.window.data
        if any(v != 1 for v in (*w.base_dilation, *w.window_dilation)):
            raise InterpretationError("select_and_scatter with a dilated window is not supported")
        x, source, init = (np.asarray(a) for a in args)
        element = _element(op.operand.type)
        devices = x.shape[0]
        with np.errstate(all="ignore"):
            picked, has = _window_picks(interpreter, op, x)
            result = np.broadcast_to(init.reshape(devices, 1), (devices, x[0].size)).copy()
            kinds = reducer_kinds(op.scatter)
            ufunc = None
            if kinds is not None and kinds[0] in UFUNC_KINDS:
                ufunc = ufunc_for(kinds[0], x.dtype)
            rows = np.arange(devices)
            src = source.reshape(devices, -1)
            targets = picked.reshape(devices, -1)
            for k in np.flatnonzero(has.reshape(-1)):
                idx = targets[:, k]
                old = result[rows, idx]
                if ufunc is not None:
                    new = ufunc(old, src[:, k])
                else:
                    new = run_region(
                        interpreter, op.scatter, [old, src[:, k]], (devices,), [element], "scatter"
                    )[0]
                result[rows, idx] = normalize(np.asarray(new), element)
        return (normalize(result.reshape(x.shape), element),)

    @impl(MapOp)
    def run_map(self, interpreter: Interpreter, op: MapOp, args: PythonValues) -> PythonValues:
        arrays = [np.asarray(a) for a in args]
        element = _element(op.result.type)
        with np.errstate(all="ignore"):
            out = run_region(interpreter, op.computation, arrays, arrays[0].shape, [element], "map")
        return (normalize(np.ascontiguousarray(out[0]), element),)

    @impl(TopKOp)
    def run_topk(self, interpreter: Interpreter, op: TopKOp, args: PythonValues) -> PythonValues:
        x = np.asarray(args[0])
        k = op.k.value.data
        key = total_order_key(x)
        order = stable_order(key, x.ndim - 1, descending=bool(op.largest.value.data))[..., :k]
        values = np.take_along_axis(x, order, x.ndim - 1)
        return ((np.ascontiguousarray(values), np.ascontiguousarray(order.astype(np.int32))),)
