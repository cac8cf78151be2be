"""Constants and integer types for the loop analysis (`neuron_cc.analysis.induction`).

The value range of an integer or pred element type (`int_bounds`, as an `Interval`), the
element type of a scalar (`scalar_element`), the number a splat constant holds seen through
copy / convert / reshape / bitcast / broadcast / tuple chains (`constant_number`,
`constant_int`) and the tuple operand behind a get_tuple_element (`tuple_element`).
"""

from __future__ import annotations

from typing import TypeAlias

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute, SSAValue

from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, TupleOp
from neuron_cc.dialects.hlo.data_movement import BitcastOp, BroadcastOp, CopyOp, ReshapeOp
from neuron_cc.dialects.hlo.elementwise_misc import (
    ConstantOp,
    ConvertOp,
)
from neuron_cc.dialects.hlo.types import (
    is_float_type,
    is_integer_type,
    is_pred_type,
    is_unsigned_type,
)

Interval: TypeAlias = tuple[int, int]
_MAX_DEPTH = 64
_FORWARDING = (CopyOp, ReshapeOp, BitcastOp, BroadcastOp)


# ---------------------------------------------------------------------------
# constants and integer types
# ---------------------------------------------------------------------------


def int_bounds(element: Attribute) -> Interval | None:
    """The value range of an integer or pred element type (None for other types)."""
    if is_pred_type(element):
        return (0, 1)
    if not is_integer_type(element) or not isinstance(element, IntegerType):
        return None
    width = element.width.data
    if is_unsigned_type(element):
        return (0, 2**width - 1)
    return (-(2 ** (width - 1)), 2 ** (width - 1) - 1)


def scalar_element(v: SSAValue) -> Attribute | None:
    """The element type of a rank-0 tensor value, else None."""
    t = v.type
    if isinstance(t, TensorType) and not t.get_shape():
        return t.element_type
    return None


def _cast(value: float, element: Attribute) -> int | float | None:
    """`convert` of one number to `element` (None where XLA's result is not exact/defined)."""
    if is_float_type(element):
        return float(value)
    if is_pred_type(element):
        return int(value != 0)
    bounds = int_bounds(element)
    if bounds is None:
        return None
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        value = int(value)
        return value if bounds[0] <= value <= bounds[1] else None
    span = bounds[1] - bounds[0] + 1
    return (value - bounds[0]) % span + bounds[0]


def _splat(op: ConstantOp) -> int | float | None:
    value = op.value
    if not value.is_splat():
        return None
    values = value.get_values()
    if not values:
        return None
    first = values[0]
    if not isinstance(first, int | float):
        return None
    if is_pred_type(value.get_element_type()):
        return int(first != 0)
    return first


def _number(v: SSAValue, depth: int = 0) -> int | float | None:
    for _ in range(_MAX_DEPTH):
        op = v.owner
        if isinstance(op, ConstantOp):
            return _splat(op)
        if isinstance(op, _FORWARDING):
            v = op.operand
        elif isinstance(op, GetTupleElementOp) and isinstance(op.tuple_.owner, TupleOp):
            v = op.tuple_.owner.elements[op.index.value.data]
        elif isinstance(op, ConvertOp) and depth < _MAX_DEPTH:
            x = _number(op.operand, depth + 1)
            return None if x is None else _cast(x, op.result.type.element_type)
        else:
            return None
    return None


def constant_number(v: SSAValue) -> int | float | None:
    """The number every element of `v` equals (a splat constant seen through the same chains
    as `constant_int`; floats included), else None."""
    return _number(v)


def constant_int(v: SSAValue) -> int | None:
    """The integer (pred: 0/1) every element of `v` equals, when `v` is a splat constant seen
    through copy/convert/reshape/bitcast/broadcast/tuple chains; else None."""
    x = _number(v)
    return x if isinstance(x, int) else None


def tuple_element(value: SSAValue, index: int) -> SSAValue | None:
    """Operand `index` of the `hlo.tuple` that builds `value` (through get_tuple_element)."""
    for _ in range(_MAX_DEPTH):
        op = value.owner
        if isinstance(op, TupleOp):
            return op.elements[index]
        if not (isinstance(op, GetTupleElementOp) and isinstance(op.tuple_.owner, TupleOp)):
            return None
        value = op.tuple_.owner.elements[op.index.value.data]
    return None
