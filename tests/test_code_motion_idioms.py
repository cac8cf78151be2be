"""The training idioms of tests/filecheck/transforms/neuron-while-loop-all-reduce-code-motion-idioms.mlir
the threshold flags of ...-flags.mlir and the overwrites of ...-overwrites.mlir proven by execution
(issue 14).

Every module of that lit file is rewritten by neuron-while-loop-all-reduce-code-motion on a
clone and both run on 8 simulated devices with random per-device inputs (arguments whose
`xla.sharding` is replicated get one value on every device, as SPMD guarantees): the outputs
must agree, the moved cases leave no all-reduce in the loop (one launch instead of four) and
the refused cases keep theirs. The partition-dependent conditional cannot run (devices take
different branches) and is checked to be left unchanged.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.testing import assert_equivalent, random_inputs
from neuron_cc.testing.ir import lit_modules, neuron_context, ops_in_loops, parse_module
from neuron_cc.transforms.while_loop_all_reduce_code_motion import (
    WhileLoopAllReduceCodeMotionPass,
)
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo

LITS = [
    Path(__file__).resolve().parent / "filecheck" / "transforms" / f"{name}.mlir"
    for name in (
        "neuron-while-loop-all-reduce-code-motion-idioms",
        "neuron-while-loop-all-reduce-code-motion-flags",
        "neuron-while-loop-all-reduce-code-motion-overwrites",
    )
]
MODULES = {name: text for lit in LITS for name, text in lit_modules(lit.read_text()).items()}
KEPT = {
    "max_accumulated_with_add",
    "max_non_monotone_convert",
    "scale_by_partition_dependent",
    "cond_partition_dependent_index",
    "cond_condition_reads_buffer",
    "float_flag",
    "pairing_mismatch",
    "identity_passes_threshold",
    "equality",
    "flag_read_elsewhere",
    "condition_reads_flag",
    "traced_bound_other_init",
    "body_reads_slot",
    "select_on_variable_predicate",
    "condition_reads_slot",
}
"""Cases whose collective must stay; scale_by_scalar_all_reduce keeps only its scalar one."""


def _in_loop(module: ModuleOp) -> list[Operation]:
    return ops_in_loops(module, (AllReduceOp,))


def test_replicated_parameter_gets_one_value() -> None:
    module = parse_module(MODULES["scale_by_replicated_param"])
    _, x, s = random_inputs(module, seed=3)
    assert isinstance(s, np.ndarray)
    assert isinstance(x, np.ndarray)
    assert (s == s[0]).all()
    assert not (x == x[0]).all()


def test_every_case_is_here() -> None:
    assert len(MODULES) == 14 + 12 + 8
    assert KEPT <= MODULES.keys()


@pytest.mark.parametrize("name", sorted(MODULES))
def test_idiom_preserves_outputs(name: str) -> None:
    before = parse_module(MODULES[name])
    after = before.clone()
    WhileLoopAllReduceCodeMotionPass().apply(neuron_context(), after)
    after.verify()
    if name == "cond_partition_dependent_index":
        # Not executable (the interpreter refuses divergent branch indices): the pass must
        # leave it exactly as it was.
        assert str(after) == str(before)
        return
    inputs = random_inputs(before, seed=3)
    if name == "condition_reads_flag":  # the loop stops once the flag is set: start unset
        inputs[0] = np.zeros_like(inputs[0])
    first, second = assert_equivalent(before, after, inputs=inputs, rtol=1e-5, atol=1e-5)
    left = _in_loop(after)
    launches = second.state.stats["all-reduce"].launches
    if name in KEPT:
        assert len(left) == len(_in_loop(before)) == 1
        assert launches == first.state.stats["all-reduce"].launches
    elif name == "scale_by_scalar_all_reduce":
        assert [str(op.results[0].type) for op in left] == ["tensor<f32>"]
        assert launches == 4 + 1
    else:
        assert left == []
        assert launches == 1


BIG_ACCUMULATION = """HloModule big_accumulation, replica_count=1, num_partitions=8

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

cond {
  p = (s32[], f32[512,256], f32[512,256]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(4)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  p = (s32[], f32[512,256], f32[512,256]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  acc = f32[512,256] get-tuple-element(p), index=1
  g = f32[512,256] get-tuple-element(p), index=2
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  ar = f32[512,256] all-reduce(g), channel_id=1, replica_groups={{0,1,2,3,4,5,6,7}}, use_global_device_ids=true, to_apply=add
  acc1 = f32[512,256] add(acc, ar)
  ROOT t = (s32[], f32[512,256], f32[512,256]) tuple(i1, acc1, g)
}

ENTRY main {
  g = f32[512,256] parameter(0)
  c0 = s32[] constant(0)
  z = f32[] constant(0)
  zeros = f32[512,256] broadcast(z), dimensions={}
  init = (s32[], f32[512,256], f32[512,256]) tuple(c0, zeros, g)
  w = (s32[], f32[512,256], f32[512,256]) while(init), condition=cond, body=body
  ROOT r = f32[512,256] get-tuple-element(w), index=1
}
"""


def test_moved_accumulator_is_exported_as_a_broadcast() -> None:
    """Issue 14 item 5: the zero buffer of a moved f32[512,256] accumulation is
    broadcast(constant(0)), never a 131072-element literal; the exported HLO of the moved module
    stays within 1.2x the size of the input exported the same way (the exporter adds layouts)."""
    module = import_hlo(BIG_ACCUMULATION, "big.hlo")
    before = export_hlo(module)
    WhileLoopAllReduceCodeMotionPass().apply(neuron_context(), module)
    module.verify()
    assert _in_loop(module) == []
    text = export_hlo(module)
    assert len(text) <= 1.2 * len(before), (len(text), len(before))
    assert "broadcast(" in text


@pytest.mark.parametrize("trips", [0, 1, 3])
@pytest.mark.parametrize("name", ["traced_bound_identity_init", "traced_bound_max_identity_init"])
def test_overwrite_with_traced_trip_count(name: str, trips: int) -> None:
    """An overwrite moved under a traced bound is exact for every trip count, zero included
    (the init is the identity, so the moved all-reduce of the untouched init is the init)."""
    before = parse_module(MODULES[name])
    after = before.clone()
    WhileLoopAllReduceCodeMotionPass().apply(neuron_context(), after)
    assert _in_loop(after) == []
    inputs = random_inputs(before, seed=5)
    inputs[2] = np.full_like(inputs[2], trips)
    first, second = assert_equivalent(before, after, inputs=inputs, rtol=1e-5, atol=1e-5)
    assert second.state.stats["all-reduce"].launches == 1
    stats = first.state.stats
    assert (stats["all-reduce"].launches if "all-reduce" in stats else 0) == trips
