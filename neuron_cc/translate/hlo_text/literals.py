"""HLO literal text (`constant(...)` payloads) -> `DenseIntOrFPElementsAttr`, as XLA reads it.

The payload is lexed and parsed like XLA's `HloParserImpl::ParseDenseLiteral` (the ground truth,
measured against jaxlib's `hlo_module_from_text`; tests/test_hlo_import_refusals.py keeps the
table): nested braces must match the shape exactly (`{ {1, 2}, {3, 4} }` for `f32[2,2]`, commas
optional, a trailing comma allowed), a bare scalar for an array shape sets element 0 and leaves
the rest zero (XLA's quirk), integers are 64-bit with XLA's wrap-around for
`s64`/`u64`, pred takes any integer (nonzero is true), floats round to the element type as XLA's
`static_cast` does (f16/bf16 through f32, the FP8/FP6/FP4 types directly, by `ml_dtypes`, XLA's
own float8 code) and a finite value that rounds to a non-finite one (infinity, or NaN for a type
without infinities, e.g. f8e4m3fn 500, f8e8m0fnu 0) is out of range; `inf` in a type without
infinities is its NaN (f8e4m3fnuz) or its largest value (f4e2m1fn, which saturates), as in XLA;
`nan(0x...)` payloads must fit the element type's mantissa (bf16: 0x7f) and only IEEE-style
types (f16, bf16, f32, f64, f8e5m2, f8e4m3, f8e3m4) take one. Complex elements (c64, c128) are
`(real, imag)` pairs, each part read as an f32 / f64 element. The elided
form (`{...}`, printed by XLA without `print_large_constants`) is an error unless the caller allows
it, in which case the constant becomes zeros (XLA fills it with arbitrary values).

One deliberate difference: a float element spelled `-0` is -0.0 here. XLA prints -0.0 as `-0`
and its parser reads that back as the integer 0 (+0.0); keeping the sign keeps what the printer
meant (the exporter writes `-0.0`, which XLA reads as -0.0).

Errors: `LiteralSyntaxError` (malformed text) carries the offset of the offending token in the
payload; `AttrError` (a value the element type cannot hold, an elided constant) is located at
the instruction.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.dtypes import exact_dtype
from neuron_cc.dialects.hlo.types import (
    ELEMENT_TYPES,
    element_type_name,
    is_complex_type,
    is_float_type,
    is_pred_type,
)
from neuron_cc.translate.hlo_text.attrs import AttrError


class LiteralSyntaxError(AttrError):
    """Malformed literal text; `offset` is the position of the offending token in the payload."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


# --- lexing (the subset of XLA's HloLexer a literal can contain) ----------------------------

_NUMBER = r"""
    (?P<dec>(?=[0-9-])-?(?:(?:[0-9]+|[0-9]+\.[0-9]*|[0-9]*\.[0-9]+)[eE][+-]?[0-9]+
                          |[0-9]+\.[0-9]*|[0-9]*\.[0-9]+))
   |(?P<pattern>[0-9]+(?:x[0-9]+)+|-?[0-9]+_-?[0-9]+(?:_[0-9]+)?(?:x-?[0-9]+_-?[0-9]+(?:_[0-9]+)?)*)
   |(?P<int>-?[0-9]+)
   |(?P<neginf>-inf)
   |(?P<nan>(?:-nan|nan(?![A-Za-z0-9_.:=\-]))(?:\([^)]*\)?)?)
"""
_TOKEN = re.compile(
    r"(?P<ws>[ \t\n\r]+|/\*.*?\*/|//[^\n\r]*)"
    r"|(?P<punct>\.\.\.|[{}(),])"
    rf"|{_NUMBER}"
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_.\-]*[:=]?)"
    r"|(?P<bad>.)",
    re.S | re.X,
)
_NAN_PAYLOAD = re.compile(r"\(0x([0-9a-fA-F]+)\)")
_KEYWORDS = {"true": "true", "false": "false", "inf": "inf"}
_INT64_MIN = -(2**63)
_UINT64_MAX = 2**64 - 1
_DOUBLE_QUIET_PAYLOAD = 1 << 51
_DOUBLE_PAYLOAD_MASK = (1 << 52) - 1


@dataclass(frozen=True)
class _Token:
    kind: str
    """`{ } ( ) , ...`, `int`, `dec`, `inf`, `-inf`, `nan`, `true`, `false`, `bad` or `eof`."""
    start: int
    end: int


def _classify(m: re.Match[str]) -> str:
    kind = m.lastgroup or "bad"
    text = m.group(0)
    if kind == "punct":
        return text
    if kind == "ident":
        return _KEYWORDS.get(text, "bad")
    if kind == "int":
        value = int(text)
        return "int" if _INT64_MIN <= value <= _UINT64_MAX else "bad"
    if kind == "nan":
        return "nan" if _nan_payload(text) is not None else "bad"
    return {"neginf": "-inf", "pattern": "bad"}.get(kind, kind)


def _lex(text: str) -> Iterator[_Token]:
    """The tokens of `text` (lazily: a malformed literal fails at its first bad token), then
    an `eof` token forever."""
    for m in _TOKEN.finditer(text):
        if m.lastgroup != "ws":
            yield _Token(_classify(m), m.start(), m.end())
    while True:
        yield _Token("eof", len(text), len(text))


def _int64(text: str) -> int:
    """An integer token's value as XLA's lexer keeps it (int64, bit-cast from uint64)."""
    value = int(text)
    return value - 2**64 if value > 2**63 - 1 else value


def _nan_payload(text: str) -> int | None:
    """The double payload of `nan` / `-nan(0x...)` (None when XLA's lexer refuses it)."""
    body = text.removeprefix("-")[3:]
    if not body:
        return _DOUBLE_QUIET_PAYLOAD
    m = _NAN_PAYLOAD.fullmatch(body)
    if m is None:
        return None
    payload = int(m.group(1), 16) & _UINT64_MAX  # tsl's HexStringToUint64 wraps
    return payload if 0 < payload <= _DOUBLE_PAYLOAD_MASK else None


# --- element types ----------------------------------------------------------------------------

# name -> (mantissa bits, total bits) of the types with IEEE NaNs (a payload in the mantissa)
_FLOAT_LAYOUT = {
    "f16": (10, 16),
    "bf16": (7, 16),
    "f32": (23, 32),
    "f64": (52, 64),
    "f8e5m2": (2, 8),
    "f8e4m3": (3, 8),
    "f8e3m4": (4, 8),
}


def _nan_bits(negative: bool, payload: int, name: str) -> int | None:
    """XLA's NaN of `name` with the parsed double payload (None: it does not fit)."""
    if name not in _FLOAT_LAYOUT:  # one NaN encoding (fn/fnuz/e8m0) or none (f4/f6)
        if payload != _DOUBLE_QUIET_PAYLOAD:
            return None
        nan = np.array([-math.nan if negative else math.nan], np.float64)
        return int(_float_bits(nan, name)[0])
    mantissa, width = _FLOAT_LAYOUT[name]
    if payload == _DOUBLE_QUIET_PAYLOAD:
        payload = 1 << (mantissa - 1)
    if payload >= 1 << mantissa:
        return None
    exponent = ((1 << (width - 1 - mantissa)) - 1) << mantissa
    return (int(negative) << (width - 1)) | exponent | payload


def _float_bits(values: NDArray[np.float64], name: str) -> NDArray[np.unsignedinteger]:
    """The bits of `static_cast<T>(double)` per element, as XLA (Eigen, ml_dtypes) rounds: f32
    and f64 directly, f16 and bf16 through f32 (round to nearest even each time), the FP8/FP6/
    FP4 types directly (ml_dtypes)."""
    if name == "f64":
        return values.view(np.uint64)
    with np.errstate(over="ignore", invalid="ignore"):
        if name not in ("f16", "bf16", "f32"):
            exact = exact_dtype(ELEMENT_TYPES[name])
            return values.astype(exact).view(f"uint{exact.itemsize * 8}")
        f32 = values.astype(np.float32)
        if name == "f16":
            return f32.astype(np.float16).view(np.uint16)
    bits = f32.view(np.uint32)
    if name == "f32":
        return bits
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)
    return rounded.astype(np.uint16)


def _out_of_range(values: NDArray[np.float64], bits: NDArray[np.unsignedinteger], name: str):
    """Finite values whose element-type value is not finite (XLA: out of range)."""
    exact = exact_dtype(ELEMENT_TYPES[name])
    stored = np.ascontiguousarray(bits).view(exact).astype(np.float64)
    return np.isfinite(values) & ~np.isfinite(stored)


def _float_attr(
    t: TensorType[Attribute], values: NDArray[np.float64], nans: dict[int, int], name: str
) -> DenseIntOrFPElementsAttr:
    bits = _checked_bits(values, nans, name)
    packed = BytesAttr(bits.astype(bits.dtype.newbyteorder("<")).tobytes())
    return DenseIntOrFPElementsAttr(t, packed)  # pyright: ignore[reportArgumentType]


def _checked_bits(
    values: NDArray[np.float64], nans: dict[int, int], name: str, what: str = "literal value"
) -> NDArray[np.unsignedinteger]:
    bits = _float_bits(values, name)
    overflow = _out_of_range(values, bits, name)
    if overflow.any():
        bad = float(values[int(np.argmax(overflow))])
        raise AttrError(f"{what} {bad!r} is out of range for {name}")
    if nans:
        bits = bits.copy()
        bits[list(nans)] = list(nans.values())
    return bits


def _complex_attr(
    t: TensorType[Attribute], pairs: NDArray[np.float64], nans: dict[int, int], name: str
) -> DenseIntOrFPElementsAttr:
    """`pairs` holds real, imag, real, imag, ... (`nans` indexes that flat list)."""
    part = "f32" if name == "c64" else "f64"
    flat = pairs.reshape(-1)
    real = _checked_bits(flat[0::2].copy(), {}, part, f"real part of a {name} value")
    imag = _checked_bits(flat[1::2].copy(), {}, part, f"imaginary part of a {name} value")
    bits = np.empty(flat.size, real.dtype)
    bits[0::2], bits[1::2] = real, imag
    for index, nan in nans.items():
        bits[index] = nan
    packed = BytesAttr(bits.astype(bits.dtype.newbyteorder("<")).tobytes())
    return DenseIntOrFPElementsAttr(t, packed)  # pyright: ignore[reportArgumentType]


def _int_range(element: IntegerType) -> tuple[int, int]:
    width = element.width.data
    if element.signedness.data == Signedness.UNSIGNED:
        return 0, 2**width - 1
    return -(2 ** (width - 1)), 2 ** (width - 1) - 1


def _shape_text(name: str, dims: Sequence[int]) -> str:
    return f"{name}[{','.join(map(str, dims))}]"


# --- XLA's dense literal state machine --------------------------------------------------------


class _DenseParser:
    """One literal: nesting and element counts as `ParseDenseLiteral` checks them.

    XLA records some errors without stopping (a value at the wrong nesting depth, one value too
    many in a row) and reports them only if parsing fails later; `first` keeps the first one.
    """

    def __init__(self, text: str, t: TensorType[Attribute], name: str) -> None:
        self.text = text
        self.tokens = _lex(text)
        self.dims = tuple(t.get_shape())
        self.rank = len(self.dims)
        self.count = math.prod(self.dims)
        self.name = name
        self.shape = _shape_text(name, self.dims)
        self.element = t.element_type
        self.nest = 0
        self.seen = [0] * self.rank
        self.elided = False
        self.first: LiteralSyntaxError | None = None
        self.values: list[float] | list[int] = []
        """Element values in row-major order (XLA sets them one linear index after another)."""
        self.nans: dict[int, int] = {}

    def fail(self, message: str, token: _Token) -> LiteralSyntaxError:
        return self.first or LiteralSyntaxError(message, token.start)

    def value_error(self, message: str) -> AttrError:
        return self.first or AttrError(message)

    def note(self, message: str, token: _Token) -> None:
        if self.first is None:
            self.first = LiteralSyntaxError(message, token.start)

    def spelling(self, token: _Token) -> str:
        return repr(self.text[token.start : token.end][:20])

    def parse(self) -> None:
        handlers: dict[str, Callable[[_Token], None]] = {
            "{": self.open,
            "}": self.close,
            "...": self.dots,
            ",": lambda _: None,
        }
        while True:
            token = next(self.tokens)
            handler = handlers.get(token.kind)
            if handler is not None:
                handler(token)
            elif token.kind in ("int", "dec", "inf", "-inf", "nan", "true", "false"):
                self.value(token)
            elif token.kind == "(" and is_complex_type(self.element):
                self.complex_value(token)
            elif token.kind == "(":
                raise self.fail("'(' in a literal (parentheses are only for complex values)", token)
            elif token.kind == "eof":
                raise self.fail("the literal ends before its value is complete", token)
            else:
                raise self.fail(f"unexpected {self.spelling(token)} in a literal", token)
            if self.nest == 0:
                break
        rest = next(self.tokens)
        if rest.kind != "eof":
            raise self.fail(
                f"expected ')' after the constant literal, found {self.spelling(rest)}", rest
            )

    def open(self, token: _Token) -> None:
        self.nest += 1
        if self.nest > self.rank:
            raise self.fail(
                f"literal is nested deeper than the rank {self.rank} of {self.shape}", token
            )
        if self.nest > 1:
            dim = self.nest - 2
            self.seen[dim] += 1
            if self.seen[dim] > self.dims[dim]:
                raise self.fail(
                    f"{self.part(dim)} has more than {self.dims[dim]} rows "
                    f"(dimension {dim} of {self.shape})",
                    token,
                )

    def close(self, token: _Token) -> None:
        if self.nest == 0:
            raise self.fail("unexpected '}' in a literal", token)
        self.nest -= 1
        dim = self.nest
        got, want = self.seen[dim], self.dims[dim]
        if got != want:
            if self.rank == 1:
                raise self.fail(f"constant has {got} values, but its shape needs {want}", token)
            noun = "value" if dim == self.rank - 1 else "row"
            counted = f"{got} {noun}{'' if got == 1 else 's'}"
            raise self.fail(
                f"{self.part(dim)} has {counted}, but dimension {dim} of {self.shape} is {want}",
                token,
            )
        self.seen[dim] = 0

    def part(self, dim: int) -> str:
        if dim == 0:
            return "the constant"
        return f"constant element [{','.join(str(n - 1) for n in self.seen[:dim])}]"

    def dots(self, token: _Token) -> None:
        if self.nest != 1:
            raise self.fail(f"'...' must be at nesting depth 1, found at depth {self.nest}", token)
        self.seen[0] = self.dims[0]
        self.elided = True

    def count_element(self, token: _Token) -> None:
        """XLA's add_one_elem_seen: its errors do not stop the parse."""
        if self.rank == 0:
            return
        if self.nest != self.rank:
            self.note(f"value at nesting depth {self.nest} of a rank-{self.rank} literal", token)
            return
        self.seen[-1] += 1
        if self.seen[-1] > self.dims[-1]:
            self.note(f"more than {self.dims[-1]} values in a row of {self.shape}", token)

    def complex_value(self, token: _Token) -> None:
        """`(real, imag)`: each part a float of the complex type's part type."""
        self.count_element(token)
        parts: list[_Token] = []
        for expected in ("value", ",", "value", ")"):
            part = next(self.tokens)
            if expected == "value" and part.kind in ("int", "dec", "inf", "-inf", "nan"):
                parts.append(part)
            elif part.kind != expected:
                what = "a number" if expected == "value" else f"'{expected}'"
                raise self.fail(
                    f"expected {what} in a complex value, found {self.spelling(part)}", part
                )
        self.slot(token)
        for part in parts:
            self.store_float(part.kind, self.text[part.start : part.end], part, complex_part=True)

    def value(self, token: _Token) -> None:
        self.count_element(token)
        kind = token.kind
        spelled = self.text[token.start : token.end]
        if kind in ("true", "false") and not is_pred_type(self.element):
            raise self.fail(f"'{spelled}' is only valid in pred constants", token)
        if is_complex_type(self.element):
            raise self.fail(
                f"expected a complex value '(real, imag)' for {self.name}, got '{spelled}'", token
            )
        if is_float_type(self.element):
            self.store_float(kind, spelled, token)
        else:
            self.store_int(kind, spelled, token)

    def slot(self, token: _Token) -> int:
        index = len(self.values) // (2 if is_complex_type(self.element) else 1)
        if index >= self.count:
            raise self.fail(
                f"constant has more values than the {self.count} of {self.shape}", token
            )
        return index

    def store_int(self, kind: str, spelled: str, token: _Token) -> None:
        if kind in ("true", "false"):
            value = int(kind == "true")
        elif kind != "int":
            raise self.fail(f"expected an integer for {self.name}, got '{spelled}'", token)
        elif is_pred_type(self.element):
            value = int(_int64(spelled) != 0)
        else:
            value = self.in_range(_int64(spelled))
        self.slot(token)
        self.ints.append(value)

    def in_range(self, value: int) -> int:
        assert isinstance(self.element, IntegerType)
        low, high = _int_range(self.element)
        stored = value
        if self.element.signedness.data == Signedness.UNSIGNED and value < 0:
            stored += 2**64  # compared as uint64, like XLA
        if not low <= stored <= high:
            raise self.value_error(f"literal value {value} is out of range for {self.name}")
        return stored

    def store_float(
        self, kind: str, spelled: str, token: _Token, complex_part: bool = False
    ) -> None:
        """One float (or, with `complex_part`, one part of the complex element just counted:
        the parts are kept as consecutive floats)."""
        name = self.name
        if complex_part:
            name = "f32" if self.name == "c64" else "f64"
        if kind == "nan":
            payload = _nan_payload(spelled)
            assert payload is not None  # the lexer checked it
            bits = _nan_bits(spelled.startswith("-"), payload, name)
            index = len(self.values) if complex_part else self.slot(token)
            if bits is None:
                layout = _FLOAT_LAYOUT.get(name)
                largest = "none" if layout is None else f"0x{(1 << layout[0]) - 1:x}"
                raise self.value_error(
                    f"NaN payload 0x{payload:x} of element {index} does not fit {name} "
                    f"(largest payload {largest})"
                )
            self.floats.append(math.nan)
            self.nans[index] = bits
            return
        value = {"inf": math.inf, "-inf": -math.inf}.get(kind)
        if value is None:
            value = float(_int64(spelled)) if kind == "int" else float(spelled)
            if value == 0 and spelled.startswith("-"):
                value = -0.0  # XLA prints -0.0 as `-0` (and would read it back as +0)
            if math.isinf(value):
                raise self.value_error(f"literal value {spelled} is out of range for double")
        if not complex_part:
            self.slot(token)
        self.floats.append(value)

    @property
    def floats(self) -> list[float]:
        return self.values  # pyright: ignore[reportReturnType]

    @property
    def ints(self) -> list[int]:
        return self.values  # pyright: ignore[reportReturnType]

    def attr(self, t: TensorType[Attribute], zeros: bool = False) -> DenseIntOrFPElementsAttr:
        """The attribute (elements not given are zero; all of them with `zeros`)."""
        given = 0 if zeros else len(self.values)
        if is_complex_type(self.element):
            pairs = np.zeros(2 * self.count, np.float64)
            pairs[:given] = self.floats[:given]
            return _complex_attr(t, pairs, {} if zeros else self.nans, self.name)
        if is_float_type(self.element):
            floats = np.zeros(self.count, np.float64)
            floats[:given] = self.floats[:given]
            nans = {} if zeros else self.nans
            return _float_attr(t, floats, nans, self.name)
        ints = self.ints[:given] + [0] * (self.count - given)
        return DenseIntOrFPElementsAttr.from_list(t, ints)  # pyright: ignore[reportArgumentType, reportCallIssue]


# --- fast path: big plain literals ------------------------------------------------------------

_PLAIN_FLOAT = re.compile(r"[ \t\n\r{},0-9eE.+\-infa]*")
_PLAIN_INT = re.compile(r"[ \t\n\r{},0-9-]*")
_TO_SPACES = str.maketrans("{},", "   ")
_FAST_MIN_COUNT = 4096
_LONG_INTEGER = re.compile(r"(?<![0-9.eE])[0-9]{19,}(?![0-9.eE])")
_SEPARATOR = np.zeros(256, np.bool_)
_SEPARATOR[list(b" \t\n\r{},")] = True


def _skeleton(dims: Sequence[int]) -> str:
    """The braces of the literal of `dims` as XLA prints it (`{{}{}}` for [2,n])."""
    text = "{}"
    for d in reversed(dims[:-1]):
        text = "{" + text * d + "}"
    return text


def _plain_structure(raw: NDArray[np.uint8], dims: Sequence[int]) -> bool:
    """True when the braces are exactly those of `dims`, every row holds dims[-1] tokens and
    no token sits outside a row; '+' only follows an exponent and '.' never starts a token."""
    separator = _SEPARATOR[raw]
    previous = np.concatenate(([np.uint8(ord(" "))], raw[:-1]))
    if np.any((raw == ord("+")) & (previous != ord("e")) & (previous != ord("E"))):
        return False
    if np.any((raw == ord(".")) & np.concatenate(([True], separator[:-1]))):
        return False
    braces = np.flatnonzero((raw == ord("{")) | (raw == ord("}")))
    expected = np.frombuffer(_skeleton(dims).encode(), np.uint8)
    if not np.array_equal(raw[braces], expected):
        return False
    starts = np.flatnonzero(~separator & np.concatenate(([True], separator[:-1])))
    per_gap = np.bincount(np.searchsorted(braces, starts), minlength=braces.size + 1)
    wanted = np.zeros(braces.size + 1, np.int64)
    rows = np.flatnonzero((expected[:-1] == ord("{")) & (expected[1:] == ord("}")))
    wanted[rows + 1] = dims[-1]
    return bool(np.array_equal(per_gap, wanted))


def _fast_values(body: str, dtype: type[np.generic], count: int) -> NDArray[Any] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            values = np.fromstring(body.translate(_TO_SPACES), dtype=dtype, sep=" ")
    except (ValueError, DeprecationWarning):
        return None
    return values if values.size == count else None


def _fast_literal(
    body: str, t: TensorType[Attribute], count: int
) -> DenseIntOrFPElementsAttr | None:
    """Vectorised parse of a big plain constant (a 50 MB literal in seconds, not minutes); None
    whenever anything is unusual, so the exact slow path (and its messages) decides."""
    element = t.element_type
    is_int = isinstance(element, IntegerType) and 8 <= element.width.data <= 32
    if count < _FAST_MIN_COUNT or not (is_int or is_float_type(element)):
        return None
    plain = _PLAIN_INT if is_int else _PLAIN_FLOAT
    if plain.fullmatch(body) is None:
        return None
    raw = np.frombuffer(body.encode("ascii"), np.uint8)
    if not _plain_structure(raw, t.get_shape()):
        return None
    if isinstance(element, IntegerType):
        values = _fast_values(body, np.int64, count)
        low, high = _int_range(element)
        if values is None or values.min() < low or values.max() > high:
            return None
        unsigned = element.signedness.data == Signedness.UNSIGNED
        packed = values.astype(f"<{'u' if unsigned else 'i'}{element.width.data // 8}").tobytes()
        return DenseIntOrFPElementsAttr(t, BytesAttr(packed))  # pyright: ignore[reportArgumentType]
    specials = _special_tokens(raw)
    floats = _fast_values(body, np.float64, count)
    if specials is None or floats is None:
        return None
    finite = np.isfinite(floats)
    infs, nan_signs = specials
    if np.isinf(floats).sum() != infs or floats.size - finite.sum() != infs + nan_signs.size:
        return None  # a finite token beyond double (XLA refuses it)
    if np.any(np.abs(floats[finite]) >= 2.0**63) and _LONG_INTEGER.search(body):
        return None  # integer tokens beyond int64 (XLA wraps them)
    name = element_type_name(element)
    if _out_of_range(floats, _float_bits(floats, name), name).any():
        return None
    nans = np.flatnonzero(np.isnan(floats)).tolist()
    quiet = {
        i: _nan_bits(bool(negative), _DOUBLE_QUIET_PAYLOAD, name)
        for i, negative in zip(nans, nan_signs.tolist(), strict=True)
    }
    return _float_attr(t, floats, quiet, name)  # pyright: ignore[reportArgumentType]


def _special_tokens(raw: NDArray[np.uint8]) -> tuple[int, NDArray[np.bool_]] | None:
    """(number of `inf` tokens, the sign of each `nan` token in order) when every letter other
    than an exponent's e/E is part of a whole `inf`, `-inf`, `nan` or `-nan` token; else None
    (numpy's parser drops the sign of `-nan`, XLA keeps it)."""
    letters = (raw >= ord("a")) & (raw <= ord("z")) & (raw != ord("e"))
    if not letters.any():
        return 0, np.zeros(0, np.bool_)
    size = raw.size
    spans = np.zeros(size, np.bool_)
    found: list[NDArray[np.bool_]] = []
    for word in (b"inf", b"nan"):
        at = np.ones(size - 2, np.bool_)
        for k, ch in enumerate(word):
            at &= raw[k : size - 2 + k] == ch
        starts = np.flatnonzero(at)
        for k in range(3):
            spans[starts + k] = True
        before = np.where(starts > 0, raw[np.maximum(starts - 1, 0)], ord(" "))
        after = np.where(starts + 3 < size, raw[np.minimum(starts + 3, size - 1)], ord(" "))
        if not (_SEPARATOR[before] | (before == ord("-"))).all() or not _SEPARATOR[after].all():
            return None
        found.append(before == ord("-"))
    if np.any(letters & ~spans):
        return None
    return int(found[0].size), found[1]


# --- entry point ------------------------------------------------------------------------------


def split_tuple_literal(payload: str) -> list[tuple[str, int]]:
    """The element texts of a tuple literal `( e0, e1, ... )` with their offsets in `payload`
    (elements are array literals or nested tuple literals, split at top-level commas)."""
    start = len(payload) - len(payload.lstrip())
    end = len(payload.rstrip())
    if start >= end or payload[start] != "(" or payload[end - 1] != ")":
        raise LiteralSyntaxError("a tuple constant is written '( element, ... )'", start)
    parts: list[tuple[str, int]] = []
    depth = 0
    begin = start + 1
    for i in range(start + 1, end - 1):
        ch = payload[i]
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
            if depth < 0:
                raise LiteralSyntaxError(f"unbalanced '{ch}' in the tuple constant", i)
        elif ch == "," and depth == 0:
            parts.append((payload[begin:i], begin))
            begin = i + 1
    if depth != 0:
        raise LiteralSyntaxError("unbalanced brackets in the tuple constant", end - 1)
    last = payload[begin : end - 1]
    if last.strip() or parts:
        parts.append((last, begin))
    return parts


def parse_literal(
    payload: str, t: Attribute, allow_elided: bool = False
) -> DenseIntOrFPElementsAttr:
    """Build the constant value for tensor type `t` from the literal text."""
    if not isinstance(t, TensorType):
        raise AttrError(f"constants of type {t} are not supported (only array literals)")
    element = t.element_type
    if not (is_float_type(element) or is_complex_type(element) or isinstance(element, IntegerType)):
        raise AttrError(f"unsupported constant element type {element}")
    fast = _fast_literal(payload, t, math.prod(t.get_shape()))
    if fast is not None:
        return fast
    parser = _DenseParser(payload, t, element_type_name(element))
    parser.parse()
    try:
        value = parser.attr(t)
        if not parser.elided:
            return value
        if not allow_elided:
            raise AttrError(
                "constant value is elided ('{...}'); re-dump with print_large_constants=True "
                "or pass --allow-elided-constants"
            )
        return parser.attr(t, zeros=True)
    except MemoryError:
        raise AttrError(f"constant {parser.shape} is too large to build") from None
