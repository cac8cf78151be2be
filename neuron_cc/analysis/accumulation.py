"""Accumulation tracing for collectives inside `hlo.while` bodies.

For a collective C in a loop body, `trace_accumulations` follows every use of C's result through
value-forwarding ops to the `add` that accumulates it into a loop-carried buffer
`get_tuple_element(body_arg, k)`, and checks that the add's result is returned at the same slot
k. It returns one `Accumulation` per such add, or the exact reason it cannot (the pass turns
reasons into remarks). Shapes handled (XLA WhileLoopAllReduceCodeMotion's):

    buffer side:  gte(arg, k) [-> dynamic_slice(., idx...)] [-> convert/bitcast/reshape/transpose]*
    value side:   C -> (convert | bitcast | reshape | transpose | slice | broadcast
                        | select(p, x, e) | x * s | x / s)* -> combine
    output side:  combine -> (the inverse forwarding chain of the buffer side)
                      [-> dynamic_update_slice(gte(arg, k), ., idx...)] -> tuple operand k

`combine` is the collective's own reducer `@` (add, multiply, maximum, minimum, and, or, xor),
`e` its identity and `s` a scalar (a rank-0 value or the broadcast of one; add only).

Why moving is exact (up to the reassociation of floating-point sums XLA accepts too). Let `@`
be commutative and associative with identity `e`, and `C(x) = @_d x_d` over the devices d of a
group. The loop computes `acc_T = init @ C(x_1) @ ... @ C(x_T)`. Regrouping the terms,
`C(x_1) @ ... @ C(x_T) = @_d (x_1,d @ ... @ x_T,d) = C(local_T)` where `local` starts at `e` and
accumulates `local @ x_t` on each device; for T = 0 both sides are `e` (C(e) = e), and
`init @ e = init`. Hence the loop may accumulate `local` and run `init @ C(local)` once after
it. Each forwarding step must commute with C:
- data movement (reshape, transpose, slice, broadcast, bitcast, a dynamic slice/update pair
  at indices replicated within the groups) acts identically on every device, and C is
  elementwise across devices;
- `select(p, x, e)` with p replicated within the groups contributes x or the identity on
  every device of a group alike;
- `x * s`, `x / s` with s replicated within the groups (add only): C is linear, so
  `sum_d (x_d * s) = (sum_d x_d) * s`;
- `convert`: for add and multiply a float-to-float convert (commutes up to rounding, as
  upstream accepts); for maximum/minimum any monotone convert (float to float, integer to
  wider integer or to float) commutes exactly with the order-based reducer; and/or/xor take
  no convert.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue

from neuron_cc.analysis.induction import constant_number, int_bounds
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
from neuron_cc.dialects.hlo.elementwise import (
    AddOp,
    AndOp,
    DivideOp,
    ElementwiseBinaryOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    OrOp,
    XorOp,
)
from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp, ConvertOp, SelectOp
from neuron_cc.dialects.hlo.types import (
    is_float_type,
    is_integer_type,
    is_pred_type,
    is_unsigned_type,
)

SHAPE_FORWARDING = (ConvertOp, BitcastOp, ReshapeOp, TransposeOp)
VALUE_FORWARDING = (*SHAPE_FORWARDING, SliceOp, BroadcastOp)

COMBINERS: dict[str, type[ElementwiseBinaryOp]] = {
    "hlo.add": AddOp,
    "hlo.multiply": MultiplyOp,
    "hlo.maximum": MaximumOp,
    "hlo.minimum": MinimumOp,
    "hlo.and": AndOp,
    "hlo.or": OrOp,
    "hlo.xor": XorOp,
}
"""Reducers a loop accumulation may use (commutative and associative, with an identity)."""

BITWISE = ("hlo.and", "hlo.or", "hlo.xor")


class NotMovable(Exception):
    """Why an accumulation cannot be moved (the remark text)."""

    def detached(self) -> NotMovable:
        """This reason without its traceback and chained exceptions, for keeping or reporting
        it after its `except` clause. A caught exception kept in a local (or re-raised through
        a frame holding it) is a reference cycle, frame -> local -> exception -> traceback ->
        frame, that holds every frame of its raise and their locals; only the cyclic GC frees
        it, and passes run with the GC paused, so one per refused collective would pile up
        (and the GC's next collection pays for all of them)."""
        self.__traceback__ = None
        self.__context__ = None
        self.__cause__ = None
        return self


@dataclass
class Accumulation:
    """One `combine` op accumulating a collective's (forwarded) value into slot `slot`."""

    collective: Operation
    slot: int
    add: ElementwiseBinaryOp
    """The combining op (`hlo.add` for sums, else the reducer's own op)."""
    buffer_chain: list[Operation] = field(default_factory=list[Operation])
    """Forwarding ops from the buffer gte (or its dynamic_slice) to the add operand."""
    dynamic_slice: DynamicSliceOp | None = None
    dynamic_update_slice: DynamicUpdateSliceOp | None = None
    selects: list[SelectOp] = field(default_factory=list[SelectOp])
    """select(p, x, e) ops on the value side (their predicates must be replicated)."""
    output_chain: list[Operation] = field(default_factory=list[Operation])
    scales: list[SSAValue] = field(default_factory=list[SSAValue])
    """Scale factors (`x * s`, `x / s`) on the value side (they must be replicated)."""
    value_chain: list[Operation] = field(default_factory=list[Operation])
    """Every op from the collective to the combine (exclusive), in order."""
    kind: str = "hlo.add"


def identity_value(kind: str, element: Attribute) -> int | float | None:
    """The identity of reducer `kind` at element type `element` (None: no such identity)."""
    bounds = int_bounds(element)
    floating = is_float_type(element)
    if kind in ("hlo.add", "hlo.or", "hlo.xor"):
        return 0.0 if floating else 0
    if kind == "hlo.multiply":
        return 1.0 if floating else 1
    if kind == "hlo.and":  # all bits set
        if bounds is None:
            return None
        return 1 if is_pred_type(element) else (bounds[1] if is_unsigned_type(element) else -1)
    if kind == "hlo.maximum":
        return float("-inf") if floating else (bounds[0] if bounds else None)
    if kind == "hlo.minimum":
        return float("inf") if floating else (bounds[1] if bounds else None)
    return None


def is_identity(value: SSAValue, kind: str) -> bool:
    """`value` is a splat constant (or broadcast of one) equal to `kind`'s identity."""
    t = value.type
    if not isinstance(t, TensorType):
        return False
    element: Attribute = t.element_type
    expected = identity_value(kind, element)
    found = constant_number(value)
    if expected is None or found is None:
        return False
    if is_pred_type(element) or (kind == "hlo.and" and not is_float_type(element)):
        return _bits(found, element) == _bits(expected, element)
    return found == expected


def _bits(x: float, element: Attribute) -> int | None:
    bounds = int_bounds(element)
    if bounds is None or not isinstance(x, int):
        return None
    return x % (bounds[1] - bounds[0] + 1)


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
    # `value` has one use (checked above), so it is returned at most once: O(1), not O(width)
    # (`root.operands` indexes the tuple's operands; `root.elements` would copy all of them)
    elements = root.operands
    if user is not root or acc.slot >= len(elements) or elements[acc.slot] is not value:
        raise NotMovable(f"the accumulation result is not returned at tuple index {acc.slot}")


def _same_indices(ds: DynamicSliceOp, dus: DynamicUpdateSliceOp) -> bool:
    a, b = list(ds.start_indices), list(dus.start_indices)
    return len(a) == len(b) and all(
        x is y or _equal_constants(x, y) for x, y in zip(a, b, strict=True)
    )


def _equal_constants(x: SSAValue, y: SSAValue) -> bool:
    cx, cy = x.owner, y.owner
    return isinstance(cx, ConstantOp) and isinstance(cy, ConstantOp) and cx.value == cy.value


@dataclass
class _Path:
    """A value reached from the collective and what it went through."""

    value: SSAValue
    selects: list[SelectOp]
    scales: list[SSAValue]
    chain: list[Operation]


def _value_users(
    collective: Operation,
    forwarding: tuple[type[Operation], ...],
    kind: str,
    allow_scale: bool,
) -> list[tuple[ElementwiseBinaryOp, _Path]]:
    """Every combine op reached from the collective's result, with the path that led to it."""
    combine = COMBINERS[kind]
    found: list[tuple[ElementwiseBinaryOp, _Path]] = []
    stack = [_Path(collective.results[0], [], [], [])]
    while stack:
        path = stack.pop()
        if not path.value.uses:
            raise NotMovable("the collective's result is unused on some path")
        for use in list(path.value.uses):
            user = use.operation
            if isinstance(user, combine):
                found.append((user, path))
                continue
            step = _step(user, path, forwarding, kind, allow_scale)
            if step is None and kind == "hlo.add" and isinstance(user, MultiplyOp | DivideOp):
                verb = "multiplied" if isinstance(user, MultiplyOp) else "divided"
                raise NotMovable(
                    f"the collective's result is {verb} by a value that is not a scalar"
                )
            if step is None and isinstance(user, tuple(COMBINERS.values())):
                raise NotMovable(
                    f"the {kind[4:]} reduction is accumulated with {user.name[4:]}: only the "
                    "reducer's own operation accumulates"
                )
            if step is None:
                raise NotMovable(
                    f"unsupported operation on the collective's result: {user.name[4:]}"
                )
            stack.append(step)
    return found


def _step(
    user: Operation,
    path: _Path,
    forwarding: tuple[type[Operation], ...],
    kind: str,
    allow_scale: bool,
) -> _Path | None:
    """The path continued through `user`, or None when `user` does not forward the value."""
    chain = [*path.chain, user]
    if isinstance(user, ConvertOp):
        problem = convert_problem(user, kind)
        if problem is not None:
            raise NotMovable(problem)
        if ConvertOp not in forwarding:
            return None
        return _Path(user.result, path.selects, path.scales, chain)
    if isinstance(user, forwarding):
        return _Path(user.results[0], path.selects, path.scales, chain)
    if isinstance(user, SelectOp) and _select_against_identity(user, path.value, kind):
        return _Path(user.result, [*path.selects, user], path.scales, chain)
    factor = scale_factor(user, path.value) if allow_scale and kind == "hlo.add" else None
    if factor is not None:
        return _Path(user.results[0], path.selects, [*path.scales, factor], chain)
    return None


def scale_factor(user: Operation, value: SSAValue) -> SSAValue | None:
    """s when `user` is `value * s`, `s * value` or `value / s` with s an effective scalar."""
    if isinstance(user, MultiplyOp):
        other = user.rhs if user.lhs is value else user.lhs
    elif isinstance(user, DivideOp) and user.lhs is value:
        other = user.rhs
    else:
        return None
    if other is value:
        return None
    return effective_scalar(other)


def effective_scalar(value: SSAValue) -> SSAValue | None:
    """The rank-0 value that `value` is (itself, or the operand of a broadcast of one)."""
    t = value.type
    if isinstance(t, TensorType) and not t.get_shape():
        return value
    owner = value.owner
    if isinstance(owner, BroadcastOp):
        inner = owner.operand.type
        if isinstance(inner, TensorType) and not inner.get_shape():
            return owner.operand
    return None


def convert_problem(op: ConvertOp, kind: str) -> str | None:
    """Why `op` on a collective's result does not commute with reducer `kind`, or None."""
    a, b = op.operand.type, op.result.type
    if not (isinstance(a, TensorType) and isinstance(b, TensorType)):
        return "convert of a non-tensor value"
    src: Attribute = a.element_type
    dst: Attribute = b.element_type
    if kind in ("hlo.maximum", "hlo.minimum"):
        if _monotone(src, dst):
            return None
        return f"a convert {a} -> {b} is not monotone: it does not commute with {kind[4:]}"
    if kind in BITWISE:
        return f"a convert {a} -> {b} does not commute with {kind[4:]}"
    if is_float_type(src) and is_float_type(dst):
        return None
    return (
        "a convert involving non-float types does not commute with the "
        f"{'sum' if kind == 'hlo.add' else 'product'}: {a} -> {b}"
    )


def _monotone(src: Attribute, dst: Attribute) -> bool:
    """Converts that preserve order: float->float, integer->float, integer->wider integer."""
    if is_float_type(dst):
        return is_float_type(src) or is_integer_type(src)
    a, b = int_bounds(src), int_bounds(dst)
    if a is None or b is None or not is_integer_type(src) or is_float_type(src):
        return False
    return b[0] <= a[0] and a[1] <= b[1] and isinstance(dst, IntegerType)


def _float_to_float(op: ConvertOp) -> bool:
    a, b = op.operand.type, op.result.type
    return (
        isinstance(a, TensorType)
        and isinstance(b, TensorType)
        and is_float_type(a.element_type)
        and is_float_type(b.element_type)
    )


def _select_against_identity(op: SelectOp, value: SSAValue, kind: str) -> bool:
    return (op.on_true is value and is_identity(op.on_false, kind)) or (
        op.on_false is value and is_identity(op.on_true, kind)
    )


def trace_accumulations(
    collective: Operation,
    body: Block,
    forwarding: tuple[type[Operation], ...] = VALUE_FORWARDING,
    kind: str = "hlo.add",
    allow_scale: bool = True,
) -> list[Accumulation]:
    """All accumulations of `collective` (reducer `kind`) in loop body `body` (raises
    NotMovable)."""
    arg = body.args[0]
    last = body.last_op
    root = last.operands[0].owner if isinstance(last, ReturnOp) and last.operands else None
    if not isinstance(root, TupleOp):
        raise NotMovable("the loop body does not return a tuple")
    accumulations: list[Accumulation] = []
    for add, path in _value_users(collective, forwarding, kind, allow_scale):
        incoming = path.value
        other = add.rhs if add.lhs is incoming else add.lhs
        if other is incoming:
            raise NotMovable(
                "the collective's value is "
                + ("added to" if kind == "hlo.add" else "combined with")
                + " itself"
            )
        slot, chain, ds = _buffer_side(other, arg)
        acc = Accumulation(
            collective,
            slot,
            add,
            chain,
            ds,
            selects=path.selects,
            scales=path.scales,
            value_chain=path.chain,
            kind=kind,
        )
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


class SlotUsers:
    """The users of a loop body argument by tuple slot, from ONE walk over its uses.

    A question per slot then costs that slot's users, not the argument's: asking it for every
    slot of a 2,000-slot loop is linear, not quadratic. Valid while the argument's uses do not
    change (a plan is made before its rewrite)."""

    def __init__(self, arg: SSAValue) -> None:
        self.by_slot: dict[int, list[tuple[int, GetTupleElementOp]]] = {}
        self.other: tuple[int, Operation] | None = None
        """The first user that is not a get_tuple_element, with its position among the uses."""
        for position, use in enumerate(arg.uses):
            op = use.operation
            if isinstance(op, GetTupleElementOp):
                self.by_slot.setdefault(op.index.value.data, []).append((position, op))
            elif self.other is None:
                self.other = (position, op)

    def gtes(self, slot: int) -> list[GetTupleElementOp]:
        return [op for _, op in self.by_slot.get(slot, ())]


def buffer_users_problem(
    arg: SSAValue, slot: int, allowed: Sequence[Operation], users: SlotUsers | None = None
) -> str | None:
    """Why slot `slot` of body argument `arg` has a user outside the accumulation, or None
    (the first problem in the order of `arg`'s uses). `users`: `SlotUsers(arg)`, if at hand."""
    users = SlotUsers(arg) if users is None else users
    allowed_ids = {id(op) for op in allowed}
    problems: list[tuple[int, str]] = []
    if users.other is not None:
        position, op = users.other
        problems.append((position, f"the loop body argument is used by {op.name[4:]}"))
    for position, gte in users.by_slot.get(slot, ()):
        for user_use in gte.result.uses:
            user = user_use.operation
            if id(user) not in allowed_ids:
                problems.append(
                    (position, f"unsupported operation on accumulation buffer: {user.name[4:]}")
                )
                break
    return min(problems)[1] if problems else None
