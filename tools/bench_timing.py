"""Timing and rendering helpers of the issue-9 benchmark harness (`tools/bench.py`).

The clock that pauses the cyclic GC like neuron-opt (`GcClock`), a step's timings and their
median (`Timing`, `timed`: `--repeat` runs, more for short steps), the pass registry's names and
instances, the generic-form parse and the .mlir printers, number / size formatting, and the
harness's constants (the pipeline, skipped passes, the alpha-beta cost model, collective ops).
"""

from __future__ import annotations

import gc
import io
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.printer import Printer

from neuron_cc.interpreter.cost_model import DEFAULT
from neuron_cc.transforms import get_all_passes

BIN = Path(sys.executable).parent
PIPELINE = "neuron-default-pipeline"
SKIPPED_PASSES = {"legalize-cpu-cc-ops": "needs num_partitions == 1 (the model has 8 partitions)"}
COST_MODEL = DEFAULT
"""The alpha-beta model of neuron-run --stats (neuron_cc/interpreter/cost_model.py)."""
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
    def best(self) -> float | None:
        """The fastest sample: interference from the rest of the machine only adds time, so for
        a deterministic step the minimum is the least noisy estimate (as `timeit` advises)."""
        return min(self.samples) if self.samples else None

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
    """Samples of `step` (each after `setup`, untimed, and a full collection): `repeat`, or up
    to `SHORT_STEP_RUNS` while they stay cheap (short steps are noisy)."""
    return timed_side_by_side([(step, setup)], repeat)[0]


Run = tuple[Callable[[], object], Callable[[], None] | None]
"""A step and its setup (run before each sample, untimed)."""


def timed_side_by_side(runs: Sequence[Run], repeat: int) -> list[Timing]:
    """`timed` for several runs at once, in rounds: each round takes one sample of every run,
    one after the other, so a drift of the machine's speed over minutes (a shared machine's
    neighbours) reaches all of them alike and their ratios stay fair. Rounds go on while fewer
    than `repeat`, or fewer than `SHORT_STEP_RUNS` and the samples so far stay cheap."""
    results = [Timing() for _ in runs]
    while len(results[0].samples) < repeat or (
        len(results[0].samples) < SHORT_STEP_RUNS
        and sum(sum(r.samples) for r in results) < SHORT_STEP_BUDGET_S
    ):
        for (step, setup), result in zip(runs, results, strict=True):
            if setup is not None:
                setup()
            gc.collect()
            GC_CLOCK.reset()
            start = time.perf_counter()
            step()
            result.samples.append(time.perf_counter() - start)
            result.gc_samples.append(GC_CLOCK.seconds)
    gc.collect()
    return results


def pass_names() -> list[str]:
    return list(get_all_passes())


def make_pass(name: str) -> ModulePass:
    return get_all_passes()[name]()()
