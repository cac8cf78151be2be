"""HLO literal text (`constant(...)` payloads) -> `DenseIntOrFPElementsAttr`.

Accepts scalars (`1.5`, `-inf`, `nan`, `true`), nested arrays (`{ {1, 2}, {3, 4} }`), pred
as `true/false` or `1/0`, and every supported element type. The elided form `{...}` (printed
by XLA without `print_large_constants`) is an error unless the caller allows it, in which
case the constant becomes zeros.
"""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.types import element_type_name, is_float_type, is_pred_type
from neuron_cc.translate.hlo_text.attrs import AttrError

_VALUE = re.compile(
    r"-?(?:inf|nan)(?:\([^)]*\))?|true|false|[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
)
_STRUCTURE = re.compile(r"[{},\s]")


def _float(token: str) -> float:
    if token.endswith(")"):  # nan(0x7fc00000)-style payloads
        token = token[: token.index("(")]
    if token == "nan":
        return math.nan
    if token == "-nan":
        return -math.nan
    return float(token)


_FLOAT_MAX = {"f16": 65504.0, "bf16": 3.3895313892515355e38, "f32": 3.4028234663852886e38}


def _check_float(value: float, token: str, name: str) -> float:
    limit = _FLOAT_MAX.get(name)
    if math.isinf(value) and "inf" not in token:
        raise AttrError(f"literal value {token} is out of range for {name}")
    if limit is not None and math.isfinite(value) and abs(value) > limit:
        # XLA rounds values within half an ulp of the maximum; beyond that it is out of range.
        if abs(value) >= limit * (1 + 2.0**-24 if name == "f32" else 1 + 2.0**-11):
            raise AttrError(f"literal value {token} is out of range for {name}")
    return value


def _check_int(value: int, token: str, element: IntegerType) -> int:
    width = element.width.data
    if element.signedness.data == Signedness.UNSIGNED:
        low, high = 0, 2**width - 1
    else:
        low, high = -(2 ** (width - 1)), 2 ** (width - 1) - 1
    if not low <= value <= high:
        raise AttrError(f"literal value {token} is out of range for {element_type_name(element)}")
    return value


def _int(token: str, pred: bool) -> int:
    if token == "true":
        return 1
    if token == "false":
        return 0
    if pred and token not in ("0", "1"):
        raise AttrError(f"pred literal value must be true/false or 1/0, got '{token}'")
    try:
        return int(token)
    except ValueError:
        raise AttrError(f"expected an integer literal, got '{token}'") from None


# Plain decimal numbers only (no inf/nan/true/false): the vectorised path below applies.
_PLAIN = re.compile(r"[\s{},0-9eE.+-]*")
_TO_SPACES = str.maketrans("{},", "   ")
_FAST_MIN_COUNT = 4096


def _fast_literal(
    body: str, t: TensorType[Attribute], count: int
) -> DenseIntOrFPElementsAttr | None:
    """Vectorised parse of a big plain f32/f64/int constant (a 50 MB literal in seconds, not
    minutes); None whenever anything is unusual, so the exact slow path (and its messages)
    decides."""
    element = t.element_type
    if isinstance(element, Float32Type | Float64Type):
        dtype, limit = np.dtype(np.float64), _FLOAT_MAX.get(element_type_name(element))
    elif isinstance(element, IntegerType) and 1 < element.width.data <= 32:
        dtype, limit = np.dtype(np.int64), None
    else:
        return None
    if count < _FAST_MIN_COUNT or _PLAIN.fullmatch(body) is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            values = np.fromstring(body.translate(_TO_SPACES), dtype=dtype, sep=" ")
    except (ValueError, DeprecationWarning):
        return None
    if values.size != count:
        return None
    if isinstance(element, IntegerType):
        width = element.width.data
        unsigned = element.signedness.data == Signedness.UNSIGNED
        low, high = (0, 2**width - 1) if unsigned else (-(2 ** (width - 1)), 2 ** (width - 1) - 1)
        if values.min() < low or values.max() > high:
            return None
        packed = values.astype(f"<{'u' if unsigned else 'i'}{width // 8}").tobytes()
    else:
        if not np.isfinite(values).all() or (limit is not None and np.abs(values).max() > limit):
            return None
        packed = values.astype("<f4" if isinstance(element, Float32Type) else "<f8").tobytes()
    return DenseIntOrFPElementsAttr(t, BytesAttr(packed))  # pyright: ignore[reportArgumentType]


def parse_literal(
    payload: str, t: Attribute, allow_elided: bool = False
) -> DenseIntOrFPElementsAttr:
    """Build the constant value for tensor type `t` from the literal text."""
    if not isinstance(t, TensorType):
        raise AttrError(f"constants of type {t} are not supported (only array literals)")
    shape = t.get_shape()
    count = math.prod(shape)
    body = payload.strip()
    if body == "{...}":
        if not allow_elided:
            raise AttrError(
                "constant value is elided ('{...}'); re-dump with print_large_constants=True "
                "or pass --allow-elided-constants"
            )
        tokens = ["0"] * count
    else:
        fast = _fast_literal(body, t, count)
        if fast is not None:
            return fast
        tokens = _VALUE.findall(body)
        leftover = _STRUCTURE.sub("", _VALUE.sub("", body))
        if leftover:
            raise AttrError(f"malformed literal near '{leftover[:20]}'")
    if len(tokens) != count:
        raise AttrError(f"constant has {len(tokens)} values, but its shape needs {count}")
    element = t.element_type
    if is_float_type(element):
        name = element_type_name(element)
        floats = [_check_float(_float(tok), tok, name) for tok in tokens]
        return DenseIntOrFPElementsAttr.from_list(t, floats)  # pyright: ignore[reportArgumentType]
    if isinstance(element, IntegerType):
        pred = is_pred_type(element)
        if pred:
            return DenseIntOrFPElementsAttr.from_list(t, [_int(tok, pred) for tok in tokens])  # pyright: ignore[reportArgumentType]
        ints = [_check_int(_int(tok, pred), tok, element) for tok in tokens]
        return DenseIntOrFPElementsAttr.from_list(t, ints)  # pyright: ignore[reportArgumentType]
    raise AttrError(f"unsupported constant element type {element}")
