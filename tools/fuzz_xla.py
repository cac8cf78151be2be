"""Differential fuzzing against XLA:CPU with random seeds until a time budget is spent (issue 15).

Each round checks `--batch` programs with `neuron_cc.testing.xla_oracle.check_subjects`:
neuron-run against XLA:CPU on every output and device, XLA on every pass configuration's result
against XLA on the original, XLA's parser on every export. Rounds alternate between random HLO
programs (`neuron_cc.testing.random_hlo.random_program` of consecutive seeds from a random base,
printed so a run can be repeated with `--seed`; disagreements are arbitrated with the program's
numpy reference) and, unless `--random-hlo-only`, the pass-oriented generator of issue 10
(`neuron_cc.testing.generate.programs()` drawn by hypothesis with the round's seed: while-loop
accumulations that the loop passes move, and their near misses; no reference, so neuron-run and
XLA arbitrate each other). `--jobs` workers
run rounds side by side (each with its own XLA worker process) until `--minutes` have passed,
then it prints the counts - programs, programs XLA rejected (by reason), comparisons, findings
by kind (our bugs: interpreter, pass, export, unresolved; XLA's bugs) - and writes every
finding (seed, check, verdict, the differing output as each side computed it, the program) to
`--findings` (rewritten after every round, so an interrupted run keeps what it found). Exit 1
if there is a finding that is not XLA's bug. `make fuzz-xla` runs `--minutes 30`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from neuron_cc.testing.xla_oracle import (
    XLA_UNAVAILABLE,
    Report,
    Subject,
    check_subjects,
    random_subject,
    xla_available,
)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FINDINGS = ROOT / "build" / "fuzz_xla_findings.md"
KINDS = ("interpreter", "pass", "export", "unresolved")
CASE_TIMEOUT = 60.0
"""Seconds one XLA case may take (twice: a timed-out case is retried once) before it counts as a
hang; a random program compiles and runs in about half a second."""


@dataclass(frozen=True)
class Round:
    """One round's programs: random HLO seeds, or `count` generated programs of `seed`."""

    seeds: tuple[int, ...] = ()
    generated: tuple[int, int] | None = None
    """(hypothesis seed, number of programs) of the issue-10 generator."""


@dataclass
class Outcome:
    report: Report
    texts: dict[str, str] = field(default_factory=dict[str, str])
    """The program text of every subject with a finding."""
    generated: int = 0
    """How many of the programs came from the issue-10 generator."""


def generated_subjects(seed: int, count: int) -> list[tuple[Subject, str]]:
    """`count` programs of `neuron_cc.testing.generate.programs()` drawn with hypothesis seed
    `seed`, on `random_inputs(module, 0)` (what --verify-equivalence runs), with their texts."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    from neuron_cc.testing import random_inputs
    from neuron_cc.testing.generate import programs
    from neuron_cc.testing.generated_program import GeneratedProgram
    from neuron_cc.testing.ir import parse_module

    drawn: list[GeneratedProgram] = []

    @hypothesis_seed(seed)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )
    @given(program=programs())
    def draw(program: GeneratedProgram) -> None:
        drawn.append(program)

    draw()
    subjects: list[tuple[Subject, str]] = []
    for i, program in enumerate(drawn):
        module = parse_module(program.text)
        name = f"generated {seed}#{i} ({program.description})"
        subjects.append((Subject(name, module, random_inputs(module, 0)), program.text))
    return subjects


def check_round(work: Round) -> Outcome:
    """One round (in a worker process): every check on its programs (the passes' remarks on
    stderr are dropped)."""
    with contextlib.redirect_stderr(io.StringIO()):
        if work.generated is not None:
            pairs = generated_subjects(*work.generated)
        else:
            pairs = [(random_subject(seed), "") for seed in work.seeds]
        report = check_subjects([subject for subject, _ in pairs], case_timeout=CASE_TIMEOUT)
    found = {f.program for f in report.findings}
    texts = {s.name: text or _random_text(s.name) for s, text in pairs if s.name in found}
    return Outcome(report, texts, len(pairs) if work.generated is not None else 0)


def _random_text(name: str) -> str:
    from neuron_cc.testing.random_hlo import random_program

    return random_program(int(name.removeprefix("seed "))).text


def write_findings(path: Path, report: Report, texts: dict[str, str], header: list[str]) -> None:
    """The findings file: the counts, then every finding with its evidence and program."""
    lines = ["# fuzz-xla findings", "", *header, "", "```", *report.summary(), "```", ""]
    if report.rejected_programs:
        lines += ["Programs XLA did not run (not compared):", ""]
        lines += [f"- {entry}" for entry in report.rejected_programs] + [""]
    for i, finding in enumerate(report.findings, start=1):
        lines += [
            f"## {i}. {finding.program}: {finding.check}: {finding.kind}",
            "",
            finding.detail,
            "",
            "```",
            finding.evidence or "(no outputs)",
            "```",
            "",
            "```",
            texts.get(finding.program, "(text not kept)").rstrip(),
            "```",
            "",
        ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines))


def print_counts(report: Report, generated: int, elapsed: float, base: int) -> None:
    kinds = {kind: sum(1 for f in report.findings if f.kind == kind) for kind in (*KINDS, "xla")}
    rejected = sum(report.rejected.values())
    print(
        f"fuzz-xla: {report.programs} programs ({report.programs - generated} random_hlo, "
        f"{generated} issue-10 generator) in {elapsed / 60:.1f} min "
        f"({report.programs / max(elapsed, 1e-9):.2f} programs/s), seeds from {base}"
    )
    print(f"fuzz-xla: {rejected} programs rejected by XLA (not compared)")
    for why, n in report.rejected.most_common():
        print(f"fuzz-xla:   {n:5d} {why}")
    print(
        f"fuzz-xla: {sum(report.agreed.values())} comparisons agreed, "
        f"{sum(report.unchanged.values())} pass results unchanged, "
        f"{sum(report.refusals.values())} pass refusals"
    )
    print(
        "fuzz-xla: mismatches by kind: "
        + ", ".join(f"{kind} {kinds[kind]}" for kind in KINDS)
        + f"; XLA bugs (recorded, not failures): {kinds['xla']}"
    )


class Fuzzer:
    """Hands out rounds of consecutive seeds and merges their reports."""

    def __init__(self, base: int, batch: int, findings: Path, generated: bool) -> None:
        self.base = base
        self.batch = batch
        self.generated = generated
        self.rounds = 0
        self.random_rounds = 0
        self.report = Report()
        self.generated_programs = 0
        self.texts: dict[str, str] = {}
        self.findings = findings
        self.started = time.monotonic()
        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        flags = "" if generated else " --random-hlo-only"
        self.header = [f"Run of {stamp}: `tools/fuzz_xla.py --seed {base} --batch {batch}{flags}`."]

    def next_round(self) -> Round:
        """Random HLO seeds, every other round (if enabled) a generated batch instead."""
        self.rounds += 1
        if self.generated and self.rounds % 2 == 0:
            return Round(generated=(self.base + self.rounds, self.batch))
        first = self.base + self.random_rounds * self.batch
        self.random_rounds += 1
        return Round(seeds=tuple(range(first, first + self.batch)))

    def add(self, outcome: Outcome) -> None:
        self.report.merge(outcome.report)
        self.generated_programs += outcome.generated
        self.texts.update(outcome.texts)
        write_findings(self.findings, self.report, self.texts, self.header)
        failures = len(self.report.failures)
        print(
            f"fuzz-xla: {self.report.programs} programs, "
            f"{time.monotonic() - self.started:.0f} s, {failures} findings",
            flush=True,
        )


def run(args: argparse.Namespace) -> int:
    base = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    fuzzer = Fuzzer(base, args.batch, args.findings, not args.random_hlo_only)
    deadline = fuzzer.started + args.minutes * 60
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        running: set[Future[Outcome]] = set()
        while running or time.monotonic() < deadline:
            while len(running) < args.jobs and time.monotonic() < deadline:
                running.add(pool.submit(check_round, fuzzer.next_round()))
            done, running = wait(running, timeout=1.0, return_when=FIRST_COMPLETED)
            for future in done:
                fuzzer.add(future.result())
    elapsed = time.monotonic() - fuzzer.started
    print_counts(fuzzer.report, fuzzer.generated_programs, elapsed, base)
    print(f"fuzz-xla: findings written to {args.findings}")
    return 1 if fuzzer.report.failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="differential fuzzing against XLA:CPU")
    parser.add_argument("--minutes", type=float, default=30.0, help="time budget (default 30)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel workers (default 2)")
    parser.add_argument("--batch", type=int, default=20, help="programs per round (default 20)")
    parser.add_argument("--seed", type=int, default=None, help="first seed (default: random)")
    parser.add_argument(
        "--random-hlo-only",
        action="store_true",
        help="only random_hlo programs (no rounds of the issue-10 generator)",
    )
    parser.add_argument(
        "--findings", type=Path, default=DEFAULT_FINDINGS, help=f"default {DEFAULT_FINDINGS}"
    )
    args = parser.parse_args(argv)
    if not xla_available():
        print(f"fuzz-xla: {XLA_UNAVAILABLE}", file=sys.stderr)
        return 2
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
