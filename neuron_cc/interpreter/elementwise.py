"""Interpreter functions of the hlo elementwise ops (docs/interpreter.md §7), with XLA:CPU semantics.

Values carry a leading device axis; every op acts on the whole stack. Floating-point ops follow
XLA:CPU as measured on the jax 0.10 backend (x86):
- f16/bf16 compute in f32 and round once per op; f32 math functions (exp, log, tanh, erf, pow,
  atan2, ...) are evaluated in f64 and rounded to f32, which is within a few ulps of XLA's own
  approximations (bit-exact for +, -, *, /, sqrt, fmod, rounding, min/max).
- Denormals are flushed to zero (FTZ + DAZ) by f32/f64 arithmetic and comparisons; abs, negate,
  select and reduce_precision are bit operations and keep them.
- maximum/minimum propagate NaN and order -0 < +0; integer ops wrap; integer divide/remainder,
  power and shifts follow XLA's elemental IR emitter (see the kernels below).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import Float16Type, Float64Type, i64
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Attribute, Operation

from neuron_cc.dialects.hlo import elementwise as hlo
from neuron_cc.dialects.hlo import elementwise_misc as misc
from neuron_cc.dialects.hlo.attributes import ComparisonDirection, ComparisonType
from neuron_cc.dialects.hlo.types import is_float_type, tensor_type
from neuron_cc.interpreter.conversions import (
    bitcast_array,
    convert_array,
    decode_constant,
    flush_denormals,
    on_devices,
    reduce_precision_array,
    to_bits,
)
from neuron_cc.interpreter.values import element_of, normalize, spmd_state

NDArray = np.ndarray[Any, Any]
UnaryKernel = Callable[[NDArray, Attribute], NDArray]
"""(operand, operand element type) -> result before `normalize`."""
BinaryKernel = Callable[[NDArray, NDArray, Attribute], NDArray]
ArrayFn = Callable[..., NDArray]

# ---------------------------------------------------------------------------------------------
# Floating point: f32 compute, FTZ/DAZ, NaN-propagating min/max
# ---------------------------------------------------------------------------------------------


def _is_denormal(x: NDArray) -> NDArray:
    if x.dtype not in (np.float32, np.float64):
        return np.zeros(x.shape, dtype=np.bool_)
    return (x != 0) & (np.abs(x) < np.finfo(x.dtype).tiny)


def _operand(x: NDArray, flush: bool, wide: bool) -> NDArray:
    """An operand as XLA:CPU computes with it: f16 widened to f32, denormals maybe flushed."""
    x = x.astype(np.float32) if x.dtype == np.float16 else x
    x = flush_denormals(x) if flush else x
    return x.astype(np.float64) if wide else x


def _result(y: NDArray, element: Attribute, flush: bool) -> NDArray:
    """A computed result in f32 (f64 for f64), denormals maybe written as zero."""
    if not isinstance(element, Float64Type):
        y = y.astype(np.float32, copy=False)
    return flush_denormals(y) if flush else y


def _float_unary(
    fn: ArrayFn, wide: bool = False, keeps_tiny: tuple[bool, bool] = (False, False)
) -> UnaryKernel:
    """A float kernel computing `fn` in f32 (in f64 if `wide`, for math functions).

    Denormal operands are read as zero (DAZ), except where `keeps_tiny` (for f32-computed
    types, for f64) says XLA returns them unchanged (expm1, sin, tan: f(x) ~ x for tiny x).
    """

    def kernel(x: NDArray, element: Attribute) -> NDArray:
        y = _result(fn(_operand(x, True, wide)), element, True)
        if keeps_tiny[1] if isinstance(element, Float64Type) else keeps_tiny[0]:
            return np.where(_is_denormal(x), x, y)
        return y

    return kernel


def _float_binary(
    fn: ArrayFn, wide: bool = False, flush: tuple[bool, bool, bool] = (True, True, True)
) -> BinaryKernel:
    """A float kernel of two operands; `flush` says which of lhs, rhs, result get FTZ/DAZ
    (XLA's pow and atan2 read denormal operands as they are, fmod also keeps tiny results)."""

    def kernel(a: NDArray, b: NDArray, element: Attribute) -> NDArray:
        y = fn(_operand(a, flush[0], wide), _operand(b, flush[1], wide))
        return _result(y, element, flush[2])

    return kernel


def _float_max(a: NDArray, b: NDArray) -> NDArray:
    """NaN-propagating maximum with -0 < +0 (XLA:CPU; numpy leaves the zero sign unspecified)."""
    out = np.maximum(a, b)
    both_zero = (a == 0) & (b == 0)
    if not both_zero.any():
        return out
    return np.where(both_zero, a + b, out)  # a + b is -0 only if both are -0


def _float_min(a: NDArray, b: NDArray) -> NDArray:
    out = np.minimum(a, b)
    both_zero = (a == 0) & (b == 0)
    if not both_zero.any():
        return out
    return np.where(both_zero, -(-a - b), out)  # -0 unless both are +0


def _sign(x: NDArray) -> NDArray:
    """-1/0/1 keeping the sign of zero; NaN stays NaN."""
    return np.where((x == 0) | np.isnan(x), x, np.copysign(1.0, x).astype(x.dtype))


def _round_afz(x: NDArray) -> NDArray:
    """Round half away from zero (exact: x - trunc(x) has no rounding error)."""
    t = np.trunc(x)
    return np.where(np.abs(x - t) >= 0.5, t + np.copysign(1.0, x).astype(x.dtype), t)


def _logistic(x: NDArray) -> NDArray:
    return 1.0 / (1.0 + np.exp(-x))


def _logistic_kernel(x: NDArray, element: Attribute) -> NDArray:
    """XLA:CPU evaluates f16 logistic in f16, where exp(-x) overflows below x ~ -11.1: 0."""
    y = _float_unary(_logistic, wide=True)(x, element)
    if isinstance(element, Float16Type):
        overflow = np.isinf(np.exp(-x.astype(np.float32)).astype(np.float16)) & ~np.isnan(x)
        y = np.where(overflow, 0, y)
    return y


def _rsqrt(x: NDArray) -> NDArray:
    return 1.0 / np.sqrt(x)


_ERF = np.frompyfunc(math.erf, 1, 1)


def _erf(x: NDArray) -> NDArray:
    return np.asarray(_ERF(x), dtype=np.float64)


# ---------------------------------------------------------------------------------------------
# Integers (numpy wraps on overflow; XLA's special cases are spelled out)
# ---------------------------------------------------------------------------------------------


def _unsigned(x: NDArray) -> NDArray:
    """The same bits as an unsigned integer array."""
    return np.ascontiguousarray(x).view(f"uint{x.dtype.itemsize * 8}")


def _is_minus_one(x: NDArray) -> NDArray:
    """All bits set (-1 for signed types, the maximum for unsigned ones)."""
    u = _unsigned(x)
    return u == np.iinfo(u.dtype).max


def _overflows(a: NDArray, b: NDArray) -> NDArray:
    """INT_MIN / -1 (for unsigned types 0 / max, which a divisor of 1 handles just as well)."""
    return (a == np.iinfo(a.dtype).min) & _is_minus_one(b)


def _int_divide(a: NDArray, b: NDArray, element: Attribute) -> NDArray:
    """Truncating division; x / 0 = -1 (all bits set), INT_MIN / -1 = INT_MIN."""
    zero = b == 0
    safe = np.where(zero | _overflows(a, b), 1, b).astype(a.dtype)
    quotient = (a - np.fmod(a, safe)) // safe
    return np.where(zero, np.iinfo(_unsigned(a).dtype).max, _unsigned(quotient)).view(a.dtype)


def _int_remainder(a: NDArray, b: NDArray, element: Attribute) -> NDArray:
    """Remainder with the dividend's sign; x % 0 = x, INT_MIN % -1 = 0."""
    zero = b == 0
    safe = np.where(zero | _overflows(a, b), 1, b).astype(a.dtype)
    return np.where(zero, a, np.fmod(a, safe))


def _int_power(base: NDArray, exponent: NDArray, element: Attribute) -> NDArray:
    """XLA's unrolled square-and-multiply over the LOW 6 exponent bits (3^64 == 1 in XLA).

    A negative exponent (sign bit set, also for unsigned types) gives 0, except for bases
    1 and -1 (all bits set), which keep the square-and-multiply result.
    """
    bits = _unsigned(exponent)
    acc = np.ones_like(base)
    square = base.copy()
    for i in range(6):
        acc = np.where(((bits >> i) & 1) == 1, acc * square, acc)
        square = square * square
    negative = (bits >> (bits.dtype.itemsize * 8 - 1)) == 1
    unit = (base == 1) | _is_minus_one(base)
    return np.where(negative & ~unit, 0, acc).astype(base.dtype)


def _shift(kind: str) -> BinaryKernel:
    """XLA shifts: the amount is unsigned; amounts >= the bit width give 0 (or the sign fill)."""

    def kernel(a: NDArray, b: NDArray, element: Attribute) -> NDArray:
        ua, ub = _unsigned(a), _unsigned(b)
        width = ua.dtype.itemsize * 8
        in_range = ub < width
        amount = np.where(in_range, ub, 0).astype(ua.dtype)
        if kind == "left":
            out = np.where(in_range, ua << amount, 0)
        elif kind == "logical":
            out = np.where(in_range, ua >> amount, 0)
        else:
            sa = ua.view(f"int{width}")
            out = np.where(in_range, sa >> amount.astype(sa.dtype), sa >> (width - 1))
        return np.ascontiguousarray(out).view(a.dtype)

    return kernel


def _popcnt(x: NDArray) -> NDArray:
    u = _unsigned(x).astype(np.uint64)
    u = u - ((u >> np.uint64(1)) & np.uint64(0x5555555555555555))
    m2 = np.uint64(0x3333333333333333)
    u = (u & m2) + ((u >> np.uint64(2)) & m2)
    u = (u + (u >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((u * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(x.dtype)


def _clz(x: NDArray) -> NDArray:
    u = _unsigned(x).astype(np.uint64)
    width = x.dtype.itemsize * 8
    length = np.zeros(u.shape, np.uint64)
    shift = width // 2
    while shift:
        high = (u >> np.uint64(shift)) != 0
        length += high * np.uint64(shift)
        u = np.where(high, u >> np.uint64(shift), u)
        shift //= 2
    length += (u != 0).astype(np.uint64)
    return (np.uint64(width) - length).astype(x.dtype)


# ---------------------------------------------------------------------------------------------
# Kernel tables
# ---------------------------------------------------------------------------------------------


def _plain(fn: ArrayFn) -> UnaryKernel:
    """A kernel that is the same numpy function for every element type."""
    return lambda x, _element: fn(x)


def _plain2(fn: ArrayFn) -> BinaryKernel:
    return lambda a, b, _element: fn(a, b)


def _unary_by_kind(on_float: UnaryKernel, on_int: UnaryKernel) -> UnaryKernel:
    return lambda x, e: on_float(x, e) if is_float_type(e) else on_int(x, e)


def _binary_by_kind(on_float: BinaryKernel, on_int: BinaryKernel) -> BinaryKernel:
    return lambda a, b, e: on_float(a, b, e) if is_float_type(e) else on_int(a, b, e)


def _logical_not(x: NDArray) -> NDArray:
    return np.logical_not(x) if x.dtype == np.bool_ else np.invert(x)


UNARY_KERNELS: dict[type[Operation], UnaryKernel] = {
    hlo.AbsOp: _plain(np.abs),
    hlo.NegateOp: _plain(np.negative),
    hlo.SignOp: _unary_by_kind(_float_unary(_sign), _plain(np.sign)),
    hlo.ExponentialOp: _float_unary(np.exp, wide=True),
    hlo.ExponentialMinusOneOp: _float_unary(np.expm1, True, (True, True)),
    hlo.LogOp: _float_unary(np.log, wide=True),
    hlo.LogPlusOneOp: _float_unary(np.log1p, wide=True),
    hlo.SqrtOp: _float_unary(np.sqrt),
    hlo.RsqrtOp: _float_unary(_rsqrt, wide=True),
    hlo.CbrtOp: _float_unary(np.cbrt, wide=True),
    hlo.TanhOp: _float_unary(np.tanh, True, (True, False)),
    hlo.LogisticOp: _logistic_kernel,
    hlo.SineOp: _float_unary(np.sin, True, (True, True)),
    hlo.CosineOp: _float_unary(np.cos, wide=True),
    hlo.TanOp: _float_unary(np.tan, True, (True, True)),
    hlo.ErfOp: _float_unary(_erf, wide=True),
    hlo.FloorOp: _float_unary(np.floor),
    hlo.CeilOp: _float_unary(np.ceil),
    hlo.RoundNearestAfzOp: _float_unary(_round_afz),
    hlo.RoundNearestEvenOp: _float_unary(np.rint),
    hlo.NotOp: _plain(_logical_not),
    hlo.PopcntOp: _plain(_popcnt),
    hlo.ClzOp: _plain(_clz),
    hlo.IsFiniteOp: _plain(np.isfinite),
}

BINARY_KERNELS: dict[type[Operation], BinaryKernel] = {
    hlo.AddOp: _binary_by_kind(_float_binary(np.add), _plain2(np.add)),
    hlo.SubtractOp: _binary_by_kind(_float_binary(np.subtract), _plain2(np.subtract)),
    hlo.MultiplyOp: _binary_by_kind(_float_binary(np.multiply), _plain2(np.multiply)),
    hlo.DivideOp: _binary_by_kind(_float_binary(np.divide), _int_divide),
    hlo.RemainderOp: _binary_by_kind(
        _float_binary(np.fmod, False, (False, True, False)), _int_remainder
    ),
    hlo.MaximumOp: _binary_by_kind(_float_binary(_float_max), _plain2(np.maximum)),
    hlo.MinimumOp: _binary_by_kind(_float_binary(_float_min), _plain2(np.minimum)),
    hlo.PowerOp: _binary_by_kind(_float_binary(np.power, True, (False, False, True)), _int_power),
    hlo.Atan2Op: _float_binary(np.arctan2, True, (False, False, True)),
    hlo.AndOp: _plain2(np.bitwise_and),
    hlo.OrOp: _plain2(np.bitwise_or),
    hlo.XorOp: _plain2(np.bitwise_xor),
    hlo.ShiftLeftOp: _shift("left"),
    hlo.ShiftRightArithmeticOp: _shift("arithmetic"),
    hlo.ShiftRightLogicalOp: _shift("logical"),
}

# ---------------------------------------------------------------------------------------------
# compare / select / clamp helpers
# ---------------------------------------------------------------------------------------------

_DIRECTIONS: dict[ComparisonDirection, ArrayFn] = {
    ComparisonDirection.EQ: np.equal,
    ComparisonDirection.NE: np.not_equal,
    ComparisonDirection.GE: np.greater_equal,
    ComparisonDirection.GT: np.greater,
    ComparisonDirection.LE: np.less_equal,
    ComparisonDirection.LT: np.less,
}


def _total_order_key(x: NDArray, element: Attribute) -> NDArray:
    """Signed integers ordered like IEEE totalOrder: -NaN < -inf < ... < -0 < +0 < ... < NaN."""
    bits = to_bits(x, element)
    signed = bits.view(f"int{bits.dtype.itemsize * 8}")
    magnitude = np.iinfo(signed.dtype).max
    return np.where(signed < 0, signed ^ magnitude, signed)


def compare_arrays(
    a: NDArray, b: NDArray, element: Attribute, direction: ComparisonDirection, kind: ComparisonType
) -> NDArray:
    """XLA compare: TOTALORDER on the bits, FLOAT as IEEE (NaN unordered, denormals as zero)."""
    if kind == ComparisonType.TOTALORDER:
        a, b = _total_order_key(a, element), _total_order_key(b, element)
    elif is_float_type(element):
        a, b = flush_denormals(a), flush_denormals(b)
    return _DIRECTIONS[direction](a, b)


def _expand(x: NDArray, ndim: int) -> NDArray:
    """A per-device scalar (shape (D,)) reshaped to broadcast against rank `ndim` arrays."""
    return x.reshape(x.shape + (1,) * (ndim - x.ndim))


def clamp_arrays(lo: NDArray, x: NDArray, hi: NDArray, element: Attribute) -> NDArray:
    """XLA clamp: min(max(x, lo), hi); `lo`/`hi` may be per-device scalars."""
    lo, hi = _expand(lo, x.ndim), _expand(hi, x.ndim)
    if not is_float_type(element):
        return np.minimum(np.maximum(x, lo), hi)
    lo, x, hi = flush_denormals(lo), flush_denormals(x), flush_denormals(hi)
    return _float_min(_float_max(x, lo), hi)


# ---------------------------------------------------------------------------------------------
# InterpreterFunctions
# ---------------------------------------------------------------------------------------------

Impl = Callable[[InterpreterFunctions, Interpreter, Operation, tuple[Any, ...]], tuple[Any, ...]]


def _unary_impl(kernel: UnaryKernel) -> Impl:
    def run(
        _self: InterpreterFunctions, _interpreter: Interpreter, op: Operation, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        with np.errstate(all="ignore"):
            out = kernel(args[0], element_of(op.operands[0].type))
            return (normalize(out, element_of(op.results[0].type)),)

    return run


def _binary_impl(kernel: BinaryKernel) -> Impl:
    def run(
        _self: InterpreterFunctions, _interpreter: Interpreter, op: Operation, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        with np.errstate(all="ignore"):
            out = kernel(args[0], args[1], element_of(op.operands[0].type))
            return (normalize(out, element_of(op.results[0].type)),)

    return run


def _with_kernel_impls(cls: type[InterpreterFunctions]) -> type[InterpreterFunctions]:
    """Add one `@impl` method per entry of UNARY_KERNELS and BINARY_KERNELS."""
    tables: list[tuple[dict[type[Operation], Any], Callable[[Any], Impl]]] = [
        (UNARY_KERNELS, _unary_impl),
        (BINARY_KERNELS, _binary_impl),
    ]
    for table, make in tables:
        for op_type, kernel in table.items():
            name = "run_" + op_type.name.removeprefix("hlo.")
            setattr(cls, name, impl(op_type)(make(kernel)))
    return cls


@register_impls
@_with_kernel_impls
class HloElementwiseFunctions(InterpreterFunctions):
    """Every op of `neuron_cc.dialects.hlo.elementwise.OPS`; unary/binary ops via the tables."""

    @impl(misc.ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: misc.ConstantOp, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        state = spmd_state(interpreter)
        value = state.constants.get(op)
        if value is None:
            value = state.constants[op] = decode_constant(op.value)
            value.flags.writeable = False
        return (on_devices(value, state.num_devices),)

    @impl(misc.IotaOp)
    def run_iota(
        self, interpreter: Interpreter, op: misc.IotaOp, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        result = tensor_type(op.result)
        shape = tuple(result.get_shape())
        dim = op.iota_dimension.value.data
        index = np.arange(shape[dim], dtype=np.int64)
        index = index.reshape([-1 if d == dim else 1 for d in range(len(shape))])
        values = convert_array(np.broadcast_to(index, shape), i64, result.element_type)
        devices = spmd_state(interpreter).num_devices
        return (np.broadcast_to(values, (devices, *shape)).copy(),)

    @impl(misc.CompareOp)
    def run_compare(
        self, interpreter: Interpreter, op: misc.CompareOp, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        element = element_of(op.lhs.type)
        kind = op.effective_compare_type()
        with np.errstate(all="ignore"):
            return (compare_arrays(args[0], args[1], element, op.direction.data, kind),)

    @impl(misc.SelectOp)
    def run_select(
        self, interpreter: Interpreter, op: misc.SelectOp, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        pred, on_true, on_false = args
        return (np.where(_expand(pred, on_true.ndim), on_true, on_false),)

    @impl(misc.ClampOp)
    def run_clamp(
        self, interpreter: Interpreter, op: misc.ClampOp, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        element = element_of(op.operand.type)
        with np.errstate(all="ignore"):
            return (normalize(clamp_arrays(*args, element=element), element),)

    @impl(misc.ConvertOp)
    def run_convert(
        self, interpreter: Interpreter, op: misc.ConvertOp, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        source, target = element_of(op.operand.type), element_of(op.result.type)
        return (convert_array(args[0], source, target),)

    @impl(misc.BitcastConvertOp)
    def run_bitcast_convert(
        self, interpreter: Interpreter, op: misc.BitcastConvertOp, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        source, target = element_of(op.operand.type), element_of(op.result.type)
        return (bitcast_array(args[0], source, target),)

    @impl(hlo.ReducePrecisionOp)
    def run_reduce_precision(
        self, interpreter: Interpreter, op: hlo.ReducePrecisionOp, args: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        exponent_bits = op.exponent_bits.value.data
        mantissa_bits = op.mantissa_bits.value.data
        out = reduce_precision_array(args[0], exponent_bits, mantissa_bits)
        return (normalize(out, element_of(op.result.type)),)
