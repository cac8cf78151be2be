"""The scanned dimensions' programs (tools/gen_scanned_dimensions.py), small: each is valid
HLO that the default pipeline compiles without changing what it computes (the interpreter
gives the same outputs before and after), so `bench_dimensions.py --scan` times the passes on
real programs; `reshards`, which the interpreter cannot run before its lowering, is checked by
what spmd-expand-reshard makes of it."""

from __future__ import annotations

import pytest

from neuron_cc.dialects.hlo.collectives import AllToAllOp, CollectiveOp
from neuron_cc.dialects.hlo.control_flow import CustomCallOp
from neuron_cc.interpreter.equivalence import assert_equivalent
from neuron_cc.testing.ir import neuron_context
from neuron_cc.transforms.default_pipeline import NeuronDefaultPipelinePass
from neuron_cc.transforms.spmd_expand_reshard import SpmdExpandReshardPass
from neuron_cc.translate.hlo_text.importer import import_hlo
from tests.conftest import load_tool

gen_dimensions = load_tool("gen_dimensions")
scanned = load_tool("gen_scanned_dimensions")

N = 4


def _collectives(module: object) -> int:
    return sum(isinstance(op, CollectiveOp) for op in module.walk())  # type: ignore[attr-defined]


@pytest.mark.parametrize("dimension", sorted(set(scanned.GENERATORS) - {"reshards"}))
def test_pipeline_keeps_the_outputs(dimension: str) -> None:
    text = gen_dimensions.generate(dimension, N)
    assert text == scanned.GENERATORS[dimension](N)
    before, after = import_hlo(text), import_hlo(text)
    assert _collectives(before) >= 1
    NeuronDefaultPipelinePass().apply(neuron_context(), after)
    after.verify()
    assert_equivalent(before, after, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("n", [1, 5])
def test_reshards_lower_to_one_all_to_all_each(n: int) -> None:
    module = import_hlo(gen_dimensions.generate("reshards", n))
    assert sum(isinstance(op, CustomCallOp) for op in module.walk()) == n
    SpmdExpandReshardPass().apply(neuron_context(), module)
    assert not any(isinstance(op, CustomCallOp) for op in module.walk())
    assert sum(isinstance(op, AllToAllOp) for op in module.walk()) == n


def test_every_dimension_has_a_size_and_sizes_grow_the_program() -> None:
    assert set(scanned.BASE) == set(scanned.GENERATORS)
    assert set(gen_dimensions.SIZES) == set(gen_dimensions.BASE) | set(scanned.BASE)
    for dimension in scanned.GENERATORS:
        small, large = (len(gen_dimensions.generate(dimension, n)) for n in (4, 100))
        # `devices` grows only its replica groups (100 all-reduces at every size)
        assert large > (small if dimension == "devices" else 5 * small), dimension
