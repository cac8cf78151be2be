"""`neuron-opt --time-passes` (issue 22, item 4): a wall-time table per stage on stderr.

Checked on a real JAX program (a corpus case): every stage appears once, in order (import,
the input's verification, each pass, the last verification, the equivalence runs, output,
writing -o), each time is a number within the wall total, several `--split-input-file`
chunks add up into one row per stage, and the output is byte-identical to a run without the
flag (which prints no table).
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import run_tool

CASE = Path(__file__).parent / "corpus" / "jax" / "pmean_grad_accum" / "spmd.hlo"
ROW = re.compile(r"^\s+(\d+\.\d{4}) \(\s*(\d+\.\d)%\)  (.+)$")


def _rows(stderr: str) -> list[tuple[float, float, str]]:
    rows = []
    for line in stderr.splitlines():
        m = ROW.match(line)
        if m:
            rows.append((float(m.group(1)), float(m.group(2)), m.group(3)))
    return rows


def test_time_passes_prints_every_stage(tmp_path: Path) -> None:
    timed_out, plain_out = tmp_path / "timed.hlo", tmp_path / "plain.hlo"
    pipeline = "hlo-dce,neuron-default-pipeline"
    timed = run_tool(
        "neuron-opt",
        CASE,
        "-p",
        pipeline,
        "--emit",
        "hlo",
        "--time-passes",
        "--verify-equivalence",
        "-o",
        timed_out,
    )
    assert timed.returncode == 0, timed.stderr
    assert "Execution time report" in timed.stderr
    rows = _rows(timed.stderr)
    names = [name for _, _, name in rows]
    assert names == [
        "import (hlo)",
        "verify (input)",
        "equivalence: run the input",  # of the verified input, before any pass
        "pass hlo-dce",
        "pass neuron-default-pipeline",
        "verify (after neuron-default-pipeline)",
        "equivalence: run the result and compare",
        "output (hlo)",
        "write -o",
        "Total (stages)",
        "Total (wall)",
    ]
    wall = rows[-1][0]
    assert rows[-1][1] == 100.0
    assert all(0 <= seconds <= wall for seconds, _, _ in rows)
    assert abs(sum(s for s, _, _ in rows[:-2]) - rows[-2][0]) < 1e-3
    plain = run_tool("neuron-opt", CASE, "-p", pipeline, "--emit", "hlo", "-o", plain_out)
    assert plain.returncode == 0, plain.stderr
    assert "Execution time report" not in plain.stderr
    assert timed_out.read_bytes() == plain_out.read_bytes()


def test_time_passes_adds_up_split_chunks(tmp_path: Path) -> None:
    chunk = (
        "builtin.module {\n  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "    %y = hlo.negate %x : tensor<4xf32>\n    func.return %y : tensor<4xf32>\n  }\n}\n"
    )
    source = tmp_path / "split.mlir"
    source.write_text(chunk + "// -----\n" + chunk + "// -----\n" + chunk)
    result = run_tool("neuron-opt", source, "--split-input-file", "-p", "hlo-dce", "--time-passes")
    assert result.returncode == 0, result.stderr
    names = [name for _, _, name in _rows(result.stderr)]
    assert names.count("parse (mlir)") == 1
    assert names.count("pass hlo-dce") == 1
    assert result.stdout.count("func.func @f") == 3
