"""The XLA:CPU half of `neuron_cc.testing.xla_oracle`: it runs in its own process.

    python neuron_cc/testing/xla_worker.py BATCH.json LOG.jsonl FIRST

compiles and runs the cases `FIRST, FIRST+1, ...` of the batch in this one process, on the CPU
client of jax with `--xla_force_host_platform_device_count=<devices>` and, unless the batch sets
`"allow_excess_precision": true`, `--xla_allow_excess_precision=false` (XLA then rounds to bf16
wherever the HLO asks) and `--xla_cpu_max_isa=AVX`. AVX has no FMA instructions, so LLVM cannot
contract a multiply and an add into one fused operation with one rounding, which XLA:CPU
otherwise does depending on how it fused the instructions around them (measured: the same
`x + -(y * z)` gives different last bits inside and outside a loop body); SSE4_2 would also lose
the F16C conversions XLA:CPU needs for f16. XLA_FLAGS must be set before jax is imported: this
module imports jax only
in `_Xla`, and imports nothing of neuron_cc (it runs as a plain script, quick to start).

Batch: `{"devices": N, "allow_excess_precision": bool, "cases": [case, ...]}`, each case
`{"name", "hlo": text file, "replicas": R, "partitions": P, "spmd": bool, "inputs": npz file,
"params": [numpy dtype name, ...], "outputs": npz file, "parse_only": bool}`. The inputs are
`arg<I>`, each with a leading device axis of size R*P (bfloat16 stored as float32, exactly);
`spmd` compiles with `use_spmd_partitioning` (the text then marks every instruction
`sharding={manual}`, so the partitioner keeps the per-partition program as written). Device
d = r*P + p runs replica r, partition p. A `parse_only` case is parsed (and verified) only: its
record holds the instruction count per HloOpcode name and XLA's reprint goes to the outputs
path with the suffix `.txt`.

The log gets one JSON line when a case starts (`{"case": i, "event": "start"}`) and one when it
ends (`{"case": i, "event": "done", "status": "ok", "dtypes": [...]}`, or `"status": "rejected"`
(XLA's parser or compiler refused it: `"stage": "parse" | "compile"`) or `"error"` (it failed at
run time: `"stage": "execute"`), with `"message"`), each flushed at once: if XLA kills the
process, the parent knows which case did it and re-runs the rest. Outputs are written as
`out<J>` with the leading device axis (bfloat16 as float32, exactly).
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

Array = np.ndarray[Any, Any]


def xla_flags(devices: int, allow_excess_precision: bool) -> str:
    """The XLA_FLAGS a worker runs with (appended to the caller's own)."""
    flags = f"--xla_force_host_platform_device_count={devices}"
    if not allow_excess_precision:
        flags += " --xla_allow_excess_precision=false --xla_cpu_max_isa=AVX"
    return flags


def numpy_dtype(name: str) -> np.dtype[Any]:
    """The numpy dtype called `name` (`bfloat16` from ml_dtypes)."""
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def storable(array: Array) -> Array:
    """`array` as npz can store it: bfloat16 widened to float32 (exact)."""
    return array.astype(np.float32) if array.dtype.name == "bfloat16" else array


class _Xla:
    """Compiles HLO text on the CPU client of jax and runs it on R x P host devices."""

    def __init__(self, devices: int) -> None:
        import jax
        import jax.extend.backend
        from jax._src.lib import _jax, hlo  # pyright: ignore[reportPrivateImportUsage, reportAttributeAccessIssue]

        # f64/c128 inputs stay 64-bit in device_put (jax narrows them to 32 bits otherwise).
        jax.config.update("jax_enable_x64", True)
        self.jax: Any = jax
        self.lib: Any = _jax
        self.hlo: Any = hlo
        self.backend: Any = jax.extend.backend.get_backend("cpu")
        self.devices: list[Any] = list(self.backend.devices())
        if len(self.devices) < devices:
            raise RuntimeError(f"need {devices} CPU devices, got {len(self.devices)}")

    def compile(self, module: Any, replicas: int, partitions: int, spmd: bool) -> Any:
        mlir = self.lib.mlir.hlo_to_stablehlo(module.as_serialized_hlo_module_proto())
        options = self.lib.CompileOptions()
        build = options.executable_build_options
        build.num_replicas = replicas
        build.num_partitions = partitions
        build.use_spmd_partitioning = spmd
        devices = replicas * partitions
        build.device_assignment = self.lib.DeviceAssignment.create(
            np.arange(devices).reshape(replicas, partitions)
        )
        return self.backend.compile_and_load(
            mlir, self.lib.DeviceList(tuple(self.devices[:devices])), options
        )

    def execute(self, executable: Any, inputs: Sequence[Array]) -> list[Array]:
        """Per output, the per-device results stacked on a leading device axis."""
        from jax.sharding import Mesh, NamedSharding, PartitionSpec

        jax = self.jax
        devices = self.devices[: len(executable.local_devices())]
        # A "replicated" array whose per-device buffers differ: each device gets its own input.
        sharding = NamedSharding(Mesh(np.array(devices), ("d",)), PartitionSpec())
        args = [
            jax.make_array_from_single_device_arrays(
                array.shape[1:],
                sharding,
                [jax.device_put(a, d) for a, d in zip(array, devices, strict=True)],
            )
            for array in inputs
        ]
        results = executable.execute_sharded(args).disassemble_into_single_device_arrays()
        return [np.stack([np.asarray(buf) for buf in per_device]) for per_device in results]


def _inputs(case: dict[str, Any]) -> list[Array]:
    data = np.load(case["inputs"])
    return [
        np.asarray(data[f"arg{i}"]).astype(numpy_dtype(dtype))
        for i, dtype in enumerate(case["params"])
    ]


def _opcodes(module: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for computation in module.computations():
        for instruction in computation.instructions():
            name = instruction.opcode.name
            counts[name] = counts.get(name, 0) + 1
    return counts


def parse_case(xla: _Xla, case: dict[str, Any]) -> dict[str, Any]:
    """Parse (and verify) one case's text; XLA's reprint goes next to `case["outputs"]`."""
    try:
        module = xla.hlo.hlo_module_from_text(Path(case["hlo"]).read_text())
    except Exception as e:  # reported per case
        message = "".join(traceback.format_exception_only(e)).strip()
        return {"status": "rejected", "stage": "parse", "message": message}
    Path(case["outputs"]).with_suffix(".txt").write_text(module.to_string())
    return {"status": "ok", "opcodes": _opcodes(module)}


def run_case(xla: _Xla, case: dict[str, Any]) -> dict[str, Any]:
    """Compile and run one case; its log record (outputs written to `case["outputs"]`)."""
    if case.get("parse_only", False):
        return parse_case(xla, case)
    status, stage = "rejected", "parse"
    start = time.perf_counter()
    seconds: dict[str, float] = {}
    try:
        inputs = _inputs(case)
        module = xla.hlo.hlo_module_from_text(Path(case["hlo"]).read_text())
        stage = "compile"
        executable = xla.compile(module, case["replicas"], case["partitions"], case["spmd"])
        seconds["compile"] = time.perf_counter() - start
        status, stage = "error", "execute"
        outputs = xla.execute(executable, inputs)
        seconds["execute"] = time.perf_counter() - start - seconds["compile"]
    except Exception as e:  # reported per case: the caller decides
        message = "".join(traceback.format_exception_only(e)).strip()
        return {"status": status, "stage": stage, "message": message, "seconds": seconds}
    np.savez(case["outputs"], **{f"out{j}": storable(a) for j, a in enumerate(outputs)})  # pyright: ignore[reportArgumentType]
    return {"status": "ok", "dtypes": [a.dtype.name for a in outputs], "seconds": seconds}


def _log(log: IO[str], record: dict[str, Any]) -> None:
    log.write(json.dumps(record) + "\n")
    log.flush()


def run_batch(batch: dict[str, Any], log: IO[str], first: int) -> None:
    xla = _Xla(int(batch["devices"]))
    for i, case in enumerate(batch["cases"][first:], start=first):
        _log(log, {"case": i, "event": "start"})
        _log(log, {"case": i, "event": "done", **run_case(xla, case)})


def main(argv: Sequence[str]) -> int:
    if len(argv) != 3:
        print("usage: python -m neuron_cc.testing.xla_worker BATCH LOG FIRST", file=sys.stderr)
        return 2
    if "jax" in sys.modules:
        print("xla_worker: jax was imported before XLA_FLAGS could be set", file=sys.stderr)
        return 2
    batch = json.loads(Path(argv[0]).read_text())
    flags = xla_flags(int(batch["devices"]), bool(batch.get("allow_excess_precision", False)))
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {flags}".strip()
    os.environ["JAX_PLATFORMS"] = "cpu"
    with Path(argv[1]).open("a") as log:
        run_batch(batch, log, int(argv[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
