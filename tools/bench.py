"""The issue-9 benchmark harness: every step of neuron-cc at 1k, 10k and 100k HLO instructions.

For each size, `tools/gen_model.py` generates an SPMD training step (8 partitions) and this script
measures, in ONE process (wall clock, median of `--repeat` runs, `--repeat-large` at >= 100k,
and up to 7 runs of steps that take < 2 s in all):

- HLO import (`import_hlo`, which pauses the cyclic GC) and xDSL's parse of the equivalent
  generic-form .mlir (`Parser(ctx, text).parse_module()` with the GC paused, as neuron-opt does);
- every neuron pass alone, on a fresh import of the model (GC enabled, as in neuron-opt), the
  default pipeline included; `legalize-cpu-cc-ops` is skipped (it needs num_partitions == 1);
- HLO export, .mlir printing (pretty and generic), convert-hlo-to-bir + BIR JSON;
- the interpreter on 8 devices (random inputs; skipped at a size whose extrapolated run time
  exceeds `--interp-budget` seconds);
- baselines: a bare `module.walk()`, xDSL's `canonicalize` (skipped past `--canon-budget`), and
  `mlir-opt` parse + print of the same module's generic form (and of a same-op-count arith
  chain) when it is on PATH;
- subprocesses at the largest size: `neuron-opt model.hlo -p neuron-default-pipeline --emit hlo`
  and `mlir-opt` parse + print of the same module (generic), side by side in `--e2e-repeat`
  interleaved rounds (issue 20's target: neuron-opt <= 8x mlir-opt, the median of the rounds'
  ratios), and `xdsl-opt model_generic.mlir -o /dev/null` once; wall time and peak RSS
  (/usr/bin/time -f, or getrusage(RUSAGE_CHILDREN) when /usr/bin/time is missing);
- output quality on the sizes <= 10k: the interpreter's collective statistics (launches per
  kind, alpha-beta estimate as `neuron-run --stats`) before and after the default pipeline.

Then it evaluates the issue's targets (ratios within this run), marks each PASS/FAIL, profiles
each failing step with cProfile (top `--profile-top` functions, bench/profiles.txt), and writes
bench/results.json, bench/results.md (also printed) and bench/scaling.png (only if matplotlib
imports). A benchmark, never a test.

    python tools/bench.py [--sizes 1000,10000,100000] [--repeat 3] [--repeat-large 3]
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import gc
import glob
import io
import json
import os
import platform
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from neuron_cc.interpreter.equivalence import random_inputs
from neuron_cc.interpreter.runner import RunResult, run_module
from neuron_cc.testing.ir import neuron_context as make_context
from neuron_cc.tools.progress import bar
from neuron_cc.transforms.default_pipeline import NeuronDefaultPipelinePass
from neuron_cc.translate.bir_json import bir_to_json
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_report import evaluate, markdown, plot
from bench_timing import (
    BIN,
    COLLECTIVES,
    COST_MODEL,
    GC_CLOCK,
    PIPELINE,
    SKIPPED_PASSES,
    Json,
    Timing,
    fmt_s,
    make_pass,
    parse_generic,
    pass_names,
    render,
    size_label,
    timed,
    walk_count,
)
from gen_model import count_instructions, generate_hlo

# ----------------------------------------------------------------------------- per size


@dataclass
class SizeBench:
    """Everything measured at one size."""

    ops: int
    repeat: int
    text: str
    ctx: Context
    args: argparse.Namespace
    workdir: Path
    prev: dict[str, Timing] | None
    prev_ops: int | None
    steps: dict[str, Timing] = field(default_factory=lambda: {})
    info: Json = field(default_factory=lambda: {})

    def fresh(self) -> ModuleOp:
        return import_hlo(self.text, "<generated>")

    def log(self, message: str) -> None:
        print(f"  [{size_label(self.ops)}] {message}", file=sys.stderr, flush=True)

    def record(self, name: str, timing: Timing) -> None:
        self.steps[name] = timing
        extra = f" ({timing.note})" if timing.note else ""
        self.log(f"{name}: {fmt_s(timing.median)} x{len(timing.samples)}{extra}")

    def extrapolate(self, step: str) -> float | None:
        """This size's expected time for `step` from the previous size (linear)."""
        if self.prev is None or self.prev_ops is None or step not in self.prev:
            return None
        median = self.prev[step].median
        return None if median is None else median * self.ops / self.prev_ops

    def run(self) -> None:
        self.frontends()
        self.passes()
        self.backends()
        self.interpreter()
        self.baselines()

    def frontends(self) -> None:
        self.record("HLO import", timed(self.fresh, self.repeat))
        module = self.fresh()
        module.verify()
        generic = render(module, generic=True)
        self.info.update(
            hlo_instructions=count_instructions(self.text),
            mlir_ops=walk_count(module) - 1,
            hlo_bytes=len(self.text),
            generic_mlir_bytes=len(generic),
        )
        (self.workdir / "model.hlo").write_text(self.text)
        (self.workdir / "model_generic.mlir").write_text(generic)
        del module
        self.record(
            "xDSL parse (generic .mlir)",
            timed(lambda: parse_generic(self.ctx, generic), self.repeat),
        )

    def pass_step(self, name: str) -> None:
        box: list[ModuleOp] = []

        def setup() -> None:
            box.clear()
            box.append(self.fresh())

        def step() -> None:
            make_pass(name).apply(self.ctx, box[0])

        timing = timed(step, self.repeat, setup)
        box.clear()
        self.record(f"pass {name}", timing)

    def passes(self) -> None:
        for name in pass_names():
            if name in SKIPPED_PASSES:
                self.steps[f"pass {name}"] = Timing(note=f"skipped: {SKIPPED_PASSES[name]}")
                continue
            self.pass_step(name)

    def backends(self) -> None:
        module = self.fresh()
        self.record("HLO export", timed(lambda: export_hlo(module), self.repeat))
        self.record("print .mlir (pretty)", timed(lambda: render(module, False), self.repeat))
        self.record("print .mlir (generic)", timed(lambda: render(module, True), self.repeat))
        self.record("walk (all ops)", timed(lambda: walk_count(module), self.repeat))
        bir_pass = make_pass("convert-hlo-to-bir")
        bir_pass.apply(self.ctx, module)
        self.record("BIR JSON", timed(lambda: bir_to_json(module), self.repeat))

    def interpreter(self) -> None:
        name = "interpreter (8 devices)"
        guess = self.extrapolate(name)
        if guess is not None and guess > self.args.interp_budget:
            self.steps[name] = Timing(
                note=f"skipped: ~{guess:.0f} s extrapolated from {size_label(self.prev_ops or 0)}"
                f" exceeds the {self.args.interp_budget:.0f} s budget"
            )
            return
        module = self.fresh()
        inputs = random_inputs(module, 0)
        repeat = (
            self.repeat if guess is None or guess * self.repeat < self.args.interp_budget else 1
        )
        timing = timed(lambda: run_module(module, inputs), repeat)
        if repeat < self.repeat:
            timing.note = f"{repeat} run (time budget)"
        self.record(name, timing)

    def baselines(self) -> None:
        name = "xDSL canonicalize"
        guess = self.extrapolate(name)
        if guess is not None and guess * 1.5 > self.args.canon_budget:
            self.steps[name] = Timing(note=f"skipped: ~{guess:.0f} s extrapolated")
        else:
            from xdsl.transforms.canonicalize import CanonicalizePass

            box: list[ModuleOp] = []

            def setup() -> None:
                box.clear()
                box.append(self.fresh())

            repeat = (
                1
                if guess is not None and guess * self.repeat > self.args.canon_budget
                else self.repeat
            )
            timing = timed(lambda: CanonicalizePass().apply(self.ctx, box[0]), repeat, setup)
            box.clear()
            if repeat < self.repeat:
                timing.note = f"{repeat} run (time budget)"
            self.record(name, timing)
        self.mlir_opt()

    def mlir_opt(self) -> None:
        """mlir-opt parsing + printing the SAME module in generic form, and an arith proxy.

        The baseline of the end-to-end target is the model's own generic .mlir, read by
        `mlir-opt --allow-unregistered-dialect` (our dialects are unknown to it) and printed in
        generic form. MLIR's lexer of dialect attribute bodies treats the `<` of XLA's iota
        syntax `[8]<=[8]` as an opening bracket, so `<=` is rewritten to `~` in that copy (a
        one-byte change inside attribute bodies of a few ops; the op count and the rest of the
        text are unchanged). For reference, it also times a generic `arith.addf` chain of the
        same op count (no tensor types, no attributes: a lower bound for mlir-opt). Debian
        installs the tool as /usr/lib/llvm-<N>/bin/mlir-opt (some as `mlir-opt-<N>`);
        `make bench-tools` installs it where apt can.
        """
        tool = mlir_opt_tool()
        same = "mlir-opt parse+print (same module, generic)"
        proxy = "mlir-opt parse+print (arith chain, same op count)"
        if tool is None:
            self.steps[same] = Timing(note="not installed")
            self.steps[proxy] = Timing(note="not installed")
            return
        from bench_parse_print import generate_arith

        model = mlir_compatible_copy(self.workdir)
        arith = self.workdir / "arith_same_op_count.mlir"
        arith.write_text(generate_arith(max(self.ops - 2, 1)))
        for name, path, extra in (
            (same, model, ["--allow-unregistered-dialect"]),
            (proxy, arith, []),
        ):
            cmd = [tool, str(path), *extra, "--mlir-print-op-generic", "-o", os.devnull]

            def step(cmd: list[str] = cmd) -> None:
                subprocess.run(cmd, check=True, capture_output=True)

            try:
                self.record(name, timed(step, self.repeat))
            except subprocess.CalledProcessError as e:
                self.steps[name] = Timing(note=f"failed: {e.stderr.decode()[-200:]}")


# ----------------------------------------------------------------------------- subprocesses


def run_measured(cmd: list[str]) -> tuple[float, int]:
    """(wall seconds, peak RSS in KiB) of one subprocess run."""
    time_tool = Path("/usr/bin/time")
    if time_tool.exists():
        with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
            start = time.perf_counter()
            subprocess.run(
                [str(time_tool), "-f", "%M", "-o", report.name, *cmd],
                check=True,
                capture_output=True,
            )
            wall = time.perf_counter() - start
            return wall, int(Path(report.name).read_text().split()[-1])
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    wall = time.perf_counter() - start
    # ru_maxrss of children is the max over all waited-for children: only exact if it grew.
    return wall, max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before)


def mlir_opt_tool() -> str | None:
    """Debian installs mlir-opt as /usr/lib/llvm-<N>/bin/mlir-opt (some as `mlir-opt-<N>`)."""
    installed = [*glob.glob("/usr/bin/mlir-opt-*"), *glob.glob("/usr/lib/llvm-*/bin/mlir-opt")]
    return shutil.which("mlir-opt") or next(iter(sorted(installed, reverse=True)), None)


def mlir_compatible_copy(workdir: Path) -> Path:
    """The model's generic .mlir as mlir-opt reads it: `<=` written `~` (see `Bench.mlir_opt`)."""
    model = workdir / "model_mlir_compatible.mlir"
    model.write_text((workdir / "model_generic.mlir").read_text().replace("<=", "~"))
    return model


def end_to_end(workdir: Path, repeat: int) -> Json:
    """neuron-opt on the HLO model and mlir-opt parse + print of its generic form, side by side
    (`repeat` interleaved rounds: each round runs both, so a slow spell of the machine slows
    both; the ratio is the median of the rounds' ratios), and xdsl-opt once for its memory."""
    hlo = workdir / "model.hlo"
    generic = workdir / "model_generic.mlir"
    commands = {
        "neuron-opt": [
            str(BIN / "neuron-opt"),
            str(hlo),
            "-p",
            PIPELINE,
            "--emit",
            "hlo",
            "-o",
            str(workdir / "out.hlo"),
        ],
        "xdsl-opt": [str(BIN / "xdsl-opt"), str(generic), "-o", os.devnull],
    }
    rounds = {"neuron-opt": repeat, "xdsl-opt": 1}
    tool = mlir_opt_tool()
    if tool is not None:
        commands["mlir-opt"] = [
            tool,
            str(mlir_compatible_copy(workdir)),
            "--allow-unregistered-dialect",
            "--mlir-print-op-generic",
            "-o",
            os.devnull,
        ]
        rounds["mlir-opt"] = repeat
    samples: dict[str, list[tuple[float, int]]] = {name: [] for name in commands}
    for round_ in range(max(rounds.values())):
        for name, cmd in commands.items():
            if round_ < rounds[name]:
                samples[name].append(run_measured(cmd))
    results: Json = {}
    for name, cmd in commands.items():
        walls = [wall for wall, _ in samples[name]]
        peak = max(p for _, p in samples[name])
        results[name] = {
            "command": " ".join(
                [
                    Path(cmd[0]).name,
                    *(Path(c).name if c.startswith(str(workdir)) else c for c in cmd[1:]),
                ]
            ),
            "wall_s": statistics.median(walls),
            "wall_samples_s": walls,
            "peak_rss_kib": peak,
        }
        print(
            f"  [e2e] {name}: {statistics.median(walls):.2f} s, peak RSS {peak / 1024:.0f} MiB",
            file=sys.stderr,
            flush=True,
        )
    if "mlir-opt" in results:
        ratios = [
            n / m
            for n, m in zip(
                results["neuron-opt"]["wall_samples_s"],
                results["mlir-opt"]["wall_samples_s"],
                strict=True,
            )
        ]
        results["ratio_to_mlir_opt"] = {"median": statistics.median(ratios), "rounds": ratios}
    return results


# ----------------------------------------------------------------------------- quality


def static_collectives(module: ModuleOp) -> Json:
    inside = 0
    total = 0
    for op in module.walk():
        if op.name not in COLLECTIVES:
            continue
        total += 1
        parent = op.parent_op()
        while parent is not None and parent.name != "hlo.while":
            parent = parent.parent_op()
        if parent is not None:
            inside += 1
    return {"collectives": total, "inside_while": inside}


def stats_json(result: RunResult) -> Json:
    kinds: Json = {}
    total_us = 0.0
    for kind in sorted(result.state.stats):
        record = result.state.stats[kind]
        est = COST_MODEL.record_us(record)
        total_us += est
        kinds[kind] = {
            "launches": record.launches,
            "bytes_per_device": record.bytes_per_device,
            "est_us": est,
        }
    launches = sum(k["launches"] for k in kinds.values())
    return {"kinds": kinds, "launches": launches, "est_us": total_us}


def quality(text: str, ctx: Context) -> Json:
    module = import_hlo(text, "<generated>")
    inputs = random_inputs(module, 0)
    before = stats_json(run_module(module, inputs))
    static_before = static_collectives(module)
    moved = module.clone()
    NeuronDefaultPipelinePass(combine=False).apply(ctx, moved)
    motion = stats_json(run_module(moved, inputs))
    make_pass(PIPELINE).apply(ctx, module)
    module.verify()
    after = stats_json(run_module(module, inputs))
    static_after = static_collectives(module)
    return {
        "before": {**before, **static_before},
        "motion": motion,
        "after": {**after, **static_after},
        "alpha_us": COST_MODEL.alpha_us,
        "bandwidth_gbps": COST_MODEL.bandwidth_gbps,
    }


# ----------------------------------------------------------------------------- profiles


def profile_step(size: int, step: str, text: str, ctx: Context, top: int) -> str:
    """cProfile of one run of `step`, set up like `timed` (fresh import, then gc.collect())."""
    profiler = cProfile.Profile()
    module = import_hlo(text, "<generated>")
    gc.collect()
    GC_CLOCK.reset()
    if step.startswith("pass "):
        profiler.runcall(make_pass(step.removeprefix("pass ")).apply, ctx, module)
    elif step == "HLO import":
        profiler.runcall(import_hlo, text, "<generated>")
    elif step == "HLO export":
        profiler.runcall(export_hlo, module)
    else:
        return f"(no profile for {step})"
    gc_note = (
        f"cyclic GC during the profiled run: {GC_CLOCK.seconds:.2f} s, {GC_CLOCK.full} full "
        "collection(s), charged by cProfile to whichever function was running"
    )
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    body = out.getvalue()
    body = body[body.find("   ncalls") :] if "   ncalls" in body else body
    total = sum(v[2] for v in stats.stats.values())  # pyright: ignore[reportAttributeAccessIssue]
    return (
        f"### {step} at {size_label(size)} (cProfile, top {top} by own time; total {total:.2f} s)"
        f"\n\n{gc_note}.\n\n```\n{body.rstrip()}\n```\n"
    )


# ----------------------------------------------------------------------------- main


def warm_up(ctx: Context) -> None:
    """Import every pass module (lazy registry) and run each once on a tiny model."""
    text = generate_hlo(300, 0)
    for name in pass_names():
        if name not in SKIPPED_PASSES:
            make_pass(name).apply(ctx, import_hlo(text, "<warm-up>"))
    module = import_hlo(text, "<warm-up>")
    export_hlo(module)
    run_module(module, random_inputs(module, 0))


def arguments() -> argparse.Namespace:
    cli = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    cli.add_argument("--sizes", default="1000,10000,100000")
    cli.add_argument("--seed", type=int, default=0)
    cli.add_argument("--repeat", type=int, default=3, help="runs per step (median)")
    cli.add_argument("--repeat-large", type=int, default=3, help="runs per step at >= 100k")
    cli.add_argument(
        "--e2e-repeat", type=int, default=3, help="side-by-side rounds of neuron-opt / mlir-opt"
    )
    cli.add_argument("--interp-budget", type=float, default=120.0, help="seconds")
    cli.add_argument("--canon-budget", type=float, default=180.0, help="seconds")
    cli.add_argument("--profile-top", type=int, default=15, help="0: no profiles")
    cli.add_argument("--out", type=Path, default=Path("bench"))
    return cli.parse_args()


def main() -> None:
    args = arguments()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    ctx = make_context()
    results: dict[int, dict[str, Timing]] = {}
    texts: dict[int, str] = {}
    record: Json = {
        "date": datetime.date.today().isoformat(),
        "command": "python tools/bench.py " + " ".join(sys.argv[1:]),
        "machine": f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {platform.machine()}",
        "repeat": args.repeat,
        "repeat_large": args.repeat_large,
        "sizes": {},
    }
    warm_up(ctx)
    started = time.perf_counter()
    e2e: Json | None = None
    qual: Json = {}
    with tempfile.TemporaryDirectory() as tmp:
        prev: int | None = None
        for size in bar(sizes, "bench sizes"):
            workdir = Path(tmp) / str(size)
            workdir.mkdir()
            text = generate_hlo(size, args.seed)
            texts[size] = text
            repeat = args.repeat_large if size >= 100_000 else args.repeat
            bench = SizeBench(
                size,
                repeat,
                text,
                ctx,
                args,
                workdir,
                results.get(prev) if prev is not None else None,
                prev,
            )
            bench.run()
            results[size] = bench.steps
            record["sizes"][str(size)] = {**bench.info, "repeat": repeat}
            if size <= 10_000:
                qual[size_label(size)] = quality(text, ctx)
                print(f"  [{size_label(size)}] quality done", file=sys.stderr, flush=True)
            if size == sizes[-1]:
                e2e = end_to_end(workdir, args.e2e_repeat)
            prev = size
            gc.collect()
    record["steps"] = {str(s): {name: t.as_json() for name, t in results[s].items()} for s in sizes}
    record["end_to_end"] = e2e
    record["quality"] = qual
    targets = evaluate(results, sizes, e2e, qual)
    record["targets"] = [
        {"name": t.name, "figure": t.figure, "verdict": t.verdict, "detail": t.detail}
        for t in targets
    ]
    profiles: list[str] = []
    if args.profile_top:
        seen: set[tuple[int, str]] = set()
        for t in targets:
            if t.ok is False and t.profile_step is not None and t.profile_step not in seen:
                seen.add(t.profile_step)
                size, step = t.profile_step
                print(f"  profiling {step} at {size_label(size)}", file=sys.stderr, flush=True)
                profiles.append(profile_step(size, step, texts[size], ctx, args.profile_top))
    record["bench_seconds"] = time.perf_counter() - started
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(record, indent=2) + "\n")
    md = markdown(record, results, sizes, targets)
    md += f"\nTotal benchmark time: {record['bench_seconds'] / 60:.1f} min.\n"
    profile_file = args.out / "profiles.txt"
    profile_file.unlink(missing_ok=True)
    if profiles:
        md += "\n## Profiles of failing steps\n\n" + "\n".join(profiles)
        profile_file.write_text("\n".join(profiles))
    (args.out / "results.md").write_text(md)
    plot(results, sizes, args.out / "scaling.png")
    print(md)


if __name__ == "__main__":
    main()
