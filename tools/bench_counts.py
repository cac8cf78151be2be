"""Counted, not timed: how a benchmark step's work grows from 1x to 10x (issue 20).

On a shared machine a step's time moves by tens of percent from one minute to the next; the
instructions it executes do not. This tool runs steps of `tools/bench_dimensions.py` under
valgrind's callgrind, with its cache simulation, and reports per step the 10x / 1x ratio of

- instructions executed (the work: a linear step reads about 10 for 10x the program),
- data reads and writes,
- first-level data-cache misses (a 32 KiB simulated L1),
- last-level misses of a simulated `CACHE_BYTES` cache (1 MiB: one core's L2 on the machine
  the README's figures come from). The 1x modules (1-2.4 MB of Python objects) mostly fit it,
  the 10x ones do not, so a pass that touches each op several times misses on every touch
  at 10x only: where the instruction ratio stays near 10 and only this one grows, a time
  ratio above `LIMIT` is the memory system's, not the algorithm's.

One process per (dimension, size) counts all the asked-for steps: each step first runs on a
small program of its dimension (lazy imports, per-class caches: what a timed run that is not
the first finds warm), then on a fresh import of the program between two `os.getppid()` calls,
at which callgrind dumps its counters (`--dump-before=getppid`); nothing else in a step calls
it. The cyclic GC is paused during a step, as in neuron-opt. The counts are deterministic up
to Python's address-dependent hashing (`PYTHONHASHSEED=0` is set; ids still vary): a few
tenths of a percent.

    python tools/bench_counts.py [--only width,users] [--steps import,all-reduce-combiner,...]

A step is `import`, `export`, `verify` or a pass name (`neuron-default-pipeline` included).

`tools/bench_dimensions.py --count` counts the cells its timing puts above the limit. Needs
valgrind on PATH (Debian: `apt install valgrind`); without it nothing is counted. Slow: about
50x the steps' own time plus the imports, a few minutes per (dimension, size) for one or two
steps, half an hour or more for all of them on a 10x program.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from neuron_cc.dialects import verify_cache
from neuron_cc.testing.ir import neuron_context
from neuron_cc.tools.driver import gc_paused
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_timing import PIPELINE, make_pass, pass_names
from gen_dimensions import SIZES, generate

CACHE_BYTES = 1 << 20
"""The simulated last-level cache (16-way, 64-byte lines)."""
EVENTS = ("instructions", "data refs", "L1 misses", f"{CACHE_BYTES >> 20} MiB-cache misses")
DEFAULT_STEPS = (PIPELINE, "all-reduce-combiner")
DEFAULT_DIMENSIONS = ("width", "users", "region")


@dataclass(frozen=True)
class Counts:
    """One step's events at one size, from callgrind's `events:` and `summary:` lines."""

    instructions: int
    data_refs: int
    l1_misses: int
    cache_misses: int

    @staticmethod
    def from_dump(text: str) -> Counts:
        names: list[str] = []
        values: list[int] = []
        for line in text.splitlines():
            if line.startswith("events:"):
                names = line.split()[1:]
            elif line.startswith(("summary:", "totals:")) and not values:
                values = [int(v) for v in line.split()[1:]]
        if not names or len(values) != len(names):
            raise ValueError("not a callgrind dump with cache simulation (no events/summary)")
        e = dict(zip(names, values, strict=True))
        return Counts(
            instructions=e["Ir"],
            data_refs=e["Dr"] + e["Dw"],
            l1_misses=e["D1mr"] + e["D1mw"],
            cache_misses=e["DLmr"] + e["DLmw"],
        )

    def values(self) -> tuple[int, int, int, int]:
        return (self.instructions, self.data_refs, self.l1_misses, self.cache_misses)


def available() -> bool:
    return shutil.which("valgrind") is not None


def _action(step: str, text: str) -> Callable[[], object]:
    """`step` on `text`, ready to run: the module imported (fresh for a pass), caches cleared."""
    if step == "import":
        return lambda: import_hlo(text)
    module = import_hlo(text)
    if step == "export":
        return lambda: export_hlo(module)
    if step == "verify":
        verify_cache.clear()  # the first verification of a module is the one that costs
        return module.verify
    ctx = neuron_context()
    pass_ = make_pass(step)
    return lambda: pass_.apply(ctx, module)


REFUSED = "refused:"
"""The child's line for a step that raised on its program (the timed bench's None)."""


def run_marked(dimension: str, n: int, steps: list[str]) -> None:
    """The child: every step on a small program, then on the program of size `n` between two
    marks (`os.getppid()`, where callgrind dumps). A step that raises still gets its two marks
    (the dumps of the others keep their places) and is named on stdout (`REFUSED`)."""
    small = generate(dimension, max(2, SIZES[dimension] // 10))
    text = generate(dimension, n)
    for step in steps:
        try:
            _action(step, small)()
            action = _action(step, text)
        except Exception:
            action = None
        gc.collect()
        with gc_paused():
            os.getppid()
            try:
                if action is not None:
                    action()
            except Exception:
                action = None
            os.getppid()
        if action is None:
            print(f"{REFUSED} {step}", flush=True)


def count(dimension: str, n: int, steps: list[str]) -> dict[str, Counts | None]:
    """Per step, its counts on `dimension`'s program of size `n` (one callgrind process; None:
    the step refused the program)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--cache-sim=yes",
            f"--LL={CACHE_BYTES},16,64",
            "--D1=32768,8,64",
            "--dump-before=getppid",
            f"--callgrind-out-file={out}",
            sys.executable,
            str(Path(__file__).resolve()),
            "--child",
            dimension,
            str(n),
            ",".join(steps),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"callgrind run failed ({done.returncode}): {done.stderr[-2000:]}")
        # dump k is everything before mark k: 1 the setup, then per step: the step, the next
        # step's setup
        dumps = {int(p.name.rsplit(".", 1)[1]): p for p in Path(tmp).glob("callgrind.out.*")}
        if len(dumps) < 2 * len(steps):
            raise RuntimeError(f"expected {2 * len(steps)} callgrind dumps, got {len(dumps)}")
        refused = {line.split()[1] for line in done.stdout.splitlines() if line.startswith(REFUSED)}
        return {
            step: None if step in refused else Counts.from_dump(dumps[2 + 2 * i].read_text())
            for i, step in enumerate(steps)
        }


Ratios = dict[str, dict[str, list[float] | None]]
"""dimension -> step -> the 10x / 1x ratio of each of `EVENTS` (None: refused at a size)."""


def _ratios(small: Counts | None, large: Counts | None) -> list[float] | None:
    if small is None or large is None:
        return None
    return [b / a if a else 0.0 for a, b in zip(small.values(), large.values(), strict=True)]


def counted_ratios(cells: dict[str, list[str]], scale: int, workers: int = 2) -> Ratios:
    """For each dimension's steps (`cells`), the ratios of their counts at `scale`x and 1x;
    the (dimension, size) processes run `workers` at a time."""
    jobs = [(d, SIZES[d] * k, steps) for d, steps in cells.items() if steps for k in (1, scale)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        found = list(pool.map(lambda job: count(*job), jobs))
    by_job = {(d, n): c for (d, n, _), c in zip(jobs, found, strict=True)}
    out: Ratios = {}
    for d, steps in cells.items():
        if not steps:
            continue
        small, large = by_job[(d, SIZES[d])], by_job[(d, SIZES[d] * scale)]
        out[d] = {s: _ratios(small[s], large[s]) for s in steps}
    return out


def markdown(
    ratios: Ratios, scale: int, times: Mapping[str, Mapping[str, float | None]] | None = None
) -> str:
    """A table: one row per counted (step, dimension); the time ratio first when known."""
    head = ["step", "dimension", *(["time"] if times is not None else []), *EVENTS]
    lines = [
        f"Counted under callgrind ({scale}x / 1x; simulated {CACHE_BYTES >> 20} MiB last-level "
        f"cache; the work of a linear step reads about {scale}):",
        "",
        "| " + " | ".join(head) + " |",
        "|---|---|" + "---:|" * (len(head) - 2),
    ]
    for d, steps in ratios.items():
        for s, values in steps.items():
            cells = [s, d]
            if times is not None:
                t = times[d].get(s)
                cells.append("—" if t is None else f"{t:.1f}")
            cells += ["refused"] * len(EVENTS) if values is None else [f"{v:.1f}" for v in values]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    cli.add_argument(
        "--child", nargs=3, metavar=("DIMENSION", "N", "STEPS"), help=argparse.SUPPRESS
    )
    cli.add_argument("--only", default=",".join(DEFAULT_DIMENSIONS))
    cli.add_argument("--steps", default=",".join(DEFAULT_STEPS))
    cli.add_argument("--scale", type=int, default=10)
    cli.add_argument("--out", type=Path, default=Path("bench"))
    args = cli.parse_args(argv)
    if args.child:
        dimension, n, steps = args.child
        run_marked(dimension, int(n), steps.split(","))
        return 0
    dims = [d for d in args.only.split(",") if d]
    unknown = [d for d in dims if d not in SIZES]
    if unknown:
        cli.error(f"unknown dimension(s) {', '.join(unknown)}; known: {', '.join(SIZES)}")
    steps = [s for s in args.steps.split(",") if s]
    known = {"import", "export", "verify", PIPELINE, *pass_names()}
    if unknown := [s for s in steps if s not in known]:
        cli.error(f"unknown step(s) {', '.join(unknown)}: import, export, verify or a pass name")
    if not available():
        print("valgrind not found: nothing counted", file=sys.stderr)
        return 1
    ratios = counted_ratios({d: steps for d in dims}, args.scale)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "counts.json").write_text(json.dumps(ratios, indent=2) + "\n")
    report = markdown(ratios, args.scale)
    (args.out / "counts.md").write_text(report)
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
