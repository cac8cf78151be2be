"""Test-suite hygiene (issue 16, item 6): rules a reviewer would otherwise have to remember.

- no `pytest.importorskip` of neuron-cc's own modules (a broken module must fail, not skip);
- no lit file disabled by renaming (`*.disabled`): expected failures say `XFAIL:`;
- lit writes its temporary files under build/lit, never into the source tree.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
OWN_SKIP = re.compile(r"importorskip\(\s*[\"']neuron_cc")


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
