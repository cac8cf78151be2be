"""Elementwise ops of the hlo dialect (XLA semantics).

Unary and binary ops share one type (`hlo.add %a, %b : tensor<4xf32>`) and check the element
types XLA accepts (xla/service/shape_inference.cc): float-only math rejects integers, bitwise
ops reject floats. constant, iota, compare, select, clamp, convert and bitcast_convert live in
`elementwise_misc`; `OPS` below lists all of them.
"""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr, TensorType, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo import elementwise_misc
from neuron_cc.dialects.hlo.elementwise_misc import (
    ANY_KIND,
    FLOAT,
    INTEGER,
    LOGICAL,
    NUMERIC,
    SIGNED,
    ElementKind,
    check_pred_result,
    op_label,
)
from neuron_cc.dialects.hlo.types import HLO_TENSOR, shape_of, tensor_type

# ---------------------------------------------------------------------------------------------
# Unary ops
# ---------------------------------------------------------------------------------------------


class ElementwiseUnaryOp(IRDLOperation, ABC):
    """`result = f(operand)` elementwise; operand and result share one tensor type."""

    T: ClassVar = VarConstraint("T", HLO_TENSOR)
    operand = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($result)"

    OPERAND_KIND: ClassVar[ElementKind] = ANY_KIND

    def __init__(self, operand: SSAValue | Operation):
        super().__init__(operands=[operand], result_types=[SSAValue.get(operand).type])

    def verify_(self) -> None:
        self.OPERAND_KIND.check(op_label(self), self.operand.type)


class FloatUnaryOp(ElementwiseUnaryOp, ABC):
    """A unary op XLA defines on floating-point elements only."""

    OPERAND_KIND: ClassVar[ElementKind] = FLOAT


@irdl_op_definition
class AbsOp(ElementwiseUnaryOp):
    """`|x|` elementwise (XLA `abs`) on floats and signed integers.

    `%r = hlo.abs %x : tensor<4xf32>`
    """

    name = "hlo.abs"
    OPERAND_KIND: ClassVar[ElementKind] = SIGNED


@irdl_op_definition
class NegateOp(ElementwiseUnaryOp):
    """`-x` elementwise (XLA `negate`) on floats and integers (wrapping for integers).

    `%r = hlo.negate %x : tensor<4xi32>`
    """

    name = "hlo.negate"
    OPERAND_KIND: ClassVar[ElementKind] = NUMERIC


@irdl_op_definition
class SignOp(ElementwiseUnaryOp):
    """-1, 0 or 1 by the sign of x (XLA `sign`; NaN stays NaN), on floats and signed integers.

    `%r = hlo.sign %x : tensor<4xf32>`
    """

    name = "hlo.sign"
    OPERAND_KIND: ClassVar[ElementKind] = SIGNED


@irdl_op_definition
class ExponentialOp(FloatUnaryOp):
    """`e^x` elementwise (XLA `exponential`).

    `%r = hlo.exponential %x : tensor<4xf32>`
    """

    name = "hlo.exponential"


@irdl_op_definition
class ExponentialMinusOneOp(FloatUnaryOp):
    """`e^x - 1` elementwise, accurate near 0 (XLA `exponential-minus-one`).

    `%r = hlo.exponential_minus_one %x : tensor<4xf32>`
    """

    name = "hlo.exponential_minus_one"


@irdl_op_definition
class LogOp(FloatUnaryOp):
    """Natural logarithm elementwise (XLA `log`).

    `%r = hlo.log %x : tensor<4xf32>`
    """

    name = "hlo.log"


@irdl_op_definition
class LogPlusOneOp(FloatUnaryOp):
    """`log(1 + x)` elementwise, accurate near 0 (XLA `log-plus-one`).

    `%r = hlo.log_plus_one %x : tensor<4xf32>`
    """

    name = "hlo.log_plus_one"


@irdl_op_definition
class SqrtOp(FloatUnaryOp):
    """Square root elementwise (XLA `sqrt`).

    `%r = hlo.sqrt %x : tensor<4xf32>`
    """

    name = "hlo.sqrt"


@irdl_op_definition
class RsqrtOp(FloatUnaryOp):
    """`1 / sqrt(x)` elementwise (XLA `rsqrt`).

    `%r = hlo.rsqrt %x : tensor<4xf32>`
    """

    name = "hlo.rsqrt"


@irdl_op_definition
class CbrtOp(FloatUnaryOp):
    """Cube root elementwise (XLA `cbrt`).

    `%r = hlo.cbrt %x : tensor<4xf32>`
    """

    name = "hlo.cbrt"


@irdl_op_definition
class TanhOp(FloatUnaryOp):
    """Hyperbolic tangent elementwise (XLA `tanh`).

    `%r = hlo.tanh %x : tensor<4x16xf32>`
    """

    name = "hlo.tanh"


@irdl_op_definition
class LogisticOp(FloatUnaryOp):
    """The sigmoid `1 / (1 + e^-x)` elementwise (XLA `logistic`).

    `%r = hlo.logistic %x : tensor<4xf32>`
    """

    name = "hlo.logistic"


@irdl_op_definition
class SineOp(FloatUnaryOp):
    """Sine (radians) elementwise (XLA `sine`).

    `%r = hlo.sine %x : tensor<4xf32>`
    """

    name = "hlo.sine"


@irdl_op_definition
class CosineOp(FloatUnaryOp):
    """Cosine (radians) elementwise (XLA `cosine`).

    `%r = hlo.cosine %x : tensor<4xf32>`
    """

    name = "hlo.cosine"


@irdl_op_definition
class TanOp(FloatUnaryOp):
    """Tangent (radians) elementwise (XLA `tan`).

    `%r = hlo.tan %x : tensor<4xf32>`
    """

    name = "hlo.tan"


@irdl_op_definition
class ErfOp(FloatUnaryOp):
    """The Gauss error function elementwise (XLA `erf`, emitted for `jax.lax.erf`).

    `%r = hlo.erf %x : tensor<4xf32>`
    """

    name = "hlo.erf"


@irdl_op_definition
class FloorOp(FloatUnaryOp):
    """Round toward -inf elementwise (XLA `floor`).

    `%r = hlo.floor %x : tensor<4xf32>`
    """

    name = "hlo.floor"


@irdl_op_definition
class CeilOp(FloatUnaryOp):
    """Round toward +inf elementwise (XLA `ceil`).

    `%r = hlo.ceil %x : tensor<4xf32>`
    """

    name = "hlo.ceil"


@irdl_op_definition
class RoundNearestAfzOp(FloatUnaryOp):
    """Round to nearest, ties away from zero, elementwise (XLA `round-nearest-afz`).

    `%r = hlo.round_nearest_afz %x : tensor<4xf32>`
    """

    name = "hlo.round_nearest_afz"


@irdl_op_definition
class RoundNearestEvenOp(FloatUnaryOp):
    """Round to nearest, ties to even, elementwise (XLA `round-nearest-even`).

    `%r = hlo.round_nearest_even %x : tensor<4xf32>`
    """

    name = "hlo.round_nearest_even"


@irdl_op_definition
class NotOp(ElementwiseUnaryOp):
    """Logical not on pred, bitwise not on integers (XLA `not`).

    `%r = hlo.not %p : tensor<4xi1>`
    """

    name = "hlo.not"
    OPERAND_KIND: ClassVar[ElementKind] = LOGICAL


@irdl_op_definition
class PopcntOp(ElementwiseUnaryOp):
    """The number of set bits of each integer (XLA `popcnt`).

    `%r = hlo.popcnt %x : tensor<4xui32>`
    """

    name = "hlo.popcnt"
    OPERAND_KIND: ClassVar[ElementKind] = INTEGER


@irdl_op_definition
class ClzOp(ElementwiseUnaryOp):
    """The number of leading zero bits of each integer (XLA `clz`).

    `%r = hlo.clz %x : tensor<4xi32>`
    """

    name = "hlo.clz"
    OPERAND_KIND: ClassVar[ElementKind] = INTEGER


@irdl_op_definition
class ReducePrecisionOp(FloatUnaryOp):
    """Round each float to `exponent_bits`/`mantissa_bits` and back (XLA `reduce-precision`).

    Used to emulate a narrower float type; the type is unchanged. XLA requires
    `exponent_bits >= 1` and `mantissa_bits >= 0`.

    `%r = hlo.reduce_precision %x exponent_bits = 8 mantissa_bits = 7 : tensor<4xf32>`
    """

    name = "hlo.reduce_precision"
    exponent_bits = prop_def(IntegerAttr[I64])
    mantissa_bits = prop_def(IntegerAttr[I64])
    assembly_format = (
        "$operand `exponent_bits` `=` $exponent_bits `mantissa_bits` `=` $mantissa_bits "
        "attr-dict `:` type($result)"
    )

    def __init__(self, operand: SSAValue | Operation, exponent_bits: int, mantissa_bits: int):
        IRDLOperation.__init__(
            self,
            operands=[operand],
            result_types=[SSAValue.get(operand).type],
            properties={
                "exponent_bits": IntegerAttr(exponent_bits, 64),
                "mantissa_bits": IntegerAttr(mantissa_bits, 64),
            },
        )

    def verify_(self) -> None:
        super().verify_()
        if (e := self.exponent_bits.value.data) < 1:
            raise VerifyException(f"reduce_precision needs exponent_bits >= 1, got {e}")
        if (m := self.mantissa_bits.value.data) < 0:
            raise VerifyException(f"reduce_precision needs mantissa_bits >= 0, got {m}")


@irdl_op_definition
class IsFiniteOp(IRDLOperation):
    """True where the float is neither infinite nor NaN (XLA `is-finite`).

    The result is a pred tensor of the operand's shape.

    `%r = hlo.is_finite %x : tensor<2x8xf32> -> tensor<2x8xi1>`
    """

    name = "hlo.is_finite"
    operand = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def __init__(self, operand: SSAValue | Operation):
        shape = tensor_type(SSAValue.get(operand)).get_shape()
        super().__init__(operands=[operand], result_types=[TensorType(i1, shape)])

    def verify_(self) -> None:
        FLOAT.check("is_finite", self.operand.type)
        check_pred_result(self, shape_of(self.operand), self.result.type)


# ---------------------------------------------------------------------------------------------
# Binary ops
# ---------------------------------------------------------------------------------------------


class ElementwiseBinaryOp(IRDLOperation, ABC):
    """`result = f(lhs, rhs)` elementwise; lhs, rhs and result share one tensor type."""

    T: ClassVar = VarConstraint("T", HLO_TENSOR)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"

    OPERAND_KIND: ClassVar[ElementKind] = ANY_KIND

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        super().__init__(operands=[lhs, rhs], result_types=[SSAValue.get(lhs).type])

    def verify_(self) -> None:
        self.OPERAND_KIND.check(op_label(self), self.lhs.type, "operands")


@irdl_op_definition
class AddOp(ElementwiseBinaryOp):
    """`lhs + rhs` elementwise (XLA `add`; integers wrap, pred is logical or).

    `%r = hlo.add %a, %b : tensor<4xf32>`
    """

    name = "hlo.add"


@irdl_op_definition
class SubtractOp(ElementwiseBinaryOp):
    """`lhs - rhs` elementwise (XLA `subtract`; integers wrap).

    `%r = hlo.subtract %a, %b : tensor<4xf32>`
    """

    name = "hlo.subtract"
    OPERAND_KIND: ClassVar[ElementKind] = NUMERIC


@irdl_op_definition
class MultiplyOp(ElementwiseBinaryOp):
    """`lhs * rhs` elementwise (XLA `multiply`; integers wrap, pred is logical and).

    `%r = hlo.multiply %a, %b : tensor<4xf32>`
    """

    name = "hlo.multiply"


@irdl_op_definition
class DivideOp(ElementwiseBinaryOp):
    """`lhs / rhs` elementwise (XLA `divide`; integer division truncates toward zero).

    `%r = hlo.divide %a, %b : tensor<4xf32>`
    """

    name = "hlo.divide"
    OPERAND_KIND: ClassVar[ElementKind] = NUMERIC


@irdl_op_definition
class RemainderOp(ElementwiseBinaryOp):
    """The remainder of `lhs / rhs`, with the sign of `lhs` (XLA `remainder`, C's fmod / %).

    `%r = hlo.remainder %a, %b : tensor<i32>`
    """

    name = "hlo.remainder"
    OPERAND_KIND: ClassVar[ElementKind] = NUMERIC


@irdl_op_definition
class MaximumOp(ElementwiseBinaryOp):
    """The larger of `lhs` and `rhs` elementwise (XLA `maximum`; NaN propagates).

    `%r = hlo.maximum %a, %b : tensor<4xf32>`
    """

    name = "hlo.maximum"


@irdl_op_definition
class MinimumOp(ElementwiseBinaryOp):
    """The smaller of `lhs` and `rhs` elementwise (XLA `minimum`; NaN propagates).

    `%r = hlo.minimum %a, %b : tensor<4xf32>`
    """

    name = "hlo.minimum"


@irdl_op_definition
class PowerOp(ElementwiseBinaryOp):
    """`lhs ^ rhs` elementwise (XLA `power`).

    `%r = hlo.power %a, %b : tensor<4xf32>`
    """

    name = "hlo.power"
    OPERAND_KIND: ClassVar[ElementKind] = NUMERIC


@irdl_op_definition
class Atan2Op(ElementwiseBinaryOp):
    """`atan(lhs / rhs)` in the quadrant of (rhs, lhs), elementwise (XLA `atan2`).

    `%r = hlo.atan2 %y, %x : tensor<4xf32>`
    """

    name = "hlo.atan2"
    OPERAND_KIND: ClassVar[ElementKind] = FLOAT


@irdl_op_definition
class AndOp(ElementwiseBinaryOp):
    """Logical and on pred, bitwise and on integers (XLA `and`).

    `%r = hlo.and %a, %b : tensor<ui32>`
    """

    name = "hlo.and"
    OPERAND_KIND: ClassVar[ElementKind] = LOGICAL


@irdl_op_definition
class OrOp(ElementwiseBinaryOp):
    """Logical or on pred, bitwise or on integers (XLA `or`).

    `%r = hlo.or %a, %b : tensor<4xi1>`
    """

    name = "hlo.or"
    OPERAND_KIND: ClassVar[ElementKind] = LOGICAL


@irdl_op_definition
class XorOp(ElementwiseBinaryOp):
    """Logical xor on pred, bitwise xor on integers (XLA `xor`).

    `%r = hlo.xor %a, %b : tensor<4xi32>`
    """

    name = "hlo.xor"
    OPERAND_KIND: ClassVar[ElementKind] = LOGICAL


@irdl_op_definition
class ShiftLeftOp(ElementwiseBinaryOp):
    """`lhs << rhs` on integers (XLA `shift-left`; shifts >= the bit width give 0).

    `%r = hlo.shift_left %a, %b : tensor<4xi32>`
    """

    name = "hlo.shift_left"
    OPERAND_KIND: ClassVar[ElementKind] = INTEGER


@irdl_op_definition
class ShiftRightArithmeticOp(ElementwiseBinaryOp):
    """`lhs >> rhs` replicating the sign bit (XLA `shift-right-arithmetic`).

    `%r = hlo.shift_right_arithmetic %a, %b : tensor<4xi32>`
    """

    name = "hlo.shift_right_arithmetic"
    OPERAND_KIND: ClassVar[ElementKind] = INTEGER


@irdl_op_definition
class ShiftRightLogicalOp(ElementwiseBinaryOp):
    """`lhs >> rhs` filling with zeros (XLA `shift-right-logical`).

    `%r = hlo.shift_right_logical %a, %b : tensor<ui32>`
    """

    name = "hlo.shift_right_logical"
    OPERAND_KIND: ClassVar[ElementKind] = INTEGER


UNARY_OPS: list[type[Operation]] = [
    AbsOp,
    NegateOp,
    SignOp,
    ExponentialOp,
    ExponentialMinusOneOp,
    LogOp,
    LogPlusOneOp,
    SqrtOp,
    RsqrtOp,
    CbrtOp,
    TanhOp,
    LogisticOp,
    SineOp,
    CosineOp,
    TanOp,
    ErfOp,
    FloorOp,
    CeilOp,
    RoundNearestAfzOp,
    RoundNearestEvenOp,
    NotOp,
    PopcntOp,
    ClzOp,
    ReducePrecisionOp,
    IsFiniteOp,
]
BINARY_OPS: list[type[Operation]] = [
    AddOp,
    SubtractOp,
    MultiplyOp,
    DivideOp,
    RemainderOp,
    MaximumOp,
    MinimumOp,
    PowerOp,
    Atan2Op,
    AndOp,
    OrOp,
    XorOp,
    ShiftLeftOp,
    ShiftRightArithmeticOp,
    ShiftRightLogicalOp,
]
OPS: list[type[Operation]] = [*elementwise_misc.OPS, *UNARY_OPS, *BINARY_OPS]
ATTRS: list[type[Attribute]] = []
