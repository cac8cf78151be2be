"""Layering rules that import-linter (the contracts in pyproject.toml, run by `make lint`) cannot
state: developer scripts in tools/ and the package never import the test suite."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def _imports_of_tests(paths: list[Path]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line}: imports {name}"
        for path in paths
        for line, name in _imported_modules(path)
        if name == "tests" or name.startswith("tests.")
    ]


def test_tools_scripts_never_import_tests() -> None:
    scripts = sorted((ROOT / "tools").glob("*.py"))
    assert scripts
    assert _imports_of_tests(scripts) == []


def test_the_package_never_imports_tests() -> None:
    modules = sorted((ROOT / "neuron_cc").rglob("*.py"))
    assert len(modules) > 50
    assert _imports_of_tests(modules) == []


def test_the_check_sees_an_import_of_tests(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text("import os\nfrom tests.conftest import run\n")
    assert _imported_modules(script) == [(1, "os"), (2, "tests.conftest")]
