"""Result shapes of instructions written without one (`i = get-tuple-element(p), index=0`),
as XLA's parser infers them from the operands (its ShapeInference).

Covered: elementwise unary and binary ops (same shape as the operands), `is-finite` and
`compare` (pred), `select` and `clamp` (the value operands' shape), `tuple`,
`get-tuple-element`, `while`, `copy`, `optimization-barrier`, `reduce-precision`,
`all-reduce` (one operand: its shape; several: their tuple), `collective-permute`,
`dynamic-update-slice`, `transpose` and `dot`. Any other opcode needs its shape written (XLA
cannot infer `broadcast`, `constant`, `parameter`, `convert`, ... either): `AttrError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.types import tensor_type, tuple_elements, tuple_type
from neuron_cc.translate.hlo_text.attrs import AttrError, integer, ints

__all__ = ["infer_shape"]

_SAME_AS_FIRST = frozenset(
    {
        # unary
        "abs", "negate", "exponential", "exponential-minus-one", "log", "log-plus-one", "sqrt",
        "rsqrt", "cbrt", "tanh", "logistic", "sine", "cosine", "tan", "floor", "ceil",
        "round-nearest-afz", "round-nearest-even", "sign", "not", "popcnt",
        "count-leading-zeros", "erf", "copy", "reduce-precision", "collective-permute",
        "dynamic-update-slice", "while",
        # binary
        "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power",
        "atan2", "and", "or", "xor", "shift-left", "shift-right-arithmetic",
        "shift-right-logical",
    }
)  # fmt: skip
_SAME_AS_SECOND = frozenset({"select", "clamp"})
_PRED = IntegerType(1)

Rule = Callable[[Sequence[Attribute], Mapping[str, str]], Attribute]


def _pred_like(operands: Sequence[Attribute], attrs: Mapping[str, str]) -> Attribute:
    return TensorType(_PRED, tensor_type(operands[0]).get_shape())


def _tuple(operands: Sequence[Attribute], attrs: Mapping[str, str]) -> Attribute:
    return tuple_type(operands)


def _one_or_tuple(operands: Sequence[Attribute], attrs: Mapping[str, str]) -> Attribute:
    return operands[0] if len(operands) == 1 else tuple_type(operands)


def _get_tuple_element(operands: Sequence[Attribute], attrs: Mapping[str, str]) -> Attribute:
    elements = tuple_elements(operands[0])
    index = integer(_attr(attrs, "index"))
    if not 0 <= index < len(elements):
        raise AttrError(f"index {index} is out of range for a tuple of {len(elements)}")
    return elements[index]


def _transpose(operands: Sequence[Attribute], attrs: Mapping[str, str]) -> Attribute:
    t = tensor_type(operands[0])
    shape = t.get_shape()
    permutation = ints(_attr(attrs, "dimensions"))
    if sorted(permutation) != list(range(len(shape))):
        raise AttrError(f"dimensions {list(permutation)} are not a permutation of {len(shape)}")
    return TensorType(t.element_type, [shape[d] for d in permutation])


def _dot(operands: Sequence[Attribute], attrs: Mapping[str, str]) -> Attribute:
    lhs, rhs = tensor_type(operands[0]), tensor_type(operands[1])
    lhs_shape, rhs_shape = lhs.get_shape(), rhs.get_shape()

    def dims(key: str) -> tuple[int, ...]:
        return ints(attrs[key]) if key in attrs else ()

    lhs_batch, rhs_batch = dims("lhs_batch_dims"), dims("rhs_batch_dims")
    lhs_free = [
        d for d in range(len(lhs_shape)) if d not in (*lhs_batch, *dims("lhs_contracting_dims"))
    ]
    rhs_free = [
        d for d in range(len(rhs_shape)) if d not in (*rhs_batch, *dims("rhs_contracting_dims"))
    ]
    result = [lhs_shape[d] for d in lhs_batch] + [lhs_shape[d] for d in lhs_free]
    return TensorType(lhs.element_type, result + [rhs_shape[d] for d in rhs_free])


def _attr(attrs: Mapping[str, str], key: str) -> str:
    raw = attrs.get(key)
    if raw is None:
        raise AttrError(f"needs attribute '{key}'")
    return raw


_RULES: dict[str, Rule] = {
    "compare": _pred_like,
    "is-finite": _pred_like,
    "tuple": _tuple,
    "all-reduce": _one_or_tuple,
    "optimization-barrier": _one_or_tuple,
    "get-tuple-element": _get_tuple_element,
    "transpose": _transpose,
    "dot": _dot,
}


def infer_shape(opcode: str, operands: Sequence[Attribute], attrs: Mapping[str, str]) -> Attribute:
    """The result type of `opcode` on operands of types `operands`; `AttrError` if XLA's
    parser would need the shape written (or the operands do not fit)."""
    if opcode in _SAME_AS_FIRST and operands:
        return operands[0]
    if opcode in _SAME_AS_SECOND and len(operands) == 3:
        return operands[1]
    rule = _RULES.get(opcode)
    if rule is None or (not operands and opcode != "tuple"):
        raise AttrError(f"the result shape of '{opcode}' cannot be inferred: write it")
    try:
        return rule(operands, attrs)
    except VerifyException as e:
        raise AttrError(f"cannot infer the result shape of '{opcode}': {e}") from None
