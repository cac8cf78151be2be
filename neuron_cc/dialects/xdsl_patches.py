"""Every change neuron-cc makes to xDSL itself, in one place, for the pinned xDSL only.

`install()` is called once, by `neuron_cc/dialects/__init__.py` (so before any dialect module of
ours is defined or any IR is parsed). It refuses, with `XdslVersionError`, to patch any xDSL but
`PINNED_XDSL`: each patch replaces a private method whose code is only known for that version.
`unpatched()` restores xDSL's originals for the length of a `with` block; the tests in
tests/test_xdsl_patches.py use it to show that each bug still exists upstream (each test fails
the day xDSL fixes its bug, and then the patch can be deleted).

The patches (`PATCHES`):

1. Speed: xDSL 0.75's `AttrParser._parse_dense_literal_type` rebuilds the constraint
   `base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])` on EVERY
   `dense<...>` literal (about 2 ms each): on a 10,000-op module with ~800 constants that is a
   fifth of the parse time. We build that constraint once and keep the method's behaviour and
   messages otherwise unchanged.
2. Bug: `dense<0x7F800000> : tensor<f32>` (how xDSL itself prints inf/nan and some integral
   floats) was read back as the INTEGER 2139095040 converted to float. A hexadecimal element of
   a float dense literal is now its bit pattern, as in MLIR.
3. Bug: `DenseIntOrFPElementsAttr.is_splat` compared values with `==`, so `{-0.0, 0.0}` printed
   as the splat `dense<-0.0>`. It now compares the stored bytes (also much faster).
4. Bug: a NaN or infinity of an FP8/FP6/FP4 type was printed by re-encoding the decoded Python
   float (`dense<0x7f>` for f8E4M3FN 0xff: sign and payload lost), and a complex element with a
   non-finite part as `(0x7fc00000,...)`, which xDSL's own parser rejects. A dense attribute of
   such an element type that holds a non-finite value is now printed in xDSL's exact
   hexadecimal form `dense<"0x...">` (the raw little-endian bytes, which the parser reads
   back bit for bit); every other attribute prints as before.
5. Speed: `Operation.walk` is a chain of nested generators (op -> region -> block -> op ...), so
   every op it yields passes through three frames per level of nesting: walking n ops nested d
   deep costs n * d (a program of 40 nested loops walks 25x slower than 4 for 10x the ops). The
   walk is now one generator with an explicit stack of its blocks' op iterators, for every
   `reverse=` / `region_first=` combination (the pattern rewriter walks in reverse): same order,
   linear, and as lazy as xDSL's (an op's successor is read only after its subtree).

Not a patch of xDSL: `verify_cache.py` memoises the verification of our own op definitions.
"""

from __future__ import annotations

import importlib.metadata
import math
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ComplexType,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    RankedStructure,
    ReducedPrecisionFloatType,
)
from xdsl.ir import Operation
from xdsl.irdl import base
from xdsl.parser.attribute_parser import AttrParser
from xdsl.printer import Printer

PINNED_XDSL = "0.75.0"
"""The one xDSL version these patches are written for (pyproject pins it exactly)."""


class XdslVersionError(ImportError):
    """The installed xDSL is not the one neuron-cc's patches are written for."""


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


_TensorLiteralElement = AttrParser._TensorLiteralElement
_element_to_type: Callable[..., Any] = _TensorLiteralElement.to_type


def _to_type(self: Any, parser: AttrParser, type: Any) -> Any:
    text = self.span.text.lstrip("-")
    if isinstance(type, AnyFloat) and text[:2] in ("0x", "0X") and isinstance(self.value, int):
        raw = int(text, 16)
        if raw.bit_length() > type.bitwidth:
            parser.raise_error("Hexadecimal float constant out of range for type", self.span)
        return next(type.iter_unpack(raw.to_bytes(type.compile_time_size, "little")))
    return _element_to_type(self, parser, type)


_print_without_type: Callable[..., Any] = DenseIntOrFPElementsAttr.print_without_type


def _non_finite(dense: DenseIntOrFPElementsAttr) -> bool:
    t = dense.get_element_type()
    if isinstance(t, ComplexType):
        return any(not math.isfinite(part) for v in dense.get_values() for part in v)  # pyright: ignore[reportGeneralTypeIssues]
    if isinstance(t, ReducedPrecisionFloatType):
        return any(not math.isfinite(v) for v in dense.get_values())  # pyright: ignore[reportArgumentType]
    return False


def _print_dense(self: DenseIntOrFPElementsAttr, printer: Printer) -> None:
    if len(self) == 0 or not _non_finite(self):
        _print_without_type(self, printer)
        return
    printer.print_string(f'dense<"0x{self.data.data.hex().upper()}">')


def _is_splat(self: DenseIntOrFPElementsAttr) -> bool:
    data = self.data.data
    size = self.type.element_type.compile_time_size
    return len(data) <= size or data == data[:size] * (len(data) // size)


def _children(op: Operation, reverse: bool) -> Iterator[Operation]:
    """The ops directly in `op`'s regions, in xDSL's walk order (lazily, like xDSL)."""
    for region in reversed(op.regions) if reverse else op.regions:
        for block in reversed(region.blocks) if reverse else region.blocks:
            yield from reversed(block.ops) if reverse else block.ops


def _walk(
    self: Operation, *, reverse: bool = False, region_first: bool = False
) -> Iterator[Operation]:
    """xDSL's `Operation.walk` (same order for every flag), one generator with a stack."""
    if not region_first:
        yield self
    stack = [(self, _children(self, reverse))]
    while stack:
        holder, children = stack[-1]
        op = next(children, None)
        if op is None:
            stack.pop()
            if region_first:
                yield holder
            continue
        if not region_first:
            yield op
        if op.regions:
            stack.append((op, _children(op, reverse)))
        elif region_first:
            yield op


@dataclass(frozen=True)
class Patch:
    """`owner.attribute = replacement`, and why."""

    name: str
    owner: type
    attribute: str
    replacement: Callable[..., Any]


PATCHES = (
    Patch("dense-literal-type-built-once", AttrParser, "_parse_dense_literal_type",
          _parse_dense_literal_type),
    Patch("hex-float-dense-elements", _TensorLiteralElement, "to_type", _to_type),
    Patch("is-splat-compares-bytes", DenseIntOrFPElementsAttr, "is_splat", _is_splat),
    Patch("narrow-float-complex-non-finite-print", DenseIntOrFPElementsAttr,
          "print_without_type", _print_dense),
    Patch("walk-linear-in-nesting", Operation, "walk", _walk),
)  # fmt: skip

_ORIGINALS: dict[str, Any] = {p.name: vars(p.owner)[p.attribute] for p in PATCHES}
"""xDSL's own definitions, as they were when this module was imported."""


def installed_xdsl() -> str:
    """The version of the installed xDSL distribution."""
    return importlib.metadata.version("xdsl")


def check_version(version: str | None = None) -> None:
    """Raise `XdslVersionError` unless `version` (default: the installed one) is the pinned one."""
    found = installed_xdsl() if version is None else version
    if found != PINNED_XDSL:
        raise XdslVersionError(
            f"neuron-cc patches xDSL {PINNED_XDSL} (neuron_cc/dialects/xdsl_patches.py) and "
            f"refuses to patch xdsl {found}: install the pinned version "
            f"(pip install 'xdsl=={PINNED_XDSL}', or `make venv`)"
        )


def _apply(values: dict[str, Any]) -> None:
    for patch in PATCHES:
        setattr(patch.owner, patch.attribute, values[patch.name])


def install() -> None:
    """Check the xDSL version, then install every patch (idempotent)."""
    check_version()
    _apply({p.name: p.replacement for p in PATCHES})


def is_installed() -> bool:
    """Whether every patch is in place."""
    return all(vars(p.owner)[p.attribute] is p.replacement for p in PATCHES)


@contextmanager
def unpatched() -> Generator[None]:
    """xDSL's own definitions within the block (for tests of the upstream bugs)."""
    was_installed = is_installed()
    _apply(_ORIGINALS)
    try:
        yield
    finally:
        if was_installed:
            _apply({p.name: p.replacement for p in PATCHES})
