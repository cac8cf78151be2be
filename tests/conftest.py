"""Shared pytest helpers: run the console scripts in-process-free subprocesses."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from xdsl.ir import SSAValue
from xdsl.ir.core import SSAValues

# Property tests: a fixed seed and bounded example counts in `make test` ("ci"); `make fuzz`
# selects "fuzz" (random seeds, NEURON_FUZZ_EXAMPLES examples per property).
settings.register_profile(
    "ci",
    max_examples=200,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "fuzz",
    derandomize=False,
    deadline=None,
    print_blob=True,
    max_examples=int(os.environ.get("NEURON_FUZZ_EXAMPLES", "5000")),
    suppress_health_check=list(HealthCheck),
)
settings.load_profile(os.environ.get("NEURON_HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def run_tool(
    tool: str, *args: str | Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a console script of this venv and capture its output."""
    env = dict(os.environ, PYTHONWARNINGS="error")
    return subprocess.run(
        [str(BIN / tool), *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def load_tool(name: str) -> ModuleType:
    """The script `tools/<name>.py` as a module (registered under `name`: dataclasses look
    their module up in `sys.modules`; the tools import each other by that name)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def tool():
    return run_tool


def count_operand_tuples(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The widths of the operand tuples `neuron_cc.dialects.value_edits` writes from now on
    (one entry per user rebuilt), until `monkeypatch` is undone."""
    from neuron_cc.dialects import value_edits

    built: list[int] = []

    class Counting(SSAValues[SSAValue]):
        def __new__(cls, values: Any) -> Any:
            built.append(len(values))
            return SSAValues(values)

    monkeypatch.setattr(value_edits, "SSAValues", Counting)
    return built
