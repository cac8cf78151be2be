"""The JAX entry point (issue 22, item 2): `neuron_cc.jax.spmd_hlo` and `neuron-jax`.

For corpus sources (`tests/corpus/jax/*/source.py`), `neuron-jax SCRIPT.py` must give the module
the corpus stored as spmd.hlo (the same instructions; only the source-location sections differ:
they name the script that ran), and that module run on the case's inputs must give XLA:CPU's
outputs. `spmd_hlo` is also called directly on a plain `jax.jit` function with shardings.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import neuron_cc as nc
from tests.conftest import run_tool

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("jax") is None, reason="needs the xla extra (JAX)"
)
CORPUS = Path(__file__).parent / "corpus" / "jax"
CASES = ["grad_accum_zero_init", "nested_scan", "reverse_scan_grad"]
_METADATA = re.compile(r", metadata=\{[^}]*\}")


def _instructions(text: str) -> list[str]:
    """The module's computations as our exporter prints them, without source locations."""
    lines = nc.export_hlo(nc.import_hlo(text)).splitlines()
    first = next(i for i, line in enumerate(lines) if line.endswith("{") and i > 0)
    return [_METADATA.sub("", line) for line in [lines[0], *lines[first:]]]


@pytest.mark.parametrize("case", CASES)
def test_neuron_jax_gives_the_corpus_module(case: str, tmp_path: Path) -> None:
    out = tmp_path / "spmd.hlo"
    result = run_tool("neuron-jax", CORPUS / case / "source.py", "-o", out)
    assert result.returncode == 0, result.stderr
    assert _instructions(out.read_text()) == _instructions((CORPUS / case / "spmd.hlo").read_text())
    with np.load(CORPUS / case / "inputs.npz") as data:
        named = {k: data[k] for k in data.files}
    outputs = nc.run(nc.import_hlo(out), named)
    for j, got in enumerate(outputs):
        for d in range(got.shape[0]):
            np.testing.assert_allclose(got[d], named[f"out{j}_dev{d}"], rtol=1e-5, atol=1e-5)


SCRIPT = """
import numpy as np
from neuron_cc.jax import host_devices, spmd_hlo
jax = host_devices(8)  # before anything else starts JAX: no XLA_FLAGS from the user
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()[:8]), ("x",))
x = jax.device_put(np.ones((16, 4), np.float32), NamedSharding(mesh, P("x")))
print(spmd_hlo(lambda a: (a * 2).sum(axis=0), x))
"""


def test_spmd_hlo_of_a_jitted_function() -> None:
    """In a fresh process (JAX must not have started yet), with no XLA_FLAGS set."""
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    module = nc.import_hlo(result.stdout)
    assert "all-reduce" in nc.collective_stats(module)
    (out,) = nc.run(module, [np.ones((8, 2, 4), np.float32)])
    np.testing.assert_array_equal(out, np.full((8, 4), 32.0, np.float32))


def test_neuron_jax_errors(tmp_path: Path) -> None:
    missing = run_tool("neuron-jax", tmp_path / "nope.py")
    assert missing.returncode == 1
    assert "no such script" in missing.stderr
    broken = tmp_path / "broken.py"
    broken.write_text("@case\ndef f():\n    raise ValueError('bad spec')\n")
    result = run_tool("neuron-jax", f"{broken}:f")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"{broken}:1:1: ValueError: bad spec" in result.stderr
