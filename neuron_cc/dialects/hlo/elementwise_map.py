"""`hlo.map`: XLA's Map, a scalar computation applied elementwise to N same-shaped operands
(ShapeInference::InferMapShape).

```mlir
%m = hlo.map(%x, %y) dims = [0] {
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %s = hlo.add %a, %b : tensor<f32>
  hlo.return %s : tensor<f32>
} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import IsolatedFromAbove, Pure
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.attributes import DimensionsAttr, DimsDirective
from neuron_cc.dialects.hlo.region_checks import scalar
from neuron_cc.dialects.hlo.types import HLO_TENSOR, shape_str, tensor_type


@irdl_op_definition
class MapOp(IRDLOperation):
    """Apply the region to the elements at each index of the operands: result[i] =
    f(x0[i], ..., xN-1[i]). XLA's rules: at least one operand, all of one shape,
    `dimensions` is [0, rank) in order, the region takes one scalar per operand (its element
    type) and returns one scalar, whose element type is the result's.
    """

    name = "hlo.map"
    operands_ = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    dimensions = prop_def(DimensionsAttr)
    computation = region_def("single_block")
    traits = traits_def(Pure(), IsolatedFromAbove())

    assembly_format = (
        "`(` $operands_ `)` `dims` `=` custom<Dims>($dimensions) $computation attr-dict "
        "`:` functional-type($operands_, $result)"
    )
    custom_directives = (DimsDirective,)

    def verify_(self) -> None:
        types = [tensor_type(o) for o in self.operands_]
        if not types:
            raise VerifyException("map needs at least one operand")
        shape = types[0].get_shape()
        for i, t in enumerate(types[1:], 1):
            if t.get_shape() != shape:
                raise VerifyException(
                    f"map operand {i} has shape {shape_str(t.get_shape())}, but operand 0 has "
                    f"shape {shape_str(shape)}"
                )
        if list(self.dimensions.data) != list(range(len(shape))):
            raise VerifyException(
                f"map dimensions {list(self.dimensions.data)} must be every dimension in order"
                f" [0, {len(shape)})"
            )
        block = self.computation.block
        args = [a.type for a in block.args]
        expected = [scalar(t.element_type) for t in types]
        if args != expected:
            raise VerifyException(
                f"map region must take {', '.join(map(str, expected))}, got "
                f"{', '.join(map(str, args)) or 'nothing'}"
            )
        last = block.last_op
        returned = [] if last is None else [o.type for o in last.operands]
        if last is None or last.name != "hlo.return" or len(returned) != 1:
            raise VerifyException("map region must return one scalar through hlo.return")
        out = tensor_type(returned[0])
        if out.get_shape():
            raise VerifyException(f"map region must return a scalar, got {out}")
        if tensor_type(self.result) != TensorType(out.element_type, shape):
            raise VerifyException(
                f"map result must be {TensorType(out.element_type, shape)}, got {self.result.type}"
            )


OPS: list[type[Operation]] = [MapOp]
