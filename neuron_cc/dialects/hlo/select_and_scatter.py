"""`hlo.select_and_scatter`: XLA's SelectAndScatter (ShapeInference::InferSelectAndScatterShape).

```mlir
%g = hlo.select_and_scatter %x, %src, %zero size = [2, 2], stride = [2, 2] select {
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %ge = hlo.compare GE, %a, %b : tensor<f32> -> tensor<i1>
  hlo.return %ge : tensor<i1>
} scatter {
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %s = hlo.add %a, %b : tensor<f32>
  hlo.return %s : tensor<f32>
} : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
)
from xdsl.traits import IsolatedFromAbove, Pure
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.dimension_numbers import WindowAttr, WindowDirective, window_shape
from neuron_cc.dialects.hlo.region_checks import check_signature, scalar
from neuron_cc.dialects.hlo.types import HLO_TENSOR, shape_str, tensor_type


@irdl_op_definition
class SelectAndScatterOp(IRDLOperation):
    """For every window of `operand` (one per element of `source`), pick one element with the
    `select` region and combine the source element into the result there with `scatter`; the
    result starts as `init_value` everywhere.

    The selection visits the window's in-bounds positions in row-major order and keeps the
    current pick while `select(current, candidate)` is true (GE picks the first maximum);
    padding positions are never picked. Windows scatter in row-major order of `source`.
    """

    name = "hlo.select_and_scatter"
    operand = operand_def(HLO_TENSOR)
    source = operand_def(HLO_TENSOR)
    init_value = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    window = prop_def(WindowAttr)
    select = region_def("single_block")
    scatter = region_def("single_block")
    traits = traits_def(Pure(), IsolatedFromAbove())

    assembly_format = (
        "$operand `,` $source `,` $init_value custom<Window>($window) `select` $select "
        "`scatter` $scatter attr-dict `:` functional-type(operands, $result)"
    )
    custom_directives = (WindowDirective,)

    def verify_(self) -> None:
        operand = tensor_type(self.operand)
        source = tensor_type(self.source)
        element = operand.element_type
        init = tensor_type(self.init_value)
        if init != scalar(element):
            raise VerifyException(f"init_value must be {scalar(element)}, got {init}")
        if source.element_type != element:
            raise VerifyException(f"source must have element type of the operand, got {source}")
        check_signature(self.select, [scalar(element)] * 2, [scalar(i1)], "select")
        check_signature(self.scatter, [scalar(element)] * 2, [scalar(element)], "scatter")
        window = self.window.data
        problem = window.problem()
        if problem is not None:
            raise VerifyException(problem)
        shape = operand.get_shape()
        if len(window.size) != len(shape):
            raise VerifyException(
                f"window has {len(window.size)} dimensions, but the operand has rank {len(shape)}"
            )
        expected = window_shape(shape, window)
        if list(source.get_shape()) != expected:
            raise VerifyException(
                f"source shape {shape_str(source.get_shape())} must be the window shape "
                f"{shape_str(expected)} of the operand"
            )
        if tensor_type(self.result) != TensorType(element, shape):
            raise VerifyException(f"result must be {operand}, got {self.result.type}")


OPS: list[type[Operation]] = [SelectAndScatterOp]
