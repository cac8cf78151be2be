"""`reduction_kind`: which reducer regions count as `op(arg0, arg1)`."""

from __future__ import annotations

import pytest

from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.testing.ir import parse_module


def _kind(
    body: str, args: str = "%a: tensor<f32>, %b: tensor<f32>", verify: bool = True
) -> str | None:
    module = parse_module(
        f"""
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {{
  %r = hlo.all_reduce(%x) replica_groups = [[0]] {{
  ^bb0({args}):
{body}
  }} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}}
""",
        verify=verify,
    )
    op = next(o for o in module.walk() if isinstance(o, AllReduceOp))
    return reduction_kind(op.regions[0])


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("%s = hlo.add %a, %b : tensor<f32>\nhlo.return %s : tensor<f32>", "hlo.add"),
        ("%s = hlo.add %b, %a : tensor<f32>\nhlo.return %s : tensor<f32>", "hlo.add"),
        ("%s = hlo.maximum %a, %b : tensor<f32>\nhlo.return %s : tensor<f32>", "hlo.maximum"),
        ("%s = hlo.subtract %a, %b : tensor<f32>\nhlo.return %s : tensor<f32>", None),
        ("%s = hlo.add %a, %a : tensor<f32>\nhlo.return %s : tensor<f32>", None),
        ("%s = hlo.add %a, %b : tensor<f32>\nhlo.return %a : tensor<f32>", None),
        (
            "%s = hlo.add %a, %b : tensor<f32>\n%t = hlo.add %s, %b : tensor<f32>\n"
            "hlo.return %t : tensor<f32>",
            None,
        ),
        ("hlo.return %a : tensor<f32>", None),
    ],
)
def test_reduction_kind(body: str, expected: str | None) -> None:
    assert _kind(body) == expected


def test_three_arguments_are_not_a_binary_reducer() -> None:
    body = "%s = hlo.add %a, %b : tensor<f32>\nhlo.return %s : tensor<f32>"
    # the verifier rejects such a reducer; the analysis must not take it for one either
    assert _kind(body, "%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>", verify=False) is None
