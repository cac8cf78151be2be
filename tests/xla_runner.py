"""Run exported per-partition SPMD HLO on XLA:CPU (helper of tests/test_xla_acceptance.py).

Two halves:

- `partitions_to_replicas(module)` (no jax): rewrites an imported per-partition module of P
  partitions x 1 replica into the equivalent program of P replicas x 1 partition, which the
  XLA:CPU client of jax can execute on P host devices. Collectives lose `channel_id` and
  `use_global_device_ids` (so they become cross-replica over the same ids), iota replica groups
  become explicit lists, `partition_id` becomes `replica_id`, and partition shardings are dropped.
- `main(argv)`: `python tests/xla_runner.py MANIFEST.json RESULTS.json` compiles and runs every
  case of the manifest in this one process, with `--xla_allow_excess_precision=false` (XLA then
  rounds to bf16 wherever the HLO asks) unless the manifest sets `"allow_excess_precision": true`
  (XLA's default, with which the corpus oracles were recorded). `XLA_FLAGS` must be set before jax is imported, which
  is why the tests run it as a subprocess. Each case writes its per-device outputs as
  `out{J}_dev{P}` to an npz file (bf16 stored as float32, exactly); RESULTS.json records per case
  `{"status": "ok", "dtypes": [...]}` or `{"status": "error", "stage": ..., "message": ...}`.

Manifest: `{"devices": 8, "cases": [{"name", "hlo", "inputs", "params", "outputs"}]}`: the HLO
text file, the oracle npz (`argI_devP`, else `argI`), the XLA element type of each ENTRY parameter
and the npz file to write.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter

from neuron_cc.dialects.hlo.attributes import ReplicaGroupsAttr
from neuron_cc.dialects.hlo.collectives import CollectiveOp
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp, PartitionIdOp, ReplicaIdOp

NUM_REPLICAS = "hlo.num_replicas"
NUM_PARTITIONS = "hlo.num_partitions"
SPMD = "hlo.use_spmd_partitioning"
MODULE_CONFIG = "xla.module_config"
SHARDING = "xla.sharding"
# Entries of the module header that describe partitioning only.
_SPMD_CONFIG_PREFIX = "allow_spmd_sharding_propagation"
_UNSUPPORTED = {
    "hlo.send": "send/recv",
    "hlo.recv": "send/recv",
    "hlo.send_done": "send/recv",
    "hlo.recv_done": "send/recv",
    "hlo.replica_id": "replica_id in a partitioned module",
}


class ReplicaRewriteError(Exception):
    """The module uses something with no replica equivalent (the message says what)."""


def _count(module: ModuleOp, name: str) -> int:
    attr = module.attributes.get(name)
    return int(attr.value.data) if isinstance(attr, IntegerAttr) else 1


def _check_supported(op: Operation) -> None:
    reason = _UNSUPPORTED.get(op.name)
    if reason is not None:
        raise ReplicaRewriteError(f"{op.name}: {reason} has no cross-replica rewrite")
    if op.name == "hlo.custom_call":
        target = op.properties["call_target_name"]
        name = target.data if isinstance(target, StringAttr) else str(target)
        raise ReplicaRewriteError(f"custom_call target {name!r} has no cross-replica rewrite")
    if isinstance(op, CollectivePermuteOp) and op.channel_id is None:
        raise ReplicaRewriteError(
            "collective_permute without channel_id permutes replicas of a 1-replica module"
        )


def _rewrite_collective(op: CollectiveOp, partitions: int) -> None:
    if op.channel_id is None:
        # Cross-replica over a single replica: every partition is alone in its group.
        groups: Sequence[Sequence[int]] = [[i] for i in range(partitions)]
    else:
        groups = op.replica_groups.groups()
        del op.properties["channel_id"]
    op.properties["replica_groups"] = ReplicaGroupsAttr.explicit(groups)
    op.properties.pop("use_global_device_ids", None)


def _rewrite_partition_id(op: PartitionIdOp) -> None:
    new = ReplicaIdOp()
    new.attributes.update(op.attributes)
    new.result.name_hint = op.result.name_hint
    Rewriter.replace_op(op, new)


def _drop_sharding(attrs: ArrayAttr[DictionaryAttr]) -> ArrayAttr[DictionaryAttr]:
    return ArrayAttr(
        [DictionaryAttr({k: v for k, v in d.data.items() if k != SHARDING}) for d in attrs]
    )


def _rewrite_module_attrs(module: ModuleOp, partitions: int) -> None:
    module.attributes[NUM_REPLICAS] = IntegerAttr(partitions, 64)
    module.attributes[NUM_PARTITIONS] = IntegerAttr(1, 64)
    module.attributes.pop(SPMD, None)
    config = module.attributes.get(MODULE_CONFIG)
    if isinstance(config, DictionaryAttr):
        kept = {k: v for k, v in config.data.items() if not k.startswith(_SPMD_CONFIG_PREFIX)}
        module.attributes[MODULE_CONFIG] = DictionaryAttr(kept)


def _rewrite_op(op: Operation, partitions: int) -> None:
    op.attributes.pop(SHARDING, None)
    if isinstance(op, CollectiveOp):
        _rewrite_collective(op, partitions)
    elif isinstance(op, CollectivePermuteOp):
        del op.properties["channel_id"]
    elif isinstance(op, PartitionIdOp):
        _rewrite_partition_id(op)
    elif isinstance(op, FuncOp):
        if op.arg_attrs is not None:
            op.arg_attrs = _drop_sharding(op.arg_attrs)
        if op.res_attrs is not None:
            op.res_attrs = _drop_sharding(op.res_attrs)


def partitions_to_replicas(module: ModuleOp) -> ModuleOp:
    """Rewrite (in place) a P-partition, 1-replica module into the same program on P replicas.

    Raises ReplicaRewriteError for ops with no equivalent (send/recv, custom calls, replica_id,
    collective_permute without channel_id) before changing anything.
    """
    replicas, partitions = _count(module, NUM_REPLICAS), _count(module, NUM_PARTITIONS)
    if replicas != 1:
        raise ReplicaRewriteError(f"expected 1 replica, got {replicas}")
    ops = list(module.walk())
    for op in ops:
        _check_supported(op)
    for op in ops:
        _rewrite_op(op, partitions)
    _rewrite_module_attrs(module, partitions)
    return module


# --- the subprocess half (imports jax) ------------------------------------------------------


def _np_dtype(name: str) -> Any:
    import ml_dtypes
    import numpy as np

    if name == "pred":
        return np.dtype(bool)
    if name == "bf16":
        return np.dtype(ml_dtypes.bfloat16)
    kind = {"s": "int", "u": "uint", "f": "float"}[name[0]]
    return np.dtype(f"{kind}{name[1:]}")


def _inputs(case: dict[str, Any], devices: int) -> list[list[Any]]:
    """Per parameter, its per-device host arrays (converted to the parameter's dtype)."""
    import numpy as np

    data = np.load(case["inputs"])
    per_param: list[list[Any]] = []
    for i, dtype in enumerate(case["params"]):
        keys = [f"arg{i}_dev{p}" if f"arg{i}_dev{p}" in data else f"arg{i}" for p in range(devices)]
        per_param.append([np.asarray(data[k]).astype(_np_dtype(dtype)) for k in keys])
    return per_param


class _Xla:
    """Compile and run HLO text on the CPU client of jax as N replicas."""

    def __init__(self, devices: int) -> None:
        import jax
        import jax.extend.backend
        from jax._src.lib import _jax, hlo  # pyright: ignore

        self.jax = jax
        self.lib = _jax
        self.hlo = hlo
        self.backend = jax.extend.backend.get_backend("cpu")
        self.devices = self.backend.devices()[:devices]
        if len(self.devices) != devices:
            raise RuntimeError(f"need {devices} CPU devices, got {len(self.devices)}")

    def compile(self, text: str) -> Any:
        import numpy as np

        module = self.hlo.hlo_module_from_text(text)
        mlir = self.lib.mlir.hlo_to_stablehlo(module.as_serialized_hlo_module_proto())
        options = self.lib.CompileOptions()
        build = options.executable_build_options
        build.num_replicas = len(self.devices)
        build.num_partitions = 1
        build.device_assignment = self.lib.DeviceAssignment.create(
            np.arange(len(self.devices)).reshape(len(self.devices), 1)
        )
        return self.backend.compile_and_load(
            mlir, self.lib.DeviceList(tuple(self.devices)), options
        )

    def execute(self, executable: Any, per_param: list[list[Any]]) -> list[list[Any]]:
        """Per output, its per-device numpy arrays."""
        import numpy as np
        from jax.sharding import Mesh, NamedSharding, PartitionSpec

        jax = self.jax
        # A "replicated" array whose per-device buffers differ: each device gets its own input.
        sharding = NamedSharding(Mesh(np.array(self.devices), ("r",)), PartitionSpec())
        args = [
            jax.make_array_from_single_device_arrays(
                arrays[0].shape,
                sharding,
                [jax.device_put(a, d) for a, d in zip(arrays, self.devices, strict=True)],
            )
            for arrays in per_param
        ]
        results = executable.execute_sharded(args).disassemble_into_single_device_arrays()
        return [[np.asarray(buf) for buf in per_device] for per_device in results]


def _save(outputs: list[list[Any]], path: str) -> list[str]:
    import numpy as np

    arrays: dict[str, Any] = {}
    dtypes: list[str] = []
    for j, per_device in enumerate(outputs):
        dtypes.append(str(per_device[0].dtype))
        for p, a in enumerate(per_device):
            arrays[f"out{j}_dev{p}"] = a.astype(np.float32) if a.dtype.name == "bfloat16" else a
    np.savez(path, **arrays)
    return dtypes


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
    flag = f"--xla_force_host_platform_device_count={int(manifest['devices'])}"
    if not manifest.get("allow_excess_precision", False):
        # XLA must round to bf16 wherever the HLO asks: it computes the program as written.
        flag += " --xla_allow_excess_precision=false"
    if "jax" in sys.modules:
        print("xla_runner: jax was imported before XLA_FLAGS could be set", file=sys.stderr)
        return 2
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {flag}".strip()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    Path(argv[1]).write_text(json.dumps(run_manifest(manifest), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
