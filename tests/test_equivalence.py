"""The equivalence harness, and hlo-dce proven semantics-preserving by execution."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

from neuron_cc.testing import EquivalenceError, assert_equivalent, random_inputs
from neuron_cc.testing.ir import parse_module as _parse
from neuron_cc.tools.driver import UserError
from neuron_cc.tools.neuron_opt import check_equivalence
from neuron_cc.transforms.hlo_dce import HloDcePass
from neuron_cc.translate.hlo_text.importer import import_hlo
from tests.conftest import run_tool

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "jax"

PROGRAM = """
builtin.module attributes {hlo.num_partitions = 4 : i64} {
  func.func @main(%x: tensor<3xf32>, %n: tensor<i32>) -> tuple<tensor<3xf32>, tensor<i32>> attributes {hlo.entry} {
    %s = hlo.all_reduce(%x) replica_groups = [[0, 1], [2, 3]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<3xf32>) -> tensor<3xf32>
    %y = hlo.OP %s, %x : tensor<3xf32>
    %dead = hlo.multiply %y, %y : tensor<3xf32>
    %t = hlo.tuple %y, %n : tuple<tensor<3xf32>, tensor<i32>>
    func.return %t : tuple<tensor<3xf32>, tensor<i32>>
  }
}
"""


def test_identical_programs_are_equivalent() -> None:
    first, second = assert_equivalent(
        _parse(PROGRAM.replace("OP", "add")), _parse(PROGRAM.replace("OP", "add"))
    )
    assert len(first.outputs) == 2
    assert first.outputs[0].shape == (4, 3)
    np.testing.assert_array_equal(first.outputs[0], second.outputs[0])


def test_a_changed_program_is_reported_with_its_first_difference() -> None:
    with pytest.raises(EquivalenceError, match=r"output 0 differs on device 0 at index \[0\]"):
        assert_equivalent(
            _parse(PROGRAM.replace("OP", "add")), _parse(PROGRAM.replace("OP", "subtract"))
        )


def test_explicit_inputs_are_used() -> None:
    module = _parse(PROGRAM.replace("OP", "add"))
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    n = np.array([5, 6, 7, 8], dtype=np.int32)
    first, _ = assert_equivalent(module, module.clone(), inputs=[x, n])
    # group {0,1}: x0+x1 = [3,5,7]; plus x0 -> [3,6,9]
    np.testing.assert_array_equal(first.outputs[0][0], [3.0, 6.0, 9.0])
    np.testing.assert_array_equal(first.outputs[1], n)


def test_random_inputs_are_seeded_and_differ_per_device() -> None:
    module = _parse(PROGRAM.replace("OP", "add"))
    a = random_inputs(module, seed=3)
    b = random_inputs(module, seed=3)
    c = random_inputs(module, seed=4)
    np.testing.assert_array_equal(a[0], b[0])
    assert not np.array_equal(a[0], c[0])
    assert not np.array_equal(a[0][0], a[0][1])


def test_check_equivalence_is_a_user_error() -> None:
    with pytest.raises(UserError, match="changed the program's results"):
        check_equivalence(
            _parse(PROGRAM.replace("OP", "add")), _parse(PROGRAM.replace("OP", "maximum")), 0
        )


def test_hlo_dce_preserves_semantics_on_the_example() -> None:
    before = _parse((ROOT / "examples" / "grad_accum.mlir").read_text())
    after = before.clone()
    HloDcePass().apply(Context(), after)
    assert "%unused" not in str(after)
    assert_equivalent(before, after)


@pytest.mark.parametrize(
    "case",
    ["grad_accum_zero_init", "psum_subgroups_2x4", "reduce_scatter_dus_sink", "ppermute_ring_loop"],
)
def test_hlo_dce_preserves_semantics_on_corpus(case: str) -> None:
    before = import_hlo((CORPUS / case / "spmd.hlo").read_text())
    after = before.clone()
    HloDcePass().apply(Context(), after)
    with np.load(CORPUS / case / "inputs.npz") as data:
        arrays = {k: data[k] for k in data.files}
    from neuron_cc.interpreter.runner import entry_function, inputs_from_npz

    inputs = inputs_from_npz(entry_function(before), arrays, 8)
    first, _ = assert_equivalent(before, after, inputs=inputs)
    np.testing.assert_allclose(first.outputs[0][0], arrays["out0_dev0"], rtol=1e-5, atol=1e-5)


def test_neuron_opt_verify_equivalence_flag() -> None:
    result = run_tool(
        "neuron-opt", ROOT / "examples" / "grad_accum.mlir", "-p", "hlo-dce", "--verify-equivalence"
    )
    assert result.returncode == 0, result.stderr
    assert "%unused" not in result.stdout


def test_neuron_opt_equivalence_tolerance_flags() -> None:
    """A moved bf16 sum rounds differently: exact comparison refuses it, a bf16-scale tolerance
    (--equivalence-rtol/--equivalence-atol) accepts it, and a changed program still fails."""
    hlo = CORPUS / "pytree_mixed_accum" / "spmd.hlo"
    args = ("-p", "neuron-default-pipeline", "--verify-equivalence", "-o", "/dev/null")
    strict = run_tool("neuron-opt", hlo, *args)
    assert strict.returncode == 1
    assert "the pipeline changed the program's results: output" in strict.stderr
    loose = ("--equivalence-rtol", "2e-2", "--equivalence-atol", "1e-2")
    assert run_tool("neuron-opt", hlo, *args, *loose).returncode == 0
    before = _parse(PROGRAM.replace("OP", "add"))
    with pytest.raises(UserError, match="changed the program's results"):
        check_equivalence(
            before, _parse(PROGRAM.replace("OP", "subtract")), 0, tolerance=(2e-2, 1e-2)
        )
