"""The default loop pipeline on the real corpus (issue: while-loop collective code motion).

`neuron-while-loop-all-reduce-code-motion{enable-reduce-scatter=true run-setup-passes=true},
neuron-move-reduce-scatter-while-loop, neuron-move-all-gather-while-loop` on every spmd.hlo:
every collective case.json marks hoistable/sinkable leaves its loop, every other stays, the
outputs still match XLA's (inputs.npz) and the launches drop from T per loop to 1.

One deliberate difference from case.json: grad_accum_ones_init's all-reduce is marked "NOT
hoistable by a rule that requires a zero-initialised accumulator"; our pass (like upstream XLA,
as the case notes) does not require a zero init - it adds the original init after the sunk
all-reduce - so it moves, and the outputs still match the oracle.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from neuron_cc.testing.corpus_pipeline import corpus_cases, pipeline_case

CORPUS = Path(__file__).resolve().parent / "corpus" / "jax"
CASES = corpus_cases(CORPUS)
MOVES_DESPITE_EXPECT = {"grad_accum_ones_init"}
BF16_SCALE = {
    "grad_accum_bf16_convert",
    "fsdp_allgather_bf16_convert",
    "constants_and_literals",
    "pytree_mixed_accum",
    "reduce_scatter_accum_bf16",
    "bf16_clip_global_norm",
}


def _expect(case: str) -> tuple[int, int]:
    """(collectives in loops that must move, that must stay) per case.json."""
    entries = json.loads((CORPUS / case / "case.json").read_text())["expect"].get("collectives", [])
    movable = stay = 0
    for e in entries:
        if not e.get("in_loop"):
            continue
        ok = e.get("hoistable", e.get("sinkable", e.get("movable")))
        if ok or case in MOVES_DESPITE_EXPECT:
            movable += 1
        else:
            stay += 1
    return movable, stay


@pytest.mark.parametrize("case", CASES)
def test_default_pipeline_on_corpus(case: str) -> None:
    r = pipeline_case(CORPUS, case)
    movable, stay = _expect(case)
    assert len(r["before_loops"]) == movable + stay, r["before_loops"]
    assert len(r["after_loops"]) == stay, (r["before_loops"], r["after_loops"])
    if movable:
        moved = [k for k, (b, a) in r["launches"].items() if a < b]
        assert moved, r["launches"]
    for j, value in enumerate(r["outputs"]):
        for d in range(8):
            want = r["oracle"][f"out{j}_dev{d}"]
            got = value[d]
            if want.dtype.kind != "f":
                np.testing.assert_array_equal(got, want)
            elif case in BF16_SCALE:
                bound = 2.0**-6 * float(np.max(np.abs(want)))
                assert float(np.max(np.abs(got.astype(np.float64) - want))) <= bound
            else:
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_launches_drop_to_one_per_accumulation() -> None:
    r = pipeline_case(CORPUS, "grad_accum_zero_init")
    assert r["launches"]["all-reduce"] == (4, 1)
    r = pipeline_case(CORPUS, "reduce_scatter_dus_sink")
    assert r["launches"]["reduce-scatter"][1] == 1
    r = pipeline_case(CORPUS, "fsdp_allgather_carried_weight")
    assert r["launches"]["all-gather"][1] == 1
