"""Shared pytest helpers: run the console scripts in-process-free subprocesses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.fixture
def tool():
    return run_tool
