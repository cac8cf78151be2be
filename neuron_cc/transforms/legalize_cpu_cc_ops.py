"""legalize-cpu-cc-ops: strip channel ids and global-device-id flags for the CPU runtime.

In place, no new ops, no shape changes, in the ENTRY function only (`all-computations=true`
also processes nested regions and every function):

| op | change |
|---|---|
| all_gather, all_reduce, reduce_scatter | clear `use_global_device_ids`; erase `channel_id` |
| all_to_all, collective_broadcast, collective_permute | erase `channel_id` |

"Erase" means absent, not re-assigned; nothing changes when nothing needed clearing.

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
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis.collective_candidates import collect
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
        for collective in candidates:
            for name in _CLEARED:
                collective.properties.pop(name, None)
