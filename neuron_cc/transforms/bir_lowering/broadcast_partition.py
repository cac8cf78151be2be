"""BroadcastPartition: an hlo broadcast along a new outermost (partition) dimension.

With `dve-channels=M` (> 0; 0, the default, leaves every broadcast in hlo), an `hlo.broadcast`
whose result is [N, *S] for an operand of shape S mapped in order (dims = [1, ..., rank S]),
1 <= N <= M, becomes `bir.broadcast_partition` (partitions = N, channels = M, row-major access
patterns): one core copies the operand's row to N partitions. A broadcast to more partitions
than the target's DVE channels per bank stays in hlo (the node would fail the codegen's guard,
"too large broadcast in N vs M"), as does every other broadcast shape. A broadcast never
changes the element type, so the node's other guard ("Unsupported cast") is met by every
lowered broadcast; it guards hand-written bir.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr

from neuron_cc.dialects.bir import BroadcastPartitionOp
from neuron_cc.dialects.hlo.data_movement import BroadcastOp
from neuron_cc.transforms.bir_lowering.common import Plan, sequential, tensor_of


def plan_broadcast_partition(op: BroadcastOp, channels: int) -> Plan | None:
    """The node of `op` when it is the idiom and fits `channels`, else None."""
    src, dst = tensor_of(op.operand), tensor_of(op.result)
    shape = dst.get_shape()
    rank = len(src.get_shape())
    if channels <= 0 or len(shape) != rank + 1 or op.dimensions.data != tuple(range(1, rank + 1)):
        return None
    n = shape[0]
    if not 1 <= n <= channels:
        return None
    new = BroadcastPartitionOp.create(
        operands=[op.operand],
        result_types=[dst],
        properties={
            "partitions": IntegerAttr(n, 64),
            "channels": IntegerAttr(channels, 64),
            "input_aps": sequential(src),
            "output_aps": sequential(dst),
        },
    )
    return Plan(inserts=[(op, [new])], replace=[(op.result, new.results[0])], erase=[op])
