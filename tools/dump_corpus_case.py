"""Dump one JAX corpus case (tests/corpus/jax/<case>/) from its source.py.

    .venv/bin/python tools/dump_corpus_case.py tests/corpus/jax/<case>/source.py [--out DIR]

The recipe of the corpus README, with 8 host devices:

- `pre.hlo`: `jax.jit(f, keep_unused=True).lower(*args)`, `compiler_ir("hlo").as_hlo_text(
  print_large_constants=True)` (global shapes, shard_map bodies in a `call`);
- `spmd.hlo`: the last `*.spmd-partitioner.*.txt` (sorted by name) XLA dumps while compiling with
  `xla_dump_to`, `xla_dump_hlo_pass_re=.*`, `xla_dump_hlo_pipeline_re=spmd-partitioner`,
  `xla_dump_large_constants`;
- `opt.hlo`: `compiled.as_text()` (re-printed with large constants if it elides any as `{...}`);
- `inputs.npz`: `argI`/`argI_devP` (global input I and partition P's shard) and `outJ`/`outJ_devP`
  from running that compiled executable; shards in device-id order, bf16 stored as float32;
- `case.json`: mesh, specs, counts, dtypes, shapes and the case's `expect`.

XLA_FLAGS gets `--xla_force_host_platform_device_count=8 --xla_allow_excess_precision=false`
before jax is imported, so the oracle rounds to bf16 wherever the HLO asks for it.

source.py holds one function decorated with `@case` that returns a dict: kind ("shard_map" or
"jit_auto"), mesh, fn, in_specs, out_specs, args, description, expect (and optionally
check_vma). It runs with these names predefined (`neuron_cc.jax.case_namespace`): jax, jnp, lax, np, ml_dtypes, P, Mesh,
MESH_X (mesh [8], axis "x"), MESH_DT (mesh [2, 4], axes "dp", "tp"), rng_for(name) (a numpy
Generator seeded from the case name), f32(r, *shape), bf16(r, *shape), i32(r, lo, hi, *shape).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

DEVICES = 8
FLAGS = (f"--xla_force_host_platform_device_count={DEVICES}", "--xla_allow_excess_precision=false")
os.environ["XLA_FLAGS"] = " ".join([os.environ.get("XLA_FLAGS", ""), *FLAGS]).strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jaxlib  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from jax.sharding import Mesh  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

from neuron_cc.jax import case_function, load_case, place_args  # noqa: E402

Array = np.ndarray[Any, Any]

HLO_DTYPES = {
    "float32": "f32",
    "bfloat16": "bf16",
    "float16": "f16",
    "float64": "f64",
    "int32": "s32",
    "int64": "s64",
    "int8": "s8",
    "uint32": "u32",
    "uint8": "u8",
    "bool": "pred",
}


def _spec_json(spec: Any) -> Any:
    if isinstance(spec, P):
        return [list(s) if isinstance(s, tuple) else s for s in spec]
    if isinstance(spec, tuple | list):
        return [_spec_json(s) for s in spec]
    if isinstance(spec, dict):
        return {str(k): _spec_json(v) for k, v in spec.items()}
    raise TypeError(f"not a PartitionSpec pytree: {spec!r}")


def _stored(a: Any) -> Array:
    """bf16 (and other non-numpy float types) as float32, exactly; everything else as is."""
    arr = np.asarray(a)
    if arr.dtype == ml_dtypes.bfloat16 or arr.dtype == np.float16:
        return arr.astype(np.float32)
    return arr


def _shards(a: jax.Array) -> list[Array]:
    shards = sorted(a.addressable_shards, key=lambda s: s.device.id)
    assert [s.device.id for s in shards] == list(range(DEVICES))
    return [_stored(s.data) for s in shards]


def _split_top(text: str) -> list[str]:
    """Split a comma list at bracket depth 0 (shapes contain commas in [], {} and ())."""
    parts: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def _entry_layout(hlo: str) -> tuple[list[str], str]:
    """(parameter shapes, result shape) of the header's entry_computation_layout."""
    header = hlo.split("\n", 1)[0]
    start = header.index("entry_computation_layout={") + len("entry_computation_layout={")
    depth, i = 1, start
    while depth:
        depth += {"{": 1, "}": -1}.get(header[i], 0)
        i += 1
    layout = header[start : i - 1]
    depth = 0
    for j, ch in enumerate(layout):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            params, result = layout[1:j], layout[j + 1 :]
            assert result.startswith("->"), layout
            return _split_top(params), result[2:]
    raise ValueError(f"bad entry_computation_layout: {layout}")


def _header_int(hlo: str, key: str, default: int) -> int:
    match = re.search(rf"\b{key}=(\d+)", hlo.split("\n", 1)[0])
    return int(match.group(1)) if match else default


def _array_entry(
    name: str, role: str, dtype: Any, global_shape: tuple[int, ...], shard: Array
) -> dict[str, Any]:
    dt = np.dtype(dtype)
    return {
        "name": name,
        "role": role,
        "hlo_dtype": HLO_DTYPES[dt.name],
        "stored_dtype": _stored(np.zeros((), dt)).dtype.name,
        "global_shape": list(global_shape),
        "shard_shape": list(shard.shape),
    }


def _texts(lowered: Any) -> tuple[dict[str, str], Any, dict[str, str]]:
    """({pre, spmd, opt} texts, the compiled executable, provenance notes)."""
    pre: str = lowered.compiler_ir("hlo").as_hlo_text(print_large_constants=True)
    with tempfile.TemporaryDirectory() as tmp:
        compiled = lowered.compile(
            compiler_options={
                "xla_dump_to": tmp,
                "xla_dump_hlo_pass_re": ".*",
                "xla_dump_hlo_pipeline_re": "spmd-partitioner",
                "xla_dump_large_constants": True,
            }
        )
        dumps = sorted(glob.glob(os.path.join(tmp, "*.spmd-partitioner.*.txt")))
        if not dumps:
            raise SystemExit("XLA dumped no spmd-partitioner file")
        spmd = Path(dumps[-1]).read_text()
    opt: str = compiled.as_text()
    opt_source = "compiled.as_text() verbatim"
    if "{...}" in opt:
        options = jax.lib.xla_client._xla.HloPrintOptions()  # pyright: ignore
        options.print_large_constants = True
        opt = compiled.runtime_executable().hlo_modules()[0].to_string(options)
        opt_source = "runtime_executable().hlo_modules()[0] with print_large_constants"
    notes = {"spmd_hlo_dump_file": os.path.basename(dumps[-1]), "opt_hlo_source": opt_source}
    return {"pre": pre, "spmd": spmd, "opt": opt}, compiled, notes


def _arrays(
    host_args: list[Array], args: list[Any], outputs: list[Any]
) -> tuple[dict[str, Array], list[dict[str, Any]]]:
    """(inputs.npz contents, case.json `arrays` entries)."""
    arrays: dict[str, Array] = {}
    entries: list[dict[str, Any]] = []
    for role, prefix, values in (("input", "arg", args), ("output", "out", outputs)):
        for i, v in enumerate(values):
            host = host_args[i] if role == "input" else np.asarray(v)
            arrays[f"{prefix}{i}"] = _stored(host)
            shards = _shards(v)
            for d, shard in enumerate(shards):
                arrays[f"{prefix}{i}_dev{d}"] = shard
            entries.append(_array_entry(f"{prefix}{i}", role, host.dtype, host.shape, shards[0]))
    return arrays, entries


def dump(source: Path, out: Path) -> dict[str, Any]:
    name, spec = load_case(source)
    mesh: Mesh = spec["mesh"]
    placed, host_args = place_args(spec)
    lowered = jax.jit(case_function(spec), keep_unused=True).lower(*placed)
    texts, compiled, notes = _texts(lowered)
    outputs = jax.tree.leaves(compiled(*placed))
    arrays, entries = _arrays(host_args, jax.tree.leaves(placed), outputs)
    spmd_params, spmd_result = _entry_layout(texts["spmd"])
    pre_params, pre_result = _entry_layout(texts["pre"])
    meta: dict[str, Any] = {
        "name": name,
        "kind": spec["kind"],
        "description": spec["description"],
        "expect": spec["expect"],
        "jax_version": jax.__version__,
        "jaxlib_version": jaxlib.__version__,  # pyright: ignore[reportPrivateImportUsage]
        "generator": "tools/dump_corpus_case.py",
        "xla_flags": " ".join(FLAGS),
        "mesh_shape": [int(n) for n in mesh.devices.shape],
        "axis_names": list(mesh.axis_names),
        "in_specs": _spec_json(tuple(spec["in_specs"])),
        "out_specs": _spec_json(spec["out_specs"]),
        "check_vma": bool(spec.get("check_vma", True)),
        **notes,
        "oracle_source": "compiled executable of this very module (jitted function)",
        "files": ["pre.hlo", "spmd.hlo", "opt.hlo"],
        "num_partitions": _header_int(texts["spmd"], "num_partitions", 1),
        "num_replicas": _header_int(texts["spmd"], "replica_count", 1),
        "partition_to_device": [int(d.id) for d in mesh.devices.flat],
        "num_outputs": len(outputs),
        "oracle": True,
        "num_inputs": len(host_args),
        "dtypes": {
            "inputs": [e["hlo_dtype"] for e in entries if e["role"] == "input"],
            "outputs": [e["hlo_dtype"] for e in entries if e["role"] == "output"],
        },
        "arrays": entries,
        "entry_param_shapes_per_partition": spmd_params,
        "entry_result_shape_per_partition": spmd_result,
        "entry_param_shapes_pre": pre_params,
        "entry_result_shape_pre": pre_result,
    }
    out.mkdir(parents=True, exist_ok=True)
    for key, text in texts.items():
        (out / f"{key}.hlo").write_text(text)
    np.savez(out / "inputs.npz", **arrays)  # pyright: ignore[reportArgumentType]
    (out / "case.json").write_text(json.dumps(meta, indent=2) + "\n")
    return meta


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Dump one JAX corpus case from its source.py.")
    parser.add_argument("source", type=Path, help="the case's source.py")
    parser.add_argument("--out", type=Path, help="output directory (default: source's folder)")
    ns = parser.parse_args(argv)
    source: Path = ns.source
    out: Path = ns.out if ns.out is not None else source.resolve().parent
    meta = dump(source, out)
    print(f"{meta['name']}: {meta['num_inputs']} inputs, {meta['num_outputs']} outputs -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
