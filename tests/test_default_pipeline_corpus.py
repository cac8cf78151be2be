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


def _body(name: str, inner: str = "") -> str:
    """A loop body with two all-reduces (after a loop of `inner`'s body, when given)."""
    loop = (
        f"  w = (s32[], f32[4]) while(p), condition=cond, body={inner}\n"
        "  x = f32[4] get-tuple-element(w), index=1\n"
        if inner
        else "  x = f32[4] get-tuple-element(p), index=1\n"
    )
    return (
        f"{name} {{\n  p = (s32[], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
        f"{loop}"
        "  a = f32[4] all-reduce(x), replica_groups={}, to_apply=add\n"
        "  b = f32[4] all-reduce(x), replica_groups={}, to_apply=add\n"
        "  s = f32[4] add(a, b)\n  ROOT t = (s32[], f32[4]) tuple(i, s)\n}\n"
    )


_SIBLING_BODIES = (
    "HloModule siblings\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(a, b)\n}\n"
    "cond {\n  p = (s32[], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
    "  n = s32[] constant(4)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
    + _body("inner")
    + _body("outer", "inner")
    + _body("second")
    + "ENTRY main {\n  x = f32[4] parameter(0)\n  z = s32[] constant(0)\n"
    "  t = (s32[], f32[4]) tuple(z, x)\n"
    "  w1 = (s32[], f32[4]) while(t), condition=cond, body=outer\n"
    "  w2 = (s32[], f32[4]) while(t), condition=cond, body=second\n"
    "  y1 = f32[4] get-tuple-element(w1), index=1\n  y2 = f32[4] get-tuple-element(w2), index=1\n"
    "  ROOT r = f32[4] add(y1, y2)\n}\n"
)
"""Three loop bodies with two all-reduces each: the first loop's (with the nested loop's inside
it) and the second's, siblings: pre-order puts the nested body between them."""


def test_the_census_finds_the_blocks_each_combiner_would_walk_for() -> None:
    """The pipeline hands each combiner the blocks its census found; they must be exactly the
    ones (same order) the combiner's own walk picks, on every corpus module, before and after
    the motion, in loop bodies too."""
    from xdsl.ir import Block

    from neuron_cc.dialects.hlo.control_flow import WhileOp
    from neuron_cc.testing.ir import neuron_context
    from neuron_cc.transforms.combiner_rewrite import _blocks
    from neuron_cc.transforms.default_pipeline import _COMBINED, NeuronDefaultPipelinePass, _census
    from neuron_cc.translate.hlo_text.importer import import_hlo

    found: list[Block] = []
    modules = [(path, path.read_text()) for path in sorted(CORPUS.glob("*/*.hlo"))]
    modules.append((Path("siblings.hlo"), _SIBLING_BODIES))
    for path, text in modules:
        module = import_hlo(text, str(path))
        for _ in range(2):
            census = _census(module)
            for cls in _COMBINED:
                expected = _blocks(module, False, cls)
                assert census.blocks.get(cls, []) == expected, (path, cls)
                found += expected
            NeuronDefaultPipelinePass(combine=False).apply(neuron_context(), module)
    assert len(found) > 20
    assert any(isinstance(block.parent_op(), WhileOp) for block in found)
