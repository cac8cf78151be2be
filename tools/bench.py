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
  and `xdsl-opt model_generic.mlir -o /dev/null`, wall time and peak RSS (/usr/bin/time -f, or
  getrusage(RUSAGE_CHILDREN) when /usr/bin/time is missing);
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.printer import Printer

from neuron_cc.interpreter.runner import RunResult, run_module
from neuron_cc.testing.equivalence import random_inputs
from neuron_cc.testing.ir import neuron_context as make_context
from neuron_cc.transforms import get_all_passes
from neuron_cc.translate.bir_json import bir_to_json
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_model import count_instructions, generate_hlo  # noqa: E402

BIN = Path(sys.executable).parent
PIPELINE = "neuron-default-pipeline"
SKIPPED_PASSES = {"legalize-cpu-cc-ops": "needs num_partitions == 1 (the model has 8 partitions)"}
ALPHA_US = 10.0
BANDWIDTH_GBPS = 100.0
COLLECTIVES = {
    "hlo.all_reduce",
    "hlo.all_gather",
    "hlo.reduce_scatter",
    "hlo.all_to_all",
    "hlo.collective_permute",
}

Json = dict[str, Any]


# ----------------------------------------------------------------------------- helpers


def parse_generic(ctx: Context, text: str) -> ModuleOp:
    enabled = gc.isenabled()
    gc.disable()
    try:
        return Parser(ctx, text).parse_module()
    finally:
        if enabled:
            gc.enable()


def render(module: ModuleOp, generic: bool) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    out.write("\n")
    return out.getvalue()


def walk_count(module: ModuleOp) -> int:
    return sum(1 for _ in module.walk())


def fmt_s(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 0.01:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.3f} s" if seconds < 10 else f"{seconds:.1f} s"


def size_label(n: int) -> str:
    return f"{n // 1000}k" if n % 1000 == 0 else str(n)


class GcClock:
    """Time spent in the cyclic GC (gc.callbacks), and the number of full collections."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.full = 0
        self._start = 0.0
        gc.callbacks.append(self.callback)

    def callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        self.seconds += time.perf_counter() - self._start
        self.full += info["generation"] == 2

    def reset(self) -> None:
        self.seconds = 0.0
        self.full = 0


GC_CLOCK = GcClock()


@dataclass
class Timing:
    """Samples of one step at one size (each sample a fresh run), with the GC time in each."""

    samples: list[float] = field(default_factory=lambda: [])
    gc_samples: list[float] = field(default_factory=lambda: [])
    note: str = ""

    @property
    def median(self) -> float | None:
        return statistics.median(self.samples) if self.samples else None

    @property
    def gc_median(self) -> float | None:
        return statistics.median(self.gc_samples) if self.gc_samples else None

    def as_json(self) -> Json:
        return {
            "median_s": self.median,
            "samples_s": self.samples,
            "gc_s": self.gc_samples,
            "note": self.note,
        }


SHORT_STEP_RUNS = 7
SHORT_STEP_BUDGET_S = 2.0


def timed(
    step: Callable[[], object], repeat: int, setup: Callable[[], None] | None = None
) -> Timing:
    result = Timing()
    # Short steps are noisy: take up to SHORT_STEP_RUNS samples while they stay cheap.
    while len(result.samples) < repeat or (
        len(result.samples) < SHORT_STEP_RUNS and sum(result.samples) < SHORT_STEP_BUDGET_S
    ):
        if setup is not None:
            setup()
        gc.collect()
        GC_CLOCK.reset()
        start = time.perf_counter()
        step()
        result.samples.append(time.perf_counter() - start)
        result.gc_samples.append(GC_CLOCK.seconds)
    gc.collect()
    return result


def pass_names() -> list[str]:
    return list(get_all_passes())


def make_pass(name: str) -> ModulePass:
    return get_all_passes()[name]()()


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
        installs the tool as `mlir-opt-<N>` (`make bench-tools` installs it where apt can).
        """
        tool = shutil.which("mlir-opt") or next(
            (t for t in sorted(glob.glob("/usr/bin/mlir-opt-*"), reverse=True)), None
        )
        same = "mlir-opt parse+print (same module, generic)"
        proxy = "mlir-opt parse+print (arith chain, same op count)"
        if tool is None:
            self.steps[same] = Timing(note="not installed")
            self.steps[proxy] = Timing(note="not installed")
            return
        from bench_parse_print import generate_arith  # noqa: PLC0415

        model = self.workdir / "model_mlir_compatible.mlir"
        model.write_text((self.workdir / "model_generic.mlir").read_text().replace("<=", "~"))
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


def end_to_end(workdir: Path, repeat: int) -> Json:
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
    results: Json = {}
    for name, cmd in commands.items():
        walls: list[float] = []
        peaks: list[int] = []
        for _ in range(repeat):
            wall, peak = run_measured(cmd)
            walls.append(wall)
            peaks.append(peak)
        results[name] = {
            "command": " ".join(
                [
                    Path(cmd[0]).name,
                    *(Path(c).name if c.startswith(str(workdir)) else c for c in cmd[1:]),
                ]
            ),
            "wall_s": statistics.median(walls),
            "wall_samples_s": walls,
            "peak_rss_kib": max(peaks),
        }
        print(
            f"  [e2e] {name}: {statistics.median(walls):.1f} s, peak RSS {max(peaks) / 1024:.0f} MiB",
            file=sys.stderr,
            flush=True,
        )
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
        est = record.launches * ALPHA_US + record.bytes_per_device / (BANDWIDTH_GBPS * 1e3)
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
    make_pass(PIPELINE).apply(ctx, module)
    module.verify()
    after = stats_json(run_module(module, inputs))
    static_after = static_collectives(module)
    return {
        "before": {**before, **static_before},
        "after": {**after, **static_after},
        "alpha_us": ALPHA_US,
        "bandwidth_gbps": BANDWIDTH_GBPS,
    }


# ----------------------------------------------------------------------------- targets


@dataclass
class Target:
    name: str
    figure: str
    ok: bool | None  # None: not measurable here
    detail: str = ""
    profile_step: tuple[int, str] | None = None  # (size, step) to profile on failure

    @property
    def verdict(self) -> str:
        return "N/A" if self.ok is None else ("PASS" if self.ok else "FAIL")


def med(results: dict[int, dict[str, Timing]], size: int, step: str) -> float | None:
    timing = results.get(size, {}).get(step)
    return None if timing is None else timing.median


def measured_pass_steps(results: dict[int, dict[str, Timing]]) -> list[str]:
    return [f"pass {n}" for n in pass_names() if n not in SKIPPED_PASSES]


def linear_targets(results: dict[int, dict[str, Timing]], small: int, large: int) -> list[Target]:
    targets: list[Target] = []
    for step in measured_pass_steps(results):
        a, b = med(results, small, step), med(results, large, step)
        if a is None or b is None:
            continue
        ratio = b / a
        targets.append(
            Target(
                f"linear: {step.removeprefix('pass ')} t({size_label(large)})/t({size_label(small)}) ≤ 12",
                f"{ratio:.1f}x ({fmt_s(a)} → {fmt_s(b)})",
                ratio <= 12,
                profile_step=(large, step),
            )
        )
    return targets


def parse_targets(results: dict[int, dict[str, Timing]], sizes: list[int]) -> list[Target]:
    targets: list[Target] = []
    parse = "xDSL parse (generic .mlir)"
    for step in measured_pass_steps(results):
        limit = 0.6 if step == f"pass {PIPELINE}" else 0.2
        ratios: list[tuple[int, float]] = []
        for size in sizes:
            p, t = med(results, size, parse), med(results, size, step)
            if p is not None and t is not None:
                ratios.append((size, t / p))
        if not ratios:
            continue
        worst = max(ratios, key=lambda r: r[1])
        figure = ", ".join(f"{size_label(s)}: {r:.3f}x" for s, r in ratios)
        targets.append(
            Target(
                f"{step.removeprefix('pass ')} ≤ {limit}x xDSL parse",
                figure,
                all(r <= limit for _, r in ratios),
                profile_step=(worst[0], step),
            )
        )
    return targets


def speed_target(
    results: dict[int, dict[str, Timing]], sizes: list[int], name: str, ours: str, theirs: str
) -> Target:
    ratios: list[tuple[int, float]] = []
    for size in sizes:
        a, b = med(results, size, ours), med(results, size, theirs)
        if a is not None and b is not None:
            ratios.append((size, b / a))
    worst = min(ratios, key=lambda r: r[1])
    figure = ", ".join(f"{size_label(s)}: {r:.1f}x faster" for s, r in ratios)
    return Target(name, figure, all(r >= 3 for _, r in ratios), profile_step=(worst[0], ours))


def e2e_targets(e2e: Json, results: dict[int, dict[str, Timing]], large: int) -> list[Target]:
    neuron, xdsl = e2e["neuron-opt"], e2e["xdsl-opt"]
    mlir_opt = med(results, large, "mlir-opt parse+print (same module, generic)")
    proxy = med(results, large, "mlir-opt parse+print (arith chain, same op count)")
    if mlir_opt is None:
        e2e_target = Target(
            f"end to end neuron-opt ≤ 15x mlir-opt ({size_label(large)})",
            f"neuron-opt {neuron['wall_s']:.1f} s; mlir-opt not installed",
            None,
            "mlir-opt is not on PATH (Debian's mlir-*-tools): not measurable here",
        )
    else:
        ratio = neuron["wall_s"] / mlir_opt
        e2e_target = Target(
            f"end to end neuron-opt ≤ 15x mlir-opt ({size_label(large)})",
            f"{ratio:.1f}x ({neuron['wall_s']:.1f} s vs {mlir_opt:.2f} s)"
            + (
                f"; vs the arith proxy {neuron['wall_s'] / proxy:.0f}x ({proxy:.2f} s)"
                if proxy is not None
                else ""
            ),
            ratio <= 15,
        )
    mem_ratio = neuron["peak_rss_kib"] / xdsl["peak_rss_kib"]
    mem = Target(
        f"peak memory neuron-opt ≤ 1.2x xdsl-opt ({size_label(large)})",
        f"{mem_ratio:.2f}x ({neuron['peak_rss_kib'] / 1024:.0f} MiB vs "
        f"{xdsl['peak_rss_kib'] / 1024:.0f} MiB)",
        mem_ratio <= 1.2,
    )
    return [e2e_target, mem]


MOVABLE_PER_LAYER = 3
"""gen_model's loop body has 5 collectives per layer: 3 movable (the all-reduce accumulation,
the reduce-scatter + DUS, the carried all-gather) and 2 not (a max all-reduce feeding the
computation, a collective-permute ring)."""
COLLECTIVES_PER_LAYER = 5


def quality_target(name: str, q: Json) -> Target:
    before, after = q["before"], q["after"]
    moved = before["inside_while"] - after["inside_while"]
    movable = before["inside_while"] * MOVABLE_PER_LAYER // COLLECTIVES_PER_LAYER
    saved = before["launches"] - after["launches"]
    trips = 1 + saved / moved if moved else float("nan")
    figure = (
        f"launches {before['launches']} → {after['launches']}, α–β {before['est_us']:.0f} → "
        f"{after['est_us']:.0f} µs; {moved} of {movable} movable collectives moved out of the "
        f"loop, launches per moved collective {trips:.0f} → 1"
    )
    return Target(
        f"output quality {name}: every movable collective moved", figure, moved == movable
    )


def evaluate(
    results: dict[int, dict[str, Timing]], sizes: list[int], e2e: Json | None, qual: Json
) -> list[Target]:
    targets: list[Target] = []
    if len(sizes) >= 2:
        targets += linear_targets(results, sizes[-2], sizes[-1])
    targets += parse_targets(results, sizes)
    targets.append(
        speed_target(
            results,
            sizes,
            "HLO import ≥ 3x faster than xDSL parse",
            "HLO import",
            "xDSL parse (generic .mlir)",
        )
    )
    targets.append(
        speed_target(
            results,
            sizes,
            "HLO export ≥ 3x faster than xDSL generic print",
            "HLO export",
            "print .mlir (generic)",
        )
    )
    if e2e is not None:
        targets += e2e_targets(e2e, results, sizes[-1])
    for label, q in qual.items():
        targets.append(quality_target(label, q))
    return targets


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
    total = sum(v[2] for v in stats.stats.values())  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType, reportUnknownArgumentType]
    return (
        f"### {step} at {size_label(size)} (cProfile, top {top} by own time; total {total:.2f} s)"
        f"\n\n{gc_note}.\n\n```\n{body.rstrip()}\n```\n"
    )


# ----------------------------------------------------------------------------- report


def step_table(results: dict[int, dict[str, Timing]], sizes: list[int]) -> str:
    names: list[str] = []
    for size in sizes:
        for name in results[size]:
            if name not in names:
                names.append(name)
    header = "| step | " + " | ".join(size_label(s) for s in sizes) + " |"
    lines = [header, "|---|" + "---:|" * len(sizes)]
    for name in names:
        cells: list[str] = []
        for size in sizes:
            timing = results[size].get(name)
            if timing is None:
                cells.append("—")
            elif timing.median is None:
                cells.append(timing.note)
            else:
                extra = f" ({timing.note})" if timing.note else ""
                gc_s = timing.gc_median or 0.0
                if gc_s >= 0.05 * timing.median and gc_s >= 0.01:
                    extra += f" [GC {fmt_s(gc_s)}]"
                cells.append(fmt_s(timing.median) + extra)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def quality_table(qual: Json) -> str:
    lines = [
        "| model | collective | launches before | launches after | α–β before (µs) | α–β after (µs) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for label, q in qual.items():
        kinds = sorted(set(q["before"]["kinds"]) | set(q["after"]["kinds"]))
        for kind in [*kinds, "total"]:
            b = q["before"] if kind == "total" else q["before"]["kinds"].get(kind, {})
            a = q["after"] if kind == "total" else q["after"]["kinds"].get(kind, {})
            lines.append(
                f"| {label} | {kind} | {b.get('launches', 0)} | {a.get('launches', 0)} | "
                f"{b.get('est_us', 0.0):.1f} | {a.get('est_us', 0.0):.1f} |"
            )
    return "\n".join(lines)


def markdown(
    record: Json, results: dict[int, dict[str, Timing]], sizes: list[int], targets: list[Target]
) -> str:
    info = record["sizes"]
    parts = [
        f"# neuron-cc benchmark ({record['date']}, `{record['command']}`)",
        "",
        f"Machine: {record['machine']}. Wall clock, median of {record['repeat']} runs "
        f"({record['repeat_large']} at ≥ 100k; steps under {SHORT_STEP_BUDGET_S:g} s in all get up to "
        f"{SHORT_STEP_RUNS} runs), one process; passes on a fresh import each run.",
        "",
        "| size | HLO instructions | MLIR ops | repeats |",
        "|---|---:|---:|---:|",
        *(
            f"| {size_label(s)} | {info[str(s)]['hlo_instructions']} | {info[str(s)]['mlir_ops']} | "
            f"{info[str(s)]['repeat']} |"
            for s in sizes
        ),
        "",
        "## Steps",
        "",
        "`[GC t]`: median time spent in Python's cyclic GC within the step (shown when ≥ 5%).",
        "",
        step_table(results, sizes),
        "",
    ]
    if record.get("end_to_end"):
        e2e = record["end_to_end"]
        parts += [
            f"## End to end at {size_label(sizes[-1])} (subprocesses)",
            "",
            "| command | wall | peak RSS |",
            "|---|---:|---:|",
            *(
                f"| `{v['command']}` | {v['wall_s']:.1f} s | {v['peak_rss_kib'] / 1024:.0f} MiB |"
                for v in e2e.values()
            ),
            "",
        ]
    parts += [
        "## Output quality (interpreter, 8 devices, α = 10 µs, 100 GB/s)",
        "",
        quality_table(record["quality"]),
        "",
        "## Targets",
        "",
        "| target | figure | verdict |",
        "|---|---|---|",
        *(
            f"| {t.name} | {t.figure}{' — ' + t.detail if t.detail else ''} | {t.verdict} |"
            for t in targets
        ),
        "",
    ]
    return "\n".join(parts)


def plot(results: dict[int, dict[str, Timing]], sizes: list[int], path: Path) -> None:
    try:
        import matplotlib  # pyright: ignore[reportMissingImports]

        matplotlib.use("Agg")  # pyright: ignore
        import matplotlib.pyplot as plt  # pyright: ignore[reportMissingImports]
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(9, 6))  # pyright: ignore
    names = [n for n in results[sizes[0]] if results[sizes[0]][n].median is not None]
    for name in names:
        xs = [s for s in sizes if med(results, s, name) is not None]
        ys = [med(results, s, name) for s in xs]
        style = "-" if name.startswith("pass") else "--"
        ax.plot(xs, ys, style, marker="o", label=name)  # pyright: ignore
    ax.set_xscale("log")  # pyright: ignore
    ax.set_yscale("log")  # pyright: ignore
    ax.set_xlabel("HLO instructions")  # pyright: ignore
    ax.set_ylabel("seconds")  # pyright: ignore
    ax.legend(fontsize=6, loc="upper left")  # pyright: ignore
    fig.tight_layout()  # pyright: ignore
    fig.savefig(path, dpi=120)  # pyright: ignore


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
    cli.add_argument("--e2e-repeat", type=int, default=1, help="runs of the subprocesses")
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
        for size in sizes:
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
