"""neuron-report: what a pipeline does to a program's collectives, as one page a person reads.

    neuron-report IN.hlo [-p PIPELINE] [-o report.html] [--format html|md] [--seed S]

For the input (HLO or .mlir) and the pipeline (default `neuron-default-pipeline`):
- every collective of the input: its place (computation, while-loop nesting depth), kind,
  replica groups, bytes per device, and what the pipeline's passes said of it (moved, or why
  not - the optimisation remarks);
- launches, bytes per device and the alpha-beta time estimate per kind, before and after,
  from running both programs on the simulated devices (seeded random inputs, as
  `--verify-equivalence` draws them);
- two bar charts (launches and estimated time per kind, before / after) drawn with matplotlib
  and inlined as PNG data: the HTML file needs nothing else to open (no network, no files).
`--format md` writes the same tables as Markdown (no charts).
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

import neuron_cc.api as nc
from neuron_cc.analysis.remarks import describe
from neuron_cc.dialects.hlo.collectives import CollectiveOp
from neuron_cc.dialects.hlo.control_flow import WhileOp
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp
from neuron_cc.interpreter.values import storage_bytes
from neuron_cc.tools.driver import UserError, exit_now, run_guarded, write_output

DEFAULT_PIPELINE = "neuron-default-pipeline"
_SUMMARY = "what a pipeline does to a program's collectives, as one HTML or Markdown page"


@dataclass(frozen=True)
class Collective:
    name: str
    kind: str
    computation: str
    loop_depth: int
    groups: str
    bytes_per_device: int
    remarks: tuple[str, ...]


@dataclass(frozen=True)
class Report:
    source: str
    pipeline: str
    collectives: list[Collective]
    before: dict[str, dict[str, float]]
    after: dict[str, dict[str, float]]
    summaries: list[str]


def _place(op: Operation) -> tuple[str, int]:
    depth, computation = 0, "?"
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, WhileOp):
            depth += 1
        if isinstance(parent, func.FuncOp):
            computation = parent.sym_name.data
        parent = parent.parent_op()
    return computation, depth


def _groups(op: Operation) -> str:
    groups = op.properties.get("replica_groups")
    if groups is not None:
        return str(groups)
    pairs = op.properties.get("source_target_pairs")
    return f"pairs {pairs}" if pairs is not None else "-"


def build_report(module: ModuleOp, source: str, pipeline: str, seed: int = 0) -> Report:
    """The report of `pipeline` on `module` (left unchanged)."""
    lines = nc.remarks(module, pipeline)
    by_op: dict[str, list[str]] = {}
    summaries: list[str] = []
    for line in lines:
        parts = line.split(": ", 3)  # remark, pass, op, message
        if len(parts) == 4 and parts[2].startswith(("%", "'")):
            by_op.setdefault(parts[2], []).append(f"{parts[1]}: {parts[3]}")
        else:
            summaries.append(line.removeprefix("remark: "))
    collectives: list[Collective] = []
    for op in module.walk():
        if not isinstance(op, CollectiveOp | CollectivePermuteOp):
            continue
        computation, depth = _place(op)
        size = max((storage_bytes(r.type) for r in op.results), default=0)
        who = describe(op)
        collectives.append(
            Collective(
                who,
                op.name.removeprefix("hlo."),
                computation,
                depth,
                _groups(op),
                size,
                tuple(by_op.get(who, ())),
            )
        )
    before = nc.collective_stats(module, seed=seed)
    after_module = nc.run_pipeline(module.clone(), pipeline)
    after = nc.collective_stats(after_module, seed=seed)
    return Report(source, pipeline, collectives, before, after, summaries)


def _kinds(report: Report) -> list[str]:
    return sorted({*report.before, *report.after})


def _chart(report: Report, field: str, title: str) -> str:
    """A before/after bar chart per kind as a base64 PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = _kinds(report) or ["(none)"]
    before = [report.before.get(k, {}).get(field, 0.0) for k in kinds]
    after = [report.after.get(k, {}).get(field, 0.0) for k in kinds]
    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=100)
    xs = range(len(kinds))
    ax.bar([x - 0.2 for x in xs], before, width=0.4, label="before", color="#c0504d")
    ax.bar([x + 0.2 for x in xs], after, width=0.4, label="after", color="#4f81bd")
    ax.set_xticks(list(xs), kinds)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _step_rows(report: Report) -> list[list[str]]:
    rows: list[list[str]] = []
    for kind in _kinds(report):
        b, a = report.before.get(kind, {}), report.after.get(kind, {})
        rows.append(
            [
                kind,
                f"{b.get('launches', 0):.0f} → {a.get('launches', 0):.0f}",
                f"{b.get('bytes_per_device', 0):.0f} → {a.get('bytes_per_device', 0):.0f}",
                f"{b.get('time_us', 0):.2f} → {a.get('time_us', 0):.2f}",
            ]
        )
    return rows


def _collective_rows(report: Report) -> list[list[str]]:
    return [
        [
            c.name,
            c.kind,
            c.computation,
            str(c.loop_depth),
            c.groups,
            str(c.bytes_per_device),
            "; ".join(c.remarks) or "-",
        ]
        for c in report.collectives
    ]


COLLECTIVE_HEADER = [
    "collective",
    "kind",
    "computation",
    "loop depth",
    "groups",
    "bytes/device",
    "what the passes said",
]
STEP_HEADER = ["kind", "launches per step", "bytes/device", "alpha-beta time (µs)"]


def to_markdown(report: Report) -> str:
    def table(header: list[str], rows: list[list[str]]) -> list[str]:
        out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
        return out

    lines = [f"# Collectives of {report.source} under `{report.pipeline}`", ""]
    lines += ["## Per step, before → after", "", *table(STEP_HEADER, _step_rows(report)), ""]
    lines += ["## Every collective of the input", ""]
    lines += [*table(COLLECTIVE_HEADER, _collective_rows(report)), ""]
    if report.summaries:
        lines += ["## Pass summaries", "", *(f"- {s}" for s in report.summaries), ""]
    return "\n".join(lines)


def to_html(report: Report) -> str:
    def table(header: list[str], rows: list[list[str]], ident: str) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
            for row in rows
        )
        return f'<table id="{ident}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'

    charts = "".join(
        f'<img id="{ident}" alt="{html.escape(title)}" src="data:image/png;base64,{_chart(report, field, title)}">'
        for ident, field, title in (
            ("launches-chart", "launches", "launches per step"),
            ("time-chart", "time_us", "estimated time per step (µs)"),
        )
    )
    summaries = "".join(f"<li>{html.escape(s)}</li>" for s in report.summaries)
    title = f"Collectives of {report.source} under {report.pipeline}"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; }}
table {{ border-collapse: collapse; margin-bottom: 1.5em; }}
th, td {{ border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; font-size: 0.9em; }}
th {{ background: #eee; }}
img {{ margin-right: 1em; }}
</style></head>
<body>
<h1>{html.escape(title)}</h1>
<h2>Per step, before → after</h2>
{table(STEP_HEADER, _step_rows(report), "steps")}
<div id="charts">{charts}</div>
<h2>Every collective of the input</h2>
{table(COLLECTIVE_HEADER, _collective_rows(report), "collectives")}
<h2>Pass summaries</h2><ul id="summaries">{summaries}</ul>
</body></html>
"""


def main(argv: Sequence[str] | None = None) -> int:
    def body() -> int:
        cli = argparse.ArgumentParser(prog="neuron-report", description=_SUMMARY)
        cli.add_argument("file", help="program (.hlo or .mlir)")
        cli.add_argument("-p", "--pipeline", default=DEFAULT_PIPELINE)
        cli.add_argument("-o", "--output", default=None, help="write here (default: stdout)")
        cli.add_argument("--format", choices=("html", "md"), default="html")
        cli.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
        args = cli.parse_args(argv)
        path = Path(args.file)
        try:
            module = nc.import_hlo(path) if path.suffix == ".hlo" else nc.parse_mlir(path)
            report = build_report(module, path.name, args.pipeline, args.seed)
        except nc.NeuronError as e:
            raise UserError(str(e)) from None
        text = to_html(report) if args.format == "html" else to_markdown(report)
        write_output(args.output, text)
        return 0

    return run_guarded(body)


def entry() -> None:
    """Console-script entry point."""
    exit_now(main())


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["Report", "build_report", "main", "to_html", "to_markdown"]
