"""hlo-dce's one-pass liveness (issue 20) removes at least what xDSL's `region_dce` removes.

On generated programs (loops, nested loops, collectives, dead code of every kind), xDSL's
`region_dce` run after `hlo-dce` finds nothing left to remove, and `hlo-dce` run twice removes
nothing the second time (a fixed point); the property suite checks that the outputs stay equal.
On a dead loop, the values only its body used die with it (xDSL keeps them). The worklist
erases exactly the ops a liveness fixpoint (`_live_ops`, written here as its definition) finds
dead.
"""

from __future__ import annotations

from hypothesis import given, settings
from xdsl.ir import Operation
from xdsl.transforms.dead_code_elimination import region_dce

from neuron_cc.analysis.effects import is_removable
from neuron_cc.testing.generate import general_programs
from neuron_cc.testing.generated_program import GeneratedProgram
from neuron_cc.testing.ir import neuron_context, parse_module
from neuron_cc.testing.loop_text import WhileLoop
from neuron_cc.transforms.hlo_dce import HloDcePass


def _count(module: object) -> int:
    return sum(1 for _ in module.walk())  # pyright: ignore[reportAttributeAccessIssue]


@settings(max_examples=40, deadline=None)
@given(program=general_programs())
def test_hlo_dce_leaves_nothing_for_region_dce(program: GeneratedProgram) -> None:
    module = parse_module(program.text, ctx=neuron_context())
    HloDcePass().apply(neuron_context(), module)
    module.verify()
    after_ours = _count(module)
    region_dce(module.body)
    assert _count(module) == after_ours
    HloDcePass().apply(neuron_context(), module)
    assert _count(module) == after_ours


def _live_ops(module: object) -> set[int]:
    """The definition, iterated to a fixpoint: an op is live when it is not removable or a live
    op uses one of its results, and the op holding it (if any) is live."""
    ops: list[Operation] = list(module.walk())  # pyright: ignore[reportAttributeAccessIssue]
    live = {op for op in ops if not is_removable(op)}
    changed = True
    while changed:
        changed = False
        for op in ops:
            holder = op.parent_op()
            if holder is not None and holder in ops and holder not in live:
                continue
            used = any(u.operation in live for r in op.results for u in r.uses)
            if op not in live and (used or not is_removable(op)):
                live.add(op)
                changed = True
        for op in list(live):
            holder = op.parent_op()
            if holder is not None and holder in ops and holder not in live:
                live.discard(op)
                changed = True
    return {id(op) for op in live}


@settings(max_examples=40, deadline=None)
@given(program=general_programs())
def test_hlo_dce_erases_exactly_the_ops_liveness_finds_dead(program: GeneratedProgram) -> None:
    module = parse_module(program.text, ctx=neuron_context())
    live = _live_ops(module)
    HloDcePass().apply(neuron_context(), module)
    assert {id(op) for op in module.walk()} == live


_LOOP = WhileLoop(
    slots=["tensor<4xf32>"],
    body="%n = hlo.add %b, %only_the_loop : tensor<4xf32>",
    yields=["%n"],
    condition="%p = hlo.constant dense<false> : tensor<i1>",
    bare=True,
)
DEAD_LOOP = f"""
builtin.module attributes {{hlo.num_partitions = 1 : i64}} {{
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {{
    %only_the_loop = hlo.multiply %x, %x : tensor<4xf32>
{_LOOP.text("%x")}
    func.return %x : tensor<4xf32>
  }}
}}
"""


def test_a_dead_loop_takes_what_only_it_used() -> None:
    module = parse_module(DEAD_LOOP, ctx=neuron_context())
    HloDcePass().apply(neuron_context(), module)
    names = [op.name for op in module.walk()]
    assert "hlo.while" not in names
    assert "hlo.multiply" not in names
    assert names.count("func.return") == 1
