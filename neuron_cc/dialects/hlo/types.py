"""Types of the hlo dialect and the type constraints its ops share.

HLO values are builtin ranked, statically shaped `tensor<...>` values whose element type is one
of XLA's primitive types (`ELEMENT_TYPES`), builtin `tuple<...>` values, and `!hlo.token` (XLA's
`token[]`). Every XLA element type has a builtin xDSL type, so the dialect defines none:
pred = i1; s2..s64 = signless i2..i64; s1 = si1 (the one signed type: the signless i1 is pred);
u1..u64 = ui1..ui64; f16, bf16, f32, f64; the FP8 family f8e5m2, f8e4m3, f8e4m3fn, f8e5m2fnuz,
f8e4m3fnuz, f8e4m3b11fnuz, f8e3m4, f8e8m0fnu = builtin f8E5M2 ... f8E8M0FNU; f6e2m3fn,
f6e3m2fn, f4e2m1fn = f6E2M3FN, f6E3M2FN, f4E2M1FN; c64 = complex<f32>, c128 = complex<f64>.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from typing_extensions import TypeVar
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E3M4Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
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

NARROW_FLOATS: dict[str, Attribute] = {
    "f8e5m2": Float8E5M2Type(),
    "f8e4m3": Float8E4M3Type(),
    "f8e4m3fn": Float8E4M3FNType(),
    "f8e5m2fnuz": Float8E5M2FNUZType(),
    "f8e4m3fnuz": Float8E4M3FNUZType(),
    "f8e4m3b11fnuz": Float8E4M3B11FNUZType(),
    "f8e3m4": Float8E3M4Type(),
    "f8e8m0fnu": Float8E8M0FNUType(),
    "f6e2m3fn": Float6E2M3FNType(),
    "f6e3m2fn": Float6E3M2FNType(),
    "f4e2m1fn": Float4E2M1FNType(),
}
"""XLA's sub-16-bit float types (OCP FP8/FP6/FP4 and the FNUZ variants), by XLA name."""

ELEMENT_TYPES: dict[str, Attribute] = {
    "pred": IntegerType(1),
    "s1": IntegerType(1, Signedness.SIGNED),
    **{f"s{w}": IntegerType(w) for w in (2, 4, 8, 16, 32, 64)},
    **{f"u{w}": IntegerType(w, Signedness.UNSIGNED) for w in (1, 2, 4, 8, 16, 32, 64)},
    "f16": Float16Type(),
    "bf16": BFloat16Type(),
    "f32": Float32Type(),
    "f64": Float64Type(),
    **NARROW_FLOATS,
    "c64": ComplexType(Float32Type()),
    "c128": ComplexType(Float64Type()),
}
"""XLA element type name -> hlo dialect element type: the one table of the element types the
dialect supports (the HLO parser, the exporter and `element_type_name` all read it)."""

ELEMENT_NAMES: dict[Attribute, str] = {t: name for name, t in ELEMENT_TYPES.items()}
"""The inverse of `ELEMENT_TYPES`."""
_FLOATS = frozenset(
    t for t in ELEMENT_TYPES.values() if not isinstance(t, IntegerType | ComplexType)
)
_INTEGERS = frozenset(
    t for n, t in ELEMENT_TYPES.items() if isinstance(t, IntegerType) and n != "pred"
)
_COMPLEX = frozenset(t for t in ELEMENT_TYPES.values() if isinstance(t, ComplexType))


def is_float_type(t: Attribute) -> bool:
    """True for every real float element type: f16, bf16, f32, f64 and `NARROW_FLOATS`."""
    return t in _FLOATS


def is_narrow_float_type(t: Attribute) -> bool:
    """True for the FP8/FP6/FP4 types (`NARROW_FLOATS`)."""
    return is_float_type(t) and element_type_name(t) in NARROW_FLOATS


def is_complex_type(t: Attribute) -> bool:
    """True for c64 (complex<f32>) and c128 (complex<f64>)."""
    return t in _COMPLEX


def is_integer_type(t: Attribute) -> bool:
    """True for s1..s64 and u1..u64 (not pred)."""
    return t in _INTEGERS


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
    return t in ELEMENT_NAMES


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


@functools.lru_cache(maxsize=65536)
def i64_attr(value: int) -> IntegerAttr[IntegerType]:
    """`IntegerAttr(value, 64)`, built once per value (attributes are immutable values; xDSL's
    constructor checks the value's range every time: ~50 us, a fifth of building a
    get_tuple_element)."""
    return IntegerAttr(value, 64)


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
    """Bytes of one element on the wire: the bit width rounded up to bytes (pred: 1); a complex
    element is two of its parts. Sub-byte types (s4, u2, f4e2m1fn, ...) count one byte each,
    as XLA's `ShapeUtil::ByteSizeOfPrimitiveType` does for unpacked arrays (XLA packs them
    only under a layout with `element_size_in_bits`, which the importer does not keep)."""
    if isinstance(element, ComplexType):
        return 2 * element_bytes(element.element_type)
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
