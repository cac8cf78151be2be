"""Interpreter: hlo elementwise ops (constant, iota, unary/binary math, compare, select, clamp,
convert, bitcast_convert) on stacks of devices, with XLA:CPU's semantics.

Expected values are XLA:CPU's (measured once on the jax 0.10 CPU backend and written down
here); when jax is importable, random inputs are also cross-checked against jax.lax.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from xdsl.interpreter import Interpreter
from xdsl.interpreters.func import FuncFunctions
from xdsl.parser import Parser

from neuron_cc.dialects.hlo import elementwise
from neuron_cc.interpreter.elementwise import HloElementwiseFunctions
from neuron_cc.interpreter.values import SpmdState, attach_state, round_to_bf16
from neuron_cc.testing.ir import neuron_context as _context

Array = np.ndarray[Any, Any]

STORAGE: dict[str, Any] = {
    "i1": np.bool_,
    "f16": np.float16,
    "bf16": np.float32,
    "f32": np.float32,
    "f64": np.float64,
    **{f"i{w}": f"int{w}" for w in (8, 16, 32, 64)},
    **{f"ui{w}": f"uint{w}" for w in (8, 16, 32, 64)},
}
NAN, INF = float("nan"), float("inf")
I32_MIN, I32_MAX = -(2**31), 2**31 - 1


CTX = _context()


def run(text: str, *args: Array, devices: int | None = None) -> tuple[Array, ...]:
    """Run `@main` of `text` on stacked (D, ...) arguments; D from the arguments or `devices`."""
    module = Parser(CTX, text).parse_module()
    module.verify()
    interpreter = Interpreter(module)
    interpreter.register_implementations(HloElementwiseFunctions())
    interpreter.register_implementations(FuncFunctions())
    d = devices if devices is not None else args[0].shape[0]
    attach_state(interpreter, SpmdState(num_replicas=1, num_partitions=d))
    return tuple(interpreter.call_op("main", args))


def arr(element: str, values: Any) -> Array:
    """Storage of `element` values (bf16 rounded to nearest even)."""
    with np.errstate(over="ignore"):  # f16 literals beyond 65504 become inf
        x = np.asarray(values, dtype=STORAGE[element])
    return round_to_bf16(x) if element == "bf16" else x


def unary(op: str, element: str, values: Any, result: str | None = None, props: str = "") -> Array:
    """`op` on one device; `result` gives the `T -> R` form (convert, is_finite, ...)."""
    x = arr(element, values)
    t = f"tensor<{x.size}x{element}>"
    r = f"tensor<{x.size}x{result}>" if result else t
    types = f"{t} -> {r}" if result else t
    text = f"""func.func @main(%a: {t}) -> {r} {{
      %r = hlo.{op} %a {props}: {types}
      func.return %r : {r}
    }}"""
    return run(text, x[None])[0][0]


def binary(op: str, element: str, a: Any, b: Any) -> Array:
    x, y = arr(element, a), arr(element, b)
    t = f"tensor<{x.size}x{element}>"
    text = f"""func.func @main(%a: {t}, %b: {t}) -> {t} {{
      %r = hlo.{op} %a, %b : {t}
      func.return %r : {t}
    }}"""
    return run(text, x[None], y[None])[0][0]


def compare(direction: str, element: str, a: Any, b: Any, kind: str = "") -> Array:
    x, y = arr(element, a), arr(element, b)
    t, r = f"tensor<{x.size}x{element}>", f"tensor<{x.size}xi1>"
    kind_text = f" type = {kind}" if kind else ""
    text = f"""func.func @main(%a: {t}, %b: {t}) -> {r} {{
      %r = hlo.compare {direction}, %a, %b{kind_text} : {t} -> {r}
      func.return %r : {r}
    }}"""
    return run(text, x[None], y[None])[0][0]


def same(got: Array, expected: Array) -> None:
    """Equal dtype, shape and values; NaN equals NaN and -0 differs from +0."""
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if got.dtype.kind == "f":
        nan = np.isnan(expected)
        np.testing.assert_array_equal(np.signbit(got) & ~nan, np.signbit(expected) & ~nan)
    np.testing.assert_array_equal(got, expected)


# --- registration, constant, iota ------------------------------------------------------------


def test_every_elementwise_op_has_an_impl() -> None:
    registered = {op for op, _ in HloElementwiseFunctions._impls()}
    missing = [op.name for op in elementwise.OPS if op not in registered]
    assert not missing


@pytest.mark.parametrize(
    ("literal", "element", "expected"),
    [
        ("[true, false, true]", "i1", [True, False, True]),
        ("[-1, 127, -128]", "i8", [-1, 127, -128]),
        ("[255, 0, 7]", "ui8", [255, 0, 7]),
        ("[1.0, 1.00390625, -3.0e38]", "bf16", [1.0, 1.0, -3.0040553e38]),
        ("[1.5, -0.0, 65504.0]", "f16", [1.5, -0.0, 65504.0]),
        ("[0.1, -2.5, 1.0e300]", "f64", [0.1, -2.5, 1e300]),
        ("[-9223372036854775808, 1, 2]", "i64", [-(2**63), 1, 2]),
        ("7", "i32", [7, 7, 7]),
    ],
)
def test_constant_decodes_every_storage(literal: str, element: str, expected: list[Any]) -> None:
    text = f"""func.func @main() -> tensor<3x{element}> {{
      %c = hlo.constant dense<{literal}> : tensor<3x{element}>
      func.return %c : tensor<3x{element}>
    }}"""
    (got,) = run(text, devices=2)
    same(got, np.stack([arr(element, expected)] * 2))


def test_constant_scalar_and_matrix_on_every_device() -> None:
    text = """func.func @main() -> (tensor<f32>, tensor<2x2xi32>) {
      %s = hlo.constant dense<2.5> : tensor<f32>
      %m = hlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
      func.return %s, %m : tensor<f32>, tensor<2x2xi32>
    }"""
    s, m = run(text, devices=3)
    same(s, np.full(3, 2.5, np.float32))
    same(m, np.tile(np.array([[1, 2], [3, 4]], np.int32), (3, 1, 1)))


def test_iota_counts_along_its_dimension() -> None:
    text = """func.func @main() -> (tensor<2x3xi32>, tensor<2x3xf32>) {
      %a = hlo.iota dim = 0 : tensor<2x3xi32>
      %b = hlo.iota dim = 1 : tensor<2x3xf32>
      func.return %a, %b : tensor<2x3xi32>, tensor<2x3xf32>
    }"""
    a, b = run(text, devices=2)
    same(a, np.tile(np.array([[0, 0, 0], [1, 1, 1]], np.int32), (2, 1, 1)))
    same(b, np.tile(np.array([[0, 1, 2], [0, 1, 2]], np.float32), (2, 1, 1)))


def test_iota_rounds_to_bf16_and_wraps_small_ints() -> None:
    text = """func.func @main() -> (tensor<300xbf16>, tensor<300xi8>) {
      %a = hlo.iota dim = 0 : tensor<300xbf16>
      %b = hlo.iota dim = 0 : tensor<300xi8>
      func.return %a, %b : tensor<300xbf16>, tensor<300xi8>
    }"""
    a, b = run(text, devices=1)
    same(a[0, [255, 257, 259]], np.array([255, 256, 260], np.float32))
    same(b[0, [127, 128, 299]], np.array([127, -128, 299 - 256], np.int8))


# --- integer arithmetic ----------------------------------------------------------------------


def test_integer_divide_edge_cases() -> None:
    got = binary("divide", "i32", [7, -7, 7, -7, I32_MIN, 5, 0, -5], [2, 2, -2, -2, -1, 0, 0, 0])
    same(got, arr("i32", [3, -3, -3, 3, I32_MIN, -1, -1, -1]))
    same(binary("divide", "ui8", [7, 5, 255], [2, 0, 255]), arr("ui8", [3, 255, 1]))


def test_integer_remainder_edge_cases() -> None:
    got = binary("remainder", "i32", [7, -7, 7, -7, I32_MIN, 5, -5], [2, 2, -2, -2, -1, 0, 0])
    same(got, arr("i32", [1, -1, 1, -1, 0, 5, -5]))
    same(binary("remainder", "ui8", [7, 5], [2, 0]), arr("ui8", [1, 5]))


def test_integer_ops_wrap() -> None:
    same(binary("add", "i8", [127, -128], [1, -1]), arr("i8", [-128, 127]))
    same(binary("multiply", "i32", [65536, I32_MAX], [65536, 2]), arr("i32", [0, -2]))
    same(binary("subtract", "ui8", [0], [1]), arr("ui8", [255]))
    same(unary("negate", "i32", [I32_MIN, 5]), arr("i32", [I32_MIN, -5]))
    same(unary("negate", "ui8", [1, 0]), arr("ui8", [255, 0]))
    same(unary("abs", "i8", [-128, -1, 3]), arr("i8", [-128, 1, 3]))
    same(unary("sign", "i32", [-5, 0, 7, I32_MIN]), arr("i32", [-1, 0, 1, -1]))


def test_integer_power_follows_xla() -> None:
    """Square-and-multiply over the low 6 exponent bits; negative exponents give 0 except for
    bases 1 and -1."""
    base = [3, 3, 3, 1, -1, -1, 2, 0, 0, -2, -1, 2]
    exponent = [64, 65, -1, -5, -1, -2, 31, 0, -1, 63, 3, 5]
    expected = [1, 3, 0, 1, -1, 1, I32_MIN, 1, 0, 0, -1, 32]
    same(binary("power", "i32", base, exponent), arr("i32", expected))
    got = binary("power", "ui32", [3, 1, 2, 3, 2**32 - 1], [65, 2**32 - 1, 33, 2**31, 2**32 - 1])
    same(got, arr("ui32", [3, 1, 0, 0, 2**32 - 1]))


def test_shifts_saturate_at_the_bit_width() -> None:
    same(binary("shift_left", "i8", [1, 1, 1, 3], [7, 8, -1, 1]), arr("i8", [-128, 0, 0, 6]))
    same(
        binary("shift_right_logical", "i8", [-128, -128, -1, -1], [1, 8, -1, 7]),
        arr("i8", [64, 0, 0, 1]),
    )
    same(
        binary("shift_right_arithmetic", "i8", [-128, -128, 64, -1], [1, 8, -1, 100]),
        arr("i8", [-64, -1, 0, -1]),
    )
    # arithmetic shifts replicate the top bit of unsigned values too
    same(
        binary("shift_right_arithmetic", "ui8", [0x80, 0x80, 0x80, 0x40], [1, 8, 200, 9]),
        arr("ui8", [0xC0, 0xFF, 0xFF, 0]),
    )


def test_bit_counting_and_logic() -> None:
    same(unary("popcnt", "i8", [-1, 0, 7]), arr("i8", [8, 0, 3]))
    same(unary("popcnt", "ui64", [2**64 - 1, 5]), arr("ui64", [64, 2]))
    same(unary("clz", "i8", [-1, 0, 1, 64]), arr("i8", [0, 8, 7, 1]))
    same(unary("clz", "i64", [-1, 0, 1]), arr("i64", [0, 64, 63]))
    same(unary("not", "i1", [True, False]), arr("i1", [False, True]))
    same(unary("not", "ui8", [1, 0]), arr("ui8", [254, 255]))
    same(binary("and", "ui32", [0xF0F0], [0xFF00]), arr("ui32", [0xF000]))
    same(binary("xor", "i1", [True, True, False], [True, False, False]), arr("i1", [0, 1, 0]))
    same(binary("or", "i1", [True, False], [False, False]), arr("i1", [True, False]))
    same(binary("add", "i1", [True, True, False], [True, False, False]), arr("i1", [1, 1, 0]))
    same(binary("multiply", "i1", [True, True], [True, False]), arr("i1", [True, False]))


# --- floating point --------------------------------------------------------------------------


def test_maximum_minimum_propagate_nan_and_order_zeros() -> None:
    a, b = [-0.0, 0.0, NAN, 1.0, -0.0], [0.0, -0.0, 1.0, NAN, -0.0]
    same(binary("maximum", "f32", a, b), arr("f32", [0.0, 0.0, NAN, NAN, -0.0]))
    same(binary("minimum", "f32", a, b), arr("f32", [-0.0, -0.0, NAN, NAN, -0.0]))
    same(binary("maximum", "bf16", a, b), arr("bf16", [0.0, 0.0, NAN, NAN, -0.0]))
    same(binary("minimum", "i32", [3, -4], [-1, 2]), arr("i32", [-1, -4]))


def test_rounding_ops() -> None:
    x = [2.5, -2.5, 0.49999997, -0.3, 0.5, -0.5, 1.5, NAN, -INF]
    same(unary("round_nearest_afz", "f32", x), arr("f32", [3, -3, 0, -0.0, 1, -1, 2, NAN, -INF]))
    same(unary("round_nearest_even", "f32", x), arr("f32", [2, -2, 0, -0.0, 0, -0.0, 2, NAN, -INF]))
    same(unary("floor", "f32", [-0.5, 1.5, -0.0]), arr("f32", [-1, 1, -0.0]))
    same(unary("ceil", "f16", [-0.5, 1.5]), arr("f16", [-0.0, 2]))


def test_sign_keeps_zero_sign_and_nan() -> None:
    got = unary("sign", "f32", [-0.0, 0.0, NAN, -3, 2, -INF])
    same(got, arr("f32", [-0.0, 0.0, NAN, -1, 1, -1]))


def test_float_division_and_remainder_are_ieee() -> None:
    same(binary("divide", "f32", [1, -1, 0], [0, 0, 0]), arr("f32", [INF, -INF, NAN]))
    got = binary("remainder", "f32", [-7, 7, 5, -0.0, INF, 5.5], [2, -2, 0, 1, 2, INF])
    same(got, arr("f32", [-1, 1, NAN, -0.0, NAN, 5.5]))


def test_math_functions_and_their_special_values() -> None:
    same(unary("rsqrt", "f32", [0, -0.0, -1, INF, 4]), arr("f32", [INF, -INF, NAN, 0, 0.5]))
    same(unary("cbrt", "f32", [-8, 27, -0.0, INF]), arr("f32", [-2, 3, -0.0, INF]))
    same(unary("log", "f32", [0, -1, INF, 1]), arr("f32", [-INF, NAN, INF, 0]))
    same(unary("logistic", "f32", [-100, 0, 100]), arr("f32", [0, 0.5, 1]))
    same(unary("is_finite", "f32", [NAN, INF, 1, -INF], result="i1"), arr("i1", [0, 0, 1, 0]))
    same(
        binary("atan2", "f32", [0, -0.0, 1], [-0.0, -0.0, 0]),
        arr("f32", [np.pi, -np.pi, np.pi / 2]),
    )
    same(binary("power", "f32", [-2, 0, 1, NAN], [0.5, -1, NAN, 0]), arr("f32", [NAN, INF, 1, 1]))
    # erf and friends are rounded from f64, i.e. correctly rounded for these inputs
    same(unary("erf", "f32", [0.5, -2.0, 0.0]), arr("f32", [0.5204999, -0.9953223, 0.0]))
    same(unary("exponential_minus_one", "f32", [1e-10]), arr("f32", [1e-10]))
    same(unary("log_plus_one", "f64", [1e-20]), arr("f64", [1e-20]))


def test_f16_logistic_saturates_like_xla() -> None:
    """XLA:CPU evaluates f16 logistic in f16: exp(-x) overflows below about -11.1."""
    got = unary("logistic", "f16", [-12.0, -11.0, -20.0])
    same(got[[0, 2]], np.zeros(2, np.float16))
    assert 1.6e-5 < float(got[1]) < 1.7e-5


def test_denormals_are_flushed_by_arithmetic_but_kept_by_bit_ops() -> None:
    """XLA:CPU runs with FTZ/DAZ: arithmetic and comparisons read and write denormals as 0."""
    tiny = 1e-39
    same(binary("multiply", "f32", [1e-20, tiny], [1e-20, 1.0]), arr("f32", [0, 0]))
    same(binary("add", "f32", [tiny], [0.0]), arr("f32", [0]))
    same(unary("exponential", "f32", [-88.0]), arr("f32", [0]))
    same(unary("abs", "f32", [-tiny]), arr("f32", [tiny]))
    same(unary("sign", "f32", [tiny]), arr("f32", [0]))
    same(compare("EQ", "f32", [tiny], [0.0]), arr("i1", [True]))
    same(compare("GT", "f32", [tiny], [0.0], "TOTALORDER"), arr("i1", [True]))
    same(unary("sine", "f32", [tiny]), arr("f32", [tiny]))  # XLA returns tiny x unchanged


def test_bf16_ops_round_the_f32_result_to_nearest_even() -> None:
    # 1 + 2^-8 is the midpoint of 1 and 1 + 2^-7: ties go to the even 1.0
    same(
        binary("add", "bf16", [1.0, 1.0078125], [0.00390625, 0.00390625]),
        arr("f32", [1.0, 1.015625]),
    )
    same(binary("multiply", "bf16", [3.0e38], [2.0]), arr("f32", [INF]))
    same(unary("sqrt", "bf16", [2.0]), arr("f32", [1.4140625]))


def test_reduce_precision_to_bf16_equals_round_to_bf16() -> None:
    rng = np.random.default_rng(0)
    x = np.concatenate(
        [
            rng.standard_normal(500).astype(np.float32) * 1000,
            np.array([1.00390625, 1.01171875, 3.4e38, -0.0, INF, 1e-39], np.float32),
            (rng.integers(0, 2**32, 200, dtype=np.uint64).astype(np.uint32)).view(np.float32),
        ]
    )
    x = x[~np.isnan(x)]
    got = unary("reduce_precision", "f32", x, props="exponent_bits = 8 mantissa_bits = 7 ")
    same(got, round_to_bf16(x))


def test_reduce_precision_to_f16_flushes_denormals_and_overflows() -> None:
    x = [1.0, 1e-5, 65504, 65520, 1.00048828125, -1e6, NAN]
    got = unary("reduce_precision", "f32", x, props="exponent_bits = 5 mantissa_bits = 10 ")
    same(got, arr("f32", [1.0, 0.0, 65504, INF, 1.0, -INF, NAN]))
    got = unary(
        "reduce_precision",
        "f32",
        [1.5, 3.0, -1.4, 1e5],
        props="exponent_bits = 3 mantissa_bits = 0 ",
    )
    same(got, arr("f32", [2, 2, -1, INF]))


# --- compare, select, clamp ------------------------------------------------------------------


def test_compare_total_order() -> None:
    a = [1e-39, -0.0, NAN, -NAN, 1.0, -0.0, -INF]
    b = [0.0, 0.0, INF, -INF, NAN, -0.0, -NAN]
    same(compare("GT", "f32", a, b, "TOTALORDER"), arr("i1", [1, 0, 1, 0, 0, 0, 1]))
    same(compare("LT", "f32", a, b, "TOTALORDER"), arr("i1", [0, 1, 0, 1, 1, 0, 0]))
    same(compare("EQ", "bf16", [-0.0, NAN], [0.0, NAN], "TOTALORDER"), arr("i1", [0, 1]))


def test_compare_float_is_ieee() -> None:
    a, b = [NAN, 1.0, -0.0, NAN], [NAN, 1.0, 0.0, 1.0]
    same(compare("NE", "f32", a, b), arr("i1", [1, 0, 0, 1]))
    same(compare("EQ", "f32", a, b), arr("i1", [0, 1, 1, 0]))
    same(compare("GE", "f32", a, b, "FLOAT"), arr("i1", [0, 1, 1, 0]))


def test_compare_integers_by_signedness() -> None:
    same(compare("LT", "i32", [-1, 3], [0, 2]), arr("i1", [1, 0]))
    same(compare("LT", "ui32", [2**32 - 1, 3], [0, 4]), arr("i1", [0, 1]))
    same(compare("GE", "i1", [True, False], [False, True], "UNSIGNED"), arr("i1", [1, 0]))


def test_select_with_scalar_and_full_predicates_per_device() -> None:
    text = """func.func @main(%p: tensor<i1>, %q: tensor<2xi1>, %a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
      %r = hlo.select %p, %a, %b : tensor<i1>, tensor<2xf32>
      %s = hlo.select %q, %a, %b : tensor<2xi1>, tensor<2xf32>
      func.return %r, %s : tensor<2xf32>, tensor<2xf32>
    }"""
    p = np.array([True, False])
    q = np.array([[True, False], [False, True]])
    a = np.array([[1, 2], [3, 4]], np.float32)
    b = np.array([[-1, -2], [-3, -4]], np.float32)
    r, s = run(text, p, q, a, b)
    same(r, np.array([[1, 2], [-3, -4]], np.float32))
    same(s, np.array([[1, -2], [-3, 4]], np.float32))


def test_clamp_with_scalar_and_full_bounds() -> None:
    text = """func.func @main(%lo: tensor<f32>, %x: tensor<4xf32>, %hi: tensor<4xf32>) -> tensor<4xf32> {
      %r = hlo.clamp %lo, %x, %hi : tensor<f32>, tensor<4xf32>, tensor<4xf32>
      func.return %r : tensor<4xf32>
    }"""
    lo = np.array([0.0, -1.0], np.float32)
    x = np.array([[NAN, -1, 5, -0.0], [NAN, -5, 0.5, 9]], np.float32)
    hi = np.array([[1, 1, 1, -0.0], [NAN, 0, 1, 2]], np.float32)
    (got,) = run(text, lo, x, hi)
    same(got, np.array([[NAN, 0, 1, -0.0], [NAN, -1, 0.5, 2]], np.float32))
    text_int = """func.func @main(%lo: tensor<i32>, %x: tensor<2xi32>, %hi: tensor<i32>) -> tensor<2xi32> {
      %r = hlo.clamp %lo, %x, %hi : tensor<i32>, tensor<2xi32>, tensor<i32>
      func.return %r : tensor<2xi32>
    }"""
    five, one = np.array([5], np.int32), np.array([1], np.int32)
    (got_int,) = run(text_int, five, np.array([[0, 10]], np.int32), one)
    same(got_int, np.array([[1, 1]], np.int32))  # min(max(x, lo), hi) when lo > hi


# --- convert, bitcast_convert ----------------------------------------------------------------


def test_convert_float_to_int_truncates_and_saturates() -> None:
    x = [NAN, 3e9, -3e9, -2.7, 2.7, INF, -INF, 2147483520.0]
    same(
        unary("convert", "f32", x, result="i32"),
        arr("i32", [0, I32_MAX, I32_MIN, -2, 2, I32_MAX, I32_MIN, 2147483520]),
    )
    same(
        unary("convert", "f32", [NAN, 3e9, -3e9, 2.7, 5e9], result="ui32"),
        arr("ui32", [0, 3e9, 0, 2, 2**32 - 1]),
    )
    same(
        unary("convert", "f32", [300, -300, 127.9, -128.9], result="i8"),
        arr("i8", [127, -128, 127, -128]),
    )
    same(
        unary("convert", "f64", [9.3e18, -9.3e18, 2.0**63, NAN], result="i64"),
        arr("i64", [2**63 - 1, -(2**63), 2**63 - 1, 0]),
    )
    same(unary("convert", "f32", [2.0**64, -1.0], result="ui64"), arr("ui64", [2**64 - 1, 0]))


def test_convert_to_and_from_pred_and_between_ints() -> None:
    same(unary("convert", "f32", [0, -0.0, NAN, 0.1], result="i1"), arr("i1", [0, 0, 1, 1]))
    same(unary("convert", "i32", [0, -5], result="i1"), arr("i1", [0, 1]))
    same(unary("convert", "i1", [True, False], result="f32"), arr("f32", [1, 0]))
    same(unary("convert", "i32", [300, -1], result="ui8"), arr("ui8", [44, 255]))
    same(unary("convert", "ui32", [2**32 - 1], result="i64"), arr("i64", [2**32 - 1]))


def test_convert_to_bf16_rounds_through_f32_like_xla() -> None:
    # 2^24 + 2^16 + 1 is above the bf16 tie, but f32 first rounds it onto the tie -> even
    ints = [16842753, 16908289, -16842753]
    same(unary("convert", "i32", ints, result="bf16"), arr("f32", [16777216, 16908288, -16777216]))
    same(unary("convert", "f64", [1 + 2**-8 + 2**-30], result="bf16"), arr("f32", [1.0]))
    same(unary("convert", "f64", [1 + 2**-11 + 2**-30], result="f16"), arr("f16", [1.0]))
    got = unary("convert", "f32", [1.00390625, 1.01171875, 3.4e38, NAN], result="bf16")
    same(got, arr("f32", [1.0, 1.015625, INF, NAN]))
    same(unary("convert", "bf16", [1.5, -3.0e38], result="f32"), arr("f32", [1.5, -3.0040553e38]))


def test_bitcast_convert_same_and_different_widths() -> None:
    same(
        unary("bitcast_convert", "f32", [1.0, -2.0], result="i32"),
        arr("i32", [0x3F800000, -(2**30)]),
    )
    text = """func.func @main(%a: tensor<2xf32>, %b: tensor<2x4xui8>) -> (tensor<2x4xi8>, tensor<2x2xbf16>, tensor<2xf32>) {
      %r = hlo.bitcast_convert %a : tensor<2xf32> -> tensor<2x4xi8>
      %s = hlo.bitcast_convert %a : tensor<2xf32> -> tensor<2x2xbf16>
      %t = hlo.bitcast_convert %b : tensor<2x4xui8> -> tensor<2xf32>
      func.return %r, %s, %t : tensor<2x4xi8>, tensor<2x2xbf16>, tensor<2xf32>
    }"""
    a = np.array([[1.0, -2.0]], np.float32)
    b = np.array([[[0, 0, 128, 63], [0, 0, 0, 192]]], np.uint8)
    r, s, t = run(text, a, b)
    same(r, np.array([[[0, 0, -128, 63], [0, 0, 0, -64]]], np.int8))
    same(s, np.array([[[0, 1], [0, -2]]], np.float32))
    same(t, np.array([[1.0, -2.0]], np.float32))


def test_bitcast_convert_bf16_to_i16() -> None:
    same(unary("bitcast_convert", "bf16", [1.0, -2.0], result="i16"), arr("i16", [0x3F80, -16384]))
    same(unary("bitcast_convert", "ui16", [0x3F80, 0x7F80], result="bf16"), arr("f32", [1.0, INF]))


# --- several devices at once -----------------------------------------------------------------


def test_ops_act_on_every_device() -> None:
    text = """func.func @main(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi32> {
      %c = hlo.multiply %a, %b : tensor<3xi32>
      %d = hlo.negate %c : tensor<3xi32>
      func.return %d : tensor<3xi32>
    }"""
    a = np.arange(12, dtype=np.int32).reshape(4, 3)
    b = np.arange(12, 24, dtype=np.int32).reshape(4, 3)
    (got,) = run(text, a, b)
    same(got, -(a * b))


# --- cross-check against XLA:CPU through jax.lax --------------------------------------------

_XLA_ELEMENTS = {
    "f32": "float32",
    "bf16": "bfloat16",
    "f16": "float16",
    "i32": "int32",
    "ui8": "uint8",
    "i8": "int8",
}


def _random(element: str, rng: np.random.Generator, n: int = 200) -> Array:
    if element in ("f32", "bf16", "f16"):
        specials = [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 0.5, 2.5, -2.5]
        scale = rng.choice([1e-2, 1.0, 10.0, 1e3], n)
        return arr(element, np.concatenate([specials, rng.standard_normal(n) * scale]))
    info = np.iinfo(STORAGE[element])
    specials = np.array([0, 1, info.min, info.max, info.max - 1, 7, 8, 9], dtype=STORAGE[element])
    values = rng.integers(info.min, info.max, n, endpoint=True, dtype=STORAGE[element])
    small = rng.integers(max(info.min, -9), 9, n).astype(STORAGE[element])
    return np.concatenate([specials, values, small])


def _ulp_distance(got: Array, expected: Array, element: str) -> Array:
    if element == "f16":
        gi, ei = got.view(np.int16).astype(np.int64), expected.view(np.int16).astype(np.int64)
    else:
        gi = got.astype(np.float32).view(np.int32).astype(np.int64)
        ei = expected.astype(np.float32).view(np.int32).astype(np.int64)
        if element == "bf16":
            gi, ei = gi >> 16, ei >> 16
    top = 1 << (15 if element in ("f16", "bf16") else 31)
    gi = np.where(gi < 0, -(gi & (top - 1)), gi)
    ei = np.where(ei < 0, -(ei & (top - 1)), ei)
    both_nan = np.isnan(got.astype(np.float32)) & np.isnan(expected.astype(np.float32))
    return np.where(both_nan, 0, np.abs(gi - ei))


def _xla_result(fn: Callable[..., Any], element: str, *args: Array) -> Array:
    jnp = pytest.importorskip("jax.numpy")
    dtype = getattr(jnp, _XLA_ELEMENTS[element])
    out = np.asarray(fn(*(jnp.asarray(a).astype(dtype) for a in args)))
    return out.astype(np.float32) if element == "bf16" else out


_UNARY_XLA: list[tuple[str, str, int]] = [
    # (hlo op, jax.lax function, allowed ulps for f32; f16/bf16 allow up to 2)
    ("abs", "abs", 0),
    ("negate", "neg", 0),
    ("sign", "sign", 0),
    ("sqrt", "sqrt", 0),
    ("floor", "floor", 0),
    ("ceil", "ceil", 0),
    ("round_nearest_even", "round_even", 0),
    ("round_nearest_afz", "round_afz", 0),
    ("exponential", "exp", 2),
    ("exponential_minus_one", "expm1", 8),
    ("log", "log", 3),
    ("log_plus_one", "log1p", 3),
    ("rsqrt", "rsqrt", 2),
    ("cbrt", "cbrt", 2),
    ("tanh", "tanh", 6),
    ("logistic", "logistic", 6),
    ("sine", "sin", 2),
    ("cosine", "cos", 2),
    ("tan", "tan", 4),
    ("erf", "erf", 6),
]


def _lax_unary(name: str) -> Callable[..., Any]:
    lax = pytest.importorskip("jax.lax")
    if name == "round_even":
        return lambda x: lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN)
    if name == "round_afz":
        return lambda x: lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO)
    return getattr(lax, name)


@pytest.mark.parametrize("element", ["f32", "bf16", "f16"])
@pytest.mark.parametrize(("op", "lax_name", "ulps"), _UNARY_XLA)
def test_float_unary_matches_xla(element: str, op: str, lax_name: str, ulps: int) -> None:
    pytest.importorskip("jax")
    x = _random(element, np.random.default_rng(1))
    expected = _xla_result(_lax_unary(lax_name), element, x)
    got = unary(op, element, x)
    allowed = ulps if element == "f32" else min(ulps, 2)
    assert _ulp_distance(got, expected, element).max() <= allowed


_BINARY_XLA: list[tuple[str, str, list[str], int]] = [
    ("add", "add", ["f32", "bf16", "f16", "i32", "ui8", "i8"], 0),
    ("subtract", "sub", ["f32", "bf16", "i32", "ui8"], 0),
    ("multiply", "mul", ["f32", "bf16", "f16", "i32", "ui8", "i8"], 0),
    ("divide", "div", ["f32", "bf16", "f16", "i32", "ui8", "i8"], 0),
    ("remainder", "rem", ["f32", "bf16", "i32", "ui8", "i8"], 0),
    ("maximum", "max", ["f32", "bf16", "f16", "i32", "ui8"], 0),
    ("minimum", "min", ["f32", "bf16", "f16", "i32", "ui8"], 0),
    ("power", "pow", ["f32", "bf16"], 1),
    ("atan2", "atan2", ["f32", "bf16"], 3),
    ("and", "bitwise_and", ["i32", "ui8"], 0),
    ("or", "bitwise_or", ["i8", "ui8"], 0),
    ("xor", "bitwise_xor", ["i32"], 0),
    ("shift_left", "shift_left", ["i32", "ui8", "i8"], 0),
    ("shift_right_arithmetic", "shift_right_arithmetic", ["i32", "ui8", "i8"], 0),
    ("shift_right_logical", "shift_right_logical", ["i32", "ui8", "i8"], 0),
]


@pytest.mark.parametrize(
    ("op", "lax_name", "element", "ulps"),
    [(op, name, e, u) for op, name, elements, u in _BINARY_XLA for e in elements],
)
def test_binary_matches_xla(op: str, lax_name: str, element: str, ulps: int) -> None:
    lax = pytest.importorskip("jax.lax")
    rng = np.random.default_rng(2)
    a, b = _random(element, rng), _random(element, rng)
    b = b[rng.permutation(b.size)]
    expected = _xla_result(getattr(lax, lax_name), element, a, b)
    got = binary(op, element, a, b)
    if element.startswith(("i", "u")):
        same(got, expected)
    else:
        assert _ulp_distance(got, expected, element).max() <= ulps


@pytest.mark.parametrize("source", ["f32", "bf16", "f16", "i32", "ui8", "i8"])
@pytest.mark.parametrize("target", ["f32", "bf16", "f16", "i32", "ui8", "i8"])
def test_convert_matches_xla(source: str, target: str) -> None:
    lax = pytest.importorskip("jax.lax")
    jnp = pytest.importorskip("jax.numpy")
    x = _random(source, np.random.default_rng(3))
    if source in ("f32", "f16"):
        x = arr(source, x.astype(np.float64) * 100)
    dtype = getattr(jnp, _XLA_ELEMENTS[target])
    expected = np.asarray(
        lax.convert_element_type(jnp.asarray(x).astype(getattr(jnp, _XLA_ELEMENTS[source])), dtype)
    )
    expected = expected.astype(np.float32) if target == "bf16" else expected
    same(unary("convert", source, x, result=target), expected)


@pytest.mark.parametrize(
    ("exponent_bits", "mantissa_bits"), [(8, 7), (5, 10), (4, 3), (5, 2), (3, 0)]
)
def test_reduce_precision_matches_xla(exponent_bits: int, mantissa_bits: int) -> None:
    lax = pytest.importorskip("jax.lax")
    rng = np.random.default_rng(5)
    x = np.concatenate([_random("f32", rng), rng.standard_normal(100).astype(np.float32) * 1e-5])
    expected = np.asarray(lax.reduce_precision(x, exponent_bits, mantissa_bits))
    props = f"exponent_bits = {exponent_bits} mantissa_bits = {mantissa_bits} "
    same(unary("reduce_precision", "f32", x, props=props), expected)


def test_scalar_and_empty_tensors() -> None:
    text = """func.func @main(%a: tensor<f32>, %e: tensor<0xf32>) -> (tensor<f32>, tensor<4xi8>, tensor<0xf32>, tensor<0xi32>) {
      %s = hlo.sqrt %a : tensor<f32>
      %b = hlo.bitcast_convert %a : tensor<f32> -> tensor<4xi8>
      %f = hlo.add %e, %e : tensor<0xf32>
      %c = hlo.constant dense<> : tensor<0xi32>
      func.return %s, %b, %f, %c : tensor<f32>, tensor<4xi8>, tensor<0xf32>, tensor<0xi32>
    }"""
    a = np.array([4.0, 1.0, -1.0], np.float32)
    s, b, f, c = run(text, a, np.zeros((3, 0), np.float32))
    same(s, np.array([2.0, 1.0, NAN], np.float32))
    same(b, np.array([[0, 0, -128, 64], [0, 0, -128, 63], [0, 0, -128, -65]], np.int8))
    same(f, np.zeros((3, 0), np.float32))
    same(c, np.zeros((3, 0), np.int32))
