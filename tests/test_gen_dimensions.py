"""The benchmark's dimension programs (tools/gen_dimensions.py), small: each is a program the
default pipeline rewrites (collectives leave loops; all of them, but in `users` and `nesting`)
and correctly (the interpreter gives the same outputs before and after), so the benchmark
times real work."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp

from neuron_cc.dialects.hlo.collectives import CollectiveOp
from neuron_cc.dialects.hlo.control_flow import WhileOp
from neuron_cc.interpreter.equivalence import assert_equivalent
from neuron_cc.testing.ir import neuron_context
from neuron_cc.transforms.default_pipeline import NeuronDefaultPipelinePass
from neuron_cc.translate.hlo_text.importer import import_hlo
from tests.conftest import load_tool

gen_dimensions = load_tool("gen_dimensions")

SMALL = {"nesting": 2, "region": 40}
PARTLY = {"users", "nesting"}
"""Dimensions where a collective stays in a loop: `users`' all-reduces of one slot are
combined in the body; `nesting`'s inner accumulations leave their own loop, not the outer."""


def _in_loops(module: ModuleOp) -> list[str]:
    return [
        op.name
        for op in module.walk()
        if isinstance(op, CollectiveOp) and any(isinstance(p, WhileOp) for p in _ancestors(op))
    ]


def _ancestors(op: CollectiveOp) -> list[object]:
    found: list[object] = []
    parent = op.parent_op()
    while parent is not None:
        found.append(parent)
        parent = parent.parent_op()
    return found


@pytest.mark.parametrize("dimension", sorted(gen_dimensions.GENERATORS))
def test_pipeline_moves_every_collective_and_keeps_the_outputs(dimension: str) -> None:
    text = gen_dimensions.generate(dimension, SMALL.get(dimension, 3))
    before, after = import_hlo(text), import_hlo(text)
    inside = len(_in_loops(after))
    assert inside, "the program has no collective in a loop"
    NeuronDefaultPipelinePass().apply(neuron_context(), after)
    left = len(_in_loops(after))
    assert left < inside if dimension in PARTLY else left == 0
    assert_equivalent(before, after, rtol=1e-5, atol=1e-5)
