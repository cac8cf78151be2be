"""neuron-while-loop-all-reduce-code-motion (ISSUE 6 §1) proven by execution.

Every case of tests/filecheck/transforms/neuron-while-loop-all-reduce-code-motion.mlir (the same
module text, parsed from that file) is rewritten on a clone and run against the original on 8
simulated devices with random inputs that differ per device: outputs must agree (f32 to rtol 1e-4
for the reassociated sums; bf16 cases at bf16 scale, |diff| <= 2^-6 * max|value|), the remarks
must be exactly the expected ones, and the collective launch counts must drop from T per loop to
1 per moved accumulation. The real JAX corpus (spmd.hlo) is checked against case.json `expect`
and inputs.npz. Bugs found earlier and fixed keep regression tests at the end (their modules are
inline there).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.dialects.hlo.collectives import AllReduceOp, ReduceScatterOp
from neuron_cc.dialects.hlo.control_flow import WhileOp
from neuron_cc.dialects.hlo.data_movement import BroadcastOp
from neuron_cc.dialects.hlo.elementwise_misc import SelectOp
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp
from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.interpreter.equivalence import flatten_values
from neuron_cc.interpreter.runner import RunResult, entry_function, inputs_from_npz, run_module
from neuron_cc.testing import assert_equivalent, random_inputs
from neuron_cc.testing.ir import lit_modules
from neuron_cc.testing.ir import neuron_context as _context
from neuron_cc.testing.loop_text import WhileLoop, counted
from neuron_cc.transforms.hlo_dce import eliminate_dead_code
from neuron_cc.transforms.while_loop_all_reduce_code_motion import (
    WhileLoopAllReduceCodeMotionPass,
)
from neuron_cc.translate.hlo_text.importer import import_hlo

ROOT = Path(__file__).resolve().parent
LIT = ROOT / "filecheck" / "transforms" / "neuron-while-loop-all-reduce-code-motion.mlir"
CORPUS = ROOT / "corpus" / "jax"
PREFIX = "remark: neuron-while-loop-all-reduce-code-motion: "
RS_DISABLED = "reduce_scatter motion is disabled (enable-reduce-scatter)"
_OWN_OP = "the {} reduction is accumulated with {}: only the reducer's own operation accumulates"
BF16_SCALE = 2.0**-6
GATE_GROUPS = "0,1,2,3;4,5,6,7"

Array = np.ndarray[Any, Any]

OPTIONS: dict[str, dict[str, Any]] = {
    "default": {},
    "rs": {"enable_reduce_scatter": True},
    "setup": {"enable_reduce_scatter": True, "run_setup_passes": True},
    "gate": {"reference_replica_groups": GATE_GROUPS},
}


# --- the lit file's modules ---------------------------------------------------------------------


MAIN = lit_modules(LIT.read_text())


def _parse(text: str) -> ModuleOp:
    module = Parser(_context(), text).parse_module()
    module.verify()
    return module


def _apply(
    module: ModuleOp, capsys: pytest.CaptureFixture[str], options: dict[str, Any]
) -> tuple[ModuleOp, list[str]]:
    """(rewritten clone, remark lines without the `remark: <pass>: ` prefix)."""
    capsys.readouterr()
    after = module.clone()
    WhileLoopAllReduceCodeMotionPass(remarks=True, **options).apply(_context(), after)
    after.verify()
    lines = capsys.readouterr().err.splitlines()
    assert all(line.startswith(PREFIX) for line in lines), lines
    summary = lines.pop()
    moved = sum(1 for line in lines if line.endswith(": moved"))
    assert re.fullmatch(
        PREFIX + r"hoisted (\d+) all-reduce and (\d+) reduce-scatter out of while loops", summary
    ), summary
    assert moved >= sum(int(n) for n in re.findall(r"\d+", summary[len(PREFIX) :])), summary
    return after, [line[len(PREFIX) :] for line in lines]


def _assert_bf16_close(expected: Sequence[Array], actual: Sequence[Array]) -> None:
    assert len(expected) == len(actual)
    for j, (a, b) in enumerate(zip(expected, actual, strict=True)):
        assert a.shape == b.shape, j
        assert a.dtype == b.dtype, j
        wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
        bound = BF16_SCALE * float(np.max(np.abs(wide_a)))
        assert float(np.max(np.abs(wide_a - wide_b))) <= bound, f"output {j}"


def _equivalent(before: ModuleOp, after: ModuleOp, bf16: bool) -> tuple[RunResult, RunResult]:
    if not bf16:
        return assert_equivalent(before, after, rtol=1e-4, atol=1e-5)
    inputs = random_inputs(before)
    first = run_module(before, [np.copy(a) for a in inputs])
    second = run_module(after, [np.copy(a) for a in inputs])
    _assert_bf16_close(flatten_values(first.outputs), flatten_values(second.outputs))
    return first, second


def _launches(result: RunResult) -> dict[str, int]:
    return {kind: record.launches for kind, record in result.state.stats.items()}


def _in_loops(module: ModuleOp, kinds: tuple[type[Operation], ...]) -> list[Operation]:
    """The collectives of `kinds` nested (at any depth) inside a while op."""
    found: list[Operation] = []
    for op in module.walk():
        if not isinstance(op, kinds):
            continue
        parent = op.parent_op()
        while parent is not None and not isinstance(parent, WhileOp):
            parent = parent.parent_op()
        if parent is not None:
            found.append(op)
    return found


def _channel_ids(module: ModuleOp) -> list[int]:
    """channel_id of every all_reduce outside loops, in program order."""
    loop_ops = {id(op) for op in _in_loops(module, (AllReduceOp,))}
    ids: list[int] = []
    for op in module.walk():
        if isinstance(op, AllReduceOp) and id(op) not in loop_ops:
            channel = op.properties.get("channel_id")
            ids.append(int(channel.value.data) if isinstance(channel, IntegerAttr) else -1)
    return ids


# --- expectations per lit case ------------------------------------------------------------------


def _moved(name: str = "ar", kind: str = "all_reduce") -> str:
    return f"%{name} (hlo.{kind}): moved"


def _not(reason: str, name: str = "ar", kind: str = "all_reduce") -> str:
    return f"%{name} (hlo.{kind}): {reason}"


@dataclass(frozen=True)
class Case:
    name: str
    option: str
    remarks: tuple[str, ...]
    launches: dict[str, tuple[int, int]] = field(default_factory=dict[str, tuple[int, int]])
    """collective kind -> (launches before, launches after)."""
    bf16: bool = False
    rehoisted: int = 0
    """Moves of collectives the pass itself created (nested loops: the all-reduce hoisted out of
    the inner loop into the outer body moves again), not of collectives of the input."""

    @property
    def id(self) -> str:
        return f"{self.name}-{self.option}"


AR4_1 = {"all-reduce": (4, 1)}
AR4_4 = {"all-reduce": (4, 4)}
RS4_1 = {"reduce-scatter": (4, 1)}
RS4_4 = {"reduce-scatter": (4, 4)}
GATED = "replica groups do not match reference-replica-groups"
RS_FULL_PREDICATE = "select predicate on a reduce_scatter result is not a broadcast scalar"
FLOAT_TO_INT = (
    "a convert involving non-float types does not commute with the sum: "
    "tensor<4xf32> -> tensor<4xi32>"
)
HOISTED_MOVED = "'hlo.all_reduce': moved"

CASES = [
    Case("accumulate", "default", (_moved(),), AR4_1),
    Case("accumulate", "gate", (_not(GATED),), AR4_4),
    # 1 pre-loop all-reduce + 4 in-loop -> 1 + 3 hoisted (one per slice).
    Case("sliced_three_ways", "default", (_moved(),), {"all-reduce": (5, 4)}),
    Case("used_after_loop", "default", (_moved(),), AR4_1),
    Case(
        "accumulated_twice",
        "default",
        (_not("the add's other operand is not a loop-carried accumulation buffer"),),
        AR4_4,
    ),
    Case("bf16_converts", "default", (_moved(),), AR4_1, bf16=True),
    Case("bf16_converts", "setup", (_moved(),), AR4_1, bf16=True),
    Case("select_zero_constant", "default", (_moved(),), AR4_1),
    Case("select_zero_broadcast", "default", (_moved(),), AR4_1),
    Case(
        "select_partition_predicate",
        "default",
        (
            _moved("halves"),
            _not("select predicate is not replicated within the replica groups", "everyone"),
        ),
        {"all-reduce": (8, 5)},
    ),
    Case(
        "select_partition_predicate",
        "gate",
        (_moved("halves"), _not(GATED, "everyone")),
        {"all-reduce": (8, 5)},
    ),
    # Sibling loops: processed in program order (remarks and channel ids).
    Case("two_loops", "default", (_moved(), _moved("ar2")), {"all-reduce": (8, 2)}),
    # Inner loop first (its all-reduce lands in the outer body, unnamed), then the outer loop.
    Case("nested", "default", (_moved(), HOISTED_MOVED), {"all-reduce": (6, 1)}, rehoisted=1),
    Case("nested", "gate", (_not(GATED),), {"all-reduce": (6, 6)}),
    Case(
        "two_accumulations",
        "default",
        (
            _moved("movable"),
            _not("the collective's result is multiplied by a value that is not a scalar", "scaled"),
        ),
        {"all-reduce": (8, 5)},
    ),
    Case("ds_dus_replicated_index", "default", (_moved(),), AR4_1),
    Case("ds_dus_replicated_index", "gate", (_moved(),), AR4_1),
    Case(
        "ds_dus_unreplicated_index",
        "default",
        (_not("dynamic-update-slice index is not replicated within the replica groups"),),
        AR4_4,
    ),
    Case("ds_dus_counter_index", "default", (_moved(),), AR4_1),
    Case("rs_accumulate", "default", (_not(RS_DISABLED, "rs", "reduce_scatter"),), RS4_4),
    Case("rs_accumulate", "rs", (_moved("rs", "reduce_scatter"),), RS4_1),
    Case("rs_accumulate", "setup", (_moved("rs", "reduce_scatter"),), RS4_1),
    Case("rs_convert", "default", (_not(RS_DISABLED, "rs", "reduce_scatter"),), RS4_4),
    Case(
        "rs_convert",
        "rs",
        (_moved("rs", "reduce_scatter"),),
        RS4_1,
        bf16=True,
    ),
    Case("rs_convert", "setup", (_moved("rs", "reduce_scatter"),), RS4_1, bf16=True),
    Case("rs_transpose", "default", (_not(RS_DISABLED, "rs", "reduce_scatter"),), RS4_4),
    Case(
        "rs_transpose",
        "rs",
        (
            _not(
                "unsupported operation on the collective's result: transpose",
                "rs",
                "reduce_scatter",
            ),
        ),
        RS4_4,
    ),
    Case("rs_transpose", "setup", (_moved("rs", "reduce_scatter"),), RS4_1),
    Case(
        "rs_select_scalar_predicate", "default", (_not(RS_DISABLED, "rs", "reduce_scatter"),), RS4_4
    ),
    Case("rs_select_scalar_predicate", "rs", (_moved("rs", "reduce_scatter"),), RS4_1),
    Case("rs_select_scalar_predicate", "setup", (_moved("rs", "reduce_scatter"),), RS4_1),
    Case(
        "rs_select_full_predicate", "default", (_not(RS_DISABLED, "rs", "reduce_scatter"),), RS4_4
    ),
    Case(
        "rs_select_full_predicate", "rs", (_not(RS_FULL_PREDICATE, "rs", "reduce_scatter"),), RS4_4
    ),
    Case(
        "rs_select_full_predicate",
        "setup",
        (_not(RS_FULL_PREDICATE, "rs", "reduce_scatter"),),
        RS4_4,
    ),
    Case("nonzero_init", "default", (_moved(),), AR4_1),
    Case(
        "max_min",
        "default",
        (
            _not(_OWN_OP.format("maximum", "add"), "mx"),
            _not(_OWN_OP.format("minimum", "add"), "mn"),
        ),
        {"all-reduce": (8, 8)},
    ),
    Case(
        "cond_reads_buffer",
        "default",
        (_not("accumulation buffer is read by the loop condition"),),
        AR4_4,
    ),
    Case(
        "buffer_other_use",
        "default",
        (_not("unsupported operation on accumulation buffer: multiply"),),
        AR4_4,
    ),
    Case(
        "buffer_select_reset",
        "default",
        (_not("the add's other operand is not a loop-carried accumulation buffer"),),
        AR4_4,
    ),
    Case(
        "body_arg_other_use",
        "default",
        (_not("the loop body argument is used by optimization_barrier"),),
        AR4_4,
    ),
    Case("no_channel_id", "default", (_moved(),), AR4_1),
    Case(
        "gate",
        "default",
        (_moved("explicit"), _moved("iota"), _moved("strided")),
        {"all-reduce": (12, 3)},
    ),
    Case(
        "gate",
        "gate",
        (_moved("explicit"), _moved("iota"), _not(GATED, "strided")),
        {"all-reduce": (12, 6)},
    ),
    Case(
        "no_spmd",
        "default",
        (_not("num_partitions > 1 without hlo.use_spmd_partitioning"),),
        AR4_4,
    ),
    Case(
        "tuple_all_reduce",
        "default",
        (_not("tuple-shaped collectives are not moved", "pair"),),
        AR4_4,
    ),
    Case("constrain_layout", "default", (_not("constrain_layout is set"),), AR4_4),
    Case("pred_element_type", "default", (_not("element type pred is not supported"),), AR4_4),
    Case("non_tuple_state", "default", (_not("the loop-carried value is not a tuple"),), AR4_4),
    Case(
        "not_returned_at_same_slot",
        "default",
        (_not("the accumulation result is not returned at tuple index 1"),),
        AR4_4,
    ),
    Case("buffer_convert_chain", "default", (_moved(),), AR4_1, bf16=True),
    Case("buffer_reshape_chain", "default", (_moved(),), AR4_1),
    Case(
        "ds_without_dus",
        "default",
        (_not("a dynamic-slice of the accumulation buffer needs a matching dynamic-update-slice"),),
        AR4_4,
    ),
    Case(
        "ds_dus_indices_differ",
        "default",
        (_not("the dynamic-slice and dynamic-update-slice indices differ"),),
        AR4_4,
    ),
    Case("added_to_itself", "default", (_not("the collective's value is added to itself"),), AR4_4),
    Case(
        "unused_result_path",
        "default",
        (_not("the collective's result is unused on some path"),),
        AR4_4,
    ),
    Case(
        "select_non_zero",
        "default",
        (_not("unsupported operation on the collective's result: select"),),
        AR4_4,
    ),
    Case("integer_accumulate", "default", (_moved(),), AR4_1),
    Case("init_not_a_tuple_op", "default", (_moved(),), AR4_1),
    Case("convert_after_all_reduce", "default", (_moved(),), AR4_1, bf16=True),
    Case("convert_after_all_reduce", "setup", (_moved(),), AR4_1, bf16=True),
    Case("convert_to_integer", "default", (_not(FLOAT_TO_INT),), AR4_4),
    Case("convert_to_integer", "setup", (_not(FLOAT_TO_INT),), AR4_4),
]


def test_every_lit_case_has_an_equivalence_test() -> None:
    tested = {case.name for case in CASES}
    assert tested == set(MAIN), sorted(tested ^ set(MAIN))


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_lit_case(case: Case, capsys: pytest.CaptureFixture[str]) -> None:
    before = _parse(MAIN[case.name])
    after, remarks = _apply(before, capsys, OPTIONS[case.option])
    assert remarks == list(case.remarks)
    first, second = _equivalent(before, after, case.bf16)
    launches = {kind: (_launches(first)[kind], _launches(second)[kind]) for kind in case.launches}
    assert launches == case.launches
    moved = sum(1 for line in remarks if line.endswith(": moved")) - case.rehoisted
    kinds = (AllReduceOp, ReduceScatterOp)
    assert len(_in_loops(after, kinds)) == len(_in_loops(before, kinds)) - moved


# --- targeted checks of the rewrite -------------------------------------------------------------


def test_hoisted_channel_ids_continue_after_the_largest(capsys: pytest.CaptureFixture[str]) -> None:
    """Three accumulations of one all-reduce: channel ids 8, 9, 10 (largest existing: 7)."""
    before = _parse(MAIN["sliced_three_ways"])
    after, _ = _apply(before, capsys, {})
    assert _channel_ids(after) == [7, 8, 9, 10]


def test_no_channel_id_stays_without_one(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/decisions.md §6.1: adding a channel id would turn cross_replica into cross_replica_and_partition."""
    after, _ = _apply(_parse(MAIN["no_channel_id"]), capsys, {})
    assert _channel_ids(after) == [-1]


def test_reduce_scatter_slot_is_widened(capsys: pytest.CaptureFixture[str]) -> None:
    after, _ = _apply(_parse(MAIN["rs_accumulate"]), capsys, OPTIONS["rs"])
    loop = next(op for op in after.walk() if isinstance(op, WhileOp))
    assert str(loop.result.type) == "tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>"
    hoisted = [op for op in after.walk() if isinstance(op, ReduceScatterOp)]
    assert [str(op.results[0].type) for op in hoisted] == ["tensor<2x4xf32>"]


def test_non_zero_init_is_added_after_the_collective(capsys: pytest.CaptureFixture[str]) -> None:
    """final = init + AR(sum of local contributions): with all-ones x, 1 + 8 * 4 = 33."""
    before = _parse(MAIN["nonzero_init"])
    after, _ = _apply(before, capsys, {})
    x = np.ones((8, 4), dtype=np.float32)
    first, second = assert_equivalent(before, after, inputs=[x])
    assert isinstance(second.outputs[0], np.ndarray)
    steps = [1.0]
    for _ in range(3):
        steps.append(float(np.tanh(steps[-1])))
    assert second.outputs[0][0][0] == pytest.approx(1.0 + 8 * sum(steps), rel=1e-5)
    np.testing.assert_allclose(first.outputs[0], second.outputs[0], rtol=1e-6)


def test_malformed_reference_groups_fail_the_pass() -> None:
    module = _parse(MAIN["gate"])
    with pytest.raises(PassFailedException, match="malformed reference-replica-groups"):
        WhileLoopAllReduceCodeMotionPass(reference_replica_groups="0,1;x").apply(_context(), module)


def test_the_input_module_is_not_modified(capsys: pytest.CaptureFixture[str]) -> None:
    text = MAIN["gate"]
    before = _parse(text)
    reference = str(_parse(text))
    _apply(before, capsys, {})
    assert str(before) == reference


def test_nested_loops_sink_out_of_both_loops(capsys: pytest.CaptureFixture[str]) -> None:
    """The inner all-reduce (channel 1) is hoisted into the outer body (channel 2), then out of
    the outer loop: one all-reduce after both loops, channel id 3."""
    after, _ = _apply(_parse(MAIN["nested"]), capsys, {})
    assert _in_loops(after, (AllReduceOp,)) == []
    assert _channel_ids(after) == [3]


def test_sibling_loops_are_processed_in_program_order(capsys: pytest.CaptureFixture[str]) -> None:
    after, remarks = _apply(_parse(MAIN["two_loops"]), capsys, {})
    assert remarks == [_moved(), _moved("ar2")]
    assert _channel_ids(after) == [3, 4]


def test_reduce_scatter_select_is_widened(capsys: pytest.CaptureFixture[str]) -> None:
    """select(broadcast(p), RS, 0): the loop selects at the pre-scatter shape on a re-broadcast p."""
    after, _ = _apply(_parse(MAIN["rs_select_scalar_predicate"]), capsys, OPTIONS["rs"])
    (select,) = [op for op in after.walk() if isinstance(op, SelectOp)]
    assert str(select.result.type) == "tensor<16x4xf32>"
    pred = select.pred.owner
    assert isinstance(pred, BroadcastOp)
    assert str(pred.operand.type) == "tensor<i1>"


def _dead_ops(module: ModuleOp) -> int:
    """How many ops hlo-dce would erase in the entry function (of a clone)."""
    return eliminate_dead_code(entry_function(module.clone()).body.blocks[0])


@pytest.mark.parametrize("case", [pytest.param(case, id=case.id) for case in CASES])
def test_no_dead_code_is_left(case: Case, capsys: pytest.CaptureFixture[str]) -> None:
    """The rewrite leaves no dead op behind (some inputs have dead ops of their own)."""
    before = _parse(MAIN[case.name])
    after, _ = _apply(before, capsys, OPTIONS[case.option])
    assert _dead_ops(after) == _dead_ops(before)


# --- regression tests of bugs found and fixed ---------------------------------------------------

_ADD_REGION = """{
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %s = hlo.add %a, %b : tensor<f32>
  hlo.return %s : tensor<f32>
}"""
_BUFFER_FLOAT_TO_INT = WhileLoop(
    ["tensor<i32>", "tensor<4xi32>", "tensor<4xf32>"],
    f"""
%one = hlo.constant dense<1> : tensor<i32>
%i1 = hlo.add %i, %one : tensor<i32>
%ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {_ADD_REGION} : (tensor<4xf32>) -> tensor<4xf32>
%wide = hlo.convert %acc : tensor<4xi32> -> tensor<4xf32>
%sum = hlo.add %wide, %ar : tensor<4xf32>
%acc1 = hlo.convert %sum : tensor<4xf32> -> tensor<4xi32>
""",
    ["%i1", "%acc1", "%v"],
    condition=counted(4, counter="%i"),
    names=["%i", "%acc", "%v"],
    arguments=("%cs", "%bs"),
)
BUFFER_FLOAT_TO_INT = f"""
builtin.module @buffer_float_to_int attributes {{hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning}} {{
  func.func @main(%x: tensor<4xf32>) -> tensor<4xi32> attributes {{hlo.entry}} {{
    %c0 = hlo.constant dense<0> : tensor<i32>
    %zi = hlo.constant dense<0> : tensor<4xi32>
    %init = hlo.tuple %c0, %zi, %x : {_BUFFER_FLOAT_TO_INT.type}
{_BUFFER_FLOAT_TO_INT.text("%init")}
    %r = hlo.get_tuple_element %w[1] : {_BUFFER_FLOAT_TO_INT.type}
    func.return %r : tensor<4xi32>
  }}
}}
"""

_RS_SELECT_ZERO_FIRST = WhileLoop(
    ["tensor<i32>", "tensor<16x4xf32>", "tensor<16x4xf32>"],
    f"""
%one = hlo.constant dense<1> : tensor<i32>
%i1 = hlo.add %i, %one : tensor<i32>
%g = hlo.cosine %v : tensor<16x4xf32>
%rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0], [1], [2], [3], [4], [5], [6], [7]] channel_id = 1 use_global_device_ids {_ADD_REGION} : (tensor<16x4xf32>) -> tensor<16x4xf32>
%two = hlo.constant dense<2> : tensor<i32>
%p = hlo.compare LT, %i, %two : tensor<i32> -> tensor<i1>
%pb = hlo.broadcast %p, dims = [] : (tensor<i1>) -> tensor<16x4xi1>
%zero = hlo.constant dense<0.000000e+00> : tensor<16x4xf32>
%sel = hlo.select %pb, %zero, %rs : tensor<16x4xi1>, tensor<16x4xf32>
%acc1 = hlo.add %acc, %sel : tensor<16x4xf32>
""",
    ["%i1", "%acc1", "%v"],
    condition=counted(4, counter="%i"),
    names=["%i", "%acc", "%v"],
    arguments=("%cs", "%bs"),
)
RS_SELECT_ZERO_FIRST_UNSCATTERED = f"""
builtin.module @rs_select_zero_first attributes {{hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning}} {{
  func.func @main(%x: tensor<16x4xf32>) -> tensor<16x4xf32> attributes {{hlo.entry}} {{
    %c0 = hlo.constant dense<0> : tensor<i32>
    %zb = hlo.constant dense<0.000000e+00> : tensor<16x4xf32>
    %init = hlo.tuple %c0, %zb, %x : {_RS_SELECT_ZERO_FIRST.type}
{_RS_SELECT_ZERO_FIRST.text("%init")}
    %r = hlo.get_tuple_element %w[1] : {_RS_SELECT_ZERO_FIRST.type}
    func.return %r : tensor<16x4xf32>
  }}
}}
"""


def test_buffer_side_float_to_integer_convert_is_not_moved(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """0.3 on each of 8 devices, 4 iterations: before trunc(.. + 2.4) -> 8; after moving -> 0."""
    before = _parse(BUFFER_FLOAT_TO_INT)
    after, _ = _apply(before, capsys, {})
    assert_equivalent(before, after, inputs=[np.full((8, 4), 0.3, dtype=np.float32)])
    assert len(_in_loops(after, (AllReduceOp,))) == 1


def test_select_zero_first_on_shape_preserving_reduce_scatter(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = _parse(RS_SELECT_ZERO_FIRST_UNSCATTERED)
    after, _ = _apply(before, capsys, OPTIONS["rs"])
    _equivalent(before, after, bf16=False)


# --- the real corpus ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusCase:
    name: str
    remarks: tuple[str, ...]
    launches: dict[str, tuple[int, int]]
    bf16: bool = False


CORPUS_CASES = [
    CorpusCase("grad_accum_zero_init", (_moved("psum_invariant.7"),), AR4_1),
    # Not hoistable by a zero-init rule, but upstream XLA (and ISSUE 6 §1) moves it: init + AR.
    CorpusCase("grad_accum_ones_init", (_moved("psum_invariant.7"),), AR4_1),
    # The trip count n = 3 comes from the inputs.
    CorpusCase("grad_accum_dynamic_trip", (_moved("psum_invariant.6"),), {"all-reduce": (3, 1)}),
    CorpusCase("grad_accum_bf16_convert", (_moved("psum_invariant.7"),), AR4_1, bf16=True),
    CorpusCase(
        "psum_subgroups_2x4",
        tuple(_moved(f"psum_invariant.{i}") for i in (21, 22, 23)),
        {"all-reduce": (9, 3)},
    ),
    CorpusCase(
        "pmax_in_loop",
        (
            _not(_OWN_OP.format("maximum", "add"), "pmax.7"),
            _not(_OWN_OP.format("minimum", "maximum"), "pmin.7"),
        ),
        {"all-reduce": (8, 8)},
    ),
    CorpusCase(
        "ppermute_ring_loop",
        (
            _not(
                "collective_permute is not a reduction: never moved by this pass",
                "ppermute.3",
                "collective_permute",
            ),
        ),
        {"collective-permute": (8, 8)},
    ),
]

KINDS: dict[str, tuple[type[Operation], ...]] = {
    "all-reduce": (AllReduceOp,),
    "collective-permute": (CollectivePermuteOp,),
}


def _run_corpus(module: ModuleOp, data: dict[str, Array]) -> RunResult:
    r, p = device_counts(module)
    return run_module(module, inputs_from_npz(entry_function(module), data, r * p))


def _stays_in_loop(expect: dict[str, Any]) -> bool:
    return not (expect.get("hoistable") or expect.get("hoistable_by_upstream_xla"))


def _assert_matches_oracle(result: RunResult, data: dict[str, Array], bf16: bool) -> None:
    outputs = flatten_values(result.outputs)
    for j, value in enumerate(outputs):
        for d in range(value.shape[0]):
            got, want = value[d], data[f"out{j}_dev{d}"]
            if bf16:
                _assert_bf16_close([want], [got.astype(want.dtype)])
            else:
                np.testing.assert_allclose(
                    got, want, rtol=1e-5, atol=1e-5, err_msg=f"out{j}_dev{d}"
                )


@pytest.mark.parametrize("case", CORPUS_CASES, ids=[c.name for c in CORPUS_CASES])
def test_corpus(case: CorpusCase, capsys: pytest.CaptureFixture[str]) -> None:
    path = CORPUS / case.name / "spmd.hlo"
    before = import_hlo(path.read_text(), str(path))
    before.verify()
    expect = json.loads((path.parent / "case.json").read_text())["expect"]["collectives"]
    after, remarks = _apply(before, capsys, OPTIONS["setup"])
    assert remarks == list(case.remarks)
    for kind, ops in KINDS.items():
        in_loop = [e for e in expect if e["op"] == kind and e.get("in_loop")]
        assert len(_in_loops(before, ops)) == len(in_loop)
        assert len(_in_loops(after, ops)) == sum(1 for e in in_loop if _stays_in_loop(e))
    with np.load(path.parent / "inputs.npz") as npz:
        data = {k: npz[k] for k in npz.files}
    first, second = _run_corpus(before, data), _run_corpus(after, data)
    _assert_matches_oracle(second, data, case.bf16)
    launches = {k: (_launches(first)[k], _launches(second)[k]) for k in case.launches}
    assert launches == case.launches
