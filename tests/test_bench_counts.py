"""tools/bench_counts.py: callgrind dumps are read per step, and each step runs between its marks.

The tool itself needs valgrind and minutes per program; these tests run its parts without it
(the callgrind process replaced by one writing the dumps it would)."""

from __future__ import annotations

import gc
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import load_tool

EVENTS = "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw"


bench_counts = load_tool("bench_counts")


def _dump(ir: int) -> str:
    """A callgrind dump's header lines with `ir` instructions (the other events derived)."""
    values = [ir, 10 * ir, 20 * ir, 0, 3 * ir, 4 * ir, 0, 5 * ir, 6 * ir]
    return f"version: 1\ncmd: python\n{EVENTS}\nsummary: {' '.join(map(str, values))}\n"


def test_a_dump_gives_instructions_data_refs_and_misses() -> None:
    counts = bench_counts.Counts.from_dump(_dump(7))
    assert counts.values() == (7, 210, 49, 77)


def test_a_dump_without_the_cache_simulation_is_refused() -> None:
    with pytest.raises(ValueError, match="cache simulation"):
        bench_counts.Counts.from_dump("events: Ir\nsummary: 5 6\n")


def test_each_step_runs_warm_then_between_two_marks_with_the_gc_paused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log: list[str] = []
    real_action = bench_counts._action

    def action(step: str, text: str) -> Callable[[], object]:
        run = real_action(step, text)

        def logged() -> object:
            log.append(step)
            return run()

        return logged

    def mark() -> int:
        log.append("mark" if not gc.isenabled() else "mark with the gc on")
        return 1

    monkeypatch.setattr(bench_counts, "_action", action)
    monkeypatch.setattr(bench_counts.os, "getppid", mark)
    bench_counts.run_marked("nesting", 3, ["hlo-dce", "import", "verify"])
    steps = ["hlo-dce", "import", "verify"]
    assert log == [e for s in steps for e in (s, "mark", s, "mark")]
    assert gc.isenabled()


def test_a_step_that_refuses_the_program_keeps_its_marks_and_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """legalize-cpu-cc-ops needs one partition; the dimension programs have 8."""
    marks: list[str] = []
    monkeypatch.setattr(bench_counts.os, "getppid", lambda: marks.append("mark") or 1)
    bench_counts.run_marked("nesting", 3, ["legalize-cpu-cc-ops", "hlo-dce"])
    assert marks == ["mark"] * 4
    assert capsys.readouterr().out == "refused: legalize-cpu-cc-ops\n"


def test_each_step_reads_the_dump_that_ends_at_its_second_mark(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Dump k holds what ran before mark k: 1 the setup, then per step its run and the next
    step's setup; the exit's dump (no number) is left out."""
    seen: list[list[str]] = []

    def fake_run(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        seen.append(command)
        out = Path(next(a for a in command if a.startswith("--callgrind-out-file=")).split("=")[1])
        for k in range(1, 6):
            Path(f"{out}.{k}").write_text(_dump(100 * k))
        out.write_text(_dump(999))
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(bench_counts.subprocess, "run", fake_run)
    found = bench_counts.count("users", 40, ["a-pass", "another"])
    assert {s: c.instructions for s, c in found.items() if c} == {"a-pass": 200, "another": 400}
    (command,) = seen
    assert "--dump-before=getppid" in command
    assert "--cache-sim=yes" in command
    assert command[-4:] == ["--child", "users", "40", "a-pass,another"]


def test_a_step_the_child_names_as_refused_has_no_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fake_run(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        out = Path(next(a for a in command if a.startswith("--callgrind-out-file=")).split("=")[1])
        for k in range(1, 6):
            Path(f"{out}.{k}").write_text(_dump(100 * k))
        return subprocess.CompletedProcess(command, 0, "refused: first\n", "")

    monkeypatch.setattr(bench_counts.subprocess, "run", fake_run)
    found = bench_counts.count("users", 40, ["first", "second"])
    assert found["first"] is None
    second = found["second"]
    assert second is not None
    assert second.instructions == 400


def test_a_failed_or_short_callgrind_run_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def failed(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 1, "", "valgrind: no such tool")

    monkeypatch.setattr(bench_counts.subprocess, "run", failed)
    with pytest.raises(RuntimeError, match="no such tool"):
        bench_counts.count("users", 40, ["a-pass"])

    def silent(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(bench_counts.subprocess, "run", silent)
    with pytest.raises(RuntimeError, match="expected 2 callgrind dumps, got 0"):
        bench_counts.count("users", 40, ["a-pass"])


def test_ratios_divide_the_large_counts_by_the_small_and_render_as_a_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fake_count(dimension: str, n: int, steps: list[str]) -> dict[str, Any]:
        k = n // bench_counts.SIZES[dimension]  # 1 or the scale
        scaled = {"step-a": (10, 20, 30, 40), "step-b": (1, 1, 1, 1)}
        return {
            s: bench_counts.Counts(*(v * (k if s == "step-a" or k == 1 else 3) for v in scaled[s]))
            for s in steps
        }

    monkeypatch.setattr(bench_counts, "count", fake_count)
    ratios = bench_counts.counted_ratios({"width": ["step-a", "step-b"], "users": []}, 10)
    assert ratios == {"width": {"step-a": [10.0] * 4, "step-b": [3.0] * 4}}
    ratios["width"]["step-c"] = None
    table = bench_counts.markdown(ratios, 10, {"width": {"step-a": 13.5, "step-b": None}})
    assert "| step-a | width | 13.5 | 10.0 | 10.0 | 10.0 | 10.0 |" in table
    assert "| step-b | width | — | 3.0 | 3.0 | 3.0 | 3.0 |" in table
    assert "| step-c | width | — | refused | refused | refused | refused |" in table


def test_an_unknown_step_or_dimension_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        bench_counts.main(["--steps", "hlo-dce,no-such-pass"])
    assert stop.value.code == 2
    assert "unknown step(s) no-such-pass" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        bench_counts.main(["--only", "depth"])
    assert stop.value.code == 2
    assert "unknown dimension(s) depth" in capsys.readouterr().err
