"""Issue 10: generated while-loop programs through the loop code-motion passes.

Every program of `neuron_cc.testing.generate_loops.loop_cases()` (the cases behind
`loop_programs()`) verifies, carries the mesh it claims, and runs on the interpreter. The
recipe's own pass (with the recipe's options) and neuron-default-pipeline must then keep the
module valid; move the collective out of its loop(s) exactly when the recipe is tagged movable
(the number of collectives of that kind nested in while bodies and their launch counts go from
the expected "before" to the expected "after", e.g. T launches -> 1); leave near-miss
collectives in place (counts unchanged); and give the same outputs on every device: bit-exact,
except sums the pass reassociates (f32: rtol 1e-4 and 1e-5 of the output's largest magnitude;
bf16 sums or bf16 collectives: 2^-5 of it).

`make test` runs the "ci" hypothesis profile (fixed seed, 200 programs, about 15 s of CPU);
`NEURON_HYPOTHESIS_PROFILE=fuzz NEURON_FUZZ_EXAMPLES=N pytest tests/test_generate_loops.py`
is the fuzzer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from neuron_cc.dialects.hlo.control_flow import WhileOp
from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.interpreter.equivalence import flatten_values
from neuron_cc.interpreter.runner import RunResult, run_module
from neuron_cc.testing import assert_equivalent, random_inputs
from neuron_cc.testing.generate_loops import Expect, LoopCase, loop_cases
from neuron_cc.testing.ir import neuron_context, parse_module
from neuron_cc.transforms import get_all_passes
from neuron_cc.transforms.default_pipeline import NeuronDefaultPipelinePass

Array = np.ndarray[Any, Any]
BF16_SCALE = 2.0**-5
F32_RTOL = 1e-4
F32_SCALE = 1e-5


CTX = neuron_context()


def _parse(text: str) -> ModuleOp:
    return parse_module(text, ctx=CTX)


def _in_loops(module: ModuleOp, name: str) -> int:
    count = 0
    for op in module.walk():
        if op.name != name:
            continue
        parent: Operation | None = op.parent_op()
        while parent is not None and not isinstance(parent, WhileOp):
            parent = parent.parent_op()
        count += parent is not None
    return count


def _launches(result: RunResult, kind: str) -> int:
    record = result.state.stats.get(kind)
    return 0 if record is None else record.launches


def _close(first: RunResult, second: RunResult, rtol: float, scale: float, where: str) -> None:
    """Float outputs agree to `rtol`, and to `scale` times the output's largest magnitude
    (sums the pass reassociates can cancel to values far below their terms)."""
    a_all, b_all = flatten_values(first.outputs), flatten_values(second.outputs)
    assert len(a_all) == len(b_all), where
    for j, (a, b) in enumerate(zip(a_all, b_all, strict=True)):
        assert a.shape == b.shape, f"{where}: output {j}"
        assert a.dtype == b.dtype, f"{where}: output {j}"
        if a.dtype.kind != "f":
            assert np.array_equal(a, b), f"{where}: output {j}"
            continue
        wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
        atol = scale * max(1.0, float(np.max(np.abs(wide_a), initial=0.0)))
        close = np.isclose(wide_a, wide_b, rtol=rtol, atol=atol, equal_nan=True)
        diff = float(np.max(np.abs(wide_a - wide_b), initial=0.0))
        assert close.all(), f"{where}: output {j} differs by up to {diff} (atol {atol})"


def _equivalent(case: LoopCase, before: ModuleOp, after: ModuleOp, where: str) -> RunResult:
    """Run both on the same random inputs; compare per the case's tolerance."""
    if case.tolerance == "exact":
        return assert_equivalent(before, after, rtol=0.0, atol=0.0)[1]
    inputs = random_inputs(before)
    first = run_module(before, [np.copy(a) for a in inputs])
    second = run_module(after, [np.copy(a) for a in inputs])
    if case.tolerance == "bf16":
        _close(first, second, 0.0, BF16_SCALE, where)
    else:
        _close(first, second, F32_RTOL, F32_SCALE, where)
    return second


def _check(case: LoopCase, module: ModuleOp, result: RunResult, expect: Expect, where: str) -> None:
    in_loops = _in_loops(module, case.op)
    launches = _launches(result, case.kind)
    assert (in_loops, launches) == (expect.in_loops, expect.launches), (
        f"{where}: {case.op} in loops {in_loops}, {case.kind} launches {launches}; expected "
        f"{expect.in_loops} and {expect.launches}"
    )


def _run_pass(case: LoopCase, module: ModuleOp, pipeline: bool) -> ModuleOp:
    after = module.clone()
    if pipeline:
        # the motion only: the generated expectations count launches per moved collective,
        # which the pipeline's combiners would merge (tests/test_combiners.py covers them)
        NeuronDefaultPipelinePass(combine=False).apply(CTX, after)
    else:
        get_all_passes()[case.pass_name]()(**dict(case.pass_options)).apply(CTX, after)
    after.verify()
    return after


@given(loop_cases())
def test_loop_passes_move_exactly_the_movable_collectives(case: LoopCase) -> None:
    program = case.program
    module = _parse(program.text)
    assert device_counts(module) == (program.num_replicas, program.num_partitions)
    original = run_module(module, random_inputs(module))
    _check(case, module, original, case.before, "before")
    for pipeline, expect in ((False, case.after_pass), (True, case.after_pipeline)):
        where = "neuron-default-pipeline" if pipeline else case.pass_name
        after = _run_pass(case, module, pipeline)
        result = _equivalent(case, module, after, where)
        _check(case, after, result, expect, where)
