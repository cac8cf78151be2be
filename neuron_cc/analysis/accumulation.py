"""Accumulation tracing for collectives inside `hlo.while` bodies.

For a collective C in a loop body, `trace_accumulations` follows every use of C's result through
value-forwarding ops to the `add` that accumulates it into a loop-carried buffer
`get_tuple_element(body_arg, k)`, and checks that the add's result is returned at the same slot
k. It returns one `Accumulation` per such add, or the exact reason it cannot (the pass turns
reasons into remarks). Shapes handled (XLA WhileLoopAllReduceCodeMotion's):

    buffer side:  gte(arg, k) [-> dynamic_slice(., idx...)] [-> convert/bitcast/reshape/transpose]*
    value side:   C -> (convert | bitcast | reshape | transpose | slice | select(p, x, 0))* -> add
    output side:  add -> (the inverse forwarding chain of the buffer side)
                      [-> dynamic_update_slice(gte(arg, k), ., idx...)] -> tuple operand k
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Block, Operation, OpResult, SSAValue

from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, ReturnOp, TupleOp
from neuron_cc.dialects.hlo.data_movement import (
    BitcastOp,
    BroadcastOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    ReshapeOp,
    SliceOp,
    TransposeOp,
)
from neuron_cc.dialects.hlo.elementwise import AddOp
from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp, ConvertOp, SelectOp
from neuron_cc.dialects.hlo.types import is_float_type

SHAPE_FORWARDING = (ConvertOp, BitcastOp, ReshapeOp, TransposeOp)
VALUE_FORWARDING = (*SHAPE_FORWARDING, SliceOp)


class NotMovable(Exception):
    """Why an accumulation cannot be moved (the remark text)."""


@dataclass
class Accumulation:
    """One `add` accumulating a collective's (forwarded) value into slot `slot`."""

    collective: Operation
    slot: int
    add: AddOp
    buffer_chain: list[Operation] = field(default_factory=list[Operation])
    """Forwarding ops from the buffer gte (or its dynamic_slice) to the add operand."""
    dynamic_slice: DynamicSliceOp | None = None
    dynamic_update_slice: DynamicUpdateSliceOp | None = None
    selects: list[SelectOp] = field(default_factory=list[SelectOp])
    """select(p, x, 0) ops on the value side (their predicates must be replicated)."""
    output_chain: list[Operation] = field(default_factory=list[Operation])


def is_zero(value: SSAValue) -> bool:
    """A constant zero (splat) or a broadcast of a scalar zero constant."""
    owner = value.owner
    if isinstance(owner, BroadcastOp):
        owner = owner.operand.owner
    if not isinstance(owner, ConstantOp):
        return False
    attr = owner.value
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return False
    data = attr.data.data
    return not any(data) or all(v == 0 for v in attr.get_values())


def slot_of(value: SSAValue, arg: SSAValue) -> int | None:
    """k if `value` is get_tuple_element(arg, k)."""
    owner = value.owner
    if isinstance(owner, GetTupleElementOp) and owner.tuple_ is arg:
        return owner.index.value.data
    return None


def _single_user(value: SSAValue, what: str) -> Operation:
    uses = list(value.uses)
    if len(uses) != 1:
        raise NotMovable(f"{what} has {len(uses)} uses; an accumulation needs exactly one")
    return uses[0].operation


def _buffer_side(
    value: SSAValue, arg: SSAValue
) -> tuple[int, list[Operation], DynamicSliceOp | None]:
    """(slot, forwarding chain from the buffer to `value`, dynamic_slice) of an add operand."""
    chain: list[Operation] = []
    while isinstance(value, OpResult) and isinstance(value.op, SHAPE_FORWARDING):
        if isinstance(value.op, ConvertOp) and not _float_to_float(value.op):
            raise NotMovable(
                "a convert involving non-float types on the accumulation buffer does not "
                f"commute with the sum: {value.op.operand.type} -> {value.op.result.type}"
            )
        chain.append(value.op)
        value = value.op.operands[0]
    ds: DynamicSliceOp | None = None
    if isinstance(value, OpResult) and isinstance(value.op, DynamicSliceOp):
        ds = value.op
        value = ds.operand
    slot = slot_of(value, arg)
    if slot is None:
        raise NotMovable("the add's other operand is not a loop-carried accumulation buffer")
    chain.reverse()
    return slot, chain, ds


def _inverse(op: Operation) -> type[Operation]:
    return type(op)


def _output_side(acc: Accumulation, root: TupleOp, arg: SSAValue) -> None:
    """The add's result must reach the returned tuple at `acc.slot` (mirror chain, one DUS)."""
    value: SSAValue = acc.add.results[0]
    for expected in reversed(acc.buffer_chain):
        user = _single_user(value, "the accumulated value")
        if (
            not isinstance(user, _inverse(expected))
            or user.results[0].type != expected.operands[0].type
        ):
            raise NotMovable(
                f"the accumulated value is not converted back to the buffer type (used by {user.name})"
            )
        acc.output_chain.append(user)
        value = user.results[0]
    user = _single_user(value, "the accumulated value")
    if isinstance(user, DynamicUpdateSliceOp):
        if acc.dynamic_slice is None:
            raise NotMovable(
                "a dynamic-update-slice of the accumulation needs a matching dynamic-slice"
            )
        if user.update is not value or slot_of(user.operand, arg) != acc.slot:
            raise NotMovable("the dynamic-update-slice does not write the accumulation buffer")
        acc.dynamic_update_slice = user
        value = user.results[0]
        user = _single_user(value, "the updated accumulation buffer")
    elif acc.dynamic_slice is not None:
        raise NotMovable(
            "a dynamic-slice of the accumulation buffer needs a matching dynamic-update-slice"
        )
    if user is not root or [i for i, v in enumerate(root.elements) if v is value] != [acc.slot]:
        raise NotMovable(f"the accumulation result is not returned at tuple index {acc.slot}")


def _same_indices(ds: DynamicSliceOp, dus: DynamicUpdateSliceOp) -> bool:
    a, b = list(ds.start_indices), list(dus.start_indices)
    return len(a) == len(b) and all(
        x is y or _equal_constants(x, y) for x, y in zip(a, b, strict=True)
    )


def _equal_constants(x: SSAValue, y: SSAValue) -> bool:
    cx, cy = x.owner, y.owner
    return isinstance(cx, ConstantOp) and isinstance(cy, ConstantOp) and cx.value == cy.value


def _value_users(
    collective: Operation, forwarding: tuple[type[Operation], ...], allow_select: bool
) -> list[tuple[AddOp, SSAValue, list[SelectOp]]]:
    """Every add reached from the collective's result: (add, the operand it came in, selects)."""
    found: list[tuple[AddOp, SSAValue, list[SelectOp]]] = []
    stack: list[tuple[SSAValue, list[SelectOp]]] = [(collective.results[0], [])]
    while stack:
        value, selects = stack.pop()
        if not value.uses:
            raise NotMovable("the collective's result is unused on some path")
        for use in list(value.uses):
            user = use.operation
            if isinstance(user, AddOp):
                found.append((user, value, selects))
            elif isinstance(user, ConvertOp) and not _float_to_float(user):
                raise NotMovable(
                    "a convert involving non-float types does not commute with the sum: "
                    f"{user.operand.type} -> {user.result.type}"
                )
            elif isinstance(user, forwarding):
                stack.append((user.results[0], selects))
            elif allow_select and isinstance(user, SelectOp) and _select_against_zero(user, value):
                stack.append((user.results[0], [*selects, user]))
            else:
                raise NotMovable(
                    f"unsupported operation on the collective's result: {user.name[4:]}"
                )
    return found


def _float_to_float(op: ConvertOp) -> bool:
    a, b = op.operand.type, op.result.type
    return (
        isinstance(a, TensorType)
        and isinstance(b, TensorType)
        and is_float_type(a.element_type)
        and is_float_type(b.element_type)
    )


def _select_against_zero(op: SelectOp, value: SSAValue) -> bool:
    return (op.on_true is value and is_zero(op.on_false)) or (
        op.on_false is value and is_zero(op.on_true)
    )


def trace_accumulations(
    collective: Operation, body: Block, forwarding: tuple[type[Operation], ...] = VALUE_FORWARDING
) -> list[Accumulation]:
    """All accumulations of `collective` in loop body `body` (raises NotMovable)."""
    arg = body.args[0]
    last = body.last_op
    root = last.operands[0].owner if isinstance(last, ReturnOp) and last.operands else None
    if not isinstance(root, TupleOp):
        raise NotMovable("the loop body does not return a tuple")
    accumulations: list[Accumulation] = []
    for add, incoming, selects in _value_users(collective, forwarding, allow_select=True):
        other = add.rhs if add.lhs is incoming else add.lhs
        if other is incoming:
            raise NotMovable("the collective's value is added to itself")
        slot, chain, ds = _buffer_side(other, arg)
        acc = Accumulation(collective, slot, add, chain, ds, selects=selects)
        _output_side(acc, root, arg)
        if (
            ds is not None
            and acc.dynamic_update_slice is not None
            and not _same_indices(ds, acc.dynamic_update_slice)
        ):
            raise NotMovable("the dynamic-slice and dynamic-update-slice indices differ")
        accumulations.append(acc)
    slots = [a.slot for a in accumulations]
    if len(set(slots)) != len(slots):
        raise NotMovable("two accumulations of the collective write the same buffer")
    return accumulations


def buffer_users_problem(arg: SSAValue, slot: int, allowed: Sequence[Operation]) -> str | None:
    """Why slot `slot` of body argument `arg` has a user outside the accumulation, or None."""
    allowed_ids = {id(op) for op in allowed}
    for use in arg.uses:
        gte = use.operation
        if not isinstance(gte, GetTupleElementOp):
            return f"the loop body argument is used by {gte.name[4:]}"
        if gte.index.value.data != slot:
            continue
        for user_use in gte.result.uses:
            user = user_use.operation
            if id(user) not in allowed_ids:
                return f"unsupported operation on accumulation buffer: {user.name[4:]}"
    return None
