"""Types of the hlo dialect and the type constraints its ops share.

HLO values are builtin ranked, statically shaped `tensor<...>` values whose element type is one
of XLA's primitive types (pred=i1, s8..s64 = signless i8..i64, u8..u64 = ui8..ui64, f16, bf16,
f32, f64), builtin `tuple<...>` values, and `!hlo.token` (XLA's `token[]`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from typing_extensions import TypeVar
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import AttrConstraint, IntConstraint, irdl_attr_definition
from xdsl.irdl.constraints import VerificationContext
from xdsl.utils.exceptions import VerifyException


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """XLA's `token[]`: orders side effects (send/recv, after_all); carries no data."""

    name = "hlo.token"


HloTensor: TypeAlias = TensorType[Attribute]

_FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type)

ELEMENT_TYPES: dict[str, Attribute] = {
    "pred": IntegerType(1),
    **{f"s{w}": IntegerType(w) for w in (8, 16, 32, 64)},
    **{f"u{w}": IntegerType(w, Signedness.UNSIGNED) for w in (8, 16, 32, 64)},
    "f16": Float16Type(),
    "bf16": BFloat16Type(),
    "f32": Float32Type(),
    "f64": Float64Type(),
}
"""XLA element type name -> hlo dialect element type: the one table of the element types the
dialect supports (the HLO parser, the exporter and `element_type_name` all read it)."""

ELEMENT_NAMES: dict[Attribute, str] = {t: name for name, t in ELEMENT_TYPES.items()}
"""The inverse of `ELEMENT_TYPES`."""
_INT_WIDTHS = frozenset({8, 16, 32, 64})


def is_float_type(t: Attribute) -> bool:
    """True for f16, bf16, f32 and f64."""
    return isinstance(t, _FLOAT_TYPES)


def is_integer_type(t: Attribute) -> bool:
    """True for signless s8..s64 and unsigned u8..u64 (not pred)."""
    if not isinstance(t, IntegerType):
        return False
    if t.width.data not in _INT_WIDTHS:
        return False
    return t.signedness.data in (Signedness.SIGNLESS, Signedness.UNSIGNED)


def is_unsigned_type(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED


def is_pred_type(t: Attribute) -> bool:
    """True for i1, XLA's `pred`."""
    return (
        isinstance(t, IntegerType)
        and t.width.data == 1
        and t.signedness.data == Signedness.SIGNLESS
    )


def is_element_type(t: Attribute) -> bool:
    """True for every XLA primitive element type the dialect supports."""
    return is_float_type(t) or is_integer_type(t) or is_pred_type(t)


def element_type_name(t: Attribute) -> str:
    """XLA's name of an element type: f32, bf16, pred, s32, u8, ... (`str(t)` for others)."""
    name = ELEMENT_NAMES.get(t)
    if name is not None:
        return name
    if isinstance(t, IntegerType):  # widths XLA has but the dialect does not (s4, u2, ...)
        prefix = "u" if t.signedness.data == Signedness.UNSIGNED else "s"
        return f"{prefix}{t.width.data}"
    return str(t)


def _tensor_problem(attr: Attribute) -> str | None:
    if not isinstance(attr, TensorType):
        return f"expected a ranked tensor, got {attr}"
    if any(d < 0 for d in attr.get_shape()):
        return f"expected a statically shaped tensor, got {attr}"
    if not is_element_type(attr.element_type):
        return f"unsupported element type {attr.element_type} in {attr}"
    return None


def _value_problem(attr: Attribute) -> str | None:
    if isinstance(attr, TokenType):
        return None
    if isinstance(attr, TupleType):
        for t in attr.types.data:
            problem = _value_problem(t)
            if problem is not None:
                return problem
        return None
    return _tensor_problem(attr)


@dataclass(frozen=True)
class HloTensorConstraint(AttrConstraint[HloTensor]):
    """A ranked, static tensor with an XLA element type."""

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        problem = _tensor_problem(attr)
        if problem is not None:
            raise VerifyException(problem)

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint[Attribute] | IntConstraint]
    ) -> HloTensorConstraint:
        return self


@dataclass(frozen=True)
class HloValueConstraint(AttrConstraint[Attribute]):
    """An HLO tensor, a (nested) tuple of HLO values, or a token."""

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        problem = _value_problem(attr)
        if problem is not None:
            raise VerifyException(problem)

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint[Attribute] | IntConstraint]
    ) -> HloValueConstraint:
        return self


HLO_TENSOR = HloTensorConstraint()
HLO_VALUE = HloValueConstraint()


def tensor_type(value: SSAValue | Attribute) -> HloTensor:
    """The tensor type of a value already verified by `HLO_TENSOR`."""
    t = value.type if isinstance(value, SSAValue) else value
    if not isinstance(t, TensorType):
        raise VerifyException(f"expected a tensor, got {t}")
    return t


def shape_of(value: SSAValue | Attribute) -> tuple[int, ...]:
    return tuple(tensor_type(value).get_shape())


def tuple_elements(t: Attribute) -> Sequence[Attribute]:
    """The element types of a tuple type, or `[t]` for a non-tuple."""
    if isinstance(t, TupleType):
        return t.types.data
    return (t,)


def shape_str(shape: Sequence[int]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def tuple_type(types: Sequence[Attribute]) -> TupleType:
    """A builtin tuple type. Always build tuples through this: xDSL 0.75's `TupleType(list)` keeps
    the list, and such a type compares unequal to the parsed (tuple-backed) one."""
    return TupleType(tuple(types))  # pyright: ignore[reportArgumentType]


def element_bytes(element: Attribute) -> int:
    """Bytes of one element on the wire: the bit width rounded up to bytes (pred: 1)."""
    width = getattr(element, "bitwidth", None)
    if width is None and isinstance(element, IntegerType):
        width = element.width.data
    return max(1, -(-int(width or 8) // 8))


def value_bytes(t: Attribute) -> int:
    """Bytes of one device's value of type `t`: a tensor's elements times `element_bytes`, a
    tuple's elements summed, a token nothing. The one byte-size rule of the project (the BIR
    tiling, the interpreter's statistics and the cost model all use it)."""
    if isinstance(t, TupleType):
        return sum(value_bytes(e) for e in t.types.data)
    if not isinstance(t, TensorType):
        return 0
    count = 1
    for d in t.get_shape():
        count *= max(d, 0)
    return count * element_bytes(t.element_type)
