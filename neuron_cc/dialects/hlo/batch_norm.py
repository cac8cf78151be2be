"""`hlo.batch_norm_training`, `hlo.batch_norm_inference`, `hlo.batch_norm_grad`: XLA's batch
normalization ops, with the shape rules of ShapeInference::InferBatchNorm*Shape.

Every op normalizes `operand` per feature: `feature_index` names the feature dimension, and
the per-feature operands (scale, offset, mean, variance) are rank-1 tensors of that size, of
the operand's (float) element type. `epsilon` is an f32 added to the variance.

```mlir
%t = hlo.batch_norm_training %x, %scale, %offset epsilon = 1.000000e-03 feature_index = 3
    : (tensor<2x2x1x2xf32>, tensor<2xf32>, tensor<2xf32>)
    -> tuple<tensor<2x2x1x2xf32>, tensor<2xf32>, tensor<2xf32>>
```

Where we differ from XLA: nothing in the rules; XLA does not check `epsilon` either.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I64, Float32Type, FloatAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
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

from neuron_cc.dialects.hlo.types import (
    HLO_TENSOR,
    HLO_VALUE,
    element_type_name,
    is_float_type,
    tensor_type,
    tuple_type,
)

_FORMAT_TAIL = (
    "`epsilon` `=` $epsilon `feature_index` `=` $feature_index attr-dict "
    "`:` functional-type(operands, results)"
)


class BatchNormBase(IRDLOperation):
    """The properties and checks shared by the three batch-norm ops."""

    epsilon = prop_def(FloatAttr[Float32Type])
    feature_index = prop_def(IntegerAttr[I64])
    traits = traits_def(Pure())

    def feature_size(self, operand: SSAValue, per_feature: Sequence[tuple[str, SSAValue]]) -> int:
        """Check the operand and the per-feature operands; return the feature count."""
        kind = self.name.removeprefix("hlo.")
        t = tensor_type(operand)
        shape = t.get_shape()
        index = self.feature_index.value.data
        if not shape:
            raise VerifyException(f"{kind} operand must have rank at least 1")
        if not 0 <= index < len(shape):
            raise VerifyException(
                f"{kind} feature_index {index} is out of range for operand rank {len(shape)}"
            )
        if not is_float_type(t.element_type):
            raise VerifyException(
                f"{kind} operand element type must be a float, got "
                f"{element_type_name(t.element_type)}"
            )
        features = shape[index]
        for what, value in per_feature:
            pt = tensor_type(value)
            if len(pt.get_shape()) != 1:
                raise VerifyException(f"{kind} {what} must have rank 1, got {pt}")
            if pt.element_type != t.element_type:
                raise VerifyException(
                    f"{kind} {what} element type {element_type_name(pt.element_type)} differs "
                    f"from the operand's {element_type_name(t.element_type)}"
                )
            if pt.get_shape()[0] != features:
                raise VerifyException(
                    f"{kind} {what} size {pt.get_shape()[0]} differs from the feature "
                    f"dimension size {features}"
                )
        return features

    def check_result(self, result: SSAValue, expected: Attribute) -> None:
        if result.type != expected:
            raise VerifyException(
                f"{self.name.removeprefix('hlo.')} result must be {expected}, got {result.type}"
            )


def _stats_tuple(operand: SSAValue, features: int) -> Attribute:
    t = tensor_type(operand)
    vec = TensorType(t.element_type, [features])
    return tuple_type([t, vec, vec])


@irdl_op_definition
class BatchNormTrainingOp(BatchNormBase):
    """Normalize `operand` by its own per-feature mean and variance (over all dimensions but
    `feature_index`), then scale and offset: a tuple (output, batch_mean, batch_var)."""

    name = "hlo.batch_norm_training"
    operand = operand_def(HLO_TENSOR)
    scale = operand_def(HLO_TENSOR)
    offset = operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    assembly_format = "$operand `,` $scale `,` $offset " + _FORMAT_TAIL

    def verify_(self) -> None:
        n = self.feature_size(self.operand, [("scale", self.scale), ("offset", self.offset)])
        self.check_result(self.result, _stats_tuple(self.operand, n))


@irdl_op_definition
class BatchNormInferenceOp(BatchNormBase):
    """Normalize `operand` by the given per-feature `mean` and `variance`, then scale and
    offset: `(x - mean) * rsqrt(variance + epsilon) * scale + offset`."""

    name = "hlo.batch_norm_inference"
    operand = operand_def(HLO_TENSOR)
    scale = operand_def(HLO_TENSOR)
    offset = operand_def(HLO_TENSOR)
    mean = operand_def(HLO_TENSOR)
    variance = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    assembly_format = "$operand `,` $scale `,` $offset `,` $mean `,` $variance " + _FORMAT_TAIL

    def verify_(self) -> None:
        self.feature_size(
            self.operand,
            [
                ("scale", self.scale),
                ("offset", self.offset),
                ("mean", self.mean),
                ("variance", self.variance),
            ],
        )
        self.check_result(self.result, tensor_type(self.operand))


@irdl_op_definition
class BatchNormGradOp(BatchNormBase):
    """The gradients of batch-norm-training given `grad_output`: a tuple (grad_operand,
    grad_scale, grad_offset), `grad_output` having the operand's shape."""

    name = "hlo.batch_norm_grad"
    operand = operand_def(HLO_TENSOR)
    scale = operand_def(HLO_TENSOR)
    mean = operand_def(HLO_TENSOR)
    variance = operand_def(HLO_TENSOR)
    grad_output = operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    assembly_format = "$operand `,` $scale `,` $mean `,` $variance `,` $grad_output " + _FORMAT_TAIL

    def verify_(self) -> None:
        n = self.feature_size(
            self.operand,
            [("scale", self.scale), ("mean", self.mean), ("variance", self.variance)],
        )
        if self.grad_output.type != self.operand.type:
            raise VerifyException(
                f"batch_norm_grad grad_output type {self.grad_output.type} differs from the "
                f"operand type {self.operand.type}"
            )
        self.check_result(self.result, _stats_tuple(self.operand, n))


OPS: list[type[Operation]] = [BatchNormTrainingOp, BatchNormInferenceOp, BatchNormGradOp]
