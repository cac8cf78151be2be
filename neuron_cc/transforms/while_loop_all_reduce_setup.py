"""The setup rewrites of neuron-while-loop-all-reduce-code-motion (`run-setup-passes=true`).

Not a pass of its own: two `RewritePattern`s that `run_setup` applies, in one walk, to the ops
directly in a loop body before the legality checks, so that more accumulations have the
canonical `add(C(x), buffer)` shape:

- `convert(AR(x))` -> `AR(convert(x))` for an all_reduce whose only use is the convert (the
  reduction region is rebuilt at the converted element type), like XLA's
  ReorderConvertReduceAdd. Not when the operand is itself a convert from the target type
  (`convert(AR(convert(y)))` back to y's type): that all-reduce keeps its narrow type.
- `transpose(convert*(RS(x)))` -> `convert*(RS(transpose(x)))` with the scatter dimension moved
  along (XLA's ReorderReduceTranspose; converts are elementwise, so they commute with the
  transpose).

Where we differ from XLA: a reduce_scatter is never widened by a convert (XLA reorders
`convert(RS(x))` too). The motion accumulates through the convert instead and the moved
reduce_scatter keeps its element type (docs/decisions.md §6.3): widening it changes the roundings and
doubles the bytes it moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Block, Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint

from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.builders import build_reduction_region
from neuron_cc.dialects.hlo.collectives import AllReduceOp, ReduceScatterOp
from neuron_cc.dialects.hlo.data_movement import TransposeOp
from neuron_cc.dialects.hlo.elementwise_misc import ConvertOp
from neuron_cc.dialects.hlo.types import is_float_type
from neuron_cc.dialects.op_classes import of_class


def _only_user(op: Operation) -> Operation | None:
    uses = list(op.results[0].uses)
    return uses[0].operation if len(uses) == 1 else None


def _sink_convert(op: AllReduceOp, rewriter: PatternRewriter) -> bool:
    convert = _only_user(op)
    if not isinstance(convert, ConvertOp) or len(op.operands) != 1:
        return False
    target = convert.result.type
    operand = op.operands[0]
    if not isinstance(target, TensorType) or not isinstance(operand.type, TensorType):
        return False
    element = target.element_type
    if not (is_float_type(element) and is_float_type(operand.type.element_type)):
        return False  # only float -> float converts commute (approximately) with a sum
    source = operand.owner
    if isinstance(source, ConvertOp):
        if source.operand.type.element_type == element:  # pyright: ignore[reportAttributeAccessIssue]
            return False  # converted back to its own source type: keep the narrow all-reduce
    kind = reduction_kind(op.to_apply)
    if kind is None:
        return False
    wide_in = ConvertOp.create(
        operands=[operand], result_types=[TensorType(element, operand.type.get_shape())]
    )
    moved = type(op).create(
        operands=[wide_in.results[0]],
        result_types=[target],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[build_reduction_region(kind, element)],
    )
    rewriter.insert([wide_in, moved], InsertPoint.before(op))
    rewriter.replace_all_uses_with(convert.result, moved.results[0])
    moved.results[0].name_hint = op.results[0].name_hint
    rewriter.erase(convert)
    rewriter.erase(op)
    return True


def _transpose_through_converts(op: ReduceScatterOp) -> tuple[list[ConvertOp], TransposeOp] | None:
    """(converts, transpose) when `op`'s single-use chain is convert* then a transpose."""
    converts: list[ConvertOp] = []
    user = _only_user(op)
    while isinstance(user, ConvertOp):
        converts.append(user)
        user = _only_user(user)
    return (converts, user) if isinstance(user, TransposeOp) else None


def _sink_transpose(op: ReduceScatterOp, rewriter: PatternRewriter) -> bool:
    found = _transpose_through_converts(op)
    if found is None or len(op.operands) != 1:
        return False
    converts, transpose = found
    perm = transpose.permutation.data
    operand = op.operands[0]
    shape = operand.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    element = operand.type.element_type  # pyright: ignore[reportAttributeAccessIssue]
    moved_in = TransposeOp.create(
        operands=[operand],
        result_types=[TensorType(element, [shape[p] for p in perm])],
        properties={"permutation": DimensionsAttr(perm)},
    )
    dim = op.scatter_dimension.value.data
    props = dict(op.properties)
    props["scatter_dimension"] = IntegerAttr(perm.index(dim), 64)
    out_shape = transpose.result.type.get_shape()
    moved = ReduceScatterOp.create(
        operands=[moved_in.results[0]],
        result_types=[TensorType(op.results[0].type.element_type, out_shape)],  # pyright: ignore[reportAttributeAccessIssue]
        properties=props,
        attributes=dict(op.attributes),
        regions=[op.to_apply.clone()],
    )
    rewriter.insert([moved_in, moved], InsertPoint.before(op))
    value = moved.results[0]
    for convert in converts:
        element_out = convert.result.type.element_type
        new = ConvertOp.create(operands=[value], result_types=[TensorType(element_out, out_shape)])
        rewriter.insert(new, InsertPoint.before(op))
        value = new.results[0]
    rewriter.replace_all_uses_with(transpose.result, value)
    moved.results[0].name_hint = op.results[0].name_hint
    rewriter.erase(transpose)
    for convert in reversed(converts):
        rewriter.erase(convert)
    rewriter.erase(op)
    return True


@dataclass
class SinkConvertIntoAllReduce(RewritePattern):
    """`convert(AR(x))` -> `AR(convert(x))` for an all_reduce directly in `body`."""

    body: Block

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, AllReduceOp) and op.parent is self.body:
            _sink_convert(op, rewriter)


@dataclass
class SinkTransposeIntoReduceScatter(RewritePattern):
    """`transpose(convert*(RS(x)))` -> `convert*(RS(transpose(x)))` directly in `body`."""

    body: Block

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, ReduceScatterOp) and op.parent is self.body:
            _sink_transpose(op, rewriter)


def run_setup(body: Block, enable_reduce_scatter: bool) -> None:
    """Apply the setup patterns to every op directly in `body`, once each, in program order.

    Not a `PatternRewriteWalker`: the walker would also visit the nested loops, which the
    motion has already processed (innermost first), making the pass quadratic in the nesting
    depth; the ops a rewrite erases (later users) are skipped."""
    patterns: list[RewritePattern] = [SinkConvertIntoAllReduce(body)]
    if enable_reduce_scatter:
        patterns.append(SinkTransposeIntoReduceScatter(body))
    applier = GreedyRewritePatternApplier(patterns, dce_enabled=False)  # dead users matter
    kinds = (AllReduceOp, ReduceScatterOp) if enable_reduce_scatter else (AllReduceOp,)
    for op in of_class(body.ops, kinds):  # what the patterns match
        if op.parent is body and _may_rewrite(op):
            applier.match_and_rewrite(op, PatternRewriter(op))


def _may_rewrite(op: Operation) -> bool:
    """What both patterns check first: the collective's only user is a convert (or, for a
    reduce-scatter, a transpose). Asked before a rewriter is built for the op: most
    collectives of a loop body feed an accumulation and match neither pattern."""
    result = op.results[0]
    if not result.has_one_use():
        return False
    first = result.first_use
    return first is not None and isinstance(first.operation, ConvertOp | TransposeOp)
