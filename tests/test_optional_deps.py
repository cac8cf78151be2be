"""neuron-cc works without its optional dependencies: hypothesis (the `test` extra) and jax (the
`xla` extra) are imported only by the modules that need them.

Each check runs a fresh interpreter whose `sitecustomize` installs a meta-path hook that makes
every `hypothesis`, `jax` and `jaxlib` import fail, as on an installation without those extras.
Only `neuron_cc.testing.generate*` (the hypothesis strategies, used by the property tests and
`tools/fuzz*.py`) may need hypothesis; nothing in the package may import them eagerly.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BLOCKED = ("hypothesis", "jax", "jaxlib")

BLOCKER = f"""
import importlib.abc
import sys


class _BlockOptionalDeps(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {BLOCKED!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
        return None


sys.meta_path.insert(0, _BlockOptionalDeps())
"""

CHECK = f"""
import contextlib
import importlib
import importlib.metadata
import io
import pkgutil
import re
import sys

BLOCKED = {BLOCKED!r}
NEEDS_TEST_EXTRA = re.compile(r"neuron_cc\\.testing\\.generate(_\\w+)?")
failures = []

for blocked in BLOCKED:
    try:
        importlib.import_module(blocked)
    except ModuleNotFoundError:
        pass
    else:
        failures.append(f"{{blocked}} is importable: the blocker is not installed")

import neuron_cc
import neuron_cc.interpreter
import neuron_cc.testing
import neuron_cc.tools
import neuron_cc.transforms


def _walk_error(name):
    failures.append(f"{{name}}: {{sys.exc_info()[1]!r}}")


for info in pkgutil.walk_packages(neuron_cc.__path__, "neuron_cc.", onerror=_walk_error):
    try:
        importlib.import_module(info.name)
    except ModuleNotFoundError as e:
        root = (e.name or "").partition(".")[0]
        if not (NEEDS_TEST_EXTRA.fullmatch(info.name) and root == "hypothesis"):
            failures.append(f"{{info.name}}: {{e!r}}")
    except Exception as e:
        failures.append(f"{{info.name}}: {{e!r}}")

for name, load in neuron_cc.transforms.get_all_passes().items():
    try:
        load()
    except Exception as e:
        failures.append(f"pass {{name}}: {{e!r}}")

for group in ("console_scripts", "xdsl.universe"):
    for ep in importlib.metadata.entry_points(group=group):
        if ep.value.startswith("neuron_cc."):
            try:
                ep.load()
            except Exception as e:
                failures.append(f"entry point {{ep.name}}: {{e!r}}")

for tool in ("neuron_opt", "neuron_translate", "neuron_run"):
    main = importlib.import_module(f"neuron_cc.tools.{{tool}}").main
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            main(["--help"])
    except SystemExit as e:
        if e.code not in (0, None) or "usage:" not in out.getvalue():
            failures.append(f"{{tool}}.main(['--help']): exit {{e.code!r}}")
    else:
        failures.append(f"{{tool}}.main(['--help']) did not exit")

leaked = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
if leaked:
    failures.append(f"blocked modules in sys.modules: {{leaked}}")
print("\\n".join(failures) if failures else "ok")
"""


@pytest.fixture
def blocked_env(tmp_path: Path) -> dict[str, str]:
    """An environment whose Python processes cannot import hypothesis, jax or jaxlib."""
    (tmp_path / "sitecustomize.py").write_text(BLOCKER)
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH")) if p)
    return dict(os.environ, PYTHONPATH=path, PYTHONWARNINGS="error")


def _run(cmd: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300, check=False)


def test_package_imports_without_optional_deps(blocked_env: dict[str, str]) -> None:
    result = _run([sys.executable, "-c", CHECK], blocked_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok", result.stdout


@pytest.mark.parametrize("script", ["neuron-opt", "neuron-translate", "neuron-run"])
def test_console_script_help_without_optional_deps(
    script: str, blocked_env: dict[str, str]
) -> None:
    result = _run([str(Path(sys.executable).parent / script), "--help"], blocked_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage:"), result.stdout


def test_blocker_blocks(blocked_env: dict[str, str]) -> None:
    """The checks above are not vacuous: the hook really hides the optional packages."""
    probe = "import hypothesis"
    result = _run([sys.executable, "-c", probe], blocked_env)
    assert result.returncode != 0
    assert "No module named 'hypothesis' (blocked)" in result.stderr
