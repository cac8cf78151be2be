"""Interpreter of `hlo.cholesky` and `hlo.triangular_solve`, on (D, ..., n, n) stacks.

Both are computed in f64 (c128 for complex types) and rounded once to the element type.
XLA:CPU instead runs CholeskyExpander / TriangularSolveExpander: blocked algorithms whose
inner products go through Eigen's matrix multiply in the element type, so the last bits
differ (the tests compare with a tolerance of a few f32 ulps of the condition-scaled result).

- cholesky reads only the `lower` (or upper) triangle of `a`, as XLA does, and returns zeros in
  the other triangle (the expander starts from a zero matrix). A matrix that is not positive
  definite becomes all NaN (the expander's `seen_error` select).
- triangular_solve reads the `lower` (or upper) triangle of `a` (ones on the diagonal if
  `unit_diagonal`), applies `transpose_a`, and solves by substitution: a zero on the diagonal
  gives infinities/NaNs as XLA's division does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from neuron_cc.dialects.hlo.linalg import CholeskyOp, Transpose, TriangularSolveOp
from neuron_cc.dialects.hlo.types import tensor_type
from neuron_cc.interpreter.values import normalize

Array = np.ndarray[Any, Any]


def _wide(x: Array) -> Array:
    return x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)


def _adjoint(x: Array) -> Array:
    return np.conj(np.swapaxes(x, -1, -2))


def _triangle(a: Array, lower: bool) -> Array:
    return np.tril(a) if lower else np.triu(a)


def cholesky(a: Array, lower: bool) -> Array:
    """The lower factor of every matrix of `a` (only its `lower`/upper triangle read), or its
    upper factor if not `lower`; NaN matrices where one is not positive definite."""
    t = _triangle(_wide(a), lower)
    diag = np.diagonal(t, axis1=-2, axis2=-1)
    full = t + _adjoint(t) - np.einsum("...i,ij->...ij", diag, np.eye(a.shape[-1]))
    out = np.full(full.shape, np.nan, full.dtype)
    n = a.shape[-1]
    flat = full.reshape(-1, n, n)
    res = out.reshape(-1, n, n)
    for k in range(flat.shape[0]):
        try:
            res[k] = np.linalg.cholesky(flat[k])
        except np.linalg.LinAlgError:
            pass
    return out if lower else _adjoint(out)


def _substitute(t: Array, b: Array, lower: bool) -> Array:
    """Solve t x = b for x, t (..., n, n) lower or upper triangular, b (..., n, m)."""
    n = t.shape[-1]
    x = np.zeros(np.broadcast_shapes(t.shape[:-2], b.shape[:-2]) + b.shape[-2:], b.dtype)
    order = range(n) if lower else range(n - 1, -1, -1)
    for i in order:
        partial = np.einsum("...k,...km->...m", t[..., i, :], x)
        x[..., i, :] = (b[..., i, :] - partial) / t[..., i, i, None]
    return x


def triangular_solve(
    a: Array, b: Array, left_side: bool, lower: bool, unit_diagonal: bool, transpose: Transpose
) -> Array:
    """x with op(a) x = b (`left_side`) or x op(a) = b, a's `lower`/upper triangle used."""
    t = _triangle(_wide(a), lower)
    if unit_diagonal:
        n = a.shape[-1]
        t = t * (1 - np.eye(n)) + np.eye(n)
    t_lower = lower
    if transpose != Transpose.NO_TRANSPOSE:
        t = np.swapaxes(t, -1, -2)
        t = np.conj(t) if transpose == Transpose.ADJOINT else t
        t_lower = not lower
    bw = _wide(b)
    if left_side:
        return _substitute(t, bw, t_lower)
    # x t = b  <=>  t^T x^T = b^T
    xt = _substitute(np.swapaxes(t, -1, -2), np.swapaxes(bw, -1, -2), not t_lower)
    return np.swapaxes(xt, -1, -2)


@register_impls
class HloLinalgFunctions(InterpreterFunctions):
    """cholesky, triangular_solve."""

    @impl(CholeskyOp)
    def run_cholesky(
        self, interpreter: Interpreter, op: CholeskyOp, args: PythonValues
    ) -> PythonValues:
        element = tensor_type(op.result).element_type
        with np.errstate(all="ignore"):
            out = cholesky(np.asarray(args[0]), bool(op.lower.value.data))
        return (normalize(np.ascontiguousarray(out), element),)

    @impl(TriangularSolveOp)
    def run_triangular_solve(
        self, interpreter: Interpreter, op: TriangularSolveOp, args: PythonValues
    ) -> PythonValues:
        element = tensor_type(op.result).element_type
        a, b = (np.asarray(v) for v in args)
        with np.errstate(all="ignore"):
            out = triangular_solve(
                a,
                b,
                bool(op.left_side.value.data),
                bool(op.lower.value.data),
                bool(op.unit_diagonal.value.data),
                op.transpose_a.data,
            )
        return (normalize(np.ascontiguousarray(out), element),)
