"""Structure of `hlo.while` loops, shared by the loop code-motion passes.

A loop carries ONE value, usually a tuple; a *slot* is one element of that tuple. The body's
block argument is the *loop parameter*; `gte(param, k)` reads slot k. Slot k is *loop
invariant* when the body returns `gte(param, k)` unchanged at index k, so it holds its initial
value on every iteration and after the loop.

Queries (none of them modifies the IR):
- `while_ops_post_order(op)`: the loops nested in `op`, every loop after the loops it contains.
- `enclosing_loop(op)`: the loop whose BODY contains `op` (through conditionals etc.).
- `body_root_tuple(loop)`: the `hlo.tuple` the body returns, if the body returns one.
- `slot_reads(value)`: the get_tuple_element ops reading each slot of a tuple value, and the
  uses that are not get_tuple_element.
- `is_loop_invariant_slot(loop, k)`: the body returns `gte(param, k)` at index k.

Rewrites:
- `init_elements(loop)`: the values of the init tuple's slots (the `hlo.tuple` operands, or new
  get_tuple_elements inserted before the loop).
- `remap_slots(loop, init, slot_of, outside)`: give the loop a new carried tuple: old slot i
  becomes new slot `slot_of[i]` (several old slots may share one), new slots nobody maps to are
  passed through unchanged by the body, retyped slots are re-typed in the body and condition
  (the "fix GTEs" repair) and read `outside[i]` after the loop.
- `erase_if_dead(op)`: erase a removable op without uses, then the operands it kept alive.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr, TupleType
from xdsl.ir import Attribute, Block, Operation, SSAValue, Use
from xdsl.rewriter import InsertPoint, Rewriter

from neuron_cc.analysis.effects import is_removable
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, ReturnOp, TupleOp, WhileOp
from neuron_cc.dialects.hlo.types import tuple_elements
from neuron_cc.dialects.replica_groups import channel_id
from neuron_cc.dialects.value_edits import replace_values, set_type


def while_ops_post_order(op: Operation, channel_ids: list[int] | None = None) -> list[WhileOp]:
    """Every `hlo.while` inside `op` (and `op` itself), inner loops first, else program order.

    Only ops with regions are pushed on the work stack (the others cannot contain a loop), so
    this costs one cheap pass over the ops plus work proportional to the region-holding ops.
    With `channel_ids`, the channel id of every op inside `op` is appended to it (a pass that
    needs both the loops and `next_channel_id` walks once).
    """
    found: list[WhileOp] = []
    stack: list[tuple[Operation, bool]] = [(op, False)]
    while stack:
        current, expanded = stack.pop()
        if expanded:
            if type(current) is WhileOp:  # (no subclass: an ABC isinstance is a Python call)
                found.append(current)
            continue
        stack.append((current, True))
        nested: list[Operation] = []
        for region in current.regions:
            block = region.first_block
            while block is not None:
                inner = block.first_op
                while inner is not None:
                    if inner.regions:
                        nested.append(inner)
                    if channel_ids is not None and (channel := channel_id(inner)) is not None:
                        channel_ids.append(channel)
                    inner = inner._next_op
                block = block.next_block
        nested.reverse()
        stack.extend([(child, False) for child in nested])
    return found


def enclosing_loop(op: Operation) -> WhileOp | None:
    """The loop whose body contains `op`, or None (also when `op` is in a loop condition)."""
    region = op.parent_region()
    while region is not None:
        owner = region.parent_op()
        if owner is None:
            return None
        if isinstance(owner, WhileOp):
            return owner if region is owner.body else None
        region = owner.parent_region()
    return None


def body_root_tuple(loop: WhileOp) -> TupleOp | None:
    """The `hlo.tuple` that the loop body returns, or None if it returns anything else."""
    terminator = loop.body.block.last_op
    if not isinstance(terminator, ReturnOp) or len(terminator.results_) != 1:
        return None
    root = terminator.results_[0].owner
    return root if isinstance(root, TupleOp) else None


@dataclass
class SlotReads:
    """How a tuple value is read: get_tuple_element ops by slot, and every other use."""

    by_slot: dict[int, list[GetTupleElementOp]] = field(
        default_factory=dict[int, list[GetTupleElementOp]]
    )
    other_uses: list[Use] = field(default_factory=list[Use])

    def users(self, slot: int) -> Iterator[Use]:
        """Every use of a get_tuple_element of `slot`."""
        for gte in self.by_slot.get(slot, []):
            yield from gte.result.uses


def slot_reads(value: SSAValue) -> SlotReads:
    """The get_tuple_element reads of `value`, by slot, and its other uses."""
    reads = SlotReads()
    for use in value.uses:
        user = use.operation
        if isinstance(user, GetTupleElementOp):
            reads.by_slot.setdefault(user.index.value.data, []).append(user)
        else:
            reads.other_uses.append(use)
    return reads


class ReadIndex:
    """`slot_reads` of values and the positions of values in tuple ops, each built once and
    kept: a rewrite that checks every slot of a wide loop one at a time costs each slot its
    own reads, not the loop's width. Valid while the IR it indexed is unchanged."""

    def __init__(self) -> None:
        self._reads: dict[int, SlotReads] = {}
        self._positions: dict[int, dict[int, list[int]]] = {}

    def of(self, value: SSAValue) -> SlotReads:
        """`slot_reads(value)`."""
        found = self._reads.get(id(value))
        if found is None:
            found = self._reads[id(value)] = slot_reads(value)
        return found

    def positions(self, tup: TupleOp, value: SSAValue) -> list[int]:
        """The indices of `tup`'s elements that are `value`, in order."""
        table = self._positions.get(id(tup))
        if table is None:
            table = self._positions[id(tup)] = {}
            for e, element in enumerate(tup.elements):
                table.setdefault(id(element), []).append(e)
        return table.get(id(value), [])


def is_gte_of(value: SSAValue, tuple_value: SSAValue, slot: int) -> bool:
    """`value` is `get_tuple_element(tuple_value, slot)`."""
    owner = value.owner
    return (
        isinstance(owner, GetTupleElementOp)
        and owner.tuple_ == tuple_value
        and owner.index.value.data == slot
    )


def is_loop_invariant_slot(loop: WhileOp, slot: int) -> bool:
    """The body returns `gte(param, slot)` unchanged at index `slot`."""
    root = body_root_tuple(loop)
    if root is None or not 0 <= slot < len(root.elements):
        return False
    return is_gte_of(root.elements[slot], loop.body.block.args[0], slot)


def erase_if_dead(op: Operation | None) -> None:
    """Erase `op` if it is removable and unused, then the operand producers this frees."""
    work: list[Operation] = [] if op is None else [op]
    while work:
        current = work.pop()
        if current.parent is None or any(r.uses for r in current.results):
            continue
        if not current.results or not is_removable(current):
            continue
        producers = [o.owner for o in current.operands if isinstance(o.owner, Operation)]
        Rewriter.erase_op(current)
        work.extend(producers)


def init_elements(loop: WhileOp) -> list[SSAValue]:
    """The values of the init tuple's slots (new get_tuple_elements before the loop if the init
    is not built by an `hlo.tuple`)."""
    init = loop.init
    if isinstance(init.owner, TupleOp):
        return list(init.owner.elements)
    reads = [GetTupleElementOp(init, i) for i in range(len(tuple_elements(init.type)))]
    Rewriter.insert_op(reads, InsertPoint.before(loop))
    return [r.result for r in reads]


def _set_index(gte: GetTupleElementOp, slot: int) -> None:
    if gte.index.value.data != slot:
        gte.properties["index"] = IntegerAttr(slot, 64)


@dataclass
class _Remap:
    loop: WhileOp
    old_types: Sequence[Attribute]
    new_types: Sequence[Attribute]
    slot_of: Sequence[int]
    outside: Mapping[int, SSAValue]

    def retyped(self, i: int) -> bool:
        return self.old_types[i] != self.new_types[self.slot_of[i]]

    def remap_region_reads(self, block: Block, new_type: TupleType) -> SSAValue:
        """Re-type the parameter of `block`; re-index and re-type its reads."""
        param = set_type(block.args[0], new_type)
        reads = slot_reads(param)
        for slot, gtes in reads.by_slot.items():
            for gte in gtes:
                _set_index(gte, self.slot_of[slot])
                if self.retyped(slot):
                    set_type(gte.result, self.new_types[self.slot_of[slot]])
        if reads.other_uses:
            if any(self.retyped(i) for i in range(len(self.slot_of))):
                raise ValueError("a retyped loop parameter is used whole")
            elements = [GetTupleElementOp(param, s) for s in self.slot_of]
            compat = TupleOp(elements)
            Rewriter.insert_op([*elements, compat], InsertPoint.at_start(block))
            for use in reads.other_uses:
                use.operation.operands[use.index] = compat.result
        return param

    def rebuild_root(self, param: SSAValue) -> dict[int, SSAValue]:
        """A new body result tuple; fresh slots are passed through (their reads returned)."""
        block = self.loop.body.block
        old_root = body_root_tuple(self.loop)
        terminator = block.last_op
        if old_root is None or terminator is None:
            raise ValueError("the loop body does not return an hlo.tuple")
        source: dict[int, int] = {}
        for i, s in enumerate(self.slot_of):
            source.setdefault(s, i)
        fresh: dict[int, SSAValue] = {}
        elements: list[SSAValue] = []
        old_elements = old_root.elements
        for s in range(len(self.new_types)):
            if s in source:
                elements.append(old_elements[source[s]])
                continue
            read = GetTupleElementOp(param, s)
            Rewriter.insert_op(read, InsertPoint.at_start(block))
            fresh[s] = read.result
            elements.append(read.result)
        root = TupleOp(elements)
        root.result.name_hint = old_root.result.name_hint
        Rewriter.insert_op(root, InsertPoint.before(terminator))
        terminator.operands[0] = root.result
        erase_if_dead(old_root)
        return fresh

    def remap_results(self, result: SSAValue) -> None:
        """Re-index the reads of the loop result; retyped slots read `outside` instead."""
        reads = slot_reads(result)
        replaced: list[GetTupleElementOp] = []
        for slot, gtes in reads.by_slot.items():
            for gte in gtes:
                if slot in self.outside:
                    replaced.append(gte)
                elif self.retyped(slot):
                    raise ValueError(f"retyped slot {slot} has no value for after the loop")
                else:
                    _set_index(gte, self.slot_of[slot])
        # at once: a wide op reading many of them (a returned tuple) is rebuilt once
        replace_values((g.result, self.outside[g.index.value.data]) for g in replaced)
        for gte in replaced:
            Rewriter.erase_op(gte)
        if not reads.other_uses:
            return
        elements: list[SSAValue] = []
        new_ops: list[Operation] = []
        for i, s in enumerate(self.slot_of):
            if i in self.outside:
                elements.append(self.outside[i])
                continue
            read = GetTupleElementOp(result, s)
            new_ops.append(read)
            elements.append(read.result)
        compat = TupleOp(elements)
        Rewriter.insert_op([*new_ops, compat], InsertPoint.after(self.loop))
        for use in reads.other_uses:
            use.operation.operands[use.index] = compat.result


def remap_slots(
    loop: WhileOp,
    init: Sequence[SSAValue],
    slot_of: Sequence[int],
    outside: Mapping[int, SSAValue] | None = None,
) -> dict[int, SSAValue]:
    """Give `loop` the carried tuple `tuple(init)` (built before the loop).

    Old slot i becomes new slot `slot_of[i]`; several old slots may map to one new slot only if
    they carry the same value on every iteration. A new slot that no old slot maps to is
    *fresh*: the body passes it through unchanged; the returned dict holds, per fresh slot, its
    read `gte(param, s)` at the start of the body. A *retyped* slot (new type differs) is
    re-typed in the body and condition (every get_tuple_element of it gets the new type: its
    users must accept that), and uses of it after the loop read `outside[i]` instead. Uses of
    the loop parameter or result that are not get_tuple_element see a rebuilt tuple of the old
    type (not possible for a retyped slot inside the loop). The old init and body result tuples
    are erased if nothing else uses them.
    """
    remap = _Remap(
        loop,
        list(tuple_elements(loop.init.type)),
        [v.type for v in init],
        list(slot_of),
        dict(outside or {}),
    )
    old_init = loop.init.owner
    new_init = TupleOp(init)
    new_init.result.name_hint = loop.init.name_hint
    Rewriter.insert_op(new_init, InsertPoint.before(loop))
    loop.operands[0] = new_init.result
    if isinstance(old_init, Operation):
        erase_if_dead(old_init)
    new_type = new_init.result.type
    remap.remap_region_reads(loop.condition.block, new_type)
    param = remap.remap_region_reads(loop.body.block, new_type)
    fresh = remap.rebuild_root(param)
    result = set_type(loop.result, new_type)
    remap.remap_results(result)
    return fresh


def condition_reads_slot(loop: WhileOp, slot: int, index: ReadIndex | None = None) -> bool:
    """Whether the loop condition may read tuple slot `slot`: any use of its argument that is
    not a get_tuple_element, or a get_tuple_element of `slot` with users (one without users
    reads nothing). With `index` the condition argument's reads are indexed once for every
    slot asked about (a check per slot of a wide loop whose condition reads many slots); without
    it each call scans the argument's uses."""
    reads = (index or ReadIndex()).of(loop.condition.block.args[0])
    if reads.other_uses:
        return True
    return any(gte.result.uses for gte in reads.by_slot.get(slot, ()))
