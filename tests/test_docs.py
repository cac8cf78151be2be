"""The design in docs/ is the one the code cites, and every citation points into it.

- every `docs/<page>.md` reference, and every `docs/<page>.md §N` citation, in the code,
  the tests, the developer tools, README.md and docs/ itself names an existing page, and `§N`
  names a heading of that page that starts with "N." or "N ";
- no citation of the old out-of-tree design document is left in neuron_cc/, tests/ or tools/;
- every page of docs/ is linked from docs/README.md, and every link between pages resolves.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SCANNED_DIRS = ("neuron_cc", "tests", "tools")
SCANNED_SUFFIXES = frozenset({".py", ".mlir", ".hlo", ".md", ".cfg"})
THIS_FILE = Path(__file__).resolve()

# `docs/<page>.md`, optionally followed by a section `§N` (N like 5, 6.1, 6b).
CITATION = re.compile(r"(?<![\w.-])(?:\.\./)?docs/([\w.-]+?\.md)(?:\s*§\s*([0-9][0-9a-z.]*))?")
# The old document, which lived outside the repository. Built in pieces so this file does not
# match itself.
OLD_CITATION = re.compile(r"\b" + "DESIGN" + r"(?:\.md|\s*§|\s+section\b)")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)\s]*)?\)")


def _scanned_files(*, with_readme: bool = True) -> list[Path]:
    files: list[Path] = [ROOT / "README.md"] if with_readme else []
    for name in SCANNED_DIRS:
        base = ROOT / name
        files.extend(
            p
            for p in sorted(base.rglob("*"))
            if p.suffix in SCANNED_SUFFIXES and p.is_file() and ".venv" not in p.parts
        )
    return [p for p in files if p.resolve() != THIS_FILE]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8", errors="replace").splitlines()


def _headings(page: Path) -> list[str]:
    """The text of every markdown heading of `page`, without the leading #s."""
    headings: list[str] = []
    in_code = False
    for line in _lines(page):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if not in_code and line.startswith("#"):
            headings.append(line.lstrip("#").strip())
    return headings


def _has_section(page: Path, section: str) -> bool:
    return any(h.startswith((f"{section}.", f"{section} ")) for h in _headings(page))


def _where(path: Path, number: int, line: str) -> str:
    return f"{path.relative_to(ROOT)}:{number}: {line.strip()}"


def test_docs_pages_exist() -> None:
    assert DOCS.is_dir(), "docs/ is missing"
    assert (DOCS / "README.md").is_file(), "docs/README.md (the index) is missing"


def test_every_docs_citation_names_a_page_and_a_section() -> None:
    sources = _scanned_files() + sorted(DOCS.glob("*.md"))
    problems: list[str] = []
    cited = 0
    for path in sources:
        for number, line in enumerate(_lines(path), start=1):
            for match in CITATION.finditer(line):
                cited += 1
                page = DOCS / match.group(1)
                if not page.is_file():
                    problems.append(f"{_where(path, number, line)}  (no page docs/{page.name})")
                    continue
                section = (match.group(2) or "").rstrip(".")
                if section and not _has_section(page, section):
                    problems.append(
                        f"{_where(path, number, line)}  (docs/{page.name} has no heading "
                        f"'{section}. ...' or '{section} ...')"
                    )
    assert cited > 0, "no docs/<page>.md citation found at all"
    assert not problems, "citations that point nowhere:\n" + "\n".join(problems)


def test_no_citation_of_the_old_design_document_remains() -> None:
    offending = [
        _where(path, number, line)
        for path in _scanned_files(with_readme=False)
        for number, line in enumerate(_lines(path), start=1)
        if OLD_CITATION.search(line)
    ]
    assert not offending, (
        "citations of the old design document (cite docs/<page>.md §N instead; "
        "docs/README.md maps the old sections):\n" + "\n".join(offending)
    )


def test_every_page_is_linked_from_the_index() -> None:
    index = DOCS / "README.md"
    targets = {m.group(1) for line in _lines(index) for m in MARKDOWN_LINK.finditer(line)}
    pages = sorted(p.name for p in DOCS.glob("*.md") if p.name != "README.md")
    assert pages, "docs/ has no pages besides its index"
    missing = [name for name in pages if name not in targets]
    assert not missing, f"docs/README.md does not link to: {', '.join(missing)}"


def test_links_between_pages_resolve() -> None:
    problems: list[str] = []
    for page in sorted(DOCS.glob("*.md")):
        for number, line in enumerate(_lines(page), start=1):
            for match in MARKDOWN_LINK.finditer(line):
                target = match.group(1)
                if "://" in target or not target.endswith(".md"):
                    continue
                if not (page.parent / target).is_file():
                    problems.append(f"{_where(page, number, line)}  (no file {target})")
    assert not problems, "broken links in docs/:\n" + "\n".join(problems)
