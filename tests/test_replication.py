"""Tests of neuron_cc.analysis.replication (issue 6: which devices hold equal values)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType, i32
from xdsl.ir import Block, Operation, Region, SSAValue

from neuron_cc.analysis.replication import ReplicationAnalysis, canonical, meet
from neuron_cc.dialects.hlo.attributes import ComparisonDirection
from neuron_cc.dialects.hlo.collectives import CollectiveOp
from neuron_cc.dialects.hlo.control_flow import (
    GetTupleElementOp,
    ReturnOp,
    TupleOp,
    WhileOp,
)
from neuron_cc.dialects.hlo.data_movement import DynamicSliceOp, DynamicUpdateSliceOp
from neuron_cc.dialects.hlo.elementwise import AddOp
from neuron_cc.dialects.hlo.elementwise_misc import CompareOp, ConstantOp, ConvertOp
from neuron_cc.dialects.hlo.p2p import PartitionIdOp
from neuron_cc.dialects.hlo.types import tuple_type
from neuron_cc.dialects.replica_groups import flattened_participants
from neuron_cc.testing.ir import parse_module
from neuron_cc.testing.loop_text import WhileLoop
from neuron_cc.translate.hlo_text.importer import import_hlo

CORPUS = Path(__file__).parent / "corpus" / "jax"

HALVES = [[0, 1, 2, 3], [4, 5, 6, 7]]
EVEN_ODD = [[0, 2, 4, 6], [1, 3, 5, 7]]
PAIRS_MOD4 = [[0, 4], [1, 5], [2, 6], [3, 7]]
ALL8 = [list(range(8))]
UNIQUE8 = tuple(range(8))
REPLICATED8 = (0,) * 8

# --- harness ---------------------------------------------------------------------------------


def parse(body: str, r: int = 1, p: int = 8) -> ModuleOp:
    text = (
        f"builtin.module attributes {{hlo.num_partitions = {p} : i64, "
        f"hlo.num_replicas = {r} : i64, hlo.use_spmd_partitioning}} {{\n{body}\n}}"
    )
    return parse_module(text)


def named(module: ModuleOp) -> dict[str, SSAValue]:
    """Every op result and block argument by its name hint."""
    values: dict[str, SSAValue] = {}
    for op in module.walk():
        for region in op.regions:
            for block in region.blocks:
                values.update({a.name_hint: a for a in block.args if a.name_hint})
        values.update({r.name_hint: r for r in op.results if r.name_hint})
    return values


def op_named(module: ModuleOp, name: str) -> Operation:
    for op in module.walk():
        if op.results and op.results[0].name_hint == name:
            return op
    raise KeyError(name)


def analyse(body: str, r: int = 1, p: int = 8) -> tuple[ReplicationAnalysis, dict[str, SSAValue]]:
    module = parse(body, r, p)
    return ReplicationAnalysis.for_op(module), named(module)


ADD_REGION = """{
    ^bb0(%ra: tensor<f32>, %rb: tensor<f32>):
      %rsum = hlo.add %ra, %rb : tensor<f32>
      hlo.return %rsum : tensor<f32>
    }"""


# --- partitions --------------------------------------------------------------------------------


def test_canonical_and_meet():
    assert canonical([7, 7, 3, 7, 3]) == (0, 0, 1, 0, 1)
    assert meet((0, 0, 1, 1), (0, 1, 0, 1)) == (0, 1, 2, 3)
    assert meet((0, 0, 0, 0), (0, 1, 0, 1)) == (0, 1, 0, 1)
    assert meet((0, 0, 1, 1), (0, 0, 0, 1)) == (0, 0, 1, 2)


def test_bad_counts_and_device_ids():
    with pytest.raises(ValueError, match="must be positive"):
        ReplicationAnalysis(0, 8)
    analysis, v = analyse("""
    func.func @main() -> tensor<i32> {
      %c = hlo.constant dense<3> : tensor<i32>
      func.return %c : tensor<i32>
    }""")
    with pytest.raises(ValueError, match=r"device id 8 is outside \[0, 8\)"):
        analysis.is_replicated_within(v["c"], [[0, 8]])


# --- constants, ids, arguments, collectives ---------------------------------------------------

IDS_AND_ALL_REDUCE = f"""
func.func @main(%x: tensor<4xf32>, %arg: tuple<tensor<i32>, tensor<f32>>) -> tensor<4xf32> {{
  %c = hlo.constant dense<3> : tensor<i32>
  %f = hlo.constant dense<1.0> : tensor<4xf32>
  %io = hlo.iota dim = 0 : tensor<4xi32>
  %pid = hlo.partition_id : tensor<ui32>
  %pf = hlo.convert %pid : tensor<ui32> -> tensor<f32>
  %pb = hlo.broadcast %pf, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %fp = hlo.add %f, %pb : tensor<4xf32>
  %ar = hlo.all_reduce(%fp) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 1 use_global_device_ids {ADD_REGION} : (tensor<4xf32>) -> tensor<4xf32>
  %ar_eo = hlo.all_reduce(%x) replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 2 use_global_device_ids {ADD_REGION} : (tensor<4xf32>) -> tensor<4xf32>
  %ar_all = hlo.all_reduce(%x) replica_groups = [] channel_id = 3 {ADD_REGION} : (tensor<4xf32>) -> tensor<4xf32>
  %ar_cr = hlo.all_reduce(%x) replica_groups = [] {ADD_REGION} : (tensor<4xf32>) -> tensor<4xf32>
  %ag = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 4 use_global_device_ids : (tensor<4xf32>) -> tensor<16xf32>
  %cb = hlo.collective_broadcast(%x) replica_groups = [[1, 0, 2]] channel_id = 5 : (tensor<4xf32>) -> tensor<4xf32>
  %rs = hlo.reduce_scatter(%f) dim = 0 replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 6 use_global_device_ids {ADD_REGION} : (tensor<4xf32>) -> tensor<1xf32>
  %cp = hlo.collective_permute %f pairs = [[0, 1], [1, 0]] channel_id = 7 : tensor<4xf32>
  %tup = hlo.all_reduce(%ar, %fp) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 8 use_global_device_ids {ADD_REGION} : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %tup1 = hlo.get_tuple_element %tup[1] : tuple<tensor<4xf32>, tensor<4xf32>>
  %arg0 = hlo.get_tuple_element %arg[0] : tuple<tensor<i32>, tensor<f32>>
  %cc = hlo.custom_call "Sharding"(%c) : (tensor<i32>) -> tensor<i32>
  func.return %ar : tensor<4xf32>
}}"""


def test_constants_are_replicated():
    analysis, v = analyse(IDS_AND_ALL_REDUCE)
    for name in ("c", "f", "io"):
        assert analysis.device_classes(v[name]) == REPLICATED8
        assert analysis.is_replicated_within(v[name], ALL8)
    assert analysis.device_values(v["c"]) == (3,) * 8
    assert analysis.device_values(v["f"]) is None  # only single-element integers carry values


def test_partition_id_is_not_replicated_until_all_reduced():
    analysis, v = analyse(IDS_AND_ALL_REDUCE)
    assert analysis.device_classes(v["pid"]) == UNIQUE8
    assert analysis.device_values(v["pid"]) == UNIQUE8
    assert not analysis.is_replicated_within(v["pid"], HALVES)
    # Elementwise ops keep partition_id's partition.
    assert analysis.device_classes(v["fp"]) == UNIQUE8
    # The all_reduce makes each group equal, and nothing more.
    assert analysis.device_classes(v["ar"]) == (0, 0, 0, 0, 1, 1, 1, 1)
    assert analysis.is_replicated_within(v["ar"], HALVES)
    assert not analysis.is_replicated_within(v["ar"], EVEN_ODD)
    assert analysis.device_classes(v["ar_eo"]) == (0, 1, 0, 1, 0, 1, 0, 1)
    assert analysis.is_replicated_within(v["ar_eo"], EVEN_ODD)
    # cross_replica_and_partition over all replicas: everybody; cross_replica with R = 1:
    # each partition alone, so nothing is shared.
    assert analysis.device_classes(v["ar_all"]) == REPLICATED8
    assert analysis.device_classes(v["ar_cr"]) == UNIQUE8


def test_other_collectives():
    analysis, v = analyse(IDS_AND_ALL_REDUCE)
    assert analysis.is_replicated_within(v["ag"], HALVES)
    # collective_broadcast: the group {1, 0, 2} gets the root's value, the others zeros.
    assert analysis.device_classes(v["cb"]) == (0, 0, 0, 1, 1, 1, 1, 1)
    # reduce_scatter and collective_permute give each device its own data, even from
    # replicated inputs.
    assert analysis.device_classes(v["rs"]) == UNIQUE8
    assert analysis.device_classes(v["cp"]) == UNIQUE8
    # A variadic all_reduce: each tuple element is equal within the groups.
    assert analysis.device_classes(v["tup"]) == (0, 0, 0, 0, 1, 1, 1, 1)
    assert analysis.is_replicated_within(v["tup1"], HALVES)


def test_arguments_and_unknown_ops_are_not_replicated():
    analysis, v = analyse(IDS_AND_ALL_REDUCE)
    assert analysis.device_classes(v["x"]) == UNIQUE8
    assert analysis.device_classes(v["arg0"]) == UNIQUE8
    assert analysis.device_classes(v["cc"]) == UNIQUE8
    # A reducer region's arguments are not replicated either.
    assert analysis.device_classes(v["rsum"]) == UNIQUE8


def test_replica_id_with_two_replicas():
    analysis, v = analyse(
        f"""
    func.func @main(%x: tensor<4xf32>) -> tensor<i32> {{
      %rid = hlo.replica_id : tensor<ui32>
      %pid = hlo.partition_id : tensor<ui32>
      %four = hlo.constant dense<4> : tensor<ui32>
      %r4 = hlo.multiply %rid, %four : tensor<ui32>
      %flat = hlo.add %r4, %pid : tensor<ui32>
      %ar_cr = hlo.all_reduce(%x) replica_groups = [[0, 1]] {ADD_REGION} : (tensor<4xf32>) -> tensor<4xf32>
      %ar_crp = hlo.all_reduce(%x) replica_groups = [[0, 1]] channel_id = 1 {ADD_REGION} : (tensor<4xf32>) -> tensor<4xf32>
      %res = hlo.convert %flat : tensor<ui32> -> tensor<i32>
      func.return %res : tensor<i32>
    }}""",
        r=2,
        p=4,
    )
    assert analysis.device_classes(v["rid"]) == (0, 0, 0, 0, 1, 1, 1, 1)
    assert analysis.device_values(v["rid"]) == (0, 0, 0, 0, 1, 1, 1, 1)
    assert analysis.is_replicated_within(v["rid"], HALVES)
    assert analysis.device_classes(v["pid"]) == (0, 1, 2, 3, 0, 1, 2, 3)
    assert analysis.is_replicated_within(v["pid"], PAIRS_MOD4)
    assert not analysis.is_replicated_within(v["pid"], HALVES)
    assert analysis.device_values(v["flat"]) == UNIQUE8
    # cross_replica: group [0, 1] of replicas, for each partition p: devices {p, 4 + p}.
    assert analysis.device_classes(v["ar_cr"]) == (0, 1, 2, 3, 0, 1, 2, 3)
    # cross_replica_and_partition: replicas 0 and 1 with all their partitions.
    assert analysis.device_classes(v["ar_crp"]) == REPLICATED8


# --- partition-id tables and known values -------------------------------------------------


TABLES = """
func.func @main(%x: tensor<i32>) -> tensor<i32> {
  %table = hlo.constant dense<[0, 0, 0, 0, 1, 1, 1, 1]> : tensor<8xui32>
  %pid = hlo.partition_id : tensor<ui32>
  %ds = hlo.dynamic_slice %table at [%pid] sizes = [1] : (tensor<8xui32>, tensor<ui32>) -> tensor<1xui32>
  %idx = hlo.reshape %ds : (tensor<1xui32>) -> tensor<ui32>
  %i = hlo.convert %idx : tensor<ui32> -> tensor<i32>
  %two = hlo.constant dense<2> : tensor<i32>
  %one = hlo.constant dense<1> : tensor<i32>
  %m = hlo.multiply %i, %two : tensor<i32>
  %k = hlo.add %m, %one : tensor<i32>
  %short = hlo.constant dense<[5, 6, 7]> : tensor<3xi32>
  %clamped = hlo.dynamic_slice %short at [%pid] sizes = [1] : (tensor<3xi32>, tensor<ui32>) -> tensor<1xi32>
  %rows = hlo.constant dense<[[0, 1], [0, 1], [2, 3], [2, 3], [0, 1], [0, 1], [2, 3], [2, 3]]> : tensor<8x2xi32>
  %zero = hlo.constant dense<0> : tensor<ui32>
  %row = hlo.dynamic_slice %rows at [%pid, %zero] sizes = [1, 2] : (tensor<8x2xi32>, tensor<ui32>, tensor<ui32>) -> tensor<1x2xi32>
  %by_arg = hlo.dynamic_slice %short at [%x] sizes = [1] : (tensor<3xi32>, tensor<i32>) -> tensor<1xi32>
  func.return %k : tensor<i32>
}"""


def test_partition_id_table_is_replicated_within_equal_entries():
    analysis, v = analyse(TABLES)
    # dynamic_slice(constant table, partition_id): device d reads table[d].
    assert analysis.device_values(v["ds"]) == (0, 0, 0, 0, 1, 1, 1, 1)
    assert analysis.is_replicated_within(v["ds"], HALVES)
    assert not analysis.is_replicated_within(v["ds"], EVEN_ODD)
    assert analysis.is_replicated_within(v["i"], HALVES)
    assert not analysis.is_replicated_within(v["i"], EVEN_ODD)


def test_arithmetic_on_table_values_keeps_them():
    analysis, v = analyse(TABLES)
    assert analysis.device_values(v["k"]) == (1, 1, 1, 1, 3, 3, 3, 3)
    assert analysis.device_classes(v["k"]) == (0, 0, 0, 0, 1, 1, 1, 1)
    assert analysis.is_replicated_within(v["k"], HALVES)
    assert not analysis.is_replicated_within(v["k"], EVEN_ODD)


def test_table_slices_clamp_and_compare_whole_windows():
    analysis, v = analyse(TABLES)
    # XLA clamps the start into [0, 3 - 1]: devices 2..7 all read the last entry.
    assert analysis.device_values(v["clamped"]) == (5, 6, 7, 7, 7, 7, 7, 7)
    assert analysis.is_replicated_within(v["clamped"], [[0], [1], [2, 3, 4, 5, 6, 7]])
    # A multi-element window: classes follow equal rows; no single value.
    assert analysis.device_classes(v["row"]) == (0, 0, 1, 1, 0, 0, 1, 1)
    assert analysis.device_values(v["row"]) is None
    # An unknown index: the slice is only as replicated as the index.
    assert analysis.device_classes(v["by_arg"]) == UNIQUE8


def test_integer_semantics_of_known_values():
    analysis, v = analyse("""
    func.func @main() -> tensor<i32> {
      %m7 = hlo.constant dense<-7> : tensor<i32>
      %two = hlo.constant dense<2> : tensor<i32>
      %zero = hlo.constant dense<0> : tensor<i32>
      %q = hlo.divide %m7, %two : tensor<i32>
      %r = hlo.remainder %m7, %two : tensor<i32>
      %q0 = hlo.divide %m7, %zero : tensor<i32>
      %r0 = hlo.remainder %m7, %zero : tensor<i32>
      %u0 = hlo.constant dense<0> : tensor<ui32>
      %u1 = hlo.constant dense<1> : tensor<ui32>
      %under = hlo.subtract %u0, %u1 : tensor<ui32>
      %b = hlo.constant dense<127> : tensor<i8>
      %b1 = hlo.constant dense<1> : tensor<i8>
      %over = hlo.add %b, %b1 : tensor<i8>
      %lt = hlo.compare LT, %m7, %zero : tensor<i32> -> tensor<i1>
      %ugt = hlo.compare GT, %under, %u1 : tensor<ui32> -> tensor<i1>
      %not = hlo.not %lt : tensor<i1>
      %sel = hlo.select %lt, %two, %zero : tensor<i1>, tensor<i32>
      %cl = hlo.clamp %zero, %m7, %two : tensor<i32>, tensor<i32>, tensor<i32>
      %pred = hlo.convert %two : tensor<i32> -> tensor<i1>
      func.return %q : tensor<i32>
    }""")
    expect = {
        "q": -3,
        "r": -1,
        "q0": -1,
        "r0": -7,
        "under": 4294967295,
        "over": -128,
        "lt": 1,
        "ugt": 1,
        "not": 0,
        "sel": 2,
        "cl": 0,
        "pred": 1,
    }
    for name, value in expect.items():
        assert analysis.device_values(v[name]) == (value,) * 8, name


# --- select / compare merges ---------------------------------------------------------------


def test_select_and_compare_merge_their_operands():
    analysis, v = analyse(f"""
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
      %pid = hlo.partition_id : tensor<ui32>
      %four = hlo.constant dense<4> : tensor<ui32>
      %half = hlo.divide %pid, %four : tensor<ui32>
      %zero = hlo.constant dense<0> : tensor<ui32>
      %first = hlo.compare EQ, %half, %zero : tensor<ui32> -> tensor<i1>
      %five = hlo.constant dense<5> : tensor<i32>
      %seven = hlo.constant dense<7> : tensor<i32>
      %chosen = hlo.select %first, %five, %seven : tensor<i1>, tensor<i32>
      %by_pid = hlo.compare EQ, %pid, %zero : tensor<ui32> -> tensor<i1>
      %a = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 1 use_global_device_ids {ADD_REGION} : (tensor<4xf32>) -> tensor<4xf32>
      %b = hlo.all_reduce(%x) replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]] channel_id = 2 use_global_device_ids {ADD_REGION} : (tensor<4xf32>) -> tensor<4xf32>
      %fz = hlo.constant dense<0.0> : tensor<4xf32>
      %keep = hlo.select %first, %a, %fz : tensor<i1>, tensor<4xf32>
      %mixed = hlo.select %by_pid, %a, %fz : tensor<i1>, tensor<4xf32>
      %cmp = hlo.compare LT, %a, %b : tensor<4xf32> -> tensor<4xi1>
      func.return %keep : tensor<4xf32>
    }}""")
    assert analysis.device_values(v["first"]) == (1, 1, 1, 1, 0, 0, 0, 0)
    assert analysis.device_values(v["chosen"]) == (5, 5, 5, 5, 7, 7, 7, 7)
    assert analysis.is_replicated_within(v["chosen"], HALVES)
    # A predicate replicated within the groups keeps the selected all_reduce replicated...
    assert analysis.is_replicated_within(v["keep"], HALVES)
    # ...one that differs inside a group does not.
    assert analysis.device_classes(v["mixed"]) == (0, 1, 1, 1, 2, 2, 2, 2)
    assert not analysis.is_replicated_within(v["mixed"], HALVES)
    # compare of two values replicated within different groups: equal only where both are.
    assert analysis.device_classes(v["cmp"]) == (0, 1, 0, 1, 2, 3, 2, 3)
    assert analysis.is_replicated_within(v["cmp"], [[0, 2], [1, 3], [4, 6], [5, 7]])
    assert not analysis.is_replicated_within(v["cmp"], HALVES)
    assert not analysis.is_replicated_within(v["cmp"], EVEN_ODD)


# --- while loops ----------------------------------------------------------------------------

T5 = "tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>>"
# The condition reads the counter as %ci (the body as %i), and the body reads slots 2 and 4
# though it does not use them: the tests look at all of them.
_LOOP5 = WhileLoop(
    ["tensor<i32>"] * 5,
    """
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %pid = hlo.partition_id : tensor<ui32>
    %p = hlo.convert %pid : tensor<ui32> -> tensor<i32>
    %a1 = hlo.add %a, %p : tensor<i32>
    %e1 = hlo.add %one, %one : tensor<i32>
    """,
    ["%i1", "%a1", "%a", "%k", "%e1"],
    condition=f"""
    %ci = hlo.get_tuple_element %cs[0] : {T5}
    %n = hlo.constant dense<4> : tensor<i32>
    %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
    """,
    names=["%i", "%a", "%b", "%k", "%e"],
    arguments=("%cs", "%bs"),
    predicate="%lt",
    body_reads=[2, 4],
)

LOOP = f"""
func.func @main(%x: tensor<i32>) -> {T5} {{
  %zero = hlo.constant dense<0> : tensor<i32>
  %pid0 = hlo.partition_id : tensor<ui32>
  %p0 = hlo.convert %pid0 : tensor<ui32> -> tensor<i32>
  %init = hlo.tuple %zero, %zero, %zero, %zero, %p0 : {T5}
{_LOOP5.text("%init", indent=2)}
  %out0 = hlo.get_tuple_element %w[0] : {T5}
  %out2 = hlo.get_tuple_element %w[2] : {T5}
  %out3 = hlo.get_tuple_element %w[3] : {T5}
  func.return %w : {T5}
}}"""


def test_while_counter_is_replicated_and_partition_slots_are_not():
    analysis, v = analyse(LOOP)
    # Slot 0: init constant, +1 per iteration: the same on every device at every iteration.
    for name in ("i", "i1", "ci", "lt", "out0"):
        assert analysis.device_classes(v[name]) == REPLICATED8, name
    assert analysis.device_values(v["i"]) is None  # it changes across iterations
    # Slot 1 accumulates partition_id.
    assert analysis.device_classes(v["a"]) == UNIQUE8
    # Slot 3 is passed through: loop-invariant, its value stays known.
    assert analysis.device_values(v["k"]) == REPLICATED8
    assert analysis.device_values(v["out3"]) == REPLICATED8
    # Slot 4 starts as partition_id (the first iteration sees it) then becomes a constant.
    assert analysis.device_classes(v["e"]) == UNIQUE8
    assert analysis.device_values(v["e1"]) == (2,) * 8


def test_while_fixed_point_needs_a_second_round():
    # Slot 2 receives slot 1's PREVIOUS value: replicated in round 1 (slot 1 starts at 0), not
    # replicated once slot 1 has mixed in partition_id. Query it first, before anything else:
    # the lazy evaluation must still solve the whole loop.
    analysis, v = analyse(LOOP)
    assert analysis.device_classes(v["b"]) == UNIQUE8
    assert analysis.device_classes(v["out2"]) == UNIQUE8
    assert not analysis.is_replicated_within(v["w"], ALL8)


def test_while_exit_depends_on_a_non_replicated_condition():
    t2 = "tuple<tensor<i32>, tensor<i32>>"
    loop = WhileLoop(
        ["tensor<i32>", "tensor<i32>"],
        """
        %one = hlo.constant dense<1> : tensor<i32>
        %i1 = hlo.add %i, %one : tensor<i32>
        """,
        ["%i1", "%k"],
        condition=f"""
        %ci = hlo.get_tuple_element %cs[0] : {t2}
        %pid = hlo.partition_id : tensor<ui32>
        %limit = hlo.convert %pid : tensor<ui32> -> tensor<i32>
        %lt = hlo.compare LT, %ci, %limit : tensor<i32> -> tensor<i1>
        """,
        names=["%i", "%k"],
        arguments=("%cs", "%bs"),
        predicate="%lt",
    )
    analysis, v = analyse(f"""
    func.func @main() -> {t2} {{
      %zero = hlo.constant dense<0> : tensor<i32>
      %init = hlo.tuple %zero, %zero : {t2}
{loop.text("%init", indent=6)}
      %trips = hlo.get_tuple_element %w[0] : {t2}
      %kept = hlo.get_tuple_element %w[1] : {t2}
      func.return %w : {t2}
    }}""")
    # Inside the body, every running device has the same counter at each iteration...
    assert analysis.device_classes(v["i"]) == REPLICATED8
    # ...but device d leaves after d iterations, so the final counters differ.
    assert analysis.device_classes(v["trips"]) == UNIQUE8
    # An invariant slot is the same whenever the loop exits.
    assert analysis.device_values(v["kept"]) == REPLICATED8


def test_nested_while_propagates_to_the_outer_fixed_point():
    t2 = "tuple<tensor<i32>, tensor<i32>>"
    inner = WhileLoop(
        ["tensor<i32>", "tensor<i32>"],
        """
        %one = hlo.constant dense<1> : tensor<i32>
        %j1 = hlo.add %j, %one : tensor<i32>
        %pid = hlo.partition_id : tensor<ui32>
        %p = hlo.convert %pid : tensor<ui32> -> tensor<i32>
        %iacc1 = hlo.add %iacc, %p : tensor<i32>
        """,
        ["%j1", "%iacc1"],
        condition=f"""
        %ii = hlo.get_tuple_element %ics[0] : {t2}
        %m = hlo.constant dense<2> : tensor<i32>
        %ilt = hlo.compare LT, %ii, %m : tensor<i32> -> tensor<i1>
        """,
        names=["%j", "%iacc"],
        arguments=("%ics", "%ibs"),
        predicate="%ilt",
    )
    outer = WhileLoop(
        ["tensor<i32>", "tensor<i32>"],
        f"""
%inner_init = hlo.tuple %i, %acc : {t2}
{inner.text("%inner_init", result="%inner", indent=0)}
%one_o = hlo.constant dense<1> : tensor<i32>
%i1 = hlo.add %i, %one_o : tensor<i32>
%acc1 = hlo.get_tuple_element %inner[1] : {t2}
""",
        ["%i1", "%acc1"],
        condition=f"""
        %ci = hlo.get_tuple_element %cs[0] : {t2}
        %n = hlo.constant dense<3> : tensor<i32>
        %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
        """,
        names=["%i", "%acc"],
        arguments=("%cs", "%bs"),
        predicate="%lt",
    )
    analysis, v = analyse(f"""
    func.func @main() -> {t2} {{
      %zero = hlo.constant dense<0> : tensor<i32>
      %init = hlo.tuple %zero, %zero : {t2}
{outer.text("%init", indent=6)}
      func.return %w : {t2}
    }}""")
    # Query the innermost value first: the outer loop is solved around it.
    assert analysis.device_classes(v["j"]) == REPLICATED8
    assert analysis.device_classes(v["iacc"]) == UNIQUE8
    assert analysis.device_classes(v["i"]) == REPLICATED8
    assert analysis.device_classes(v["acc"]) == UNIQUE8


# --- scale ------------------------------------------------------------------------------------


def _chain(block: Block, start: SSAValue, length: int) -> SSAValue:
    scalar = TensorType(i32, [])
    one = ConstantOp.create(
        result_types=[scalar],
        properties={"value": _dense(1)},
    )
    block.add_op(one)
    value = start
    for _ in range(length):
        add = AddOp.create(operands=[value, one.results[0]], result_types=[scalar])
        block.add_op(add)
        value = add.results[0]
    return value


def _dense(value: int) -> DenseIntOrFPElementsAttr:
    return DenseIntOrFPElementsAttr.from_list(TensorType(i32, []), [value])


def test_ten_thousand_op_chain():
    block = Block()
    pid = PartitionIdOp()
    convert = ConvertOp.create(operands=[pid.result], result_types=[TensorType(i32, [])])
    block.add_ops([pid, convert])
    last = _chain(block, convert.results[0], 10_000)
    analysis = ReplicationAnalysis(1, 8)
    start = time.perf_counter()
    assert analysis.device_classes(last) == UNIQUE8
    assert analysis.device_values(last) == tuple(d + 10_000 for d in range(8))
    assert time.perf_counter() - start < 5.0


def test_ten_thousand_op_chain_in_a_while_body():
    scalar = TensorType(i32, [])
    t1 = tuple_type([scalar])
    outer = Block()
    zero = ConstantOp.create(result_types=[scalar], properties={"value": _dense(0)})
    init = TupleOp([zero.results[0]])
    body = Block(arg_types=[t1])
    element = GetTupleElementOp(body.args[0], 0)
    body.add_op(element)
    last = _chain(body, element.results[0], 10_000)
    result = TupleOp([last])
    body.add_ops([result, ReturnOp.create(operands=[result.results[0]])])
    cond = Block(arg_types=[t1])
    limit = ConstantOp.create(result_types=[scalar], properties={"value": _dense(9)})
    counter = GetTupleElementOp(cond.args[0], 0)
    cmp = CompareOp(ComparisonDirection.LT, counter.results[0], limit.results[0])
    cond.add_ops([limit, counter, cmp, ReturnOp.create(operands=[cmp.results[0]])])
    loop = WhileOp.create(
        operands=[init.results[0]], result_types=[t1], regions=[Region(cond), Region(body)]
    )
    outer.add_ops([zero, init, loop])
    analysis = ReplicationAnalysis(1, 8)
    start = time.perf_counter()
    assert analysis.device_classes(last) == REPLICATED8
    assert analysis.device_classes(loop.results[0]) == REPLICATED8
    assert time.perf_counter() - start < 10.0


# --- the real corpus ----------------------------------------------------------------------------


def _corpus(case: str) -> ModuleOp:
    return import_hlo((CORPUS / case / "spmd.hlo").read_text())


def _groups(op: Operation) -> list[list[int]]:
    assert isinstance(op, CollectiveOp)
    return flattened_participants(op.replica_groups.groups(), op.mode(), 1, 8)


def test_corpus_reduce_scatter_dus_sink():
    """fori_loop(0, 4): DS(xs, i) and DUS(buf, RS(...), i) with i = select(i < 0, i + 4, i) of
    the scan slot (init 0, +1 per iteration). The index is derived from constants and a loop
    counter only, so it is the same on all 8 devices; the data (sharded xs) is not."""
    module = _corpus("reduce_scatter_dus_sink")
    analysis = ReplicationAnalysis.for_op(module)
    (rs,) = [op for op in module.walk() if op.name == "hlo.reduce_scatter"]
    groups = _groups(rs)
    assert groups == ALL8
    slices = [op for op in module.walk() if isinstance(op, DynamicSliceOp | DynamicUpdateSliceOp)]
    assert len(slices) == 2
    for op in slices:
        for index in op.start_indices:
            assert analysis.is_replicated_within(index, groups)
            assert analysis.device_classes(index) == REPLICATED8
        assert analysis.device_classes(op.operand) == UNIQUE8
    select = op_named(module, "select_n.6")
    assert slices[0].start_indices[0] is select.results[0]
    assert analysis.device_classes(rs.results[0]) == UNIQUE8


def test_corpus_megatron_partition_id_table():
    """XLA's SPMD partitioner turns the all-reduce over {0..3},{4..7} plus a per-partition
    column block into `DS(all-reduce, 0, table2[table1[partition_id]])` with
    table1 = [0,1,2,3,0,1,2,3] and table2 = [0,4,8,12]: each member of an all-reduce group takes
    a different column block, so the index is NOT replicated within those groups, but it is
    within the second all-reduce's groups {0,4},{1,5},{2,6},{3,7}."""
    module = _corpus("jit_auto_megatron_mlp")
    analysis = ReplicationAnalysis.for_op(module)
    ds = op_named(module, "dynamic-slice.5")
    assert isinstance(ds, DynamicSliceOp)
    row, column = ds.start_indices
    assert analysis.device_classes(row) == REPLICATED8
    assert analysis.device_values(column) == (0, 4, 8, 12, 0, 4, 8, 12)
    first = _groups(op_named(module, "all-reduce"))
    second = _groups(op_named(module, "all-reduce.1"))
    assert first == HALVES
    assert second == PAIRS_MOD4
    assert not analysis.is_replicated_within(column, first)
    assert analysis.is_replicated_within(column, second)
    assert analysis.device_classes(op_named(module, "reshape.7").results[0]) == (
        0, 1, 2, 3, 0, 1, 2, 3,
    )  # fmt: skip
    # The all-reduce result is replicated within its groups; slicing it by the column index
    # gives every device its own block.
    assert analysis.device_classes(ds.operand) == (0, 0, 0, 0, 1, 1, 1, 1)
    assert analysis.device_classes(ds.results[0]) == UNIQUE8


def test_corpus_axis_index_partition_id_2x4():
    """Mesh (2, 4) over 8 partitions: JAX computes axis_index('y') = (pid / 1) % 4 and
    axis_index('x') = (pid / 4) % 2 (divide/remainder/convert of partition_id; no DS here).
    The psum runs over {0..3},{4..7}: axis 'x' is constant within those groups, axis 'y' is not,
    and y + 10 * x + 1 is different on every device."""
    module = _corpus("axis_index_partition_id_2x4")
    analysis = ReplicationAnalysis.for_op(module)
    v = named(module)
    psum = _groups(op_named(module, "psum_invariant.7"))
    assert psum == HALVES
    assert analysis.device_values(v["axis_index.27"]) == (0, 1, 2, 3, 0, 1, 2, 3)
    assert analysis.device_values(v["axis_index.30"]) == (0, 0, 0, 0, 1, 1, 1, 1)
    assert analysis.is_replicated_within(v["axis_index.30"], psum)
    assert not analysis.is_replicated_within(v["axis_index.27"], psum)
    assert analysis.is_replicated_within(v["axis_index.27"], PAIRS_MOD4)
    assert analysis.device_values(v["add.12"]) == (1, 2, 3, 4, 11, 12, 13, 14)
    assert analysis.device_classes(v["psum_invariant.7"]) == (0, 0, 0, 0, 1, 1, 1, 1)
    # x * (y + 10 x + 1) + psum: the per-device scale makes every device different.
    assert analysis.device_classes(v["add.13"]) == UNIQUE8
