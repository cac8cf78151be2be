"""Fixes and speed-ups of xDSL 0.75 that HLO programs need (installed on import of hlo).

1. Speed: xDSL 0.75's `AttrParser._parse_dense_literal_type` rebuilds the constraint
`base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])` on EVERY `dense<...>`
literal (about 2 ms each): on a 10,000-op module with ~800 constants that is a fifth of the parse
time. We build that constraint once and keep the method's behaviour and messages otherwise
unchanged.
2. Bug: `dense<0x7F800000> : tensor<f32>` (how xDSL itself prints inf/nan and some integral
   floats) was read back as the INTEGER 2139095040 converted to float. A hexadecimal element of
   a float dense literal is now its bit pattern, as in MLIR.
3. Bug: `DenseIntOrFPElementsAttr.is_splat` compared values with `==`, so `{-0.0, 0.0}` printed
   as the splat `dense<-0.0>`. It now compares the stored bytes (also much faster).
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ComplexType,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    RankedStructure,
)
from xdsl.irdl import base
from xdsl.parser.attribute_parser import AttrParser

_DENSE_LITERAL_TYPE = base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])


def _parse_dense_literal_type(self: AttrParser) -> Any:
    t = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
    if not _DENSE_LITERAL_TYPE.verifies(t):
        self.raise_error(
            "Expected memref, vector or tensor type of integer, index, float, or complex type"
        )
    if any(dim == DYNAMIC_INDEX for dim in t.get_shape()):
        self.raise_error("Dense literal attribute should have a static shape.")
    return t


_element_to_type = AttrParser._TensorLiteralElement.to_type  # pyright: ignore[reportPrivateUsage]


def _to_type(self: Any, parser: AttrParser, type: Any) -> Any:
    text = self.span.text.lstrip("-")
    if isinstance(type, AnyFloat) and text[:2] in ("0x", "0X") and isinstance(self.value, int):
        raw = int(text, 16)
        if raw.bit_length() > type.bitwidth:
            parser.raise_error("Hexadecimal float constant out of range for type", self.span)
        return next(type.iter_unpack(raw.to_bytes(type.compile_time_size, "little")))
    return _element_to_type(self, parser, type)


def _is_splat(self: DenseIntOrFPElementsAttr) -> bool:
    data = self.data.data
    size = self.type.element_type.compile_time_size
    return len(data) <= size or data == data[:size] * (len(data) // size)


def install() -> None:
    """Install the fixes (idempotent)."""
    AttrParser._parse_dense_literal_type = _parse_dense_literal_type  # pyright: ignore[reportAttributeAccessIssue]
    AttrParser._TensorLiteralElement.to_type = _to_type  # pyright: ignore[reportAttributeAccessIssue, reportPrivateUsage]
    DenseIntOrFPElementsAttr.is_splat = _is_splat
