"""Compile and run random HLO programs on XLA:CPU with R replicas x P partitions.

`python -m neuron_cc.testing.random_hlo_xla MANIFEST.json RESULTS.json` (a subprocess: XLA_FLAGS
must be set before jax is imported; this sets
`--xla_force_host_platform_device_count=8 --xla_allow_excess_precision=false`). The manifest:
`{"cases": [{"name", "text", "hlo", "replicas", "partitions", "params", "inputs", "outputs"}]}`
with `text` the program as written (a file, parsed), `hlo` its `random_hlo_forms.xla_text`
(compiled and run), `params` the element type of each ENTRY parameter, `inputs` an npz of
`arg{I}` arrays with the leading device axis, and `outputs` the npz to write (`out{J}` with the
device axis, bf16 as float32). RESULTS gets one JSON line per case: `{"name", "status": "ok"}`
or `{"name", "status": "error", "stage": "parse" | "compile" | "execute", "message"}`;
`XlaRun` restarts the process after a case that crashes it (stage "crash"), so the caller
counts every rejection instead of losing it.

Partitions are real: the module is compiled with num_partitions=P and SPMD partitioning on a
fully manual module (see random_hlo_forms), device (r, p) = host device r * P + p.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from neuron_cc.testing.random_hlo import RandomProgram, parameter_types
from neuron_cc.testing.random_hlo_forms import xla_mesh, xla_text

Array = np.ndarray[Any, Any]

DEVICES = 8
FLAGS = f"--xla_force_host_platform_device_count={DEVICES} --xla_allow_excess_precision=false"


def _np_dtype(name: str) -> Any:
    import ml_dtypes

    return {
        "f32": np.float32,
        "bf16": ml_dtypes.bfloat16,
        "s32": np.int32,
        "u32": np.uint32,
        "pred": np.bool_,
    }[name]


class Xla:
    def __init__(self) -> None:
        import jax
        import jax.extend.backend
        from jax._src.lib import _jax, hlo  # pyright: ignore

        self.jax: Any = jax
        self.lib: Any = _jax
        self.hlo: Any = hlo
        self.backend: Any = jax.extend.backend.get_backend("cpu")
        self.devices: list[Any] = list(self.backend.devices()[:DEVICES])

    def parse(self, text: str) -> Any:
        return self.hlo.hlo_module_from_text(text)

    def compile(self, module: Any, replicas: int, partitions: int) -> Any:
        lib = self.lib
        mlir = lib.mlir.hlo_to_stablehlo(module.as_serialized_hlo_module_proto())
        options = lib.CompileOptions()
        build = options.executable_build_options
        build.num_replicas = replicas
        build.num_partitions = partitions
        build.use_spmd_partitioning = partitions > 1
        build.device_assignment = lib.DeviceAssignment.create(
            np.arange(replicas * partitions).reshape(replicas, partitions)
        )
        devices = lib.DeviceList(tuple(self.devices[: replicas * partitions]))
        return self.backend.compile_and_load(mlir, devices, options)

    def execute(self, executable: Any, inputs: Sequence[Any]) -> list[Any]:
        """Per output, the (devices, ...) array."""
        from jax.sharding import Mesh, NamedSharding, PartitionSpec

        jax = self.jax
        devices = self.devices[: inputs[0].shape[0]] if inputs else self.devices
        sharding = NamedSharding(Mesh(np.array(devices), ("d",)), PartitionSpec())
        args = [
            jax.make_array_from_single_device_arrays(
                x.shape[1:], sharding, [jax.device_put(x[d], dev) for d, dev in enumerate(devices)]
            )
            for x in inputs
        ]
        results = executable.execute_sharded(args).disassemble_into_single_device_arrays()
        return [np.stack([np.asarray(b) for b in per_device]) for per_device in results]


def _run_case(xla: Xla, case: dict[str, Any]) -> dict[str, Any]:
    stage = "parse"
    try:
        xla.parse(Path(case["text"]).read_text())  # the program as written
        module = xla.parse(Path(case["hlo"]).read_text())
        stage = "compile"
        executable = xla.compile(module, int(case["replicas"]), int(case["partitions"]))
        stage = "execute"
        data = np.load(case["inputs"])
        inputs = [
            np.asarray(data[f"arg{i}"]).astype(_np_dtype(t)) for i, t in enumerate(case["params"])
        ]
        outputs = xla.execute(executable, inputs)
        arrays = {
            f"out{j}": a.astype(np.float32) if a.dtype.name == "bfloat16" else a
            for j, a in enumerate(outputs)
        }
        np.savez(case["outputs"], **arrays)
        return {"status": "ok"}
    except Exception as e:  # counted per case by the caller
        message = "".join(traceback.format_exception_only(e)).strip()
        return {"status": "error", "stage": stage, "message": message[:2000]}


def main(argv: Sequence[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m neuron_cc.testing.random_hlo_xla MANIFEST RESULTS", file=sys.stderr)
        return 2
    if "jax" in sys.modules:
        print("random_hlo_xla: jax was imported before XLA_FLAGS could be set", file=sys.stderr)
        return 2
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {FLAGS}".strip()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    manifest = json.loads(Path(argv[0]).read_text())
    xla = Xla()
    with Path(argv[1]).open("a") as out:
        for case in manifest["cases"]:
            # One line per case, flushed: a case that kills the process (an XLA CHECK
            # failure) is the first one without a line.
            out.write(json.dumps({"name": case["name"], **_run_case(xla, case)}) + "\n")
            out.flush()
    return 0


# --- the calling side (no jax) ---------------------------------------------------------------


@dataclass(frozen=True)
class XlaResult:
    status: str
    """"ok" or "error"."""
    stage: str = ""
    message: str = ""
    outputs: tuple[Array, ...] = ()


def run_programs(
    cases: Sequence[tuple[str, RandomProgram, Sequence[Array]]],
    workdir: Path,
    timeout: float = 900.0,
) -> dict[str, XlaResult]:
    """Run (name, program, inputs) cases on XLA:CPU in one subprocess; a result per name."""
    return XlaRun(cases, workdir).results(timeout)


class XlaRun:
    """Cases running on XLA:CPU in a background subprocess (started by the constructor)."""

    def __init__(
        self, cases: Sequence[tuple[str, RandomProgram, Sequence[Array]]], workdir: Path
    ) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.workdir = workdir
        self.entries = [_write_case(workdir, *case) for case in cases]
        self._raw: dict[str, dict[str, Any]] = {}
        self._process = self._start(self.entries)

    def _start(self, entries: list[dict[str, Any]]) -> subprocess.Popen[bytes]:
        manifest = self.workdir / "manifest.json"
        manifest.write_text(json.dumps({"cases": entries}, indent=1))
        self._results = self.workdir / "results.jsonl"
        self._results.unlink(missing_ok=True)
        self._stderr = self.workdir / "stderr.txt"
        command = [sys.executable, "-m", __name__, str(manifest), str(self._results)]
        env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
        with self._stderr.open("wb") as err:
            return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err)

    def close(self) -> None:
        """Stop the subprocess if it is still running (results not waited for)."""
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()

    def results(self, timeout: float = 900.0) -> dict[str, XlaResult]:
        """Wait for every case; after a case that crashes the process, run the rest anew."""
        while True:
            code = self._process.wait(timeout)
            lines = self._results.read_text().splitlines() if self._results.exists() else []
            self._raw.update({r["name"]: r for r in map(json.loads, lines)})
            pending = [e for e in self.entries if e["name"] not in self._raw]
            if not pending:
                return {e["name"]: _load(e, self._raw[e["name"]]) for e in self.entries}
            stderr = self._stderr.read_text(errors="replace")
            if code == 0:
                raise RuntimeError(f"random_hlo_xla skipped cases: {stderr[-2000:]}")
            message = _crash(stderr)
            self._raw[pending[0]["name"]] = {
                "status": "error",
                "stage": "crash",
                "message": message,
            }
            if len(pending) > 1:
                self._process = self._start(pending[1:])


def _write_case(
    workdir: Path, name: str, program: RandomProgram, inputs: Sequence[Array]
) -> dict[str, Any]:
    text, hlo = workdir / f"{name}.text.hlo", workdir / f"{name}.hlo"
    text.write_text(program.text)
    hlo.write_text(xla_text(program))
    arrays: dict[str, Any] = {f"arg{i}": x for i, x in enumerate(inputs)}
    np.savez(workdir / f"{name}.in.npz", **arrays)
    replicas, partitions = xla_mesh(program)
    return {
        "name": name,
        "text": str(text),
        "hlo": str(hlo),
        "replicas": replicas,
        "partitions": partitions,
        "params": parameter_types(program),
        "inputs": str(workdir / f"{name}.in.npz"),
        "outputs": str(workdir / f"{name}.out.npz"),
    }


def _crash(stderr: str) -> str:
    """The lines of a crashed XLA's stderr that say why (not the stack trace)."""
    lines = [
        ln for ln in stderr.splitlines() if ln.startswith(("E", "F", "Check")) or "RET_CHECK" in ln
    ]
    return "\n".join(lines[:5])[:2000] or stderr[-2000:]


def _load(entry: dict[str, Any], raw: dict[str, Any]) -> XlaResult:
    if raw["status"] != "ok":
        return XlaResult("error", raw.get("stage", ""), raw.get("message", ""))
    data = np.load(entry["outputs"])
    count = len([k for k in data.files if k.startswith("out")])
    return XlaResult("ok", outputs=tuple(np.asarray(data[f"out{j}"]) for j in range(count)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
