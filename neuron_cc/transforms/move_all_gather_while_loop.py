"""neuron-move-all-gather-while-loop: hoist all_gathers of loop-invariant slots out of loops.

An FSDP loop gathers the same sharded weight on every iteration. When the weight is a
loop-invariant slot k of the carried tuple (the body returns `gte(param, k)` unchanged at k),
`all_gather(gte(param, k))` or `all_gather(convert(gte(param, k)))` has the same value on every
iteration, so it runs once before the loop on the init value of slot k and the loop carries the
gathered value instead:

```mlir
%r = hlo.while(%init) ... body {            // %init = hlo.tuple %i, %w
^bb0(%p: tuple<tensor<i32>, tensor<2x16xf32>>):
  %w = hlo.get_tuple_element %p[1] : ...
  %g = hlo.all_gather(%w) dim = 0 ... : (tensor<2x16xf32>) -> tensor<16x16xf32>
  ...uses of %g...
  hlo.return (tuple %i2, %w)
}
// becomes
%g = hlo.all_gather(%w0) dim = 0 ... : (tensor<2x16xf32>) -> tensor<16x16xf32>
%r = hlo.while(tuple %i, %g) ... body {
^bb0(%p: tuple<tensor<i32>, tensor<16x16xf32>>):
  %w = hlo.get_tuple_element %p[1] : ...    // now the gathered value; replaces %g
  ...
}
```

Simple form (the slot's reads have no other user than the gather chain and the pass-through):
slot k changes type in the init, the body and condition parameters, every get_tuple_element of
it (the "fix GTEs" repair) and the loop result; reads of slot k after the loop get the
original init value k (it is invariant). General form (the un-gathered value is still read by
another op of the body, by the condition, or another gather of the slot was moved in the simple
form): slot k is kept and a NEW slot appended at the end carries the gathered value (init =
the hoisted gather, passed through by the body). Loops are processed innermost first, so a
gather hoisted out of an inner loop can leave the outer loop in the same run. Then dead code
is removed and the duplicate remover (neuron-duplicate-parameter-all-gather-remover) runs as
part of this pass, merging the identical gathers and pass-through slots that hoisting creates.

Only single-operand all_gathers directly in a loop body are moved; with
`reference-replica-groups` (e.g. "0,1,2,3;4,5,6,7"), only those whose replica groups (after
iota expansion) equal it exactly. The hoisted gather is a clone that keeps every property and
discardable attribute, including its channel id (the in-body gather disappears, so the id stays
unique); if that channel id is also used by another op of the module (e.g. the cloned body of a
second loop), the clone gets NextChannelId instead. Remarks (`remarks=true`): one per
all_gather in a loop body, "moved", "moved into new slot N (why slot k is kept)", or why not:
"carried value is not a tuple", "replica groups do not match reference-replica-groups",
"operand is not a loop-invariant tuple slot: ...", "all_gather with N operands is not hoisted",
"not at the top level of the loop body (inside 'op')".

Follows the reference compiler's NeuronMoveAllGatherWhileLoop (clone the gather before the
loop, resize the slot, fix the get_tuple_elements, DCE, then the duplicate remover).
Differences: the slot must really be loop invariant (the body returns it unchanged), a gather
whose operand has other readers is still moved (the appended slot keeps those readers valid),
and the gate admits a gather only when its groups equal the reference groups.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TupleType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis.remarks import Remarks, describe
from neuron_cc.analysis.while_loops import (
    SlotReads,
    body_root_tuple,
    enclosing_loop,
    erase_if_dead,
    init_elements,
    is_loop_invariant_slot,
    remap_slots,
    slot_reads,
    while_ops_post_order,
)
from neuron_cc.dialects.hlo.collectives import AllGatherOp
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, WhileOp
from neuron_cc.dialects.hlo.elementwise_misc import ConvertOp
from neuron_cc.dialects.hlo.types import tuple_elements
from neuron_cc.dialects.op_classes import of_class
from neuron_cc.dialects.replica_groups import matches_reference, parse_reference_groups
from neuron_cc.dialects.value_edits import replace_values
from neuron_cc.transforms.duplicate_parameter_all_gather_remover import (
    remove_duplicate_all_gathers,
)
from neuron_cc.transforms.hlo_dce import eliminate_dead_code

Groups = tuple[tuple[int, ...], ...]
_NOT_A_SLOT = "operand is not a loop-invariant tuple slot"


def parse_reference_option(text: str) -> Groups | None:
    """The `reference-replica-groups` option (None = no gate); malformed text fails the pass."""
    try:
        return parse_reference_groups(text)
    except ValueError as e:
        raise PassFailedException(str(e)) from e


@dataclass
class Hoist:
    """A movable gather: `gather(convert?(gte(param, slot)))`."""

    gather: AllGatherOp
    convert: ConvertOp | None
    read: GetTupleElementOp
    slot: int
    new_slot: int | None = None
    """The appended slot carrying the gathered value (general form), None for the simple form."""
    kept_because: str = ""


@dataclass
class LoopPlan:
    loop: WhileOp
    hoists: list[Hoist] = field(default_factory=list[Hoist])
    messages: dict[AllGatherOp, str] = field(default_factory=dict[AllGatherOp, str])


def _not_movable(loop: WhileOp, gather: AllGatherOp, reference: Groups | None) -> str | Hoist:
    """Why `gather` (directly in the body of `loop`) cannot move, or its Hoist."""
    if not isinstance(loop.init.type, TupleType):
        return "carried value is not a tuple"
    if len(gather.operands_) != 1:
        return f"all_gather with {len(gather.operands_)} operands is not hoisted"
    if not matches_reference(gather.replica_groups.groups(), reference):
        return "replica groups do not match reference-replica-groups"
    value = gather.operands_[0]
    convert = value.owner if isinstance(value.owner, ConvertOp) else None
    if convert is not None:
        value = convert.operand
    read = value.owner
    param = loop.body.block.args[0]
    if not isinstance(read, GetTupleElementOp) or read.tuple_ != param:
        return f"{_NOT_A_SLOT}: it is not a get_tuple_element of the loop parameter"
    slot = read.index.value.data
    if body_root_tuple(loop) is None:
        return f"{_NOT_A_SLOT}: the loop body does not return an hlo.tuple"
    if not is_loop_invariant_slot(loop, slot):
        return f"{_NOT_A_SLOT}: slot {slot} is updated by the loop body"
    return Hoist(gather, convert, read, slot)


def _first_in_order(ops: Sequence[Operation], order: dict[Operation, int]) -> Operation:
    return min(ops, key=lambda o: order.get(o, len(order)))


def _extra_reader(
    loop: WhileOp,
    slot: int,
    hoists: Sequence[Hoist],
    reads: tuple[SlotReads, SlotReads],
    order: dict[Operation, int],
) -> str | None:
    """Why slot `slot` must keep its un-gathered value (None: only `hoists` read it).

    `reads` are the slot reads of the body and condition parameters, `order` the position of
    each body op (to name the first offending user)."""
    body, cond = reads
    block = loop.body.block
    root = body_root_tuple(loop)
    heads = {h.convert or h.gather for h in hoists}
    gathers = {h.gather for h in hoists}
    extra = [
        u.operation
        for u in body.users(slot)
        if u.operation not in heads and not (u.operation is root and u.index == slot)
    ]
    extra += [
        u.operation
        for h in hoists
        if h.convert is not None
        for u in h.convert.result.uses
        if u.operation not in gathers
    ]
    if extra:
        return f"slot {slot} is also used by '{_first_in_order(extra, order).name}'"
    if any(True for _ in cond.users(slot)) or cond.other_uses:
        return f"slot {slot} is read by the loop condition"
    if body.other_uses:
        user = _first_in_order([u.operation for u in body.other_uses], order)
        return f"the loop parameter is also used by '{user.name}'"
    if root is not None and not root.result.has_one_use():
        users = [u.operation for u in root.result.uses if u.operation is not block.last_op]
        return f"the body result tuple is also used by '{_first_in_order(users, order).name}'"
    return None


def _choose_forms(loop: WhileOp, hoists: list[Hoist]) -> None:
    """Simple form for the first gather of a slot nothing else reads; the rest get new slots
    (numbered in program order after the existing ones)."""
    reads = slot_reads(loop.body.block.args[0]), slot_reads(loop.condition.block.args[0])
    order = {op: i for i, op in enumerate(loop.body.block.ops)}
    by_slot: dict[int, list[Hoist]] = {}
    for h in hoists:
        by_slot.setdefault(h.slot, []).append(h)
    general: set[AllGatherOp] = set()
    for slot, group in by_slot.items():
        reason = _extra_reader(loop, slot, group, reads, order)
        for h in group if reason is not None else group[1:]:
            h.kept_because = reason or f"slot {slot} now carries {describe(group[0].gather)}"
            general.add(h.gather)
    next_slot = len(tuple_elements(loop.init.type))
    for h in hoists:
        if h.gather in general:
            h.new_slot = next_slot
            next_slot += 1


class _ChannelIds:
    """Channel ids in use, so a hoisted clone keeps its id only while that id stays unique."""

    def __init__(self, module: ModuleOp) -> None:
        self.counts: Counter[int] = Counter()
        for op in module.walk():
            channel = op.properties.get("channel_id")
            if isinstance(channel, IntegerAttr):
                self.counts[int(channel.value.data)] += 1
        self.next_id = max(self.counts, default=0) + 1

    def for_clone(self, channel: int) -> int:
        """The id of a clone of a collective with `channel` whose original is erased."""
        self.counts[channel] -= 1
        if self.counts[channel] <= 0:
            self.counts[channel] = 1
            return channel
        fresh = self.next_id
        self.next_id += 1
        self.counts[fresh] = 1
        return fresh


@dataclass
class _Hoister:
    module: ModuleOp
    reference: Groups | None
    remarks: Remarks
    gathers: list[AllGatherOp]
    """Every all_gather of the module (one walk by the caller)."""
    nested: dict[WhileOp, list[AllGatherOp]] = field(
        default_factory=dict[WhileOp, list[AllGatherOp]]
    )
    changed_blocks: list[Block] = field(default_factory=list[Block])
    _channels: _ChannelIds | None = None

    @property
    def channels(self) -> _ChannelIds:
        """The module's channel ids, counted before the first rewrite needs them."""
        if self._channels is None:
            self._channels = _ChannelIds(self.module)
        return self._channels

    def __post_init__(self) -> None:
        for op in self.gathers:
            loop = enclosing_loop(op)
            if loop is not None and op.parent_block() is not loop.body.block:
                self.nested.setdefault(loop, []).append(op)

    def run(self) -> None:
        for loop in while_ops_post_order(self.module):
            self.process(loop)
        self.remove_dead_code()

    def process(self, loop: WhileOp) -> None:
        plan = LoopPlan(loop)
        gathers = of_class(loop.body.block.ops, AllGatherOp)
        for gather in gathers:
            outcome = _not_movable(loop, gather, self.reference)
            if isinstance(outcome, Hoist):
                plan.hoists.append(outcome)
            else:
                plan.messages[gather] = outcome
        if plan.hoists:
            _choose_forms(loop, plan.hoists)
            for h in plan.hoists:
                plan.messages[h.gather] = (
                    "moved"
                    if h.new_slot is None
                    else f"moved into new slot {h.new_slot} ({h.kept_because})"
                )
            self.rewrite(plan)
        for gather in gathers:
            self.remarks.remark(gather, plan.messages[gather])
        for gather in self.nested.get(loop, []):
            parent = gather.parent_op()
            where = parent.name if parent is not None else "a region"
            self.remarks.remark(gather, f"not at the top level of the loop body (inside '{where}')")

    def clone_chain(
        self, h: Hoist, init: SSAValue, loop: WhileOp, converted: dict[ConvertOp, SSAValue]
    ) -> AllGatherOp:
        """The gather (and its convert, once per in-body convert) rebuilt before `loop` on the
        init value of the slot."""
        operand = init
        if h.convert is not None:
            if h.convert not in converted:
                convert = ConvertOp.create(
                    operands=[init],
                    result_types=[h.convert.result.type],
                    attributes=dict(h.convert.attributes),
                )
                convert.result.name_hint = h.convert.result.name_hint
                Rewriter.insert_op(convert, InsertPoint.before(loop))
                converted[h.convert] = convert.result
            operand = converted[h.convert]
        properties = dict(h.gather.properties)
        if h.gather.channel_id is not None:
            channel = self.channels.for_clone(h.gather.channel_id.value.data)
            properties["channel_id"] = IntegerAttr(channel, 64)
        clone = AllGatherOp.create(
            operands=[operand],
            result_types=[h.gather.result.type],
            properties=properties,
            attributes=dict(h.gather.attributes),
        )
        clone.result.name_hint = h.gather.result.name_hint
        Rewriter.insert_op(clone, InsertPoint.before(loop))
        return clone

    def rewrite(self, plan: LoopPlan) -> None:
        loop = plan.loop
        parent = loop.parent_block()
        init = init_elements(loop)
        new_init = list(init)
        outside: dict[int, SSAValue] = {}
        converted: dict[ConvertOp, SSAValue] = {}
        for h in plan.hoists:
            clone = self.clone_chain(h, init[h.slot], loop, converted)
            if h.new_slot is None:
                new_init[h.slot] = clone.result
                outside[h.slot] = init[h.slot]
            else:
                new_init.append(clone.result)
        fresh = remap_slots(loop, new_init, range(len(init)), outside)
        replaced: list[tuple[SSAValue, SSAValue]] = []
        for h in plan.hoists:
            if h.new_slot is None:
                gathered = h.read.result
            else:
                gathered = fresh[h.new_slot]
                gathered.name_hint = h.gather.result.name_hint
            replaced.append((h.gather.result, gathered))
        replace_values(replaced)  # at once: a wide op reading many gathers is rebuilt once
        for h in plan.hoists:
            Rewriter.erase_op(h.gather)
            erase_if_dead(h.convert)
            erase_if_dead(h.read)
        if parent is not None:
            self.changed_blocks.append(parent)

    def remove_dead_code(self) -> None:
        """DCE once over the outermost blocks that contain a rewritten loop."""
        blocks = set(self.changed_blocks)
        for block in dict.fromkeys(self.changed_blocks):
            ancestor = block.parent_op()
            nested = False
            while ancestor is not None:
                if ancestor.parent_block() in blocks:
                    nested = True
                    break
                ancestor = ancestor.parent_op()
            if not nested:
                eliminate_dead_code(block)


@dataclass(frozen=True)
class MoveAllGatherWhileLoopPass(ModulePass):
    """Hoist all_gathers of loop-invariant tuple slots before their loop (see module docs)."""

    name = "neuron-move-all-gather-while-loop"

    remarks: bool = False
    reference_replica_groups: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        reference = parse_reference_option(self.reference_replica_groups)
        remarks = Remarks(self.name, self.remarks)
        gathers = of_class(op.walk(), AllGatherOp)
        if not gathers:
            return  # nothing to hoist or merge: one walk
        _Hoister(op, reference, remarks, gathers).run()
        remove_duplicate_all_gathers(op, remarks)
