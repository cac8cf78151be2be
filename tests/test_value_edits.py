"""`neuron_cc.dialects.value_edits`: in-place retyping and batched use replacement."""

from __future__ import annotations

from typing import Any

import pytest
from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import Block, Operation, SSAValue

from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, TupleOp
from neuron_cc.dialects.hlo.elementwise import AddOp
from neuron_cc.dialects.value_edits import replace_values, set_type
from tests.conftest import count_operand_tuples

V2 = TensorType(f32, [2])
V4 = TensorType(f32, [4])


def test_set_type_keeps_the_value_and_its_uses() -> None:
    block = Block(arg_types=[V2])
    (x,) = block.args
    add = AddOp.create(operands=[x, x], result_types=[V2])
    block.add_op(add)
    result = add.results[0]
    tup = TupleOp([result, x])
    block.add_op(tup)
    assert set_type(result, V4) is result
    assert result.type == V4
    assert add.results[0] is result
    assert [(u.operation, u.index) for u in result.uses] == [(tup, 0)]
    assert set_type(x, V4) is x
    assert block.args[0].type == V4


def _wide(n: int) -> tuple[Block, list[SSAValue], list[SSAValue], TupleOp, list[Operation]]:
    """A tuple reading n values, each also read by an add, and n replacement values."""
    block = Block(arg_types=[V2] * (2 * n))
    olds: list[SSAValue] = list(block.args[:n])
    news: list[SSAValue] = list(block.args[n:])
    for i, v in enumerate(olds):
        v.name_hint = f"old{i}"
    adds: list[Operation] = [AddOp.create(operands=[v, v], result_types=[V2]) for v in olds]
    tup = TupleOp(olds)
    block.add_ops([*adds, tup])
    return block, olds, news, tup, adds


def _state(olds: list[SSAValue], news: list[SSAValue], ops: list[Operation]) -> list[Any]:
    values = olds + news
    return [
        [[values.index(v) for v in op.operands] for op in ops],
        [[(ops.index(u.operation), u.index) for u in v.uses] for v in values],
        [v.name_hint for v in values],
    ]


def test_replace_values_leaves_what_one_replacement_per_pair_leaves() -> None:
    _, olds, news, tup, adds = _wide(6)
    replace_values(zip(olds, news, strict=True))
    batched = _state(olds, news, [*adds, tup])
    _, olds2, news2, tup2, adds2 = _wide(6)
    for old, new in zip(olds2, news2, strict=True):
        old.replace_all_uses_with(new)
    assert batched == _state(olds2, news2, [*adds2, tup2])
    assert list(tup.operands) == news
    assert all(not old.uses for old in olds)
    assert [v.name_hint for v in news] == [f"old{i}" for i in range(6)]


def test_replace_values_rebuilds_each_user_once(monkeypatch: pytest.MonkeyPatch) -> None:
    built = count_operand_tuples(monkeypatch)
    _, olds, news, tup, _ = _wide(40)
    replace_values(zip(olds, news, strict=True))
    # 40 adds and the tuple: one new operand tuple each (one per use would be 40 of width 40)
    assert len(built) == 41
    assert built.count(40) == 1
    assert list(tup.operands) == news


def test_replace_values_skips_a_value_replaced_by_itself() -> None:
    block = Block(arg_types=[V2])
    (x,) = block.args
    gte_user = TupleOp([x])
    block.add_op(gte_user)
    read = GetTupleElementOp(gte_user, 0)
    block.add_op(read)
    replace_values([(x, x)])
    assert [(u.operation, u.index) for u in x.uses] == [(gte_user, 0)]


def test_replace_values_follows_a_chain_read_before_any_replacement() -> None:
    """b = add(a, a) and c = add(b, b), each replaced by its first operand read up front (b's
    read gives a): every use of b and c ends on x, as replacing them one at a time does."""
    block = Block(arg_types=[V2])
    (x,) = block.args
    a = AddOp.create(operands=[x, x], result_types=[V2])
    b = AddOp.create(operands=[a.results[0], a.results[0]], result_types=[V2])
    tup = TupleOp([a.results[0], b.results[0], x])
    block.add_ops([a, b, tup])
    pairs = [(op.results[0], op.operands[0]) for op in (a, b)]
    replace_values(pairs)
    assert list(tup.operands) == [x, x, x]
    assert not a.results[0].uses
    assert not b.results[0].uses
    assert sorted((u.operation is tup, u.index) for u in x.uses if u.operation is tup) == [
        (True, 0),
        (True, 1),
        (True, 2),
    ]


def test_replace_all_uses_with_rebuilds_each_user_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """xDSL's `replace_all_uses_with` (patch 13 of `xdsl_patches`): a tuple reading one value n
    times gets one new operand tuple, not n (quadratic)."""
    built = count_operand_tuples(monkeypatch)
    block = Block(arg_types=[TensorType(f32, [2])] * 2)
    x, y = block.args
    tup = TupleOp([x] * 50)
    x.replace_all_uses_with(y)
    assert built == [50]  # one tuple of the 50 operands
    assert list(tup.operands) == [y] * 50
    assert sorted(u.index for u in y.uses) == list(range(50))


def test_operand_edits_move_uses_at_once_and_write_each_tuple_once() -> None:
    from neuron_cc.dialects.value_edits import operand_edits

    _, olds, news, tup, _ = _wide(4)
    with operand_edits() as edits:
        edits.set(tup, 1, news[1])
        edits.set(tup, 3, news[3])
        edits.set(tup, 0, olds[0])  # unchanged: nothing moves
        assert [u.operation for u in news[1].uses] == [tup]  # the use moved already
        assert list(tup.operands) == olds  # the tuple is written at the end
    assert list(tup.operands) == [olds[0], news[1], olds[2], news[3]]
    assert all(u.operation is not tup for u in olds[1].uses)
    assert [(u.operation, u.index) for u in news[3].uses] == [(tup, 3)]
