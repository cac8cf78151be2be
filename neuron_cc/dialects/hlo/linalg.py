"""`hlo.cholesky` and `hlo.triangular_solve`: XLA's dense linear algebra ops, with the shape
rules of ShapeInference::InferCholeskyShape / InferTriangularSolveShape.

Both work on batches of matrices: the two minor dimensions are the matrix, the others batch.

```mlir
%l = hlo.cholesky %a, lower = true : (tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
%x = hlo.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false,
    transpose_a = NO_TRANSPOSE : (tensor<4x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
```

Where we differ from XLA: nothing in the rules (XLA's TRANSPOSE_INVALID has no spelling here).
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from neuron_cc.dialects.hlo.types import (
    HLO_TENSOR,
    HloTensor,
    element_type_name,
    is_complex_type,
    is_float_type,
    tensor_type,
)


class Transpose(StrEnum):
    NO_TRANSPOSE = "NO_TRANSPOSE"
    TRANSPOSE = "TRANSPOSE"
    ADJOINT = "ADJOINT"


@irdl_attr_definition
class TransposeAttr(EnumAttribute[Transpose], SpacedOpaqueSyntaxAttribute):
    """`triangular-solve`'s `transpose_a`: NO_TRANSPOSE, TRANSPOSE or ADJOINT (conjugate
    transpose)."""

    name = "hlo.transpose"


def _matrices(op: str, what: str, t: HloTensor) -> tuple[int, ...]:
    """The shape of a batch of matrices with a float or complex element type."""
    element = t.element_type
    if not (is_float_type(element) or is_complex_type(element)):
        raise VerifyException(
            f"{op} '{what}' element type must be a float or complex, got "
            f"{element_type_name(element)}"
        )
    shape = t.get_shape()
    if len(shape) < 2:
        raise VerifyException(f"{op} '{what}' must have rank at least 2, got {len(shape)}")
    return shape


@irdl_op_definition
class CholeskyOp(IRDLOperation):
    """The Cholesky factor of each symmetric (Hermitian) positive definite matrix: lower
    triangular `L` with `a = L L^H` when `lower`, else upper `U` with `a = U^H U`. Only the
    named triangle of `a` is read; the other triangle of the result is unspecified in XLA
    (XLA:CPU leaves there what its blocked algorithm computes; see the interpreter)."""

    name = "hlo.cholesky"
    operand = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    lower = prop_def(BoolAttr)
    traits = traits_def(Pure())
    assembly_format = (
        "$operand `,` `lower` `=` $lower attr-dict `:` functional-type($operand, $result)"
    )

    def verify_(self) -> None:
        t = tensor_type(self.operand)
        shape = _matrices("cholesky", "a", t)
        if shape[-1] != shape[-2]:
            raise VerifyException(
                f"cholesky minor dimensions of 'a' must be equal, got {shape[-2]}x{shape[-1]}"
            )
        if self.result.type != t:
            raise VerifyException(f"cholesky result must be {t}, got {self.result.type}")


@irdl_op_definition
class TriangularSolveOp(IRDLOperation):
    """Solve `op(a) x = b` (`left_side`) or `x op(a) = b` for x, `a` being triangular (the
    `lower` or upper triangle is read, the diagonal taken as ones if `unit_diagonal`), `op`
    being `transpose_a`. The result has the shape of `b`."""

    name = "hlo.triangular_solve"
    a = operand_def(HLO_TENSOR)
    b = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    left_side = prop_def(BoolAttr)
    lower = prop_def(BoolAttr)
    unit_diagonal = prop_def(BoolAttr)
    transpose_a = prop_def(TransposeAttr)
    traits = traits_def(Pure())
    assembly_format = (
        "$a `,` $b `,` `left_side` `=` $left_side `,` `lower` `=` $lower `,` "
        "`unit_diagonal` `=` $unit_diagonal `,` `transpose_a` `=` $transpose_a attr-dict "
        "`:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        ta, tb = tensor_type(self.a), tensor_type(self.b)
        a = _matrices("triangular_solve", "a", ta)
        b = _matrices("triangular_solve", "b", tb)
        if ta.element_type != tb.element_type:
            raise VerifyException(
                f"triangular_solve 'a' and 'b' element types differ: "
                f"{element_type_name(ta.element_type)} vs {element_type_name(tb.element_type)}"
            )
        if a[-1] != a[-2]:
            raise VerifyException(
                f"triangular_solve 'a' must be square in its minor dimensions, got {a[-2]}x{a[-1]}"
            )
        if len(a) != len(b):
            raise VerifyException(
                f"triangular_solve 'a' and 'b' ranks differ: {len(a)} vs {len(b)}"
            )
        if a[:-2] != b[:-2]:
            raise VerifyException(
                f"triangular_solve batch dimensions differ: {list(a[:-2])} vs {list(b[:-2])}"
            )
        shared = b[-2] if self.left_side.value.data else b[-1]
        if shared != a[-1]:
            raise VerifyException(
                f"triangular_solve shared dimension of 'a' ({a[-1]}) and 'b' ({shared}) "
                "does not match"
            )
        if self.result.type != tb:
            raise VerifyException(f"triangular_solve result must be {tb}, got {self.result.type}")


OPS: list[type[Operation]] = [CholeskyOp, TriangularSolveOp]
ATTRS: list[type[Attribute]] = [TransposeAttr]
