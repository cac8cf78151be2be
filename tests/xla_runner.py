"""The manifest runner of XLA:CPU (kept for tests/test_legalize_ccops_exact.py and
tools/bench_interpreter.py; new code uses `neuron_cc.testing.xla_oracle`).

- `partitions_to_replicas(module)` and `ReplicaRewriteError` are re-exported from
  `neuron_cc.testing.xla_oracle`, where they live now.
- `main(argv)`: `python tests/xla_runner.py MANIFEST.json RESULTS.json` compiles and runs every
  case of the manifest in this one process, as N replicas, with `--xla_allow_excess_precision=false`
  (XLA then rounds to bf16 wherever the HLO asks) unless the manifest sets
  `"allow_excess_precision": true` (XLA's default). `XLA_FLAGS` must be set before jax is
  imported, which is why callers run it as a subprocess. Each case writes its per-device outputs
  as `out{J}_dev{P}` to an npz file (bf16 stored as float32, exactly); RESULTS.json records per
  case `{"status": "ok", "dtypes": [...]}` or `{"status": "error", "stage": ..., "message": ...}`.

Manifest: `{"devices": 8, "cases": [{"name", "hlo", "inputs", "params", "outputs"}]}`: the HLO
text file, the input npz (`argI_devP`, else `argI`), the XLA element type of each ENTRY parameter
and the npz file to write. Unlike the oracle, one crash of XLA ends the whole run.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from neuron_cc.testing.xla_oracle import ReplicaRewriteError, partitions_to_replicas
from neuron_cc.testing.xla_worker import _Xla as _WorkerXla
from neuron_cc.testing.xla_worker import numpy_dtype, storable, xla_flags

__all__ = ["ReplicaRewriteError", "main", "partitions_to_replicas"]


def _np_dtype(name: str) -> Any:
    """The numpy dtype of an XLA element type name (`pred`, `bf16`, `s32`, `f32`, ...)."""
    if name == "pred":
        return numpy_dtype("bool")
    if name == "bf16":
        return numpy_dtype("bfloat16")
    kind = {"s": "int", "u": "uint", "f": "float"}[name[0]]
    return numpy_dtype(f"{kind}{name[1:]}")


def _inputs(case: dict[str, Any], devices: int) -> list[list[Any]]:
    """Per parameter, its per-device host arrays (converted to the parameter's dtype)."""
    import numpy as np

    data = np.load(case["inputs"])
    per_param: list[list[Any]] = []
    for i, dtype in enumerate(case["params"]):
        keys = [f"arg{i}_dev{p}" if f"arg{i}_dev{p}" in data else f"arg{i}" for p in range(devices)]
        per_param.append([np.asarray(data[k]).astype(_np_dtype(dtype)) for k in keys])
    return per_param


class _Xla(_WorkerXla):
    """Compile and run HLO text on the CPU client of jax as N replicas x 1 partition."""

    def __init__(self, devices: int) -> None:
        super().__init__(devices)
        self.devices = self.devices[:devices]

    def compile(self, text: str) -> Any:  # pyright: ignore[reportIncompatibleMethodOverride]
        module = self.hlo.hlo_module_from_text(text)
        return super().compile(module, len(self.devices), 1, False)

    def execute(self, executable: Any, per_param: list[list[Any]]) -> list[list[Any]]:  # pyright: ignore[reportIncompatibleMethodOverride]
        """Per output, its per-device numpy arrays."""
        import numpy as np

        stacked = [np.stack(arrays) for arrays in per_param]
        return [list(out) for out in super().execute(executable, stacked)]


def _save(outputs: list[list[Any]], path: str) -> list[str]:
    import numpy as np

    arrays = {
        f"out{j}_dev{p}": storable(a) for j, per in enumerate(outputs) for p, a in enumerate(per)
    }
    np.savez(path, **arrays)  # pyright: ignore[reportArgumentType]
    return [str(per_device[0].dtype) for per_device in outputs]


def _run_case(xla: _Xla, case: dict[str, Any]) -> dict[str, Any]:
    stage = "inputs"
    try:
        per_param = _inputs(case, len(xla.devices))
        stage = "compile"
        executable = xla.compile(Path(case["hlo"]).read_text())
        stage = "execute"
        outputs = xla.execute(executable, per_param)
        return {"status": "ok", "dtypes": _save(outputs, case["outputs"])}
    except Exception as e:  # reported per case, the test decides
        message = "".join(traceback.format_exception_only(e)).strip()
        return {"status": "error", "stage": stage, "message": message}


def run_manifest(manifest: dict[str, Any]) -> dict[str, dict[str, Any]]:
    xla = _Xla(int(manifest["devices"]))
    return {case["name"]: _run_case(xla, case) for case in manifest["cases"]}


def main(argv: Sequence[str]) -> int:
    if len(argv) != 2:
        print("usage: xla_runner.py MANIFEST.json RESULTS.json", file=sys.stderr)
        return 2
    manifest = json.loads(Path(argv[0]).read_text())
    flags = xla_flags(int(manifest["devices"]), manifest.get("allow_excess_precision", False))
    if "jax" in sys.modules:
        print("xla_runner: jax was imported before XLA_FLAGS could be set", file=sys.stderr)
        return 2
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {flags}".strip()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    Path(argv[1]).write_text(json.dumps(run_manifest(manifest), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
