"""Element-type classes and the elementwise ops that are not plain unary/binary ops.

`ElementKind` names a class of XLA element types an op accepts (floating-point, integer, ...)
and raises the verifier message when a type is outside it; the unary/binary ops in
`elementwise` use it too. The ops here: constant, iota, compare, select, clamp, convert and
bitcast_convert. `elementwise.OPS` lists them together with the unary/binary ops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    DenseIntOrFPElementsAttr,
    FixedBitwidthType,
    IntegerAttr,
    TensorType,
    i1,
)
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParamAttrConstraint,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.attributes import (
    ComparisonDirection,
    ComparisonDirectionAttr,
    ComparisonType,
    ComparisonTypeAttr,
)
from neuron_cc.dialects.hlo.types import (
    HLO_TENSOR,
    element_type_name,
    is_complex_type,
    is_float_type,
    is_integer_type,
    is_pred_type,
    is_unsigned_type,
    shape_of,
    shape_str,
    tensor_type,
)


@dataclass(frozen=True)
class ElementKind:
    """A class of XLA element types accepted by an op, named for verifier messages."""

    noun: str
    """e.g. "floating-point"; messages read "<op> expects a floating-point operand"."""
    article: str
    accepts: Callable[[Attribute], bool]

    def check(self, op: str, t: Attribute, role: str = "operand") -> None:
        """Raise unless `t` (a tensor or element type) is in this class."""
        elem = tensor_type(t).element_type if isinstance(t, TensorType) else t
        if self.accepts(elem):
            return
        what = f"{self.noun} {role}" if role.endswith("s") else f"{self.article} {self.noun} {role}"
        raise VerifyException(f"{op} expects {what}, got {element_type_name(elem)}")


def _is_signed(t: Attribute) -> bool:
    return (
        is_float_type(t) or is_complex_type(t) or (is_integer_type(t) and not is_unsigned_type(t))
    )


def _is_numeric(t: Attribute) -> bool:
    """Integers, real floats and complex (XLA's arithmetic ops take all of them; where XLA
    refuses complex, e.g. max/min/remainder, this dialect is more permissive)."""
    return is_float_type(t) or is_integer_type(t) or is_complex_type(t)


def _is_signed_int(t: Attribute) -> bool:
    return is_integer_type(t) and not is_unsigned_type(t)


ANY_KIND = ElementKind("any", "an", lambda _: True)
FLOAT = ElementKind("floating-point", "a", is_float_type)
SIGNED = ElementKind("floating-point or signed integer", "a", _is_signed)
NUMERIC = ElementKind("integer or floating-point", "an", _is_numeric)
INTEGER = ElementKind("integer", "an", is_integer_type)
LOGICAL = ElementKind("pred or integer", "a", lambda t: is_pred_type(t) or is_integer_type(t))
SIGNED_INT = ElementKind("signed integer", "a", _is_signed_int)
UNSIGNED_OR_PRED = ElementKind(
    "unsigned integer or pred", "an", lambda t: is_unsigned_type(t) or is_pred_type(t)
)


def op_label(op: Operation) -> str:
    """The op name without the dialect prefix, as XLA spells it in messages."""
    return op.name.removeprefix("hlo.")


def check_pred_result(op: Operation, shape: Sequence[int], result: Attribute) -> None:
    """The result must be `tensor<shape x i1>`."""
    if result != TensorType(i1, shape):
        raise VerifyException(
            f"{op_label(op)} result must be a pred tensor of shape {shape_str(shape)}, got {result}"
        )


def _check_scalar_or_same_shape(
    op: Operation, what: str, t: Attribute, shape: Sequence[int]
) -> None:
    got = shape_of(t)
    if got and got != tuple(shape):
        raise VerifyException(
            f"{op_label(op)} {what} shape {shape_str(got)} must be scalar or match "
            f"the operand shape {shape_str(shape)}"
        )


@irdl_op_definition
class ConstantOp(IRDLOperation, HasFolderInterface):
    """A literal tensor: `value` is a builtin dense attribute (splat or full) of the result type.

    XLA `constant`. The verifier checks only the type (never the elements), so huge constants
    stay cheap.

    ```mlir
    %c = hlo.constant dense<1.0> : tensor<4xf32>
    ```
    """

    name = "hlo.constant"
    T: ClassVar = VarConstraint("T", HLO_TENSOR)
    value = prop_def(ParamAttrConstraint(DenseIntOrFPElementsAttr, (T, AnyAttr())))
    result = result_def(T)
    traits = traits_def(Pure(), ConstantLike())
    assembly_format = "$value attr-dict"

    def __init__(self, value: DenseIntOrFPElementsAttr):
        super().__init__(result_types=[value.type], properties={"value": value})

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        return (self.value,)


@irdl_op_definition
class IotaOp(IRDLOperation):
    """Counts 0, 1, 2, ... along `iota_dimension`, broadcast over the other dimensions.

    XLA `iota`: the result has rank >= 1 and an integer or floating-point element type.

    ```mlir
    %i = hlo.iota dim = 1 : tensor<2x8xi32>
    ```
    """

    name = "hlo.iota"
    iota_dimension = prop_def(IntegerAttr[I64])
    result = result_def(HLO_TENSOR)
    traits = traits_def(Pure())
    assembly_format = "`dim` `=` $iota_dimension attr-dict `:` type($result)"

    def __init__(self, iota_dimension: int, result_type: Attribute):
        super().__init__(
            result_types=[result_type],
            properties={"iota_dimension": IntegerAttr(iota_dimension, 64)},
        )

    def verify_(self) -> None:
        rank = len(shape_of(self.result))
        if rank == 0:
            raise VerifyException("iota does not support scalars")
        dim = self.iota_dimension.value.data
        if not 0 <= dim < rank:
            raise VerifyException(f"iota_dimension {dim} is out of range for rank {rank}")
        NUMERIC.check("iota", self.result.type, "result")


_COMPARE_TYPE_KINDS = {
    ComparisonType.FLOAT: FLOAT,
    ComparisonType.TOTALORDER: FLOAT,
    ComparisonType.SIGNED: SIGNED_INT,
    ComparisonType.UNSIGNED: UNSIGNED_OR_PRED,
}


@irdl_op_definition
class CompareOp(IRDLOperation):
    """Elementwise `lhs <direction> rhs`, giving a pred tensor of the operands' shape.

    XLA `compare`. The optional `compare_type` (FLOAT, TOTALORDER, SIGNED, UNSIGNED) must suit
    the element type; when absent XLA's default applies (see `effective_compare_type`).

    ```mlir
    %p = hlo.compare LT, %a, %b type = TOTALORDER : tensor<4xf32> -> tensor<4xi1>
    ```
    """

    name = "hlo.compare"
    T: ClassVar = VarConstraint("T", HLO_TENSOR)
    direction = prop_def(ComparisonDirectionAttr)
    compare_type = opt_prop_def(ComparisonTypeAttr)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(HLO_TENSOR)
    traits = traits_def(Pure())
    assembly_format = (
        "$direction `,` $lhs `,` $rhs (`type` `=` $compare_type^)? attr-dict "
        "`:` type($lhs) `->` type($result)"
    )

    def __init__(
        self,
        direction: ComparisonDirection,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        compare_type: ComparisonType | None = None,
    ):
        lhs_type = tensor_type(SSAValue.get(lhs))
        props: dict[str, Attribute] = {"direction": ComparisonDirectionAttr(direction)}
        if compare_type is not None:
            props["compare_type"] = ComparisonTypeAttr(compare_type)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[TensorType(i1, lhs_type.get_shape())],
            properties=props,
        )

    def effective_compare_type(self) -> ComparisonType:
        """`compare_type`, or XLA's default for the element type."""
        if self.compare_type is not None:
            return self.compare_type.data
        elem = tensor_type(self.lhs).element_type
        if is_float_type(elem) or is_complex_type(elem):
            return ComparisonType.FLOAT
        if _is_signed_int(elem):
            return ComparisonType.SIGNED
        return ComparisonType.UNSIGNED

    def verify_(self) -> None:
        check_pred_result(self, shape_of(self.lhs), self.result.type)
        complex_order = self.direction.data not in (ComparisonDirection.EQ, ComparisonDirection.NE)
        if is_complex_type(tensor_type(self.lhs).element_type) and complex_order:
            raise VerifyException(
                f"compare direction {self.direction.data} is not defined on complex operands "
                "(only EQ and NE)"
            )
        if self.compare_type is not None:
            kind = _COMPARE_TYPE_KINDS[self.compare_type.data]
            kind.check(f"compare type {self.compare_type.data}", self.lhs.type, "operands")


@irdl_op_definition
class SelectOp(IRDLOperation):
    """Elementwise `pred ? on_true : on_false`.

    XLA `select`: `pred` is a pred tensor of the operands' shape, or a pred scalar that
    chooses a whole operand.

    ```mlir
    %r = hlo.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
    ```
    """

    name = "hlo.select"
    T: ClassVar = VarConstraint("T", HLO_TENSOR)
    pred = operand_def(HLO_TENSOR)
    on_true = operand_def(T)
    on_false = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$pred `,` $on_true `,` $on_false attr-dict `:` type($pred) `,` type($result)"

    def __init__(
        self,
        pred: SSAValue | Operation,
        on_true: SSAValue | Operation,
        on_false: SSAValue | Operation,
    ):
        super().__init__(
            operands=[pred, on_true, on_false], result_types=[SSAValue.get(on_true).type]
        )

    def verify_(self) -> None:
        pred_type = tensor_type(self.pred)
        if not is_pred_type(pred_type.element_type):
            elem = element_type_name(pred_type.element_type)
            raise VerifyException(f"select predicate must be a pred tensor, got {elem}")
        _check_scalar_or_same_shape(self, "predicate", pred_type, shape_of(self.on_true))


@irdl_op_definition
class ClampOp(IRDLOperation):
    """Elementwise `min(max(operand, min), max)`.

    XLA `clamp`: `min` and `max` have the operand's element type and are each either a scalar
    or of the operand's shape.

    ```mlir
    %r = hlo.clamp %lo, %x, %hi : tensor<f32>, tensor<4xf32>, tensor<f32>
    ```
    """

    name = "hlo.clamp"
    T: ClassVar = VarConstraint("T", HLO_TENSOR)
    min = operand_def(HLO_TENSOR)
    operand = operand_def(T)
    max = operand_def(HLO_TENSOR)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = (
        "$min `,` $operand `,` $max attr-dict `:` type($min) `,` type($operand) `,` type($max)"
    )

    def __init__(
        self, min: SSAValue | Operation, operand: SSAValue | Operation, max: SSAValue | Operation
    ):
        super().__init__(operands=[min, operand, max], result_types=[SSAValue.get(operand).type])

    def verify_(self) -> None:
        operand_type = tensor_type(self.operand)
        elem = operand_type.element_type
        for what, value in (("min", self.min), ("max", self.max)):
            bound = tensor_type(value)
            if bound.element_type != elem:
                raise VerifyException(
                    f"clamp {what} element type {element_type_name(bound.element_type)} does not "
                    f"match operand element type {element_type_name(elem)}"
                )
            _check_scalar_or_same_shape(self, what, bound, operand_type.get_shape())


@irdl_op_definition
class ConvertOp(IRDLOperation):
    """Elementwise conversion to another element type (the shape is unchanged).

    XLA `convert`: float to int rounds toward zero, int to pred is `x != 0`, and any element
    type converts to any other.

    ```mlir
    %r = hlo.convert %x : tensor<4xf32> -> tensor<4xbf16>
    ```
    """

    name = "hlo.convert"
    operand = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def __init__(self, operand: SSAValue | Operation, element_type: Attribute):
        shape = tensor_type(SSAValue.get(operand)).get_shape()
        super().__init__(operands=[operand], result_types=[TensorType(element_type, shape)])

    def verify_(self) -> None:
        got, expected = shape_of(self.result), shape_of(self.operand)
        if got != expected:
            raise VerifyException(
                f"convert result shape {shape_str(got)} does not match operand shape "
                f"{shape_str(expected)}"
            )
        source = tensor_type(self.operand).element_type
        target = tensor_type(self.result).element_type
        if is_complex_type(source) and not (is_complex_type(target) or is_pred_type(target)):
            raise VerifyException(
                f"convert from complex {element_type_name(source)} to real "
                f"{element_type_name(target)} is not defined (XLA: not implemented)"
            )


def bit_width(t: Attribute) -> int:
    """The bit width of an XLA element type (pred is 1 bit, as XLA's BitWidth says)."""
    if not isinstance(t, FixedBitwidthType):
        raise VerifyException(f"element type {t} has no bit width")
    return t.bitwidth


def bitcast_convert_shape(
    operand: TensorType[Attribute], new_element: Attribute
) -> tuple[int, ...]:
    """XLA's result shape of bitcast_convert (raises VerifyException if there is none).

    Equal widths keep the shape; a narrower result appends a dimension of size
    `in_width / out_width`; a wider result consumes a last operand dimension of size
    `out_width / in_width`.
    """
    shape = tuple(operand.get_shape())
    in_width, out_width = bit_width(operand.element_type), bit_width(new_element)
    if in_width > out_width:
        return (*shape, in_width // out_width)
    if in_width == out_width:
        return shape
    ratio = out_width // in_width
    if not shape or shape[-1] != ratio:
        raise VerifyException(
            f"bitcast_convert from {element_type_name(operand.element_type)} to "
            f"{element_type_name(new_element)} needs a last operand dimension of size {ratio}, "
            f"got shape {shape_str(shape)}"
        )
    return shape[:-1]


@irdl_op_definition
class BitcastConvertOp(IRDLOperation):
    """Reinterpret the bits of each element as another element type.

    XLA `bitcast-convert`: equal widths keep the shape; converting to a narrower type adds a
    trailing dimension (`f32[4] -> s8[4,4]`), to a wider one removes it (`s8[4,4] -> f32[4]`).

    ```mlir
    %r = hlo.bitcast_convert %x : tensor<4xf32> -> tensor<4x2xbf16>
    ```
    """

    name = "hlo.bitcast_convert"
    operand = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def __init__(self, operand: SSAValue | Operation, element_type: Attribute):
        shape = bitcast_convert_shape(tensor_type(SSAValue.get(operand)), element_type)
        super().__init__(operands=[operand], result_types=[TensorType(element_type, shape)])

    def verify_(self) -> None:
        result = tensor_type(self.result)
        expected = bitcast_convert_shape(tensor_type(self.operand), result.element_type)
        got = tuple(result.get_shape())
        if got != expected:
            raise VerifyException(
                f"bitcast_convert to {element_type_name(result.element_type)} expects result "
                f"shape {shape_str(expected)}, got {shape_str(got)}"
            )


OPS: list[type[Operation]] = [
    ConstantOp,
    IotaOp,
    CompareOp,
    SelectOp,
    ClampOp,
    ConvertOp,
    BitcastConvertOp,
]
