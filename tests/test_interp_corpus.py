"""The interpreter reproduces XLA's executions of the real JAX corpus (docs/interpreter.md §7).

Every `spmd.hlo` and `opt.hlo` of tests/corpus runs on 8 simulated devices with the case's
inputs; every output on every device must match the oracle in inputs.npz (computed by the
compiled XLA:CPU executable): integers exactly, floats to rtol 1e-5.

Two spmd cases are compared at bf16 scale instead: their unoptimised programs round
intermediate values to bf16 (a bf16 dot, bf16 adds), but XLA:CPU's optimiser removes those
f32->bf16->f32 round trips (xla_allow_excess_precision), so the oracle carries f32 precision
there. Their opt.hlo (what XLA actually ran) must still match to rtol 1e-5.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.interpreter.runner import entry_function, inputs_from_npz, run_module
from neuron_cc.translate.hlo_text.importer import import_hlo

CORPUS = Path(__file__).resolve().parent / "corpus" / "jax"
PROGRAMS = sorted(p for p in CORPUS.glob("*/*.hlo") if p.stem in ("spmd", "opt"))
EXCESS_PRECISION = {"constants_and_literals", "fsdp_allgather_bf16_convert"}
BF16_SCALE = 2.0**-7


def _run(path: Path) -> tuple[list[Any], dict[str, Any], int]:
    module = import_hlo(path.read_text(), str(path))
    module.verify()
    with np.load(path.parent / "inputs.npz") as data:
        arrays = {k: data[k] for k in data.files}
    r, p = device_counts(module)
    result = run_module(module, inputs_from_npz(entry_function(module), arrays, r * p))
    return result.outputs, arrays, r * p


def test_every_case_is_covered() -> None:
    assert len(PROGRAMS) == 66


@pytest.mark.parametrize("path", PROGRAMS, ids=[f"{p.parent.name}/{p.stem}" for p in PROGRAMS])
def test_corpus_program_matches_xla(path: Path) -> None:
    outputs, oracle, devices = _run(path)
    scaled = path.stem == "spmd" and path.parent.name in EXCESS_PRECISION
    expected_outputs = sum(1 for k in oracle if k.startswith("out") and k.endswith("_dev0"))
    assert len(outputs) == expected_outputs
    for j, value in enumerate(outputs):
        assert isinstance(value, np.ndarray)
        assert value.shape[0] == devices
        for d in range(devices):
            got, want = value[d], oracle[f"out{j}_dev{d}"]
            assert got.shape == want.shape, (j, d)
            if want.dtype.kind not in "fc":
                np.testing.assert_array_equal(got, want, err_msg=f"out{j}_dev{d}")
            elif scaled:
                bound = BF16_SCALE * float(np.max(np.abs(want)))
                assert float(np.max(np.abs(got.astype(np.float64) - want))) <= bound, (j, d)
            else:
                np.testing.assert_allclose(
                    got, want, rtol=1e-5, atol=1e-6, err_msg=f"out{j}_dev{d}"
                )


def test_bf16_all_reduce_rounds_once_like_xla() -> None:
    """XLA:CPU promotes a bf16 all-reduce to f32 and rounds once: exact match expected."""
    outputs, oracle, devices = _run(CORPUS / "grad_accum_bf16_convert" / "spmd.hlo")
    for d in range(devices):
        np.testing.assert_array_equal(outputs[0][d], oracle[f"out0_dev{d}"])
