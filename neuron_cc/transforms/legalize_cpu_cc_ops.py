"""legalize-cpu-cc-ops: strip channel ids and global-device-id flags for the CPU runtime.

In place, no new ops, no shape changes, in the ENTRY function only (`all-computations=true`
also processes nested regions and every function):

| op | change |
|---|---|
| all_gather, all_reduce, reduce_scatter | clear `use_global_device_ids`; erase `channel_id` |
| all_to_all, collective_broadcast, collective_permute | erase `channel_id` |

"Erase" means absent, not re-assigned; nothing changes when nothing needed clearing. The
module-wide legality checks run first; then the `ClearChannelIds` pattern does the edits, run by
xDSL's `PatternRewriteWalker`.

Follows the reference compiler's CPU collective legaliser. Difference (docs/decisions.md §6.4): the edits
turn cross_replica_and_partition / flattened_id / cross_partition groups into cross_replica
groups with the same ids, which only means the same thing when num_partitions == 1; with more
partitions the pass fails with "legalize-cpu-cc-ops requires num_partitions == 1 (got N)" and
leaves the module untouched (the reference rewrites anyway). all_to_all, collective_broadcast and
collective_permute with a channel id are cross_partition: erasing it turns partition ids into
replica ids, so for them the pass also requires num_replicas == 1 (else it fails, unchanged). It is the inverse of a channel-id
uniquifier: running it before one that re-assigns ids is order-sensitive.

```mlir
%r = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids ...
// becomes
%r = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1]] ...
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis.collective_candidates import collect
from neuron_cc.analysis.entry import find_entry
from neuron_cc.dialects.hlo.collectives import (
    AllGatherOp,
    AllReduceOp,
    AllToAllOp,
    CollectiveBroadcastOp,
    ReduceScatterOp,
)
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp
from neuron_cc.dialects.replica_groups import device_counts

CANDIDATES = (
    AllGatherOp,
    AllReduceOp,
    ReduceScatterOp,
    AllToAllOp,
    CollectiveBroadcastOp,
    CollectivePermuteOp,
)
_CLEARED = ("use_global_device_ids", "channel_id")
_CROSS_PARTITION = (AllToAllOp, CollectiveBroadcastOp, CollectivePermuteOp)


@dataclass
class ClearChannelIds(RewritePattern):
    """Erases `use_global_device_ids` and `channel_id` of one collective, in place. `entry`:
    only that function's top-level ops match (the ENTRY-only walk), or every op with `None`."""

    entry: FuncOp | None

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, CANDIDATES):
            return
        if self.entry is not None and op.parent_op() is not self.entry:
            return
        if not any(name in op.properties for name in _CLEARED):
            return
        for name in _CLEARED:
            op.properties.pop(name, None)
        rewriter.notify_op_modified(op)


@dataclass(frozen=True)
class LegalizeCpuCcOpsPass(ModulePass):
    """Erase channel ids and `use_global_device_ids` (num_partitions must be 1)."""

    name = "legalize-cpu-cc-ops"

    all_computations: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        candidates = collect(op, CANDIDATES, entry_only=not self.all_computations)
        _, partitions = device_counts(op)
        if partitions != 1:
            raise PassFailedException(
                f"legalize-cpu-cc-ops requires num_partitions == 1 (got {partitions})"
            )
        replicas, _ = device_counts(op)
        for collective in candidates:
            if (
                isinstance(collective, _CROSS_PARTITION)
                and collective.properties.get("channel_id") is not None
                and replicas != 1
            ):
                raise PassFailedException(
                    f"legalize-cpu-cc-ops: erasing the channel id of {collective.name} turns its "
                    f"partition groups into replica groups; this needs num_replicas == 1 "
                    f"(got {replicas})"
                )
        entry = None if self.all_computations else find_entry(op)
        root = op.body if entry is None else entry.body
        PatternRewriteWalker(ClearChannelIds(entry), apply_recursively=False).rewrite_region(root)
