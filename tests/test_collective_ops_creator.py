"""The SPMD collective-ops creator: exact IR of every callback (default and per-group), module
verification, and interpreter values, on 2 replicas x 4 partitions (device d = r*4 + p)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType, f32
from xdsl.ir import SSAValue
from xdsl.parser import Parser
from xdsl.rewriter import InsertPoint, Rewriter

from neuron_cc.dialects.hlo.attributes import ReplicaGroupsAttr
from neuron_cc.dialects.replica_groups import next_channel_id as analysis_next_channel_id
from neuron_cc.interpreter.runner import run_module
from neuron_cc.spmd.collective_ops_creator import (
    CollectiveOpsCreator,
    _expand_device_groups,
    default_collective_ops_creator,
    next_channel_id,
    per_group_collective_ops_creator,
)
from neuron_cc.testing.ir import neuron_context as _context

Array = np.ndarray[Any, Any]
R, P = 2, 4
D = R * P
Emit = Callable[[Builder, list[SSAValue]], SSAValue]

DEFAULT = default_collective_ops_creator(P, R)
GROUPS = [[0, 2], [1, 3]]
PER_GROUP = per_group_collective_ops_creator(DEFAULT, GROUPS)
T16 = TensorType(f32, [16])


# --- harness ---------------------------------------------------------------------------------


def build(emit: Emit, arg_types: Sequence[str] = ("tensor<8xf32>",)) -> tuple[ModuleOp, str]:
    """A module with `@main(args)` returning `emit(builder, args)`; returns it and the func text."""
    args = ", ".join(f"%{'xyz'[i]}: {t}" for i, t in enumerate(arg_types))
    text = (
        f"builtin.module attributes {{hlo.num_partitions = {P}, hlo.num_replicas = {R}}} {{\n"
        f"  func.func @main({args}) {{\n    func.return\n  }}\n}}"
    )
    module = Parser(_context(), text).parse_module()
    main = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    ret = main.body.block.last_op
    assert ret is not None
    value = emit(Builder(InsertPoint.before(ret)), list(main.body.block.args))
    Rewriter.replace_op(ret, func.ReturnOp(value))
    main.function_type = FunctionType.from_lists(main.function_type.inputs.data, [value.type])
    module.verify()
    return module, str(main)


def ir(emit: Emit, arg_types: Sequence[str] = ("tensor<8xf32>",)) -> str:
    return build(emit, arg_types)[1]


def run(emit: Emit, *inputs: Array, arg_types: Sequence[str] = ("tensor<8xf32>",)) -> Any:
    module, _ = build(emit, arg_types)
    (out,) = run_module(module, list(inputs)).outputs
    return out


def dev_arange(n: int) -> Array:
    """Device d holds arange(n) + 100*d."""
    return np.stack([np.arange(n) + 100 * d for d in range(D)]).astype(np.float32)


def func_text(body: str, ret: str, ret_type: str = "tensor<8xf32>", args: str = "") -> str:
    args = args or "%x: tensor<8xf32>"
    return f"func.func @main({args}) -> {ret_type} {{\n{body}  func.return {ret} : {ret_type}\n}}"


def add_region(n: int, op: str = "hlo.add") -> str:
    return (
        f"  ^bb0(%{n}: tensor<f32>, %{n + 1}: tensor<f32>):\n"
        f"    %{n + 2} = {op} %{n}, %{n + 1} : tensor<f32>\n"
        f"    hlo.return %{n + 2} : tensor<f32>\n"
        "  } : (tensor<8xf32>) -> tensor<8xf32>\n"
    )


def all_reduce_text(groups: str, channel: int, op: str = "hlo.add") -> str:
    return func_text(
        f"  %0 = hlo.all_reduce(%x) replica_groups = {groups} channel_id = {channel} "
        "use_global_device_ids {\n" + add_region(1, op),
        "%0",
    )


def all_gather_text(groups: str, channel: int) -> str:
    return func_text(
        f"  %0 = hlo.all_gather(%x) dim = 0 replica_groups = {groups} channel_id = {channel} "
        "use_global_device_ids : (tensor<8xf32>) -> tensor<16xf32>\n",
        "%0",
        "tensor<16xf32>",
    )


def permute_text(pairs: str, channel: int) -> str:
    return func_text(
        f"  %0 = hlo.collective_permute %x pairs = {pairs} channel_id = {channel} "
        ": tensor<8xf32>\n",
        "%0",
    )


ZERO_TEXT = func_text(
    "  %0 = hlo.constant dense<0.000000e+00> : tensor<f32>\n"
    "  %1 = hlo.broadcast %0, dims = [] : (tensor<f32>) -> tensor<8xf32>\n",
    "%1",
)
IDENTITY_TEXT = func_text("", "%x")


def iota(
    g: int, s: int, dims: Sequence[int], perm: Sequence[int] | None = None
) -> ReplicaGroupsAttr:
    return ReplicaGroupsAttr.iota(g, s, dims, perm)


# --- the record ------------------------------------------------------------------------------


def test_field_order_is_the_contract():
    names = [f.name for f in dataclasses.fields(CollectiveOpsCreator)]
    assert names == [
        "create_partition_id",
        "create_all_reduce",
        "create_all_reduce_iota",
        "create_collective_permute",
        "create_all_to_all",
        "create_all_to_all_iota",
        "create_all_gather",
        "create_all_gather_iota",
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT.create_partition_id = DEFAULT.create_partition_id  # pyright: ignore[reportAttributeAccessIssue]


def test_next_channel_id_is_reexported():
    assert next_channel_id is analysis_next_channel_id
    module, _ = build(lambda b, a: DEFAULT.create_all_reduce(b, a[0], "hlo.add", [], 7))
    assert next_channel_id(module.walk()) == 8


# --- default creator: exact IR ---------------------------------------------------------------


def test_default_partition_id():
    text = ir(lambda b, a: DEFAULT.create_partition_id(b))
    assert text == func_text("  %0 = hlo.partition_id : tensor<ui32>\n", "%0", "tensor<ui32>")


def test_default_all_reduce_expands_groups_per_replica():
    text = ir(lambda b, a: DEFAULT.create_all_reduce(b, a[0], "hlo.add", [[0, 1], [2, 3]], 3))
    assert text == all_reduce_text("[[0, 1], [2, 3], [4, 5], [6, 7]]", 3)


@pytest.mark.parametrize("groups", [[], [[0, 1, 2, 3]], [[3, 2, 1, 0]]])
def test_default_all_reduce_single_group_means_all_partitions(groups: list[list[int]]):
    text = ir(lambda b, a: DEFAULT.create_all_reduce(b, a[0], "hlo.maximum", groups, 1))
    assert text == all_reduce_text("[[0, 1, 2, 3], [4, 5, 6, 7]]", 1, "hlo.maximum")


def test_default_all_reduce_iota_expands_across_replicas():
    # {0,2},{1,3} per replica -> {0,2},{1,3},{4,6},{5,7}
    groups = iota(2, 2, [2, 2], [1, 0])
    text = ir(lambda b, a: DEFAULT.create_all_reduce_iota(b, a[0], "hlo.add", groups, 2))
    assert text == all_reduce_text("[4,2]<=[2,2,2]T(0,2,1)", 2)
    text = ir(lambda b, a: DEFAULT.create_all_reduce_iota(b, a[0], "hlo.add", iota(1, 4, [4]), 2))
    assert text == all_reduce_text("[2,4]<=[8]", 2)


def test_default_permute_without_pairs_is_zeros():
    assert ir(lambda b, a: DEFAULT.create_collective_permute(b, a[0], [], 1)) == ZERO_TEXT


def test_default_permute_zeros_of_integer_and_scalar_types():
    text = ir(lambda b, a: DEFAULT.create_collective_permute(b, a[0], [], 1), ["tensor<2x3xi32>"])
    assert text == func_text(
        "  %0 = hlo.constant dense<0> : tensor<i32>\n"
        "  %1 = hlo.broadcast %0, dims = [] : (tensor<i32>) -> tensor<2x3xi32>\n",
        "%1",
        "tensor<2x3xi32>",
        "%x: tensor<2x3xi32>",
    )
    text = ir(lambda b, a: DEFAULT.create_collective_permute(b, a[0], [], 1), ["tensor<f32>"])
    assert text == func_text(
        "  %0 = hlo.constant dense<0.000000e+00> : tensor<f32>\n",
        "%0",
        "tensor<f32>",
        "%x: tensor<f32>",
    )


def test_default_identity_permute_over_all_partitions_is_the_operand():
    pairs = [(i, i) for i in (2, 0, 3, 1)]
    assert ir(lambda b, a: DEFAULT.create_collective_permute(b, a[0], pairs, 1)) == IDENTITY_TEXT


def test_default_partial_identity_permute_is_a_collective():
    text = ir(lambda b, a: DEFAULT.create_collective_permute(b, a[0], [(0, 0), (1, 1)], 4))
    assert text == permute_text("[[0, 0], [1, 1]]", 4)


def test_default_permute():
    pairs = [(0, 1), (1, 2), (2, 3)]
    text = ir(lambda b, a: DEFAULT.create_collective_permute(b, a[0], pairs, 5))
    assert text == permute_text("[[0, 1], [1, 2], [2, 3]]", 5)


def test_default_all_to_all_array_form_passes_partition_groups():
    text = ir(lambda b, a: DEFAULT.create_all_to_all(b, [a[0]], [[0, 1], [2, 3]], 6, 0))
    assert text == func_text(
        "  %0 = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1], [2, 3]] channel_id = 6 "
        ": (tensor<8xf32>) -> tensor<8xf32>\n",
        "%0",
    )


def test_default_all_to_all_tuple_form():
    text = ir(
        lambda b, a: DEFAULT.create_all_to_all(b, [a[0], a[1]], [[0, 2], [1, 3]], 7, None),
        ["tensor<8xf32>", "tensor<8xf32>"],
    )
    ret = "tuple<tensor<8xf32>, tensor<8xf32>>"
    assert text == func_text(
        "  %0 = hlo.all_to_all(%x, %y) replica_groups = [[0, 2], [1, 3]] channel_id = 7 "
        f": (tensor<8xf32>, tensor<8xf32>) -> {ret}\n",
        "%0",
        ret,
        "%x: tensor<8xf32>, %y: tensor<8xf32>",
    )


def test_default_all_to_all_iota_keeps_partition_ids():
    groups = iota(2, 2, [2, 2], [1, 0])
    text = ir(lambda b, a: DEFAULT.create_all_to_all_iota(b, [a[0]], groups, 8, 0))
    assert text == func_text(
        "  %0 = hlo.all_to_all(%x) dim = 0 replica_groups = [2,2]<=[2,2]T(1,0) channel_id = 8 "
        ": (tensor<8xf32>) -> tensor<8xf32>\n",
        "%0",
    )


def test_default_all_gather_expands_groups_per_replica():
    text = ir(lambda b, a: DEFAULT.create_all_gather(b, a[0], T16, [[0, 3], [1, 2]], 9, 0))
    assert text == all_gather_text("[[0, 3], [1, 2], [4, 7], [5, 6]]", 9)
    text = ir(lambda b, a: DEFAULT.create_all_gather(b, a[0], TensorType(f32, [32]), [], 9, 0))
    assert "replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]]" in text


def test_default_all_gather_iota():
    text = ir(lambda b, a: DEFAULT.create_all_gather_iota(b, a[0], T16, iota(2, 2, [4]), 10, 0))
    assert text == all_gather_text("[4,2]<=[8]", 10)


# --- per-group creator: exact IR -------------------------------------------------------------


def test_expand_device_groups_worked_example():
    groups = ((0, 1, 2, 3), (4, 5, 6, 7))
    assert _expand_device_groups(groups, [[0, 2], [1, 3]]) == [[0, 2], [1, 3], [4, 6], [5, 7]]
    assert _expand_device_groups(groups, []) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_per_group_fast_path_returns_the_creator():
    assert per_group_collective_ops_creator(DEFAULT, [[0, 1, 2, 3]]) is DEFAULT
    assert per_group_collective_ops_creator(DEFAULT, [[1, 0, 2, 3]]) is not DEFAULT


@pytest.mark.parametrize("groups", [[], [[]], [[0, 1], [2]], [[0, 1], [1, 2]]])
def test_per_group_rejects_malformed_device_groups(groups: list[list[int]]):
    with pytest.raises(ValueError, match="device group"):
        per_group_collective_ops_creator(DEFAULT, groups)


def test_per_group_partition_id_is_the_in_group_index():
    text = ir(lambda b, a: PER_GROUP.create_partition_id(b))
    assert text == func_text(
        "  %0 = hlo.partition_id : tensor<ui32>\n"
        "  %1 = hlo.constant dense<[0, 0, 1, 1]> : tensor<4xui32>\n"
        "  %2 = hlo.dynamic_slice %1 at [%0] sizes = [1] : (tensor<4xui32>, tensor<ui32>) "
        "-> tensor<1xui32>\n"
        "  %3 = hlo.reshape %2 : (tensor<1xui32>) -> tensor<ui32>\n",
        "%3",
        "tensor<ui32>",
    )


def test_per_group_all_reduce_without_subgroups_uses_the_device_groups():
    text = ir(lambda b, a: PER_GROUP.create_all_reduce(b, a[0], "hlo.add", [], 1))
    assert text == all_reduce_text("[[0, 2], [1, 3], [4, 6], [5, 7]]", 1)


def test_per_group_all_reduce_translates_subgroups_group_major():
    creator = per_group_collective_ops_creator(DEFAULT, [[3, 2], [1, 0]])
    text = ir(lambda b, a: creator.create_all_reduce(b, a[0], "hlo.add", [[1], [0]], 2))
    # out[g*2 + i] = [device_groups[g][sub[i][0]]] -> {2},{3},{0},{1}, then per replica
    assert text == all_reduce_text("[[2], [3], [0], [1], [6], [7], [4], [5]]", 2)


def test_per_group_all_reduce_iota_stays_iota_when_it_can():
    # subgroup [1,2]<=[2] = {0,1} -> {0,2},{1,3} = [2,2]<=[2,2]T(1,0) -> across replicas
    text = ir(lambda b, a: PER_GROUP.create_all_reduce_iota(b, a[0], "hlo.add", iota(1, 2, [2]), 3))
    assert text == all_reduce_text("[4,2]<=[2,2,2]T(0,2,1)", 3)


def test_per_group_all_reduce_iota_falls_back_to_explicit_groups():
    creator = per_group_collective_ops_creator(DEFAULT, [[0, 3], [2, 1]])
    text = ir(lambda b, a: creator.create_all_reduce_iota(b, a[0], "hlo.add", iota(1, 2, [2]), 4))
    assert text == all_reduce_text("[[0, 3], [2, 1], [4, 7], [6, 5]]", 4)


def test_per_group_permute_translates_pairs_for_every_group():
    text = ir(lambda b, a: PER_GROUP.create_collective_permute(b, a[0], [(0, 1), (1, 0)], 5))
    assert text == permute_text("[[0, 2], [2, 0], [1, 3], [3, 1]]", 5)


def test_per_group_identity_permute_is_the_operand():
    pairs = [(0, 0), (1, 1)]
    assert ir(lambda b, a: PER_GROUP.create_collective_permute(b, a[0], pairs, 1)) == IDENTITY_TEXT


def test_per_group_permute_without_pairs_is_zeros():
    assert ir(lambda b, a: PER_GROUP.create_collective_permute(b, a[0], [], 1)) == ZERO_TEXT


def test_per_group_all_to_all():
    text = ir(lambda b, a: PER_GROUP.create_all_to_all(b, [a[0]], [[0, 1]], 6, 0))
    assert text == func_text(
        "  %0 = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 2], [1, 3]] channel_id = 6 "
        ": (tensor<8xf32>) -> tensor<8xf32>\n",
        "%0",
    )


def test_per_group_all_to_all_tuple_form_without_subgroups():
    text = ir(
        lambda b, a: PER_GROUP.create_all_to_all(b, [a[0], a[1]], [], 7, None),
        ["tensor<8xf32>", "tensor<8xf32>"],
    )
    ret = "tuple<tensor<8xf32>, tensor<8xf32>>"
    assert text == func_text(
        "  %0 = hlo.all_to_all(%x, %y) replica_groups = [[0, 2], [1, 3]] channel_id = 7 "
        f": (tensor<8xf32>, tensor<8xf32>) -> {ret}\n",
        "%0",
        ret,
        "%x: tensor<8xf32>, %y: tensor<8xf32>",
    )


def test_per_group_all_to_all_iota():
    text = ir(lambda b, a: PER_GROUP.create_all_to_all_iota(b, [a[0]], iota(1, 2, [2]), 8, 0))
    assert text == func_text(
        "  %0 = hlo.all_to_all(%x) dim = 0 replica_groups = [2,2]<=[2,2]T(1,0) channel_id = 8 "
        ": (tensor<8xf32>) -> tensor<8xf32>\n",
        "%0",
    )


def test_per_group_all_gather():
    text = ir(lambda b, a: PER_GROUP.create_all_gather(b, a[0], T16, [[1, 0]], 9, 0))
    assert text == all_gather_text("[[2, 0], [3, 1], [6, 4], [7, 5]]", 9)


def test_per_group_all_gather_iota():
    text = ir(lambda b, a: PER_GROUP.create_all_gather_iota(b, a[0], T16, iota(1, 2, [2]), 10, 0))
    assert text == all_gather_text("[4,2]<=[2,2,2]T(0,2,1)", 10)


def test_nested_per_group_creators_compose():
    # groups {0,1},{2,3} of the per-group creator over {0,2},{1,3}: in-group index pairs.
    inner = per_group_collective_ops_creator(PER_GROUP, [[1, 0]])
    text = ir(lambda b, a: inner.create_all_reduce(b, a[0], "hlo.add", [], 1))
    assert text == all_reduce_text("[[2, 0], [3, 1], [6, 4], [7, 5]]", 1)


# --- interpreter values ----------------------------------------------------------------------


def _group_sums(x: Array, groups: Sequence[Sequence[int]]) -> Array:
    expected = np.empty_like(x)
    for g in groups:
        expected[list(g)] = x[list(g)].sum(axis=0)
    return expected


def test_run_default_partition_id():
    out = run(lambda b, a: DEFAULT.create_partition_id(b), dev_arange(8))
    np.testing.assert_array_equal(out, [d % P for d in range(D)])


def test_run_per_group_partition_id():
    out = run(lambda b, a: PER_GROUP.create_partition_id(b), dev_arange(8))
    np.testing.assert_array_equal(out, [0, 0, 1, 1, 0, 0, 1, 1])
    assert out.dtype == np.uint32
    creator = per_group_collective_ops_creator(DEFAULT, [[3, 1, 2, 0]])
    out = run(lambda b, a: creator.create_partition_id(b), dev_arange(8))
    np.testing.assert_array_equal(out, [3, 1, 2, 0, 3, 1, 2, 0])


def test_run_default_all_reduce():
    x = dev_arange(8)
    out = run(lambda b, a: DEFAULT.create_all_reduce(b, a[0], "hlo.add", [[0, 1], [2, 3]], 1), x)
    np.testing.assert_array_equal(out, _group_sums(x, [[0, 1], [2, 3], [4, 5], [6, 7]]))


def test_run_per_group_all_reduce_sums_within_device_groups():
    x = dev_arange(8)
    out = run(lambda b, a: PER_GROUP.create_all_reduce(b, a[0], "hlo.add", [], 1), x)
    np.testing.assert_array_equal(out, _group_sums(x, [[0, 2], [1, 3], [4, 6], [5, 7]]))
    out = run(
        lambda b, a: PER_GROUP.create_all_reduce_iota(b, a[0], "hlo.add", iota(1, 2, [2]), 1), x
    )
    np.testing.assert_array_equal(out, _group_sums(x, [[0, 2], [1, 3], [4, 6], [5, 7]]))


def test_run_permutes():
    x = dev_arange(8)
    zeros = run(lambda b, a: DEFAULT.create_collective_permute(b, a[0], [], 1), x)
    np.testing.assert_array_equal(zeros, np.zeros_like(x))
    same = run(
        lambda b, a: DEFAULT.create_collective_permute(b, a[0], [(i, i) for i in range(P)], 1), x
    )
    np.testing.assert_array_equal(same, x)
    swapped = run(lambda b, a: PER_GROUP.create_collective_permute(b, a[0], [(0, 1), (1, 0)], 1), x)
    np.testing.assert_array_equal(swapped, x[[2, 3, 0, 1, 6, 7, 4, 5]])


def test_run_per_group_all_gather():
    x = dev_arange(8)
    out = run(lambda b, a: PER_GROUP.create_all_gather(b, a[0], T16, [], 1, 0), x)
    for d in range(D):
        partner = {0: 2, 1: 3, 2: 0, 3: 1}[d % P] + (d // P) * P
        first, second = sorted([d, partner])
        np.testing.assert_array_equal(out[d], np.concatenate([x[first], x[second]]))


def test_run_per_group_all_to_all():
    x = dev_arange(8)
    out = run(lambda b, a: PER_GROUP.create_all_to_all(b, [a[0]], [], 1, 0), x)
    # group {p, q} (p < q): rank k receives chunk k of both members, in rank order.
    for d in range(D):
        group = [0, 2] if d % 2 == 0 else [1, 3]
        members = [(d // P) * P + p for p in group]
        k = members.index(d)
        expected = np.concatenate([x[m][k * 4 : (k + 1) * 4] for m in members])
        np.testing.assert_array_equal(out[d], expected)


def test_types_are_preserved_for_integer_operands():
    x = np.stack([np.arange(6).reshape(2, 3) + d for d in range(D)]).astype(np.int32)
    out = run(
        lambda b, a: PER_GROUP.create_all_reduce(b, a[0], "hlo.maximum", [], 1),
        x,
        arg_types=["tensor<2x3xi32>"],
    )
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out[0], x[2])
