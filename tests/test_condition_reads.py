"""`analysis.while_loops.condition_reads_slot`: which tuple slots a loop condition reads,
scanned once per loop when the caller passes a `ReadIndex` (issue 20: the code motion asks
for every slot of a wide loop)."""

from __future__ import annotations

import pytest

from neuron_cc.analysis import while_loops
from neuron_cc.analysis.while_loops import ReadIndex, SlotReads, condition_reads_slot
from neuron_cc.dialects.hlo.control_flow import WhileOp
from neuron_cc.testing.ir import parse_module
from neuron_cc.testing.loop_text import WhileLoop, module_text, tuple_type

SLOTS = ["tensor<i32>", "tensor<f32>", "tensor<f32>", "tensor<f32>"]
T = tuple_type(SLOTS)
KEEP = ("%s0", "%s1", "%s2", "%s3")

READS_0_AND_2 = """%n = hlo.constant dense<4> : tensor<i32>
%limit = hlo.constant dense<1.000000e+06> : tensor<f32>
%lt = hlo.compare LT, %s0, %n : tensor<i32> -> tensor<i1>
%small = hlo.compare LT, %s2, %limit : tensor<f32> -> tensor<i1>
%p = hlo.and %lt, %small : tensor<i1>"""

WHOLE_TUPLE = f"""%wrap = hlo.tuple %c : tuple<{T}>
%inner = hlo.get_tuple_element %wrap[0] : tuple<{T}>
%ci = hlo.get_tuple_element %inner[0] : {T}
%n = hlo.constant dense<4> : tensor<i32>
%p = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>"""


def _loop(condition: str) -> WhileOp:
    loop = WhileLoop(SLOTS, "", KEEP, condition=condition)
    function = f"""func.func @main(%init: {T}) -> {T} {{
{loop.text("%init", indent=2)}
  func.return %w : {T}
}}"""
    module = parse_module(module_text(function))
    return next(op for op in module.walk() if isinstance(op, WhileOp))


@pytest.mark.parametrize(
    ("text", "expected"),
    [(READS_0_AND_2, [True, False, True, False]), (WHOLE_TUPLE, [True] * 4)],
    ids=["gtes", "whole-tuple"],
)
def test_reads_with_and_without_an_index(text: str, expected: list[bool]) -> None:
    loop = _loop(text)
    index = ReadIndex()
    assert [condition_reads_slot(loop, s) for s in range(4)] == expected
    assert [condition_reads_slot(loop, s, index) for s in range(4)] == expected


def test_an_index_scans_the_condition_argument_once(monkeypatch: pytest.MonkeyPatch) -> None:
    loop = _loop(READS_0_AND_2)
    scans: list[object] = []
    real = while_loops.slot_reads

    def counted(value: object) -> SlotReads:
        scans.append(value)
        return real(value)  # type: ignore[arg-type]

    monkeypatch.setattr(while_loops, "slot_reads", counted)
    index = ReadIndex()
    for slot in range(4):
        condition_reads_slot(loop, slot, index)
    assert scans == [loop.condition.block.args[0]]
    for slot in range(4):
        condition_reads_slot(loop, slot)
    assert len(scans) == 1 + 4
