"""Interpreter of `hlo.batch_norm_training`, `hlo.batch_norm_inference` and
`hlo.batch_norm_grad`, on (D, ...) stacks.

XLA:CPU never runs these ops: BatchNormExpander rewrites them into elementwise ops, broadcasts
and add-reduces before the backend sees them. We run the same graph step by step, rounding to
the element type after every op (f16/bf16 computed in f32 and rounded, as XLA:CPU's elementwise
emitter does), with denormals flushed (FTZ/DAZ), rsqrt as `1 / sqrt` computed in f64, and
the add-reduces in XLA:CPU's order (`fast_reduce`: tree rewrite, sequential folds; YNNPACK's
f32 reduces of 4096+ elements in numpy's order). Two rewrites of XLA's simplifier are kept:
a division by the element count N becomes a multiplication by `1/N` rounded to the element
type, and a division by a broadcast scalar likewise.

- training: `mean = sum(x) * (1/N)`, `var = sum(x*x) * (1/N) - mean*mean`, output
  `(x - mean) * rsqrt(var + eps) * scale + offset`; returns (output, mean, var).
- inference: `s = scale * rsqrt(var + eps)`, `t = offset - mean * s`, output `x * s + t`.
- grad: `d = x - mean`, `grad_offset = sum(dy)`, `grad_scale = sum(dy * d) * rsqrt(var +
  eps)`, `grad_x = (scale * rsqrt(var + eps) * (1/N)) * (dy * N - grad_offset - d *
  sum(dy * d) / (var + eps))`.

Where we differ from XLA:CPU (f64 results are bit-identical in the tests; f32 ones within
about 2 ulps of the output's largest magnitude, which the tests allow with 1e-6 of it):
- XLA:CPU's f32 rsqrt is the processor's `rsqrtss` estimate refined by one Newton step; its
  bits depend on the CPU model, so we use the correctly rounded `1 / sqrt` instead.
- XLA:CPU's order for add-reduces that keep a non-minor dimension (e.g. the feature dimension
  1 of a rank-4 operand) is not the row-major fold `fast_reduce` models (the same holds for
  `hlo.reduce`), and the YNNPACK reduces (f32, 4096+ elements) sum in numpy's pairwise order.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from xdsl.dialects.builtin import Float64Type
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.batch_norm import (
    BatchNormBase,
    BatchNormGradOp,
    BatchNormInferenceOp,
    BatchNormTrainingOp,
)
from neuron_cc.dialects.hlo.types import tensor_type
from neuron_cc.interpreter.computation_reduce import fast_reduce, numpy_reduce, offloaded_to_ynn
from neuron_cc.interpreter.conversions import flush_denormals
from neuron_cc.interpreter.values import normalize

Array = np.ndarray[Any, Any]


class _Steps:
    """The elementwise steps of BatchNormExpander's graph for one op and operand shape."""

    def __init__(self, op: BatchNormBase, x: Array) -> None:
        self.element: Attribute = tensor_type(op.operands[0]).element_type
        self.wide = isinstance(self.element, Float64Type)
        self.shape = x.shape
        self.feature = 1 + op.feature_index.value.data
        self.axes = [a for a in range(1, x.ndim) if a != self.feature]
        self.count = math.prod(x.shape[a] for a in self.axes)
        self.epsilon = self.round(np.asarray(op.epsilon.value.data, np.float64))

    def compute(self, x: Array) -> Array:
        """An operand as the emitter reads it: f32 (f64 for f64), denormals as zero."""
        return flush_denormals(np.asarray(x).astype(np.float64 if self.wide else np.float32))

    def round(self, y: Array) -> Array:
        """A result rounded to the element type, denormals written as zero."""
        y = flush_denormals(np.asarray(y).astype(np.float64 if self.wide else np.float32))
        return normalize(y, self.element)

    def mul(self, a: Array, b: Array) -> Array:
        return self.round(self.compute(a) * self.compute(b))

    def add(self, a: Array, b: Array) -> Array:
        return self.round(self.compute(a) + self.compute(b))

    def sub(self, a: Array, b: Array) -> Array:
        return self.round(self.compute(a) - self.compute(b))

    def div(self, a: Array, b: Array) -> Array:
        return self.round(self.compute(a) / self.compute(b))

    def rsqrt(self, a: Array) -> Array:
        return self.round(1.0 / np.sqrt(self.compute(a).astype(np.float64)))

    def constant(self, value: float) -> Array:
        return self.round(np.asarray(value, np.float64))

    def reciprocal_count(self) -> Array:
        """`1/N` as the simplifier's InvertConstant makes it (computed in the element type)."""
        return self.round(self.constant(1.0).astype(np.float64) / self.constant(self.count))

    def broadcast(self, v: Array) -> Array:
        """A (D, F) per-feature value broadcast along the feature dimension."""
        shape = [v.shape[0]] + [1] * (len(self.shape) - 1)
        shape[self.feature] = v.shape[1]
        return np.broadcast_to(v.reshape(shape), self.shape)

    def sum(self, x: Array) -> Array:
        """The add-reduce over every dimension but the feature one, from 0: (D, F)."""
        x = self.round(x)
        zero = np.zeros(x.shape[0], x.dtype)
        if offloaded_to_ynn(x, self.axes, ["add"], self.element):
            return self.round(numpy_reduce(x, zero, self.axes, "add"))
        return self.round(fast_reduce(x, zero, self.axes, "add", self.element, tree=True))


@register_impls
class HloBatchNormFunctions(InterpreterFunctions):
    """batch_norm_training, batch_norm_inference, batch_norm_grad."""

    @impl(BatchNormTrainingOp)
    def run_batch_norm_training(
        self, interpreter: Interpreter, op: BatchNormTrainingOp, args: PythonValues
    ) -> PythonValues:
        x, scale, offset = (np.asarray(a) for a in args)
        s = _Steps(op, x)
        with np.errstate(all="ignore"):
            inv_n = s.reciprocal_count()
            mean = s.mul(s.sum(x), inv_n)
            square_mean = s.mul(s.sum(s.mul(x, x)), inv_n)
            var = s.sub(square_mean, s.mul(mean, mean))
            rsqrt = s.rsqrt(s.add(s.broadcast(var), s.epsilon))
            normalized = s.mul(s.sub(x, s.broadcast(mean)), rsqrt)
            out = s.add(s.mul(normalized, s.broadcast(scale)), s.broadcast(offset))
        return ((np.ascontiguousarray(out), mean, var),)

    @impl(BatchNormInferenceOp)
    def run_batch_norm_inference(
        self, interpreter: Interpreter, op: BatchNormInferenceOp, args: PythonValues
    ) -> PythonValues:
        x, scale, offset, mean, var = (np.asarray(a) for a in args)
        s = _Steps(op, x)
        with np.errstate(all="ignore"):
            true_scale = s.mul(scale, s.rsqrt(s.add(var, s.epsilon)))
            true_shift = s.sub(offset, s.mul(mean, true_scale))
            out = s.add(s.mul(x, s.broadcast(true_scale)), s.broadcast(true_shift))
        return (np.ascontiguousarray(out),)

    @impl(BatchNormGradOp)
    def run_batch_norm_grad(
        self, interpreter: Interpreter, op: BatchNormGradOp, args: PythonValues
    ) -> PythonValues:
        x, scale, mean, var, dy = (np.asarray(a) for a in args)
        s = _Steps(op, x)
        with np.errstate(all="ignore"):
            var_eps = s.add(s.broadcast(var), s.epsilon)
            rsqrt_b = s.rsqrt(var_eps)
            rsqrt = s.rsqrt(s.add(var, s.epsilon))
            d = s.sub(x, s.broadcast(mean))
            sum_dy_d = s.sum(s.mul(dy, d))
            grad_offset = s.sum(dy)
            grad_scale = s.mul(sum_dy_d, rsqrt)
            i5 = s.div(s.mul(s.broadcast(sum_dy_d), d), var_eps)
            factor = s.mul(s.mul(s.broadcast(scale), rsqrt_b), s.reciprocal_count())
            i1 = s.mul(dy, s.constant(s.count))
            i6 = s.sub(s.sub(i1, s.broadcast(grad_offset)), i5)
            grad_x = s.mul(factor, i6)
        return ((np.ascontiguousarray(grad_x), grad_scale, grad_offset),)
