"""The Python API (issue 22, item 1): `neuron_cc.api`, re-exported from `neuron_cc`.

Every function on a real JAX program of the corpus, checked against what the tools compute
(the interpreter's statistics before and after the default pipeline, the exported text
re-imported and run), and every kind of failure as one `NeuronError` with its location.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import neuron_cc as nc
from neuron_cc import api

CASE = Path(__file__).parent / "corpus" / "jax" / "pmean_grad_accum"


def test_reexported_from_the_package() -> None:
    for name in api.__all__:
        assert getattr(nc, name) is getattr(api, name)
    assert set(api.__all__) <= set(dir(nc))
    with pytest.raises(AttributeError):
        _ = nc.no_such_function


def test_the_path_from_hlo_to_stats_and_back() -> None:
    module = nc.import_hlo(CASE / "spmd.hlo")
    same = nc.import_hlo((CASE / "spmd.hlo").read_text())  # text works like a path
    assert nc.export_hlo(same) == nc.export_hlo(module)
    before = nc.collective_stats(module)
    outputs = nc.run(module)
    lines = nc.remarks(module, "neuron-default-pipeline")
    assert any(line.endswith(": moved") for line in lines), lines
    assert nc.collective_stats(module) == before  # remarks ran on a copy
    assert nc.run_pipeline(module, "neuron-default-pipeline") is module
    after = nc.collective_stats(module)
    assert after["all-reduce"]["launches"] < before["all-reduce"]["launches"]
    assert after["all-reduce"]["time_us"] < before["all-reduce"]["time_us"]
    for a, b in zip(nc.run(module), outputs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    reread = nc.import_hlo(nc.export_hlo(module))
    for a, b in zip(nc.run(reread), outputs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_run_takes_arrays_or_npz_names() -> None:
    """Both input forms give XLA:CPU's outputs (the corpus case's `out0_dev<D>`)."""
    module = nc.import_hlo(CASE / "spmd.hlo")
    with np.load(CASE / "inputs.npz") as data:
        named = {k: data[k] for k in data.files}
    by_name = nc.run(module, named)
    arrays = [np.stack([named[f"arg{i}_dev{d}"] for d in range(8)]) for i in range(2)]
    by_array = nc.run(module, arrays)
    for d in range(8):
        np.testing.assert_allclose(by_name[0][d], named[f"out0_dev{d}"], rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(by_array[0][d], by_name[0][d])


def test_parse_mlir_and_bir_json(tmp_path: Path) -> None:
    text = (
        "builtin.module attributes {hlo.num_partitions = 4 : i64} {\n"
        "  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "    %r = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3]] channel_id = 1"
        " use_global_device_ids {\n"
        "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "      %s = hlo.add %a, %b : tensor<f32>\n"
        "      hlo.return %s : tensor<f32>\n"
        "    } : (tensor<4xf32>) -> tensor<4xf32>\n"
        "    func.return %r : tensor<4xf32>\n  }\n}\n"
    )
    path = tmp_path / "m.mlir"
    path.write_text(text)
    module = nc.parse_mlir(path)
    x = np.arange(16, dtype=np.float32).reshape(4, 4)
    (out,) = nc.run(module, [x])
    np.testing.assert_array_equal(out, np.broadcast_to(x.sum(axis=0), (4, 4)))
    nc.run_pipeline(module, "convert-hlo-to-bir")
    bir = nc.to_bir_json(module)
    assert isinstance(bir, dict | list)
    assert "AllReduce" in json.dumps(bir), bir
    with pytest.raises(nc.NeuronError):
        nc.export_hlo(module)  # bir ops have no HLO text


@pytest.mark.parametrize(
    ("call", "where"),
    [
        (lambda: nc.import_hlo("HloModule m\n\nENTRY e {\n  ROOT p = f32[2] bogus()\n}\n"), (4, 8)),
        (lambda: nc.parse_mlir("builtin.module {\n  %x = \n}\n"), (3, 1)),
        (lambda: nc.import_hlo(Path("/no/such/file.hlo")), (1, 1)),
    ],
)
def test_errors_carry_their_location(call: object, where: tuple[int, int | None]) -> None:
    with pytest.raises(nc.NeuronError) as info:
        call()  # pyright: ignore[reportCallIssue]
    error = info.value
    assert error.file is not None, str(error)
    assert error.line == where[0], str(error)
    if where[1] is not None:
        assert error.col == where[1], str(error)
    assert str(error).startswith(f"{error.file}:{error.line}:{error.col}: ")


def test_every_failure_is_a_neuron_error() -> None:
    module = nc.import_hlo(CASE / "spmd.hlo")
    with pytest.raises(nc.NeuronError, match="invalid pass pipeline"):
        nc.run_pipeline(module, "no-such-pass")
    with pytest.raises(nc.NeuronError, match="entry takes"):
        nc.run(module, [])
    loop = nc.import_hlo(
        "HloModule m, num_partitions=2\n\n"
        "cond {\n  c = s32[] parameter(0)\n  ROOT t = pred[] constant(true)\n}\n\n"
        "body {\n  b = s32[] parameter(0)\n  ROOT n = s32[] add(b, b)\n}\n\n"
        "ENTRY e {\n  p = s32[] parameter(0)\n  ROOT w = s32[] while(p), condition=cond, body=body\n}\n"
    )
    with pytest.raises(nc.NeuronError) as info:  # an infinite loop, stopped by the guard
        nc.run(loop)
    assert (info.value.line, info.value.col) == (15, 8), str(info.value)  # at the while
