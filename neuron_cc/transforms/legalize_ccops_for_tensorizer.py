"""legalize-ccops-for-tensorizer: give every operand of a variadic collective one element type.

The device's collective engine needs all buffers of one collective to share a dtype. For every
all_gather / all_reduce / reduce_scatter with several operands whose element types differ (in
EVERY function and nested region), the operands are converted to one wide type, the collective
is rebuilt at that type (same groups, channel id, flags, dimension; a reduction region of the
same kind at the wide type) and each result is converted back where it was up-cast:

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

Promotion rule (DESIGN §6.5):

| operand element types | promoted to | why |
|---|---|---|
| different bit widths, e.g. f32 + bf16, s64 + f32, s8 + pred | the widest (f32, s64, s8) | widest bit width wins |
| same width, one float, e.g. f32 + s32, bf16 + s16 | the float (f32, bf16) | a tie prefers float over int |
| f16 + bf16 | f32 | neither represents the other exactly |
| same-width signed + unsigned ints, e.g. s32 + u32 | the signed int of twice the width (s64) | the narrowest type representing both |
| s64 + u64 | not rewritten (remark) | no supported type represents both |

The up-cast is exact between floats and from narrower to wider ints, but an int promoted to a
float of the same or smaller width rounds (s32 -> f32 above 2**24, s16 -> bf16 above 2**8) and
a float promoted to an int truncates (f32 in s64), as in the reference. An and/or/xor reducer
is not rebuilt at a float type (remark). New ops carry no name hints. When anything was up-cast, exactly one warning is
printed to stderr; a collective whose reduction region is not a simple add / multiply /
maximum / minimum / and / or / xor is left unchanged with a remark (the reference has no such
regions to handle).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    Float32Type,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from neuron_cc.analysis.collective_candidates import collect
from neuron_cc.analysis.reductions import build_reduction_region, reduction_kind
from neuron_cc.dialects.hlo.collectives import AllGatherOp, AllReduceOp, ReduceScatterOp
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, TupleOp
from neuron_cc.dialects.hlo.elementwise_misc import ConvertOp
from neuron_cc.dialects.hlo.types import element_type_name, is_float_type, tuple_type

WARNING = (
    "We up-casted some collective-communication ops to ensure that all operands have the same "
    "type. This may result in a performance penalty."
)
CANDIDATES = (AllGatherOp, AllReduceOp, ReduceScatterOp)
_BITWISE = frozenset({"hlo.and", "hlo.or", "hlo.xor"})


def bit_width(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    return getattr(t, "bitwidth", 0)


def promoted_type(types: Sequence[Attribute]) -> Attribute | None:
    """The common element type of `types` by the rule in the module docstring (None: none)."""
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


def _with_element(t: Attribute, element: Attribute) -> TensorType[Attribute]:
    if not isinstance(t, TensorType):
        raise ValueError(f"expected a tensor type, got {t}")
    return TensorType(element, t.get_shape())


def _element(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, TensorType) else t


def _convert(value: SSAValue, to: Attribute) -> ConvertOp:
    return ConvertOp.create(operands=[value], result_types=[to])


def _remark(op: Operation, why: str) -> None:
    hint = op.results[0].name_hint
    name = f"%{hint}" if hint else f"'{op.name}'"
    print(f"remark: legalize-ccops-for-tensorizer: {name} not legalized: {why}", file=sys.stderr)


def legalize(op: Operation, result: TupleType) -> bool:
    """Rewrite one mixed-type collective; False (with a remark) when it cannot."""
    elements = [_element(v.type) for v in op.operands]
    wide = promoted_type(elements)
    if wide is None:
        _remark(
            op,
            f"no type represents {', '.join(sorted({element_type_name(e) for e in elements}))} exactly",
        )
        return False
    regions: list[Region] = []
    if op.regions:
        kind = reduction_kind(op.regions[0])
        if kind is None:
            _remark(op, "its reduction region is not a simple elementwise reducer")
            return False
        if kind in _BITWISE and is_float_type(wide):
            _remark(op, f"a {kind[4:]} reduction cannot run at {element_type_name(wide)}")
            return False
        regions = [build_reduction_region(kind, wide)]
    before: list[Operation] = []
    operands: list[SSAValue] = []
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
    tup = TupleOp(parts)
    Rewriter.insert_op([*before, rebuilt, *after, tup], InsertPoint.before(op))
    Rewriter.replace_op(op, [], [tup.result])
    tup.result.name_hint = None  # replace_op would carry the old name over
    return True


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

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        candidates = collect(op, CANDIDATES, entry_only=False)
        changed = False
        for collective in candidates:
            result = _mixed(collective)
            if result is not None and legalize(collective, result):
                changed = True
        if changed:
            print(f"warning: {WARNING}", file=sys.stderr)
