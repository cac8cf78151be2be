"""XLA:CPU as an oracle: run HLO programs on R x P host devices of jax's CPU client (issue 15).

jax is optional: it is imported only by the worker process (`neuron_cc/testing/xla_worker.py`,
run as a script), never here. `xla_available()` says whether it is installed; the runner raises
`XlaUnavailable` ("jax is not installed ...") where it is not, and tests skip with that message.

The program XLA gets (`xla_case(module, inputs)`) is the module as `neuron-run` runs it, on the
same per-device inputs (leading device axis R*P), with exact rewrites only:

- every variadic all_reduce / all_gather / reduce_scatter / collective_broadcast split into one
  collective per operand plus an `hlo.tuple` (`split_variadic_collectives`; a mixed-type
  reducer is rebuilt at each operand's type): XLA:CPU computes a variadic bf16 all-gather along
  a non-major dimension wrongly (it concatenates the flat buffers), and its SPMD partitioner
  refuses variadic collectives in manual mode;
- the empty replica groups of an all_to_all written as the one explicit group of every id
  (`explicit_all_to_all_groups`: XLA:CPU refuses empty groups there);
- a channel id of its own for every collective (`unique_channel_ids`: XLA:CPU refuses some
  loops with two all-reduces of one channel id);
- with P > 1 partitions, real partitions: every instruction and parameter of every computation
  marked `sharding={manual}` (`mark_manual`; whiles and conditionals are left to sharding
  propagation, which jax's HLO -> StableHLO conversion needs, and are never a ROOT), compiled
  with num_partitions=P and `use_spmd_partitioning`: the partitioner keeps the per-partition
  program as written and XLA runs it with its own group-mode semantics, device d = r*P + p.
  Or, with `as_replicas=True`, a 1-replica program rewritten to P replicas x 1 partition
  (`partitions_to_replicas`, how the corpus acceptance tests run).

`run_xla(cases)` runs a batch in ONE worker process (XLA_FLAGS must be set before jax is
imported; `workers=N` splits it over N processes side by side), ALWAYS with
`--xla_allow_excess_precision=false` unless the caller passes `allow_excess_precision=True`
(XLA's default, with which the corpus oracles were recorded). XLA may crash (SIGFPE when it
folds an integer division of constants by zero, aborts in the partitioner...): the crashing
case gets status "crash" and the worker is restarted on the rest of the batch; a case running
longer than `case_timeout` seconds is killed the same way and tried once more in a fresh worker
before it gets "timeout". Every case gets an
`XlaResult`: "ok" with per-output arrays (leading device axis, the interpreter's storage dtypes:
bf16 as float32), "rejected" (XLA's parser or compiler refused it; `stage` says which), "error"
(it failed at run time), "crash" or "timeout". `start_xla` runs a batch in the background,
`parse_xla(texts)` / `parse_case(text)` only parse (and reprint).

The differential checks (`Differential`, `check_subjects`; tests/test_xla_differential.py and
tools/fuzz_xla.py) compare neuron-run with XLA, and XLA on every pass's result with XLA on the
original, arbitrating disagreements with an independent reference (`Subject.reference`, the
numpy evaluator of `neuron_cc.testing.random_hlo` for `random_subject`), see `Finding`.

The layers live in their own modules and are re-exported here: the exact rewrites in
`xla_rewrites`, cases and results in `xla_cases`, the worker processes in `xla_run`, output
comparison in `xla_compare`; this module holds the differential checks.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.interpreter.equivalence import flatten_values
from neuron_cc.interpreter.runner import entry_function, inputs_from_npz, run_module
from neuron_cc.interpreter.values import InterpretationError
from neuron_cc.testing.pass_configs import (
    BF16_REASSOCIATION,
    F32_REASSOCIATION,
    PASS_CONFIGS,
    REASSOCIATING,
    PassConfig,
    config_id,
)
from neuron_cc.testing.xla_cases import (
    Array,
    Status,
    XlaCase,
    XlaResult,
    numpy_name,
    parse_case,
    xla_case,
)
from neuron_cc.testing.xla_compare import (
    F32_RTOL,
    Tolerance,
    difference,
    output_types,
)
from neuron_cc.testing.xla_rewrites import (
    MODULE_CONFIG,
    NUM_PARTITIONS,
    NUM_REPLICAS,
    SHARDING,
    SPLIT,
    SPMD,
    ReplicaRewriteError,
    explicit_all_to_all_groups,
    mark_manual,
    partitions_to_replicas,
    split_variadic_collectives,
    unique_channel_ids,
)
from neuron_cc.testing.xla_run import (
    WORKER,
    XLA_UNAVAILABLE,
    XlaParse,
    XlaRun,
    XlaUnavailable,
    parse_xla,
    require_xla,
    run_xla,
    start_xla,
    xla_available,
)
from neuron_cc.transforms import get_all_passes
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo

__all__ = [
    "BF16_REASSOCIATION",
    "F32_REASSOCIATION",
    "F32_RTOL",
    "MODULE_CONFIG",
    "NOT_HLO_PASSES",
    "NUM_PARTITIONS",
    "NUM_REPLICAS",
    "ORIGINAL",
    "PASS_CONFIGS",
    "REASSOCIATING",
    "SHARDING",
    "SPLIT",
    "SPMD",
    "WORKER",
    "XLA_UNAVAILABLE",
    "Array",
    "Differential",
    "Finding",
    "FindingKind",
    "Outputs",
    "PassConfig",
    "PassRegistry",
    "Reference",
    "ReplicaRewriteError",
    "Report",
    "Sides",
    "Status",
    "Subject",
    "Tolerance",
    "XlaCase",
    "XlaParse",
    "XlaResult",
    "XlaRun",
    "XlaUnavailable",
    "apply_pass",
    "check_subjects",
    "config_id",
    "corpus_subject",
    "difference",
    "evidence",
    "explicit_all_to_all_groups",
    "mark_manual",
    "numpy_name",
    "output_types",
    "parse_case",
    "parse_xla",
    "partitions_to_replicas",
    "random_subject",
    "rejection_reason",
    "require_xla",
    "run_xla",
    "split_variadic_collectives",
    "start_xla",
    "total",
    "unique_channel_ids",
    "xla_available",
    "xla_case",
]


# --- the differential checks ------------------------------------------------------------------

Reference = Callable[[str, Sequence[Array]], list[Array]]
"""An independent evaluation of HLO text on per-device inputs: per output, per-device values."""


@dataclass
class Subject:
    """One program for the differential checks: the module, its per-device inputs and, when
    known, an independent reference evaluation (to arbitrate disagreements)."""

    name: str
    module: ModuleOp
    inputs: list[Array]
    reference: Reference | None = None


def random_subject(seed: int, mesh: tuple[int, int] | None = None) -> Subject:
    """The random HLO program of `seed` (`neuron_cc.testing.random_hlo`) with its inputs and
    numpy reference."""
    from neuron_cc.testing.random_hlo import random_program, random_program_inputs

    program = random_program(seed, mesh)

    def reference(text: str, inputs: Sequence[Array]) -> list[Array]:
        return replace(program, text=_reference_text(text)).reference(inputs)

    module = import_hlo(program.text, f"random_program({seed})")
    return Subject(f"seed {seed}", module, random_program_inputs(program, seed), reference)


_LAYOUT = re.compile(r"\]\{[\d,]*\}")
_HEADER = re.compile(r"^(ENTRY )?(\S+) \(.*\{$", re.M)


def _reference_text(text: str) -> str:
    """Our export in the text subset random_hlo's evaluator reads: no `%` sigils, no layouts,
    bare computation headers (`name {`)."""
    return _HEADER.sub(r"\1\2 {", _LAYOUT.sub("]", text.replace("%", "")))


def corpus_subject(spmd: Path) -> Subject:
    """A corpus program (`tests/corpus/jax/<case>/spmd.hlo`) on the inputs of its oracle
    (`inputs.npz` next to it); no reference (neuron-run and XLA arbitrate each other)."""
    module = import_hlo(spmd.read_text(), str(spmd))
    with np.load(spmd.parent / "inputs.npz") as data:
        arrays = {k: data[k] for k in data.files}
    r, p = device_counts(module)
    inputs = inputs_from_npz(entry_function(module), arrays, r * p)
    return Subject(spmd.parent.name, module, [np.asarray(a) for a in inputs])


NOT_HLO_PASSES = {"convert-hlo-to-bir": "its result is BIR, which has no HLO export"}


FindingKind = Literal["interpreter", "pass", "xla", "export", "unresolved"]


@dataclass(frozen=True)
class Finding:
    """A disagreement, arbitrated. `kind`: "interpreter" (reference == XLA != neuron-run),
    "pass" (the pass changed what the program computes), "xla" (reference == neuron-run !=
    XLA: XLA's bug, recorded, not a failure), "export" (XLA cannot parse our export of a
    program it accepts, or rejects a pass result of a program it runs), "unresolved" (no
    reference to decide)."""

    program: str
    check: str
    kind: FindingKind
    detail: str
    evidence: str = ""
    """The differing output as each side computed it (for the findings file)."""

    def line(self) -> str:
        return f"{self.program}: {self.check}: {self.kind}: {self.detail}"


@dataclass
class Report:
    """What a differential run checked and found."""

    programs: int = 0
    rejected: Counter[str] = field(default_factory=Counter[str])
    """Programs XLA did not run, by reason (they are not compared)."""
    rejected_programs: list[str] = field(default_factory=list[str])
    """`name: reason` of every program XLA did not run."""
    refusals: Counter[str] = field(default_factory=Counter[str])
    """Pass configurations that refused a program (PassFailedException), by configuration."""
    agreed: Counter[str] = field(default_factory=Counter[str])
    """Comparisons that agreed, by check ("neuron-run", a pass configuration)."""
    unchanged: Counter[str] = field(default_factory=Counter[str])
    """Pass configurations whose result is the original program (up to value names and the
    oracle's exact rewrites): nothing to compare."""
    findings: list[Finding] = field(default_factory=list[Finding])

    def merge(self, other: Report) -> None:
        self.programs += other.programs
        self.rejected.update(other.rejected)
        self.rejected_programs.extend(other.rejected_programs)
        self.refusals.update(other.refusals)
        self.agreed.update(other.agreed)
        self.unchanged.update(other.unchanged)
        self.findings.extend(other.findings)

    @property
    def failures(self) -> list[Finding]:
        """The findings that are our bugs or undecided (everything but XLA's bugs)."""
        return [f for f in self.findings if f.kind != "xla"]

    def summary(self) -> list[str]:
        kinds = Counter(f.kind for f in self.findings)
        lines = [
            f"{self.programs} programs, {sum(self.rejected.values())} rejected by XLA, "
            f"{sum(self.agreed.values())} comparisons agreed "
            f"({sum(self.unchanged.values())} pass results unchanged), findings: "
            + (", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none")
        ]
        lines += [f"  rejected {n:4d}: {why}" for why, n in self.rejected.most_common()]
        lines += [f"  refused  {n:4d}: {what}" for what, n in sorted(self.refusals.items())]
        for what in sorted(set(self.agreed) | set(self.unchanged)):
            lines.append(
                f"  agreed   {self.agreed[what]:4d}: {what}"
                + (f" ({self.unchanged[what]} unchanged)" if self.unchanged[what] else "")
            )
        lines += [f"  finding: {f.line()}" for f in self.findings]
        return lines


def rejection_reason(result: XlaResult) -> str:
    """A short, program-independent reason for a result that is not "ok"."""
    first = result.message.strip().splitlines()[0] if result.message.strip() else ""
    first = first.removeprefix("jax.errors.JaxRuntimeError: ")
    first = re.sub(r"%[\w.\-]+|\b\d+\b", "N", first)[:110]
    return f"{result.status}{'/' + result.stage if result.stage else ''}: {first}"


_CONTEXT: list[Context] = []


def _context() -> Context:
    if not _CONTEXT:
        from neuron_cc.testing.ir import neuron_context

        _CONTEXT.append(neuron_context())
    return _CONTEXT[0]


PassRegistry = Mapping[str, Callable[[], type[ModulePass]]]


def apply_pass(
    config: PassConfig, module: ModuleOp, passes: PassRegistry | None = None
) -> tuple[ModuleOp | None, str]:
    """(the pass's result on a clone of `module`, "") or (None, its refusal message); the
    pass is looked up in `passes` (default: neuron-cc's registry)."""
    name, options = config
    result = module.clone()
    try:
        (passes or get_all_passes())[name]()(**options).apply(_context(), result)
    except PassFailedException as e:
        return None, str(e)
    return result, ""


@dataclass
class _Variant:
    """The original program or one pass's result, and its XLA case (index into the batch)."""

    check: str
    module: ModuleOp
    case: int


@dataclass
class _Plan:
    subject: Subject
    types: list[str]
    variants: list[_Variant]
    """The original first, then every pass result XLA gets (in configuration order)."""
    refusals: list[str]
    findings: list[Finding]
    bf16: bool = False
    """The original computes something in bf16."""


def _plan(
    subject: Subject,
    configs: Sequence[PassConfig],
    cases: list[XlaCase],
    verify: bool,
    passes: PassRegistry | None,
) -> _Plan:
    """Apply every configuration; add each distinct program (by anonymous text) to `cases`.
    A pass that crashes, or whose result does not verify or export, is a finding."""
    plan = _Plan(subject, output_types(subject.module), [], [], [])
    index: dict[str, int] = {}

    def add(check: str, module: ModuleOp) -> None:
        try:
            if verify:
                module.verify()
            case = xla_case(module, subject.inputs, f"{subject.name}: {check}", anonymous=True)
        except Exception as e:  # the module is broken: not a program XLA can be given
            kind: FindingKind = "export" if check == ORIGINAL else "pass"
            plan.findings.append(Finding(subject.name, check, kind, _error(e)))
            return
        if case.text not in index:
            index[case.text] = len(cases)
            cases.append(case)
        if check == ORIGINAL:
            plan.bf16 = "bf16[" in case.text
        plan.variants.append(_Variant(check, module, index[case.text]))

    add(ORIGINAL, subject.module)
    if not plan.variants:
        return plan
    for config in configs:
        try:
            result, _ = apply_pass(config, subject.module, passes)
        except Exception as e:  # a pass must never crash
            plan.findings.append(Finding(subject.name, config_id(config), "pass", _error(e)))
            continue
        if result is None:
            plan.refusals.append(config_id(config))
        else:
            add(config_id(config), result)
    return plan


ORIGINAL = "neuron-run"
"""The check of the original program: neuron-run's outputs against XLA's."""


def _error(e: BaseException) -> str:
    return f"{type(e).__name__}: {str(e).strip()[:500]}"


def _ours(module: ModuleOp, inputs: Sequence[Array]) -> list[Array] | str:
    """neuron-run's outputs, or why it failed."""
    try:
        result = run_module(module, [np.copy(a) for a in inputs])
    except InterpretationError as e:
        return f"neuron-run failed: {e}"
    return flatten_values(result.outputs)


def _reference(subject: Subject, module: ModuleOp) -> list[Array] | str:
    """The subject's reference evaluation of `module` (exported), or why there is none."""
    if subject.reference is None:
        return "no reference"
    try:
        return subject.reference(export_hlo(module), subject.inputs)
    except Exception as e:  # any failure of the independent evaluator: no arbitration
        return f"the reference failed: {type(e).__name__}: {e}"


def _agree(
    a: list[Array] | str, b: list[Array] | str, types: Sequence[str], tol: Tolerance
) -> bool:
    return (
        not isinstance(a, str) and not isinstance(b, str) and difference(a, b, types, tol) is None
    )


def _arbitrate(
    ours: list[Array] | str, xla: list[Array], reference: list[Array] | str, types: Sequence[str]
) -> FindingKind:
    if _agree(reference, xla, types, "strict"):
        return "interpreter"
    if _agree(reference, ours, types, "strict"):
        return "xla"
    return "unresolved"


Outputs = list[Array] | str
Sides = Mapping[str, Outputs | Callable[[], Outputs]]
"""What each side computed (or a function computing it, or why it could not)."""

_OUTPUT = re.compile(r"output (\d+)")


def evidence(sides: Sides, problem: str) -> str:
    """The output a `difference` message names, as every side computed it."""
    match = _OUTPUT.search(problem)
    j = int(match.group(1)) if match else None
    lines: list[str] = []
    for name, side in sides.items():
        value = side() if callable(side) else side
        if isinstance(value, str) or j is None or j >= len(value):
            shown = value if isinstance(value, str) else f"{len(value)} outputs"
        else:
            shown = np.array2string(np.asarray(value[j]), threshold=200, max_line_width=100)
        lines.append(f"{name}{'' if j is None else f' (output {j})'}:\n{shown}")
    return "\n".join(lines)


class _Judge:
    """The verdicts on one plan, given every XLA result of the batch."""

    def __init__(self, plan: _Plan, ours: list[Array] | str, results: Sequence[XlaResult]):
        self.plan = plan
        self.subject = plan.subject
        self.types = plan.types
        self.ours = ours
        self.results = results
        self.report = Report(programs=1)
        self.report.refusals.update(plan.refusals)
        self.report.findings.extend(plan.findings)
        self._reference: list[Array] | str | None = None

    def reference(self) -> list[Array] | str:
        if self._reference is None:
            self._reference = _reference(self.subject, self.subject.module)
        return self._reference

    def find(self, check: str, kind: FindingKind, detail: str, sides: Sides | None = None) -> None:
        shown = evidence(sides, detail) if sides is not None else ""
        self.report.findings.append(Finding(self.subject.name, check, kind, detail, shown))

    def run(self) -> Report:
        if not self.plan.variants:
            return self.report
        original, *variants = self.plan.variants
        xla = self.results[original.case]
        if self.original(xla):
            for variant in variants:
                if variant.case == original.case:
                    self.report.unchanged[variant.check] += 1
                else:
                    self.variant(variant, xla.outputs, self.results[variant.case])
        return self.report

    def original(self, xla: XlaResult) -> bool:
        """neuron-run against XLA on the original; False if XLA did not run it."""
        if not xla.ok:
            reason = rejection_reason(xla)
            self.report.rejected[reason] += 1
            self.report.rejected_programs.append(f"{self.subject.name}: {reason}")
            if xla.stage == "parse":
                self.find(ORIGINAL, "export", f"XLA cannot parse the export: {xla.message}")
            return False
        sides: Sides = {"neuron-run": self.ours, "XLA": xla.outputs, "reference": self.reference}
        if isinstance(self.ours, str):
            kind = _arbitrate(self.ours, xla.outputs, self.reference(), self.types)
            self.find(ORIGINAL, kind, self.ours, sides)
            return True
        problem = difference(xla.outputs, self.ours, self.types, "strict")
        if problem is None:
            self.report.agreed[ORIGINAL] += 1
        else:
            kind = _arbitrate(self.ours, xla.outputs, self.reference(), self.types)
            self.find(ORIGINAL, kind, f"neuron-run vs XLA: {problem}", sides)
        return True

    def variant(self, variant: _Variant, before: list[Array], xla: XlaResult) -> None:
        """XLA on a pass result against XLA on the original."""
        check = variant.check
        if not xla.ok:
            kind: FindingKind = "xla" if xla.status in ("crash", "timeout") else "unresolved"
            if xla.stage == "parse":
                kind = "export"
            self.find(check, kind, f"XLA runs the original, not the result: {xla.message}")
            return
        tolerance: Tolerance = "exact"
        if check.split("[")[0] in REASSOCIATING:
            tolerance = "reassociated-bf16" if self.plan.bf16 else "reassociated"
        problem = difference(before, xla.outputs, self.types, tolerance)
        if problem is None:
            self.report.agreed[check] += 1
            return
        ours = _ours(variant.module, self.subject.inputs)
        truth = _reference(self.subject, variant.module)
        kind = self.blame(ours, truth, before, xla.outputs, tolerance)
        sides: Sides = {
            "XLA, original": before,
            "XLA, pass result": xla.outputs,
            "neuron-run, original": self.ours,
            "neuron-run, pass result": ours,
            "reference, original": self.reference,
            "reference, pass result": truth,
        }
        self.find(check, kind, f"XLA on the result vs on the original: {problem}", sides)

    def blame(
        self,
        ours: list[Array] | str,
        truth: list[Array] | str,
        before: list[Array],
        after: list[Array],
        tolerance: Tolerance,
    ) -> FindingKind:
        """Who is wrong when XLA computes the pass result (`after`; neuron-run: `ours`, the
        reference: `truth`) differently from the original (`before`)."""
        types = self.types
        if isinstance(truth, str):
            # No reference: the pass is to blame when both executors see the same change.
            both = _agree(ours, after, types, "strict") and _agree(
                self.ours, before, types, "strict"
            )
            return "pass" if both else "unresolved"
        if _agree(truth, after, types, "strict") and _agree(
            self.reference(), before, types, "strict"
        ):
            return "pass"
        if _agree(truth, ours, types, "strict") and _agree(
            truth, self.reference(), types, tolerance
        ):
            return "xla"
        return "unresolved"


class Differential:
    """The differential checks on a list of subjects, in three steps around ONE XLA batch:

        checks = Differential(subjects)          # apply the passes, build `checks.cases`
        run = start_xla(checks.cases)            # (more cases may share the batch)
        checks.interpret()                       # neuron-run on the originals, meanwhile
        reports = checks.judge(run.results())    # one Report per subject

    The checks (`check_subjects` does all of it):

    - neuron-run's outputs equal XLA's on every output and device ("strict" tolerance);
    - for every pass configuration, XLA on the (exported) result equals XLA on the original
      (bit for bit; "reassociated" for the passes in REASSOCIATING);
    - XLA parses every export.

    Disagreements are arbitrated with the subject's reference (see `Finding`); programs XLA
    does not run are counted in `Report.rejected`, refusals of a pass in `Report.refusals`.
    `passes` replaces neuron-cc's pass registry (to check the checks with a broken pass).
    """

    def __init__(
        self,
        subjects: Sequence[Subject],
        configs: Sequence[PassConfig] = PASS_CONFIGS,
        *,
        verify: bool = True,
        passes: PassRegistry | None = None,
    ) -> None:
        self.cases: list[XlaCase] = []
        self.plans = [_plan(s, configs, self.cases, verify, passes) for s in subjects]
        self.ours: list[list[Array] | str] = []

    def interpret(self) -> None:
        """Run neuron-run on every original (once)."""
        if not self.ours:
            self.ours = [_ours(p.subject.module, p.subject.inputs) for p in self.plans]

    def judge(self, results: Sequence[XlaResult]) -> list[Report]:
        """One report per subject, given XLA's results of `cases` (in order, first)."""
        self.interpret()
        return [
            _Judge(plan, ours, results).run()
            for plan, ours in zip(self.plans, self.ours, strict=True)
        ]


def total(reports: Sequence[Report]) -> Report:
    """The reports merged into one."""
    merged = Report()
    for report in reports:
        merged.merge(report)
    return merged


def check_subjects(
    subjects: Sequence[Subject],
    configs: Sequence[PassConfig] = PASS_CONFIGS,
    *,
    verify: bool = True,
    passes: PassRegistry | None = None,
    case_timeout: float = 120.0,
) -> Report:
    """Every check of `Differential` on `subjects`, with one XLA batch; the merged report."""
    checks = Differential(subjects, configs, verify=verify, passes=passes)
    run = start_xla(checks.cases, case_timeout=case_timeout)
    checks.interpret()
    return total(checks.judge(run.results()))
