"""The dynamic-update-slice mode of the all-reduce code motion, called directly.

Every module of tests/filecheck/transforms/neuron-while-loop-all-reduce-code-motion-dus.mlir
(parsed from that file) goes through `match_update_slice` with the pass's replication
predicate: the positive cases must give the expected box, the negative ones the expected
reason. Each positive rewrite (`sink_update_slices` on a clone, loops inner first) must leave no
all-reduce in any loop body, verify, issue one all-reduce per sunk slice instead of one per
iteration, and give exactly the original outputs on 8 simulated devices with random inputs that
differ per device.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
)
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Attribute, SSAValue

from neuron_cc.analysis.accumulation import NotMovable
from neuron_cc.analysis.induction import analyze_loop
from neuron_cc.analysis.replication import ReplicationAnalysis
from neuron_cc.analysis.update_slices import (
    DEFAULT_DUS_MAX_SIZE_BYTES,
    UpdateSlice,
    exact_conversion,
    loop_reads,
    match_update_slice,
)
from neuron_cc.analysis.while_loops import while_ops_post_order
from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.dialects.hlo.control_flow import TupleOp, WhileOp
from neuron_cc.dialects.replica_groups import (
    device_counts,
    flattened_participants,
    next_channel_id,
)
from neuron_cc.interpreter.runner import RunResult
from neuron_cc.testing import assert_equivalent
from neuron_cc.testing.ir import lit_modules, ops_in_loops, parse_module
from neuron_cc.testing.loop_text import WhileLoop, counted, module_text
from neuron_cc.transforms.update_slice_sink import sink_update_slices

LIT = (
    Path(__file__).resolve().parent
    / "filecheck"
    / "transforms"
    / "neuron-while-loop-all-reduce-code-motion-dus.mlir"
)


MODULES = lit_modules(LIT.read_text())

Box = tuple[int, tuple[int, ...], tuple[int, ...], int | None]
"""(slot, offsets, shape, counter dimension) of one matched all-reduce."""

POSITIVE: dict[str, list[Box]] = {
    "dus_max_whole": [(2, (0,), (16,), 0)],
    "dus_min_convert_two_dus": [(3, (0, 2), (8, 1), 0)],
    "dus_add_and_multiply": [(2, (0,), (16,), 0), (3, (0,), (16,), 0)],
    "dus_reverse_offset": [(2, (2,), (16,), 0)],
    "dus_scan_counter": [(2, (0, 0), (6, 4), 0)],
    "dus_constant_index": [(2, (3,), (4,), None)],
    "dus_nested": [(2, (0,), (8,), 0)],
    "dus_pmean_rows": [(2, (0,), (8,), 0)],
    "dus_integer_scale": [(2, (0,), (8,), 0)],
}
"""Boxes found in the input (for dus_nested: the inner loop; the outer one after its rewrite)."""

LAUNCHES: dict[str, tuple[int, int]] = {
    "dus_max_whole": (16, 1),
    "dus_min_convert_two_dus": (8, 1),
    "dus_add_and_multiply": (32, 2),
    "dus_reverse_offset": (16, 1),
    "dus_scan_counter": (6, 1),
    "dus_constant_index": (16, 1),
    "dus_nested": (32, 1),
    "dus_pmean_rows": (8, 1),
    "dus_integer_scale": (8, 1),
}
"""All-reduce launches per run, before and after the rewrite."""

NEGATIVE: dict[str, str] = {
    "dus_scale_partition_dependent": "scale factor is not replicated within the replica groups",
    "dus_integer_divide": "unsupported operation on the all-reduce result: divide",
    "dus_tuple_all_reduce": "tuple-shaped all-reduces are not sunk into dynamic-update-slices",
    "dus_constrain_layout": "constrain_layout is set",
    "dus_reducer_not_simple": "the reduction is not a simple binary elementwise op",
    "dus_narrowing_convert": (
        "the convert f32 -> f16 on the way to the buffer is not exact, so it cannot be undone "
        "after the loop"
    ),
    "dus_all_reduce_two_uses": (
        "the all-reduce result has 2 uses; a dynamic-update-slice sink needs exactly one"
    ),
    "dus_update_two_uses": (
        "the reshape of the all-reduce result has 2 uses; a dynamic-update-slice sink needs "
        "exactly one"
    ),
    "dus_result_two_uses": (
        "the dynamic-update-slice result has 2 uses; a dynamic-update-slice sink needs exactly one"
    ),
    "dus_unsupported_user": "unsupported operation on the all-reduce result: negate",
    "dus_value_is_base": "the all-reduce value is not the update of a dynamic-update-slice",
    "dus_not_returned": "the updated buffer is used by copy, not returned by the loop body",
    "dus_other_slot": (
        "the outermost dynamic-update-slice does not update slot 2 of the loop parameter"
    ),
    "dus_buffer_read_elsewhere": "slot 2 of the loop parameter is also read by tuple",
    "dus_buffer_second_gte": "slot 2 of the loop parameter is also read by negate",
    "dus_body_arg_whole": "the loop body argument is used whole by tuple",
    "dus_condition_reads": "slot 2 is read by the loop condition",
    "dus_condition_unused_gte": "slot 2 is read by the loop condition",
    "dus_invalid_index": (
        "dynamic-update-slice index 0 is neither a constant nor an affine function of a loop "
        "counter"
    ),
    "dus_unknown_trip_count": "the loop trip count is unknown",
    "dus_never_runs": "the loop body never runs",
    "dus_counter_start_1": (
        "the loop counter indexing dimension 0 starts at 1 with step 1; only start 0 and step 1 "
        "are supported (as in XLA)"
    ),
    "dus_counter_step_2": (
        "the loop counter indexing dimension 0 starts at 0 with step 2; only start 0 and step 1 "
        "are supported (as in XLA)"
    ),
    "dus_strided_index": (
        "dynamic-update-slice index 0 (2 * i + 0) does not write consecutive rows"
    ),
    "dus_overlapping": (
        "the update written per iteration is 2 wide in dimension 0, which the loop counter "
        "indexes; iterations would overwrite each other's rows"
    ),
    "dus_inner_counter_index": (
        "the update written per iteration is 16 wide in dimension 0, which the loop counter "
        "indexes; iterations would overwrite each other's rows"
    ),
    "dus_diagonal": (
        "more than one dynamic-update-slice start index follows a loop counter; the written "
        "elements do not form a box"
    ),
    "dus_clamped": (
        "dynamic-update-slice index 0 takes values in [5, 20], outside [0, 15]: it would be clamped"
    ),
    "dus_unreplicated_index": (
        "dynamic-update-slice index is not replicated within the replica groups"
    ),
    "dus_too_large": (
        "the sunk all-reduce would move 16384 bytes, which exceeds dus-max-size-bytes (10240)"
    ),
}


# --- driving the two functions as the pass does -------------------------------------------------


def _predicate(
    analysis: ReplicationAnalysis, op: AllReduceOp, module: ModuleOp
) -> Callable[[SSAValue], bool]:
    """`replicated(v)` for `op`: equal on every device of each of its groups."""
    r, p = device_counts(module)
    groups = flattened_participants(op.replica_groups.groups(), op.mode(), r, p)
    return lambda v: analysis.is_replicated_within(v, groups)


def _body_all_reduces(loop: WhileOp) -> list[AllReduceOp]:
    return [op for op in loop.body.block.ops if isinstance(op, AllReduceOp)]


def _match_loop(
    module: ModuleOp, loop: WhileOp, analysis: ReplicationAnalysis, max_bytes: int
) -> list[UpdateSlice | str]:
    """match_update_slice for every all-reduce of the loop body: the slice or the reason."""
    info = analyze_loop(loop)
    reads = loop_reads(loop)
    found: list[UpdateSlice | str] = []
    for op in _body_all_reduces(loop):
        replicated = _predicate(analysis, op, module)
        try:
            found.append(match_update_slice(op, loop, info, replicated, max_bytes, reads=reads))
        except NotMovable as e:
            found.append(str(e))
    return found


def _match_all(
    module: ModuleOp, max_bytes: int = DEFAULT_DUS_MAX_SIZE_BYTES
) -> list[UpdateSlice | str]:
    r, p = device_counts(module)
    analysis = ReplicationAnalysis(r, p)
    found: list[UpdateSlice | str] = []
    for loop in while_ops_post_order(module):
        found.extend(_match_loop(module, loop, analysis, max_bytes))
    return found


class _Channels:
    """The pass's channel policy: a fresh id (1 + the module's largest) only if there was one."""

    def __init__(self, module: ModuleOp) -> None:
        self.next = next_channel_id(module.walk())
        self.asked: list[IntegerAttr | None] = []

    def __call__(self, old: IntegerAttr | None) -> IntegerAttr | None:
        self.asked.append(old)
        if old is None:
            return None
        self.next += 1
        return IntegerAttr(self.next - 1, 64)


def _rewrite(module: ModuleOp) -> tuple[int, _Channels]:
    """Sink every matching all-reduce, loops inner first; the number sunk and the channels."""
    r, p = device_counts(module)
    analysis = ReplicationAnalysis(r, p)
    channels = _Channels(module)
    sunk = 0
    for loop in while_ops_post_order(module):
        found = _match_loop(module, loop, analysis, DEFAULT_DUS_MAX_SIZE_BYTES)
        movable = [s for s in found if isinstance(s, UpdateSlice)]
        sink_update_slices(loop, movable, channels)
        sunk += len(movable)
    module.verify()
    return sunk, channels


def _in_loop_bodies(module: ModuleOp) -> list[AllReduceOp]:
    return [op for op in ops_in_loops(module, (AllReduceOp,)) if isinstance(op, AllReduceOp)]


def _launches(result: RunResult) -> int:
    stats = result.state.stats.get("all-reduce")
    return 0 if stats is None else stats.launches


# --- matching -----------------------------------------------------------------------------------


def test_every_lit_case_is_covered() -> None:
    assert set(MODULES) == set(POSITIVE) | set(NEGATIVE)


@pytest.mark.parametrize("name", sorted(POSITIVE))
def test_match_finds_the_written_box(name: str) -> None:
    found = _match_all(parse_module(MODULES[name]))
    boxes: list[Box] = []
    for s in found:
        assert isinstance(s, UpdateSlice), s
        assert s.updates[-1].result.type == s.buffer_type
        assert s.chain == (*s.forwarding, *s.updates)
        boxes.append((s.slot, s.offsets, s.shape, s.counter_dim))
    assert boxes == POSITIVE[name]


@pytest.mark.parametrize("name", sorted(NEGATIVE))
def test_match_refuses_with_the_reason(name: str) -> None:
    assert _match_all(parse_module(MODULES[name])) == [NEGATIVE[name]]


def test_box_of_two_dynamic_update_slices_through_convert() -> None:
    (s,) = _match_all(parse_module(MODULES["dus_min_convert_two_dus"]))
    assert isinstance(s, UpdateSlice)
    assert [op.name for op in s.forwarding] == ["hlo.convert", "hlo.reshape"]
    assert len(s.updates) == 2
    assert isinstance(s.element_type, Float16Type)
    assert not s.whole
    assert s.size_bytes == 8 * 2


def test_reads_computed_once_give_the_same_answers() -> None:
    module = parse_module(MODULES["dus_add_and_multiply"])
    (loop,) = while_ops_post_order(module)
    info = analyze_loop(loop)
    analysis = ReplicationAnalysis(*device_counts(module))
    for op in _body_all_reduces(loop):
        replicated = _predicate(analysis, op, module)
        shared = match_update_slice(op, loop, info, replicated, 10240, reads=loop_reads(loop))
        alone = match_update_slice(op, loop, info, replicated, 10240)
        assert shared.slot == alone.slot
        assert (shared.offsets, shared.shape) == (alone.offsets, alone.shape)


def test_no_loop_info_means_unknown_trip_count() -> None:
    module = parse_module(MODULES["dus_max_whole"])
    (loop,) = while_ops_post_order(module)
    (op,) = _body_all_reduces(loop)
    with pytest.raises(NotMovable, match="the loop trip count is unknown"):
        match_update_slice(op, loop, None, lambda v: True, DEFAULT_DUS_MAX_SIZE_BYTES)


def test_size_threshold_is_inclusive() -> None:
    assert DEFAULT_DUS_MAX_SIZE_BYTES == 10240
    module = parse_module(MODULES["dus_max_whole"])
    (fits,) = _match_all(module, max_bytes=64)
    assert isinstance(fits, UpdateSlice)
    assert fits.size_bytes == 64
    assert _match_all(module, max_bytes=63) == [
        "the sunk all-reduce would move 64 bytes, which exceeds dus-max-size-bytes (63)"
    ]


def test_unused_second_read_of_the_slot_in_the_body_is_allowed() -> None:
    text = MODULES["dus_max_whole"].replace(
        "      %one = hlo.constant dense<1> : tensor<i32>\n",
        "      %unused = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, "
        "tensor<16xf32>>\n      %one = hlo.constant dense<1> : tensor<i32>\n",
        1,
    )
    assert "%unused" in text
    (s,) = _match_all(parse_module(text))
    assert isinstance(s, UpdateSlice)


_S32 = IntegerType(32)
_S8 = IntegerType(8)
_U8 = IntegerType(8, Signedness.UNSIGNED)
_U32 = IntegerType(32, Signedness.UNSIGNED)
_S16 = IntegerType(16)
_PRED = IntegerType(1)


@pytest.mark.parametrize(
    ("source", "target", "exact"),
    [
        (Float16Type(), Float32Type(), True),
        (BFloat16Type(), Float64Type(), True),
        (Float32Type(), Float64Type(), True),
        (Float32Type(), Float16Type(), False),
        (Float16Type(), BFloat16Type(), False),
        (BFloat16Type(), Float16Type(), False),
        (Float32Type(), _S32, False),
        (_S8, _S32, True),
        (_S32, _S8, False),
        (_U8, _S16, True),
        (_U8, _S8, False),
        (_S8, _U32, False),
        (_U8, _U32, True),
        (_S8, BFloat16Type(), True),
        (_U8, BFloat16Type(), True),
        (_S16, Float16Type(), False),
        (_S16, Float32Type(), True),
        (_S32, Float32Type(), False),
        (_S32, Float64Type(), True),
        (_PRED, Float32Type(), True),
        (_S8, _PRED, False),
    ],
)
def test_exact_conversion(source: Attribute, target: Attribute, exact: bool) -> None:
    assert exact_conversion(source, target) is exact


# --- the rewrite --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(POSITIVE))
def test_sink_preserves_outputs(name: str) -> None:
    before = parse_module(MODULES[name])
    after = before.clone()
    sunk, _ = _rewrite(after)
    assert sunk >= len(POSITIVE[name])
    assert _in_loop_bodies(after) == []
    first, second = assert_equivalent(before, after)
    assert (_launches(first), _launches(second)) == LAUNCHES[name]


def test_sink_ir_slices_converts_and_writes_back() -> None:
    module = parse_module(MODULES["dus_min_convert_two_dus"])
    _, channels = _rewrite(module)
    (loop,) = while_ops_post_order(module)
    names: list[str] = []
    op = loop.next_op
    while op is not None and not isinstance(op, FuncReturnOp):
        names.append(op.name)
        op = op.next_op
    assert names == [
        "hlo.get_tuple_element",
        "hlo.slice",
        "hlo.convert",
        "hlo.all_reduce",
        "hlo.convert",
        "hlo.constant",
        "hlo.constant",
        "hlo.dynamic_update_slice",
    ]
    assert [c.value.data if c is not None else None for c in channels.asked] == [1]
    (moved,) = [o for o in module.walk() if isinstance(o, AllReduceOp)]
    assert moved.channel_id is not None
    assert moved.channel_id.value.data == 2
    assert moved.use_global_device_ids is not None


def test_sink_without_channel_keeps_none() -> None:
    module = parse_module(MODULES["dus_scan_counter"])
    _, channels = _rewrite(module)
    assert channels.asked == [None]
    (moved,) = [o for o in module.walk() if isinstance(o, AllReduceOp)]
    assert moved.channel_id is None


def test_sink_rebuilds_a_whole_use_of_the_loop_result() -> None:
    module = parse_module(MODULES["dus_add_and_multiply"])
    _rewrite(module)
    returned = next(o for o in module.walk() if isinstance(o, FuncReturnOp))
    rebuilt = returned.operands[0].owner
    assert isinstance(rebuilt, TupleOp)
    kinds = [e.owner.name for e in rebuilt.elements]  # pyright: ignore[reportAttributeAccessIssue]
    assert kinds == [
        "hlo.get_tuple_element",
        "hlo.get_tuple_element",
        "hlo.all_reduce",
        "hlo.all_reduce",
    ]


def test_sink_of_nothing_changes_nothing() -> None:
    module = parse_module(MODULES["dus_max_whole"])
    (loop,) = while_ops_post_order(module)
    before = str(module)
    sink_update_slices(loop, [], _Channels(module))
    assert str(module) == before


def test_a_counter_that_would_wrap_is_not_an_index() -> None:
    """A scan index of type i8 over 200 iterations wraps around: its rows are not 0..199."""
    loop = WhileLoop(
        ["tensor<i32>", "tensor<200xf32>", "tensor<i8>"],
        """
        %one = hlo.constant dense<1> : tensor<i32>
        %i1 = hlo.add %i, %one : tensor<i32>
        %jone = hlo.constant dense<1> : tensor<i8>
        %j1 = hlo.add %j, %jone : tensor<i8>
        %fl = hlo.convert %i : tensor<i32> -> tensor<f32>
        %local = hlo.reshape %fl : (tensor<f32>) -> tensor<1xf32>
        %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %m = hlo.maximum %a, %b : tensor<f32>
          hlo.return %m : tensor<f32>
        } : (tensor<1xf32>) -> tensor<1xf32>
        %dus = hlo.dynamic_update_slice %out, %ar at [%j] : (tensor<200xf32>, tensor<1xf32>, tensor<i8>) -> tensor<200xf32>
        """,
        ["%i1", "%dus", "%j1"],
        condition=counted(200, counter="%i"),
        names=["%i", "%out", "%j"],
        arguments=("%cs", "%bs"),
    )
    t = loop.type
    function = f"""  func.func @main(%buf: tensor<200xf32>) -> tensor<200xf32> attributes {{hlo.entry}} {{
    %c0 = hlo.constant dense<0> : tensor<i32>
    %j0 = hlo.constant dense<0> : tensor<i8>
    %init = hlo.tuple %c0, %buf, %j0 : {t}
{loop.text("%init")}
    %r = hlo.get_tuple_element %w[1] : {t}
    func.return %r : tensor<200xf32>
  }}"""
    text = module_text(function, partitions=8, spmd=True)
    assert _match_all(parse_module(text)) == [
        "dynamic-update-slice index 0 is neither a constant nor an affine function of a loop "
        "counter"
    ]
