"""Progress on a terminal (issue 22, item 5): bars where stderr is a TTY, nothing in pipes.

`NEURON_CC_PROGRESS=1` stands for a terminal here (pytest captures stderr through a pipe);
the same runs without it must print no progress at all.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from neuron_cc.tools import progress
from tests.conftest import run_tool

LOOP = """HloModule spin, num_partitions=2

cond {
  c = s32[] parameter(0)
  n = s32[] constant(30000)
  ROOT lt = pred[] compare(c, n), direction=LT
}

body {
  b = s32[] parameter(0)
  one = s32[] constant(1)
  ROOT next = s32[] add(b, one)
}

ENTRY e {
  p = s32[] constant(0)
  ROOT w = s32[] while(p), condition=cond, body=body
}
"""


def _neuron_run(tmp_path: Path, **env: str) -> str:
    program = tmp_path / "spin.hlo"
    program.write_text(LOOP)
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        result = run_tool("neuron-run", program, "--random-inputs", "0")
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    assert result.returncode == 0, result.stderr
    return result.stderr


def test_neuron_run_shows_op_progress_on_a_terminal(tmp_path: Path) -> None:
    # 30,000 iterations of ~6 ops: past the first 65,536-op tick.
    shown = _neuron_run(tmp_path, NEURON_CC_PROGRESS="1", NEURON_CC_PROGRESS_DELAY="0")
    assert "interpreting" in shown
    assert "ops" in shown
    assert _neuron_run(tmp_path, NEURON_CC_PROGRESS="0") == ""


def test_short_runs_stay_quiet(tmp_path: Path) -> None:
    assert _neuron_run(tmp_path, NEURON_CC_PROGRESS="1") == ""  # under the 2 s delay


def test_bars(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("NEURON_CC_PROGRESS", "0")
    assert list(progress.bar([1, 2, 3], "quiet")) == [1, 2, 3]
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("NEURON_CC_PROGRESS", "1")
    assert list(progress.bar([1, 2, 3], "loud")) == [1, 2, 3]
    timer = progress.TimeBar(10, "budget")
    timer.update(4.5)
    timer.update(12)  # past the budget: clamped
    timer.close()
    err = capsys.readouterr().err
    assert "loud" in err
    assert "budget" in err
    assert progress.op_ticker() is not None
    monkeypatch.setenv("NEURON_CC_PROGRESS", "0")
    assert progress.op_ticker() is None
