"""`hlo.topk`: XLA's TopK (ShapeInference::InferTopKShape) along the last dimension.

```mlir
%t = hlo.topk %x, k = 2, largest = true : (tensor<10x10xf32>) -> tuple<tensor<10x2xf32>, tensor<10x2xi32>>
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, BoolAttr, IntegerAttr, TensorType, i32
from xdsl.ir import Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.types import HLO_TENSOR, HLO_VALUE, tensor_type, tuple_type


@irdl_op_definition
class TopKOp(IRDLOperation):
    """The k largest (`largest = true`) or smallest elements of every row (last dimension) in
    order, and their indices: a tuple (values, s32 indices).

    The order is XLA:CPU's: floats by total order (-0 before +0 ascending; NaNs beyond the
    infinities by sign), equal elements by ascending index.
    """

    name = "hlo.topk"
    operand = operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    k = prop_def(IntegerAttr[I64])
    largest = prop_def(BoolAttr)
    traits = traits_def(Pure())

    assembly_format = (
        "$operand `,` `k` `=` $k `,` `largest` `=` $largest attr-dict "
        "`:` functional-type($operand, $result)"
    )

    def verify_(self) -> None:
        t = tensor_type(self.operand)
        shape = t.get_shape()
        k = self.k.value.data
        if not shape:
            raise VerifyException("topk operand must have rank at least 1")
        if not 0 <= k <= shape[-1]:
            raise VerifyException(
                f"topk k {k} must be in [0, {shape[-1]}] (the size of the last dimension)"
            )
        out = [*shape[:-1], k]
        expected = tuple_type([TensorType(t.element_type, out), TensorType(i32, out)])
        if self.result.type != expected:
            raise VerifyException(f"topk result must be {expected}, got {self.result.type}")


OPS: list[type[Operation]] = [TopKOp]
