"""The combined (variadic) and the in-place collective-permute (issue 17).

XLA's `collective-permute(a, b)` with a tuple result imports as
`hlo.combined_collective_permute`, verifies XLA's rules, exports back as XLA writes it, and the
interpreter gives XLA:CPU's bits. The in-place form (`collective-permute(input, output,
input_offsets, output_offsets), slice_sizes=...`) imports as `hlo.in_place_collective_permute`
and round-trips; the interpreter refuses it with a located error (no XLA:CPU oracle)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from neuron_cc.interpreter.equivalence import random_inputs
from neuron_cc.interpreter.runner import run_module
from neuron_cc.interpreter.values import InterpretationError
from neuron_cc.testing.xla_cases import xla_case
from neuron_cc.testing.xla_run import XLA_UNAVAILABLE, run_xla, xla_available
from neuron_cc.tools.driver import check_module, read_hlo, tool_context
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo

Array = np.ndarray[Any, Any]

PROGRAM = """HloModule combined, replica_count=4

ENTRY main {
  a = f32[4,3]{1,0} parameter(0)
  b = s32[5]{0} parameter(1)
  ROOT p = (f32[4,3]{1,0}, s32[5]{0}) collective-permute(a, b), source_target_pairs={{0,1},{1,2},{3,0}}
}
"""


def _verify(text: str) -> str:
    try:
        module, source = read_hlo(tool_context(), text, "t.hlo")
        check_module(module, source)
        module.verify()
    except Exception as e:  # UserError or the verifier's DiagnosticException
        return str(e)
    return ""


def test_round_trip() -> None:
    module = import_hlo(PROGRAM)
    assert "hlo.combined_collective_permute(%a, %b)" in str(module)
    text = export_hlo(module)
    assert "collective-permute(%a, %b), source_target_pairs={{0,1},{1,2},{3,0}}" in text
    assert export_hlo(import_hlo(text)) == text


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("{3,0}}", "{3,4}}", "target id 4 is outside [0, 4)"),
        ("{3,0}}", "{1,0}}", "source id 1 appears in more than one pair"),
        ("(f32[4,3]{1,0}, s32[5]{0}) collective", "(f32[4,3]{1,0}, s32[4]{0}) collective", ""),
    ],
)
def test_verifier_rules(old: str, new: str, message: str) -> None:
    error = _verify(PROGRAM.replace(old, new))
    assert error, "accepted an invalid combined permute"
    assert message in error


IN_PLACE = """HloModule in_place, replica_count=2

ENTRY main {
  input = f32[4,2]{1,0} parameter(0)
  output = f32[8,2]{1,0} parameter(1)
  zero = s32[] constant(0)
  four = s32[] constant(4)
  from = (s32[], s32[]) tuple(zero, zero)
  to = (s32[], s32[]) tuple(four, zero)
  ROOT p = f32[8,2]{1,0} collective-permute(input, output, from, to), source_target_pairs={{0,1},{1,0}}, slice_sizes={{4,2}}
}
"""


def test_in_place_form_round_trips_and_is_not_interpreted() -> None:
    module = import_hlo(IN_PLACE)
    assert "hlo.in_place_collective_permute" in str(module)
    module.verify()
    text = export_hlo(module)
    assert (
        "collective-permute(%input, %output, %from, %to), source_target_pairs={{0,1},{1,0}}" in text
    )
    assert "slice_sizes={{4,2}}" in text
    assert export_hlo(import_hlo(text)) == text
    inputs = [np.asarray(x) for x in random_inputs(module, 1, per_device=True)]
    with pytest.raises(InterpretationError, match="in-place collective-permute is not interpreted"):
        run_module(module, inputs)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("ROOT p = f32[8,2]{1,0}", "ROOT p = f32[4,2]{1,0}", "must be the output buffer's"),
        ("{1,0}}, slice", "{1,2}}, slice", "target id 2 is outside [0, 2)"),
    ],
)
def test_in_place_verifier_rules(old: str, new: str, message: str) -> None:
    error = _verify(IN_PLACE.replace(old, new))
    assert message in error


SPLIT = PROGRAM.replace(
    "  ROOT p = (f32[4,3]{1,0}, s32[5]{0}) collective-permute(a, b), ",
    "  pa = f32[4,3]{1,0} collective-permute(a), source_target_pairs={{0,1},{1,2},{3,0}}\n"
    "  pb = s32[5]{0} collective-permute(b), source_target_pairs={{0,1},{1,2},{3,0}}\n"
    "  ROOT p = (f32[4,3]{1,0}, s32[5]{0}) tuple(pa, pb)\n  //",
)
"""The program with one collective-permute per operand: XLA:CPU refuses the combined form
("stablehlo.collective_permute" takes one operand), and XLA's semantics of the combined form
are those of the per-operand permutes."""


def test_interpreter_matches_xla_bit_for_bit() -> None:
    if not xla_available():
        pytest.skip(XLA_UNAVAILABLE)
    module = import_hlo(PROGRAM)
    split = import_hlo(SPLIT)
    inputs = [np.asarray(x) for x in random_inputs(module, 5, per_device=True)]
    (result,) = run_xla([xla_case(split, inputs, "split", exact_rewrites=False)])
    assert result.ok, (result.status, result.message)
    ours = run_module(module, inputs)
    flat = [np.asarray(v) for v in ours.outputs]  # the tuple's leaves
    assert len(result.outputs) == 2
    for a, b in zip(flat, result.outputs, strict=True):
        np.testing.assert_array_equal(a, b)
    assert not flat[0][3].any()  # device 3 is no pair's target: zeros
    assert flat[0][1].any()
    assert ours.state.stats["collective-permute"].launches == 1
