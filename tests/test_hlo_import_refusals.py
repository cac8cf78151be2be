"""The HLO importer refuses what XLA's HLO parser refuses, and imports what it accepts
(issue 15, item 5): malformed literal nesting and tokens, NaN payloads that do not fit the element
type, malformed module-header values (`input_output_alias`, `buffer_donor`,
`entry_computation_layout`, `frontend_attributes`, booleans, unknown or repeated keys),
`result_accuracy`, layout tiles, and operand shape annotations that disagree with the operand.

`CASES` holds XLA's verdict for each text, measured with jaxlib 0.10.2:
`jax._src.lib.hlo.hlo_module_from_text(text)` for each text, in a subprocess that restarts after a
crash (XLA aborts on a few inputs, `CRASH`; the importer must refuse those). Hard-coded so the
table tests run without jax; `test_xla_still_gives_the_measured_verdicts` repeats the measurement
whenever jax is importable, so the table cannot drift from XLA. Cases prefixed `xla-` come from
XLA's own xla/hlo/parser/hlo_parser_test.cc. `where` is the `line:col` our error names (XLA's
column for a literal's offending token); value errors (out of range, NaN payload, elided) are
located at the instruction. `why` marks the few deliberate differences (`ours` gives our verdict
where it is not XLA's).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute

from neuron_cc.tools.neuron_translate import main as translate
from neuron_cc.translate.hlo_text import literals
from neuron_cc.translate.hlo_text.attrs import AttrError
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import HloImportError, import_hlo
from tests.hlo_refusal_cases import ACCEPT, CASES, CRASH, REFUSE, Case

REFUSALS = [c for c in CASES if c.expected == REFUSE]
ACCEPTED = [c for c in CASES if c.expected == ACCEPT]
_SAME = [c for c in ACCEPTED if not c.why]
"""Accepted cases that must read back in XLA exactly as XLA reads the original."""


def test_table_is_consistent() -> None:
    assert len({c.id for c in CASES}) == len(CASES)
    for c in CASES:
        assert (c.where is not None) == (c.expected == REFUSE), c.id
        assert c.ours is None or c.why, c.id
    assert {c.xla for c in CASES} == {ACCEPT, REFUSE, CRASH}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_importer_agrees_with_xla(case: Case) -> None:
    if case.expected == ACCEPT:
        module = import_hlo(case.text, "in.hlo")
        module.verify()
        assert export_hlo(module).startswith("HloModule ")
        return
    with pytest.raises(HloImportError) as info:
        import_hlo(case.text, "in.hlo")
    assert info.value.location == f"in.hlo:{case.where}", info.value
    assert info.value.message
    assert "internal error" not in info.value.message


def _translate(path: Path, out: Path) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = translate(["--import-hlo", str(path), "-o", str(out)])
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
    return code, err.getvalue()


def test_refusals_are_one_located_error_and_no_output(tmp_path: Path) -> None:
    for case in REFUSALS:
        src = tmp_path / f"{case.id}.hlo"
        src.write_text(case.text)
        out = tmp_path / f"{case.id}.mlir"
        code, stderr = _translate(src, out)
        assert code == 1, case.id
        assert stderr.startswith(f"error: {src}:{case.where}: "), (case.id, stderr)
        assert stderr.count("\n") == 1, (case.id, stderr)
        assert "Traceback" not in stderr, (case.id, stderr)
        assert "internal error" not in stderr, (case.id, stderr)
        assert not out.exists(), case.id


def test_accepted_literals_keep_xla_values() -> None:
    """Spot checks of the values XLA reads (XLA prints them so: see the jax test below)."""

    def values(case_id: str) -> tuple[object, ...]:
        case = next(c for c in CASES if c.id == case_id)
        module = import_hlo(case.text)
        op = next(op for op in module.walk() if op.name == "hlo.constant")
        return op.properties["value"].get_values()  # pyright: ignore[reportAttributeAccessIssue]

    assert values("lit-ok-scalar-for-array") == (1.0, 0.0, 0.0)
    assert values("lit-ok-scalar-for-matrix") == (7.0, 0.0, 0.0, 0.0)
    assert [bool(v) for v in values("val-ok-pred-mixed")] == [True, True]
    assert values("val-ok-s64-wraps") == (-1,)
    assert values("val-ok-s64-wraps-to-min") == (-(2**63),)
    assert values("val-ok-f32-of-wrapped-int") == (-1.0,)
    assert values("val-ok-bf16-double-rounding") == (1.0,)  # through f32, like Eigen
    assert values("lit-ok-lone-comma") == (0.0, 0.0)
    signs = [math.copysign(1, float(str(v))) for v in values("val-ok-minus-zero-float")]
    assert signs == [-1, -1]


# --- XLA itself (needs jax) ---------------------------------------------------------------------

_XLA_RUNNER = """
import json, sys
from jax._src.lib import hlo
texts = json.load(open(sys.argv[1]))
with open(sys.argv[2], "a") as out:
    for i in range(int(sys.argv[3]), len(texts)):
        out.write(json.dumps([i, "start", ""]) + "\\n"); out.flush()
        try:
            verdict = ["accept", hlo.hlo_module_from_text(texts[i]).to_string()]
        except Exception as e:
            verdict = ["refuse", str(e)]
        out.write(json.dumps([i, *verdict]) + "\\n"); out.flush()
"""


def _xla_verdicts(texts: list[str], tmp: Path) -> list[tuple[str, str]]:
    """XLA's verdict and printout (or message) for each text; a text on which XLA aborts is
    `crash`, and the run goes on after it in a new process."""
    (tmp / "texts.json").write_text(json.dumps(texts))
    log = tmp / "verdicts.jsonl"
    results: dict[int, tuple[str, str]] = {}
    start = 0
    while start < len(texts):
        done = subprocess.run(
            [sys.executable, "-c", _XLA_RUNNER, str(tmp / "texts.json"), str(log), str(start)],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        last = -1
        for line in log.read_text().splitlines():
            index, verdict, detail = json.loads(line)
            last = index
            if verdict != "start":
                results[index] = (verdict, detail)
        if done.returncode == 0:
            break
        assert last >= start, done.stderr[-2000:]
        assert last not in results, done.stderr[-2000:]
        results[last] = (CRASH, done.stderr[-500:])
        start = last + 1
    return [results[i] for i in range(len(texts))]


@pytest.fixture(scope="module")
def xla_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[str, str]]]:
    pytest.importorskip("jax")
    exports = [export_hlo(import_hlo(c.text)) for c in _SAME]
    runs = _xla_verdicts([c.text for c in CASES] + exports, tmp_path_factory.mktemp("xla"))
    return {"cases": runs[: len(CASES)], "exports": runs[len(CASES) :]}


def test_xla_still_gives_the_measured_verdicts(
    xla_runs: dict[str, list[tuple[str, str]]],
) -> None:
    measured = {c.id: v for c, (v, _) in zip(CASES, xla_runs["cases"], strict=True)}
    assert measured == {c.id: c.xla for c in CASES}


def _without_layout_header(printed: str) -> str:
    """XLA's printout without `entry_computation_layout={...}` (we recompute it on export) and
    with nested instructions' generated names unified."""
    start = printed.find(", entry_computation_layout={")
    if start >= 0:
        depth, end = 0, start + len(", entry_computation_layout=")
        while True:
            depth += {"{": 1, "}": -1}.get(printed[end], 0)
            end += 1
            if depth == 0:
                break
        printed = printed[:start] + printed[end:]
    return re.sub(r"\.(?:anon|inline)[0-9.]*", ".nested", printed)


def test_exports_of_accepted_cases_read_back_identically_in_xla(
    xla_runs: dict[str, list[tuple[str, str]]],
) -> None:
    """Where XLA accepts a text, it reads our export of it back to the same module (constant
    values, NaN payloads, aliases, layouts and result accuracies included)."""
    by_id = {c.id: run for c, run in zip(CASES, xla_runs["cases"], strict=True)}
    for case, (verdict, printed) in zip(_SAME, xla_runs["exports"], strict=True):
        assert verdict == ACCEPT, (case.id, printed)
        original = by_id[case.id][1]
        assert _without_layout_header(printed) == _without_layout_header(original), case.id


# --- big literals: the vectorised path reads them as the exact one does -------------------------

_BIG_TOKENS = {
    "f32": ["1.5", "-0", "-0.0", "1e-3", "2E+5", "7", "-inf", "inf", "nan", "-nan", "3.", "-.25"],
    "f64": ["1.5", "-0", "1e-300", "123456789", "-inf", "nan", "-nan", "0.1"],
    "bf16": ["1.0039062500009095", "3.3961e38", "-65505", "inf", "-nan", "1e-50", "-0"],
    "f16": ["1.0004882812509095", "65519", "-65504", "nan", "-inf", "6e-8"],
    "s32": ["-2147483648", "2147483647", "-0", "12"],
    "u8": ["0", "255", "-0", "17"],
}


def _big_payload(element: str, rows: int = 64, cols: int = 80) -> str:
    tokens = _BIG_TOKENS[element]
    values = [tokens[(i * 7 + i // 3) % len(tokens)] for i in range(rows * cols)]
    body = ", ".join("{" + ", ".join(values[r * cols : (r + 1) * cols]) + "}" for r in range(rows))
    return "{ " + body + " }"


def _tensor(element: str, dims: list[int]) -> Attribute:
    from neuron_cc.translate.hlo_text.parser import ELEMENT_TYPES

    return TensorType(ELEMENT_TYPES[element], dims)


@pytest.mark.parametrize("element", list(_BIG_TOKENS))
def test_big_literals_read_as_the_exact_path_reads_them(
    element: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    payload = _big_payload(element)
    t = _tensor(element, [64, 80])
    assert isinstance(t, TensorType)
    fast = literals._fast_literal(payload, t, 64 * 80)
    assert fast is not None  # the vectorised path took it
    monkeypatch.setattr(literals, "_FAST_MIN_COUNT", 10**12)
    exact = literals.parse_literal(payload, t)
    assert fast.data.data == exact.data.data


@pytest.mark.parametrize(
    ("element", "edit"),
    [
        ("f32", lambda p: p.replace("{1.5", "{{1.5", 1)),  # nested deeper than the rank
        ("f32", lambda p: p.replace("}, {", ", ", 1)),  # a row too long, one too few
        ("f32", lambda p: p.replace("7", ".7", 1)),  # a token XLA does not lex
        ("f32", lambda p: p.replace("inf", "infinity", 1)),
        ("f32", lambda p: p.replace("-inf", "+inf", 1)),
        ("f32", lambda p: p.replace("1.5", "1e39", 1)),  # out of range
        ("bf16", lambda p: p.replace("3.3961e38", "3.4e38", 1)),
        ("s32", lambda p: p.replace("12", "2147483648", 1)),
        ("u8", lambda p: p.replace("17", "256", 1)),
    ],
)
def test_big_malformed_literals_are_refused(element: str, edit: Callable[[str], str]) -> None:
    payload = edit(_big_payload(element))
    assert payload != _big_payload(element)
    with pytest.raises(AttrError):
        literals.parse_literal(payload, _tensor(element, [64, 80]))
