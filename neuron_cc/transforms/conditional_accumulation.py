"""Accumulations inside a `hlo.conditional` of a loop body, split so the loop motion sees them.

A helper of neuron-while-loop-all-reduce-code-motion (not a pass of its own). JAX's
`lax.cond(p, lambda: acc + psum(g), lambda: acc)` inside a scan becomes a conditional whose
branches either return the carried buffer `acc` unchanged or `acc @ C(x)` for an all-reduce C
with reducer `@` (add, multiply, maximum, ...). When the branch index is the same on every
device of C's groups, the conditional is rewritten as

```
acc' = acc @ C'(t)      t = conditional(...) whose branches return x (was acc @ C(x))
                                           or the identity e of @ (was acc)
```

Exact per iteration: a taken accumulating branch gives `acc @ C(x)`; a passthrough branch
gives `acc @ C(e) = acc @ e = acc` (C of the identity is the identity; for add, `-0.0 + 0.0`
is `+0.0`, the one difference, as XLA's own `x + 0` simplification ignores). Every device of a
group takes the same branch, so C' combines the same values C did. The buffer `acc` is then
`acc @ C'(t)` in the loop body: the ordinary accumulation the motion moves out of the loop.
The split is done only when that motion will happen: the buffer is slot k of the loop, read
only by the conditional's operands and not by the loop condition, and returned at slot k.
Upstream XLA has no such rewrite (its pass leaves collectives in conditionals alone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from neuron_cc.analysis.accumulation import COMBINERS, NotMovable, slot_of
from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.analysis.while_loops import (
    ReadIndex,
    condition_reads_slot,
    erase_if_dead,
)
from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.dialects.hlo.control_flow import (
    ConditionalOp,
    GetTupleElementOp,
    ReturnOp,
    TupleOp,
    WhileOp,
)
from neuron_cc.dialects.value_edits import OperandEdits


@dataclass
class _Branch:
    """What branch `index` returns at the accumulated position."""

    index: int
    returned: SSAValue
    all_reduce: AllReduceOp | None = None
    combine: Operation | None = None
    local: SSAValue | None = None
    reads: list[Operation] = field(default_factory=list[Operation])


@dataclass
class _Split:
    conditional: ConditionalOp
    position: int | None
    """The conditional's tuple element (None: its whole, non-tuple result)."""
    slot: int
    kind: str
    branches: list[_Branch]
    buffer: SSAValue
    """The body's get_tuple_element of the slot (the carried buffer)."""
    value: SSAValue
    """What the body reads of the conditional: its first get_tuple_element of `position`
    (or its result)."""


def _outer_source(
    value: SSAValue, region: Region, operand: SSAValue
) -> tuple[SSAValue, list[Operation]] | None:
    """The value outside the conditional that `value` (in `region`) forwards, with the
    get_tuple_element ops on the way: the branch argument is `operand`; `gte(v, e)` of a
    forwarded `hlo.tuple` is that tuple's element e."""
    reads: list[Operation] = []
    path: list[int] = []
    while isinstance(value.owner, GetTupleElementOp):
        reads.append(value.owner)
        path.append(value.owner.index.value.data)
        value = value.owner.tuple_
    if value is not region.block.args[0]:
        return None
    outer = operand
    for e in reversed(path):
        owner = outer.owner
        if not isinstance(owner, TupleOp):
            return None
        outer = owner.elements[e]
    return outer, reads


def _returned(region: Region, position: int | None) -> SSAValue | None:
    last = region.block.last_op
    if not isinstance(last, ReturnOp) or len(last.operands) != 1:
        return None
    value = last.operands[0]
    if position is None:
        return value
    owner = value.owner
    return owner.elements[position] if isinstance(owner, TupleOp) else None


def _branch(
    k: int, cond: ConditionalOp, position: int | None, buffer: SSAValue
) -> tuple[_Branch, str | None]:
    """The branch's shape (passthrough or accumulate) and the accumulating reducer kind."""
    region, operand = cond.branches[k], cond.branch_operands[k]
    returned = _returned(region, position)
    if returned is None:
        raise NotMovable("a branch does not return the accumulated value")
    source = _outer_source(returned, region, operand)
    if source is not None and source[0] is buffer:
        return _Branch(k, returned, reads=source[1]), None
    combine = returned.owner
    if not isinstance(combine, Operation) or len(combine.operands) != 2:
        raise NotMovable("a branch neither returns the buffer nor accumulates into it")
    for lhs, rhs in (combine.operands, tuple(reversed(combine.operands))):
        found = _outer_source(lhs, region, operand)
        ar = rhs.owner
        if found is None or found[0] is not buffer or not isinstance(ar, AllReduceOp):
            continue
        kind = reduction_kind(ar.to_apply)
        if kind is None or COMBINERS.get(kind) is not type(combine):
            raise NotMovable("a branch combines an all-reduce with another operation")
        if len(list(ar.results[0].uses)) != 1 or len(ar.operands) != 1:
            raise NotMovable("the branch's all-reduce has other uses")
        return _Branch(k, returned, ar, combine, ar.operands[0], found[1]), kind
    raise NotMovable("a branch neither returns the buffer nor accumulates into it")


def _match(
    cond: ConditionalOp, position: int | None, slot: int, buffer: SSAValue, reads: ReadIndex
) -> _Split:
    branches: list[_Branch] = []
    kinds: set[str] = set()
    for k in range(len(cond.branches)):
        branch, kind = _branch(k, cond, position, buffer)
        branches.append(branch)
        if kind is not None:
            kinds.add(kind)
    ars = [b.all_reduce for b in branches if b.all_reduce is not None]
    if len(kinds) != 1 or not ars:
        raise NotMovable("the branches accumulate with different reducers")
    first = ars[0]
    for other in ars[1:]:
        if other.properties != first.properties or other.results[0].type != first.results[0].type:
            raise NotMovable("the branches' all-reduces differ")
    for b in branches:
        _check_reads(cond, b, buffer, reads)
    if position is None:
        value: SSAValue = cond.result
    else:
        value = reads.of(cond.result).by_slot[position][0].result
    return _Split(cond, position, slot, kinds.pop(), branches, buffer, value)


def _check_reads(cond: ConditionalOp, b: _Branch, buffer: SSAValue, index: ReadIndex) -> None:
    """The branch reads the buffer only on the matched path, once."""
    region, operand = cond.branches[b.index], cond.branch_operands[b.index]
    last = region.block.last_op
    allowed = {id(op) for op in b.reads} | {id(b.combine), id(last)}
    if last is not None and last.operands:
        allowed.add(id(last.operands[0].owner))
    reads = all_buffer_reads(region, operand, buffer, index)
    if reads is None or any(id(op) not in allowed for op in reads):
        raise NotMovable("a branch reads the buffer elsewhere")
    for read in b.reads:
        if len(list(read.results[0].uses)) != 1:
            raise NotMovable("a branch reads the buffer elsewhere")
    if b.combine is not None and len(list(b.combine.results[0].uses)) != 1:
        raise NotMovable("a branch uses the accumulated value elsewhere")


def _buffer_only_feeds(buffer: SSAValue, cond: ConditionalOp) -> bool:
    """The buffer's users are the conditional's operands or tuples used only by it."""
    for use in buffer.uses:
        user = use.operation
        if user is cond:
            continue
        if isinstance(user, TupleOp) and all(u.operation is cond for u in user.result.uses):
            continue
        return False
    return True


def find_splits(loop: WhileOp, replicated: Callable[[SSAValue, AllReduceOp], bool]) -> list[_Split]:
    """Every conditional accumulation of `loop`'s body that can be split (see module doc)."""
    body = loop.body.block
    last = body.last_op
    root = last.operands[0].owner if isinstance(last, ReturnOp) and last.operands else None
    if not isinstance(root, TupleOp):
        return []
    splits: list[_Split] = []
    reads = ReadIndex()
    for slot, element in enumerate(root.elements):
        owner = element.owner
        position: int | None = None
        if isinstance(owner, GetTupleElementOp) and isinstance(owner.tuple_.owner, ConditionalOp):
            position, owner = owner.index.value.data, owner.tuple_.owner
        if not isinstance(owner, ConditionalOp) or len(list(element.uses)) != 1:
            continue
        split = _try_split(owner, position, slot, reads, loop, replicated)
        if split is not None:
            splits.append(split)
    return splits


def _try_split(
    cond: ConditionalOp,
    position: int | None,
    slot: int,
    reads: ReadIndex,
    loop: WhileOp,
    replicated: Callable[[SSAValue, AllReduceOp], bool],
) -> _Split | None:
    param = loop.body.block.args[0]
    gtes = reads.of(param).by_slot.get(slot, [])
    if len(gtes) != 1 or condition_reads_slot(loop, slot, reads):
        return None
    buffer = gtes[0].results[0]
    if slot_of(buffer, param) != slot or not _buffer_only_feeds(buffer, cond):
        return None
    try:
        split = _match(cond, position, slot, buffer, reads)
    except NotMovable:
        return None
    for b in split.branches:
        if b.all_reduce is not None and not replicated(cond.index, b.all_reduce):
            return None
    return split


def apply_split(
    split: _Split, identity: Callable[[Attribute, str], list[Operation]], edits: OperandEdits
) -> AllReduceOp:
    """Rewrite one split; returns the all-reduce now in the loop body after the conditional.
    The operand changes of the conditional, its operand tuple, its branches' returned tuples
    and the body's root tuple go through `edits` (flushed by the caller after all the splits:
    each of those wide tuples is rebuilt once, not once per slot)."""
    cond = split.conditional
    buffer = split.buffer
    template = next(a for a in (b.all_reduce for b in split.branches) if a is not None)
    for b in split.branches:
        _rewrite_branch(cond, split, b, identity, edits)
    value = split.value
    after: list[Operation] = []
    moved = AllReduceOp.create(
        operands=[value],
        result_types=[value.type],
        properties=dict(template.properties),
        attributes=dict(template.attributes),
        regions=[template.to_apply.clone()],
    )
    moved.results[0].name_hint = template.results[0].name_hint
    combine = COMBINERS[split.kind].create(
        operands=[buffer, moved.results[0]], result_types=[buffer.type]
    )
    after.extend([moved, combine])
    anchor = value.owner if isinstance(value.owner, Operation) else cond
    Rewriter.insert_op(after, InsertPoint.after(anchor))
    for use in list(value.uses):
        if use.operation is not moved:
            edits.set(use.operation, use.index, combine.results[0])
    _detach_buffer(cond, buffer, identity, edits)
    for b in split.branches:
        if b.all_reduce is not None:
            Rewriter.erase_op(b.all_reduce)
    return moved


def _rewrite_branch(
    cond: ConditionalOp,
    split: _Split,
    b: _Branch,
    identity: Callable[[Attribute, str], list[Operation]],
    edits: OperandEdits,
) -> None:
    """The branch returns x (was `buffer @ C(x)`) or the identity (was the buffer)."""
    region = cond.branches[b.index]
    last = region.block.last_op
    holder = last.operands[0].owner if split.position is not None and last is not None else last
    if not isinstance(holder, Operation) or last is None:
        return
    index = split.position if split.position is not None else 0
    if b.all_reduce is not None and b.local is not None and b.combine is not None:
        edits.set(holder, index, b.local)
        Rewriter.erase_op(b.combine)
    else:
        ops = identity(b.returned.type, split.kind)
        Rewriter.insert_op(ops, InsertPoint.before(last if holder is last else holder))
        edits.set(holder, index, ops[-1].results[0])
    for read in reversed(b.reads):
        erase_if_dead(read)


def _detach_buffer(
    cond: ConditionalOp,
    buffer: SSAValue,
    identity: Callable[[Attribute, str], list[Operation]],
    edits: OperandEdits,
) -> None:
    """The branches no longer read the buffer: their operands get a dummy in its place."""
    dummy: SSAValue | None = None
    for use in list(buffer.uses):
        user = use.operation
        if user is not cond and not isinstance(user, TupleOp):
            continue
        if dummy is None:
            ops = identity(buffer.type, "hlo.add")
            Rewriter.insert_op(ops, InsertPoint.after(buffer.owner))  # pyright: ignore[reportArgumentType]
            dummy = ops[-1].results[0]
        edits.set(user, use.index, dummy)


def all_buffer_reads(
    region: Region, operand: SSAValue, buffer: SSAValue, reads: ReadIndex
) -> list[Operation] | None:
    """Every op in the branch that reads the buffer through the branch argument (None when
    the argument is used in a way that is not a get_tuple_element of a forwarded tuple)."""
    arg = region.block.args[0]
    if operand is buffer:
        return [u.operation for u in arg.uses]
    owner = operand.owner
    if not isinstance(owner, TupleOp):
        return []
    positions = reads.positions(owner, buffer)
    if not positions:
        return []
    by_slot = reads.of(arg)
    if by_slot.other_uses:
        return None
    return [gte for e in positions for gte in by_slot.by_slot.get(e, [])]
