"""Unit tests of the accumulation tracing and replica-group matching used by the loop passes."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from xdsl.dialects.builtin import ModuleOp

from neuron_cc.analysis.accumulation import NotMovable, trace_accumulations
from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.dialects.hlo.control_flow import WhileOp
from neuron_cc.dialects.replica_groups import (
    matches_reference,
    next_channel_id,
    parse_reference_groups,
)
from neuron_cc.testing.ir import parse_module
from neuron_cc.testing.loop_text import WhileLoop, counted, module_text, tuple_type

SLOTS = ["tensor<i32>", "tensor<4xf32>", "tensor<4xf32>", "tensor<8x4xf32>"]
T = tuple_type(SLOTS)
NAMES = ("%i", "%acc", "%other", "%big")
NEXT = ("%i", "%acc2", "%other", "%big")
"""The usual next state: slot 1 takes the accumulation `%acc2`."""
ALL_REDUCE = """
%ar = hlo.all_reduce(%other) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 5 use_global_device_ids {
^bb0(%l: tensor<f32>, %r: tensor<f32>):
  %s = hlo.add %l, %r : tensor<f32>
  hlo.return %s : tensor<f32>
} : (tensor<4xf32>) -> tensor<4xf32>
"""


def _loop(body: str, yields: Sequence[str] = NEXT) -> tuple[ModuleOp, WhileOp, AllReduceOp]:
    """A 4-trip loop over `NAMES` whose body all-reduces `%other` into `%ar`, then runs `body`
    and yields `yields`."""
    loop = WhileLoop(
        SLOTS, ALL_REDUCE + body, yields, condition=counted(4, counter="%i"), names=NAMES
    )
    function = f"""func.func @main(%init: {T}, %x: tensor<4xf32>) -> {T} attributes {{hlo.entry}} {{
{loop.text("%init", indent=2)}
  func.return %w : {T}
}}"""
    module = parse_module(module_text(function, partitions=8, spmd=True))
    while_op = next(op for op in module.walk() if isinstance(op, WhileOp))
    ar = next(op for op in module.walk() if isinstance(op, AllReduceOp))
    return module, while_op, ar


def test_direct_accumulation_is_traced() -> None:
    _, loop, ar = _loop("%acc2 = hlo.add %acc, %ar : tensor<4xf32>")
    (acc,) = trace_accumulations(ar, loop.body.blocks[0])
    assert acc.slot == 1
    assert acc.add.results[0].name_hint == "acc2"
    assert acc.dynamic_slice is None
    assert acc.selects == []


def test_select_against_zero_and_slice_are_forwarded() -> None:
    _, loop, ar = _loop(
        """%t = hlo.constant dense<true> : tensor<4xi1>
%z = hlo.constant dense<0.000000e+00> : tensor<4xf32>
%sel = hlo.select %t, %ar, %z : tensor<4xi1>, tensor<4xf32>
%acc2 = hlo.add %sel, %acc : tensor<4xf32>"""
    )
    (acc,) = trace_accumulations(ar, loop.body.blocks[0])
    assert acc.slot == 1
    assert [s.results[0].name_hint for s in acc.selects] == ["sel"]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (
            (
                """%m = hlo.multiply %ar, %ar : tensor<4xf32>
%acc2 = hlo.add %acc, %m : tensor<4xf32>""",
                NEXT,
            ),
            "the collective's result is multiplied by a value that is not a scalar",
        ),
        (
            ("%acc2 = hlo.add %acc, %ar : tensor<4xf32>", ("%i", "%acc", "%acc2", "%big")),
            "the accumulation result is not returned at tuple index 1",
        ),
        (
            ("%acc2 = hlo.add %x, %ar : tensor<4xf32>", NEXT),
            "the add's other operand is not a loop-carried accumulation buffer",
        ),
        (
            ("%acc2 = hlo.add %ar, %ar : tensor<4xf32>", NEXT),
            "added to itself",
        ),
        (
            (
                """%c = hlo.convert %ar : tensor<4xf32> -> tensor<4xi32>
%d = hlo.convert %c : tensor<4xi32> -> tensor<4xf32>
%acc2 = hlo.add %acc, %d : tensor<4xf32>""",
                NEXT,
            ),
            "a convert involving non-float types does not commute with the sum",
        ),
    ],
)
def test_not_movable_reasons(body: tuple[str, Sequence[str]], reason: str) -> None:
    """`body` is the body lines after the all-reduce and the yields."""
    _, loop, ar = _loop(*body)
    with pytest.raises(NotMovable, match=reason):
        trace_accumulations(ar, loop.body.blocks[0])


def test_reference_groups_parse_and_match() -> None:
    reference = parse_reference_groups("0,1,2,3;4,5,6,7")
    assert reference == ((0, 1, 2, 3), (4, 5, 6, 7))
    assert matches_reference([[0, 1, 2, 3], [4, 5, 6, 7]], reference)
    assert not matches_reference([[4, 5, 6, 7], [0, 1, 2, 3]], reference)  # order matters
    assert not matches_reference([[0, 1, 3, 2], [4, 5, 6, 7]], reference)
    assert not matches_reference([[0, 1, 2, 3, 4, 5, 6, 7]], reference)
    assert matches_reference([[7, 0]], None)  # no gate
    assert parse_reference_groups("  ") is None
    with pytest.raises(ValueError, match="malformed"):
        parse_reference_groups("0,1;;2")
    with pytest.raises(ValueError, match="malformed"):
        parse_reference_groups("0,a")


def test_next_channel_id() -> None:
    module, _, _ = _loop("%acc2 = hlo.add %acc, %ar : tensor<4xf32>")
    assert next_channel_id(module.walk()) == 6
    assert next_channel_id([]) == 1
