"""`hlo.convolution`: XLA's general convolution (shape rules of ShapeInference::InferConvolveShape).

The dimension numbers are XLA's `dim_labels` string, kept as written (`b01f_01io->b01f`): in
the input and output parts `b` is the batch, `f` the feature dimension; in the kernel part `i`
the input and `o` the output feature dimension; digits are the spatial dimensions, spatial
dimension k being the k-th of the window. `parse_dim_labels` turns it into `ConvDims`.

```mlir
%y = hlo.convolution %x, %w dim_labels = "b01f_01io->b01f" size = [3, 3], padding = [[1, 1], [1, 1]]
    : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<1x8x8x16xf32>
```

Where we differ from XLA's text: the window's `rhs_reversal` is the separate `window_reversal`
property (0/1 per spatial dimension); `operand_precision` and `precision_config` stay `xla.*`
attributes (they do not change the result on CPU).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import I64, IntegerAttr, StringAttr, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.dimension_numbers import WindowAttr, WindowDirective, window_shape
from neuron_cc.dialects.hlo.types import HLO_TENSOR, element_type_name, is_float_type, tensor_type

Ints = tuple[int, ...]


@dataclass(frozen=True)
class ConvDims:
    """XLA's ConvolutionDimensionNumbers, read from `dim_labels`."""

    input_batch: int
    input_feature: int
    input_spatial: Ints
    kernel_input_feature: int
    kernel_output_feature: int
    kernel_spatial: Ints
    output_batch: int
    output_feature: int
    output_spatial: Ints


def _part(text: str, letters: str, what: str) -> tuple[dict[str, int], Ints]:
    """Positions of the two letters and of the spatial digits (in digit order) of one part."""
    found: dict[str, int] = {}
    spatial: dict[int, int] = {}
    for pos, ch in enumerate(text):
        if ch in letters and ch not in found:
            found[ch] = pos
        elif ch.isdigit() and int(ch) not in spatial:
            spatial[int(ch)] = pos
        else:
            raise VerifyException(
                f"dim_labels {what} part '{text}' has an unexpected or repeated '{ch}'"
            )
    for ch in letters:
        if ch not in found:
            raise VerifyException(f"dim_labels {what} part '{text}' lacks '{ch}'")
    if sorted(spatial) != list(range(len(spatial))):
        raise VerifyException(
            f"dim_labels {what} part '{text}' must number its spatial dimensions 0..n-1"
        )
    return found, tuple(spatial[k] for k in range(len(spatial)))


def parse_dim_labels(labels: str) -> ConvDims:
    """`b01f_01io->b01f` as ConvDims; raises VerifyException if malformed."""
    lhs, arrow, out = labels.partition("->")
    inp, underscore, kernel = lhs.partition("_")
    if not arrow or not underscore:
        raise VerifyException(
            f"dim_labels '{labels}' is not of the form <input>_<kernel>-><output>"
        )
    i, i_sp = _part(inp, "bf", "input")
    k, k_sp = _part(kernel, "io", "kernel")
    o, o_sp = _part(out, "bf", "output")
    if not len(i_sp) == len(k_sp) == len(o_sp):
        raise VerifyException(
            f"dim_labels '{labels}' parts have different numbers of spatial dimensions"
        )
    return ConvDims(i["b"], i["f"], i_sp, k["i"], k["o"], k_sp, o["b"], o["f"], o_sp)


def _check_element_types(lhs: Attribute, rhs: Attribute, result: Attribute) -> None:
    """Operands of one element type (floats may differ in precision); a float result iff
    float operands (XLA's preferred_element_type may widen it)."""
    if not (lhs == rhs or (is_float_type(lhs) and is_float_type(rhs))):
        raise VerifyException(
            f"convolution operands have element types {element_type_name(lhs)} and "
            f"{element_type_name(rhs)}"
        )
    if is_float_type(lhs) != is_float_type(result):
        raise VerifyException(
            f"convolution result element type {element_type_name(result)} does not match the "
            f"operand element type {element_type_name(lhs)}"
        )


def _positive(attr: IntegerAttr[I64] | None, what: str) -> int:
    value = 1 if attr is None else attr.value.data
    if value <= 0:
        raise VerifyException(f"convolution {what} {value} must be positive")
    return value


def _check_groups(lhs: Sequence[int], rhs: Sequence[int], d: ConvDims, fgc: int, bgc: int) -> None:
    in_features = lhs[d.input_feature]
    out_features = rhs[d.kernel_output_feature]
    if fgc > 1 and bgc > 1:
        raise VerifyException(
            "convolution cannot have both feature_group_count and batch_group_count > 1"
        )
    if in_features % fgc:
        raise VerifyException(
            f"input feature dimension size {in_features} is not a multiple of feature_group_count {fgc}"
        )
    if in_features // fgc != rhs[d.kernel_input_feature]:
        raise VerifyException(
            f"input feature dimension size {in_features} / feature_group_count {fgc} must equal "
            f"the kernel input feature dimension size {rhs[d.kernel_input_feature]}"
        )
    if out_features % fgc:
        raise VerifyException(
            f"kernel output feature dimension size {out_features} is not a multiple of "
            f"feature_group_count {fgc}"
        )
    if lhs[d.input_batch] % bgc:
        raise VerifyException(
            f"input batch dimension size {lhs[d.input_batch]} is not a multiple of batch_group_count {bgc}"
        )
    if out_features % bgc:
        raise VerifyException(
            f"kernel output feature dimension size {out_features} is not a multiple of "
            f"batch_group_count {bgc}"
        )


@irdl_op_definition
class ConvolutionOp(IRDLOperation):
    """XLA's convolution: slide the (window-dilated, maybe reversed) kernel over the
    base-dilated, padded input; every output element sums input x kernel over the window and
    the input features of its group.

    `feature_group_count` G splits the input features and the kernel's output features into G
    groups (output group g reads input group g); `batch_group_count` B splits the input batch
    into B groups, output feature group g reading batch group g (the output batch is the input
    batch / B).

    ```mlir
    %y = hlo.convolution %x, %w dim_labels = "bf_io->bf" size = [] : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
    ```
    """

    name = "hlo.convolution"
    lhs = operand_def(HLO_TENSOR)
    rhs = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    dim_labels = prop_def(StringAttr)
    window = prop_def(WindowAttr)
    feature_group_count = opt_prop_def(IntegerAttr[I64])
    batch_group_count = opt_prop_def(IntegerAttr[I64])
    window_reversal = opt_prop_def(DimensionsAttr)
    traits = traits_def(Pure())

    assembly_format = (
        "$lhs `,` $rhs `dim_labels` `=` $dim_labels custom<Window>($window) "
        "(`feature_group_count` `=` $feature_group_count^)? "
        "(`batch_group_count` `=` $batch_group_count^)? "
        "(`window_reversal` `=` $window_reversal^)? "
        "attr-dict `:` functional-type(operands, $result)"
    )
    custom_directives = (WindowDirective,)

    def dims(self) -> ConvDims:
        return parse_dim_labels(self.dim_labels.data)

    def verify_(self) -> None:
        lt, rt, res = tensor_type(self.lhs), tensor_type(self.rhs), tensor_type(self.result)
        _check_element_types(lt.element_type, rt.element_type, res.element_type)
        d = self.dims()
        rank = 2 + len(d.input_spatial)
        for what, t in (("lhs", lt), ("rhs", rt)):
            if len(t.get_shape()) != rank:
                raise VerifyException(
                    f"convolution {what} has rank {len(t.get_shape())}, dim_labels need rank {rank}"
                )
        lhs, rhs = lt.get_shape(), rt.get_shape()
        fgc = _positive(self.feature_group_count, "feature_group_count")
        bgc = _positive(self.batch_group_count, "batch_group_count")
        _check_groups(lhs, rhs, d, fgc, bgc)
        window = self.window.data
        problem = window.problem()
        if problem is not None:
            raise VerifyException(problem)
        if len(window.size) != len(d.input_spatial):
            raise VerifyException(
                f"window has {len(window.size)} dimensions, but the convolution has "
                f"{len(d.input_spatial)} spatial dimensions"
            )
        for k, (size, kdim) in enumerate(zip(window.size, d.kernel_spatial, strict=True)):
            if size != rhs[kdim]:
                raise VerifyException(
                    f"window size {size} of spatial dimension {k} differs from the kernel's {rhs[kdim]}"
                )
        reversal = self.window_reversal
        if reversal is not None and (
            len(reversal.data) != len(window.size) or any(r not in (0, 1) for r in reversal.data)
        ):
            raise VerifyException("window_reversal needs one 0 or 1 per spatial dimension")
        spatial = window_shape(tuple(lhs[i] for i in d.input_spatial), window)
        out = [0] * rank
        out[d.output_batch] = lhs[d.input_batch] // bgc
        out[d.output_feature] = rhs[d.kernel_output_feature]
        for k, o in enumerate(d.output_spatial):
            out[o] = spatial[k]
        expected = TensorType(res.element_type, out)
        if res != expected:
            raise VerifyException(f"convolution result must be {expected}, got {res}")


OPS: list[type[Operation]] = [ConvolutionOp]
