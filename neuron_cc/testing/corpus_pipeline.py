"""The default loop pipeline on a corpus case: what the README's corpus table reports.

`pipeline_case(corpus, case)` imports `<corpus>/<case>/spmd.hlo`, runs it on 8 simulated devices
on the case's `inputs.npz`, applies `neuron-default-pipeline`, verifies and runs it again, and
returns the collectives inside loops before/after, the launches per collective kind
before/after, the outputs and the oracle arrays. Used by tests/test_default_pipeline_corpus.py
and tools/pipeline_table.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from neuron_cc.dialects.hlo.collectives import CollectiveOp
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp
from neuron_cc.interpreter.cost_model import DEFAULT
from neuron_cc.interpreter.runner import RunResult, entry_function, inputs_from_npz, run_module
from neuron_cc.testing.ir import inside_while
from neuron_cc.transforms.default_pipeline import NeuronDefaultPipelinePass
from neuron_cc.translate.hlo_text.importer import import_hlo


def corpus_cases(corpus: Path) -> list[str]:
    """The cases of `corpus` with an spmd.hlo, sorted."""
    return sorted(p.parent.name for p in corpus.glob("*/spmd.hlo"))


def in_loop_collectives(module: ModuleOp) -> list[str]:
    """Names of collectives nested in a while body (kind, e.g. 'hlo.all_reduce')."""
    found: list[str] = []
    for op in module.walk():
        if isinstance(op, CollectiveOp | CollectivePermuteOp) and inside_while(op):
            found.append(op.name)
    return sorted(found)


def _run(module: ModuleOp, corpus: Path, case: str) -> tuple[RunResult, dict[str, Any]]:
    with np.load(corpus / case / "inputs.npz") as data:
        arrays = {k: data[k] for k in data.files}
    inputs = inputs_from_npz(entry_function(module), arrays, 8)
    return run_module(module, inputs), arrays


def _total_us(result: RunResult) -> float:
    return sum(DEFAULT.record_us(r) for r in result.state.stats.values())


def pipeline_case(corpus: Path, case: str, motion_only: bool = False) -> dict[str, Any]:
    """Run the default pipeline on a case; collect the figures the README table shows: per
    kind the launches before and after the whole pipeline, the alpha-beta estimate of all
    collectives (10 us, 100 GB/s) before/after, and with `motion_only` also the launches after
    the motion alone (`combine=false`; one more pipeline and interpreter run, which only the
    README table needs)."""
    module = import_hlo((corpus / case / "spmd.hlo").read_text())
    before_loops = in_loop_collectives(module)
    before, arrays = _run(module, corpus, case)
    motion: RunResult | None = None
    if motion_only:
        moved = module.clone()
        NeuronDefaultPipelinePass(combine=False).apply(Context(), moved)
        motion, _ = _run(moved, corpus, case)
    NeuronDefaultPipelinePass().apply(Context(), module)
    module.verify()
    after_loops = in_loop_collectives(module)
    after, _ = _run(module, corpus, case)

    def launches(run: RunResult, kind: str) -> int:
        record = run.state.stats.get(kind)
        return record.launches if record is not None else 0

    return {
        "case": case,
        "module": module,
        "before_loops": before_loops,
        "after_loops": after_loops,
        "launches": {k: (launches(before, k), launches(after, k)) for k in before.state.stats},
        "motion_launches": (
            {k: launches(motion, k) for k in before.state.stats} if motion is not None else {}
        ),
        "alpha_beta_us": (_total_us(before), _total_us(after)),
        "outputs": after.outputs,
        "oracle": arrays,
    }
