"""From a JAX function to the per-partition HLO XLA hands its backend (optional `xla` extra).

    from neuron_cc.jax import spmd_hlo
    text = spmd_hlo(jax.shard_map(step, mesh=mesh, in_specs=..., out_specs=...), w, xs)
    module = neuron_cc.import_hlo(text)

`spmd_hlo(fn, *args)` jits `fn` (`keep_unused=True`), lowers it for `args` and compiles it with
XLA's dump options passed as compile options (`xla_dump_to` a temporary folder, the
`spmd-partitioner` pipeline, large constants printed): the result is the module right after
SPMD partitioning - one program per partition, collectives explicit, nothing fused (what
`tests/corpus/*/spmd.hlo` hold). The user sets no XLA_FLAGS: `host_devices(n)` (called by
`spmd_hlo` with the mesh's size) asks for n CPU devices through XLA_FLAGS before JAX starts its
backend, and says clearly when JAX already started with fewer.

`load_case(path, name)` runs a corpus-style script (`tests/corpus/jax/*/source.py`: one
function returning a dict with kind, mesh, fn, in_specs, out_specs, args) with the names those
scripts use predefined (`case_namespace`), and `case_spmd_hlo(spec)` partitions it;
`neuron-jax SCRIPT.py:function` is the command line of the same.
"""

from __future__ import annotations

import glob
import os
import sys
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

Array = Any
DEFAULT_DEVICES = 8
_DUMP_OPTIONS = {
    "xla_dump_hlo_pass_re": ".*",
    "xla_dump_hlo_pipeline_re": "spmd-partitioner",
    "xla_dump_large_constants": True,
}


class JaxEntryError(Exception):
    """JAX is missing, has too few devices, or XLA dumped no partitioned module."""


def host_devices(count: int = DEFAULT_DEVICES) -> Any:
    """Import JAX with at least `count` host (CPU) devices; returns the `jax` module."""
    if "jax" not in sys.modules:
        flag = f"--xla_force_host_platform_device_count={count}"
        flags = os.environ.get("XLA_FLAGS", "")
        if "xla_force_host_platform_device_count" not in flags:
            os.environ["XLA_FLAGS"] = f"{flags} {flag}".strip()
        os.environ.setdefault("JAX_PLATFORMS", "cpu")
    try:
        import jax
    except ImportError as e:
        raise JaxEntryError(f"JAX is not installed (pip install 'neuron-cc[xla]'): {e}") from e
    if jax.device_count() < count:
        raise JaxEntryError(
            f"JAX runs with {jax.device_count()} devices, {count} are needed: import "
            "neuron_cc.jax (or call host_devices) before anything starts JAX's backend"
        )
    return jax


def spmd_hlo(fn: Callable[..., Any], *args: Any, devices: int = DEFAULT_DEVICES) -> str:
    """The HLO text of `jax.jit(fn)` for `args` right after XLA's SPMD partitioner."""
    jax = host_devices(devices)
    lowered = jax.jit(fn, keep_unused=True).lower(*args)
    with tempfile.TemporaryDirectory() as tmp:
        lowered.compile(compiler_options={"xla_dump_to": tmp, **_DUMP_OPTIONS})
        dumps = sorted(glob.glob(os.path.join(tmp, "*.spmd-partitioner.*.txt")))
        if not dumps:
            raise JaxEntryError("XLA dumped no spmd-partitioner module")
        return Path(dumps[-1]).read_text()


# --------------------------------------------------------------------------- corpus scripts


def rng_for(name: str) -> Any:
    import numpy as np

    return np.random.default_rng(zlib.crc32(name.encode()))


def f32(r: Any, *shape: int) -> Array:
    import numpy as np

    return r.standard_normal(shape).astype(np.float32)


def bf16(r: Any, *shape: int) -> Array:
    import ml_dtypes

    return f32(r, *shape).astype(ml_dtypes.bfloat16)


def i32(r: Any, lo: int, hi: int, *shape: int) -> Array:
    import numpy as np

    return r.integers(lo, hi, size=shape).astype(np.int32)


def case_namespace(devices: int = DEFAULT_DEVICES) -> dict[str, Any]:
    """The names corpus scripts use: jax, jnp, lax, np, ml_dtypes, P, Mesh, MESH_X (mesh [8],
    axis "x"), MESH_DT ([2, 4], axes "dp", "tp"), rng_for, f32, bf16, i32, and `case` (records
    the decorated function in `_cases`)."""
    jax = host_devices(devices)
    import jax.numpy as jnp
    import ml_dtypes
    import numpy as np
    from jax import lax
    from jax.sharding import Mesh
    from jax.sharding import PartitionSpec as P

    found: dict[str, Callable[[], dict[str, Any]]] = {}

    def case(fn: Callable[[], dict[str, Any]]) -> Callable[[], dict[str, Any]]:
        found[fn.__name__] = fn
        return fn

    ordered = np.array(sorted(jax.devices(), key=lambda d: d.id)[:devices])
    return {
        "__name__": "corpus_case",
        "case": case,
        "_cases": found,
        "jax": jax,
        "jnp": jnp,
        "lax": lax,
        "np": np,
        "ml_dtypes": ml_dtypes,
        "P": P,
        "Mesh": Mesh,
        "MESH_X": Mesh(ordered, ("x",)),
        "MESH_DT": Mesh(ordered.reshape(2, 4), ("dp", "tp")),
        "rng_for": rng_for,
        "f32": f32,
        "bf16": bf16,
        "i32": i32,
    }


def load_case(source: Path, name: str | None = None) -> tuple[str, dict[str, Any]]:
    """(function name, the spec dict it returns) of a corpus-style script; `name` picks the
    function (default: the only `@case` function, else an error)."""
    ns = case_namespace()
    exec(compile(source.read_text(), str(source), "exec"), ns)
    cases: dict[str, Callable[[], dict[str, Any]]] = ns["_cases"]
    if name is None:
        if len(cases) != 1:
            raise JaxEntryError(f"{source}: name the function: @case functions {sorted(cases)}")
        ((name, builder),) = cases.items()
    else:
        builder = ns.get(name)
        if not callable(builder):
            raise JaxEntryError(f"{source}: no function {name!r}")
    spec = builder()
    if not isinstance(spec, dict):
        raise JaxEntryError(f"{source}: {name}() must return a dict (kind, mesh, fn, args, ...)")
    return name, cast(dict[str, Any], spec)


def case_function(spec: dict[str, Any]) -> Callable[..., Any]:
    """The function a spec describes: shard_map of `fn` over `mesh`, or `fn` as it is."""
    jax = host_devices()
    kind = spec.get("kind", "jit_auto")
    if kind == "shard_map":
        return jax.shard_map(
            spec["fn"],
            mesh=spec["mesh"],
            in_specs=tuple(spec["in_specs"]),
            out_specs=spec["out_specs"],
            check_vma=bool(spec.get("check_vma", True)),
        )
    if kind == "jit_auto":
        return spec["fn"]
    raise JaxEntryError(f"unsupported kind {kind!r} (shard_map or jit_auto)")


def place_args(spec: dict[str, Any]) -> tuple[list[Any], list[Array]]:
    """(device-placed argument pytrees, host leaves); ENTRY parameter(I) is leaf I."""
    jax = host_devices()
    import numpy as np
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    mesh = spec["mesh"]
    placed: list[Any] = []
    host_args: list[Array] = []
    for a, s in zip(spec["args"], tuple(spec["in_specs"]), strict=True):
        leaves, treedef = jax.tree.flatten(jax.tree.map(np.asarray, a))
        specs = (
            [s] * len(leaves)
            if isinstance(s, P)
            else jax.tree.leaves(s, is_leaf=lambda v: isinstance(v, P))
        )
        host_args.extend(leaves)
        put = [
            jax.device_put(x, NamedSharding(mesh, p)) for x, p in zip(leaves, specs, strict=True)
        ]
        placed.append(jax.tree.unflatten(treedef, put))
    return placed, host_args


def case_spmd_hlo(spec: dict[str, Any]) -> str:
    """`spmd_hlo` of a corpus-style spec (its arguments placed by their in_specs)."""
    placed, _ = place_args(spec)
    return spmd_hlo(case_function(spec), *placed, devices=int(spec["mesh"].devices.size))


__all__ = [
    "JaxEntryError",
    "case_function",
    "case_namespace",
    "case_spmd_hlo",
    "host_devices",
    "load_case",
    "place_args",
    "spmd_hlo",
]
