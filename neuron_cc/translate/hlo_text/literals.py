"""HLO literal text (`constant(...)` payloads) -> `DenseIntOrFPElementsAttr`.

Accepts scalars (`1.5`, `-inf`, `nan`, `true`), nested arrays (`{ {1, 2}, {3, 4} }`), pred
as `true/false` or `1/0`, and every supported element type. The elided form `{...}` (printed
by XLA without `print_large_constants`) is an error unless the caller allows it, in which
case the constant becomes zeros.
"""

from __future__ import annotations

import math
import re

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, TensorType
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.types import is_float_type, is_pred_type
from neuron_cc.translate.hlo_text.attrs import AttrError

_VALUE = re.compile(
    r"-?(?:inf|nan)(?:\([^)]*\))?|true|false|[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
)
_STRUCTURE = re.compile(r"[{},\s]")


def _float(token: str) -> float:
    if token.endswith(")"):  # nan(0x7fc00000)-style payloads
        token = token[: token.index("(")]
    if token in ("nan", "-nan"):
        return math.nan
    return float(token)


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
        tokens = _VALUE.findall(body)
        leftover = _STRUCTURE.sub("", _VALUE.sub("", body))
        if leftover:
            raise AttrError(f"malformed literal near '{leftover[:20]}'")
    if len(tokens) != count:
        raise AttrError(f"constant has {len(tokens)} values, but its shape needs {count}")
    element = t.element_type
    if is_float_type(element):
        floats = [_float(tok) for tok in tokens]
        return DenseIntOrFPElementsAttr.from_list(t, floats)  # pyright: ignore[reportArgumentType]
    if isinstance(element, IntegerType):
        pred = is_pred_type(element)
        return DenseIntOrFPElementsAttr.from_list(t, [_int(tok, pred) for tok in tokens])  # pyright: ignore[reportArgumentType]
    raise AttrError(f"unsupported constant element type {element}")
