"""Interpreter: hlo data-movement ops (reshape, bitcast, copy, broadcast, transpose, slices,
concatenate, pad) on stacks of devices, against values computed by hand or per device."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.func import FuncFunctions

from neuron_cc.dialects.hlo.attributes import ComparisonDirection
from neuron_cc.dialects.hlo.elementwise import (
    AddOp,
    AndOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    OrOp,
    SubtractOp,
)
from neuron_cc.dialects.hlo.elementwise_misc import CompareOp, SelectOp
from neuron_cc.interpreter.computation import HloComputationFunctions
from neuron_cc.interpreter.control_flow import HloControlFlowFunctions
from neuron_cc.interpreter.data_movement import HloDataMovementFunctions
from neuron_cc.interpreter.values import SpmdState, attach_state
from neuron_cc.testing.ir import parse_module as parse

Array = np.ndarray[Any, Any]


def _aligned(a: Array, b: Array) -> tuple[Array, Array]:
    """(D,)-shaped scalars against (D, ...) stacks: add trailing axes."""
    rank = max(a.ndim, b.ndim)
    return a.reshape(a.shape + (1,) * (rank - a.ndim)), b.reshape(b.shape + (1,) * (rank - b.ndim))


_COMPARE = {
    ComparisonDirection.EQ: np.equal,
    ComparisonDirection.NE: np.not_equal,
    ComparisonDirection.LT: np.less,
    ComparisonDirection.LE: np.less_equal,
    ComparisonDirection.GT: np.greater,
    ComparisonDirection.GE: np.greater_equal,
}


@register_impls
class RegionOps(InterpreterFunctions):
    """Test stand-ins for the elementwise ops regions use, when elementwise.py is missing."""

    def _binary(self, ufunc: Any, args: PythonValues) -> PythonValues:
        a, b = _aligned(np.asarray(args[0]), np.asarray(args[1]))
        return (ufunc(a, b).astype(np.result_type(a.dtype, b.dtype)),)

    @impl(AddOp)
    def run_add(self, interpreter: Interpreter, op: AddOp, args: PythonValues) -> PythonValues:
        return self._binary(np.add, args)

    @impl(SubtractOp)
    def run_sub(self, interpreter: Interpreter, op: SubtractOp, args: PythonValues) -> PythonValues:
        return self._binary(np.subtract, args)

    @impl(MultiplyOp)
    def run_mul(self, interpreter: Interpreter, op: MultiplyOp, args: PythonValues) -> PythonValues:
        return self._binary(np.multiply, args)

    @impl(MaximumOp)
    def run_max(self, interpreter: Interpreter, op: MaximumOp, args: PythonValues) -> PythonValues:
        return self._binary(np.maximum, args)

    @impl(MinimumOp)
    def run_min(self, interpreter: Interpreter, op: MinimumOp, args: PythonValues) -> PythonValues:
        return self._binary(np.minimum, args)

    @impl(AndOp)
    def run_and(self, interpreter: Interpreter, op: AndOp, args: PythonValues) -> PythonValues:
        return self._binary(np.bitwise_and, args)

    @impl(OrOp)
    def run_or(self, interpreter: Interpreter, op: OrOp, args: PythonValues) -> PythonValues:
        return self._binary(np.bitwise_or, args)

    @impl(CompareOp)
    def run_compare(
        self, interpreter: Interpreter, op: CompareOp, args: PythonValues
    ) -> PythonValues:
        a, b = _aligned(np.asarray(args[0]), np.asarray(args[1]))
        return (_COMPARE[op.direction.data](a, b),)

    @impl(SelectOp)
    def run_select(
        self, interpreter: Interpreter, op: SelectOp, args: PythonValues
    ) -> PythonValues:
        p, t, f = (np.asarray(a) for a in args)
        rank = max(p.ndim, t.ndim, f.ndim)
        p, t, f = (x.reshape(x.shape + (1,) * (rank - x.ndim)) for x in (p, t, f))
        return (np.where(p, t, f),)


def _region_tables() -> list[InterpreterFunctions]:
    """The project's elementwise ops if they exist, else the test stand-ins."""
    try:
        from neuron_cc.interpreter.elementwise import HloElementwiseFunctions
    except ImportError:
        return [RegionOps()]
    return [HloElementwiseFunctions()]


def make_interpreter(module: ModuleOp, devices: int) -> Interpreter:
    """The project's interpreter when every table exists, else ours plus region ops."""
    try:
        from neuron_cc.interpreter.runner import make_interpreter as project_interpreter

        return project_interpreter(module, SpmdState(devices, 1))
    except ImportError:
        pass
    interpreter = Interpreter(module)
    for table in (
        FuncFunctions(),
        HloControlFlowFunctions(),
        HloDataMovementFunctions(),
        HloComputationFunctions(),
        *_region_tables(),
    ):
        interpreter.register_implementations(table)
    attach_state(interpreter, SpmdState(devices, 1))
    return interpreter


def run(text: str, *args: Any) -> Any:
    """Run `@main` of `text` on stacked (D, ...) arguments; returns its single result."""
    arrays = [np.asarray(a) for a in args]
    devices = arrays[0].shape[0]
    interpreter = make_interpreter(parse(text), devices)
    (result,) = interpreter.call_op("main", tuple(arrays))
    return result


def check(got: Any, expected: Any) -> None:
    got_a, expected_a = np.asarray(got), np.asarray(expected)
    assert got_a.dtype == expected_a.dtype, (got_a.dtype, expected_a.dtype)
    assert got_a.shape == expected_a.shape, (got_a.shape, expected_a.shape)
    np.testing.assert_array_equal(got_a, expected_a)


def _stack(shape: tuple[int, ...], devices: int = 2, dtype: Any = np.float32) -> Array:
    """Distinct values per device and element."""
    return np.arange(devices * int(np.prod(shape)), dtype=dtype).reshape(devices, *shape)


# --- reshape, copy, bitcast ------------------------------------------------------------------


def test_reshape_is_row_major() -> None:
    x = _stack((2, 3))
    got = run(
        """func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
          %r = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
          func.return %r : tensor<3x2xf32>
        }""",
        x,
    )
    check(got, x.reshape(2, 3, 2))


def test_copy_keeps_the_value() -> None:
    x = _stack((4,), dtype=np.int32)
    got = run(
        """func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
          %c = hlo.copy %x : tensor<4xi32>
          func.return %c : tensor<4xi32>
        }""",
        x,
    )
    check(got, x)


def test_bitcast_with_default_layouts_is_a_reshape() -> None:
    x = _stack((2, 3))
    got = run(
        """func.func @main(%x: tensor<2x3xf32>) -> tensor<6xf32> {
          %b = hlo.bitcast %x : (tensor<2x3xf32>) -> tensor<6xf32>
          func.return %b : tensor<6xf32>
        }""",
        x,
    )
    check(got, x.reshape(2, 6))


def test_bitcast_to_a_column_major_result_transposes() -> None:
    # Result 3x2 stored {0,1}: its buffer is (dim 1, dim 0) = 2x3 row-major = the operand's.
    x = _stack((2, 3))
    got = run(
        """func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
          %b = hlo.bitcast %x layout = [0, 1] : (tensor<2x3xf32>) -> tensor<3x2xf32>
          func.return %b : tensor<3x2xf32>
        }""",
        x,
    )
    check(got, x.transpose(0, 2, 1))


def test_bitcast_reads_the_argument_layout() -> None:
    x = _stack((2, 3))
    got = run(
        """func.func @main(%x: tensor<2x3xf32> {xla.shape = "f32[2,3]{0,1}"}) -> tensor<6xf32> {
          %b = hlo.bitcast %x : (tensor<2x3xf32>) -> tensor<6xf32>
          func.return %b : tensor<6xf32>
        }""",
        x,
    )
    check(got, x.transpose(0, 2, 1).reshape(2, 6))


def test_bitcast_reads_the_producer_and_result_xla_shape() -> None:
    # copy to a {0,1} layout then bitcast to 3x2{0,1}: the buffer order is the same, so the
    # bitcast is the logical transpose of the copy.
    x = _stack((2, 3))
    got = run(
        """func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
          %c = hlo.copy %x {xla.shape = "f32[2,3]{0,1:T(8,128)}"} : tensor<2x3xf32>
          %b = hlo.bitcast %c {xla.shape = "f32[3,2]{1,0}"} : (tensor<2x3xf32>) -> tensor<3x2xf32>
          func.return %b : tensor<3x2xf32>
        }""",
        x,
    )
    check(got, x.transpose(0, 2, 1).reshape(2, 3, 2))


def test_bitcast_of_a_bitcast_uses_the_producer_layout_property() -> None:
    x = _stack((2, 3))
    got = run(
        """func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
          %b = hlo.bitcast %x layout = [0, 1] : (tensor<2x3xf32>) -> tensor<3x2xf32>
          %c = hlo.bitcast %b : (tensor<3x2xf32>) -> tensor<2x3xf32>
          func.return %c : tensor<2x3xf32>
        }""",
        x,
    )
    check(got, x)


def test_bf16_values_stay_rounded() -> None:
    x = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    got = run(
        """func.func @main(%x: tensor<2xbf16>) -> tensor<2x1xbf16> {
          %r = hlo.reshape %x : (tensor<2xbf16>) -> tensor<2x1xbf16>
          func.return %r : tensor<2x1xbf16>
        }""",
        x,
    )
    check(got, x.reshape(2, 2, 1))


# --- broadcast, transpose --------------------------------------------------------------------


def test_broadcast_maps_operand_dims_to_unsorted_result_dims() -> None:
    x = _stack((2, 3))
    got = run(
        """func.func @main(%x: tensor<2x3xf32>) -> tensor<3x4x2xf32> {
          %b = hlo.broadcast %x, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
          func.return %b : tensor<3x4x2xf32>
        }""",
        x,
    )
    expected = np.empty((2, 3, 4, 2), dtype=np.float32)
    for d, i, j, k in np.ndindex(*expected.shape):
        expected[d, i, j, k] = x[d, k, i]
    check(got, expected)


def test_broadcast_of_a_scalar() -> None:
    x = np.array([5, 7], dtype=np.int32)
    got = run(
        """func.func @main(%x: tensor<i32>) -> tensor<2x2xi32> {
          %b = hlo.broadcast %x, dims = [] : (tensor<i32>) -> tensor<2x2xi32>
          func.return %b : tensor<2x2xi32>
        }""",
        x,
    )
    check(got, np.array([[[5, 5], [5, 5]], [[7, 7], [7, 7]]], dtype=np.int32))


def test_transpose() -> None:
    x = _stack((2, 3, 4))
    got = run(
        """func.func @main(%x: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
          %t = hlo.transpose %x, dims = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
          func.return %t : tensor<3x4x2xf32>
        }""",
        x,
    )
    check(got, x.transpose(0, 2, 3, 1))


# --- slice, dynamic_slice, dynamic_update_slice ----------------------------------------------


def test_strided_slice() -> None:
    x = _stack((8, 4))
    got = run(
        """func.func @main(%x: tensor<8x4xf32>) -> tensor<3x3xf32> {
          %s = hlo.slice %x, start = [1, 1], limit = [8, 4], strides = [3, 1] : (tensor<8x4xf32>) -> tensor<3x3xf32>
          func.return %s : tensor<3x3xf32>
        }""",
        x,
    )
    check(got, x[:, 1:8:3, 1:4])


_DS = """func.func @main(%x: tensor<5x4xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<2x3xf32> {
  %s = hlo.dynamic_slice %x at [%i, %j] sizes = [2, 3] : (tensor<5x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  func.return %s : tensor<2x3xf32>
}"""


def test_dynamic_slice_clamps_per_device_indices() -> None:
    x = _stack((5, 4), devices=3)
    i = np.array([0, 3, 9], dtype=np.int32)  # 9 clamps to 5 - 2 = 3
    j = np.array([-1, 1, 2], dtype=np.int32)  # -1 clamps to 0, 2 clamps to 4 - 3 = 1
    got = run(_DS, x, i, j)
    expected = np.stack([x[0, 0:2, 0:3], x[1, 3:5, 1:4], x[2, 3:5, 1:4]])
    check(got, expected)


def test_dynamic_slice_with_uniform_indices() -> None:
    x = _stack((5, 4))
    got = run(_DS, x, np.array([2, 2], np.int32), np.array([1, 1], np.int32))
    check(got, x[:, 2:4, 1:4])


def test_dynamic_slice_with_unsigned_indices() -> None:
    x = _stack((5, 4))
    text = _DS.replace("tensor<i32>", "tensor<ui32>")
    got = run(text, x, np.array([4, 0], np.uint32), np.array([0, 4000000000], np.uint32))
    check(got, np.stack([x[0, 3:5, 0:3], x[1, 0:2, 1:4]]))


def test_dynamic_update_slice_clamps_per_device_indices() -> None:
    x = _stack((4, 4), devices=3)
    u = -_stack((2, 3), devices=3) - 1
    i = np.array([-5, 1, 3], dtype=np.int64)  # clamps to 0, 1, 2
    j = np.array([2, 0, 1], dtype=np.int64)  # 2 clamps to 1
    got = run(
        """func.func @main(%x: tensor<4x4xf32>, %u: tensor<2x3xf32>, %i: tensor<i64>, %j: tensor<i64>) -> tensor<4x4xf32> {
          %r = hlo.dynamic_update_slice %x, %u at [%i, %j] : (tensor<4x4xf32>, tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x4xf32>
          func.return %r : tensor<4x4xf32>
        }""",
        x,
        u,
        i,
        j,
    )
    expected = x.copy()
    expected[0, 0:2, 1:4] = u[0]
    expected[1, 1:3, 0:3] = u[1]
    expected[2, 2:4, 1:4] = u[2]
    check(got, expected)


# --- concatenate, pad ------------------------------------------------------------------------


def test_concatenate() -> None:
    a, b = _stack((2, 2)), _stack((2, 3)) + 100
    got = run(
        """func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x3xf32>) -> tensor<2x5xf32> {
          %c = hlo.concatenate(%a, %b) dim = 1 : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x5xf32>
          func.return %c : tensor<2x5xf32>
        }""",
        a,
        b,
    )
    check(got, np.concatenate([a, b], axis=2))


def test_pad_negative_low_and_interior_with_per_device_value() -> None:
    x = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32)
    got = run(
        """func.func @main(%x: tensor<3xi32>, %p: tensor<i32>) -> tensor<6xi32> {
          %r = hlo.pad %x, %p, low = [-1], high = [2], interior = [1] : (tensor<3xi32>, tensor<i32>) -> tensor<6xi32>
          func.return %r : tensor<6xi32>
        }""",
        x,
        np.array([0, 9], dtype=np.int32),
    )
    check(got, np.array([[0, 2, 0, 3, 0, 0], [9, 5, 9, 6, 9, 9]], dtype=np.int32))


def _reference_pad(
    x: Array, value: float, low: list[int], high: list[int], interior: list[int]
) -> Array:
    """Element by element: output position o reads operand i iff o = low + i * (interior + 1)."""
    shape = [lo + hi + n + max(n - 1, 0) * g for n, lo, hi, g in zip(x.shape, low, high, interior)]
    out = np.full(shape, value, dtype=x.dtype)
    for i in np.ndindex(*x.shape):
        o = [lo + k * (g + 1) for k, lo, g in zip(i, low, interior)]
        if all(0 <= p < s for p, s in zip(o, shape)):
            out[tuple(o)] = x[i]
    return out


@pytest.mark.parametrize(
    ("low", "high", "interior"),
    [([1, -2], [0, -1], [0, 2]), ([-3, 0], [2, -4], [1, 1]), ([0, 0], [0, 0], [0, 0])],
)
def test_pad_matches_the_elementwise_definition(
    low: list[int], high: list[int], interior: list[int]
) -> None:
    x = _stack((3, 4))
    shape = [lo + hi + n + (n - 1) * g for n, lo, hi, g in zip((3, 4), low, high, interior)]
    t = f"tensor<{shape[0]}x{shape[1]}xf32>"
    got = run(
        f"""func.func @main(%x: tensor<3x4xf32>, %p: tensor<f32>) -> {t} {{
          %r = hlo.pad %x, %p, low = {low}, high = {high}, interior = {interior} : (tensor<3x4xf32>, tensor<f32>) -> {t}
          func.return %r : {t}
        }}""",
        x,
        np.array([-1.0, -2.0], dtype=np.float32),
    )
    expected = np.stack(
        [_reference_pad(x[d], v, low, high, interior) for d, v in enumerate((-1.0, -2.0))]
    )
    check(got, expected)


def test_bitcast_ignores_a_stale_xla_shape() -> None:
    # The producer's annotation names other dimensions: it is not this value's layout.
    x = _stack((2, 3))
    got = run(
        """func.func @main(%x: tensor<2x3xf32>) -> tensor<6xf32> {
          %c = hlo.copy %x {xla.shape = "f32[3,2]{0,1}"} : tensor<2x3xf32>
          %b = hlo.bitcast %c : (tensor<2x3xf32>) -> tensor<6xf32>
          func.return %b : tensor<6xf32>
        }""",
        x,
    )
    check(got, x.reshape(2, 6))


def test_bitcast_between_two_non_default_layouts() -> None:
    # Operand 2x3x4 stored {1,2,0} (major-to-minor 0,2,1) to result 4x6 stored {0,1}.
    x = _stack((2, 3, 4))
    got = run(
        """func.func @main(%x: tensor<2x3x4xf32> {xla.shape = "f32[2,3,4]{1,2,0}"}) -> tensor<4x6xf32> {
          %b = hlo.bitcast %x layout = [0, 1] : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
          func.return %b : tensor<4x6xf32>
        }""",
        x,
    )
    buffer = x.transpose(0, 1, 3, 2).reshape(2, -1)  # per device, in memory order
    expected = buffer.reshape(2, 6, 4).transpose(0, 2, 1)  # result dims (1, 0) major-to-minor
    check(got, expected)
