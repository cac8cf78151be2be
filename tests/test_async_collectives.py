"""Asynchronous collectives (issue 17): all-reduce-start/done, all-gather-start/done,
collective-permute-start/done and async-start/update/done.

- the interpreter gives XLA:CPU's bits on programs made of them (with jax);
- `hlo-sync-collectives` keeps every output, and leaves no async op it can sync;
- the default pipeline sees through them: an asynchronous all-reduce accumulation leaves its
  loop like a synchronous one.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from neuron_cc.dialects.hlo import async_ops
from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.dialects.hlo.control_flow import WhileOp
from neuron_cc.interpreter.equivalence import random_inputs
from neuron_cc.interpreter.runner import run_module
from neuron_cc.testing import assert_equivalent
from neuron_cc.testing.xla_cases import xla_case
from neuron_cc.testing.xla_run import XLA_UNAVAILABLE, run_xla, xla_available
from neuron_cc.transforms.default_pipeline import NeuronDefaultPipelinePass
from neuron_cc.transforms.hlo_sync_collectives import HloSyncCollectivesPass
from neuron_cc.translate.hlo_text.importer import import_hlo

Array = np.ndarray[Any, Any]
FILECHECK = Path(__file__).resolve().parent / "filecheck"
PROGRAMS = {
    "collectives": FILECHECK / "translate" / "async-collectives.hlo",
    "grad_accum": FILECHECK / "transforms" / "neuron-default-pipeline-async.hlo",
    "async_call": Path(__file__).resolve().parent
    / "xla_conformance"
    / "hlo_parser_test"
    / "NontrivialAsyncOpRoundTrip.hlo",
}
ASYNC = tuple(async_ops.OPS)
WRAPPED_REDUCE_SCATTER = """HloModule async_reduce_scatter, replica_count=4

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

rs_wrapped {
  p = f32[8]{0} parameter(0)
  ROOT rs = f32[2]{0} reduce-scatter(p), replica_groups={{0,1,2,3}}, dimensions={0}, to_apply=add
}

ENTRY main {
  x = f32[8]{0} parameter(0)
  s = ((f32[8]{0}), f32[2]{0}, s32[]) async-start(x), calls=rs_wrapped
  ROOT d = f32[2]{0} async-done(s), calls=rs_wrapped
}
"""
"""XLA's form of an asynchronous reduce-scatter: an async computation of one instruction."""
XLA_PROGRAMS = ["start_done_pairs", "grad_accum", "wrapped_reduce_scatter"]
"""`start_done_pairs` is `collectives` without its async-start of a two-instruction computation,
which XLA:CPU's compiler refuses (it runs async computations of one instruction only)."""


def _module(name: str) -> ModuleOp:
    if name == "wrapped_reduce_scatter":
        return import_hlo(WRAPPED_REDUCE_SCATTER, name)
    if name == "start_done_pairs":
        text = PROGRAMS["collectives"].read_text()
        lines = [line for line in text.splitlines() if not re.match(r"\s+a[sud] = ", line)]
        pairs = "\n".join(lines).replace("tuple(agd, ad)", "tuple(agd, cpd)")
        assert pairs.count("tuple(agd, cpd)") == 1
        return import_hlo(re.sub(r"/\*.*?\*/", "", pairs, flags=re.S), name)
    text = PROGRAMS[name].read_text()
    return import_hlo(re.sub(r"/\*.*?\*/", "", text, flags=re.S), PROGRAMS[name].name)


def _inputs(module: ModuleOp, seed: int) -> list[Array]:
    return [np.asarray(x) for x in random_inputs(module, seed, per_device=True)]


def _async_ops(module: ModuleOp) -> list[Operation]:
    return [op for op in module.walk() if isinstance(op, ASYNC)]


NAMES = [*sorted(PROGRAMS), "wrapped_reduce_scatter"]


@pytest.mark.parametrize("name", NAMES)
def test_programs_use_async_ops(name: str) -> None:
    assert _async_ops(_module(name))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [0, 1])
def test_sync_keeps_outputs_and_leaves_no_async_op(name: str, seed: int) -> None:
    before = _module(name)
    after = before.clone()
    HloSyncCollectivesPass().apply(Context(), after)
    after.verify()
    assert _async_ops(after) == []
    assert_equivalent(before, after, seed=seed, per_device_inputs=True)


def test_wrapped_reduce_scatter_is_a_reduce_scatter_after_sync() -> None:
    module = _module("wrapped_reduce_scatter")
    HloSyncCollectivesPass().apply(Context(), module)
    entry = [op.name for op in module.walk() if op.name.startswith("hlo.reduce_scatter")]
    assert len(entry) == 2  # the inlined one in @main, and the one left in @rs_wrapped


def test_default_pipeline_moves_an_async_all_reduce_out_of_its_loop() -> None:
    before = _module("grad_accum")
    after = before.clone()
    NeuronDefaultPipelinePass().apply(Context(), after)
    in_loops = [
        op
        for loop in after.walk()
        if isinstance(loop, WhileOp)
        for op in loop.walk()
        if isinstance(op, AllReduceOp | async_ops.AllReduceStartOp)
    ]
    assert in_loops == []
    assert [op for op in after.walk() if isinstance(op, AllReduceOp)]
    _, moved = assert_equivalent(before, after, per_device_inputs=True)
    assert moved.state.stats["all-reduce"].launches == 1


def test_interpreter_matches_xla_bit_for_bit() -> None:
    if not xla_available():
        pytest.skip(XLA_UNAVAILABLE)
    names = XLA_PROGRAMS
    modules = [_module(name) for name in names]
    inputs = [_inputs(module, seed=3) for module in modules]
    cases = [
        xla_case(module, ins, name)
        for name, module, ins in zip(names, modules, inputs, strict=True)
    ]
    results = run_xla(cases)
    for name, module, ins, result in zip(names, modules, inputs, results, strict=True):
        assert result.ok, (name, result.status, result.message)
        ours = run_module(module, ins).outputs
        assert len(ours) == len(result.outputs), name
        for j, (a, b) in enumerate(zip(ours, result.outputs, strict=True)):
            np.testing.assert_array_equal(np.asarray(a), b, err_msg=f"{name} output {j}")
