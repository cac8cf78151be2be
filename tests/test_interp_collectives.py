"""Interpreter: every collective in every group mode, against hand-computed arrays.

Inputs carry a leading device axis (device d = flattened id r*P+p holds `arange(n) + 100*d`).
Expected values are written out explicitly or computed by the tiny reference below, which is
written from docs/collective-semantics.md §5's definitions and does NOT call neuron_cc.analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from neuron_cc.interpreter.runner import RunResult, run_module
from neuron_cc.interpreter.values import InterpretationError
from neuron_cc.testing.ir import module_text
from neuron_cc.testing.ir import parse_module as parse
from neuron_cc.testing.loop_text import WhileLoop, counted

Array = np.ndarray[Any, Any]

# --- harness ---------------------------------------------------------------------------------


def run(body: str, r: int, p: int, *inputs: Array) -> RunResult:
    return run_module(parse(module_text(body, r, p)), list(inputs), r, p)


def run1(body: str, r: int, p: int, *inputs: Array) -> Array:
    (out,) = run(body, r, p, *inputs).outputs
    return out


def dev_arange(shape: tuple[int, ...], devices: int, dtype: Any = np.float32) -> Array:
    """Device d holds arange(n).reshape(shape) + 100*d."""
    n = int(np.prod(shape))
    base = np.arange(n).reshape(shape)
    return np.stack([base + 100 * d for d in range(devices)]).astype(dtype)


def check(got: Any, expected: Any) -> None:
    got_a, expected_a = np.asarray(got), np.asarray(expected)
    assert got_a.dtype == expected_a.dtype, (got_a.dtype, expected_a.dtype)
    assert got_a.shape == expected_a.shape, (got_a.shape, expected_a.shape)
    np.testing.assert_array_equal(got_a, expected_a)


def region(op: str = "hlo.add", ety: str = "f32") -> str:
    return f"""{{
  ^bb0(%a: tensor<{ety}>, %b: tensor<{ety}>):
    %c = {op} %a, %b : tensor<{ety}>
    hlo.return %c : tensor<{ety}>
  }}"""


# max written with compare + select: not a plain ufunc, so the region itself is interpreted
SELECT_MAX = """{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = hlo.compare GT, %a, %b : tensor<f32> -> tensor<i1>
    %c = hlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
    hlo.return %c : tensor<f32>
  }"""

# max(a, b) * 1.0 with a constant inside the region
CONST_MAX = """{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %one = hlo.constant dense<1.000000e+00> : tensor<f32>
    %m = hlo.maximum %a, %b : tensor<f32>
    %c = hlo.multiply %m, %one : tensor<f32>
    hlo.return %c : tensor<f32>
  }"""


def unary_fn(op_text: str, in_type: str, out_type: str) -> str:
    return f"""func.func @main(%x: {in_type}) -> {out_type} {{
  %s = {op_text}
  func.return %s : {out_type}
}}"""


def all_reduce_fn(groups: str, flags: str = "", t: str = "tensor<4xf32>", reg: str = "") -> str:
    ety = t[t.rfind("x") + 1 : -1] if "x" in t else t[7:-1]
    body = reg or region("hlo.add", ety)
    return unary_fn(
        f"hlo.all_reduce(%x) replica_groups = {groups}{flags} {body} : ({t}) -> {t}", t, t
    )


# --- independent reference (docs/collective-semantics.md §5) -------------------------------------------------------


def ref_groups(groups: Sequence[Sequence[int]], mode: str, r: int, p: int) -> list[list[int]]:
    """Flattened device ids of every group, in rank order."""
    out: list[list[int]] = []
    if mode == "cross_replica":
        gs = groups or [list(range(r))]
        out = [[rep * p + part for rep in g] for part in range(p) for g in gs]
    elif mode == "cross_partition":
        gs = groups or [list(range(p))]
        out = [[rep * p + part for part in g] for rep in range(r) for g in gs]
    elif mode == "cross_replica_and_partition":
        gs = groups or [list(range(r))]
        out = [[rep * p + part for rep in g for part in range(p)] for g in gs]
    else:
        out = [list(g) for g in groups]
    return out


def ref_all_reduce(x: Array, groups: list[list[int]], fn: Callable[..., Array]) -> Array:
    out = np.zeros_like(x)
    for g in groups:
        acc = x[g[0]]
        for d in g[1:]:
            acc = fn(acc, x[d])
        for d in g:
            out[d] = acc
    return out


def ref_all_gather(x: Array, groups: list[list[int]], dim: int) -> Array:
    n = len(groups[0])
    shape = list(x.shape[1:])
    shape[dim] *= n
    out = np.zeros((x.shape[0], *shape), x.dtype)
    for g in groups:
        for d in g:
            out[d] = np.concatenate([x[m] for m in g], axis=dim)
    return out


def ref_reduce_scatter(x: Array, groups: list[list[int]], dim: int) -> Array:
    n = len(groups[0])
    shape = list(x.shape[1:])
    shape[dim] //= n
    out = np.zeros((x.shape[0], *shape), x.dtype)
    for g in groups:
        total = sum(x[m] for m in g)
        for k, d in enumerate(g):
            out[d] = np.split(total, n, axis=dim)[k]
    return out


def ref_all_to_all(x: Array, groups: list[list[int]], dim: int) -> Array:
    n = len(groups[0])
    out = np.zeros_like(x)
    for g in groups:
        for i, d in enumerate(g):
            out[d] = np.concatenate([np.split(x[m], n, axis=dim)[i] for m in g], axis=dim)
    return out


def test_reference_expands_modes_like_design() -> None:
    # Sanity of the test's own reference against docs/collective-semantics.md §5's worked examples.
    assert ref_groups([[0, 1]], "cross_replica_and_partition", 2, 4) == [[0, 1, 2, 3, 4, 5, 6, 7]]
    assert ref_groups([[1, 0]], "cross_replica_and_partition", 2, 2) == [[2, 3, 0, 1]]
    assert ref_groups([[0, 1]], "cross_replica", 2, 4) == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert ref_groups([[1, 0]], "cross_partition", 2, 2) == [[1, 0], [3, 2]]


# --- all_reduce ------------------------------------------------------------------------------


def test_all_reduce_cross_replica_r2() -> None:
    x = dev_arange((4,), 2)
    got = run1(all_reduce_fn("[[0, 1]]"), 2, 1, x)
    row = np.array([100, 102, 104, 106], np.float32)
    check(got, np.stack([row, row]))


@pytest.mark.parametrize("groups", ["[[0, 1]]", "[]"])
def test_all_reduce_cross_replica_acts_per_partition(groups: str) -> None:
    # R=2, P=4: device (r, p) = r*4+p is reduced with (1-r, p) only.
    x = dev_arange((4,), 8)
    got = run1(all_reduce_fn(groups), 2, 4, x)
    expected = np.stack([np.arange(4) * 2 + 100 * (d % 4) * 2 + 400 for d in range(8)]).astype(
        np.float32
    )
    check(got, expected)
    check(expected[1], np.array([600, 602, 604, 606], np.float32))


def test_all_reduce_cross_replica_single_replica_is_identity() -> None:
    # R=1, P=4, no channel: each partition's group is just itself.
    x = dev_arange((2,), 4)
    check(run1(all_reduce_fn("[]", t="tensor<2xf32>"), 1, 4, x), x)


def test_device_count_override_too_small_for_the_groups() -> None:
    module = parse(
        module_text(
            all_reduce_fn("[[0, 1, 2, 3, 4, 5, 6, 7]]", " channel_id = 1 use_global_device_ids"),
            1,
            8,
        )
    )
    with pytest.raises(InterpretationError):
        run_module(module, [dev_arange((4,), 4)], 1, 4)


def test_all_reduce_max_cross_replica_two_groups() -> None:
    x = dev_arange((3,), 4)
    got = run1(all_reduce_fn("[[0, 2], [1, 3]]", reg=region("hlo.maximum")), 4, 1, x)
    check(got, np.stack([x[2], x[3], x[2], x[3]]))


def test_all_reduce_multiply_and_minimum_integers() -> None:
    x = np.array([[2, -3], [5, 7], [-1, 4]], np.int32)
    got = run1(all_reduce_fn("[]", t="tensor<2xi32>", reg=region("hlo.multiply", "i32")), 3, 1, x)
    check(got, np.tile(np.array([-10, -84], np.int32), (3, 1)))
    got = run1(all_reduce_fn("[]", t="tensor<2xi32>", reg=region("hlo.minimum", "i32")), 3, 1, x)
    check(got, np.tile(np.array([-1, -3], np.int32), (3, 1)))


def test_all_reduce_integer_sum_wraps_in_the_element_type() -> None:
    x = np.array([[100], [100], [100]], np.int8)
    got = run1(all_reduce_fn("[[0, 1, 2]]", t="tensor<1xi8>", reg=region("hlo.add", "i8")), 3, 1, x)
    check(got, np.full((3, 1), 300 - 256, np.int8))


def test_all_reduce_pred_or_and() -> None:
    x = np.array([[True, False, False], [False, False, True]])
    got = run1(all_reduce_fn("[[0, 1]]", t="tensor<3xi1>", reg=region("hlo.or", "i1")), 2, 1, x)
    check(got, np.tile(np.array([True, False, True]), (2, 1)))
    got = run1(all_reduce_fn("[[0, 1]]", t="tensor<3xi1>", reg=region("hlo.and", "i1")), 2, 1, x)
    check(got, np.zeros((2, 3), bool))


@pytest.mark.parametrize("reg", [SELECT_MAX, CONST_MAX], ids=["compare_select", "with_constant"])
def test_all_reduce_general_region(reg: str) -> None:
    # R=4, P=2, cross_replica groups {3,0},{1,2}: values not monotonic in the device id.
    x = np.array([[5, -1], [0, 9], [7, 7], [-3, 2], [1, 1], [8, -8], [2, 3], [4, 0]], np.float32)
    got = run1(all_reduce_fn("[[3, 0], [1, 2]]", t="tensor<2xf32>", reg=reg), 4, 2, x)
    # partition 0: replicas 3,0 = devices 6,0; replicas 1,2 = devices 2,4
    # partition 1: devices 7,1 and 3,5
    expected = np.zeros_like(x)
    for a, b in [(6, 0), (2, 4), (7, 1), (3, 5)]:
        expected[a] = expected[b] = np.maximum(x[a], x[b])
    check(got, expected)
    check(expected[0], np.array([5, 3], np.float32))


def test_all_reduce_cross_replica_and_partition_expands_over_partitions() -> None:
    # R=2, P=4, channel_id without use_global_device_ids: replica group {0,1} x all partitions.
    x = dev_arange((4,), 8)
    got = run1(all_reduce_fn("[[0, 1]]", " channel_id = 1"), 2, 4, x)
    total = (np.arange(4) * 8 + 100 * 28).astype(np.float32)
    check(got, np.tile(total, (8, 1)))


def test_all_reduce_cross_replica_and_partition_two_replica_groups() -> None:
    # R=4, P=2: {0,1} -> devices 0..3, {2,3} -> devices 4..7.
    x = dev_arange((2,), 8)
    got = run1(all_reduce_fn("[[0, 1], [2, 3]]", " channel_id = 1", t="tensor<2xf32>"), 4, 2, x)
    low = x[0:4].sum(axis=0)
    high = x[4:8].sum(axis=0)
    check(got, np.stack([low] * 4 + [high] * 4))
    check(low, np.array([600, 604], np.float32))


def test_all_reduce_with_channel_is_never_cross_partition() -> None:
    # R=1, P=4: as cross_partition [[0]] would not even cover [0, 4); it is replica 0 over
    # every partition, i.e. all four devices.
    x = dev_arange((2,), 4)
    got = run1(all_reduce_fn("[[0]]", " channel_id = 3", t="tensor<2xf32>"), 1, 4, x)
    check(got, np.tile(np.array([600, 604], np.float32), (4, 1)))


@pytest.mark.parametrize("groups", ["[[0, 2, 4, 6], [1, 3, 5, 7]]", "[2,4]<=[4,2]T(1,0)"])
def test_all_reduce_flattened_id(groups: str) -> None:
    x = dev_arange((4,), 8)
    got = run1(all_reduce_fn(groups, " channel_id = 1 use_global_device_ids"), 2, 4, x)
    even = x[[0, 2, 4, 6]].sum(axis=0)
    odd = x[[1, 3, 5, 7]].sum(axis=0)
    check(even, np.array([1200, 1204, 1208, 1212], np.float32))
    check(got, np.stack([even, odd] * 4))


@pytest.mark.parametrize("p", [1, 2])
def test_all_reduce_non_uniform_groups(p: int) -> None:
    # cross_replica R=4: {1,3,0} and the singleton {2}.
    x = dev_arange((3,), 4 * p)
    got = run1(all_reduce_fn("[[1, 3, 0], [2]]", t="tensor<3xf32>"), 4, p, x)
    expected = ref_all_reduce(x, ref_groups([[1, 3, 0], [2]], "cross_replica", 4, p), np.add)
    check(got, expected)
    # partition 0: device of replica 2 keeps its own value
    check(got[2 * p], x[2 * p])
    check(got[0], x[0] + x[p] + x[3 * p])


_TUPLE_TYPES = "tensor<4xf32>, tensor<2x2xi32>, tensor<ui8>"


@pytest.mark.parametrize("reg", [region("hlo.add"), SELECT_MAX], ids=["add", "select_max"])
def test_all_reduce_tuple_with_mixed_dtypes(reg: str) -> None:
    # One `to_apply` (typed on one operand's element type) reduces every operand, each in its
    # own element type (ui8 wraps around).
    body = f"""func.func @main(%x: tensor<4xf32>, %y: tensor<2x2xi32>, %z: tensor<ui8>) -> tuple<{_TUPLE_TYPES}> {{
  %s = hlo.all_reduce(%x, %y, %z) replica_groups = [[0, 1, 2]] {reg} : ({_TUPLE_TYPES}) -> tuple<{_TUPLE_TYPES}>
  func.return %s : tuple<{_TUPLE_TYPES}>
}}"""
    x = dev_arange((4,), 3)
    y = np.array([[[1, -5], [3, 0]], [[2, -6], [0, 0]], [[-1, -4], [9, 0]]], np.int32)
    z = np.array([200, 50, 10], np.uint8)
    outs = run(body, 3, 1, x, y, z).outputs
    assert len(outs) == 3
    if "select" in reg:
        check(outs[0], np.tile(x[2], (3, 1)))
        check(outs[1], np.tile(np.array([[2, -4], [9, 0]], np.int32), (3, 1, 1)))
        check(outs[2], np.full(3, 200, np.uint8))
    else:
        check(outs[0], np.tile(np.array([300, 303, 306, 309], np.float32), (3, 1)))
        check(outs[1], np.tile(np.array([[2, -15], [12, 0]], np.int32), (3, 1, 1)))
        check(outs[2], np.full(3, 260 - 256, np.uint8))


def test_all_reduce_bf16_rounds_once_at_the_end() -> None:
    # 8 replicas. Element 0: 256 + 7*1. Rounding every step would stay at 256 (256+1 is a tie,
    # to even = 256); one rounding of the exact 263 is a tie between 262 and 264 -> 264.
    # Element 1: 1 + 7*2^-8: per step stays 1.0; once: 1 + 3.5/128 -> 1 + 4/128 = 1.03125.
    x = np.zeros((8, 2), np.float32)
    x[0] = [256.0, 1.0]
    x[1:] = [1.0, 2.0**-8]
    body = all_reduce_fn("[[0, 1, 2, 3, 4, 5, 6, 7]]", t="tensor<2xbf16>")
    got = run1(body, 8, 1, x)
    check(got, np.tile(np.array([264.0, 1.03125], np.float32), (8, 1)))


# --- all_gather ------------------------------------------------------------------------------


def _gather_fn(groups: str, dim: int, in_t: str, out_t: str, flags: str = "") -> str:
    return unary_fn(
        f"hlo.all_gather(%x) dim = {dim} replica_groups = {groups}{flags} : ({in_t}) -> {out_t}",
        in_t,
        out_t,
    )


def test_all_gather_dim0_rank_order_is_group_order() -> None:
    x = dev_arange((2, 2), 4)
    got = run1(_gather_fn("[[3, 1, 2, 0]]", 0, "tensor<2x2xf32>", "tensor<8x2xf32>"), 4, 1, x)
    row = np.array(
        [[300, 301], [302, 303], [100, 101], [102, 103], [200, 201], [202, 203], [0, 1], [2, 3]],
        np.float32,
    )
    check(got, np.stack([row] * 4))


def test_all_gather_dim1_rank_order_is_group_order() -> None:
    x = dev_arange((2, 2), 4)
    got = run1(_gather_fn("[[3, 1, 2, 0]]", 1, "tensor<2x2xf32>", "tensor<2x8xf32>"), 4, 1, x)
    row = np.array(
        [[300, 301, 100, 101, 200, 201, 0, 1], [302, 303, 102, 103, 202, 203, 2, 3]], np.float32
    )
    check(got, np.stack([row] * 4))


def test_all_gather_cross_replica_and_partition_is_replica_major() -> None:
    # R=2, P=2, group {1,0} -> devices (1,0),(1,1),(0,0),(0,1) = 2,3,0,1.
    x = dev_arange((1,), 4)
    got = run1(
        _gather_fn("[[1, 0]]", 0, "tensor<1xf32>", "tensor<4xf32>", " channel_id = 1"), 2, 2, x
    )
    check(got, np.tile(np.array([200, 300, 0, 100], np.float32), (4, 1)))


def test_all_gather_cross_replica_per_partition() -> None:
    x = dev_arange((1,), 4)
    got = run1(_gather_fn("[[1, 0]]", 0, "tensor<1xf32>", "tensor<2xf32>"), 2, 2, x)
    # partition 0: devices 2,0; partition 1: devices 3,1
    check(got, np.array([[200, 0], [300, 100], [200, 0], [300, 100]], np.float32))


@pytest.mark.parametrize("groups", ["[[0, 2, 4, 6], [1, 3, 5, 7]]", "[2,4]<=[4,2]T(1,0)"])
def test_all_gather_flattened_id_iota(groups: str) -> None:
    x = dev_arange((2,), 8)
    body = _gather_fn(
        groups, 0, "tensor<2xf32>", "tensor<8xf32>", " channel_id = 2 use_global_device_ids"
    )
    got = run1(body, 2, 4, x)
    even = np.array([0, 1, 200, 201, 400, 401, 600, 601], np.float32)
    check(got, np.stack([even, even + 100] * 4))


def test_all_gather_cross_partition_empty_groups() -> None:
    # R=2, P=2 flattened? no: with channel and no global ids it is cross_replica_and_partition;
    # empty groups mean every replica, so one group of all 4 devices in replica-major order.
    x = dev_arange((1,), 4)
    got = run1(_gather_fn("[]", 0, "tensor<1xf32>", "tensor<4xf32>", " channel_id = 1"), 2, 2, x)
    check(got, np.tile(np.array([0, 100, 200, 300], np.float32), (4, 1)))


def test_all_gather_tuple() -> None:
    body = """func.func @main(%x: tensor<1xf32>, %y: tensor<2xi32>) -> tuple<tensor<2xf32>, tensor<4xi32>> {
  %s = hlo.all_gather(%x, %y) dim = 0 replica_groups = [[1, 0]] : (tensor<1xf32>, tensor<2xi32>) -> tuple<tensor<2xf32>, tensor<4xi32>>
  func.return %s : tuple<tensor<2xf32>, tensor<4xi32>>
}"""
    x = dev_arange((1,), 2)
    y = dev_arange((2,), 2, np.int32)
    a, b = run(body, 2, 1, x, y).outputs
    check(a, np.tile(np.array([100, 0], np.float32), (2, 1)))
    check(b, np.tile(np.array([100, 101, 0, 1], np.int32), (2, 1)))


# --- reduce_scatter --------------------------------------------------------------------------


def _scatter_fn(groups: str, dim: int, in_t: str, out_t: str, flags: str = "") -> str:
    return unary_fn(
        f"hlo.reduce_scatter(%x) dim = {dim} replica_groups = {groups}{flags} {region()}"
        f" : ({in_t}) -> {out_t}",
        in_t,
        out_t,
    )


def test_reduce_scatter_chunk_k_goes_to_member_k() -> None:
    # group [2, 0, 3, 1]: member 0 is device 2, member 1 device 0, ...
    x = dev_arange((8,), 4)
    got = run1(_scatter_fn("[[2, 0, 3, 1]]", 0, "tensor<8xf32>", "tensor<2xf32>"), 4, 1, x)
    total = np.arange(8) * 4 + 600  # [600, 604, ..., 628]
    expected = np.zeros((4, 2), np.float32)
    expected[2] = total[0:2]
    expected[0] = total[2:4]
    expected[3] = total[4:6]
    expected[1] = total[6:8]
    check(got, expected)
    check(got[0], np.array([608, 612], np.float32))


def test_reduce_scatter_dim1_two_groups_with_partitions() -> None:
    # R=4, P=2 cross_replica groups {3,1},{0,2}; dim 1 of a 2x4 operand.
    x = dev_arange((2, 4), 8)
    groups = [[3, 1], [0, 2]]
    got = run1(_scatter_fn("[[3, 1], [0, 2]]", 1, "tensor<2x4xf32>", "tensor<2x2xf32>"), 4, 2, x)
    expected = ref_reduce_scatter(x, ref_groups(groups, "cross_replica", 4, 2), 1)
    check(got, expected)
    # device 6 = (3, 0) is member 0 of {6, 2}: left halves of x6 + x2
    check(got[6], np.array([[800, 802], [808, 810]], np.float32))
    check(got[2], np.array([[804, 806], [812, 814]], np.float32))


def test_reduce_scatter_cross_replica_and_partition() -> None:
    # R=2, P=2, replica group {1,0} -> members 2,3,0,1.
    x = dev_arange((4,), 4)
    got = run1(
        _scatter_fn("[[1, 0]]", 0, "tensor<4xf32>", "tensor<1xf32>", " channel_id = 5"), 2, 2, x
    )
    total = np.arange(4) * 4 + 600
    check(got, np.array([[total[2]], [total[3]], [total[0]], [total[1]]], np.float32))


def test_reduce_scatter_tuple() -> None:
    body = f"""func.func @main(%x: tensor<4xf32>, %y: tensor<2xi32>) -> tuple<tensor<2xf32>, tensor<1xi32>> {{
  %s = hlo.reduce_scatter(%x, %y) dim = 0 replica_groups = [[1, 0]] {region()} : (tensor<4xf32>, tensor<2xi32>) -> tuple<tensor<2xf32>, tensor<1xi32>>
  func.return %s : tuple<tensor<2xf32>, tensor<1xi32>>
}}"""
    result = run(body, 2, 1, dev_arange((4,), 2), dev_arange((2,), 2, np.int32))
    a, b = result.outputs
    # sums [100, 102, 104, 106] and [100, 102]; device 1 is member 0
    check(a, np.array([[104, 106], [100, 102]], np.float32))
    check(b, np.array([[102], [100]], np.int32))
    record = result.state.stats["reduce-scatter"]
    assert (record.launches, record.bytes_per_device) == (1, (2 - 1) / 2 * (16 + 8))


# --- all_to_all ------------------------------------------------------------------------------


def _a2a_fn(groups: str, dim: int, t: str, flags: str = "") -> str:
    return unary_fn(
        f"hlo.all_to_all(%x) dim = {dim} replica_groups = {groups}{flags} : ({t}) -> {t}", t, t
    )


def test_all_to_all_dim0_explicit() -> None:
    # R=2, group [1, 0]: device 1 is rank 0, device 0 is rank 1.
    x = dev_arange((4,), 2)
    got = run1(_a2a_fn("[[1, 0]]", 0, "tensor<4xf32>"), 2, 1, x)
    check(got, np.array([[102, 103, 2, 3], [100, 101, 0, 1]], np.float32))


@pytest.mark.parametrize("dim", [0, 1])
def test_all_to_all_array_form_permuted_group(dim: int) -> None:
    x = dev_arange((4, 4), 4)
    got = run1(_a2a_fn("[[2, 0, 3, 1]]", dim, "tensor<4x4xf32>"), 4, 1, x)
    check(got, ref_all_to_all(x, [[2, 0, 3, 1]], dim))
    # device 0 is rank 1: it receives chunk 1 of devices 2, 0, 3, 1 in that order
    chunk = (lambda d: x[d][1:2]) if dim == 0 else (lambda d: x[d][:, 1:2])
    check(got[0], np.concatenate([chunk(2), chunk(0), chunk(3), chunk(1)], axis=dim))


def test_all_to_all_cross_partition() -> None:
    # R=2, P=2, channel_id: per replica, partitions {1,0}.
    x = dev_arange((2,), 4)
    got = run1(_a2a_fn("[[1, 0]]", 0, "tensor<2xf32>", " channel_id = 1"), 2, 2, x)
    check(got, np.array([[101, 1], [100, 0], [301, 201], [300, 200]], np.float32))


def test_all_to_all_tuple_form() -> None:
    body = """func.func @main(%y: tensor<2xi32>, %z: tensor<2xi32>) -> tuple<tensor<2xi32>, tensor<2xi32>> {
  %s = hlo.all_to_all(%y, %z) replica_groups = [[1, 0]] : (tensor<2xi32>, tensor<2xi32>) -> tuple<tensor<2xi32>, tensor<2xi32>>
  func.return %s : tuple<tensor<2xi32>, tensor<2xi32>>
}"""
    y = dev_arange((2,), 2, np.int32)  # y0 = [0, 1], y1 = [100, 101]
    z = y + 1000  # z0 = [1000, 1001], z1 = [1100, 1101]
    a, b = run(body, 2, 1, y, z).outputs
    # device 1 (rank 0): element k = operand 0 of the rank-k member -> y1, y0
    # device 0 (rank 1): element k = operand 1 of the rank-k member -> z1, z0
    check(a, np.array([[1100, 1101], [100, 101]], np.int32))
    check(b, np.array([[1000, 1001], [0, 1]], np.int32))


# --- collective_permute ----------------------------------------------------------------------


def _permute_fn(pairs: str, flags: str = "", t: str = "tensor<2xf32>") -> str:
    return unary_fn(f"hlo.collective_permute %x pairs = {pairs}{flags} : {t}", t, t)


def test_collective_permute_cross_replica_zero_fills_non_targets() -> None:
    x = dev_arange((2,), 4)
    got = run1(_permute_fn("[[0, 1], [1, 2], [2, 0]]"), 4, 1, x)
    check(got, np.array([[200, 201], [0, 1], [100, 101], [0, 0]], np.float32))


def test_collective_permute_cross_replica_acts_per_partition() -> None:
    # R=2, P=2, no channel: replica 0 -> replica 1 in each partition.
    x = dev_arange((2,), 4)
    got = run1(_permute_fn("[[0, 1]]"), 2, 2, x)
    check(got, np.array([[0, 0], [0, 0], [0, 1], [100, 101]], np.float32))


def test_collective_permute_cross_partition() -> None:
    # R=2, P=4, channel_id: partition p -> p+1 within each replica; partition 0 gets zeros.
    x = dev_arange((2,), 8)
    got = run1(_permute_fn("[[0, 1], [1, 2], [2, 3]]", " channel_id = 1"), 2, 4, x)
    expected = np.array(
        [[0, 0], [0, 1], [100, 101], [200, 201], [0, 0], [400, 401], [500, 501], [600, 601]],
        np.float32,
    )
    check(got, expected)


# --- collective_broadcast --------------------------------------------------------------------


def _bcast_fn(groups: str, flags: str = "", t: str = "tensor<2xf32>") -> str:
    return unary_fn(
        f"hlo.collective_broadcast(%x) replica_groups = {groups}{flags} : ({t}) -> {t}", t, t
    )


def test_collective_broadcast_root_is_first_id() -> None:
    x = dev_arange((2,), 8)
    got = run1(_bcast_fn("[[3, 0, 1, 2, 4, 5, 6, 7]]", " channel_id = 1"), 1, 8, x)
    check(got, np.tile(np.array([300, 301], np.float32), (8, 1)))


def test_collective_broadcast_partial_group_leaves_zeros() -> None:
    x = dev_arange((2,), 4)
    got = run1(_bcast_fn("[[2, 1]]", " channel_id = 1"), 1, 4, x)
    check(got, np.array([[0, 0], [200, 201], [200, 201], [0, 0]], np.float32))


def test_collective_broadcast_cross_replica_per_partition() -> None:
    # R=2, P=2, no channel: root replica 1 in each partition.
    x = dev_arange((2,), 4)
    got = run1(_bcast_fn("[[1, 0]]"), 2, 2, x)
    check(got, np.array([[200, 201], [300, 301], [200, 201], [300, 301]], np.float32))


def test_collective_broadcast_cross_partition_partial_group_per_replica() -> None:
    # R=2, P=4, channel: group {2,1} in each replica; partitions 0 and 3 are in no group.
    x = dev_arange((1,), 8)
    got = run1(_bcast_fn("[[2, 1]]", " channel_id = 2", "tensor<1xf32>"), 2, 4, x)
    check(got, np.array([[0], [200], [200], [0], [0], [600], [600], [0]], np.float32))


def test_collective_broadcast_two_groups() -> None:
    # R=1, P=4: groups {1,0},{3,2} -> roots 1 and 3.
    x = dev_arange((1,), 4)
    got = run1(_bcast_fn("[[1, 0], [3, 2]]", " channel_id = 2", "tensor<1xf32>"), 1, 4, x)
    check(got, np.array([[100], [100], [300], [300]], np.float32))


# --- send / recv -----------------------------------------------------------------------------

_PAIRS_VALUE = "{{0,1},{1,2},{2,3}}"


def _send_recv_fn(attr: str) -> str:
    t3 = "tuple<tensor<2xf32>, tensor<ui32>, !hlo.token>"
    return f"""func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {{
  %t = hlo.after_all()
  %s = hlo.send %x, %t channel_id = 1 {{{attr}}} : tensor<2xf32> -> {t3}
  %sd = hlo.send_done %s channel_id = 1 {{{attr}}} : {t3}
  %r = hlo.recv %sd channel_id = 1 {{{attr}}} : {t3}
  %rd = hlo.recv_done %r channel_id = 1 {{{attr}}} : {t3} -> tuple<tensor<2xf32>, !hlo.token>
  %v = hlo.get_tuple_element %rd[0] : tuple<tensor<2xf32>, !hlo.token>
  func.return %v : tensor<2xf32>
}}"""


_SEND_RECV_EXPECTED = np.array(
    [[0, 0], [0, 1], [100, 101], [200, 201], [0, 0], [400, 401], [500, 501], [600, 601]],
    np.float32,
)


def test_send_recv_routes_like_cross_partition_permute() -> None:
    # The form the HLO importer produces (frontend attributes kept as one string).
    attr = f'xla.frontend_attributes = "{{_xla_send_recv_source_target_pairs={_PAIRS_VALUE}}}"'
    x = dev_arange((2,), 8)
    got = run1(_send_recv_fn(attr), 2, 4, x)
    check(got, _SEND_RECV_EXPECTED)


def test_send_recv_with_the_documented_direct_attribute() -> None:
    attr = f'_xla_send_recv_source_target_pairs = "{_PAIRS_VALUE}"'
    x = dev_arange((2,), 8)
    got = run1(_send_recv_fn(attr), 2, 4, x)
    check(got, _SEND_RECV_EXPECTED)


# --- partition_id / replica_id ---------------------------------------------------------------


def test_partition_and_replica_id_r2_p4() -> None:
    body = """func.func @main() -> (tensor<ui32>, tensor<ui32>) {
  %p = hlo.partition_id : tensor<ui32>
  %r = hlo.replica_id : tensor<ui32>
  func.return %p, %r : tensor<ui32>, tensor<ui32>
}"""
    p, r = run(body, 2, 4).outputs
    check(p, np.array([0, 1, 2, 3, 0, 1, 2, 3], np.uint32))
    check(r, np.array([0, 0, 0, 0, 1, 1, 1, 1], np.uint32))


# --- statistics ------------------------------------------------------------------------------


def test_statistics_follow_the_byte_model() -> None:
    # R=4, groups of n=4, per-device operand 8 x f32 = 32 bytes.
    body = f"""func.func @main(%x: tensor<8xf32>, %h: tensor<8xbf16>) -> (tensor<8xf32>, tensor<32xf32>, tensor<2xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xbf16>) {{
  %ar = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3]] {region()} : (tensor<8xf32>) -> tensor<8xf32>
  %ag = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] : (tensor<8xf32>) -> tensor<32xf32>
  %rs = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] {region()} : (tensor<8xf32>) -> tensor<2xf32>
  %aa = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] : (tensor<8xf32>) -> tensor<8xf32>
  %cp = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] : tensor<8xf32>
  %cb = hlo.collective_broadcast(%x) replica_groups = [[0, 1, 2, 3]] : (tensor<8xf32>) -> tensor<8xf32>
  %hr = hlo.all_reduce(%h) replica_groups = [[0, 1], [2, 3]] {region("hlo.add", "bf16")} : (tensor<8xbf16>) -> tensor<8xbf16>
  func.return %ar, %ag, %rs, %aa, %cp, %cb, %hr : tensor<8xf32>, tensor<32xf32>, tensor<2xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xbf16>
}}"""
    x = dev_arange((8,), 4)
    h = np.ones((4, 8), np.float32)
    stats = run(body, 4, 1, x, h).state.stats
    summary = {k: (v.launches, v.bytes_per_device) for k, v in stats.items()}
    assert summary == {
        # 2(n-1)/n * B: 1.5*32 = 48, plus the bf16 one: n=2, B=16 -> 16
        "all-reduce": (2, 48.0 + 16.0),
        # (n-1)/n * B_full, B_full = the 32 x f32 result = 128 bytes
        "all-gather": (1, 96.0),
        # (n-1)/n * B_full, B_full = the operand = 32 bytes
        "reduce-scatter": (1, 24.0),
        "all-to-all": (1, 24.0),
        "collective-permute": (1, 32.0),
        "collective-broadcast": (1, 32.0),
    }


def test_statistics_count_every_executed_launch_in_a_loop() -> None:
    loop = WhileLoop(
        ["tensor<i32>", "tensor<4xf32>"],
        f"""
        %r = hlo.all_reduce(%v) replica_groups = [[0, 1]] {region()} : (tensor<4xf32>) -> tensor<4xf32>
        %one = hlo.constant dense<1> : tensor<i32>
        %i1 = hlo.add %i, %one : tensor<i32>
        """,
        ["%i1", "%r"],
        condition=counted(3, counter="%i"),
        names=["%i", "%v"],
        arguments=("%s", "%s"),
    )
    body = f"""func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %i0 = hlo.constant dense<0> : tensor<i32>
  %init = hlo.tuple %i0, %x : {loop.type}
{loop.text("%init", indent=2)}
  %out = hlo.get_tuple_element %w[1] : {loop.type}
  func.return %out : tensor<4xf32>
}}"""
    x = dev_arange((4,), 2)
    result = run(body, 2, 1, x)
    (out,) = result.outputs
    # each iteration doubles the pairwise sum: ((x0+x1)*2)*2
    check(out, np.tile((x[0] + x[1]) * 4, (2, 1)))
    record = result.state.stats["all-reduce"]
    assert (record.launches, record.bytes_per_device) == (3, 3 * 16.0)


# --- divergent control flow ------------------------------------------------------------------

_DIVERGENT = WhileLoop(
    ["tensor<ui32>"],
    """
    %one = hlo.constant dense<1> : tensor<ui32>
    %n = hlo.add %b, %one : tensor<ui32>
    """,
    ["%n"],
    condition="""
    %rid = hlo.replica_id : tensor<ui32>
    %p = hlo.compare LT, %c, %rid : tensor<ui32> -> tensor<i1>
    """,
    bare=True,
)
_DIVERGENT_WHILE = f"""func.func @main(%x: tensor<ui32>) -> tensor<ui32> {{
{_DIVERGENT.text("%x", indent=2)}
  func.return %w : tensor<ui32>
}}"""

_DIVERGENT_COND = """func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %rid = hlo.replica_id : tensor<ui32>
  %zero = hlo.constant dense<0> : tensor<ui32>
  %p = hlo.compare EQ, %rid, %zero : tensor<ui32> -> tensor<i1>
  %c = hlo.conditional(%p) (%x, %x) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%t: tensor<f32>):
    hlo.return %t : tensor<f32>
  }, {
  ^bb0(%f: tensor<f32>):
    %n = hlo.negate %f : tensor<f32>
    hlo.return %n : tensor<f32>
  }
  func.return %c : tensor<f32>
}"""


def test_divergent_while_predicate_is_an_error() -> None:
    x = np.zeros(4, np.uint32)
    with pytest.raises(InterpretationError, match="divergent control flow at") as info:
        run(_DIVERGENT_WHILE, 4, 1, x)
    message = str(info.value)
    assert "'hlo.while'" in message
    # device 0 says stop (0 < 0), devices 1, 2, 3 say continue
    assert "devices 0 and 1, 2, 3" in message


def test_uniform_while_predicate_runs() -> None:
    # the same program is fine when every device agrees (one replica).
    x = np.zeros(1, np.uint32)
    check(run1(_DIVERGENT_WHILE, 1, 1, x), np.zeros(1, np.uint32))


def test_divergent_conditional_is_an_error() -> None:
    x = np.ones(2, np.float32)
    with pytest.raises(InterpretationError, match="divergent control flow at") as info:
        run(_DIVERGENT_COND, 2, 1, x)
    message = str(info.value)
    assert "'hlo.conditional'" in message
    assert "devices 0 and 1" in message
