"""neuron-move-all-gather-while-loop and neuron-duplicate-parameter-all-gather-remover.

Every case of the two lit files is run before and after the pass on 8 simulated devices with
random inputs (and, for the hoist, with and without the replica-group gate); the real JAX
corpus cases are checked against their XLA oracle; `neuron_cc.analysis.while_loops` is unit
tested on small loops.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis.while_loops import (
    body_root_tuple,
    enclosing_loop,
    erase_if_dead,
    init_elements,
    is_loop_invariant_slot,
    remap_slots,
    slot_reads,
    while_ops_post_order,
)
from neuron_cc.dialects.hlo.collectives import AllGatherOp
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, TupleOp, WhileOp
from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.interpreter.runner import entry_function, inputs_from_npz, run_module
from neuron_cc.testing import assert_equivalent
from neuron_cc.testing.ir import neuron_context as _context
from neuron_cc.transforms.duplicate_parameter_all_gather_remover import (
    DuplicateParameterAllGatherRemoverPass,
)
from neuron_cc.transforms.move_all_gather_while_loop import MoveAllGatherWhileLoopPass
from neuron_cc.translate.hlo_text.importer import import_hlo

ROOT = Path(__file__).resolve().parent.parent
LIT = ROOT / "tests" / "filecheck" / "transforms"
CORPUS = ROOT / "tests" / "corpus" / "jax"
GATE = "0,1,2,3;4,5,6,7"


def _parse(text: str) -> ModuleOp:
    module = Parser(_context(), text).parse_module()
    module.verify()
    return module


def _cases(name: str) -> list[tuple[str, str]]:
    """(function name, module text) of every `// -----` case of a lit file."""
    chunks = (LIT / name).read_text().split("// -----\n")
    cases: list[tuple[str, str]] = []
    for chunk in chunks:
        match = re.search(r"^  func\.func @([\w.]+)", chunk, re.MULTILINE)
        if match is not None:
            cases.append((match.group(1), chunk))
    return cases


HOIST_CASES = _cases("neuron-move-all-gather-while-loop.mlir")
REMOVER_CASES = _cases("neuron-duplicate-parameter-all-gather-remover.mlir")


def _apply(module: ModuleOp, pass_: ModulePass) -> ModuleOp:
    after = module.clone()
    pass_.apply(_context(), after)
    after.verify()
    return after


def _gathers(module: ModuleOp) -> list[AllGatherOp]:
    return [op for op in module.walk() if isinstance(op, AllGatherOp)]


def _launches(result: Any) -> int:
    record = result.state.stats.get("all-gather")
    return 0 if record is None else record.launches


# (all-gather launches before, after) for the default options.
EXPECTED_LAUNCHES = {
    "simple": (3, 1),
    "convert_gather": (3, 1),
    "updated_slot": (3, 3),
    "swapped_slots": (3, 3),
    "operand_not_a_slot": (3, 3),
    "not_a_tuple": (3, 3),
    "result_not_a_tuple": (3, 3),
    "variadic_gather": (3, 3),
    "gate": (6, 2),
    "general_other_user": (3, 1),
    "general_condition_reads": (3, 1),
    "general_parameter_used_whole": (3, 1),
    "general_result_tuple_reused": (3, 1),
    "general_convert_reused": (3, 1),
    "duplicate_gathers": (6, 1),
    "two_gathers_of_one_slot": (6, 2),
    "one_of_two": (6, 4),
    "nested_loops": (6, 1),
    "nested_outer_updates": (6, 2),
    "gather_in_conditional": (1, 1),
    "loop_result_used_whole": (3, 1),
    "init_not_a_tuple_op": (3, 1),
    "cross_replica_gather": (3, 1),
    "same_body_twice": (6, 2),
    "two_loops_one_weight": (6, 1),
}


def test_every_hoist_case_has_expected_launches() -> None:
    assert sorted(name for name, _ in HOIST_CASES) == sorted(EXPECTED_LAUNCHES)


@pytest.mark.parametrize(("name", "text"), HOIST_CASES, ids=[n for n, _ in HOIST_CASES])
def test_hoist_is_equivalent(name: str, text: str) -> None:
    before = _parse(text)
    after = _apply(before, MoveAllGatherWhileLoopPass())
    first, second = assert_equivalent(before, after)
    assert (_launches(first), _launches(second)) == EXPECTED_LAUNCHES[name]


@pytest.mark.parametrize(("name", "text"), HOIST_CASES, ids=[n for n, _ in HOIST_CASES])
def test_hoist_with_gate_is_equivalent(name: str, text: str) -> None:
    before = _parse(text)
    after = _apply(before, MoveAllGatherWhileLoopPass(reference_replica_groups=GATE))
    first, second = assert_equivalent(before, after, seed=1)
    assert _launches(second) <= _launches(first)


@pytest.mark.parametrize(("name", "text"), REMOVER_CASES, ids=[n for n, _ in REMOVER_CASES])
def test_remover_is_equivalent(name: str, text: str) -> None:
    before = _parse(text)
    after = _apply(before, DuplicateParameterAllGatherRemoverPass())
    first, second = assert_equivalent(before, after)
    assert _launches(second) <= _launches(first)
    assert len(_gathers(after)) <= len(_gathers(before))


def test_gate_keeps_the_strided_gather_in_the_loop() -> None:
    text = dict(HOIST_CASES)["gate"]
    after = _apply(_parse(text), MoveAllGatherWhileLoopPass(reference_replica_groups=GATE))
    in_loop = [g.result.name_hint for g in _gathers(after) if enclosing_loop(g) is not None]
    assert in_loop == ["strided"]


def test_hoist_is_idempotent() -> None:
    for _, text in HOIST_CASES:
        once = _apply(_parse(text), MoveAllGatherWhileLoopPass())
        twice = _apply(once, MoveAllGatherWhileLoopPass())
        assert str(twice) == str(once)


def test_channel_ids_stay_unique() -> None:
    text = dict(HOIST_CASES)["same_body_twice"]
    after = _apply(_parse(text), MoveAllGatherWhileLoopPass())
    ids = [g.channel_id.value.data for g in _gathers(after) if g.channel_id is not None]
    assert ids == [2, 1]


def test_malformed_reference_groups_fail_the_pass() -> None:
    module = _parse(dict(HOIST_CASES)["simple"])
    with pytest.raises(PassFailedException, match="malformed reference-replica-groups"):
        MoveAllGatherWhileLoopPass(reference_replica_groups="0,1;;x").apply(_context(), module)


def test_remarks_are_printed_only_when_enabled(capsys: pytest.CaptureFixture[str]) -> None:
    module = _parse(dict(HOIST_CASES)["simple"])
    _apply(module, MoveAllGatherWhileLoopPass())
    assert capsys.readouterr().err == ""
    _apply(module, MoveAllGatherWhileLoopPass(remarks=True))
    err = capsys.readouterr().err
    assert err == "remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved\n"


# ---------------------------------------------------------------------------------------------
# The real corpus (spmd.hlo): hoistable gathers leave the loop, outputs still match XLA.

CORPUS_CASES = [
    ("fsdp_allgather_carried_weight", True),
    ("fsdp_allgather_bf16_convert", True),
    ("allgather_updated_weight", False),
]
EXACT_AGAINST_ORIGINAL = {"fsdp_allgather_bf16_convert"}


def _corpus_run(module: ModuleOp, arrays: dict[str, Any]) -> Any:
    r, p = device_counts(module)
    return run_module(module, inputs_from_npz(entry_function(module), arrays, r * p))


@pytest.mark.parametrize(("case", "hoistable"), CORPUS_CASES, ids=[c for c, _ in CORPUS_CASES])
def test_corpus_case(case: str, hoistable: bool) -> None:
    path = CORPUS / case / "spmd.hlo"
    original = import_hlo(path.read_text(), str(path))
    original.verify()
    after = _apply(original, MoveAllGatherWhileLoopPass())
    in_loop = [g for g in _gathers(after) if enclosing_loop(g) is not None]
    assert len(_gathers(after)) == 1
    assert len(in_loop) == (0 if hoistable else 1)
    with np.load(path.parent / "inputs.npz") as data:
        arrays = {k: data[k] for k in data.files}
    before_run = _corpus_run(original, arrays)
    after_run = _corpus_run(after, arrays)
    assert _launches(before_run) == 3
    assert _launches(after_run) == (1 if hoistable else 3)
    for j, value in enumerate(after_run.outputs):
        for d in range(value.shape[0]):
            if case in EXACT_AGAINST_ORIGINAL:
                np.testing.assert_array_equal(value[d], before_run.outputs[j][d])
            else:
                np.testing.assert_allclose(value[d], arrays[f"out{j}_dev{d}"], rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------------------------
# neuron_cc.analysis.while_loops

NESTED = dict(HOIST_CASES)["nested_loops"]


def _loops(module: ModuleOp) -> dict[str, WhileOp]:
    return {loop.result.name_hint or "": loop for loop in while_ops_post_order(module)}


def _named(module: ModuleOp, name: str) -> Operation:
    return next(op for op in module.walk() if op.results and op.results[0].name_hint == name)


def test_while_ops_post_order_puts_inner_loops_first() -> None:
    module = _parse(NESTED)
    assert [loop.result.name_hint for loop in while_ops_post_order(module)] == ["inner", "outer"]
    module = _parse(dict(HOIST_CASES)["same_body_twice"])
    assert [loop.result.name_hint for loop in while_ops_post_order(module)] == ["first", "second"]


def test_enclosing_loop_is_the_body_owner() -> None:
    module = _parse(NESTED)
    loops = _loops(module)
    assert enclosing_loop(_named(module, "ag")) is loops["inner"]
    assert enclosing_loop(_named(module, "acc1")) is loops["outer"]
    assert enclosing_loop(_named(module, "jlt")) is None  # in a loop condition
    assert enclosing_loop(_named(module, "r")) is None
    module = _parse(dict(HOIST_CASES)["gather_in_conditional"])
    assert enclosing_loop(_named(module, "ag")) is _loops(module)["loop"]


def test_body_root_tuple_and_invariant_slots() -> None:
    module = _parse(dict(HOIST_CASES)["swapped_slots"])
    loop = _loops(module)["loop"]
    assert body_root_tuple(loop) is _named(module, "t")
    assert not any(is_loop_invariant_slot(loop, k) for k in range(5))
    module = _parse(dict(HOIST_CASES)["simple"])
    loop = _loops(module)["loop"]
    assert [is_loop_invariant_slot(loop, k) for k in range(3)] == [False, False, True]
    module = _parse(dict(HOIST_CASES)["result_not_a_tuple"])
    loop = _loops(module)["loop"]
    assert body_root_tuple(loop) is None
    assert not is_loop_invariant_slot(loop, 2)


def test_slot_reads_separates_gtes_from_whole_uses() -> None:
    module = _parse(dict(HOIST_CASES)["general_parameter_used_whole"])
    loop = _loops(module)["loop"]
    reads = slot_reads(loop.body.block.args[0])
    assert sorted(reads.by_slot) == [2]
    assert [u.operation.name for u in reads.other_uses] == ["hlo.optimization_barrier"]
    assert sorted(u.operation.name for u in reads.users(2)) == ["hlo.all_gather", "hlo.tuple"]


def test_init_elements_reads_a_non_tuple_init() -> None:
    module = _parse(dict(HOIST_CASES)["init_not_a_tuple_op"])
    loop = _loops(module)["loop"]
    values = init_elements(loop)
    assert [v.owner.name for v in values if isinstance(v.owner, Operation)] == [
        "hlo.get_tuple_element"
    ] * 3
    assert all(
        isinstance(v.owner, GetTupleElementOp) and v.owner.next_op is not None for v in values
    )
    module = _parse(dict(HOIST_CASES)["simple"])
    loop = _loops(module)["loop"]
    init = _named(module, "init")
    assert isinstance(init, TupleOp)
    assert init_elements(loop) == list(init.elements)


def test_remap_slots_merges_and_appends() -> None:
    """Merge slot 3 into slot 1 of `merge_slots` and append a fresh copy of slot 4."""
    module = _parse(dict(REMOVER_CASES)["merge_slots"])
    before = module.clone()
    loop = _loops(module)["loop"]
    init = init_elements(loop)
    fresh = remap_slots(loop, [init[0], init[1], init[2], init[4], init[4]], [0, 1, 2, 1, 3])
    module.verify()
    assert list(fresh) == [4]
    assert fresh[4].owner is loop.body.block.first_op
    assert_equivalent(before, module)


def test_remap_slots_retypes_and_reads_outside() -> None:
    """Slot 2 of `simple` carries its gather; after the loop it reads the init value."""
    module = _parse(dict(HOIST_CASES)["simple"])
    before = module.clone()
    loop = _loops(module)["loop"]
    gather = _named(module, "ag")
    assert isinstance(gather, AllGatherOp)
    init = init_elements(loop)
    hoisted = gather.clone()
    func_body = loop.parent_block()
    assert func_body is not None
    func_body.insert_op_before(hoisted, loop)
    hoisted.operands[0] = init[2]
    remap_slots(loop, [init[0], init[1], hoisted.results[0]], [0, 1, 2], {2: init[2]})
    read = _named(module, "w")
    gather.results[0].replace_all_uses_with(read.results[0])
    Rewriter.erase_op(gather)
    module.verify()
    assert_equivalent(before, module)
    entry = next(op for op in module.ops if isinstance(op, func.FuncOp))
    assert "%out = hlo.tuple %r, %w0" in str(entry)


def test_remap_slots_refuses_a_retyped_slot_without_outside_value() -> None:
    module = _parse(dict(HOIST_CASES)["simple"])
    loop = _loops(module)["loop"]
    init = init_elements(loop)
    with pytest.raises(ValueError, match="retyped slot 2"):
        remap_slots(loop, [init[0], init[1], init[1]], [0, 1, 2])


def test_erase_if_dead_keeps_collectives_and_used_values() -> None:
    module = _parse(dict(REMOVER_CASES)["identical"])
    for name in ("b", "a"):
        op = _named(module, name)
        erase_if_dead(op)
        assert op.parent is not None
    abc = _named(module, "abc")
    abc.results[0].replace_all_uses_with(_named(module, "a").results[0])
    erase_if_dead(abc)
    names = [op.results[0].name_hint for op in module.walk() if op.results]
    assert "abc" not in names
    assert "ab" not in names
    assert {"a", "b", "c"} <= set(names)
