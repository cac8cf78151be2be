"""spmd-expand-reshard: lower "Sharding" custom calls of per-partition programs to collectives.

Accepted form (a module with `hlo.num_partitions`; types are PER-PARTITION shard types):

```mlir
%r = hlo.custom_call "Sharding"(%x) {xla.sharding = "{devices=[1,8]<=[8]}",
    xla.source_sharding = "{devices=[8,1]<=[8]}"} : (tensor<1x16xf32>) -> tensor<8x2xf32>
```

- `xla.sharding` on the custom call is the TARGET sharding;
- the SOURCE sharding is the custom call's `xla.source_sharding`, else the `xla.sharding` of the
  operand's producer (an op attribute, or the function argument's `xla.sharding` arg attribute).
  Both may be XLA sharding strings (as the HLO importer keeps them) or `#hlo.sharding<...>`.

Each such call is replaced by `reshard` (neuron_cc.spmd.reshard: no-op, collective_permute,
all_to_all, all_gather, dynamic_slice, or all_gather + dynamic_slice) built with
`default_collective_ops_creator(num_partitions, num_replicas)`; channel ids count up from
`next_channel_id(module)`. Option `use-iota-device-lists` (default true) emits iota replica
groups where they exist. A call without a source sharding, with a sharding kind that cannot be
resharded (maximal, manual, tuple) or uneven shard shapes is kept, with a remark; a malformed
sharding string or a result type that is not the target shard type fails the pass.

XLA's "Sharding" custom calls are annotations on GLOBAL shapes consumed by the SPMD partitioner;
this pass lowers the partitioner's reshard on already per-partition programs (both shardings
explicit), which is the piece other xDSL partitioners need.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr, TensorType
from xdsl.ir import Attribute, BlockArgument, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis.remarks import Remarks
from neuron_cc.dialects.hlo.control_flow import CustomCallOp
from neuron_cc.dialects.hlo.types import shape_of
from neuron_cc.dialects.replica_groups import NUM_PARTITIONS_ATTR, device_counts, next_channel_id
from neuron_cc.dialects.sharding import ShardingAttr, ShardingSyntaxError
from neuron_cc.spmd.collective_ops_creator import (
    CollectiveOpsCreator,
    default_collective_ops_creator,
)
from neuron_cc.spmd.reshard import (
    ChannelCounter,
    Emitter,
    ReshardError,
    choose_strategy,
    global_shape_of,
    reshard_with,
    shard_shape_of,
)

SHARDING_ATTR = "xla.sharding"
SOURCE_SHARDING_ATTR = "xla.source_sharding"


def _as_sharding(attr: Attribute | None) -> ShardingAttr | None:
    if attr is None or isinstance(attr, ShardingAttr):
        return attr
    if isinstance(attr, StringAttr):
        try:
            return ShardingAttr.from_hlo_text(attr.data)
        except ShardingSyntaxError as e:
            raise PassFailedException(str(e)) from e
    raise PassFailedException(f"sharding attribute must be a string or #hlo.sharding, got {attr}")


def _producer_sharding(value: SSAValue) -> ShardingAttr | None:
    if isinstance(value, BlockArgument):
        parent = value.block.parent_op()
        if isinstance(parent, func.FuncOp) and parent.arg_attrs is not None:
            attrs = parent.arg_attrs.data[value.index]
            if isinstance(attrs, DictionaryAttr):
                return _as_sharding(attrs.data.get(SHARDING_ATTR))
        return None
    return _as_sharding(value.owner.attributes.get(SHARDING_ATTR))  # pyright: ignore[reportAttributeAccessIssue]


def _is_sharding_call(op: CustomCallOp) -> bool:
    return op.call_target_name.data == "Sharding"


@dataclass(frozen=True)
class SpmdExpandReshardPass(ModulePass):
    """Replace "Sharding" custom calls between two shardings with the reshard collectives."""

    name = "spmd-expand-reshard"

    use_iota_device_lists: bool = True
    remarks: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        remarks = Remarks(self.name, self.remarks)
        calls = [o for o in op.walk() if isinstance(o, CustomCallOp) and _is_sharding_call(o)]
        if not calls:
            return
        replicas, partitions = device_counts(calls[0])
        if NUM_PARTITIONS_ATTR not in op.attributes:
            for call in calls:
                remarks.remark(call, "kept: the module has no hlo.num_partitions")
            return
        creator = default_collective_ops_creator(partitions, replicas)
        channels = ChannelCounter(next_channel_id(op.walk()))
        for call in calls:
            self._lower(call, creator, channels, partitions, remarks)

    def _lower(
        self,
        call: CustomCallOp,
        creator: CollectiveOpsCreator,
        channels: ChannelCounter,
        partitions: int,
        remarks: Remarks,
    ) -> None:
        if len(call.inputs) != 1 or not isinstance(call.result.type, TensorType):
            remarks.remark(call, "kept: a reshard takes one tensor operand")
            return
        dst = _as_sharding(call.attributes.get(SHARDING_ATTR))
        value = call.inputs[0]
        src = _as_sharding(call.attributes.get(SOURCE_SHARDING_ATTR)) or _producer_sharding(value)
        if dst is None or src is None:
            remarks.remark(call, "kept: no source or no target sharding")
            return
        try:
            global_shape = global_shape_of(shape_of(value), src)
            strategy = choose_strategy(src, dst, global_shape, partitions)
            expected = shard_shape_of(global_shape, dst)
        except ReshardError as e:
            remarks.remark(call, f"kept: {e}")
            return
        if tuple(shape_of(call.result)) != expected:
            raise PassFailedException(
                f"Sharding custom call result {call.result.type} is not the target shard "
                f"shape {list(expected)} of {dst.to_hlo_text()}"
            )
        b = Builder(InsertPoint.before(call))
        e = Emitter(b, creator, channels, self.use_iota_device_lists)
        result = reshard_with(e, value, src, dst)
        remarks.remark(call, f"{src.to_hlo_text()} -> {dst.to_hlo_text()}: {strategy}")
        Rewriter.replace_op(call, [], [result])
