"""`of_class` keeps exactly the ops `isinstance` keeps, in order (subclasses and tuples too)."""

from __future__ import annotations

from neuron_cc.dialects.hlo.collectives import AllReduceOp, CollectiveOp
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, WhileOp
from neuron_cc.dialects.op_classes import of_class
from neuron_cc.testing.ir import parse_module
from neuron_cc.testing.loop_text import WhileLoop

_LOOP = WhileLoop(
    slots=["tensor<4xf32>"],
    body=(
        "%n = hlo.all_reduce(%b) replica_groups = [[0]] {\n"
        "^bb0(%u: tensor<f32>, %v: tensor<f32>):\n"
        "  %s = hlo.add %u, %v : tensor<f32>\n"
        "  hlo.return %s : tensor<f32>\n"
        "} : (tensor<4xf32>) -> tensor<4xf32>"
    ),
    yields=["%n"],
    condition="%p = hlo.constant dense<false> : tensor<i1>",
    bare=True,
)


def test_of_class_matches_isinstance() -> None:
    text = _LOOP.text("%x")
    module = parse_module(
        "builtin.module {\n func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        f"{text}\n    func.return %x : tensor<4xf32>\n  }}\n}}"
    )
    ops = list(module.walk())
    for kinds in (AllReduceOp, CollectiveOp, WhileOp, (WhileOp, GetTupleElementOp)):
        expected = [op for op in ops if isinstance(op, kinds)]
        assert of_class(ops, kinds) == expected
    assert len(of_class(ops, CollectiveOp)) == 1
    assert of_class(ops, (WhileOp, GetTupleElementOp))
