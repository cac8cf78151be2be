"""legalize-ccops-for-tensorizer: give every operand of a variadic collective one element type.

The device's collective engine needs all buffers of one collective to share a dtype. For every
all_gather / all_reduce / reduce_scatter with several operands whose element types differ (in
EVERY function and nested region), the operands are converted to one promoted type, the
collective is rebuilt at that type (same groups, channel id, flags, dimension; a reduction
region of the same kind at the promoted type) and each result is converted back where it was
up-cast:

```mlir
%r = hlo.all_reduce(%a, %b) ... : (tensor<4xf32>, tensor<4xbf16>) -> tuple<tensor<4xf32>, tensor<4xbf16>>
// becomes
%1 = hlo.convert %b : tensor<4xbf16> -> tensor<4xf32>
%2 = hlo.all_reduce(%a, %1) ... : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
%3 = hlo.get_tuple_element %2[0] ...
%4 = hlo.get_tuple_element %2[1] ...
%5 = hlo.convert %4 : tensor<4xf32> -> tensor<4xbf16>
%6 = hlo.tuple %3, %5 : tuple<tensor<4xf32>, tensor<4xbf16>>
```

Promotion rule (default, exact): the promoted type is the FIRST type of `PROMOTION_ORDER`

    pred, u8, s8, u16, s16, f16, bf16, u32, s32, f32, u64, s64, f64

(by bit width; within a width unsigned, signed, then floats, so that a tie is resolved as
XLA / NumPy promotion would: u8 + s8 -> s16, not f16 or bf16) to which EVERY operand's element
type converts exactly (`neuron_cc.analysis.update_slices.exact_conversion`: every value
survives the convert and the convert back):

| operand element types | promoted to | why |
|---|---|---|
| one type represents the others, e.g. f32 + bf16, s8 + pred, s16 + u8, f32 + s16 | that type (f32, s8, s16, f32) | already exact |
| bf16 + s32, f32 + s32, f16 + u32 | f64 | f32 has 24 significand bits, f64 53 |
| f16 + s16, f16 + bf16, bf16 + u16 | f32 | f16 has 11 significand bits and bf16 8 (too few for 16-bit ints); neither float holds the other |
| signed + unsigned ints, e.g. s32 + u32, s8 + u8 | the signed int of twice the unsigned width (s64, s16) | the narrowest type representing both |
| s64 + u64, u64 + any signed int (s8..s64), s64 or u64 + any float (f16..f64) | not rewritten (remark naming the types) | no supported type represents both (f64 has 53 significand bits) |

An operand of a float type can only go to a float (a float -> int convert truncates), so a
float operand makes the promoted type the narrowest float holding every operand.

Semantics of the rebuilt collective (default rule): an all_gather, and a maximum / minimum
reduction, are bit-identical to the original (the converts are exact and monotonic). A sum or
product rebuilt at a wider type rounds ONCE, on the convert back, instead of after every
device step: for floats the result can differ from the original in the last bits (it is the
more accurate one; f16 2048 + 1 + 1 + 1 gives 2052 instead of 2048); an integer sum / product
at a wider int wraps to the same values (a pred sum, i.e. `or`, at s8: below 256 devices); an
integer sum / product at a float type (s32 in f64) equals the original whenever the exact
result fits the operand's own type, and where the original overflows (and wraps) the convert
back saturates instead. An and / or / xor reducer is not rebuilt at a float type (remark):
bitwise reductions at a wider int are exact.

`lossy-widest-bitwidth=true` restores the reference's rule instead (docs/decisions.md §6.5): the widest
bit width wins, a same-width tie prefers the float (f32 + s32 -> f32, bf16 + s16 -> bf16),
f16 + bf16 -> f32, a same-width signed + unsigned pair goes to the signed int of twice the
width, s64 + u64 is refused. It is LOSSY: bf16 + s32 -> s32 truncates the bf16 values (-3.671875
becomes -3, even in an all_gather, which only moves data), f32 + s32 -> f32 rounds integers
above 2**24, s64 + f32 -> s64 truncates fractions. For every collective it rebuilds at a type
that does not represent all operand types it prints
`warning: legalize-ccops-for-tensorizer: lossy-widest-bitwidth: %r is rebuilt at s32, which
does not represent bf16 exactly: values are rounded or truncated`.

New ops carry no name hints. When anything was up-cast, exactly one further warning (the
reference's, `WARNING`) is printed to stderr; a collective whose reduction region is not a
simple add / multiply / maximum / minimum / and / or / xor is left unchanged with a remark
(the reference has no such regions to handle).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis.entry import find_entry
from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.analysis.update_slices import exact_conversion
from neuron_cc.dialects.hlo.builders import build_reduction_region
from neuron_cc.dialects.hlo.collectives import AllGatherOp, AllReduceOp, ReduceScatterOp
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, TupleOp
from neuron_cc.dialects.hlo.elementwise_misc import ConvertOp
from neuron_cc.dialects.hlo.types import element_type_name, is_float_type, tuple_type

PASS_NAME = "legalize-ccops-for-tensorizer"
WARNING = (
    "We up-casted some collective-communication ops to ensure that all operands have the same "
    "type. This may result in a performance penalty."
)
CANDIDATES = (AllGatherOp, AllReduceOp, ReduceScatterOp)
_BITWISE = frozenset({"hlo.and", "hlo.or", "hlo.xor"})
_UNSIGNED = Signedness.UNSIGNED

PROMOTION_ORDER: tuple[Attribute, ...] = (
    IntegerType(1),
    IntegerType(8, _UNSIGNED),
    IntegerType(8),
    IntegerType(16, _UNSIGNED),
    IntegerType(16),
    Float16Type(),
    BFloat16Type(),
    IntegerType(32, _UNSIGNED),
    IntegerType(32),
    Float32Type(),
    IntegerType(64, _UNSIGNED),
    IntegerType(64),
    Float64Type(),
)
"""The supported element types in the order the exact rule tries them (module docstring)."""


def bit_width(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    return getattr(t, "bitwidth", 0)


def exact_promoted_type(types: Sequence[Attribute]) -> Attribute | None:
    """The first type of `PROMOTION_ORDER` every type of `types` converts to exactly (None:
    no supported type represents them all)."""
    return next(
        (c for c in PROMOTION_ORDER if all(exact_conversion(t, c) for t in types)),
        None,
    )


def widest_bit_width_type(types: Sequence[Attribute]) -> Attribute | None:
    """The reference's lossy rule (`lossy-widest-bitwidth=true`, module docstring)."""
    widest = max(bit_width(t) for t in types)
    tied = list(dict.fromkeys(t for t in types if bit_width(t) == widest))
    if len(tied) == 1:
        return tied[0]
    floats = [t for t in tied if is_float_type(t)]
    if len(floats) == 1:
        return floats[0]
    if floats:
        return Float32Type()  # f16 + bf16
    if widest >= 64:
        return None
    return IntegerType(2 * widest, Signedness.SIGNLESS)


def promoted_type(types: Sequence[Attribute], lossy: bool = False) -> Attribute | None:
    """The common element type of `types`: exact by default, the reference's with `lossy`."""
    return widest_bit_width_type(types) if lossy else exact_promoted_type(types)


def _with_element(t: Attribute, element: Attribute) -> TensorType[Attribute]:
    if not isinstance(t, TensorType):
        raise ValueError(f"expected a tensor type, got {t}")
    return TensorType(element, t.get_shape())


def _element(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, TensorType) else t


def _convert(value: SSAValue, to: Attribute) -> ConvertOp:
    return ConvertOp.create(operands=[value], result_types=[to])


def _display_name(op: Operation) -> str:
    hint = op.results[0].name_hint
    return f"%{hint}" if hint else f"'{op.name}'"


def _remark(op: Operation, why: str) -> None:
    print(f"remark: {PASS_NAME}: {_display_name(op)} not legalized: {why}", file=sys.stderr)


def _names(types: Sequence[Attribute]) -> str:
    return ", ".join(sorted({element_type_name(t) for t in types}))


def _precision_warning(op: Operation, elements: Sequence[Attribute], wide: Attribute) -> None:
    """The lossy option's warning for a collective rebuilt at a type losing some values."""
    lost = [e for e in elements if not exact_conversion(e, wide)]
    if lost:
        print(
            f"warning: {PASS_NAME}: lossy-widest-bitwidth: {_display_name(op)} is rebuilt at "
            f"{element_type_name(wide)}, which does not represent {_names(lost)} exactly: "
            "values are rounded or truncated",
            file=sys.stderr,
        )


def _regions(op: Operation, wide: Attribute) -> list[Region] | None:
    """The reduction region at `wide` (none for an all_gather); None (with a remark) when the
    reducer cannot be rebuilt there."""
    if not op.regions:
        return []
    kind = reduction_kind(op.regions[0])
    if kind is None:
        _remark(op, "its reduction region is not a simple elementwise reducer")
        return None
    if kind in _BITWISE and is_float_type(wide):
        _remark(op, f"a {kind[4:]} reduction cannot run at {element_type_name(wide)}")
        return None
    return [build_reduction_region(kind, wide)]


def _rebuild(
    op: Operation, result: TupleType, wide: Attribute, regions: list[Region]
) -> list[Operation]:
    """Converts, the collective at `wide`, converts back and the tuple (last) replacing `op`."""
    before: list[Operation] = []
    operands: list[SSAValue] = []
    elements = [_element(v.type) for v in op.operands]
    for value, element in zip(op.operands, elements, strict=True):
        if element == wide:
            operands.append(value)
        else:
            up = _convert(value, _with_element(value.type, wide))
            before.append(up)
            operands.append(up.results[0])
    wide_results = tuple_type([_with_element(t, wide) for t in result.types.data])
    rebuilt = type(op).create(
        operands=operands,
        result_types=[wide_results],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=regions,
    )
    after: list[Operation] = []
    parts: list[SSAValue] = []
    for i, (original, element) in enumerate(zip(result.types.data, elements, strict=True)):
        get = GetTupleElementOp(rebuilt, i)
        after.append(get)
        part = get.result
        if element != wide:
            down = _convert(part, original)
            after.append(down)
            part = down.results[0]
        parts.append(part)
    return [*before, rebuilt, *after, TupleOp(parts)]


def legalized(op: Operation, result: TupleType, lossy: bool = False) -> list[Operation] | None:
    """The ops replacing one mixed-type collective (the tuple last); None, with a remark, when
    it cannot be rewritten."""
    elements = [_element(v.type) for v in op.operands]
    wide = promoted_type(elements, lossy)
    if wide is None:
        _remark(op, f"no supported type represents {_names(elements)} exactly")
        return None
    regions = _regions(op, wide)
    if regions is None:
        return None
    if lossy:
        _precision_warning(op, elements, wide)
    return _rebuild(op, result, wide, regions)


@dataclass
class LegalizeMixedCollective(RewritePattern):
    """Rewrites one variadic collective whose operands have different element types."""

    lossy: bool = False
    changed: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, CANDIDATES):
            return
        result = _mixed(op)
        if result is None:
            return
        new_ops = legalized(op, result, self.lossy)
        if new_ops is None:
            return
        # The rewritten ops stay unnamed: without its name the replaced op passes none on.
        op.results[0].name_hint = None
        rewriter.replace(op, new_ops, [new_ops[-1].results[0]])
        self.changed = True


def _mixed(op: Operation) -> TupleType | None:
    result = op.results[0].type
    if len(op.operands) < 2 or not isinstance(result, TupleType):
        return None
    if len({_element(v.type) for v in op.operands}) < 2:
        return None
    return result


@dataclass(frozen=True)
class LegalizeCcopsForTensorizerPass(ModulePass):
    """Up-cast the operands of mixed-type variadic collectives to one element type."""

    name = "legalize-ccops-for-tensorizer"

    lossy_widest_bitwidth: bool = False
    """The reference's lossy "widest bit width wins" rule instead of the exact one."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if find_entry(op) is None:
            raise PassFailedException("module has no entry computation")
        pattern = LegalizeMixedCollective(self.lossy_widest_bitwidth)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
        if pattern.changed:
            print(f"warning: {WARNING}", file=sys.stderr)
