"""tools/regen_lit_checks.py regenerates a committed lit file's CHECK/REMARK blocks exactly."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "regen_lit_checks.py"
LIT = (
    ROOT
    / "tests"
    / "filecheck"
    / "transforms"
    / "neuron-while-loop-all-reduce-code-motion-overwrites.mlir"
)


def test_regenerating_a_committed_file_reproduces_it(tmp_path: Path) -> None:
    copy = tmp_path / LIT.name
    shutil.copy(LIT, copy)
    stale = copy.read_text().replace("// CHECK-NEXT:", "// CHECK-NEXT: stale", 1)
    copy.write_text(stale)
    pipeline = "neuron-while-loop-all-reduce-code-motion"
    result = subprocess.run(
        [sys.executable, str(TOOL), str(copy), pipeline],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert copy.read_text() == LIT.read_text()


def test_usage_without_arguments() -> None:
    result = subprocess.run(
        [sys.executable, str(TOOL)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert "regen_lit_checks.py FILE PIPELINE" in result.stderr
