"""neuron-run CLI: statistics, output files, corpus oracles, device-count overrides and user
errors (exit 1, `error:` prefix, no traceback, no output file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import ROOT, run_tool

Array = np.ndarray[Any, Any]

EXAMPLE = ROOT / "examples" / "grad_accum.mlir"
CORPUS = ROOT / "tests" / "corpus" / "jax"


def grad_accum_inputs(seed: int = 0) -> dict[str, Array]:
    """Small integer-valued floats: every sum below is exact in f32."""
    rng = np.random.default_rng(seed)
    data = {f"arg0_dev{d}": rng.integers(-3, 4, (4, 16)).astype(np.float32) for d in range(8)}
    data["arg1"] = rng.integers(-3, 4, (16, 8)).astype(np.float32)
    return data


def grad_accum_reference(data: dict[str, Array]) -> Array:
    """The example by hand: per device slice(x^T x)[:, :8] * w, summed over 8 devices, x4."""
    w = data["arg1"]
    total = np.zeros((16, 8), np.float64)
    for d in range(8):
        x = data[f"arg0_dev{d}"].astype(np.float64)
        total += (x.T @ x)[:, :8] * w
    return (4 * total).astype(np.float32)


def save(path: Path, **arrays: Array) -> Path:
    np.savez(path, **arrays)  # pyright: ignore[reportArgumentType]
    return path


def stats_rows(stdout: str) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("collective", "---"):
            rows[cells[0]] = cells[1:]
    return rows


def assert_user_error(proc: Any, *fragments: str) -> None:
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stderr.startswith("error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    assert "internal error" not in proc.stderr, proc.stderr
    for fragment in fragments:
        assert fragment in proc.stderr, (fragment, proc.stderr)


# --- the example program ---------------------------------------------------------------------


def test_grad_accum_stats_count_one_all_reduce_per_iteration(tmp_path: Path) -> None:
    inputs = save(tmp_path / "in.npz", **grad_accum_inputs())
    proc = run_tool("neuron-run", EXAMPLE, "--inputs", inputs, "--stats")
    assert proc.returncode == 0, proc.stderr
    rows = stats_rows(proc.stdout)
    assert set(rows) == {"all-reduce", "total"}
    launches, nbytes, _time = rows["all-reduce"]
    assert int(launches) == 4
    # 4 launches x 2(n-1)/n x 16*8 f32, n = 8
    assert int(nbytes) == 4 * 2 * (8 - 1) / 8 * 16 * 8 * 4 == 3584
    assert rows["total"][:2] == ["4", "3584"]


def test_grad_accum_outputs_match_numpy(tmp_path: Path) -> None:
    data = grad_accum_inputs(1)
    inputs = save(tmp_path / "in.npz", **data)
    out = tmp_path / "out.npz"
    proc = run_tool("neuron-run", EXAMPLE, "--inputs", inputs, "--outputs", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    expected = grad_accum_reference(data)
    assert np.abs(expected).max() > 0
    with np.load(out) as got:
        assert sorted(got.files) == sorted(f"out0_dev{d}" for d in range(8))
        for d in range(8):
            array = got[f"out0_dev{d}"]
            assert array.dtype == np.float32
            assert array.shape == (16, 8)
            np.testing.assert_array_equal(array, expected, err_msg=f"out0_dev{d}")


def test_replicated_and_per_device_inputs_are_equivalent(tmp_path: Path) -> None:
    data = grad_accum_inputs(2)
    per_device = dict(data)
    w = per_device.pop("arg1")
    per_device.update({f"arg1_dev{d}": w for d in range(8)})
    results: list[dict[str, Array]] = []
    for name, arrays in (("a", data), ("b", per_device)):
        out = tmp_path / f"{name}.out.npz"
        proc = run_tool(
            "neuron-run",
            EXAMPLE,
            "--inputs",
            save(tmp_path / f"{name}.npz", **arrays),
            "--outputs",
            out,
        )
        assert proc.returncode == 0, proc.stderr
        with np.load(out) as got:
            results.append({k: got[k] for k in got.files})
    assert results[0].keys() == results[1].keys()
    for k in results[0]:
        np.testing.assert_array_equal(results[0][k], results[1][k])


# --- a real HLO module with its oracle -------------------------------------------------------


@pytest.mark.parametrize("case", ["psum_subgroups_2x4", "reduce_scatter_variants_2x4"])
def test_corpus_hlo_reproduces_the_oracle(tmp_path: Path, case: str) -> None:
    directory = CORPUS / case
    out = tmp_path / "out.npz"
    proc = run_tool(
        "neuron-run",
        directory / "spmd.hlo",
        "--inputs",
        directory / "inputs.npz",
        "--outputs",
        out,
        "--stats",
    )
    assert proc.returncode == 0, proc.stderr
    assert "all-reduce" in stats_rows(proc.stdout) or "reduce-scatter" in stats_rows(proc.stdout)
    with np.load(directory / "inputs.npz") as oracle, np.load(out) as got:
        want = sorted(k for k in oracle.files if k.startswith("out") and "_dev" in k)
        assert sorted(got.files) == want
        for key in want:
            np.testing.assert_allclose(got[key], oracle[key], rtol=1e-5, atol=1e-6, err_msg=key)


def test_psum_subgroups_stats(tmp_path: Path) -> None:
    directory = CORPUS / "psum_subgroups_2x4"
    proc = run_tool(
        "neuron-run", directory / "spmd.hlo", "--inputs", directory / "inputs.npz", "--stats"
    )
    assert proc.returncode == 0, proc.stderr
    rows = stats_rows(proc.stdout)
    # three all-reduces of f32[4,4] (64 bytes) in a 3-iteration loop, groups of 4, 2 and 8:
    # 3 * 64 * (2*3/4 + 2*1/2 + 2*7/8) = 3 * 64 * 4.25 = 816
    assert rows["all-reduce"][:2] == ["9", "816"]


# --- device-count overrides ------------------------------------------------------------------

_REPLICA_SUM = """builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<ui32>) {
    %s = hlo.all_reduce(%x) replica_groups = [[0]] channel_id = 1 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %p = hlo.partition_id : tensor<ui32>
    func.return %s, %p : tensor<2xf32>, tensor<ui32>
  }
}
"""


@pytest.mark.parametrize("partitions", [None, 2, 3])
def test_num_partitions_override_changes_the_device_count(
    tmp_path: Path, partitions: int | None
) -> None:
    program = tmp_path / "sum.mlir"
    program.write_text(_REPLICA_SUM)
    inputs = save(tmp_path / "in.npz", arg0=np.array([1.0, 10.0], np.float32))
    out = tmp_path / "out.npz"
    extra = [] if partitions is None else ["--num-partitions", str(partitions)]
    proc = run_tool("neuron-run", program, "--inputs", inputs, "--outputs", out, "--stats", *extra)
    assert proc.returncode == 0, proc.stderr
    n = partitions or 8
    with np.load(out) as got:
        assert sorted(got.files) == sorted(
            [f"out0_dev{d}" for d in range(n)] + [f"out1_dev{d}" for d in range(n)]
        )
        for d in range(n):
            np.testing.assert_array_equal(got[f"out0_dev{d}"], np.array([n, 10 * n], np.float32))
            assert got[f"out1_dev{d}"] == d
    launches, nbytes, _ = stats_rows(proc.stdout)["all-reduce"]
    assert (int(launches), int(nbytes)) == (1, round(2 * (n - 1) / n * 8))


def test_num_replicas_override_needs_inputs_for_every_device(tmp_path: Path) -> None:
    inputs = save(tmp_path / "in.npz", **grad_accum_inputs())
    proc = run_tool("neuron-run", EXAMPLE, "--inputs", inputs, "--num-replicas", "2")
    assert_user_error(proc, "arg0_dev8")


def test_num_partitions_override_too_small_for_the_groups(tmp_path: Path) -> None:
    inputs = save(tmp_path / "in.npz", **grad_accum_inputs())
    out = tmp_path / "out.npz"
    proc = run_tool(
        "neuron-run", EXAMPLE, "--inputs", inputs, "--num-partitions", "4", "--outputs", out
    )
    assert_user_error(proc)
    assert not out.exists()


# --- user errors -----------------------------------------------------------------------------


def _run_failing(tmp_path: Path, program: Path, inputs: Path, *fragments: str) -> None:
    out = tmp_path / "out.npz"
    proc = run_tool("neuron-run", program, "--inputs", inputs, "--outputs", out, "--stats")
    assert_user_error(proc, *fragments)
    assert proc.stdout == ""
    assert not out.exists()


def test_missing_input_key_names_the_argument(tmp_path: Path) -> None:
    data = grad_accum_inputs()
    del data["arg1"]
    _run_failing(tmp_path, EXAMPLE, save(tmp_path / "in.npz", **data), "arg1")


def test_missing_one_device_of_a_per_device_argument(tmp_path: Path) -> None:
    data = grad_accum_inputs()
    del data["arg0_dev5"]
    _run_failing(tmp_path, EXAMPLE, save(tmp_path / "in.npz", **data), "arg0", "arg0_dev5")


def test_wrong_shape_names_the_argument_and_shapes(tmp_path: Path) -> None:
    data = grad_accum_inputs()
    data["arg1"] = np.zeros((8, 16), np.float32)
    _run_failing(tmp_path, EXAMPLE, save(tmp_path / "in.npz", **data), "arg1", "[16, 8]", "[8, 16]")


def test_non_exact_cast_into_an_integer_parameter(tmp_path: Path) -> None:
    program = tmp_path / "int.mlir"
    program.write_text(
        "func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {\n"
        "  func.return %x : tensor<2xi32>\n}\n"
    )
    bad = save(tmp_path / "bad.npz", arg0=np.array([1.5, 2.0]))
    _run_failing(tmp_path, program, bad, "arg0", "i32")
    # integral float values are cast exactly
    good = save(tmp_path / "good.npz", arg0=np.array([1.0, -2.0]))
    out = tmp_path / "good.out.npz"
    proc = run_tool("neuron-run", program, "--inputs", good, "--outputs", out)
    assert proc.returncode == 0, proc.stderr
    with np.load(out) as got:
        assert got["out0_dev0"].dtype == np.int32
        np.testing.assert_array_equal(got["out0_dev0"], np.array([1, -2], np.int32))


def test_missing_npz_file(tmp_path: Path) -> None:
    _run_failing(tmp_path, EXAMPLE, tmp_path / "absent.npz", "absent.npz")


def test_corrupt_npz_file(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.npz"
    corrupt.write_bytes(b"PK\x03\x04 this is not a zip archive")
    _run_failing(tmp_path, EXAMPLE, corrupt, "corrupt.npz")


def test_text_file_as_npz(tmp_path: Path) -> None:
    text = tmp_path / "text.npz"
    text.write_text("arg0 = [1, 2]\n")
    _run_failing(tmp_path, EXAMPLE, text, "text.npz")


def test_unknown_custom_call_target(tmp_path: Path) -> None:
    program = tmp_path / "cc.mlir"
    program.write_text(
        "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
        '  %y = hlo.custom_call "my_kernel"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n'
        "  func.return %y : tensor<2xf32>\n}\n"
    )
    inputs = save(tmp_path / "in.npz", arg0=np.zeros(2, np.float32))
    _run_failing(tmp_path, program, inputs, "custom_call", "my_kernel")


_DIVERGENT = """builtin.module attributes {hlo.num_partitions = 4 : i64} {
  func.func @main(%x: tensor<f32>) -> tensor<f32> {
    %pid = hlo.partition_id : tensor<ui32>
    %zero = hlo.constant dense<0> : tensor<ui32>
    %p = hlo.compare EQ, %pid, %zero : tensor<ui32> -> tensor<i1>
    %c = hlo.conditional(%p) (%x, %x) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32> {
    ^bb0(%t: tensor<f32>):
      hlo.return %t : tensor<f32>
    }, {
    ^bb0(%f: tensor<f32>):
      %n = hlo.negate %f : tensor<f32>
      hlo.return %n : tensor<f32>
    }
    func.return %c : tensor<f32>
  }
}
"""


def test_divergent_control_flow(tmp_path: Path) -> None:
    program = tmp_path / "div.mlir"
    program.write_text(_DIVERGENT)
    inputs = save(tmp_path / "in.npz", arg0=np.array(1.0, np.float32))
    _run_failing(
        tmp_path, program, inputs, "divergent control flow at", "hlo.conditional", "devices 0"
    )
    # one partition: nothing can diverge
    out = tmp_path / "one.npz"
    proc = run_tool(
        "neuron-run", program, "--inputs", inputs, "--num-partitions", "1", "--outputs", out
    )
    assert proc.returncode == 0, proc.stderr
    with np.load(out) as got:
        assert sorted(got.files) == ["out0_dev0"]
        assert got["out0_dev0"] == np.float32(1.0)


def test_missing_program_file(tmp_path: Path) -> None:
    inputs = save(tmp_path / "in.npz", **grad_accum_inputs())
    _run_failing(tmp_path, tmp_path / "nope.mlir", inputs, "nope.mlir")


def test_inputs_option_is_required(tmp_path: Path) -> None:
    proc = run_tool("neuron-run", EXAMPLE)
    assert_user_error(proc, "--inputs")
