"""Test-suite hygiene (issue 16, item 6): rules a reviewer would otherwise have to remember.

- no `pytest.importorskip` of neuron-cc's own modules (a broken module must fail, not skip);
- no lit file disabled by renaming (`*.disabled`): expected failures say `XFAIL:`;
- lit writes its temporary files under build/lit, never into the source tree;
- hand-written while loops come from the one builder, `neuron_cc.testing.loop_text` (issue 16,
  item 8): no test spells out an MLIR `hlo.while(` skeleton unless that line says why with a
  `# loop-text: <reason>` marker (the HLO text form `while(` is not concerned);
- `make pytest` shuffles the test order (pytest-randomly, a seed per run, printed), so a test
  that leans on another test's side effects fails somewhere rather than passing by position.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
OWN_SKIP = re.compile(r"importorskip\(\s*[\"']neuron_cc")
LOOP_SKELETON = "hlo.while("
"""An MLIR while loop spelled out by hand."""
LOOP_TEXT_MARKER = "# loop-text:"


def test_no_importorskip_of_our_own_modules() -> None:
    found = [
        f"{path.name}:{i}"
        for path in sorted(TESTS.glob("*.py"))
        if path.name != Path(__file__).name
        for i, line in enumerate(path.read_text().splitlines(), 1)
        if OWN_SKIP.search(line)
    ]
    assert found == []


def test_no_lit_file_is_disabled_by_renaming() -> None:
    assert sorted(p.name for p in (TESTS / "filecheck").rglob("*.disabled*")) == []


def test_lit_runs_outside_the_source_tree() -> None:
    config = (TESTS / "filecheck" / "lit.cfg").read_text()
    assert re.search(r'config\.test_exec_root = .*"build", "lit"', config, re.S)


def test_while_loops_come_from_the_loop_text_builder() -> None:
    exempt = {Path(__file__).name, "test_loop_text.py"}
    found = [
        f"{path.name}:{i}"
        for path in sorted(TESTS.glob("*.py"))
        if path.name not in exempt
        for i, line in enumerate(path.read_text().splitlines(), 1)
        if LOOP_SKELETON in line and LOOP_TEXT_MARKER not in line
    ]
    assert found == [], "build these loops with neuron_cc.testing.loop_text.WhileLoop"


def test_make_pytest_shuffles_the_order() -> None:
    extras = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^test = \[[^\]]*"pytest-randomly', extras, re.M)
    makefile = (ROOT / "Makefile").read_text()
    target = re.search(r"^pytest: venv[^\n]*\n", makefile, re.M)
    assert target is not None
    recipe = makefile[target.end() :].split("\n\n", 1)[0]
    assert "-p randomly --randomly-seed=$(PYTEST_SEED)" in recipe
    assert "-p no:randomly" not in recipe
