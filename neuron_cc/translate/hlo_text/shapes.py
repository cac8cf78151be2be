"""XLA HLO text spelling of hlo-dialect types and literals (shared by exporter and importer).

- Element types: `ELEMENT_TYPES` maps XLA names (`f32`, `bf16`, `pred`, `s32`, `u8`, ...) to the
  builtin types of the hlo dialect; `element_type_name` goes the other way.
- Shapes: `shape_text(t)` prints `f32[4,8]{1,0}`, `(s32[], f32[4]{0})`, `token[]`, with XLA's
  default descending layout (or none, `layout=False`, as in computation signatures);
  `strip_layouts` and `shape_matches` compare a stored `xla.shape` text with a type.
- Literals: `literal_text(dense)` prints a constant's body as XLA does (`1.5`, `{1, 2}`,
  `{ {1, 2}, {3, 4} }`, `true`, `inf`, `-nan`, `nan(0x1)`); floats print the shortest text that
  XLA's parser (decimal -> double -> element type) maps back to the same bits; FP8/FP6/FP4
  print their exact value; complex elements print as `(real, imag)`.
- `escape_string` writes a C-escaped string body for `"..."` attributes.
- `API_VERSIONS`: custom_call `api_version` numbers and their XLA names.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    DenseIntOrFPElementsAttr,
    FixedBitwidthType,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.dtypes import exact_dtype, narrow_int_width
from neuron_cc.dialects.hlo.types import (
    ELEMENT_NAMES,
    ELEMENT_TYPES,
    TokenType,
    element_type_name,
    is_narrow_float_type,
)

__all__ = [
    "API_VERSIONS",
    "ELEMENT_TYPES",
    "ShapeError",
    "default_layout",
    "element_type_name",
    "escape_string",
    "format_float",
    "literal_text",
    "shape_matches",
    "shape_text",
    "strip_layouts",
]


class ShapeError(ValueError):
    """A type or literal that XLA HLO text cannot spell."""


API_VERSIONS: dict[int, str] = {
    1: "API_VERSION_ORIGINAL",
    2: "API_VERSION_STATUS_RETURNING",
    3: "API_VERSION_STATUS_RETURNING_UNIFIED",
    4: "API_VERSION_TYPED_FFI",
}
"""custom_call `api_version` property value -> XLA's `api_version=` spelling."""


def default_layout(rank: int) -> str:
    """XLA's default (descending minor-to-major) layout: `{1,0}`; empty for scalars."""
    if rank == 0:
        return ""
    return "{" + ",".join(str(d) for d in range(rank - 1, -1, -1)) + "}"


def _element_name(t: Attribute) -> str:
    if t not in ELEMENT_NAMES:
        raise ShapeError(f"element type {t} has no XLA equivalent")
    return ELEMENT_NAMES[t]


def shape_text(t: Attribute, layout: bool = True) -> str:
    """XLA's text of a value type, with default layouts unless `layout=False`."""
    if isinstance(t, TensorType):
        shape = t.get_shape()
        if any(d < 0 for d in shape):
            raise ShapeError(f"dynamic shape {t} has no XLA equivalent")
        dims = "[" + ",".join(map(str, shape)) + "]"
        text = _element_name(t.element_type) + dims
        return text + default_layout(len(shape)) if layout else text
    if isinstance(t, TupleType):
        return "(" + ", ".join(shape_text(e, layout) for e in t.types.data) + ")"
    if isinstance(t, TokenType):
        return "token[]"
    raise ShapeError(f"type {t} has no XLA equivalent")


def strip_layouts(text: str) -> str:
    """`text` without `{...}` layout groups (nested braces included) and whitespace."""
    if "{" not in text:
        return "".join(text.split())
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0 and not ch.isspace():
            out.append(ch)
    return "".join(out)


def shape_matches(stored: str, t: Attribute) -> bool:
    """True when the stored shape text has the dims and element types of `t`."""
    try:
        expected = shape_text(t, layout=False)
    except ShapeError:
        return False
    return strip_layouts(stored) == "".join(expected.split())


# --- literals -------------------------------------------------------------------------------

_F32 = struct.Struct("<f")


def _to_f32(v: float) -> float:
    """Round a double to the nearest float32 (as C's static_cast<float> does)."""
    try:
        return _F32.unpack(_F32.pack(v))[0]
    except OverflowError:
        return float("inf") if v > 0 else float("-inf")


def _digits(text: str) -> int:
    """Significant digits of a decimal/scientific number text."""
    mantissa = text.lstrip("-").split("e")[0].replace(".", "").lstrip("0").rstrip("0")
    return max(len(mantissa), 1)


def _shortest(v: float, start: int, stop: int, same: Callable[[str], bool]) -> str:
    for p in range(start, stop):
        s = f"{v:.{p}g}"
        if same(s):
            return s
    return repr(v)


def _format_double(v: float) -> str:
    """Shortest `%g` text that parses back to exactly the double `v`."""
    return _shortest(v, _digits(repr(v)), 18, lambda s: float(s) == v)


def _format_f32(v: float) -> str:
    """Shortest `%g` text that XLA (decimal -> double -> float) maps back to float32 `v`."""
    start = _digits(str(np.float32(v)))
    return _shortest(v, start, 10, lambda s: _to_f32(float(s)) == v)


# (mantissa bits, sign bit, numpy dtype of the raw bits) per float type
_FLOAT_BITS: dict[type[Attribute], tuple[int, int, str]] = {
    Float16Type: (10, 15, "<u2"),
    BFloat16Type: (7, 15, "<u2"),
    Float32Type: (23, 31, "<u4"),
    Float64Type: (52, 63, "<u8"),
}


def _nan_text(bits: int, mantissa_bits: int, sign_bit: int) -> str:
    """`nan`, `-nan`, or `nan(0x...)` with the payload (XLA's RoundTripNanPayload)."""
    payload = bits & ((1 << mantissa_bits) - 1)
    sign = "-" if bits >> sign_bit else ""
    if payload == 1 << (mantissa_bits - 1):
        return f"{sign}nan"
    return f"{sign}nan(0x{payload:x})"


def format_float(v: float, element_type: Attribute, bits: int | None = None) -> str:
    """One float literal of `element_type` (f16/bf16/f64 print their exact double value).

    `bits`, the raw bit pattern, is needed only to print a NaN's sign and payload.
    """
    if v != v:
        if bits is None:
            return "nan"
        if is_narrow_float_type(element_type):
            return _narrow_nan_text(bits, element_type)
        mantissa_bits, sign_bit, _ = _FLOAT_BITS[type(element_type)]
        return _nan_text(bits, mantissa_bits, sign_bit)
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    if isinstance(element_type, Float32Type):
        return _format_f32(v)
    return _format_double(v)


_NARROW_NAN_MANTISSA = {"f8e5m2": 2, "f8e4m3": 3, "f8e3m4": 4}
"""The narrow floats with IEEE NaNs (a payload in the mantissa); the others have one NaN."""


def _narrow_nan_text(bits: int, t: Attribute) -> str:
    name = element_type_name(t)
    width = t.bitwidth if isinstance(t, FixedBitwidthType) else 8
    mantissa = _NARROW_NAN_MANTISSA.get(name)
    if mantissa is None:  # fn / fnuz / e8m0: `-nan` when the sign bit is set (fnuz: always)
        return "-nan" if bits >> (width - 1) & 1 and name != "f8e8m0fnu" else "nan"
    return _nan_text(bits, mantissa, width - 1)


def _decode_narrow_floats(t: Attribute, data: bytes) -> list[str]:
    exact = exact_dtype(t)
    raw = np.frombuffer(data, np.uint8)
    floats = raw.view(exact).astype(np.float64).tolist()
    width = t.bitwidth if isinstance(t, FixedBitwidthType) else 8
    return _format_floats(floats, raw.tolist(), t, width - 1)


def _decode_complex(t: ComplexType[Any], data: bytes) -> list[str]:
    part = t.element_type
    spec = _FLOAT_BITS[type(part)]
    raw = np.frombuffer(data, dtype=spec[2])
    floats = raw.view(spec[2].replace("u", "f")).tolist()
    texts = _format_floats(floats, raw.tolist(), part, spec[1])
    return [f"({texts[i]}, {texts[i + 1]})" for i in range(0, len(texts), 2)]


def _int_dtype(t: IntegerType) -> str:
    width = t.width.data
    if width == 1:
        return "<i1"
    kind = "u" if t.signedness.data == Signedness.UNSIGNED else "i"
    return f"<{kind}{width // 8}"


def _decode(dense: DenseIntOrFPElementsAttr, data: bytes) -> list[str]:
    """Element texts of `data`, a whole number of elements of the dense attribute's type."""
    t = dense.get_element_type()
    if t not in ELEMENT_NAMES:
        raise ShapeError(f"element type {t} has no XLA equivalent")
    if is_narrow_float_type(t):
        return _decode_narrow_floats(t, data)
    if isinstance(t, ComplexType):
        return _decode_complex(t, data)
    if isinstance(t, IntegerType):
        return _decode_ints(t, data)
    return _decode_floats(t, data)


def _decode_ints(t: IntegerType, data: bytes) -> list[str]:
    width = narrow_int_width(t)
    if width is not None:
        values = np.frombuffer(data, np.uint8).astype(np.int64) & ((1 << width) - 1)
        if element_type_name(t)[0] == "s":
            values = np.where(values >= 1 << (width - 1), values - (1 << width), values)
        return [str(v) for v in values.tolist()]
    values = np.frombuffer(data, dtype=_int_dtype(t)).tolist()
    if t.width.data == 1:
        return ["true" if v else "false" for v in values]
    return [str(v) for v in values]


def _decode_floats(t: Attribute, data: bytes) -> list[str]:
    spec = _FLOAT_BITS.get(type(t))
    if spec is None:
        raise ShapeError(f"element type {t} has no XLA equivalent")
    raw = np.frombuffer(data, dtype=spec[2])
    inverse = None
    if raw.size > 4096:
        # Big constants: format each distinct bit pattern once (a 50 MB literal in seconds).
        raw, inverse = np.unique(raw, return_inverse=True)
    if isinstance(t, BFloat16Type):
        floats = (raw.astype(np.uint32) << 16).view(np.float32)
    else:
        floats = raw.view(spec[2].replace("u", "f"))
    if inverse is not None:
        texts = _format_floats(floats.tolist(), raw.tolist(), t, spec[1])
        return np.array(texts, dtype=object)[inverse.reshape(-1)].tolist()
    return _format_floats(floats.tolist(), raw.tolist(), t, spec[1])


def _format_floats(values: list[float], bits: list[int], t: Attribute, sign_bit: int) -> list[str]:
    cache: dict[float, str] = {}
    out: list[str] = []
    for v, b in zip(values, bits, strict=True):
        if v != v:
            out.append(format_float(v, t, b))
            continue
        if v == 0.0:
            out.append("-0.0" if b >> sign_bit else "0")  # XLA reads "-0" as the integer 0
            continue
        text = cache.get(v)
        if text is None:
            text = cache[v] = format_float(v, t)
        out.append(text)
    return out


def _nest(items: list[str], shape: Sequence[int]) -> str:
    """Group row-major element texts into XLA's nested braces."""
    if len(shape) == 1:
        return "{" + ", ".join(items) + "}"
    n = shape[-1]
    rows = ["{" + ", ".join(items[i : i + n]) + "}" for i in range(0, len(items), n)]
    for d in reversed(shape[:-1]):
        rows = ["{ " + ", ".join(rows[i : i + d]) + " }" for i in range(0, len(rows), d)]
    return rows[0]


def _nest_splat(item: str, shape: Sequence[int]) -> str:
    text = "{" + ", ".join([item] * shape[-1]) + "}"
    for d in reversed(shape[:-1]):
        text = "{ " + ", ".join([text] * d) + " }"
    return text


def _nest_empty(shape: Sequence[int]) -> str:
    if shape[0] == 0 or len(shape) == 1:
        return "{}"
    inner = _nest_empty(shape[1:])
    return "{ " + ", ".join([inner] * shape[0]) + " }"


def literal_text(dense: DenseIntOrFPElementsAttr) -> str:
    """XLA's literal text of a dense constant (splats are written out in full)."""
    shape = dense.get_shape()
    data = dense.data.data
    count = 1
    for d in shape:
        count *= d
    if count == 0:
        return _nest_empty(shape)
    size = len(data) // max(len(dense), 1)
    if len(data) != size * count:
        raise ShapeError(f"dense literal holds {len(dense)} elements, expected {count}")
    first = data[:size]
    if not shape:
        return _decode(dense, first)[0]
    if count > 1 and data == first * count:
        return _nest_splat(_decode(dense, first)[0], shape)
    return _nest(_decode(dense, data), shape)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f]')


def escape_string(s: str) -> str:
    """C-escape `s` for an XLA `"..."` attribute (the body, without the quotes)."""
    if _NEEDS_ESCAPE.search(s) is None:
        return s
    return _NEEDS_ESCAPE.sub(lambda m: _ESCAPES.get(m[0], f"\\{ord(m[0]):03o}"), s)
