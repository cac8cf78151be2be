"""Interpreter: sort on stacks of devices (split from tests/test_interp_computation.py).

Stable ascending and descending sorts moving every operand, the total order of NaNs and signed
zeros, key comparators recognised (lexicographic, JAX's canonicalising comparator, two keys)
and general comparators evaluated on all pairs or pair by pair, cross-checked against XLA:CPU
through jax where it is installed.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from tests.test_interp_computation import _jax
from tests.test_interp_data_movement import check, run

Array = np.ndarray[Any, Any]


# --- sort ------------------------------------------------------------------------------------

_SORT = """func.func @main(%k: tensor<2x6xf32>, %v: tensor<2x6xi32>) -> tuple<tensor<2x6xf32>, tensor<2x6xi32>> {{
  %s = hlo.sort(%k, %v) dim = {dim} is_stable {{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    {body}
  }} : (tensor<2x6xf32>, tensor<2x6xi32>) -> tuple<tensor<2x6xf32>, tensor<2x6xi32>>
  func.return %s : tuple<tensor<2x6xf32>, tensor<2x6xi32>>
}}"""
_LT = """%lt = hlo.compare LT, %a, %b : tensor<f32> -> tensor<i1>
    hlo.return %lt : tensor<i1>"""


def _sort_inputs() -> tuple[Array, Array]:
    k = np.array(
        [[[3, 1, 3, 2, 1, 0], [5, 5, 5, 1, 1, 9]], [[0, 0, 0, 0, 0, 0], [2, 1, 2, 1, 2, 1]]],
        dtype=np.float32,
    )
    v = np.broadcast_to(np.arange(6, dtype=np.int32), (2, 2, 6)).copy()
    return k, v


def test_sort_ascending_is_stable_and_moves_every_operand() -> None:
    k, v = _sort_inputs()
    keys, values = run(_SORT.format(dim=1, body=_LT), k, v)
    order = np.argsort(k, axis=-1, kind="stable")
    check(keys, np.take_along_axis(k, order, -1))
    check(values, order.astype(np.int32))
    check(values[0, 0], np.array([5, 1, 4, 3, 0, 2], dtype=np.int32))


def test_sort_descending_keeps_ties_in_order() -> None:
    k, v = _sort_inputs()
    body = _LT.replace("LT, %a, %b", "LT, %b, %a")  # b < a: descending
    keys, values = run(_SORT.format(dim=1, body=body), k, v)
    check(values[0, 0], np.array([0, 2, 3, 1, 4, 5], dtype=np.int32))
    check(values[1, 1], np.array([0, 2, 4, 1, 3, 5], dtype=np.int32))
    check(keys[0, 0], np.array([3, 3, 2, 1, 1, 0], dtype=np.float32))


def test_sort_along_dimension_zero() -> None:
    k, v = _sort_inputs()
    keys, values = run(_SORT.format(dim=0, body=_LT), k, v)
    order = np.argsort(k, axis=1, kind="stable")
    check(keys, np.take_along_axis(k, order, 1))
    check(values, np.take_along_axis(v, order, 1))


def test_sort_total_order_places_nans_and_signed_zeros() -> None:
    k = np.array([[[np.nan, 1.0, -0.0, 0.0, -np.inf, 0.0]] * 2] * 2, dtype=np.float32)
    k[:, :, 5] = np.array(0xFFC00000, dtype=np.uint32).view(np.float32)  # a negative NaN
    v = np.broadcast_to(np.arange(6, dtype=np.int32), (2, 2, 6)).copy()
    body = _LT.replace("%b :", "%b type = TOTALORDER :")
    _, values = run(_SORT.format(dim=1, body=body), k, v)
    check(values[0, 0], np.array([5, 4, 2, 3, 1, 0], dtype=np.int32))


def test_sort_with_a_lexicographic_comparator(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_general_sort(monkeypatch)
    k, v = _sort_inputs()
    second = np.array(
        [[[1, 0, 0, 2, 1, 0], [3, 2, 1, 0, 1, 2]], [[5, 4, 3, 2, 1, 0], [0, 0, 1, 1, 0, 0]]],
        dtype=np.int32,
    )
    body = """%lt = hlo.compare LT, %a, %b : tensor<f32> -> tensor<i1>
    %eq = hlo.compare EQ, %a, %b : tensor<f32> -> tensor<i1>
    %lt2 = hlo.compare GT, %c, %d : tensor<i32> -> tensor<i1>
    %tie = hlo.and %eq, %lt2 : tensor<i1>
    %r = hlo.or %lt, %tie : tensor<i1>
    hlo.return %r : tensor<i1>"""
    keys, values = run(_SORT.format(dim=1, body=body), k, second)
    order = np.empty_like(second)
    for d, r in itertools.product(range(2), range(2)):
        # primary key ascending, secondary descending (lexsort's last key is the primary)
        order[d, r] = np.lexsort((-second[d, r], k[d, r]))
    check(keys, np.take_along_axis(k, order, -1))
    check(values, np.take_along_axis(second, order, -1))
    del v


def test_sort_general_comparator_pair_by_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    from neuron_cc.interpreter import computation

    monkeypatch.setattr(computation, "_PAIRWISE_LIMIT", 0)
    k, v = _sort_inputs()
    body = """%gt = hlo.compare GT, %a, %b : tensor<f32> -> tensor<i1>
    %lt = hlo.compare LT, %a, %b : tensor<f32> -> tensor<i1>
    %r = hlo.and %lt, %lt : tensor<i1>
    hlo.return %r : tensor<i1>"""
    keys, values = run(_SORT.format(dim=1, body=body), k, v)
    order = np.argsort(k, axis=-1, kind="stable")
    check(keys, np.take_along_axis(k, order, -1))
    check(values, order.astype(np.int32))


def test_sort_general_comparator_on_all_pairs() -> None:
    # Orders by key + value: reads two operands on each side, so no key can be extracted.
    k, v = _sort_inputs()
    v = (v * 7 % 5).astype(np.int32)
    body = """%ci = hlo.convert %c : tensor<i32> -> tensor<f32>
    %di = hlo.convert %d : tensor<i32> -> tensor<f32>
    %l = hlo.add %a, %ci : tensor<f32>
    %r = hlo.add %b, %di : tensor<f32>
    %lt = hlo.compare LT, %l, %r : tensor<f32> -> tensor<i1>
    hlo.return %lt : tensor<i1>"""
    keys, values = run(_SORT.format(dim=1, body=body), k, v)
    order = np.argsort(k + v, axis=-1, kind="stable")
    check(keys, np.take_along_axis(k, order, -1))
    check(values, np.take_along_axis(v, order, -1))


_JAX_SORT_BODY = """%zero = hlo.constant dense<0.0> : tensor<f32>
    %nan = hlo.constant dense<0x7FC00000> : tensor<f32>
    %az = hlo.compare EQ, %a, %zero : tensor<f32> -> tensor<i1>
    %a0 = hlo.select %az, %zero, %a : tensor<i1>, tensor<f32>
    %an = hlo.compare NE, %a, %a : tensor<f32> -> tensor<i1>
    %a1 = hlo.select %an, %nan, %a0 : tensor<i1>, tensor<f32>
    %bz = hlo.compare EQ, %b, %zero : tensor<f32> -> tensor<i1>
    %b0 = hlo.select %bz, %zero, %b : tensor<i1>, tensor<f32>
    %bn = hlo.compare NE, %b, %b : tensor<f32> -> tensor<i1>
    %b1 = hlo.select %bn, %nan, %b0 : tensor<i1>, tensor<f32>
    %lt = hlo.compare LT, %a1, %b1 type = TOTALORDER : tensor<f32> -> tensor<i1>"""


def _special_keys(rng: np.random.Generator) -> Array:
    pool = np.array(
        [np.nan, -np.nan, 0.0, -0.0, 1e-40, -1e-40, np.inf, -np.inf, 1.0, -1.0, 2.5],
        dtype=np.float32,
    )
    return rng.choice(pool, size=(2, 2, 6)).astype(np.float32)


def _no_general_sort(monkeypatch: pytest.MonkeyPatch) -> None:
    from neuron_cc.interpreter import computation

    def fail(*args: Any) -> Array:
        raise AssertionError("the key comparator was not recognised")

    monkeypatch.setattr(computation, "general_sort_order", fail)


def test_jax_sort_with_jax_comparator(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_general_sort(monkeypatch)
    jax = _jax()
    rng = np.random.default_rng(16)
    k = _special_keys(rng)
    v = np.broadcast_to(np.arange(6, dtype=np.int32), (2, 2, 6)).copy()
    body = _JAX_SORT_BODY + "\n    hlo.return %lt : tensor<i1>"
    _, values = run(_SORT.format(dim=1, body=body), k, v)
    sort = jax.jit(lambda a, b: jax.lax.sort((a, b), dimension=1, is_stable=True, num_keys=1))
    expected = np.stack([np.asarray(sort(k[d], v[d])[1]) for d in range(2)])
    check(values, expected)


def test_jax_sort_with_two_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_general_sort(monkeypatch)
    jax = _jax()
    rng = np.random.default_rng(17)
    k = _special_keys(rng)
    v = rng.integers(0, 3, (2, 2, 6)).astype(np.int32)
    body = (
        _JAX_SORT_BODY
        + """
    %vlt = hlo.compare LT, %c, %d type = SIGNED : tensor<i32> -> tensor<i1>
    %eq = hlo.compare EQ, %a1, %b1 type = TOTALORDER : tensor<f32> -> tensor<i1>
    %tie = hlo.and %eq, %vlt : tensor<i1>
    %res = hlo.or %lt, %tie : tensor<i1>
    hlo.return %res : tensor<i1>"""
    )
    keys, values = run(_SORT.format(dim=1, body=body), k, v)
    sort = jax.jit(lambda a, b: jax.lax.sort((a, b), dimension=1, is_stable=True, num_keys=2))
    expected = [sort(k[d], v[d]) for d in range(2)]
    check(values, np.stack([np.asarray(e[1]) for e in expected]))
    np.testing.assert_array_equal(
        keys.view(np.int32), np.stack([np.asarray(e[0]) for e in expected]).view(np.int32)
    )
