"""No Python module of neuron-cc is over 800 lines (issue 16, item 9).

Every `*.py` under neuron_cc/, tests/ and tools/ counts (corpus sources and lit configuration
included); a module that grows past the limit is split by topic, re-exporting from the original
module the names other code imports.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 800
FOLDERS = ("neuron_cc", "tests", "tools")


def line_counts() -> dict[str, int]:
    """Lines of every `*.py` under FOLDERS, by path relative to the repository root."""
    counts: dict[str, int] = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            with path.open("rb") as f:
                counts[path.relative_to(ROOT).as_posix()] = sum(1 for _ in f)
    return counts


def test_no_module_is_over_the_limit() -> None:
    counts = line_counts()
    offenders = {p: n for p, n in counts.items() if n > LIMIT}
    listing = "\n".join(f"  {p}: {n} lines" for p, n in sorted(offenders.items()))
    assert not offenders, f"modules over {LIMIT} lines (split them by topic):\n{listing}"
