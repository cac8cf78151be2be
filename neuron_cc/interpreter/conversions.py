"""Element-type conversions of the interpreter: convert, bitcast_convert, constants and
reduce_precision, plus `flush_denormals` (shared with the other interpreter modules).

XLA:CPU semantics, measured on the jax 0.10 XLA:CPU backend (x86):
- float -> int truncates toward zero and saturates to the integer range; NaN gives 0.
- int -> float rounds to nearest even; every conversion to bf16 or f16 goes through f32
  (so f64 -> bf16 and s32 -> bf16 round twice, as XLA does).
- number -> pred is `x != 0` (NaN is true); pred -> number is 0 / 1; int -> int wraps.
- XLA:CPU runs with denormals flushed to zero (FTZ + DAZ): f32/f64 arithmetic reads denormal
  inputs as zero and writes denormal results as zero. Pure bit operations (abs, negate, select,
  bitcast, reduce_precision, f32 <-> bf16) keep them. `flush_denormals` emulates this.
- FP8/FP6/FP4 go through f32 like bf16 (rounded by ml_dtypes: a finite value too large for a
  type without infinities becomes NaN, f4e2m1fn/f6 saturate); float -> s1..s4 / u1..u4
  saturates to the narrow range, int -> narrow int wraps.
- real -> complex sets the imaginary part to 0 (the real part converted to the part type
  first); complex -> complex converts both parts; complex -> pred is `x != 0`. complex -> real
  is refused by the dialect (XLA: "not implemented").
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import ComplexType, DenseIntOrFPElementsAttr, Float64Type
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo import dtypes
from neuron_cc.dialects.hlo.types import is_complex_type, is_float_type, is_pred_type
from neuron_cc.interpreter.values import (
    InterpretationError,
    normalize,
    numpy_dtype,
    wrap_narrow_int,
)

NDArray = np.ndarray[Any, Any]


_TINY: dict[np.dtype[Any], Any] = {np.dtype(t): np.finfo(t).tiny for t in (np.float32, np.float64)}
"""The smallest normal value of the dtypes XLA:CPU flushes (`np.finfo` costs microseconds per
call; the interpreter flushes the operands and results of every float op)."""


def smallest_normal(dtype: np.dtype[Any]) -> Any | None:
    """The smallest normal value of a dtype XLA:CPU flushes (f32, f64), else None."""
    return _TINY.get(dtype)


def flush_denormals(x: NDArray) -> NDArray:
    """Denormal f32/f64 values -> zero of the same sign (XLA:CPU's FTZ/DAZ); f16 is untouched."""
    tiny = _TINY.get(x.dtype)
    if tiny is None:
        return x
    small = np.abs(x) < tiny  # denormals and zeros
    if not small.any():
        return x
    return np.where(small, x * 0, x)  # x * 0 keeps the sign


# ---------------------------------------------------------------------------------------------
# Bits
# ---------------------------------------------------------------------------------------------


def bit_width(element: Attribute) -> int:
    return dtypes.bit_width(element)


def to_bits(x: NDArray, element: Attribute) -> NDArray:
    """The bit patterns of `x` as unsigned integers of the element's width (bf16: 16 bits,
    FP8 and the sub-byte types: one byte each, the low bits meaningful)."""
    if is_complex_type(element):
        raise InterpretationError(f"no bit pattern for complex element type {element}")
    if dtypes.narrow_int_width(element) is not None:
        mask = (1 << bit_width(element)) - 1
        return (np.asarray(x).astype(np.int64) & mask).astype(np.uint8)
    exact = dtypes.exact_dtype(element)
    x = np.ascontiguousarray(x)
    if x.dtype != exact:
        x = x.astype(exact)
    return x.view(f"uint{exact.itemsize * 8}")


def from_bits(bits: NDArray, element: Attribute) -> NDArray:
    """The inverse of `to_bits`: values of `element` from unsigned bit patterns."""
    bits = np.ascontiguousarray(bits)
    width = dtypes.narrow_int_width(element)
    if width is not None:
        return wrap_narrow_int(bits, width, numpy_dtype(element) == np.int8)
    exact = dtypes.exact_dtype(element)
    values = bits.astype(f"uint{exact.itemsize * 8}").view(exact)
    return values.astype(numpy_dtype(element))


def bitcast_array(x: NDArray, source: Attribute, target: Attribute) -> NDArray:
    """XLA bitcast_convert: reinterpret bits; a width change adds/removes the last dimension.

    The new trailing dimension lists the narrow pieces in memory (little-endian) order, like
    XLA:CPU: f32 1.0 -> s8 [0, 0, -128, 63].
    """
    in_width, out_width = bit_width(source), bit_width(target)
    if in_width != out_width and min(in_width, out_width) < 8:
        raise InterpretationError("bitcast_convert between sub-byte and wider element types")
    if is_pred_type(source) or is_pred_type(target):
        if in_width != out_width:
            raise InterpretationError("bitcast_convert between pred and a wider type")
        return x.copy()
    bits = to_bits(x, source)
    out_bits = np.dtype(f"uint{out_width}")
    if in_width > out_width:
        pieces = bits.view(out_bits).reshape(*x.shape, in_width // out_width)
        return from_bits(pieces, target)
    if in_width < out_width:
        merged = bits.view(out_bits).reshape(x.shape[:-1])
        return from_bits(merged, target)
    return from_bits(bits.copy(), target)


# ---------------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------------


def on_devices(value: NDArray, devices: int) -> NDArray:
    """A (writable) copy of one device's `value` on every device: shape (devices, *shape)."""
    out = np.empty((devices, *value.shape), dtype=value.dtype)
    out[...] = value
    return out


def decode_constant(value: DenseIntOrFPElementsAttr) -> NDArray:
    """The value of a dense attribute on one device, in the interpreter's storage dtype."""
    element = value.get_element_type()
    shape = tuple(value.get_shape())
    raw = value.data.data
    if is_pred_type(element):
        flat = np.frombuffer(raw, dtype=np.uint8) != 0
    elif dtypes.narrow_int_width(element) is not None:
        flat = from_bits(np.frombuffer(raw, dtype=np.uint8), element)
    else:
        exact = dtypes.exact_dtype(element)
        flat = np.frombuffer(raw, dtype=exact.newbyteorder("<")).astype(numpy_dtype(element))
    count = int(np.prod(shape, dtype=np.int64))
    if flat.size == 1 and count != 1:
        flat = np.broadcast_to(flat, (count,))
    if flat.size != count:
        raise InterpretationError(f"dense constant holds {flat.size} elements, expected {count}")
    return flat.reshape(shape)


# ---------------------------------------------------------------------------------------------
# convert
# ---------------------------------------------------------------------------------------------


def _float_to_int(x: NDArray, target: Attribute) -> NDArray:
    """Truncate toward zero, saturate to the target range, NaN -> 0 (LLVM fptosi.sat)."""
    dtype = numpy_dtype(target)
    bits = bit_width(target)
    low = 0 if dtype.kind == "u" else -(2 ** (bits - 1))
    high = 2**bits - 1 if dtype.kind == "u" else 2 ** (bits - 1) - 1
    wide = np.trunc(x.astype(np.float64))
    nan = np.isnan(wide)
    too_big = wide >= float(high) + 1  # 2**bits or 2**(bits-1), exact in f64
    too_small = wide < float(low)  # -2**(bits-1) or 0, exact in f64
    fits = ~(nan | too_big | too_small)
    safe = np.where(fits, wide, 0.0)
    values = safe.astype(np.uint64 if dtype.kind == "u" else np.int64).astype(dtype)
    values = np.where(too_big, high, values)
    values = np.where(too_small, low, values)
    return values.astype(dtype)


def _float_to_float(x: NDArray, source: Attribute, target: Attribute) -> NDArray:
    """f64 <-> narrower floats go through f32 with FTZ/DAZ; f32/bf16/f16 among themselves
    round once and keep denormals (XLA:CPU does those conversions with bit operations)."""
    if isinstance(source, Float64Type) == isinstance(target, Float64Type):
        return normalize(x, target)
    if isinstance(source, Float64Type):
        return normalize(flush_denormals(x.astype(np.float32)), target)
    return flush_denormals(x.astype(np.float32)).astype(np.float64)


def _to_pred(x: NDArray, source: Attribute) -> NDArray:
    """`x != 0`; f32/f64 denormals read as zero, bf16/FP8 ones do not (XLA:CPU tests their
    bits)."""
    if is_float_type(source) and not dtypes.is_f32_stored(source):
        x = flush_denormals(x)
    return x != 0


def convert_array(x: NDArray, source: Attribute, target: Attribute) -> NDArray:
    """XLA `convert` of an array of `source` elements to `target` elements."""
    with np.errstate(all="ignore"):
        if is_pred_type(target):
            return _to_pred(x, source)
        if isinstance(target, ComplexType):
            if not is_complex_type(source):
                x = convert_array(x, source, target.element_type)
            return x.astype(numpy_dtype(target))
        if is_float_type(source) and is_float_type(target):
            return _float_to_float(x, source, target)
        if is_float_type(source):
            return _float_to_int(x, target)
        if is_float_type(target) and not isinstance(target, Float64Type):
            # ints go to f32 first (one rounding), then bf16/f16 round again like XLA:CPU.
            return normalize(x.astype(np.float32), target)
        return normalize(x, target)


# ---------------------------------------------------------------------------------------------
# reduce_precision
# ---------------------------------------------------------------------------------------------


def _round_mantissa(bits: NDArray, src_mantissa: int, mantissa_bits: int) -> NDArray:
    """Round to `mantissa_bits` (nearest, ties to even); a carry may bump the exponent."""
    drop = src_mantissa - mantissa_bits
    last = 1 << drop
    width = bits.dtype.itemsize * 8
    keep = ((1 << width) - 1) & ~(last - 1)
    last_bit = (bits >> drop) & 1
    rounded = bits + last_bit + ((last >> 1) - 1)  # wraps only for NaNs, restored later
    return rounded & keep


def _clamp_exponent(bits: NDArray, src_mantissa: int, exponent_bits: int) -> NDArray:
    """Overflow -> signed inf, underflow (incl. destination denormals) -> signed zero."""
    width = bits.dtype.itemsize * 8
    src_exponent = width - 1 - src_mantissa
    sign_mask = 1 << (width - 1)
    exp_mask = ((1 << src_exponent) - 1) << src_mantissa
    bias = (1 << (src_exponent - 1)) - 1
    reduced_bias = (1 << (exponent_bits - 1)) - 1
    exponent = bits & exp_mask
    overflow = exponent > ((bias + reduced_bias) << src_mantissa)
    underflow = exponent <= ((bias - reduced_bias) << src_mantissa)
    signed_zero = bits & sign_mask
    bits = np.where(overflow, signed_zero | exp_mask, bits)
    return np.where(underflow, signed_zero, bits).astype(signed_zero.dtype)


def reduce_precision_array(x: NDArray, exponent_bits: int, mantissa_bits: int) -> NDArray:
    """XLA reduce_precision (elemental_ir_emitter's bit algorithm, NaNs passed through).

    Works on f16/f32/f64 storage; bf16 (f32 storage with 7 mantissa bits) gives the same
    result through the f32 path because its low 16 bits are zero.
    """
    finfo = np.finfo(x.dtype)
    src_mantissa, src_exponent = int(finfo.nmant), int(finfo.iexp)
    bits = np.ascontiguousarray(x).view(f"uint{x.dtype.itemsize * 8}")
    magnitude = bits & ((1 << (bits.dtype.itemsize * 8 - 1)) - 1)
    is_nan = magnitude > (((1 << src_exponent) - 1) << src_mantissa)
    if mantissa_bits < src_mantissa:
        bits = _round_mantissa(bits, src_mantissa, mantissa_bits)
    if exponent_bits < src_exponent:
        bits = _clamp_exponent(bits, src_mantissa, exponent_bits)
    return np.where(is_nan, x, np.ascontiguousarray(bits).view(x.dtype))
