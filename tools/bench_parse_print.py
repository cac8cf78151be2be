"""Benchmark: parse + print of a generated hlo module vs xDSL's generic form.

Generates an SPMD-style hlo module with about N ops (default 10,000: layers of dots, elementwise
ops, all-reduces and a while loop accumulating an all-reduced gradient), then measures, median of
`--repeat` runs in one process:

- `hlo pretty`:   parse our custom-format text + print it back (pretty);
- `hlo generic`:  parse the same module's generic form + print it generic;
- `arith generic`: a plain xDSL baseline, parse + print a generic module of N `arith.addf` ops.

The target of the foundation issue: `hlo pretty` is no slower than `hlo generic`.
Writes bench/parse_print.json and prints a Markdown table. A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from collections.abc import Callable
from io import StringIO
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from neuron_cc.testing.ir import neuron_context as make_context

TENSOR = "tensor<16x16xf32>"
REDUCER = (
    "{\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %c = hlo.add %a, %b : tensor<f32>\n    hlo.return %c : tensor<f32>\n  }"
)


def _layer(k: int, x: str) -> tuple[list[str], str]:
    """One transformer-ish layer: 12 ops (incl. an all_reduce with a 2-op region)."""
    t = TENSOR
    lines = [
        f"%w{k} = hlo.constant dense<1.000000e+00> : {t}",
        f"%d{k} = hlo.dot %{x}, %w{k} lhs_contracting = [1], rhs_contracting = [0]"
        f" : ({t}, {t}) -> {t}",
        f"%m{k} = hlo.multiply %d{k}, %{x} : {t}",
        f"%e{k} = hlo.exponential %m{k} : {t}",
        f"%s{k} = hlo.subtract %e{k}, %d{k} : {t}",
        f"%r{k} = hlo.all_reduce(%s{k}) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1"
        f" use_global_device_ids {REDUCER} : ({t}) -> {t}",
        f"%t{k} = hlo.transpose %r{k}, dims = [1, 0] : ({t}) -> {t}",
        f"%x{k} = hlo.add %t{k}, %{x} : {t}",
        f"%y{k} = hlo.maximum %x{k}, %m{k} : {t}",
        f"%z{k} = hlo.reshape %y{k} : ({t}) -> {t}",
    ]
    return lines, f"z{k}"


def generate_hlo(num_ops: int) -> str:
    """An hlo module with roughly `num_ops` operations."""
    body: list[str] = []
    x = "x"
    k = 0
    while len(body) + 2 * k < num_ops:  # each all_reduce region adds 2 ops
        lines, x = _layer(k, x)
        body.extend(lines)
        k += 1
    text = "\n    ".join(body)
    return (
        "builtin.module attributes {hlo.num_partitions = 8 : i64} {\n"
        f"  func.func @main(%x: {TENSOR}) -> {TENSOR} {{\n    {text}\n"
        f"    func.return %{x} : {TENSOR}\n  }}\n}}\n"
    )


def generate_arith(num_ops: int) -> str:
    lines = [f'%v{i + 1} = "arith.addf"(%v{i}, %v{i}) : (f32, f32) -> f32' for i in range(num_ops)]
    body = "\n    ".join(lines)
    return (
        '"builtin.module"() ({\n  "func.func"() <{sym_name = "f", function_type = (f32) -> f32}> ({\n'
        f"  ^bb0(%v0: f32):\n    {body}\n"
        f'    "func.return"(%v{num_ops}) : (f32) -> ()\n  }}) : () -> ()\n}}) : () -> ()\n'
    )


def parse(ctx: Context, text: str) -> ModuleOp:
    gc.disable()
    try:
        return Parser(ctx, text).parse_module()
    finally:
        gc.enable()


def render(module: ModuleOp, generic: bool) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue()


def count_ops(module: ModuleOp) -> int:
    return sum(1 for _ in module.walk()) - 1


def timed(step: Callable[[], object], repeat: int) -> float:
    samples: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        step()
        samples.append(time.perf_counter() - start)
        gc.collect()
    return statistics.median(samples)


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__)
    cli.add_argument("--ops", type=int, default=10_000)
    cli.add_argument("--repeat", type=int, default=3)
    cli.add_argument("--out", type=Path, default=Path("bench/parse_print.json"))
    args = cli.parse_args()

    ctx = make_context()
    pretty = generate_hlo(args.ops)
    module = parse(ctx, pretty)
    module.verify()
    generic = render(module, generic=True)
    arith = generate_arith(count_ops(module) - 2)
    results = {
        "ops": count_ops(module),
        "hlo pretty": timed(lambda: render(parse(ctx, pretty), generic=False), args.repeat),
        "hlo generic": timed(lambda: render(parse(ctx, generic), generic=True), args.repeat),
        "arith generic": timed(lambda: render(parse(ctx, arith), generic=True), args.repeat),
    }
    results["pretty / generic"] = results["hlo pretty"] / results["hlo generic"]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"| parse + print, {results['ops']} ops (median of {args.repeat}) | seconds |")
    print("|---|---|")
    for key in ("hlo pretty", "hlo generic", "arith generic"):
        print(f"| {key} | {results[key]:.3f} |")
    print(f"| ratio pretty / generic | {results['pretty / generic']:.2f} |")


if __name__ == "__main__":
    main()
