"""`transforms/closed_erase.py`: erasing an op with closed regions leaves the same IR outside."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import Block, Region, SSAValue

from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.dialects.hlo.control_flow import ReturnOp
from neuron_cc.dialects.hlo.elementwise import AddOp, MultiplyOp
from neuron_cc.transforms.closed_erase import erase_closed, has_closed_regions

SCALAR = TensorType(f32, [])
VECTOR = TensorType(f32, [4])


def _reducer(captured: SSAValue | None = None) -> Region:
    """add(a, b) returned; with `captured`, add(a, captured) (a use of an outside value)."""
    block = Block(arg_types=[SCALAR, SCALAR])
    a, b = block.args
    add = AddOp.create(operands=[a, captured or b], result_types=[SCALAR])
    block.add_ops([add, ReturnOp.create(operands=[add.results[0]])])
    return Region(block)


def _uses(value: SSAValue) -> int:
    return sum(1 for _ in value.uses)


def test_a_simple_reducer_is_closed_and_its_op_erases_cleanly() -> None:
    outside = Block(arg_types=[VECTOR, SCALAR])
    x, _ = outside.args
    ar = AllReduceOp.create(operands=[x], result_types=[VECTOR], regions=[_reducer()])
    other = MultiplyOp.create(operands=[x, x], result_types=[VECTOR])
    assert has_closed_regions(ar)
    assert _uses(x) == 3
    erase_closed(ar)
    assert _uses(x) == 2  # the all-reduce's use is gone, the multiply's two stay
    assert all(u.operation is other for u in x.uses)


def test_a_region_using_an_outside_value_takes_xdsls_erase() -> None:
    outside = Block(arg_types=[VECTOR, SCALAR])
    x, s = outside.args
    ar = AllReduceOp.create(operands=[x], result_types=[VECTOR], regions=[_reducer(s)])
    assert not has_closed_regions(ar)
    assert _uses(s) == 1
    erase_closed(ar)
    assert _uses(s) == 0  # xDSL's erase dropped the use inside the region too
    assert _uses(x) == 0


def test_refuses_an_attached_or_used_op() -> None:
    outside = Block(arg_types=[VECTOR])
    x = outside.args[0]
    ar = AllReduceOp.create(operands=[x], result_types=[VECTOR], regions=[_reducer()])
    user = MultiplyOp.create(operands=[ar.results[0], x], result_types=[VECTOR])
    with pytest.raises(ValueError, match="still used"):
        erase_closed(ar)
    outside.add_op(user)
    with pytest.raises(ValueError, match="still in a block"):
        erase_closed(user)
