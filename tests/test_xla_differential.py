"""Differential properties against XLA:CPU (issue 15), on random HLO programs.

Programs: `neuron_cc.testing.random_hlo.random_program(seed)` for the fixed SEEDS (meshes 1x8,
2x4, 8x1 drawn per seed), with `random_program_inputs(program, seed)`; XLA runs them through
`neuron_cc.testing.xla_oracle` (real partitions: manual SPMD; variadic collectives split; no
excess precision). Properties, per seed:

a. neuron-run (`run_module`) equals XLA:CPU on every output and device: integers and
   predicates exactly, f32 within 1e-5 relative, bf16 exactly;
b. for every pass configuration of neuron-opt (`xla_oracle.PASS_CONFIGS`, incl.
   `neuron-default-pipeline`): XLA:CPU on the exported result equals XLA:CPU on the original,
   bit for bit, except after the passes that move a sum out of a loop (`REASSOCIATING`: f32
   within 1e-4, bf16 within 2^-4, of the output's largest magnitude);
c. XLA parses our export of every random program and of every tests/corpus/jax/*/*.hlo.

A disagreement is arbitrated with the program's numpy reference before anyone is blamed:
reference == XLA != neuron-run is our bug (a failure); reference == neuron-run != XLA is XLA's
bug (recorded in the summary, not a failure). Programs XLA rejects are not compared: the
summary test prints how many and why. Everything runs in ONE XLA worker process, in the
background while neuron-run interprets the programs. Known findings (FINDINGS, see
notes/XLA_FINDINGS.md) are strict xfails of their seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from neuron_cc.testing.xla_oracle import (
    ORIGINAL,
    PASS_CONFIGS,
    XLA_UNAVAILABLE,
    Differential,
    Report,
    XlaResult,
    corpus_subject,
    parse_case,
    random_subject,
    rejection_reason,
    start_xla,
    total,
    xla_available,
)
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo

CORPUS = Path(__file__).resolve().parent / "corpus" / "jax"
CORPUS_FILES = sorted(CORPUS.glob("*/*.hlo"))
CORPUS_PROGRAMS = sorted(CORPUS.glob("*/spmd.hlo"))
SEEDS = range(60)
XLA_BUG_SEEDS = {
    904938243: "XLA reduces a transposed bf16 operand in its physical order (XLA_FINDINGS X3)",
    904938298: "XLA folds dynamic-slice of dynamic-slice without the inner clamp (XLA_FINDINGS X1)",
    904938401: "XLA folds dynamic-slice of dynamic-slice without the inner clamp (XLA_FINDINGS X1)",
}
"""Seeds of `make fuzz-xla` where XLA disagrees with neuron-run AND the reference: recorded as
XLA's bugs, never blamed on us (if XLA is fixed they simply agree)."""
RUN_FINDINGS: dict[int, str] = {}
"""seed -> the finding (in notes/XLA_FINDINGS.md) that makes property a fail on it."""
PASS_FINDINGS: dict[int, str] = {}
"""seed -> the finding that makes property b fail on it."""


def _seeds(findings: dict[int, str]) -> list[object]:
    """SEEDS, the ones with a known finding as strict xfails naming it."""
    return [
        pytest.param(s, marks=pytest.mark.xfail(strict=True, reason=findings[s]))
        if s in findings
        else s
        for s in SEEDS
    ]


@dataclass
class Outcome:
    reports: dict[int, Report]
    corpus: dict[str, Report]
    """The corpus programs (spmd.hlo on their oracle inputs), by case."""
    parsed: dict[Path, XlaResult]


@pytest.fixture(scope="module")
def outcome() -> Outcome:
    if not xla_available():
        pytest.skip(XLA_UNAVAILABLE)
    subjects = [random_subject(seed) for seed in [*SEEDS, *XLA_BUG_SEEDS]]
    subjects += [corpus_subject(path) for path in CORPUS_PROGRAMS]
    checks = Differential(subjects)
    exports = [export_hlo(import_hlo(p.read_text(), str(p))) for p in CORPUS_FILES]
    parses = [parse_case(text, str(path)) for text, path in zip(exports, CORPUS_FILES, strict=True)]
    run = start_xla([*checks.cases, *parses], workers=2)
    checks.interpret()
    results = run.results()
    reports = checks.judge(results[: len(checks.cases)])
    parsed = dict(zip(CORPUS_FILES, results[len(checks.cases) :], strict=True))
    seeds = [*SEEDS, *XLA_BUG_SEEDS]
    by_seed = dict(zip(seeds, reports, strict=False))
    corpus_reports = reports[len(seeds) :]
    by_case = {p.parent.name: r for p, r in zip(CORPUS_PROGRAMS, corpus_reports, strict=True)}
    return Outcome(by_seed, by_case, parsed)


def _failures(report: Report, original: bool) -> list[str]:
    return [f.line() for f in report.failures if (f.check == ORIGINAL) == original]


def _skip_if_rejected(report: Report) -> None:
    if report.rejected:
        pytest.skip(f"XLA does not run it (counted): {', '.join(report.rejected)}")


def _check_original(report: Report) -> None:
    """neuron-run agreed with XLA on the program as written (skip if XLA rejects it)."""
    failures = _failures(report, original=True)
    assert not failures, "\n".join(failures)
    _skip_if_rejected(report)
    assert report.agreed[ORIGINAL] == 1


def _check_passes(report: Report) -> None:
    """No pass configuration changed XLA's results, and every one was compared, found the
    program unchanged or refused it (skip if XLA rejects the program)."""
    failures = _failures(report, original=False)
    assert not failures, "\n".join(failures)
    _skip_if_rejected(report)
    compared = sum(report.agreed.values()) - report.agreed[ORIGINAL]
    accounted = compared + sum(report.unchanged.values()) + sum(report.refusals.values())
    assert accounted == len(PASS_CONFIGS)


@pytest.mark.parametrize("seed", _seeds(RUN_FINDINGS))
def test_neuron_run_matches_xla(seed: int, outcome: Outcome) -> None:
    report = outcome.reports[seed]
    _check_original(report)


@pytest.mark.parametrize("seed", _seeds(PASS_FINDINGS))
def test_passes_keep_xla_results(seed: int, outcome: Outcome) -> None:
    report = outcome.reports[seed]
    _check_passes(report)


@pytest.mark.parametrize("seed", sorted(XLA_BUG_SEEDS))
def test_xla_bugs_are_recorded_not_blamed_on_us(seed: int, outcome: Outcome) -> None:
    report = outcome.reports[seed]
    assert not report.failures, "\n".join(f.line() for f in report.failures)
    assert {f.kind for f in report.findings} <= {"xla"}


CORPUS_CASES = [p.parent.name for p in CORPUS_PROGRAMS]


@pytest.mark.parametrize("case", CORPUS_CASES)
def test_corpus_neuron_run_matches_xla(case: str, outcome: Outcome) -> None:
    report = outcome.corpus[case]
    _check_original(report)


@pytest.mark.parametrize("case", CORPUS_CASES)
def test_corpus_passes_keep_xla_results(case: str, outcome: Outcome) -> None:
    report = outcome.corpus[case]
    _check_passes(report)


@pytest.mark.parametrize(
    "path", CORPUS_FILES, ids=[f"{p.parent.name}/{p.name}" for p in CORPUS_FILES]
)
def test_xla_parses_export_of_corpus(path: Path, outcome: Outcome) -> None:
    result = outcome.parsed[path]
    assert result.ok, rejection_reason(result) + "\n" + result.message


def test_summary_counts(outcome: Outcome, capsys: pytest.CaptureFixture[str]) -> None:
    """Print what was checked, rejected and found (`pytest -s` or the captured output); most
    programs must run on XLA and every pass configuration must be compared."""
    random = total([outcome.reports[seed] for seed in SEEDS])
    corpus = total(list(outcome.corpus.values()))
    with capsys.disabled():
        print("\nXLA differential, random programs: " + "\n".join(random.summary()))
        print("XLA differential, corpus programs: " + "\n".join(corpus.summary()))
        bugs = total([outcome.reports[seed] for seed in XLA_BUG_SEEDS])
        print("XLA differential, known XLA bugs: " + "\n".join(bugs.summary()))
    rejected = sum(1 for seed in SEEDS if outcome.reports[seed].rejected)
    assert rejected <= len(SEEDS) // 5, random.rejected
    assert random.agreed[ORIGINAL] >= len(SEEDS) - rejected - len(RUN_FINDINGS)
    # Every pass that changes some program was compared on XLA, and most passes do.
    both = total([random, corpus])
    changed = {check for check in both.agreed if check != ORIGINAL}
    changed |= {f.check for f in both.findings if f.check != ORIGINAL}
    assert len(changed) >= 8, sorted(changed)
