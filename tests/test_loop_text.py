"""The one builder of hand-written while loops for tests (neuron_cc/testing/loop_text.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block

from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, WhileOp
from neuron_cc.interpreter.runner import run_module
from neuron_cc.testing.ir import parse_module
from neuron_cc.testing.loop_text import WhileLoop, counted, module_text, tuple_type

Array = np.ndarray[Any, Any]

STEP = """
%one = hlo.constant dense<1> : tensor<i32>
%i1 = hlo.add %s0, %one : tensor<i32>
"""
"""The counter's next value `%i1`."""


def _function(loop: WhileLoop, init: str, args: str = "") -> str:
    """`@main(args)` running `loop` from `init` (ops defining `%init`) and returning it."""
    return f"""  func.func @main({args}) -> {loop.type} attributes {{hlo.entry}} {{
{init}
{loop.text("%init")}
    func.return %w : {loop.type}
  }}"""


def _zeros(slots: list[str]) -> str:
    """`%init`: a tuple of zero constants of the scalar `slots`."""
    constants = [f"    %z{k} = hlo.constant dense<0> : {t}" for k, t in enumerate(slots)]
    names = ", ".join(f"%z{k}" for k in range(len(slots)))
    return "\n".join([*constants, f"    %init = hlo.tuple {names} : {tuple_type(slots)}"])


def _parse(loop: WhileLoop, init: str, args: str = "") -> ModuleOp:
    return parse_module(module_text(_function(loop, init, args)))


def _reads(block: Block) -> list[int]:
    """The slots `block` reads from its argument, in order."""
    return [
        op.index.value.data
        for op in block.ops
        if isinstance(op, GetTupleElementOp) and op.tuple_ == block.args[0]
    ]


def _regions(module: ModuleOp) -> tuple[Block, Block]:
    (loop,) = [op for op in module.walk() if isinstance(op, WhileOp)]
    return loop.condition.blocks[0], loop.body.blocks[0]


def _run(module: ModuleOp, *inputs: Array) -> list[int]:
    """Device 0's value of every output (a tuple result is one output per element)."""
    return [int(np.asarray(out).reshape(-1)[0]) for out in run_module(module, list(inputs)).outputs]


def test_the_default_loop_parses_and_reads_only_what_it_names() -> None:
    slots = ["tensor<i32>", "tensor<4xf32>"]
    loop = WhileLoop(slots, STEP, ["%i1", "%s1"])
    assert loop.type == "tuple<tensor<i32>, tensor<4xf32>>"
    assert loop.slot_names == ["%s0", "%s1"]
    init = f"""    %z = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %z, %x : {loop.type}"""
    condition, body = _regions(_parse(loop, init, "%x: tensor<4xf32>"))
    assert _reads(condition) == [0]  # counted() compares slot 0 only
    assert _reads(body) == [0, 1]


def test_a_name_prefix_is_not_a_mention() -> None:
    """%s1 and %s10 are different slots: naming one reads only that one."""
    slots = ["tensor<i32>"] * 11
    yields = ["%i1", *(f"%k{k}" for k in range(1, 11))]
    constants = "\n".join(f"%k{k} = hlo.constant dense<{k}> : tensor<i32>" for k in range(1, 11))
    for used in (10, 1):
        loop = WhileLoop(
            slots,
            STEP + constants + f"\n%u = hlo.add %s{used}, %one : tensor<i32>",
            yields,
            condition=counted(2, counter=f"%s{used}"),
        )
        condition, body = _regions(_parse(loop, _zeros(slots)))
        assert _reads(condition) == [used]
        assert _reads(body) == [0, used]


def test_names_arguments_predicate_and_body_reads() -> None:
    slots = ["tensor<i32>", "tensor<i32>", "tensor<i32>"]
    loop = WhileLoop(
        slots,
        "%one = hlo.constant dense<1> : tensor<i32>\n%i1 = hlo.add %i, %one : tensor<i32>",
        ["%i1", "%k", "%k"],
        condition="%n = hlo.constant dense<3> : tensor<i32>\n"
        "%lt = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>",
        names=["%i", "%k", "%dead"],
        arguments=("%cs", "%bs"),
        predicate="%lt",
        body_reads=[2],
    )
    text = loop.text("%init", result="%loop", indent=2)
    assert text.startswith(f"  %loop = hlo.while(%init) : {loop.type} condition {{\n  ^bb0(%cs: ")
    assert "hlo.return %lt : tensor<i1>" in text
    assert f"^bb0(%bs: {loop.type}):" in text
    module = parse_module(module_text(_function(loop, _zeros(slots)).replace("%w", "%loop")))
    condition, body = _regions(module)
    assert _reads(condition) == [0]
    assert _reads(body) == [0, 1, 2]
    assert [op.results[0].name_hint for op in list(body.ops)[:3]] == ["i", "k", "dead"]
    assert _run(module) == [3, 0, 0]


@pytest.mark.parametrize("trips", [0, 1, 5])
def test_counted_runs_the_loop_trips_times(trips: int) -> None:
    """Slot 1 counts the iterations the interpreter runs."""
    slots = ["tensor<i32>", "tensor<i32>"]
    body = STEP + "%n1 = hlo.add %s1, %one : tensor<i32>"
    loop = WhileLoop(slots, body, ["%i1", "%n1"], condition=counted(trips))
    assert _run(_parse(loop, _zeros(slots))) == [trips, trips]


def test_counted_down_over_an_unsigned_counter() -> None:
    slots = ["tensor<ui32>", "tensor<i32>"]
    body = """
    %one = hlo.constant dense<1> : tensor<ui32>
    %c1 = hlo.subtract %c, %one : tensor<ui32>
    %once = hlo.constant dense<1> : tensor<i32>
    %n1 = hlo.add %n, %once : tensor<i32>
    """
    loop = WhileLoop(
        slots,
        body,
        ["%c1", "%n1"],
        condition=counted(2, counter="%c", element="ui32", direction="GT"),
        names=["%c", "%n"],
        arguments=("%cs", "%bs"),
    )
    init = f"""    %seven = hlo.constant dense<7> : tensor<ui32>
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %seven, %zero : {loop.type}"""
    assert _run(_parse(loop, init)) == [2, 5]


def test_a_bare_loop_carries_its_slot_itself() -> None:
    loop = WhileLoop(
        ["tensor<i32>"],
        "%one = hlo.constant dense<1> : tensor<i32>\n%n = hlo.add %b, %one : tensor<i32>",
        ["%n"],
        condition=counted(6, counter="%c"),
        bare=True,
    )
    assert loop.type == "tensor<i32>"
    text = loop.text("%x")
    assert "get_tuple_element" not in text
    assert "hlo.tuple" not in text
    module = parse_module(
        module_text(_function(loop, "", "%x: tensor<i32>").replace("%init", "%x"))
    )
    assert _run(module, np.array([4], np.int32)) == [6]


def test_a_loop_nested_in_the_body_of_another() -> None:
    """The inner loop has its own slot names and block arguments; 3 x 4 inner iterations."""
    slots = ["tensor<i32>", "tensor<i32>"]
    inner = WhileLoop(
        slots,
        "%one = hlo.constant dense<1> : tensor<i32>\n"
        "%j1 = hlo.add %j, %one : tensor<i32>\n"
        "%t1 = hlo.add %t, %one : tensor<i32>",
        ["%j1", "%t1"],
        condition=counted(4, counter="%j"),
        names=["%j", "%t"],
        arguments=("%ic", "%ib"),
    )
    outer = WhileLoop(
        slots,
        f"""
%zero = hlo.constant dense<0> : tensor<i32>
%inner_init = hlo.tuple %zero, %s1 : {inner.type}
{inner.text("%inner_init", result="%inner", indent=0)}
%total = hlo.get_tuple_element %inner[1] : {inner.type}
"""
        + STEP,
        ["%i1", "%total"],
        condition=counted(3),
    )
    module = _parse(outer, _zeros(slots))
    assert len([op for op in module.walk() if isinstance(op, WhileOp)]) == 2
    assert _run(module) == [3, 12]


def test_wrong_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="1 yields for 2 slots"):
        WhileLoop(["tensor<i32>", "tensor<i32>"], STEP, ["%i1"])
    with pytest.raises(ValueError, match="1 names for 2 slots"):
        WhileLoop(["tensor<i32>", "tensor<i32>"], STEP, ["%i1", "%s1"], names=["%i"])
    with pytest.raises(ValueError, match=r"body_reads \[2\] outside 2 slots"):
        WhileLoop(["tensor<i32>", "tensor<i32>"], STEP, ["%i1", "%s1"], body_reads=[2])
    with pytest.raises(ValueError, match="a bare loop carries 1 slot, not 2"):
        WhileLoop(["tensor<i32>", "tensor<i32>"], STEP, ["%i1", "%s1"], bare=True)


def test_module_text_attributes() -> None:
    assert module_text("f") == "builtin.module {\nf\n}\n"
    assert module_text("f", "g", partitions=8, replicas=2, spmd=True) == (
        "builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 2 : i64, "
        "hlo.use_spmd_partitioning} {\nf\ng\n}\n"
    )
