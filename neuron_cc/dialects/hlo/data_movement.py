"""Data-movement ops of the hlo dialect (XLA semantics and shape rules, docs/dialects.md §3).

reshape, bitcast, copy, broadcast, transpose, reverse, slice, dynamic_slice, dynamic_update_slice,
concatenate and pad. They only move or repeat elements, never compute on them, so each keeps its
operand's element type, and all are `Pure`. Each verifier follows XLA's shape inference
(xla/service/shape_inference.cc) and the HLO verifier: the result type is the inferred one.

```mlir
%t = hlo.transpose %x, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
%s = hlo.dynamic_slice %t at [%i, %j] sizes = [2, 2] : (tensor<4x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
```
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    irdl_custom_directive,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.attributes import DimensionsAttr, DimsDirective
from neuron_cc.dialects.hlo.types import (
    HLO_TENSOR,
    HloTensor,
    element_type_name,
    is_integer_type,
    shape_of,
    tensor_type,
)

# ---------------------------------------------------------------------------
# Shared checks
# ---------------------------------------------------------------------------


def _num_elements(shape: Sequence[int]) -> int:
    count = 1
    for d in shape:
        count *= d
    return count


def _list(values: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def _check_count(what: str, values: Sequence[int], rank: int, noun: str) -> None:
    """One entry of a per-dimension list for each operand dimension."""
    if len(values) != rank:
        raise VerifyException(
            f"{what} expects {rank} {noun} (one per operand dimension), got {len(values)}"
        )


def _check_permutation(what: str, values: Sequence[int], rank: int) -> None:
    if sorted(values) != list(range(rank)):
        raise VerifyException(f"{what} {_list(values)} is not a permutation of [0, {rank})")


def _check_same_element_type(what: str, operand: SSAValue, result: SSAValue) -> None:
    src = tensor_type(operand).element_type
    dst = tensor_type(result).element_type
    if src != dst:
        raise VerifyException(
            f"{what} changes the element type from "
            f"{element_type_name(src)} to {element_type_name(dst)}"
        )


def _check_result(
    what: str, result: SSAValue, element_type: Attribute, shape: Sequence[int]
) -> None:
    """The result type is the inferred one."""
    expected = TensorType(element_type, shape)
    if result.type != expected:
        raise VerifyException(f"{what} result must be {expected}, got {result.type}")


def _check_scalar_indices(what: str, indices: Sequence[SSAValue], rank: int) -> None:
    """XLA's scalar start indices: one per dimension, integer scalars all of one type."""
    if len(indices) != rank:
        raise VerifyException(
            f"{what} expects {rank} start indices (one per operand dimension), got {len(indices)}"
        )
    for i, index in enumerate(indices):
        t = tensor_type(index)
        if t.get_shape() or not is_integer_type(t.element_type):
            raise VerifyException(f"{what} index {i} must be a scalar integer tensor, got {t}")
        if t != indices[0].type:
            raise VerifyException(
                f"{what} indices must all have one type: index {i} is {t}, "
                f"index 0 is {indices[0].type}"
            )


class _DataMovementOp(IRDLOperation):
    """Shared operand/result and traits: a tensor in, a tensor of the same element type out."""

    operand = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    traits = traits_def(Pure())


# ---------------------------------------------------------------------------
# reshape, bitcast, copy
# ---------------------------------------------------------------------------


@irdl_custom_directive
class OptionalDims(DimsDirective):
    """`custom<OptionalDims>($dims)`: like `custom<Dims>`, usable as an optional group anchor."""

    attr: AttributeVariable

    def is_anchorable(self) -> bool:
        return True

    def is_present(self, op: IRDLOperation) -> bool:
        return self.attr.get(op) is not None


@irdl_op_definition
class ReshapeOp(_DataMovementOp):
    """Reinterpret the operand's elements, in row-major order, with a new shape.

    The element count and element type are preserved.

    ```mlir
    %r = hlo.reshape %x : (tensor<2x4xf32>) -> tensor<8xf32>
    ```
    """

    name = "hlo.reshape"
    assembly_format = "$operand attr-dict `:` functional-type($operand, $result)"

    def verify_(self) -> None:
        _check_same_element_type("reshape", self.operand, self.result)
        src = _num_elements(shape_of(self.operand))
        dst = _num_elements(shape_of(self.result))
        if src != dst:
            raise VerifyException(f"reshape changes the element count from {src} to {dst}")


@irdl_op_definition
class BitcastOp(_DataMovementOp):
    """XLA's `bitcast`: a reshape that is a no-op on the physical buffer.

    Element type and element count are preserved; the optional `layout` is the result's
    minor-to-major layout (a permutation of its dimensions), XLA's default `{rank-1, ..., 0}`
    when absent. A change of element type is `bitcast_convert`, not `bitcast`.

    ```mlir
    %b = hlo.bitcast %x layout = [0, 1] : (tensor<2x4xf32>) -> tensor<4x2xf32>
    ```
    """

    name = "hlo.bitcast"
    layout = opt_prop_def(DimensionsAttr)

    assembly_format = (
        "$operand (`layout` `=` custom<OptionalDims>($layout)^)? "
        "attr-dict `:` functional-type($operand, $result)"
    )
    custom_directives = (OptionalDims,)

    def verify_(self) -> None:
        _check_same_element_type("bitcast", self.operand, self.result)
        src = _num_elements(shape_of(self.operand))
        dst = _num_elements(shape_of(self.result))
        if src != dst:
            raise VerifyException(f"bitcast changes the element count from {src} to {dst}")
        if self.layout is not None:
            _check_permutation("bitcast layout", self.layout.data, len(shape_of(self.result)))


@irdl_op_definition
class CopyOp(IRDLOperation):
    """A copy of the operand into a new buffer (the value is unchanged).

    ```mlir
    %c = hlo.copy %x : tensor<4xf32>
    ```
    """

    name = "hlo.copy"
    T: ClassVar = VarConstraint("T", HLO_TENSOR)
    operand = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())

    assembly_format = "$operand attr-dict `:` type($result)"


# ---------------------------------------------------------------------------
# broadcast, transpose
# ---------------------------------------------------------------------------


@irdl_op_definition
class BroadcastOp(_DataMovementOp):
    """Replicate the operand into a larger shape: operand dimension i becomes result dimension
    `dimensions[i]`; every other result dimension repeats the operand.

    As in the HLO verifier, each mapped dimension keeps its size (a degenerate size-1 expansion
    is a reshape first) and the dimensions are unique (not necessarily increasing).

    ```mlir
    %b = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
    ```
    """

    name = "hlo.broadcast"
    dimensions = prop_def(DimensionsAttr)

    assembly_format = (
        "$operand `,` `dims` `=` custom<Dims>($dimensions) "
        "attr-dict `:` functional-type($operand, $result)"
    )
    custom_directives = (DimsDirective,)

    def verify_(self) -> None:
        _check_same_element_type("broadcast", self.operand, self.result)
        in_shape = shape_of(self.operand)
        out_shape = shape_of(self.result)
        dims = self.dimensions.data
        _check_count("broadcast", dims, len(in_shape), "dimensions")
        for i, d in enumerate(dims):
            if not 0 <= d < len(out_shape):
                raise VerifyException(
                    f"broadcast dimension {d} is out of range for result rank {len(out_shape)}"
                )
            if dims.index(d) != i:
                raise VerifyException(f"broadcast dimension {d} appears twice in {_list(dims)}")
            if in_shape[i] != out_shape[d]:
                raise VerifyException(
                    f"broadcast operand dimension {i} of size {in_shape[i]} does not match "
                    f"result dimension {d} of size {out_shape[d]}"
                )


@irdl_op_definition
class TransposeOp(_DataMovementOp):
    """Permute the operand's dimensions: result dimension i is operand dimension
    `permutation[i]`.

    ```mlir
    %t = hlo.transpose %x, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
    ```
    """

    name = "hlo.transpose"
    permutation = prop_def(DimensionsAttr)

    assembly_format = (
        "$operand `,` `dims` `=` custom<Dims>($permutation) "
        "attr-dict `:` functional-type($operand, $result)"
    )
    custom_directives = (DimsDirective,)

    def verify_(self) -> None:
        t = tensor_type(self.operand)
        shape = t.get_shape()
        perm = self.permutation.data
        _check_permutation("transpose permutation", perm, len(shape))
        _check_result("transpose", self.result, t.element_type, [shape[p] for p in perm])


@irdl_op_definition
class ReverseOp(_DataMovementOp):
    """Reverse the order of the elements along each of `dimensions` (XLA's `reverse`).

    XLA's rules: every entry is a dimension of the operand, none repeated; the result type is
    the operand's.

    ```mlir
    %r = hlo.reverse %x, dims = [0] : (tensor<2x4xf32>) -> tensor<2x4xf32>
    ```
    """

    name = "hlo.reverse"
    dimensions = prop_def(DimensionsAttr)

    assembly_format = (
        "$operand `,` `dims` `=` custom<Dims>($dimensions) "
        "attr-dict `:` functional-type($operand, $result)"
    )
    custom_directives = (DimsDirective,)

    def verify_(self) -> None:
        t = tensor_type(self.operand)
        shape = t.get_shape()
        dims = self.dimensions.data
        for d in dims:
            if not 0 <= d < len(shape):
                raise VerifyException(
                    f"reverse dimension {d} is out of range for rank {len(shape)}"
                )
        if len(set(dims)) != len(dims):
            raise VerifyException(f"reverse dimensions {_list(dims)} repeat a dimension")
        _check_result("reverse", self.result, t.element_type, shape)


# ---------------------------------------------------------------------------
# slice, dynamic_slice, dynamic_update_slice
# ---------------------------------------------------------------------------


def _slice_size(dim: int, size: int, start: int, limit: int, stride: int) -> int:
    """One dimension of XLA's InferSliceShape."""
    if start < 0:
        raise VerifyException(f"slice start {start} of dimension {dim} is negative")
    if limit > size:
        raise VerifyException(f"slice limit {limit} exceeds dimension {dim} of size {size}")
    if start > limit:
        raise VerifyException(f"slice start {start} exceeds limit {limit} in dimension {dim}")
    if stride <= 0:
        raise VerifyException(f"slice stride {stride} of dimension {dim} must be positive")
    return (limit - start + stride - 1) // stride


@irdl_op_definition
class SliceOp(_DataMovementOp):
    """Static strided slice: dimension d keeps indices start[d], start[d] + strides[d], ...
    below limit[d], so its size is ceil((limit - start) / stride).

    ```mlir
    %s = hlo.slice %x, start = [0, 1], limit = [8, 4], strides = [2, 1] : (tensor<8x4xf32>) -> tensor<4x3xf32>
    ```
    """

    name = "hlo.slice"
    start_indices = prop_def(DimensionsAttr)
    limit_indices = prop_def(DimensionsAttr)
    strides = prop_def(DimensionsAttr)

    assembly_format = (
        "$operand `,` `start` `=` custom<Dims>($start_indices) `,` "
        "`limit` `=` custom<Dims>($limit_indices) `,` `strides` `=` custom<Dims>($strides) "
        "attr-dict `:` functional-type($operand, $result)"
    )
    custom_directives = (DimsDirective,)

    def verify_(self) -> None:
        t = tensor_type(self.operand)
        shape = t.get_shape()
        starts = self.start_indices.data
        limits = self.limit_indices.data
        strides = self.strides.data
        _check_count("slice", starts, len(shape), "start indices")
        _check_count("slice", limits, len(shape), "limit indices")
        _check_count("slice", strides, len(shape), "strides")
        sizes = [
            _slice_size(d, *args) for d, args in enumerate(zip(shape, starts, limits, strides))
        ]
        _check_result("slice", self.result, t.element_type, sizes)


@irdl_op_definition
class DynamicSliceOp(IRDLOperation):
    """Slice `slice_sizes` elements starting at runtime indices, one integer scalar per
    dimension. XLA clamps each start into [0, dim - size], so the slice is always in bounds.

    ```mlir
    %s = hlo.dynamic_slice %x at [%i, %j] sizes = [2, 2] : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
    ```
    """

    name = "hlo.dynamic_slice"
    operand = operand_def(HLO_TENSOR)
    start_indices = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    slice_sizes = prop_def(DimensionsAttr)
    traits = traits_def(Pure())

    assembly_format = (
        "$operand `at` ` ` `[` $start_indices `]` `sizes` `=` custom<Dims>($slice_sizes) "
        "attr-dict `:` functional-type(operands, results)"
    )
    custom_directives = (DimsDirective,)

    def verify_(self) -> None:
        t = tensor_type(self.operand)
        shape = t.get_shape()
        _check_scalar_indices("dynamic_slice", self.start_indices, len(shape))
        sizes = self.slice_sizes.data
        _check_count("dynamic_slice", sizes, len(shape), "slice sizes")
        for d, (size, dim) in enumerate(zip(sizes, shape)):
            if size < 0:
                raise VerifyException(f"dynamic_slice size {size} of dimension {d} is negative")
            if size > dim:
                raise VerifyException(
                    f"dynamic_slice size {size} exceeds dimension {d} of size {dim}"
                )
        _check_result("dynamic_slice", self.result, t.element_type, sizes)


@irdl_op_definition
class DynamicUpdateSliceOp(IRDLOperation):
    """Overwrite a window of the operand with `update`, starting at runtime indices (one
    integer scalar per dimension, clamped into [0, dim - update dim] as in XLA).

    The result has the operand's type.

    ```mlir
    %r = hlo.dynamic_update_slice %x, %u at [%i, %j] : (tensor<8x8xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
    ```
    """

    name = "hlo.dynamic_update_slice"
    operand = operand_def(HLO_TENSOR)
    update = operand_def(HLO_TENSOR)
    start_indices = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    traits = traits_def(Pure())

    assembly_format = (
        "$operand `,` $update `at` ` ` `[` $start_indices `]` "
        "attr-dict `:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        t = tensor_type(self.operand)
        u = tensor_type(self.update)
        shape = t.get_shape()
        _check_scalar_indices("dynamic_update_slice", self.start_indices, len(shape))
        what = "dynamic_update_slice"
        if u.get_num_dims() != len(shape):
            raise VerifyException(
                f"{what} update rank {u.get_num_dims()} does not match operand rank {len(shape)}"
            )
        if u.element_type != t.element_type:
            raise VerifyException(
                f"{what} update element type {element_type_name(u.element_type)} does not "
                f"match operand element type {element_type_name(t.element_type)}"
            )
        for d, (size, dim) in enumerate(zip(u.get_shape(), shape)):
            if size > dim:
                raise VerifyException(
                    f"{what} update dimension {d} of size {size} exceeds operand size {dim}"
                )
        if self.result.type != t:
            raise VerifyException(
                f"{what} result must be the operand type {t}, got {self.result.type}"
            )


# ---------------------------------------------------------------------------
# concatenate, pad
# ---------------------------------------------------------------------------


def _check_concat_operand(i: int, first: HloTensor, t: HloTensor, dim: int) -> None:
    if t.get_num_dims() != first.get_num_dims():
        raise VerifyException(
            f"concatenate operand {i} has rank {t.get_num_dims()}, "
            f"but operand 0 has rank {first.get_num_dims()}"
        )
    if t.element_type != first.element_type:
        raise VerifyException(
            f"concatenate operand {i} has element type {element_type_name(t.element_type)}, "
            f"but operand 0 has {element_type_name(first.element_type)}"
        )
    for d, (size, first_size) in enumerate(zip(t.get_shape(), first.get_shape())):
        if d != dim and size != first_size:
            raise VerifyException(
                f"concatenate operand {i} has size {size} in dimension {d}, "
                f"but operand 0 has size {first_size}"
            )


@irdl_op_definition
class ConcatenateOp(IRDLOperation):
    """Join the operands along `dimension`; all other dimensions must agree.

    ```mlir
    %c = hlo.concatenate(%a, %b) dim = 0 : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>
    ```
    """

    name = "hlo.concatenate"
    operands_ = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    dimension = prop_def(IntegerAttr[I64])
    traits = traits_def(Pure())

    assembly_format = (
        "`(` $operands_ `)` `dim` `=` $dimension attr-dict `:` functional-type($operands_, $result)"
    )

    def verify_(self) -> None:
        types = [tensor_type(o) for o in self.operands_]
        if not types:
            raise VerifyException("concatenate needs at least one operand")
        first = types[0]
        dim = self.dimension.value.data
        if not 0 <= dim < first.get_num_dims():
            raise VerifyException(
                f"concatenate dimension {dim} is out of range for rank {first.get_num_dims()}"
            )
        for i, t in enumerate(types[1:], start=1):
            _check_concat_operand(i, first, t, dim)
        shape = list(first.get_shape())
        shape[dim] = sum(t.get_shape()[dim] for t in types)
        _check_result("concatenate", self.result, first.element_type, shape)


def _padded_size(dim: int, size: int, low: int, high: int, interior: int) -> int:
    """One dimension of XLA's InferPadShape."""
    if interior < 0:
        raise VerifyException(f"pad interior padding {interior} of dimension {dim} is negative")
    padded = low + high + size + max(size - 1, 0) * interior
    if padded < 0:
        raise VerifyException(f"pad result dimension {dim} would have negative size {padded}")
    return padded


@irdl_op_definition
class PadOp(IRDLOperation):
    """Pad each dimension with `padding_value`: `edge_padding_low`/`_high` elements at the ends
    (negative values cut elements off) and `interior_padding` (>= 0) between neighbours.

    Result dimension = low + high + d + max(d - 1, 0) * interior.

    ```mlir
    %p = hlo.pad %x, %zero, low = [1], high = [-1], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<5xf32>
    ```
    """

    name = "hlo.pad"
    operand = operand_def(HLO_TENSOR)
    padding_value = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    edge_padding_low = prop_def(DimensionsAttr)
    edge_padding_high = prop_def(DimensionsAttr)
    interior_padding = prop_def(DimensionsAttr)
    traits = traits_def(Pure())

    assembly_format = (
        "$operand `,` $padding_value `,` `low` `=` custom<Dims>($edge_padding_low) `,` "
        "`high` `=` custom<Dims>($edge_padding_high) `,` "
        "`interior` `=` custom<Dims>($interior_padding) "
        "attr-dict `:` functional-type(operands, results)"
    )
    custom_directives = (DimsDirective,)

    def verify_(self) -> None:
        t = tensor_type(self.operand)
        shape = t.get_shape()
        scalar = TensorType(t.element_type, [])
        if self.padding_value.type != scalar:
            raise VerifyException(
                f"pad padding value must be a scalar {scalar}, got {self.padding_value.type}"
            )
        low = self.edge_padding_low.data
        high = self.edge_padding_high.data
        interior = self.interior_padding.data
        _check_count("pad", low, len(shape), "low edge paddings")
        _check_count("pad", high, len(shape), "high edge paddings")
        _check_count("pad", interior, len(shape), "interior paddings")
        sizes = [_padded_size(d, *args) for d, args in enumerate(zip(shape, low, high, interior))]
        _check_result("pad", self.result, t.element_type, sizes)


OPS: list[type[Operation]] = [
    ReshapeOp,
    BitcastOp,
    CopyOp,
    BroadcastOp,
    TransposeOp,
    ReverseOp,
    SliceOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    ConcatenateOp,
    PadOp,
]
ATTRS: list[type[Attribute]] = []
