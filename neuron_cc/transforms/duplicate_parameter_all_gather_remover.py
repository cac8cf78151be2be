"""neuron-duplicate-parameter-all-gather-remover: one gather per distinct gathered value.

1. Within one block (a function body, a loop body, ...), an all_gather with the same operands
   and identical attributes as an earlier one is removed and its uses read the earlier one.
   "Same operand": the same value, or get_tuple_elements of the same tuple at the same index.
   "Identical attributes": result type, `all_gather_dimension`, replica groups (compared after
   iota expansion), `use_global_device_ids`, `constrain_layout` and whether a channel id is
   present (which decides the group mode); the channel id's VALUE and discardable attributes
   (metadata) are not compared, since every gather of a real program has its own id.
2. Two (or more) slots of a loop's carried tuple whose init values are the same all_gather
   result and that the body passes through unchanged hold the same value on every iteration:
   they are merged into the first one (reads of the others, in the body, the condition and
   after the loop, read it instead).

```mlir
%a = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1]] channel_id = 1 ...
%b = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1]] channel_id = 2 ...  // removed
%r = hlo.while(tuple %i, %a, %a) ...   // slots 1 and 2 pass through: merged into slot 1
```

The reference compiler's NeuronDuplicateParameterAllGatherRemover keys gathers on the entry
parameter they trace back to; this pass keys them on their operand (through one
get_tuple_element), which is what the all-gather hoist produces, and adds the slot merge.
It also runs at the end of neuron-move-all-gather-while-loop. Remarks (`remarks=true`):
"duplicate of %a (hlo.all_gather): removed" and "carried unchanged in loop slots 1 and 2:
merged into one slot".
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from neuron_cc.analysis.remarks import Remarks, describe
from neuron_cc.analysis.while_loops import (
    body_root_tuple,
    erase_if_dead,
    is_loop_invariant_slot,
    remap_slots,
    while_ops_post_order,
)
from neuron_cc.dialects.hlo.collectives import AllGatherOp
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, TupleOp, WhileOp
from neuron_cc.dialects.op_classes import of_class
from neuron_cc.dialects.value_edits import replace_values


def _operand_key(value: SSAValue) -> Hashable:
    owner = value.owner
    if isinstance(owner, GetTupleElementOp):
        return (owner.tuple_, owner.index.value.data)
    return (value,)


def gather_key(gather: AllGatherOp) -> Hashable:
    """Two gathers of one block with equal keys compute the same value."""
    return (
        gather.parent_block(),
        tuple(_operand_key(o) for o in gather.operands_),
        gather.result.type,
        gather.all_gather_dimension.value.data,
        gather.replica_groups.groups(),
        gather.channel_id is not None,
        gather.use_global_device_ids is not None,
        gather.constrain_layout is not None,
    )


def merge_identical_gathers(module: ModuleOp, remarks: Remarks) -> bool:
    """Remove every all_gather identical to an earlier one of its block."""
    kept: dict[Hashable, AllGatherOp] = {}
    duplicates: list[tuple[AllGatherOp, AllGatherOp]] = []
    for op in of_class(module.walk(), AllGatherOp):
        first = kept.setdefault(gather_key(op), op)
        if first is not op:
            duplicates.append((op, first))
    for duplicate, first in duplicates:
        remarks.remark(duplicate, f"duplicate of {describe(first)}: removed")
    # at once: a wide op reading many of them (a loop's init tuple) is rebuilt once
    replace_values((duplicate.result, first.result) for duplicate, first in duplicates)
    for duplicate, _ in duplicates:
        producers = [o.owner for o in duplicate.operands if isinstance(o.owner, Operation)]
        Rewriter.erase_op(duplicate)
        for producer in producers:
            erase_if_dead(producer)
    return bool(duplicates)


def _slot_list(slots: list[int]) -> str:
    if len(slots) == 2:
        return f"{slots[0]} and {slots[1]}"
    return ", ".join(str(s) for s in slots[:-1]) + f" and {slots[-1]}"


def merge_gathered_slots(loop: WhileOp, remarks: Remarks) -> bool:
    """Merge the pass-through slots of `loop` whose init is the same all_gather result."""
    init = loop.init.owner
    if not isinstance(init, TupleOp) or body_root_tuple(loop) is None:
        return False
    groups: dict[SSAValue, list[int]] = {}
    for i, value in enumerate(init.elements):
        if isinstance(value.owner, AllGatherOp) and is_loop_invariant_slot(loop, i):
            groups.setdefault(value, []).append(i)
    target: dict[int, int] = {}
    for value, slots in groups.items():
        if len(slots) < 2:
            continue
        owner = value.owner
        if isinstance(owner, Operation):
            message = f"carried unchanged in loop slots {_slot_list(slots)}: merged into one slot"
            remarks.remark(owner, message)
        target.update((j, slots[0]) for j in slots[1:])
    if not target:
        return False
    new_index: dict[int, int] = {}
    values: list[SSAValue] = []
    for i, value in enumerate(init.elements):
        if i not in target:
            new_index[i] = len(values)
            values.append(value)
    slot_of = [new_index[target.get(i, i)] for i in range(len(init.elements))]
    remap_slots(loop, values, slot_of)
    return True


def remove_duplicate_all_gathers(module: ModuleOp, remarks: Remarks) -> bool:
    """Both merges of the pass over `module`; True if anything changed."""
    if not of_class(module.walk(), AllGatherOp):
        return False  # no gather to merge, no slot carrying one: one walk
    changed = merge_identical_gathers(module, remarks)
    for loop in while_ops_post_order(module):
        changed = merge_gathered_slots(loop, remarks) or changed
    return changed


@dataclass(frozen=True)
class DuplicateParameterAllGatherRemoverPass(ModulePass):
    """Merge identical all_gathers of a block and loop slots carrying the same gather."""

    name = "neuron-duplicate-parameter-all-gather-remover"

    remarks: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        remove_duplicate_all_gathers(op, Remarks(self.name, self.remarks))
