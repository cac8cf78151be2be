"""The exact rewrites the XLA oracle (`neuron_cc.testing.xla_oracle`) applies before export.

`partitions_to_replicas` (a 1-replica, P-partition module as the same program on P replicas),
`split_variadic_collectives` (one collective per operand plus an `hlo.tuple`; a mixed-type
reducer rebuilt at each operand's type), `unique_channel_ids`, `explicit_all_to_all_groups` and
`mark_manual` (every instruction and parameter `sharding={manual}`, whiles and conditionals left
to sharding propagation), with the module attribute names they read and write.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.dialects.hlo.attributes import ReplicaGroupsAttr
from neuron_cc.dialects.hlo.builders import build_reduction_region
from neuron_cc.dialects.hlo.collectives import (
    AllGatherOp,
    AllReduceOp,
    AllToAllOp,
    CollectiveBroadcastOp,
    CollectiveOp,
    ReduceScatterOp,
)
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, TupleOp
from neuron_cc.dialects.hlo.control_flow import ReturnOp as HloReturnOp
from neuron_cc.dialects.hlo.data_movement import CopyOp
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp, PartitionIdOp, ReplicaIdOp
from neuron_cc.dialects.hlo.types import tensor_type
from neuron_cc.dialects.replica_groups import device_counts, id_space_size
from neuron_cc.dialects.sharding import Sharding, ShardingAttr

# --- partitions -> replicas -------------------------------------------------------------------

NUM_REPLICAS = "hlo.num_replicas"
NUM_PARTITIONS = "hlo.num_partitions"
SPMD = "hlo.use_spmd_partitioning"
MODULE_CONFIG = "xla.module_config"
SHARDING = "xla.sharding"
# Entries of the module header that describe partitioning only.
_SPMD_CONFIG_PREFIX = "allow_spmd_sharding_propagation"
_UNSUPPORTED = {
    "hlo.send": "send/recv",
    "hlo.recv": "send/recv",
    "hlo.send_done": "send/recv",
    "hlo.recv_done": "send/recv",
    "hlo.replica_id": "replica_id in a partitioned module",
}


class ReplicaRewriteError(Exception):
    """The module uses something with no replica equivalent (the message says what)."""


def _check_supported(op: Operation) -> None:
    reason = _UNSUPPORTED.get(op.name)
    if reason is not None:
        raise ReplicaRewriteError(f"{op.name}: {reason} has no cross-replica rewrite")
    if op.name == "hlo.custom_call":
        target = op.properties["call_target_name"]
        name = target.data if isinstance(target, StringAttr) else str(target)
        raise ReplicaRewriteError(f"custom_call target {name!r} has no cross-replica rewrite")
    if isinstance(op, CollectivePermuteOp) and op.channel_id is None:
        raise ReplicaRewriteError(
            "collective_permute without channel_id permutes replicas of a 1-replica module"
        )


def _rewrite_collective(op: CollectiveOp, partitions: int) -> None:
    if op.channel_id is None:
        # Cross-replica over a single replica: every partition is alone in its group.
        groups: Sequence[Sequence[int]] = [[i] for i in range(partitions)]
    else:
        groups = op.replica_groups.groups()
        del op.properties["channel_id"]
    op.properties["replica_groups"] = ReplicaGroupsAttr.explicit(groups)
    op.properties.pop("use_global_device_ids", None)


def _rewrite_partition_id(op: PartitionIdOp) -> None:
    new = ReplicaIdOp()
    new.attributes.update(op.attributes)
    new.result.name_hint = op.result.name_hint
    Rewriter.replace_op(op, new)


def _drop_sharding(attrs: ArrayAttr[DictionaryAttr]) -> ArrayAttr[DictionaryAttr]:
    return ArrayAttr(
        [DictionaryAttr({k: v for k, v in d.data.items() if k != SHARDING}) for d in attrs]
    )


def _rewrite_module_attrs(module: ModuleOp, partitions: int) -> None:
    module.attributes[NUM_REPLICAS] = IntegerAttr(partitions, 64)
    module.attributes[NUM_PARTITIONS] = IntegerAttr(1, 64)
    module.attributes.pop(SPMD, None)
    _drop_spmd_config(module)


def _drop_spmd_config(module: ModuleOp) -> None:
    config = module.attributes.get(MODULE_CONFIG)
    if isinstance(config, DictionaryAttr):
        kept = {k: v for k, v in config.data.items() if not k.startswith(_SPMD_CONFIG_PREFIX)}
        module.attributes[MODULE_CONFIG] = DictionaryAttr(kept)


def _rewrite_op(op: Operation, partitions: int) -> None:
    op.attributes.pop(SHARDING, None)
    if isinstance(op, CollectiveOp):
        _rewrite_collective(op, partitions)
    elif isinstance(op, CollectivePermuteOp):
        del op.properties["channel_id"]
    elif isinstance(op, PartitionIdOp):
        _rewrite_partition_id(op)
    elif isinstance(op, FuncOp):
        if op.arg_attrs is not None:
            op.arg_attrs = _drop_sharding(op.arg_attrs)
        if op.res_attrs is not None:
            op.res_attrs = _drop_sharding(op.res_attrs)


def partitions_to_replicas(module: ModuleOp) -> ModuleOp:
    """Rewrite (in place) a P-partition, 1-replica module into the same program on P replicas.

    Collectives lose `channel_id` and `use_global_device_ids` (so they become cross-replica
    over the same ids), iota replica groups become explicit lists, `partition_id` becomes
    `replica_id`, and partition shardings are dropped. Raises ReplicaRewriteError for ops with
    no equivalent (send/recv, custom calls, replica_id, collective_permute without channel_id)
    before changing anything.
    """
    replicas, partitions = device_counts(module)
    if replicas != 1:
        raise ReplicaRewriteError(f"expected 1 replica, got {replicas}")
    ops = list(module.walk())
    for op in ops:
        _check_supported(op)
    for op in ops:
        _rewrite_op(op, partitions)
    _rewrite_module_attrs(module, partitions)
    return module


# --- variadic collectives, one per operand ----------------------------------------------------

SPLIT = (AllReduceOp, AllGatherOp, ReduceScatterOp, CollectiveBroadcastOp)


def _reducer_at(region: Region, element: Attribute) -> Region | None:
    """`region` (cloned) for operands of `element`; a rebuilt simple reducer when it is typed
    for another element type (a mixed-type collective); None if it cannot be retyped."""
    block = region.blocks.first
    scalar = block.args[0].type if block is not None and block.args else None
    if not isinstance(scalar, TensorType) or scalar.element_type == element:
        return region.clone()
    kind = reduction_kind(region)
    return None if kind is None else build_reduction_region(kind, element)


def _split_one(op: Operation) -> bool:
    """Replace variadic collective `op` by one clone per operand and an `hlo.tuple`."""
    result = op.results[0].type
    if not isinstance(result, TupleType):
        return False
    clones: list[Operation] = []
    for i, operand in enumerate(op.operands):
        regions: list[Region] = []
        for region in op.regions:
            retyped = _reducer_at(region, tensor_type(operand.type).element_type)
            if retyped is None:
                return False
            regions.append(retyped)
        clone = type(op).create(
            operands=[operand],
            result_types=[result.types.data[i]],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=regions,
        )
        clones.append(clone)
    tup = TupleOp(clones)
    tup.attributes.update({k: v for k, v in op.attributes.items() if k == SHARDING})
    Rewriter.insert_op([*clones, tup], InsertPoint.before(op))
    Rewriter.replace_op(op, [], [tup.result])
    return True


def split_variadic_collectives(
    module: ModuleOp, kinds: tuple[type[Operation], ...] | None = None
) -> int:
    """Split every variadic all_reduce, all_gather, reduce_scatter and collective_broadcast of
    `module` (or only those of `kinds`; in place, in every computation) into single-operand
    clones (same groups, channel id, flags and dimension; a mixed-type reducer rebuilt at each
    operand's element type) and a tuple of them. Returns how many were split; a mixed-type
    collective whose reducer is not a simple one is left as it is."""
    wanted = kinds if kinds is not None else SPLIT
    ops = [
        op
        for op in module.walk()
        if isinstance(op, SPLIT) and isinstance(op, wanted) and len(op.operands) > 1
    ]
    return sum(_split_one(op) for op in ops)


def unique_channel_ids(module: ModuleOp) -> int:
    """Give every collective with a channel id (all but send/recv, whose ids pair them) its own
    id, 1, 2, ... in walk order, skipping the send/recv ids; in place, returns how many. The
    value of a collective's channel id means nothing in an SPMD program (only its presence
    picks the group mode), but XLA:CPU refuses some loops with two all-reduces of one id
    ("layout minor_to_major field contains 0 elements"), which splitting a variadic collective
    would otherwise create."""
    kinds = (CollectiveOp, CollectivePermuteOp)
    ops = [op for op in module.walk() if "channel_id" in op.properties]
    taken = {_channel(op) for op in ops if not isinstance(op, kinds)}
    renumbered = [op for op in ops if isinstance(op, kinds)]
    fresh = (i for i in itertools.count(1) if i not in taken)
    for op, channel in zip(renumbered, fresh, strict=False):
        op.properties["channel_id"] = IntegerAttr(channel, 64)
    return len(renumbered)


def _channel(op: Operation) -> int:
    attr = op.properties["channel_id"]
    return int(attr.value.data) if isinstance(attr, IntegerAttr) else 0


def explicit_all_to_all_groups(module: ModuleOp) -> int:
    """Write the empty replica groups (everybody) of every all_to_all as the one explicit group
    of every id of its mode (XLA:CPU refuses an array all_to_all with empty groups); in place,
    returns how many changed."""
    replicas, partitions = device_counts(module)
    changed = 0
    for op in module.walk():
        if isinstance(op, AllToAllOp) and not op.replica_groups.groups():
            ids = range(id_space_size(op.mode(), replicas, partitions))
            op.properties["replica_groups"] = ReplicaGroupsAttr.explicit([list(ids)])
            changed += 1
    return changed


# --- manual sharding ------------------------------------------------------------------------

_NOT_INSTRUCTIONS = (FuncOp, ReturnOp, HloReturnOp, ModuleOp)
# Left to sharding propagation: jax's HLO -> StableHLO conversion gets a while's tuple sharding
# wrong (it drops duplicated loop-carried values but keeps their shardings), and the
# partitioner aborts on a manual conditional.
_PROPAGATED = ("hlo.while", "hlo.conditional")


def _leaves(t: Attribute) -> int:
    if isinstance(t, TupleType):
        return sum(_leaves(e) for e in t.types.data)
    return 1


def _manual_for(t: Attribute) -> ShardingAttr:
    """`{manual}`, or for a tuple one `{manual}` per leaf."""
    if not isinstance(t, TupleType):
        return ShardingAttr(Sharding("manual"))
    return ShardingAttr(Sharding("tuple", elements=(Sharding("manual"),) * _leaves(t)))


def _repack(value: SSAValue, before: Operation) -> SSAValue:
    """An identity copy of `value` (a tuple rebuilt from its elements, else `hlo.copy`)."""
    t = value.type
    if isinstance(t, TupleType):
        elements = [GetTupleElementOp(value, i) for i in range(len(t.types.data))]
        tup = TupleOp(elements)
        Rewriter.insert_op([*elements, tup], InsertPoint.before(before))
        return tup.result
    copy = CopyOp.create(operands=[value], result_types=[t])
    Rewriter.insert_op(copy, InsertPoint.before(before))
    return copy.results[0]


def _annotatable_roots(module: ModuleOp) -> None:
    """A computation whose ROOT would be a while or conditional (left unannotated) returns an
    identity copy of it instead: the partitioner needs the ROOT's sharding."""
    for ret in [op for op in module.walk() if isinstance(op, ReturnOp | HloReturnOp)]:
        for i, operand in enumerate(ret.operands):
            if isinstance(operand.owner, Operation) and operand.owner.name in _PROPAGATED:
                ret.operands[i] = _repack(operand, ret)


def mark_manual(module: ModuleOp) -> None:
    """Mark every instruction and function parameter of `module` `sharding={manual}` (in
    place; the parameters of regions have no attributes: `xla_case` marks them on the text):
    XLA's SPMD partitioner then leaves the per-partition program as it is. Whiles and
    conditionals are left to sharding propagation (see _PROPAGATED), and never made a ROOT."""
    manual = ShardingAttr.from_hlo_text("{manual}")
    _annotatable_roots(module)
    for op in module.walk():
        if isinstance(op, FuncOp):
            count = len(op.function_type.inputs.data)
            old = op.arg_attrs.data if op.arg_attrs is not None else [DictionaryAttr({})] * count
            op.arg_attrs = ArrayAttr([DictionaryAttr({**d.data, SHARDING: manual}) for d in old])
        elif not isinstance(op, _NOT_INSTRUCTIONS) and op.results and op.name not in _PROPAGATED:
            op.attributes[SHARDING] = _manual_for(op.results[0].type)
    _drop_spmd_config(module)
