"""Write one lit test per module case of XLA's combiner tests (issue 18 item 2).

    .venv/bin/python tools/port_combiner_tests.py

Reads tests/xla_conformance/{all_reduce,all_gather,reduce_scatter}_combiner_test/MANIFEST.json
(the upstream cases with their pass options and upstream's answer, recorded from the C++ test
bodies) and writes tests/filecheck/transforms/upstream-combiners/<suite>-<case>.hlo: the
module, a RUN line with the same thresholds and options, and CHECK lines stating upstream's
answer - how many collectives of the kind remain (`COUNT`), which members are combined into
one op (their operands, in order, as our importer names them), the combined op's dimension
where upstream checks it, and, for an unchanged module, every original op still there. The
CHECK lines come from the manifest, not from our output: a run of the pass that disagrees
with upstream fails the test.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from neuron_cc.tools.driver import read_hlo, tool_context  # noqa: E402

CONFORMANCE = ROOT / "tests" / "xla_conformance"
OUT = ROOT / "tests" / "filecheck" / "transforms" / "upstream-combiners"

SUITES = {
    "all_reduce_combiner_test": ("all-reduce-combiner", "hlo.all_reduce", "all-reduce"),
    "all_gather_combiner_test": ("all-gather-combiner", "hlo.all_gather", "all-gather"),
    "reduce_scatter_combiner_test": (
        "reduce-scatter-combiner",
        "hlo.reduce_scatter",
        "reduce-scatter",
    ),
}

_OPTIONS = {
    "combine_threshold_in_bytes": "threshold-bytes",
    "combine_threshold_count": "threshold-count",
    "combine_by_dim": "combine-by-dim",
    "combine_different_dtypes": "combine-different-dtypes",
}


def _options(pass_name: str, options: dict[str, Any]) -> str:
    parts: list[str] = []
    for key, value in options.items():
        if key == "combine_while_loops":
            parts.append(f"skip-while-bodies={'false' if value else 'true'}")
        elif key == "combine_by_dim" and pass_name == "all-reduce-combiner":
            continue
        else:
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            parts.append(f"{_OPTIONS[key]}={text}")
    return f"{pass_name}{{{' '.join(parts)}}}"


def _replicas(text: str, name: str, stated: int) -> int:
    """The replica count the module verifies with: the manifest's, else the smallest that
    makes XLA's shapes valid (XLA's tests run some modules unverified on a 1x1 config)."""
    for count in dict.fromkeys((stated or 1, 1, 2, 4, 8, 16)):
        try:
            module, _ = read_hlo(tool_context(), text, name, num_replicas=count)
            module.verify()
        except Exception:  # the next count
            continue
        return count
    raise SystemExit(f"{name}: no replica count verifies")


def _ir_lines(text: str, name: str, replicas: int) -> dict[str, str]:
    """Our importer's printed op line per HLO instruction name."""
    module, _ = read_hlo(tool_context(), text, name, num_replicas=replicas)
    lines: dict[str, str] = {}
    for line in str(module).splitlines():
        match = re.match(r"\s*%([\w.\-]+) = (hlo\.\w+\(.*?\))", line)
        if match:
            lines[match.group(1)] = match.group(2)
    return lines


def _operands(line: str) -> str:
    return line[line.index("(") + 1 : line.index(")")]


def _header(line: str) -> str:
    return "\n".join("// " + chunk for chunk in _wrap(line))


def _wrap(text: str, width: int = 96) -> list[str]:
    words, lines, current = text.split(), [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    return [*lines, current] if current else lines


def _expected_count(expect: dict[str, Any], opcode: str, before: int) -> int | None:
    after = expect.get("counts", {}).get(opcode)
    if after is None and not expect.get("changed"):
        return before
    if after is None and expect.get("combined"):
        return before - sum(len(g) - 1 for g in expect["combined"])
    return after


def _comments(
    manifest: dict[str, Any], case: dict[str, Any], opcode: str, before: int, after: int | None
) -> list[str]:
    expect = case["expect"]
    combined: list[list[str]] = expect.get("combined", [])
    options = json.dumps(case["pass_options"], sort_keys=True)
    lines = [
        _header(
            f"Upstream: {case['test']} ({manifest['source']} at {manifest['commit'][:12]}), "
            f"options {options}."
        )
    ]
    answer = "changed" if expect.get("changed") else "unchanged"
    detail = f"{before} {opcode}s -> {after}" if after is not None else f"{before} {opcode}s"
    groups = "; combined: " + ", ".join("+".join(g) for g in combined) if combined else ""
    lines.append(_header(f"Upstream answer: {answer}, {detail}{groups}."))
    if case.get("note"):
        lines.append(_header(f"Note: {case['note']}"))
    return lines


def _checks(
    expect: dict[str, Any], ir: dict[str, str], op_name: str, after: int | None
) -> list[str]:
    lines = ["// CHECK-LABEL: func.func @"]
    combined: list[list[str]] = expect.get("combined", [])
    if expect.get("changed") and combined:
        for group in combined:
            operands = ", ".join(_operands(ir[m]) for m in group)
            lines.append(f"// CHECK-DAG: = {op_name}({operands})")
    elif not expect.get("changed"):
        for name, line in ir.items():
            if line.startswith(op_name + "("):
                lines.append(f"// CHECK-DAG: %{name} = {line}")
    if "all_gather_dimension" in expect:
        lines.append(f"// CHECK-DAG: {op_name}({{{{.*}}}}) dim = {expect['all_gather_dimension']} ")
    if after is not None:
        if after:
            lines.append(f"// COUNT-COUNT-{after}: {op_name}(")
        lines.append(f"// COUNT-NOT: {op_name}(")
    return lines


def port_case(suite: str, manifest: dict[str, Any], case: dict[str, Any]) -> str:
    pass_name, op_name, opcode = SUITES[suite]
    text = (CONFORMANCE / suite / case["file"]).read_text()
    replicas = _replicas(text, case["file"], case["replica_count"])
    ir = _ir_lines(text, case["file"], replicas)
    before = sum(1 for line in ir.values() if line.startswith(op_name + "("))
    after = _expected_count(case["expect"], opcode, before)
    flag = f" --num-replicas {replicas}" if replicas != (case["replica_count"] or 1) else ""
    lines = [
        f"// RUN: neuron-opt %s{flag} -p '{_options(pass_name, case['pass_options'])}' > %t",
        "// RUN: filecheck %s --input-file %t",
    ]
    if after is not None:
        lines.append("// RUN: filecheck %s --input-file %t --check-prefix=COUNT")
    lines.append("//")
    lines += _comments(manifest, case, opcode, before, after)
    if flag:
        lines.append(
            _header(
                f"--num-replicas {replicas}: upstream runs this module on a config whose shapes "
                f"need {replicas} replicas (its test does not state it; our verifier does)."
            )
        )
    lines += ["", *_checks(case["expect"], ir, op_name, after), ""]
    return "\n".join(lines) + "\n" + textwrap.dedent(text).strip("\n") + "\n"


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for suite in SUITES:
        manifest = json.loads((CONFORMANCE / suite / "MANIFEST.json").read_text())
        prefix = SUITES[suite][0].removesuffix("-combiner")
        for case in manifest["cases"]:
            slug = re.sub(r"(?<!^)(?=[A-Z])", "-", case["name"]).lower()
            (OUT / f"{prefix}-{slug}.hlo").write_text(port_case(suite, manifest, case))
    return 0


if __name__ == "__main__":
    sys.exit(main())
