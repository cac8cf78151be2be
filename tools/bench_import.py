"""Benchmark: importing XLA HLO text vs xDSL parsing the equivalent generic-form .mlir.

Generates an SPMD training step of `--ops` HLO instructions (tools/gen_model.py, default
100,000), imports it once and prints the module in MLIR generic form to a temporary file, then
measures (wall clock, median of `--repeat` runs in this process):

- (a) `import_hlo(text)`: HLO text -> hlo-dialect module (the importer pauses the cyclic GC);
- (b) `xdsl-opt FILE.mlir -o /dev/null` as a subprocess, end to end: interpreter start and
      dialect loading (~0.2-0.5 s, reported separately as "xdsl-opt start-up"), parse, verify
      and pretty printing to /dev/null. This is what "xdsl-opt parsing the generic .mlir" costs
      a user, but it is not parse-only;
- (c) `Parser(ctx, generic_text).parse_module()` in this process with the GC paused like (a):
      the fair parse-only figure.

The target (foundation issue): (c) / (a) >= 3 at 100,000 instructions ((b) / (a) is reported
too). Prints a Markdown table and writes bench/import.json. `--profile N` also runs (a) once
under cProfile and prints the N top functions by own time. A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from neuron_cc.testing.ir import neuron_context as make_context
from neuron_cc.translate.hlo_text.importer import import_hlo

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_model import count_instructions, generate_hlo

XDSL_OPT = Path(sys.executable).parent / "xdsl-opt"


def parse_generic(ctx: Context, text: str) -> ModuleOp:
    gc.disable()
    try:
        return Parser(ctx, text).parse_module()
    finally:
        gc.enable()


def render_generic(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    out.write("\n")
    return out.getvalue()


def run_xdsl_opt(path: Path) -> None:
    done = subprocess.run(
        [str(XDSL_OPT), str(path), "-o", os.devnull], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"xdsl-opt failed on {path}:\n{done.stderr[-2000:]}")


def timed(step: Callable[[], object], repeat: int) -> float:
    samples: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        step()
        samples.append(time.perf_counter() - start)
        gc.collect()
    return statistics.median(samples)


def profile_import(text: str, top: int) -> str:
    profiler = cProfile.Profile()
    profiler.runcall(import_hlo, text)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def measure(text: str, repeat: int, workdir: Path) -> dict[str, float | int]:
    module = import_hlo(text)
    module.verify()
    generic = render_generic(module)
    mlir_ops = sum(1 for _ in module.walk()) - 1
    del module
    gc.collect()
    path = workdir / "model.mlir"
    path.write_text(generic)
    empty = workdir / "empty.mlir"
    empty.write_text("builtin.module {\n}\n")
    ctx = make_context()
    results: dict[str, float | int] = {
        "hlo instructions": count_instructions(text),
        "mlir ops": mlir_ops,
        "hlo bytes": len(text),
        "generic mlir bytes": len(generic),
        "(a) import_hlo": timed(lambda: import_hlo(text), repeat),
        "(b) xdsl-opt end to end": timed(lambda: run_xdsl_opt(path), repeat),
        "(c) xDSL parse_module (generic)": timed(lambda: parse_generic(ctx, generic), repeat),
        "xdsl-opt start-up (empty module)": timed(lambda: run_xdsl_opt(empty), repeat),
    }
    a = results["(a) import_hlo"]
    results["(b) / (a)"] = results["(b) xdsl-opt end to end"] / a
    results["(c) / (a)"] = results["(c) xDSL parse_module (generic)"] / a
    return results


def table(results: dict[str, float | int], repeat: int) -> str:
    rows = [
        f"| {results['hlo instructions']} HLO instructions, {results['mlir ops']} MLIR ops "
        f"(median of {repeat}) | value |",
        "|---|---|",
    ]
    for key, value in results.items():
        if isinstance(value, float):
            unit = "x" if "/" in key else " s"
            rows.append(f"| {key} | {value:.3f}{unit} |")
        else:
            rows.append(f"| {key} | {value} |")
    return "\n".join(rows)


def main() -> None:
    cli = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    cli.add_argument("--ops", type=int, default=100_000)
    cli.add_argument("--seed", type=int, default=0)
    cli.add_argument("--repeat", type=int, default=3)
    cli.add_argument("--out", type=Path, default=Path("bench/import.json"))
    cli.add_argument("--profile", type=int, default=0, metavar="N", help="cProfile top N of (a)")
    args = cli.parse_args()

    text = generate_hlo(args.ops, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        results = measure(text, args.repeat, Path(tmp))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    record = {"ops": args.ops, "seed": args.seed, "repeat": args.repeat, **results}
    args.out.write_text(json.dumps(record, indent=2) + "\n")
    print(table(results, args.repeat))
    if args.profile:
        print()
        print(profile_import(text, args.profile))


if __name__ == "__main__":
    main()
