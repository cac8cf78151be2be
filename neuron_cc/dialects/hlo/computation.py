"""Computation ops of the hlo dialect: dot, reduce, reduce_window, gather, scatter, sort.

Shapes follow XLA's rules (xla/service/shape_inference.cc). An op with several inputs (reduce,
reduce_window, scatter, sort) returns ONE value: a `tuple<...>` when it has more than one input,
the plain tensor otherwise, exactly like XLA. Reducers, update computations and comparators are
single-block regions isolated from above, terminated by `hlo.return`.

```mlir
%s = hlo.reduce(%x : tensor<4x8xf32>) init(%zero : tensor<f32>) dimensions = [1] {
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %c = hlo.add %a, %b : tensor<f32>
  hlo.return %c : tensor<f32>
} -> tensor<4xf32>
```
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I64, IntegerAttr, IntegerType, TensorType, TupleType, UnitAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import IsolatedFromAbove, Pure
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo import dimension_numbers
from neuron_cc.dialects.hlo.attributes import DimensionsAttr, DimsDirective
from neuron_cc.dialects.hlo.control_flow import ReturnOp
from neuron_cc.dialects.hlo.dimension_numbers import (
    DotDimensionNumbersAttr,
    DotDimsDirective,
    GatherDimensionNumbersAttr,
    GatherDimsDirective,
    ScatterDimensionNumbersAttr,
    ScatterDimsDirective,
    WindowAttr,
    WindowDirective,
    check_dims,
    check_disjoint,
    check_scatter,
    gather_shape,
    window_shape,
)
from neuron_cc.dialects.hlo.types import (
    HLO_TENSOR,
    HLO_VALUE,
    HloTensor,
    element_type_name,
    is_float_type,
    shape_str,
    tensor_type,
)

Shape = tuple[int, ...]
_PRED_SCALAR = TensorType(IntegerType(1), [])

# --- shared checks ---------------------------------------------------------------------------


def _same_ignoring_fp_precision(a: Attribute, b: Attribute) -> bool:
    return a == b or (is_float_type(a) and is_float_type(b))


def _bitwidth(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    return int(getattr(t, "bitwidth", 0))


def _scalar(elem: Attribute) -> TensorType[Attribute]:
    return TensorType(elem, [])


def _same_shapes(types: Sequence[HloTensor], what: str) -> Shape:
    """All `types` share the shape of the first one, which is returned."""
    shape = types[0].get_shape()
    for i, t in enumerate(types[1:], 1):
        if t.get_shape() != shape:
            raise VerifyException(
                f"{what} {i} has shape {shape_str(t.get_shape())}, "
                f"but {what} 0 has shape {shape_str(shape)}"
            )
    return shape


def _check_result(result: Attribute, expected: Sequence[Attribute], what: str) -> None:
    """One tensor for one input, a tuple of `expected` for several (XLA's variadic form)."""
    n = len(expected)
    if n == 1:
        if isinstance(result, TupleType):
            raise VerifyException(f"{what} with one input returns a tensor, not {result}")
        got: Sequence[Attribute] = [result]
    else:
        got = result.types.data if isinstance(result, TupleType) else ()
        if len(got) != n:
            raise VerifyException(
                f"{what} with {n} inputs returns a tuple of {n} tensors, got {result}"
            )
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        if g != e:
            label = "result" if n == 1 else f"result {i}"
            raise VerifyException(f"{label} has type {g}, expected {e}")


def _accumulators(
    inputs: Sequence[HloTensor], inits: Sequence[SSAValue], what: str
) -> list[Attribute]:
    """The scalar accumulator types: init value i is a scalar of input i's element type."""
    if not inputs:
        raise VerifyException(f"{what} needs at least one input")
    if len(inits) != len(inputs):
        raise VerifyException(
            f"{what} has {len(inputs)} inputs but {len(inits)} init values, expected one per input"
        )
    types: list[Attribute] = []
    for i, (x, init) in enumerate(zip(inputs, inits, strict=True)):
        t = tensor_type(init)
        if t.get_shape():
            raise VerifyException(f"init value {i} must be a scalar, got {t}")
        if not _same_ignoring_fp_precision(t.element_type, x.element_type):
            raise VerifyException(
                f"init value {i} has element type {element_type_name(t.element_type)}, "
                f"but input {i} has element type {element_type_name(x.element_type)}"
            )
        types.append(t)
    return types


def _check_region_args(block: Block, expected: Sequence[Attribute], what: str) -> None:
    args = [a.type for a in block.args]
    if len(args) != len(expected):
        raise VerifyException(
            f"{what} region must take {len(expected)} scalar arguments, got {len(args)}"
        )
    for i, (a, e) in enumerate(zip(args, expected, strict=True)):
        if a != e:
            raise VerifyException(f"{what} region argument {i} has type {a}, expected {e}")


def _returned_types(block: Block, what: str) -> list[Attribute]:
    last = block.last_op
    if not isinstance(last, ReturnOp):
        raise VerifyException(f"{what} region must end in hlo.return")
    return [o.type for o in last.operands]


def _verify_reducer(region: Region, accumulators: Sequence[Attribute], what: str) -> None:
    """XLA's reducer shape: 2N scalar arguments (N accumulators, N inputs) -> N accumulators."""
    block = region.block
    _check_region_args(block, [*accumulators, *accumulators], what)
    got = _returned_types(block, what)
    if len(got) != len(accumulators):
        raise VerifyException(
            f"{what} region returns {len(got)} values, expected {len(accumulators)}"
        )
    for i, (g, e) in enumerate(zip(got, accumulators, strict=True)):
        if g != e:
            raise VerifyException(f"{what} region result {i} has type {g}, expected {e}")


def _reduced_types(accumulators: Sequence[Attribute], shape: Sequence[int]) -> list[Attribute]:
    return [TensorType(tensor_type(a).element_type, shape) for a in accumulators]


# --- dot -------------------------------------------------------------------------------------


def _check_dot_pairs(
    lhs: Shape, rhs: Shape, lhs_dims: Sequence[int], rhs_dims: Sequence[int], kind: str
) -> None:
    if len(lhs_dims) != len(rhs_dims):
        raise VerifyException(
            f"lhs_{kind} has {len(lhs_dims)} dimensions, but rhs_{kind} has {len(rhs_dims)}"
        )
    check_dims(lhs_dims, len(lhs), f"lhs_{kind}", "lhs")
    check_dims(rhs_dims, len(rhs), f"rhs_{kind}", "rhs")
    for li, ri in zip(lhs_dims, rhs_dims, strict=True):
        if lhs[li] != rhs[ri]:
            raise VerifyException(
                f"{kind} dimension sizes differ: lhs dimension {li} has size {lhs[li]}, "
                f"rhs dimension {ri} has size {rhs[ri]}"
            )


def _dot_element_type(lhs: Attribute, rhs: Attribute, result: Attribute) -> None:
    """The result type is the operands' (higher precision) type or a not-narrower preferred one."""
    if result in (lhs, rhs):
        return
    ints = [t for t in (lhs, rhs) if not is_float_type(t)]
    widest = max((_bitwidth(t) for t in ints), default=0)
    if len(ints) == 2 and _bitwidth(result) < widest:
        raise VerifyException(
            f"result element type {element_type_name(result)} is narrower than the operand "
            f"element type {element_type_name(ints[0] if _bitwidth(ints[0]) == widest else ints[1])}"
        )


@irdl_op_definition
class DotOp(IRDLOperation):
    """General dot product (XLA DotGeneral): contract `lhs_contracting` with `rhs_contracting`.

    Batch dimensions pair up; the result dimensions are the batch dimensions, then the free
    lhs dimensions, then the free rhs dimensions, each in order. The result element type may
    differ from the operands' (XLA's preferred_element_type), but not be a narrower integer.

    ```mlir
    %r = hlo.dot %a, %b lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2],
        rhs_contracting = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    ```
    """

    name = "hlo.dot"
    lhs = operand_def(HLO_TENSOR)
    rhs = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    dot_dimension_numbers = prop_def(DotDimensionNumbersAttr)
    traits = traits_def(Pure())

    assembly_format = (
        "$lhs `,` $rhs custom<DotDims>($dot_dimension_numbers) attr-dict "
        "`:` functional-type(operands, $result)"
    )
    custom_directives = (DotDimsDirective,)

    def verify_(self) -> None:
        dn = self.dot_dimension_numbers.data
        lhs, rhs, res = tensor_type(self.lhs), tensor_type(self.rhs), tensor_type(self.result)
        ls, rs = lhs.get_shape(), rhs.get_shape()
        _check_dot_pairs(ls, rs, dn.lhs_batch, dn.rhs_batch, "batch")
        _check_dot_pairs(ls, rs, dn.lhs_contracting, dn.rhs_contracting, "contracting")
        check_disjoint(dn.lhs_batch, "lhs_batch", dn.lhs_contracting, "lhs_contracting", "lhs")
        check_disjoint(dn.rhs_batch, "rhs_batch", dn.rhs_contracting, "rhs_contracting", "rhs")
        _dot_element_type(lhs.element_type, rhs.element_type, res.element_type)
        lhs_used = {*dn.lhs_batch, *dn.lhs_contracting}
        rhs_used = {*dn.rhs_batch, *dn.rhs_contracting}
        shape = (
            [ls[d] for d in dn.lhs_batch]
            + [s for d, s in enumerate(ls) if d not in lhs_used]
            + [s for d, s in enumerate(rs) if d not in rhs_used]
        )
        _check_result(res, [TensorType(res.element_type, shape)], "dot")


# --- reduce, reduce_window -------------------------------------------------------------------


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """Reduce N same-shaped inputs along `dimensions` with a reducer region.

    The reducer takes N accumulators and N input elements (2N scalars) and returns N scalars;
    init value i is the scalar start value of input i. One input gives a tensor, several give
    a tuple of tensors (XLA's variadic reduce).

    ```mlir
    %s = hlo.reduce(%x : tensor<4x8xf32>) init(%zero : tensor<f32>) dimensions = [1] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<4xf32>
    ```
    """

    name = "hlo.reduce"
    inputs = var_operand_def(HLO_TENSOR)
    init_values = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    dimensions = prop_def(DimensionsAttr)
    body = region_def("single_block")
    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "`(` $inputs `:` type($inputs) `)` `init` `(` $init_values `:` type($init_values) `)` "
        "`dimensions` `=` custom<Dims>($dimensions) $body attr-dict `->` type($result)"
    )
    custom_directives = (DimsDirective,)

    def verify_(self) -> None:
        inputs = [tensor_type(x) for x in self.inputs]
        accumulators = _accumulators(inputs, self.init_values, "reduce")
        shape = _same_shapes(inputs, "reduce input")
        dims = self.dimensions.data
        check_dims(dims, len(shape), "dimensions", "the inputs")
        _verify_reducer(self.body, accumulators, "reduce")
        kept = [s for d, s in enumerate(shape) if d not in dims]
        _check_result(self.result.type, _reduced_types(accumulators, kept), "reduce")


@irdl_op_definition
class ReduceWindowOp(IRDLOperation):
    """Reduce every window of N same-shaped inputs with a reducer region.

    The window slides over the base-dilated, padded input with `stride`; each output element
    reduces the (window-dilated) window from the init value. Result dimension d is
    floor((padded_d - dilated_window_d) / stride_d) + 1 (0 if the window does not fit).

    ```mlir
    %m = hlo.reduce_window(%x : tensor<4x8xf32>) init(%ninf : tensor<f32>) size = [2, 2],
        stride = [2, 2] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.maximum %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<2x4xf32>
    ```
    """

    name = "hlo.reduce_window"
    inputs = var_operand_def(HLO_TENSOR)
    init_values = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    window = prop_def(WindowAttr)
    body = region_def("single_block")
    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "`(` $inputs `:` type($inputs) `)` `init` `(` $init_values `:` type($init_values) `)` "
        "custom<Window>($window) $body attr-dict `->` type($result)"
    )
    custom_directives = (WindowDirective,)

    def verify_(self) -> None:
        inputs = [tensor_type(x) for x in self.inputs]
        accumulators = _accumulators(inputs, self.init_values, "reduce_window")
        shape = _same_shapes(inputs, "reduce_window input")
        window = self.window.data
        problem = window.problem()
        if problem is not None:
            raise VerifyException(problem)
        if len(window.size) != len(shape):
            raise VerifyException(
                f"window has {len(window.size)} dimensions, but the inputs have rank {len(shape)}"
            )
        _verify_reducer(self.body, accumulators, "reduce_window")
        expected = _reduced_types(accumulators, window_shape(shape, window))
        _check_result(self.result.type, expected, "reduce_window")


# --- gather, scatter -------------------------------------------------------------------------


@irdl_op_definition
class GatherOp(IRDLOperation):
    """Gather slices of `operand` of size `slice_sizes` starting at indices read from `start_indices`.

    The index vector (along `index_vector_dim`) maps to operand dimensions through
    `start_index_map`; `collapsed_slice_dims` (size-1) are dropped from each slice; the result
    puts the slice dimensions at `offset_dims` and the batch (indices) dimensions elsewhere.

    ```mlir
    %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0],
        index_vector_dim = 1 slice_sizes = [1, 8] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
    ```
    """

    name = "hlo.gather"
    operand = operand_def(HLO_TENSOR)
    start_indices = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)
    dimension_numbers = prop_def(GatherDimensionNumbersAttr)
    slice_sizes = prop_def(DimensionsAttr)
    indices_are_sorted = opt_prop_def(UnitAttr)
    traits = traits_def(Pure())

    assembly_format = (
        "$operand `,` $start_indices custom<GatherDims>($dimension_numbers) "
        "`slice_sizes` `=` custom<Dims>($slice_sizes) "
        "(`indices_are_sorted` $indices_are_sorted^)? attr-dict "
        "`:` functional-type(operands, $result)"
    )
    custom_directives = (GatherDimsDirective, DimsDirective)

    def verify_(self) -> None:
        dn = self.dimension_numbers.data
        operand, indices = tensor_type(self.operand), tensor_type(self.start_indices)
        shape = gather_shape(dn, operand, indices, self.slice_sizes.data)
        _check_result(self.result.type, [TensorType(operand.element_type, shape)], "gather")


@irdl_op_definition
class ScatterOp(IRDLOperation):
    """Scatter windows of `updates` into copies of the inputs at indices from `scatter_indices`.

    Each update element is combined with the input element it lands on by the update region
    (2N scalars -> N scalars for N inputs). Window dimensions of the updates are
    `update_window_dims`; `inserted_window_dims` are size-1 operand dimensions the windows lack.

    ```mlir
    %s = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>)
        updates(%u : tensor<4x8xf32>) update_window_dims = [1],
        inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<16x8xf32>
    ```
    """

    name = "hlo.scatter"
    inputs = var_operand_def(HLO_TENSOR)
    scatter_indices = operand_def(HLO_TENSOR)
    updates = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    dimension_numbers = prop_def(ScatterDimensionNumbersAttr)
    indices_are_sorted = opt_prop_def(UnitAttr)
    unique_indices = opt_prop_def(UnitAttr)
    update_computation = region_def("single_block")
    traits = traits_def(Pure(), IsolatedFromAbove())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "`(` $inputs `:` type($inputs) `)` "
        "`indices` `(` $scatter_indices `:` type($scatter_indices) `)` "
        "`updates` `(` $updates `:` type($updates) `)` "
        "custom<ScatterDims>($dimension_numbers) "
        "(`indices_are_sorted` $indices_are_sorted^)? (`unique_indices` $unique_indices^)? "
        "$update_computation attr-dict `->` type($result)"
    )
    custom_directives = (ScatterDimsDirective,)

    def _verify_operands(self) -> tuple[list[HloTensor], list[HloTensor]]:
        inputs = [tensor_type(x) for x in self.inputs]
        updates = [tensor_type(u) for u in self.updates]
        if not inputs:
            raise VerifyException("scatter needs at least one input")
        if len(updates) != len(inputs):
            raise VerifyException(
                f"scatter has {len(inputs)} inputs but {len(updates)} updates, expected one per input"
            )
        _same_shapes(inputs, "scatter input")
        _same_shapes(updates, "scatter update")
        for i, (x, u) in enumerate(zip(inputs, updates, strict=True)):
            if not _same_ignoring_fp_precision(x.element_type, u.element_type):
                raise VerifyException(
                    f"update {i} has element type {element_type_name(u.element_type)}, "
                    f"but input {i} has element type {element_type_name(x.element_type)}"
                )
        return inputs, updates

    def verify_(self) -> None:
        inputs, updates = self._verify_operands()
        dn = self.dimension_numbers.data
        indices = tensor_type(self.scatter_indices)
        check_scatter(dn, inputs[0], indices, updates[0])
        accumulators = [_scalar(x.element_type) for x in inputs]
        _verify_reducer(self.update_computation, accumulators, "scatter")
        _check_result(self.result.type, inputs, "scatter")


# --- sort ------------------------------------------------------------------------------------


@irdl_op_definition
class SortOp(IRDLOperation):
    """Sort N same-shaped operands together along `dimension`, ordered by a comparator region.

    The comparator takes 2N scalars (lhs_0, rhs_0, lhs_1, rhs_1, ...) and returns a
    `tensor<i1>` that is true iff lhs sorts before rhs; `is_stable` keeps equal elements in
    order. One operand gives a tensor, several give a tuple (XLA's variadic sort).

    ```mlir
    %s = hlo.sort(%keys, %values) dim = 0 is_stable {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = hlo.compare LT, %a, %b : tensor<f32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } : (tensor<8xf32>, tensor<8xi32>) -> tuple<tensor<8xf32>, tensor<8xi32>>
    ```
    """

    name = "hlo.sort"
    operands_ = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    dimension = prop_def(IntegerAttr[I64])
    is_stable = opt_prop_def(UnitAttr)
    comparator = region_def("single_block")
    traits = traits_def(Pure(), IsolatedFromAbove())

    assembly_format = (
        "`(` $operands_ `)` `dim` `=` $dimension (`is_stable` $is_stable^)? "
        "$comparator attr-dict `:` functional-type($operands_, $result)"
    )

    def verify_(self) -> None:
        types = [tensor_type(o) for o in self.operands_]
        if not types:
            raise VerifyException("sort needs at least one operand")
        shape = _same_shapes(types, "sort operand")
        dim = self.dimension.value.data
        if not 0 <= dim < len(shape):
            raise VerifyException(f"sort dimension {dim} is out of range for rank {len(shape)}")
        block = self.comparator.block
        _check_region_args(
            block, [_scalar(t.element_type) for t in types for _ in (0, 1)], "comparator"
        )
        got = _returned_types(block, "comparator")
        if got != [_PRED_SCALAR]:
            raise VerifyException(
                f"comparator must return a single tensor<i1>, got {', '.join(map(str, got)) or 'nothing'}"
            )
        _check_result(self.result.type, types, "sort")


OPS: list[type[Operation]] = [DotOp, ReduceOp, ReduceWindowOp, GatherOp, ScatterOp, SortOp]
ATTRS: list[type[Attribute]] = [*dimension_numbers.ATTRS]
