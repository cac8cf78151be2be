"""The default pipeline on realistic JAX training idioms (issue 14).

Fourteen corpus cases dumped by tools/dump_corpus_case.py (shard_map over 8 host devices, a
lax.scan / fori_loop around every collective): pmean accumulation, psum scaled by a replicated
1/n (and by a per-device per-step count, which must stay), jax.grad through a scan (reverse
loop writing stacked gradients at T-1-i), nested microbatch x layer loops, a lax.cond in the
body, max/min/any/all/count running statistics, a 10-leaf f32/bf16 gradient pytree and bf16
reduce-scatter accumulation; and six programs written without looking at the pass: a DP MLP
with a pmean'd grad pytree and a stacked pmean'd loss, bf16 grads clipped by a global-norm psum
(which stays), Megatron tp layers (the tp psum feeds the residual carry and stays), top-1 MoE
layers (two all-to-alls that stay), ZeRO/FSDP all-gathers and reduce-scatters, and a psum-gated
lax.cond plus a nested scan emitting stacked pmean'd grads. For every case and
`neuron-default-pipeline` on its spmd.hlo:

a. the collectives left inside while loops are exactly those case.json says must stay (count
   per kind); xfail(strict) where the pass lacks the feature today;
b. the interpreter on the transformed module reproduces XLA's outputs in inputs.npz (floats to
   rtol 1e-5, outputs that go through a bf16 collective at bf16 scale, the rest exactly);
c. every collective keeps its kind, element type and reduction (a moved bf16 all-reduce stays
   bf16), except where case.json records `dtype_after`;
d. (sanity of the data) the in-loop collectives of spmd.hlo are those case.json lists, and
   every collective still in a loop after the pipeline has a remark saying why.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, TupleType
from xdsl.ir import Operation

from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.dialects.hlo.collectives import AllReduceOp, CollectiveOp, ReduceScatterOp
from neuron_cc.dialects.hlo.control_flow import WhileOp
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp
from neuron_cc.dialects.hlo.types import element_type_name
from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.interpreter.equivalence import flatten_values
from neuron_cc.interpreter.runner import entry_function, inputs_from_npz, run_module
from neuron_cc.transforms.default_pipeline import NeuronDefaultPipelinePass
from neuron_cc.translate.hlo_text.importer import import_hlo

CORPUS = Path(__file__).resolve().parent / "corpus" / "jax"
BF16_SCALE = 2.0**-6

Array = np.ndarray[Any, Any]

# case -> outputs computed through a bf16 collective: the sunk sum rounds differently.
BF16_OUTPUTS: dict[str, frozenset[int]] = {
    "pmean_grad_accum": frozenset(),
    "mean_of_psum": frozenset(),
    "reverse_scan_grad": frozenset(),
    "nested_scan": frozenset(),
    "cond_in_scan": frozenset(),
    "pmax_accumulate": frozenset(),
    "pytree_mixed_accum": frozenset({2, 3, 6, 7}),
    "reduce_scatter_accum_bf16": frozenset({0, 1}),
    "dp_mlp_pmean_scan": frozenset(),
    "bf16_clip_global_norm": frozenset({0, 1, 2, 3}),
    "tp_layer_loop": frozenset(),
    "moe_all_to_all_scan": frozenset(),
    "zero_fsdp_scan": frozenset(),
    "cond_nested_scan": frozenset(),
}
CASES = sorted(BF16_OUTPUTS)

KIND_NAMES = {
    "all-reduce": "hlo.all_reduce",
    "reduce-scatter": "hlo.reduce_scatter",
    "all-gather": "hlo.all_gather",
    "all-to-all": "hlo.all_to_all",
}


def _inside_while(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, WhileOp):
            return True
        parent = parent.parent_op()
    return False


def _collectives(module: ModuleOp) -> list[Operation]:
    return [op for op in module.walk() if isinstance(op, CollectiveOp | CollectivePermuteOp)]


def _in_loops(module: ModuleOp) -> list[Operation]:
    return [op for op in _collectives(module) if _inside_while(op)]


def _signatures(op: Operation) -> list[tuple[str, str, str]]:
    """(op name, element type, reduction) of each buffer of a collective: one per operand, so a
    combined (variadic) collective counts as the collectives it was made of."""
    t = op.results[0].type
    types = list(t.types.data) if isinstance(t, TupleType) else [t]
    reduction = ""
    if isinstance(op, AllReduceOp | ReduceScatterOp):
        reduction = reduction_kind(op.to_apply) or "?"
    return [
        (
            op.name,
            element_type_name(e.element_type) if isinstance(e, TensorType) else str(e),
            reduction,
        )
        for e in types
    ]


def _buffers(ops: list[Operation]) -> Counter[str]:
    """Collectives per kind, a combined one counted once per buffer."""
    return Counter(op.name for op in ops for _ in _signatures(op))


@dataclass(frozen=True)
class Result:
    before: ModuleOp
    after: ModuleOp
    remarks: tuple[str, ...]


def _case(case: str) -> dict[str, Any]:
    return json.loads((CORPUS / case / "case.json").read_text())


def _entries(case: str) -> list[dict[str, Any]]:
    return [e for e in _case(case)["expect"]["collectives"] if e.get("in_loop")]


def _movable(entry: dict[str, Any]) -> bool:
    return bool(entry.get("hoistable") or entry.get("sinkable") or entry.get("movable"))


@functools.cache
def _pipeline(case: str) -> Result:
    path = CORPUS / case / "spmd.hlo"
    before = import_hlo(path.read_text(), str(path))
    before.verify()
    after = before.clone()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        NeuronDefaultPipelinePass(remarks=True).apply(Context(), after)
    after.verify()
    return Result(before, after, tuple(err.getvalue().splitlines()))


@functools.cache
def _oracle(case: str) -> dict[str, Array]:
    with np.load(CORPUS / case / "inputs.npz") as data:
        return {k: data[k] for k in data.files}


def test_every_case_is_dumped() -> None:
    for case in CASES:
        names = {p.name for p in (CORPUS / case).iterdir()}
        assert {"source.py", "pre.hlo", "spmd.hlo", "opt.hlo", "inputs.npz", "case.json"} <= names
        meta = _case(case)
        assert meta["name"] == case
        assert (meta["num_partitions"], meta["num_replicas"]) == (8, 1)
        assert "--xla_allow_excess_precision=false" in meta["xla_flags"]


def _stay_counts(case: str) -> Counter[str]:
    return Counter(KIND_NAMES[e["op"]] for e in _entries(case) if not _movable(e))


@pytest.mark.parametrize("case", CASES)
def test_pipeline_leaves_exactly_the_stuck_collectives(case: str) -> None:
    """(a) per kind, the collectives in loops after the pipeline are the ones that must stay."""
    r = _pipeline(case)
    left = _buffers(_in_loops(r.after))
    assert left == _stay_counts(case), r.remarks


@pytest.mark.parametrize("case", CASES)
def test_transformed_module_matches_xla(case: str) -> None:
    """(b) the outputs of the transformed program are XLA's (inputs.npz) on every device."""
    module = _pipeline(case).after
    data = _oracle(case)
    r, p = device_counts(module)
    outputs = flatten_values(
        run_module(module, inputs_from_npz(entry_function(module), data, r * p)).outputs
    )
    assert len(outputs) == _case(case)["num_outputs"]
    for j, value in enumerate(outputs):
        for d in range(r * p):
            got, want = value[d], data[f"out{j}_dev{d}"]
            assert got.shape == want.shape, (j, d)
            if want.dtype.kind != "f":
                np.testing.assert_array_equal(got, want, err_msg=f"out{j}_dev{d}")
            elif j in BF16_OUTPUTS[case]:
                bound = BF16_SCALE * float(np.max(np.abs(want)))
                diff = float(np.max(np.abs(got.astype(np.float64) - want)))
                assert diff <= bound, f"out{j}_dev{d}: {diff} > {bound}"
            else:
                np.testing.assert_allclose(
                    got, want, rtol=1e-5, atol=1e-5, err_msg=f"out{j}_dev{d}"
                )


@pytest.mark.parametrize("case", CASES)
def test_collectives_keep_their_element_types(case: str) -> None:
    """(c) moving never changes a collective's kind, element type or reduction."""
    r = _pipeline(case)
    expected = Counter(s for op in _collectives(r.before) for s in _signatures(op))
    for e in _entries(case):
        if "dtype_after" in e and _movable(e):
            name = KIND_NAMES[e["op"]]
            reduction = "hlo." + e.get("reduction", "add")
            expected[(name, e["dtype"], reduction)] -= 1
            expected[(name, e["dtype_after"], reduction)] += 1
    assert Counter(s for op in _collectives(r.after) for s in _signatures(op)) == +expected


@pytest.mark.parametrize("case", CASES)
def test_case_json_lists_the_loop_collectives(case: str) -> None:
    """(d) spmd.hlo's in-loop collectives are case.json's entries (kind and element type)."""
    found = Counter(
        (name, element)
        for op in _in_loops(_pipeline(case).before)
        for name, element, _ in _signatures(op)
    )
    listed = Counter((KIND_NAMES[e["op"]], e["dtype"]) for e in _entries(case))
    assert found == listed
    assert len(_collectives(_pipeline(case).before)) == len(_entries(case))


@pytest.mark.parametrize("case", CASES)
def test_every_stuck_collective_has_a_remark(case: str) -> None:
    """(d) whatever stays in a loop is named by a remark that is not `moved`."""
    r = _pipeline(case)
    for op in _in_loops(r.after):
        name = f"%{op.results[0].name_hint} ({op.name}): "
        reasons = [line for line in r.remarks if name in line and not line.endswith(": moved")]
        assert reasons, (name, r.remarks)
