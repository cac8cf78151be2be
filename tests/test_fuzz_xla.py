"""`tools/fuzz_xla.py` (`make fuzz-xla`): one short round end to end, and its refusal without jax.

The round (2 random HLO programs of a fixed seed, one worker) must finish, print the counts the
README reports (programs, rejections, comparisons, mismatches by kind), write the findings file
and exit 0 (no mismatch of ours on those seeds).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from neuron_cc.testing.xla_oracle import XLA_UNAVAILABLE, xla_available

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "fuzz_xla.py"


def _fuzz(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(TOOL), *args, "--findings", str(tmp_path / "findings.md")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=env,
        cwd=tmp_path,
    )


@pytest.mark.skipif(not xla_available(), reason=XLA_UNAVAILABLE)
def test_one_round_prints_the_counts_and_writes_the_findings(tmp_path: Path) -> None:
    proc = _fuzz(
        tmp_path,
        "--minutes",
        "0.01",
        "--jobs",
        "1",
        "--batch",
        "2",
        "--seed",
        "7",
        "--random-hlo-only",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert re.search(r"fuzz-xla: 2 programs \(2 random_hlo, 0 issue-10 generator\)", out), out
    assert "seeds from 7" in out
    assert re.search(r"fuzz-xla: 0 programs rejected by XLA", out), out
    agreed = re.search(r"fuzz-xla: (\d+) comparisons agreed", out)
    assert agreed is not None, out
    assert int(agreed.group(1)) >= 2, out  # at least neuron-run vs XLA on each program
    assert "mismatches by kind: interpreter 0, pass 0, export 0, unresolved 0" in out
    findings = (tmp_path / "findings.md").read_text()
    assert "--seed 7 --batch 2 --random-hlo-only" in findings


def test_without_jax_it_refuses_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = importlib.util.spec_from_file_location("fuzz_xla_under_test", TOOL)
    assert spec is not None
    assert spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, tool)  # its dataclasses look themselves up
    spec.loader.exec_module(tool)
    monkeypatch.setattr(tool, "xla_available", lambda: False)
    assert tool.main(["--minutes", "0.01"]) == 2
    assert XLA_UNAVAILABLE in capsys.readouterr().err
