"""Interpreter: dot, reduce, reduce_window, gather and scatter on stacks of devices.

Expected values are written by hand or computed element by element from XLA's definitions;
when jax is importable, random cases are cross-checked against jax.lax (XLA:CPU). sort is in
tests/test_interp_sort.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.test_interp_data_movement import check, run

Array = np.ndarray[Any, Any]

_ADD_F32 = """{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.add %a, %b : tensor<f32>
    hlo.return %c : tensor<f32>
  }"""
_MAX_F32 = _ADD_F32.replace("hlo.add", "hlo.maximum")
# max written so that the fast path does not recognise it (runs the region itself)
_SELECT_MAX_F32 = """{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = hlo.compare GT, %a, %b : tensor<f32> -> tensor<i1>
    %c = hlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
    hlo.return %c : tensor<f32>
  }"""


def _rand(rng: np.random.Generator, shape: tuple[int, ...]) -> Array:
    return rng.standard_normal(shape).astype(np.float32)


# --- dot -------------------------------------------------------------------------------------


def test_dot_with_batch_dims() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.integers(-4, 5, (2, 2, 3, 4)), rng.integers(-4, 5, (2, 2, 4, 5))
    a, b = a.astype(np.float32), b.astype(np.float32)
    got = run(
        """func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
          %r = hlo.dot %a, %b lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
          func.return %r : tensor<2x3x5xf32>
        }""",
        a,
        b,
    )
    check(got, a @ b)


def test_dot_free_dims_order_and_contracting_dim_zero() -> None:
    a = np.arange(2 * 3 * 2, dtype=np.int32).reshape(2, 3, 2)
    b = np.arange(2 * 3 * 4, dtype=np.int32).reshape(2, 3, 4)
    got = run(
        """func.func @main(%a: tensor<3x2xi32>, %b: tensor<3x4xi32>) -> tensor<2x4xi32> {
          %r = hlo.dot %a, %b lhs_contracting = [0], rhs_contracting = [0] : (tensor<3x2xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
          func.return %r : tensor<2x4xi32>
        }""",
        a,
        b,
    )
    check(got, np.stack([a[d].T @ b[d] for d in range(2)]))


def test_dot_accumulates_in_the_wider_result_type() -> None:
    a = np.full((2, 2, 4), 100, dtype=np.int8)
    b = np.full((2, 4, 1), -100, dtype=np.int8)
    got = run(
        """func.func @main(%a: tensor<2x4xi8>, %b: tensor<4x1xi8>) -> tensor<2x1xi32> {
          %r = hlo.dot %a, %b lhs_contracting = [1], rhs_contracting = [0] : (tensor<2x4xi8>, tensor<4x1xi8>) -> tensor<2x1xi32>
          func.return %r : tensor<2x1xi32>
        }""",
        a,
        b,
    )
    check(got, np.full((2, 2, 1), -40000, dtype=np.int32))


def test_dot_bf16_rounds_once() -> None:
    a = np.array([[[1.0, 2.0**-8, 2.0**-8]]], dtype=np.float32)  # bf16 values
    b = np.ones((1, 3, 1), dtype=np.float32)
    got = run(
        """func.func @main(%a: tensor<1x3xbf16>, %b: tensor<3x1xbf16>) -> tensor<1x1xbf16> {
          %r = hlo.dot %a, %b lhs_contracting = [1], rhs_contracting = [0] : (tensor<1x3xbf16>, tensor<3x1xbf16>) -> tensor<1x1xbf16>
          func.return %r : tensor<1x1xbf16>
        }""",
        a,
        b,
    )
    # 1 + 2^-7 is a bf16 value: accumulating in bf16 would have lost both 2^-8 terms.
    check(got, np.array([[[1.0 + 2.0**-7]]], dtype=np.float32))


# --- reduce ----------------------------------------------------------------------------------


def test_reduce_add_over_two_dims() -> None:
    x = np.arange(2 * 2 * 3 * 4, dtype=np.float32).reshape(2, 2, 3, 4)
    got = run(
        f"""func.func @main(%x: tensor<2x3x4xf32>, %z: tensor<f32>) -> tensor<3xf32> {{
          %r = hlo.reduce(%x : tensor<2x3x4xf32>) init(%z : tensor<f32>) dimensions = [0, 2] {_ADD_F32} -> tensor<3xf32>
          func.return %r : tensor<3xf32>
        }}""",
        x,
        np.array([10.0, 20.0], dtype=np.float32),
    )
    check(got, x.sum(axis=(1, 3)) + np.array([[10.0], [20.0]], dtype=np.float32))


def test_reduce_general_region_matches_fast_path() -> None:
    rng = np.random.default_rng(1)
    x = _rand(rng, (2, 5, 6))
    init = np.array([-np.inf, -np.inf], dtype=np.float32)
    text = """func.func @main(%x: tensor<5x6xf32>, %z: tensor<f32>) -> tensor<6xf32> {{
      %r = hlo.reduce(%x : tensor<5x6xf32>) init(%z : tensor<f32>) dimensions = [0] {body} -> tensor<6xf32>
      func.return %r : tensor<6xf32>
    }}"""
    fast = run(text.format(body=_MAX_F32), x, init)
    general = run(text.format(body=_SELECT_MAX_F32), x, init)
    check(fast, x.max(axis=1))
    check(general, x.max(axis=1))


_ARGMAX = """func.func @main(%v: tensor<3x5xf32>, %i: tensor<3x5xi32>, %v0: tensor<f32>, %i0: tensor<i32>) -> tuple<tensor<3xf32>, tensor<3xi32>> {
  %r = hlo.reduce(%v, %i : tensor<3x5xf32>, tensor<3x5xi32>) init(%v0, %i0 : tensor<f32>, tensor<i32>) dimensions = [1] {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = hlo.compare GT, %av, %bv : tensor<f32> -> tensor<i1>
    %eq = hlo.compare EQ, %av, %bv : tensor<f32> -> tensor<i1>
    %lt = hlo.compare LT, %ai, %bi : tensor<i32> -> tensor<i1>
    %tie = hlo.and %eq, %lt : tensor<i1>
    %pick = hlo.or %gt, %tie : tensor<i1>
    %rv = hlo.select %pick, %av, %bv : tensor<i1>, tensor<f32>
    %ri = hlo.select %pick, %ai, %bi : tensor<i1>, tensor<i32>
    hlo.return %rv, %ri : tensor<f32>, tensor<i32>
  } -> tuple<tensor<3xf32>, tensor<3xi32>>
  func.return %r : tuple<tensor<3xf32>, tensor<3xi32>>
}"""


def test_variadic_argmax_reduce_picks_the_first_maximum() -> None:
    v = np.array(
        [
            [[1, 5, 5, 0, 2], [7, 1, 7, 7, 0], [-1, -2, -3, -4, -5]],
            [[0, 0, 0, 0, 0], [1, 2, 3, 4, 9], [3, 9, 1, 9, 2]],
        ],
        dtype=np.float32,
    )
    i = np.broadcast_to(np.arange(5, dtype=np.int32), (2, 3, 5))
    values, indices = run(_ARGMAX, v, i, np.full(2, -np.inf, np.float32), np.zeros(2, np.int32))
    check(values, np.array([[5, 7, -1], [0, 9, 9]], dtype=np.float32))
    check(indices, np.array([[1, 0, 0], [0, 4, 1]], dtype=np.int32))


def test_reduce_over_no_dimension_applies_the_init_once() -> None:
    x = np.array([[1, 2], [3, 4]], dtype=np.int32)
    got = run(
        """func.func @main(%x: tensor<2xi32>, %z: tensor<i32>) -> tensor<2xi32> {
          %r = hlo.reduce(%x : tensor<2xi32>) init(%z : tensor<i32>) dimensions = [] {
          ^bb0(%a: tensor<i32>, %b: tensor<i32>):
            %c = hlo.multiply %a, %b : tensor<i32>
            hlo.return %c : tensor<i32>
          } -> tensor<2xi32>
          func.return %r : tensor<2xi32>
        }""",
        x,
        np.array([10, -1], dtype=np.int32),
    )
    check(got, np.array([[10, 20], [-3, -4]], dtype=np.int32))


def test_reduce_bf16_sum_rounds_every_step() -> None:
    # 256 + 1 + 1 + ... : XLA:CPU rounds the running bf16 value after every step, and 256 + 1
    # rounds back to 256 (bf16's spacing there is 2); accumulating in f32 would give 272.
    x = np.concatenate([[256.0], np.ones(16)]).astype(np.float32)[None]
    got = run(
        """func.func @main(%x: tensor<17xbf16>, %z: tensor<bf16>) -> tensor<bf16> {
          %r = hlo.reduce(%x : tensor<17xbf16>) init(%z : tensor<bf16>) dimensions = [0] {
          ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
            %c = hlo.add %a, %b : tensor<bf16>
            hlo.return %c : tensor<bf16>
          } -> tensor<bf16>
          func.return %r : tensor<bf16>
        }""",
        x,
        np.zeros(1, np.float32),
    )
    check(got, np.array([256.0], dtype=np.float32))


# --- reduce_window ---------------------------------------------------------------------------


def _reference_reduce_window(
    x: Array,
    init: float,
    fn: Any,
    size: list[int],
    stride: list[int],
    padding: list[tuple[int, int]],
    base: list[int],
    dilation: list[int],
) -> Array:
    """XLA's definition, one output element at a time: padding and holes are skipped."""
    padded = [(n - 1) * b + 1 + lo + hi for n, b, (lo, hi) in zip(x.shape, base, padding)]
    extent = [(w - 1) * d + 1 for w, d in zip(size, dilation)]
    out_shape = [(p - e) // s + 1 for p, e, s in zip(padded, extent, stride)]
    out = np.empty(out_shape, dtype=x.dtype)
    for o in np.ndindex(*out_shape):
        acc = x.dtype.type(init)
        for w in np.ndindex(*size):
            q = [
                oi * s + wi * d - lo
                for oi, s, wi, d, (lo, _) in zip(o, stride, w, dilation, padding)
            ]
            if all(p >= 0 and p % b == 0 and p // b < n for p, b, n in zip(q, base, x.shape)):
                acc = fn(acc, x[tuple(p // b for p, b in zip(q, base))])
        out[o] = acc
    return out


def _window_text(
    x_shape: tuple[int, ...], out_shape: tuple[int, ...], window: str, body: str
) -> str:
    xt = "tensor<" + "x".join(map(str, x_shape)) + "xf32>"
    ot = "tensor<" + "x".join(map(str, out_shape)) + "xf32>"
    return f"""func.func @main(%x: {xt}, %z: tensor<f32>) -> {ot} {{
      %r = hlo.reduce_window(%x : {xt}) init(%z : tensor<f32>) {window} {body} -> {ot}
      func.return %r : {ot}
    }}"""


_WINDOWS = [
    ([2, 3], [2, 1], [(1, 0), (1, 1)], [1, 1], [1, 2]),
    ([3, 2], [1, 2], [(2, 1), (0, 3)], [2, 2], [1, 1]),
    ([4, 1], [3, 1], [(3, 0), (0, 0)], [1, 3], [2, 1]),
]


@pytest.mark.parametrize(("size", "stride", "padding", "base", "dilation"), _WINDOWS)
@pytest.mark.parametrize("body", ["add", "max", "general"])
def test_reduce_window_matches_the_definition(
    size: list[int],
    stride: list[int],
    padding: list[tuple[int, int]],
    base: list[int],
    dilation: list[int],
    body: str,
) -> None:
    rng = np.random.default_rng(2)
    x = rng.integers(-9, 10, (2, 4, 5)).astype(np.float32)
    init = 10.0 if body == "add" else -100.0  # add's init is not an identity: no padding use
    fn: Any = np.add if body == "add" else np.maximum
    expected = np.stack(
        [
            _reference_reduce_window(x[d], init, fn, size, stride, padding, base, dilation)
            for d in range(2)
        ]
    )
    pads = ", ".join(f"[{lo}, {hi}]" for lo, hi in padding)
    window = (
        f"size = {size}, stride = {stride}, padding = [{pads}], base_dilation = {base}, "
        f"window_dilation = {dilation}"
    )
    region = {"add": _ADD_F32, "max": _MAX_F32, "general": _SELECT_MAX_F32}[body]
    got = run(
        _window_text((4, 5), expected.shape[1:], window, region),
        x,
        np.full(2, init, np.float32),
    )
    check(got, expected)


def test_variadic_reduce_window_argmax() -> None:
    v = np.array([[3, 1, 4, 1, 5, 9, 2, 6]], dtype=np.float32)
    i = np.arange(8, dtype=np.int32)[None]
    text = (
        _ARGMAX.replace("hlo.reduce(", "hlo.reduce_window(")
        .replace("dimensions = [1]", "size = [1, 3], stride = [1, 2], padding = [[0, 0], [1, 0]]")
        .replace("3x5", "1x8")
        .replace("tensor<3xf32>", "tensor<1x4xf32>")
        .replace("tensor<3xi32>", "tensor<1x4xi32>")
    )
    values, indices = run(
        text, v[:, None], i[:, None], np.full(1, -np.inf, np.float32), np.zeros(1, np.int32)
    )
    # windows over [pad, 3, 1], [1, 4, 1], [1, 5, 9], [9, 2, 6]
    check(values, np.array([[[3, 4, 9, 9]]], dtype=np.float32))
    check(indices, np.array([[[0, 2, 5, 5]]], dtype=np.int32))


# --- gather ----------------------------------------------------------------------------------


def test_gather_take_rows_clamps_indices() -> None:
    x = np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)
    idx = np.array([[0, 4, 7, -2], [3, 3, 1, 0]], dtype=np.int32)
    got = run(
        """func.func @main(%x: tensor<5x3xf32>, %i: tensor<4xi32>) -> tensor<4x3xf32> {
          %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, 3] : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
          func.return %g : tensor<4x3xf32>
        }""",
        x,
        idx,
    )
    clamped = np.clip(idx, 0, 4)
    check(got, np.stack([x[d][clamped[d]] for d in range(2)]))


def _reference_gather(
    operand: Array,
    indices: Array,
    offset_dims: list[int],
    collapsed: list[int],
    start_index_map: list[int],
    ivd: int,
    sizes: list[int],
    operand_batching: tuple[int, ...] = (),
    indices_batching: tuple[int, ...] = (),
) -> Array:
    """XLA's gather definition, one output element at a time."""
    if ivd == indices.ndim:
        indices = indices[..., None]
    batch_dims = [d for d in range(indices.ndim) if d != ivd]
    kept = [d for d in range(operand.ndim) if d not in collapsed and d not in operand_batching]
    rank = len(batch_dims) + len(offset_dims)
    batch_out = [d for d in range(rank) if d not in offset_dims]
    shape = [0] * rank
    for r, bd in zip(batch_out, batch_dims):
        shape[r] = indices.shape[bd]
    for r, od in zip(offset_dims, kept):
        shape[r] = sizes[od]
    out = np.empty(shape, dtype=operand.dtype)
    for o in np.ndindex(*shape):
        b = [o[r] for r in batch_out]
        vec_index: list[Any] = list(b)
        vec_index.insert(ivd, slice(None))
        vec = indices[tuple(vec_index)]
        start = [0] * operand.ndim
        for k, d in enumerate(start_index_map):
            start[d] = int(np.clip(vec[k], 0, operand.shape[d] - sizes[d]))
        for od, idd in zip(operand_batching, indices_batching):
            start[od] = b[batch_dims.index(idd)]
        full = list(start)
        for r, od in zip(offset_dims, kept):
            full[od] += o[r]
        out[o] = operand[tuple(full)]
    return out


def test_gather_2d_index_vectors_and_batching_dims() -> None:
    rng = np.random.default_rng(3)
    x = _rand(rng, (2, 3, 6, 5))
    idx = rng.integers(-2, 7, (2, 4, 3, 2)).astype(np.int32)
    # operand dim 0 pairs with indices dim 1; index vectors (dim 2) address dims 1 and 2
    got = run(
        """func.func @main(%x: tensor<3x6x5xf32>, %i: tensor<4x3x2xi32>) -> tensor<4x3x2xf32> {
          %g = hlo.gather %x, %i offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1, 2], index_vector_dim = 2 slice_sizes = [1, 1, 2] : (tensor<3x6x5xf32>, tensor<4x3x2xi32>) -> tensor<4x3x2xf32>
          func.return %g : tensor<4x3x2xf32>
        }""",
        x,
        idx,
    )
    expected = np.stack(
        [
            _reference_gather(x[d], idx[d], [2], [1], [1, 2], 2, [1, 1, 2], (0,), (1,))
            for d in range(2)
        ]
    )
    check(got, expected)


def test_gather_offset_dims_before_batch_dims() -> None:
    x = np.arange(2 * 4 * 6, dtype=np.int32).reshape(2, 4, 6)
    idx = np.array([[[5], [0], [2]], [[1], [3], [9]]], dtype=np.int32)
    got = run(
        """func.func @main(%x: tensor<4x6xi32>, %i: tensor<3x1xi32>) -> tensor<4x3x2xi32> {
          %g = hlo.gather %x, %i offset_dims = [0, 2], collapsed_slice_dims = [], start_index_map = [1], index_vector_dim = 1 slice_sizes = [4, 2] : (tensor<4x6xi32>, tensor<3x1xi32>) -> tensor<4x3x2xi32>
          func.return %g : tensor<4x3x2xi32>
        }""",
        x,
        idx,
    )
    expected = np.stack(
        [_reference_gather(x[d], idx[d], [0, 2], [], [1], 1, [4, 2]) for d in range(2)]
    )
    check(got, expected)


# --- scatter ---------------------------------------------------------------------------------

_SCATTER_ROWS = """func.func @main(%x: tensor<5x3xf32>, %i: tensor<4x1xi32>, %u: tensor<4x3xf32>) -> tensor<5x3xf32> {{
  %s = hlo.scatter(%x : tensor<5x3xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x3xf32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {body} -> tensor<5x3xf32>
  func.return %s : tensor<5x3xf32>
}}"""


def _scatter_rows_reference(x: Array, idx: Array, u: Array, fn: Any) -> Array:
    out = x.copy()
    for d in range(x.shape[0]):
        for k in range(idx.shape[1]):
            row = int(idx[d, k, 0])
            if 0 <= row < x.shape[1]:
                out[d, row] = fn(out[d, row], u[d, k])
    return out


def _scatter_rows_inputs() -> tuple[Array, Array, Array]:
    x = np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)
    idx = np.array([[[1], [3], [1], [5]], [[-1], [0], [0], [0]]], dtype=np.int32)
    u = (np.arange(2 * 4 * 3, dtype=np.float32).reshape(2, 4, 3) + 1) * 100
    return x, idx, u


def test_scatter_add_accumulates_duplicates_and_drops_out_of_bounds() -> None:
    x, idx, u = _scatter_rows_inputs()
    got = run(_SCATTER_ROWS.format(body=_ADD_F32), x, idx, u)
    check(got, _scatter_rows_reference(x, idx, u, np.add))


def test_scatter_replace_keeps_the_last_update() -> None:
    x, idx, u = _scatter_rows_inputs()
    body = """{
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        hlo.return %b : tensor<f32>
      }"""
    got = run(_SCATTER_ROWS.format(body=body), x, idx, u)
    check(got, _scatter_rows_reference(x, idx, u, lambda a, b: b))


def test_scatter_general_combiner_applies_updates_in_order() -> None:
    x, idx, u = _scatter_rows_inputs()
    body = """{
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %d = hlo.add %a, %a : tensor<f32>
        %c = hlo.subtract %d, %b : tensor<f32>
        hlo.return %c : tensor<f32>
      }"""
    got = run(_SCATTER_ROWS.format(body=body), x, idx, u)
    check(got, _scatter_rows_reference(x, idx, u, lambda a, b: 2 * a - b))


def test_scatter_skips_a_window_that_does_not_fit() -> None:
    x = np.zeros((1, 6), dtype=np.int32)
    idx = np.array([[[4], [-1], [5], [1]]], dtype=np.int32)
    u = np.array([[[1, 2], [3, 4], [5, 6], [7, 8]]], dtype=np.int32)
    got = run(
        """func.func @main(%x: tensor<6xi32>, %i: tensor<4x1xi32>, %u: tensor<4x2xi32>) -> tensor<6xi32> {
          %s = hlo.scatter(%x : tensor<6xi32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x2xi32>) update_window_dims = [1], inserted_window_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
          ^bb0(%a: tensor<i32>, %b: tensor<i32>):
            %c = hlo.add %a, %b : tensor<i32>
            hlo.return %c : tensor<i32>
          } -> tensor<6xi32>
          func.return %s : tensor<6xi32>
        }""",
        x,
        idx,
        u,
    )
    check(got, np.array([[0, 7, 8, 0, 1, 2]], dtype=np.int32))


def test_variadic_scatter_with_a_general_region() -> None:
    # Keep the (value, index) pair with the larger value: a scatter-argmax.
    v = np.zeros((1, 3), dtype=np.float32)
    i = np.full((1, 3), -1, dtype=np.int32)
    idx = np.array([[0, 2, 0, 0, 2]], dtype=np.int32)
    uv = np.array([[1, 5, 3, 2, 4]], dtype=np.float32)
    ui = np.array([[10, 11, 12, 13, 14]], dtype=np.int32)
    got = run(
        """func.func @main(%v: tensor<3xf32>, %i: tensor<3xi32>, %k: tensor<5xi32>, %uv: tensor<5xf32>, %ui: tensor<5xi32>) -> tuple<tensor<3xf32>, tensor<3xi32>> {
          %s = hlo.scatter(%v, %i : tensor<3xf32>, tensor<3xi32>) indices(%k : tensor<5xi32>) updates(%uv, %ui : tensor<5xf32>, tensor<5xi32>) update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
          ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
            %gt = hlo.compare GT, %bv, %av : tensor<f32> -> tensor<i1>
            %rv = hlo.select %gt, %bv, %av : tensor<i1>, tensor<f32>
            %ri = hlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
            hlo.return %rv, %ri : tensor<f32>, tensor<i32>
          } -> tuple<tensor<3xf32>, tensor<3xi32>>
          func.return %s : tuple<tensor<3xf32>, tensor<3xi32>>
        }""",
        v,
        i,
        idx,
        uv,
        ui,
    )
    check(got[0], np.array([[3, 0, 5]], dtype=np.float32))
    check(got[1], np.array([[12, -1, 11]], dtype=np.int32))


def test_scatter_with_batching_dims_per_device() -> None:
    # x[b, idx[b, k]] += u[b, k] for each batch row b (input dim 0 pairs with indices dim 0)
    x = np.zeros((2, 2, 4), dtype=np.int32)
    idx = np.array([[[3, 3], [0, 1]], [[2, 9], [1, 1]]], dtype=np.int32)
    u = np.array([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], dtype=np.int32)
    got = run(
        """func.func @main(%x: tensor<2x4xi32>, %i: tensor<2x2xi32>, %u: tensor<2x2xi32>) -> tensor<2x4xi32> {
          %s = hlo.scatter(%x : tensor<2x4xi32>) indices(%i : tensor<2x2xi32>) updates(%u : tensor<2x2xi32>) update_window_dims = [], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2 {
          ^bb0(%a: tensor<i32>, %b: tensor<i32>):
            %c = hlo.add %a, %b : tensor<i32>
            hlo.return %c : tensor<i32>
          } -> tensor<2x4xi32>
          func.return %s : tensor<2x4xi32>
        }""",
        x,
        idx,
        u,
    )
    expected = np.array([[[0, 0, 0, 3], [3, 4, 0, 0]], [[0, 0, 5, 0], [0, 15, 0, 0]]], np.int32)
    check(got, expected)


# --- cross-checks against XLA:CPU through jax ------------------------------------------------


def _jax() -> Any:
    jax = pytest.importorskip("jax")
    jax.config.update("jax_platforms", "cpu")
    return jax


def test_jax_dot_general() -> None:
    jax = _jax()
    rng = np.random.default_rng(10)
    a, b = _rand(rng, (2, 3, 4, 5)), _rand(rng, (2, 5, 3, 2))
    got = run(
        """func.func @main(%a: tensor<3x4x5xf32>, %b: tensor<5x3x2xf32>) -> tensor<3x4x2xf32> {
          %r = hlo.dot %a, %b lhs_batch = [0], rhs_batch = [1], lhs_contracting = [2], rhs_contracting = [0] : (tensor<3x4x5xf32>, tensor<5x3x2xf32>) -> tensor<3x4x2xf32>
          func.return %r : tensor<3x4x2xf32>
        }""",
        a,
        b,
    )
    dn = (((2,), (0,)), ((0,), (1,)))
    expected = np.stack([np.asarray(jax.lax.dot_general(a[d], b[d], dn)) for d in range(2)])
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(("size", "stride", "padding", "base", "dilation"), _WINDOWS)
def test_jax_reduce_window(
    size: list[int],
    stride: list[int],
    padding: list[tuple[int, int]],
    base: list[int],
    dilation: list[int],
) -> None:
    jax = _jax()
    rng = np.random.default_rng(11)
    x = _rand(rng, (2, 4, 5))
    expected = np.stack(
        [
            np.asarray(
                jax.lax.reduce_window(
                    x[d], np.float32(1.5), jax.lax.add, size, stride, padding, base, dilation
                )
            )
            for d in range(2)
        ]
    )
    pads = ", ".join(f"[{lo}, {hi}]" for lo, hi in padding)
    window = (
        f"size = {size}, stride = {stride}, padding = [{pads}], base_dilation = {base}, "
        f"window_dilation = {dilation}"
    )
    got = run(
        _window_text((4, 5), expected.shape[1:], window, _ADD_F32), x, np.full(2, 1.5, np.float32)
    )
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


def test_jax_gather_with_clamping() -> None:
    jax = _jax()
    rng = np.random.default_rng(12)
    x = _rand(rng, (2, 6, 5, 4))
    idx = rng.integers(-3, 8, (2, 3, 2, 2)).astype(np.int32)
    dn = jax.lax.GatherDimensionNumbers(
        offset_dims=(1, 3), collapsed_slice_dims=(0,), start_index_map=(0, 2)
    )
    sizes = (1, 5, 2)
    mode = jax.lax.GatherScatterMode.CLIP
    expected = np.stack(
        [np.asarray(jax.lax.gather(x[d], idx[d], dn, sizes, mode=mode)) for d in range(2)]
    )
    got = run(
        """func.func @main(%x: tensor<6x5x4xf32>, %i: tensor<3x2x2xi32>) -> tensor<3x5x2x2xf32> {
          %g = hlo.gather %x, %i offset_dims = [1, 3], collapsed_slice_dims = [0], start_index_map = [0, 2], index_vector_dim = 2 slice_sizes = [1, 5, 2] : (tensor<6x5x4xf32>, tensor<3x2x2xi32>) -> tensor<3x5x2x2xf32>
          func.return %g : tensor<3x5x2x2xf32>
        }""",
        x,
        idx,
    )
    check(got, expected)


def test_jax_scatter_add_out_of_bounds_windows() -> None:
    jax = _jax()
    rng = np.random.default_rng(13)
    x = _rand(rng, (2, 6, 5))
    idx = rng.integers(-1, 6, (2, 7, 2)).astype(np.int32)
    u = _rand(rng, (2, 7, 2))
    dn = jax.lax.ScatterDimensionNumbers(
        update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0, 1)
    )
    mode = jax.lax.GatherScatterMode.PROMISE_IN_BOUNDS  # XLA's own out-of-bounds handling
    expected = np.stack(
        [np.asarray(jax.lax.scatter_add(x[d], idx[d], u[d], dn, mode=mode)) for d in range(2)]
    )
    got = run(
        """func.func @main(%x: tensor<6x5xf32>, %i: tensor<7x2xi32>, %u: tensor<7x2xf32>) -> tensor<6x5xf32> {
          %s = hlo.scatter(%x : tensor<6x5xf32>) indices(%i : tensor<7x2xi32>) updates(%u : tensor<7x2xf32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1 {
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %c = hlo.add %a, %b : tensor<f32>
            hlo.return %c : tensor<f32>
          } -> tensor<6x5xf32>
          func.return %s : tensor<6x5xf32>
        }""",
        x,
        idx,
        u,
    )
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


def test_reduce_pred_with_and_or() -> None:
    x = np.array([[[True, False], [True, True]], [[False, False], [True, False]]])
    text = """func.func @main(%x: tensor<2x2xi1>, %z: tensor<i1>) -> tensor<2xi1> {{
      %r = hlo.reduce(%x : tensor<2x2xi1>) init(%z : tensor<i1>) dimensions = [1] {{
      ^bb0(%a: tensor<i1>, %b: tensor<i1>):
        %c = hlo.{op} %a, %b : tensor<i1>
        hlo.return %c : tensor<i1>
      }} -> tensor<2xi1>
      func.return %r : tensor<2xi1>
    }}"""
    got_and = run(text.format(op="and"), x, np.array([True, True]))
    got_or = run(text.format(op="or"), x, np.array([False, False]))
    check(got_and, np.array([[False, True], [False, False]]))
    check(got_or, np.array([[True, True], [False, True]]))


def test_jax_gather_with_batching_dims() -> None:
    jax = _jax()
    rng = np.random.default_rng(14)
    x = _rand(rng, (2, 3, 7, 4))
    idx = rng.integers(-2, 9, (2, 5, 3, 1)).astype(np.int32)
    dn = jax.lax.GatherDimensionNumbers(
        offset_dims=(2,),
        collapsed_slice_dims=(1,),
        start_index_map=(1,),
        operand_batching_dims=(0,),
        start_indices_batching_dims=(1,),
    )
    sizes = (1, 1, 3)
    mode = jax.lax.GatherScatterMode.CLIP
    expected = np.stack(
        [np.asarray(jax.lax.gather(x[d], idx[d], dn, sizes, mode=mode)) for d in range(2)]
    )
    got = run(
        """func.func @main(%x: tensor<3x7x4xf32>, %i: tensor<5x3x1xi32>) -> tensor<5x3x3xf32> {
          %g = hlo.gather %x, %i offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1], index_vector_dim = 2 slice_sizes = [1, 1, 3] : (tensor<3x7x4xf32>, tensor<5x3x1xi32>) -> tensor<5x3x3xf32>
          func.return %g : tensor<5x3x3xf32>
        }""",
        x,
        idx,
    )
    check(got, expected)


def test_jax_scatter_with_leading_window_dims() -> None:
    # updates are (window, scatter): the update order is scatter-major all the same.
    jax = _jax()
    rng = np.random.default_rng(15)
    x = _rand(rng, (2, 4, 6))
    idx = rng.integers(0, 6, (2, 5)).astype(np.int32)
    u = _rand(rng, (2, 4, 5))
    dn = jax.lax.ScatterDimensionNumbers(
        update_window_dims=(0,), inserted_window_dims=(1,), scatter_dims_to_operand_dims=(1,)
    )
    mode = jax.lax.GatherScatterMode.PROMISE_IN_BOUNDS
    expected = np.stack(
        [
            np.asarray(jax.lax.scatter_mul(x[d], idx[d][:, None], u[d], dn, mode=mode))
            for d in range(2)
        ]
    )
    got = run(
        """func.func @main(%x: tensor<4x6xf32>, %i: tensor<5xi32>, %u: tensor<4x5xf32>) -> tensor<4x6xf32> {
          %s = hlo.scatter(%x : tensor<4x6xf32>) indices(%i : tensor<5xi32>) updates(%u : tensor<4x5xf32>) update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1 {
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %c = hlo.multiply %a, %b : tensor<f32>
            hlo.return %c : tensor<f32>
          } -> tensor<4x6xf32>
          func.return %s : tensor<4x6xf32>
        }""",
        x,
        idx,
        u,
    )
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


def test_denormals_are_flushed_like_xla_cpu() -> None:
    tiny = np.full((1, 4), 1e-40, dtype=np.float32)
    total = run(
        f"""func.func @main(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {{
          %r = hlo.reduce(%x : tensor<4xf32>) init(%z : tensor<f32>) dimensions = [0] {_ADD_F32} -> tensor<f32>
          func.return %r : tensor<f32>
        }}""",
        tiny,
        np.zeros(1, np.float32),
    )
    check(total, np.zeros(1, np.float32))
    product = run(
        """func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<f32> {
          %r = hlo.dot %a, %b lhs_contracting = [0], rhs_contracting = [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
          func.return %r : tensor<f32>
        }""",
        np.full((1, 4), 1e-20, np.float32),
        np.full((1, 4), 1e-20, np.float32),
    )
    check(product, np.zeros(1, np.float32))


def test_general_regions_with_constants() -> None:
    # acc + 2 * x: a constant inside the region, folded over stacks of elements
    body = """{
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %two = hlo.constant dense<2.0> : tensor<f32>
        %t = hlo.multiply %b, %two : tensor<f32>
        %c = hlo.add %a, %t : tensor<f32>
        hlo.return %c : tensor<f32>
      }"""
    x = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    got = run(
        f"""func.func @main(%x: tensor<3x4xf32>, %z: tensor<f32>) -> tensor<3xf32> {{
          %r = hlo.reduce(%x : tensor<3x4xf32>) init(%z : tensor<f32>) dimensions = [1] {body} -> tensor<3xf32>
          func.return %r : tensor<3xf32>
        }}""",
        x,
        np.array([1.0, -1.0], np.float32),
    )
    check(got, 2 * x.sum(axis=2) + np.array([[1.0], [-1.0]], np.float32))
    windowed = run(_window_text((3, 4), (3, 3), "size = [1, 2]", body), x, np.zeros(2, np.float32))
    check(windowed, 2 * (x[:, :, :-1] + x[:, :, 1:]))
    xs, idx, u = _scatter_rows_inputs()
    scattered = run(_SCATTER_ROWS.format(body=body), xs, idx, u)
    check(scattered, _scatter_rows_reference(xs, idx, u, lambda a, b: a + 2 * b))


def test_scatter_into_an_empty_operand() -> None:
    x = np.zeros((2, 0, 3), dtype=np.float32)
    idx = np.array([[[0]], [[1]]], dtype=np.int32)
    u = np.ones((2, 1, 3), dtype=np.float32)
    text = (
        _SCATTER_ROWS.format(body=_ADD_F32)
        .replace("5x3", "0x3")
        .replace("4x1xi32", "1x1xi32")
        .replace("tensor<4x3xf32>", "tensor<1x3xf32>")
    )
    check(run(text, x, idx, u), x)
