"""Behaviour-preserving speed-ups of xDSL 0.75 hot paths that our workloads hit.

xDSL 0.75's `AttrParser._parse_dense_literal_type` rebuilds the constraint
`base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])` on EVERY `dense<...>`
literal (about 2 ms each): on a 10,000-op module with ~800 constants that is a fifth of the parse
time. We build that constraint once and keep the method's behaviour and messages otherwise
unchanged. Applied once, on import of the hlo dialect.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ComplexType,
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


def install() -> None:
    """Install the speed-ups (idempotent)."""
    AttrParser._parse_dense_literal_type = _parse_dense_literal_type  # pyright: ignore[reportAttributeAccessIssue]
