"""Threshold flags: `flag' = flag | (C(x) > t)` carried as a running maximum of C's operand.

A helper of neuron-while-loop-all-reduce-code-motion (not a pass of its own). JAX's "did any
device ever see ..." flags inside a scan, `any_ = any_ | (lax.pmax(c, axis) > 0)`, become

```
flag' = or(flag, compare(all_reduce_max(x), t, GT))      flag: pred[...], slot k
```

which is not an accumulation of the all-reduce: the compare sits between it and the `or`. For
a monotone threshold predicate g (g(y) = y > t, y >= t, y < t or y <= t with t a constant) over
a totally ordered element type (integers: no NaN), g distributes over the lattice reducers:

    g non-decreasing:  g(max(a, b)) = g(a) | g(b)     g(min(a, b)) = g(a) & g(b)
    g non-increasing:  g(max(a, b)) = g(a) & g(b)     g(min(a, b)) = g(a) | g(b)

so when the flag's combine `@` (or / and) is the one the table pairs with the all-reduce's
reducer `r` (max / min) and g's direction, the loop computes

    flag_T = flag_0 @ g(y_1) @ ... @ g(y_T) = flag_0 @ g(r(y_1, ..., y_T))      (y_t = C(x_t))

The rewrite carries `m = r(y_1, ..., y_T)` in slot k instead of the flag, from r's identity e
(so the slot's type becomes C's), and computes `flag_0 @ g(m)` after the loop. For T = 0 that
is `flag_0 @ g(e)`, equal to `flag_0` exactly when g(e) is `@`'s identity (false for or, true
for and): checked on the constants (e.g. `INT_MIN > t` is always false, `INT_MIN >= t` is false
unless t = INT_MIN). The body then reads `m' = r(m, C(x))`: the ordinary accumulation with the
reducer's own operator that the motion moves out of the loop (one all-reduce after it). The
rewrite is done only when that motion will happen: the all-reduce's single use is the compare,
the compare's is the combine, whose other operand is slot k's only read, returned at slot k
alone, and the loop condition does not read slot k. Upstream XLA has no such rewrite.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from neuron_cc.analysis.accumulation import NotMovable, identity_value, slot_of
from neuron_cc.analysis.induction import constant_int
from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.analysis.while_loops import ReadIndex, condition_reads_slot, erase_if_dead
from neuron_cc.dialects.hlo.attributes import ComparisonDirection, ComparisonType
from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, ReturnOp, TupleOp, WhileOp
from neuron_cc.dialects.hlo.elementwise import AndOp, MaximumOp, MinimumOp, OrOp
from neuron_cc.dialects.hlo.elementwise_misc import CompareOp
from neuron_cc.dialects.hlo.types import is_integer_type, is_pred_type, is_unsigned_type
from neuron_cc.dialects.value_edits import replace_values
from neuron_cc.transforms.loop_slots import (
    init_slots,
    replace_loop_result,
    retype_root,
    retype_slots,
    splat_buffer,
)

_FLIPPED = {
    ComparisonDirection.GT: ComparisonDirection.LT,
    ComparisonDirection.GE: ComparisonDirection.LE,
    ComparisonDirection.LT: ComparisonDirection.GT,
    ComparisonDirection.LE: ComparisonDirection.GE,
}
_TESTS: dict[ComparisonDirection, Callable[[int, int], bool]] = {
    ComparisonDirection.GT: operator.gt,
    ComparisonDirection.GE: operator.ge,
    ComparisonDirection.LT: operator.lt,
    ComparisonDirection.LE: operator.le,
}
_INCREASING = (ComparisonDirection.GT, ComparisonDirection.GE)
_REDUCERS: dict[str, type[MaximumOp | MinimumOp]] = {
    "hlo.maximum": MaximumOp,
    "hlo.minimum": MinimumOp,
}
_PAIRED = {  # (reducer, g non-decreasing) -> the flag combine g turns the reducer into
    ("hlo.maximum", True): OrOp,
    ("hlo.maximum", False): AndOp,
    ("hlo.minimum", True): AndOp,
    ("hlo.minimum", False): OrOp,
}


@dataclass
class Flag:
    """`flag' = flag @ (C(x) <direction> threshold)` at slot `slot` of a loop."""

    collective: AllReduceOp
    compare: CompareOp
    combine: OrOp | AndOp
    read: GetTupleElementOp
    slot: int
    kind: str
    """C's reducer (hlo.maximum or hlo.minimum)."""
    direction: ComparisonDirection
    """The compare with C's value on the left-hand side."""
    threshold: SSAValue


def find_flag(op: AllReduceOp, loop: WhileOp, index: ReadIndex | None = None) -> Flag | None:
    """The threshold flag `op` feeds in `loop`'s body, if the rewrite applies (module doc)."""
    try:
        return check_flag(op, loop, index)
    except NotMovable:
        return None


def check_flag(op: AllReduceOp, loop: WhileOp, index: ReadIndex | None = None) -> Flag:
    """The threshold flag `op` feeds, or NotMovable with the rule it breaks. `index`: the
    loop's reads, indexed once for all the flags of an unchanged loop."""
    kind = reduction_kind(op.regions[0])
    element = _element(op.results[0])
    compare = _single_user(op.results[0])
    if not isinstance(compare, CompareOp) or kind not in _REDUCERS:
        raise NotMovable("unsupported operation on the collective's result: compare")
    if element is None or not _ordered_integer(element):
        raise NotMovable(
            "a compare of the collective's result is moved only for a maximum/minimum "
            "reduction of integers (a float max/min propagates NaN, which no threshold orders)"
        )
    if not _default_order(compare, element):
        raise NotMovable("the compare does not order integers as the reduction does")
    value = op.results[0]
    direction = compare.direction.data
    threshold = compare.rhs if compare.lhs is value else compare.lhs
    if compare.rhs is value:
        direction = _FLIPPED.get(direction, direction)
    t = constant_int(threshold)
    if direction not in _TESTS or threshold is value or t is None:
        raise NotMovable(
            "the compare of the collective's result is not a threshold (GT/GE/LT/LE against "
            "a constant)"
        )
    combine = _single_user(compare.result)
    expected = _PAIRED[(kind, direction in _INCREASING)]
    if not isinstance(combine, expected):
        raise NotMovable(
            f"a {kind[4:]} through a {direction} threshold distributes over "
            f"{expected.name[4:]}, but the flag is combined with "
            f"{combine.name[4:] if combine else 'several ops'}"
        )
    e = identity_value(kind, element)
    if not isinstance(e, int) or _TESTS[direction](e, t) != isinstance(combine, AndOp):
        raise NotMovable(
            f"the threshold holds for the {kind[4:]} identity {e}: a loop of no iterations "
            "would change the flag"
        )
    read = _flag_read(combine, compare.result, loop, index or ReadIndex())
    slot = read.index.value.data
    return Flag(op, compare, combine, read, slot, kind, direction, threshold)


def _element(value: SSAValue) -> Attribute | None:
    t = value.type
    return t.element_type if isinstance(t, TensorType) else None


def _ordered_integer(element: Attribute) -> bool:
    return is_integer_type(element) and not is_pred_type(element)


def _default_order(compare: CompareOp, element: Attribute) -> bool:
    """The compare orders integers as max/min do (signed or unsigned by the element type)."""
    default = ComparisonType.UNSIGNED if is_unsigned_type(element) else ComparisonType.SIGNED
    return compare.effective_compare_type() == default


def _single_user(value: SSAValue) -> Operation | None:
    uses = list(value.uses)
    return uses[0].operation if len(uses) == 1 else None


def _flag_read(
    combine: OrOp | AndOp, term: SSAValue, loop: WhileOp, index: ReadIndex
) -> GetTupleElementOp:
    """The slot read `combine` combines `term` with: read once, returned at its slot only."""
    body = loop.body.blocks[0]
    other = combine.rhs if combine.lhs is term else combine.lhs
    slot = slot_of(other, body.args[0])
    if slot is None or other is term or not isinstance(other.owner, GetTupleElementOp):
        raise NotMovable("the threshold flag is not combined with a loop-carried flag")
    param = index.of(body.args[0])
    reads = [u.operation for u in param.other_uses] + list(param.by_slot.get(slot, []))
    if reads != [other.owner] or _single_user(other) is not combine:
        raise NotMovable(f"the loop-carried flag (slot {slot}) has other readers in the body")
    last = body.last_op
    root = last.operands[0].owner if isinstance(last, ReturnOp) and last.operands else None
    returned = index.positions(root, combine.result) if isinstance(root, TupleOp) else []
    if returned != [slot] or _single_user(combine.result) is not root:
        raise NotMovable(f"the updated flag is not returned at tuple index {slot} alone")
    if condition_reads_slot(loop, slot, index):
        raise NotMovable("the threshold flag is read by the loop condition")
    return other.owner


def apply_flags(loop: WhileOp, flags: list[Flag]) -> None:
    """Carry `r(m, C(x))` in each flag's slot and compute `flag_0 @ g(m)` after the loop: one
    new init tuple, one re-typing of the slots and one rebuilt loop result for all the flags
    (their slots are distinct; each was found on the loop as it was before any of them)."""
    old_uses = list(loop.result.uses)
    slots = init_slots(loop)
    new_slots = list(slots)
    types: dict[int, TensorType[Attribute]] = {}
    created: list[Operation] = []
    for flag in flags:
        value_type = flag.collective.results[0].type
        assert isinstance(value_type, TensorType)
        types[flag.slot] = value_type
        identity = splat_buffer(value_type, _identity(flag))
        created += identity
        new_slots[flag.slot] = identity[-1].results[0]
    init = TupleOp(new_slots)
    Rewriter.insert_op([*created, init], InsertPoint.before(loop))
    old_init = loop.init.owner
    loop.operands[0] = init.result
    retype_slots(loop, types)
    running: list[tuple[SSAValue, SSAValue]] = []
    for flag in flags:
        op = _REDUCERS[flag.kind].create(
            operands=[flag.read.result, flag.collective.results[0]],
            result_types=[types[flag.slot]],
        )
        Rewriter.insert_op(op, InsertPoint.before(flag.combine))
        running.append((flag.combine.result, op.results[0]))
    replace_values(running)  # the body's root tuple reads every flag: rebuilt once
    for flag in flags:
        threshold_owner = flag.threshold.owner
        Rewriter.erase_op(flag.combine)
        Rewriter.erase_op(flag.compare)
        if isinstance(threshold_owner, Operation):
            erase_if_dead(threshold_owner)
    retype_root(loop)
    after: list[Operation] = []
    finals: dict[int, SSAValue] = {}
    for flag in flags:
        ops = _after_loop(loop, flag, slots[flag.slot], types[flag.slot])
        after += ops
        finals[flag.slot] = ops[-1].results[0]
    replace_loop_result(loop, finals, after, old_uses)
    if isinstance(old_init, Operation):
        erase_if_dead(old_init)


def _identity(flag: Flag) -> int:
    e = identity_value(flag.kind, _element(flag.collective.results[0]) or flag.read.result.type)
    assert isinstance(e, int)
    return e


def _after_loop(
    loop: WhileOp, flag: Flag, flag_init: SSAValue, value_type: TensorType[Attribute]
) -> list[Operation]:
    """gte(loop, k) -> compare with the threshold -> combine with the initial flag."""
    read = GetTupleElementOp(loop.result, flag.slot)
    t = constant_int(flag.threshold)
    assert t is not None
    threshold = splat_buffer(value_type, t)
    compare = CompareOp(flag.direction, read.result, threshold[-1].results[0])
    combine = type(flag.combine).create(
        operands=[flag_init, compare.result], result_types=[flag_init.type]
    )
    return [read, *threshold, compare, combine]
