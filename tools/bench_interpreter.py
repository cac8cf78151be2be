"""Benchmark: the 8-device interpreter against XLA:CPU executing the same program.

For every corpus case with an `spmd.hlo` (or `--cases`), measures, median of `--repeat` runs in
one process: (a) `run_module` on 8 simulated devices, (b) XLA:CPU executing the same program
as 8 replicas (compile time excluded; the program is our export after the partitions ->
replicas rewrite of `neuron_cc.testing.xla_oracle`, exactly what the acceptance test runs). Prints a
Markdown table (largest case first) and writes bench/interpreter.json. Needs the `xla` extra.
A benchmark, never a test.
"""

from __future__ import annotations

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from neuron_cc.interpreter.runner import entry_function, inputs_from_npz, run_module  # noqa: E402
from neuron_cc.testing.xla_oracle import xla_case  # noqa: E402
from neuron_cc.testing.xla_worker import _Xla, numpy_dtype  # noqa: E402
from neuron_cc.translate.hlo_text.importer import import_hlo  # noqa: E402

CORPUS = ROOT / "tests" / "corpus" / "jax"


def median_time(step: Callable[[], object], repeat: int) -> float:
    samples: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        step()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def bench_case(xla: _Xla, case: str, repeat: int) -> dict[str, float | int | str]:
    path = CORPUS / case / "spmd.hlo"
    module = import_hlo(path.read_text(), str(path))
    with np.load(CORPUS / case / "inputs.npz") as data:
        arrays = {k: data[k] for k in data.files}
    inputs = inputs_from_npz(entry_function(module), arrays, 8)
    interp = median_time(lambda: run_module(module, inputs), repeat)
    job = xla_case(module, inputs, case, as_replicas=True, exact_rewrites=False)
    parsed = xla.hlo.hlo_module_from_text(job.text)
    executable = xla.compile(parsed, job.replicas, job.partitions, job.spmd)
    per_param = [
        np.asarray(a).astype(numpy_dtype(name))
        for a, name in zip(job.inputs, job.params, strict=True)
    ]
    xla.execute(executable, per_param)  # warm-up
    xla_time = median_time(lambda: xla.execute(executable, per_param), repeat)
    ops = sum(1 for _ in module.walk())
    return {
        "case": case,
        "ops": ops,
        "interpreter_s": interp,
        "xla_cpu_s": xla_time,
        "ratio": interp / xla_time,
    }


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__)
    cli.add_argument("--repeat", type=int, default=10)
    cli.add_argument("--cases", nargs="*")
    cli.add_argument("--out", type=Path, default=ROOT / "bench" / "interpreter.json")
    args = cli.parse_args()
    cases = args.cases or sorted(p.parent.name for p in CORPUS.glob("*/spmd.hlo"))
    xla = _Xla(8)
    rows = [bench_case(xla, c, args.repeat) for c in cases]
    rows.sort(key=lambda r: -int(r["ops"]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=2) + "\n")
    print(
        f"| case (8 devices, median of {args.repeat}) | ops | interpreter (ms) | XLA:CPU (ms) | ratio |"
    )
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['case']} | {r['ops']} | {1e3 * float(r['interpreter_s']):.2f} | "
            f"{1e3 * float(r['xla_cpu_s']):.3f} | {float(r['ratio']):.2f}x |"
        )


if __name__ == "__main__":
    main()
