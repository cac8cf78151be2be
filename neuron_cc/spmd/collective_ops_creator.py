"""The SPMD collective-ops creator: the eight callbacks a partitioner emits collectives through.

A partitioner never builds collectives directly: it calls a `CollectiveOpsCreator` so that a
grouped (sub-mesh) sharding can swap in `per_group_collective_ops_creator`, which renumbers
devices, while the calling code stays identical (XLA's `SPMDCollectiveOpsCreator`).

Group ids given to the callbacks are partition ids of one replica. Every callback inserts its
ops at the builder's insertion point and returns the resulting SSA value. Channel ids are the
caller's business: seed a counter with `next_channel_id(module.walk())` and post-increment it
per collective.

```python
creator = default_collective_ops_creator(num_partitions=4, num_replicas=2)
b = Builder(InsertPoint.before(op))
total = creator.create_all_reduce(b, x, "hlo.add", [[0, 1], [2, 3]], channel)
```
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue

from neuron_cc.dialects.hlo.attributes import (
    DimensionsAttr,
    ReplicaGroupsAttr,
    SourceTargetPairsAttr,
)
from neuron_cc.dialects.hlo.builders import build_reduction_region
from neuron_cc.dialects.hlo.collectives import AllGatherOp, AllReduceOp, AllToAllOp
from neuron_cc.dialects.hlo.data_movement import BroadcastOp, DynamicSliceOp, ReshapeOp
from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp
from neuron_cc.dialects.hlo.p2p import UI32, CollectivePermuteOp, PartitionIdOp
from neuron_cc.dialects.hlo.types import is_float_type, tensor_type, tuple_type
from neuron_cc.dialects.replica_groups import next_channel_id
from neuron_cc.spmd.device_lists import expand_partition_groups_across_replicas, iota_or_explicit

__all__ = [
    "CollectiveOpsCreator",
    "PartitionGroups",
    "ReductionKind",
    "SourceTargetPairs",
    "default_collective_ops_creator",
    "next_channel_id",
    "per_group_collective_ops_creator",
]

ReductionKind = str
"""The hlo op name of the reducer: "hlo.add", "hlo.maximum", ... (see `build_reduction_region`)."""
PartitionGroups = Sequence[Sequence[int]]
"""Groups of partition ids (of one replica)."""
SourceTargetPairs = Sequence[tuple[int, int]]
"""collective_permute's (source, target) partition-id pairs."""

PartitionIdFn = Callable[[Builder], SSAValue]
AllReduceFn = Callable[[Builder, SSAValue, ReductionKind, PartitionGroups, int], SSAValue]
AllReduceIotaFn = Callable[[Builder, SSAValue, ReductionKind, ReplicaGroupsAttr, int], SSAValue]
CollectivePermuteFn = Callable[[Builder, SSAValue, SourceTargetPairs, int], SSAValue]
AllToAllFn = Callable[[Builder, Sequence[SSAValue], PartitionGroups, int, int | None], SSAValue]
AllToAllIotaFn = Callable[
    [Builder, Sequence[SSAValue], ReplicaGroupsAttr, int, int | None], SSAValue
]
AllGatherFn = Callable[[Builder, SSAValue, Attribute, PartitionGroups, int, int], SSAValue]
AllGatherIotaFn = Callable[[Builder, SSAValue, Attribute, ReplicaGroupsAttr, int, int], SSAValue]


@dataclass(frozen=True)
class CollectiveOpsCreator:
    """Eight callbacks emitting SPMD collectives (the order and signatures are the contract).

    `b` is an `xdsl.builder.Builder`: ops are inserted at its insertion point; each callback
    returns the resulting value. Group ids are partition ids of one replica.

    1. `create_partition_id(b)` -> this device's partition id (`tensor<ui32>`).
    2. `create_all_reduce(b, operand, reduction_kind, groups, channel_id)`: all-reduce
       within explicit partition groups; `reduction_kind` is the reducer's hlo op name.
    3. `create_all_reduce_iota(b, operand, reduction_kind, iota, channel_id)`: the same with
       an iota device list (`ReplicaGroupsAttr`, normally `[G,S]<=[dims]T(perm)`).
    4. `create_collective_permute(b, operand, src_dst_pairs, channel_id)`: send along the
       (source, target) partition pairs; non-targets receive zeros.
    5. `create_all_to_all(b, operands, groups, channel_id, split_dimension)`: one operand and
       an `int` dimension -> array form; `None` -> tuple form (one operand per group member).
    6. `create_all_to_all_iota(b, operands, iota, channel_id, split_dimension)`.
    7. `create_all_gather(b, operand, ag_type, groups, channel_id, all_gather_dimension)`:
       ONE operand, the gathered result type `ag_type` and the gather dimension.
    8. `create_all_gather_iota(b, operand, ag_type, iota, channel_id, all_gather_dimension)`.
    """

    create_partition_id: PartitionIdFn
    create_all_reduce: AllReduceFn
    create_all_reduce_iota: AllReduceIotaFn
    create_collective_permute: CollectivePermuteFn
    create_all_to_all: AllToAllFn
    create_all_to_all_iota: AllToAllIotaFn
    create_all_gather: AllGatherFn
    create_all_gather_iota: AllGatherIotaFn


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def _insert(b: Builder, op: Operation) -> SSAValue:
    b.insert(op)
    return op.results[0]


def _channel(channel_id: int) -> IntegerAttr:
    return IntegerAttr(channel_id, 64)


def _expand_per_replica(
    groups: ReplicaGroupsAttr, num_replicas: int, num_partitions: int, ordered: bool = False
) -> ReplicaGroupsAttr:
    """Flattened-id groups [r*P + p for p in g] for every replica r, replica-major.

    At most one explicit group means one group of ALL partitions per replica (as in XLA), except
    for an `ordered` collective (all-gather: members concatenate in group order) whose one
    group lists the partitions in another order; an iota list [G,S]<=[D]T(T) becomes
    [G*R,S]<=[R,D...]T(0,T+1...).
    """
    explicit = groups.groups() if not groups.is_iota else ()
    in_id_order = not explicit or list(explicit[0]) == sorted(explicit[0])
    if not groups.is_iota and len(explicit) <= 1 and (in_id_order or not ordered):
        groups = ReplicaGroupsAttr.explicit([])
    return expand_partition_groups_across_replicas(groups, num_replicas, num_partitions)


def zeros(b: Builder, t: Attribute) -> SSAValue:
    """Zeros of tensor type `t`: a scalar zero constant, broadcast unless `t` is a scalar."""
    tensor = tensor_type(t)
    element = tensor.element_type
    scalar = TensorType(element, [])
    value: float = 0.0 if is_float_type(element) else 0
    zero = _insert(b, ConstantOp(DenseIntOrFPElementsAttr.from_list(scalar, [value])))  # pyright: ignore[reportArgumentType, reportCallIssue]
    if not tensor.get_shape():
        return zero
    return _insert(
        b,
        BroadcastOp.create(
            operands=[zero], result_types=[tensor], properties={"dimensions": DimensionsAttr(())}
        ),
    )


def _all_reduce(
    b: Builder, operand: SSAValue, kind: ReductionKind, groups: ReplicaGroupsAttr, channel_id: int
) -> SSAValue:
    region = build_reduction_region(kind, tensor_type(operand.type).element_type)
    op = AllReduceOp.create(
        operands=[operand],
        result_types=[operand.type],
        properties={
            "replica_groups": groups,
            "channel_id": _channel(channel_id),
            "use_global_device_ids": UnitAttr(),
        },
        regions=[region],
    )
    return _insert(b, op)


def _all_to_all(
    b: Builder,
    operands: Sequence[SSAValue],
    groups: ReplicaGroupsAttr,
    channel_id: int,
    split_dimension: int | None,
) -> SSAValue:
    if not operands:
        raise ValueError("all_to_all needs at least one operand")
    types = [operands[0].type] * len(operands)
    result = types[0] if len(types) == 1 else tuple_type(types)
    properties: dict[str, Attribute] = {
        "replica_groups": groups,
        "channel_id": _channel(channel_id),
    }
    if split_dimension is not None:
        properties["split_dimension"] = IntegerAttr(split_dimension, 64)
    op = AllToAllOp.create(operands=list(operands), result_types=[result], properties=properties)
    return _insert(b, op)


def _all_gather(
    b: Builder,
    operand: SSAValue,
    ag_type: Attribute,
    groups: ReplicaGroupsAttr,
    channel_id: int,
    dimension: int,
) -> SSAValue:
    op = AllGatherOp.create(
        operands=[operand],
        result_types=[ag_type],
        properties={
            "replica_groups": groups,
            "channel_id": _channel(channel_id),
            "use_global_device_ids": UnitAttr(),
            "all_gather_dimension": IntegerAttr(dimension, 64),
        },
    )
    return _insert(b, op)


# ---------------------------------------------------------------------------------------------
# the default creator
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _DefaultCallbacks:
    """The callbacks of `default_collective_ops_creator` for R replicas x P partitions."""

    num_partitions: int
    num_replicas: int

    def _expand(self, groups: ReplicaGroupsAttr) -> ReplicaGroupsAttr:
        return _expand_per_replica(groups, self.num_replicas, self.num_partitions)

    def partition_id(self, b: Builder) -> SSAValue:
        return _insert(b, PartitionIdOp())

    def all_reduce(
        self,
        b: Builder,
        operand: SSAValue,
        kind: ReductionKind,
        groups: PartitionGroups,
        channel: int,
    ) -> SSAValue:
        attr = self._expand(ReplicaGroupsAttr.explicit(groups))
        return _all_reduce(b, operand, kind, attr, channel)

    def all_reduce_iota(
        self,
        b: Builder,
        operand: SSAValue,
        kind: ReductionKind,
        iota: ReplicaGroupsAttr,
        channel: int,
    ) -> SSAValue:
        return _all_reduce(b, operand, kind, self._expand(iota), channel)

    def collective_permute(
        self, b: Builder, operand: SSAValue, pairs: SourceTargetPairs, channel: int
    ) -> SSAValue:
        if not pairs:
            return zeros(b, operand.type)
        if len(pairs) == self.num_partitions and all(s == t for s, t in pairs):
            return operand
        op = CollectivePermuteOp.create(
            operands=[operand],
            result_types=[operand.type],
            properties={
                "source_target_pairs": SourceTargetPairsAttr(tuple(pairs)),
                "channel_id": _channel(channel),
            },
        )
        return _insert(b, op)

    def all_to_all(
        self,
        b: Builder,
        operands: Sequence[SSAValue],
        groups: PartitionGroups,
        channel: int,
        split_dimension: int | None,
    ) -> SSAValue:
        attr = ReplicaGroupsAttr.explicit(groups)
        return _all_to_all(b, operands, attr, channel, split_dimension)

    def all_to_all_iota(
        self,
        b: Builder,
        operands: Sequence[SSAValue],
        iota: ReplicaGroupsAttr,
        channel: int,
        split_dimension: int | None,
    ) -> SSAValue:
        # cross_partition mode: the ids are partition ids, so the list is not expanded.
        return _all_to_all(b, operands, iota, channel, split_dimension)

    def all_gather(
        self,
        b: Builder,
        operand: SSAValue,
        ag_type: Attribute,
        groups: PartitionGroups,
        channel: int,
        dimension: int,
    ) -> SSAValue:
        attr = _expand_per_replica(
            ReplicaGroupsAttr.explicit(groups), self.num_replicas, self.num_partitions, True
        )
        return _all_gather(b, operand, ag_type, attr, channel, dimension)

    def all_gather_iota(
        self,
        b: Builder,
        operand: SSAValue,
        ag_type: Attribute,
        iota: ReplicaGroupsAttr,
        channel: int,
        dimension: int,
    ) -> SSAValue:
        return _all_gather(b, operand, ag_type, self._expand(iota), channel, dimension)


def default_collective_ops_creator(num_partitions: int, num_replicas: int) -> CollectiveOpsCreator:
    """XLA's default creator for `num_partitions` partitions x `num_replicas` replicas.

    - partition id: `hlo.partition_id`.
    - all_reduce / all_gather: flattened ids (use_global_device_ids, the given channel id) with
      the partition groups repeated for every replica, replica-major ([r*P + p for p in g]);
      at most one explicit group means all partitions; an iota list [G,S]<=[D]T(T) (G*S == P)
      becomes [G*R,S]<=[R,D...]T(0,T+1...). all_reduce's reducer is built for the kind.
    - collective_permute: no pairs -> zeros of the operand type (a zero constant, broadcast
      unless the operand is a scalar); P identity pairs -> the operand itself; else
      `hlo.collective_permute` (cross_partition: the pairs are partition ids).
    - all_to_all: cross_partition, the groups (explicit or iota) are passed through as
      partition ids; array form with a split dimension, tuple form without.
    """
    if num_partitions <= 0 or num_replicas <= 0:
        raise ValueError(
            f"need positive partition and replica counts, got {num_partitions} and {num_replicas}"
        )
    c = _DefaultCallbacks(num_partitions, num_replicas)
    return CollectiveOpsCreator(
        c.partition_id,
        c.all_reduce,
        c.all_reduce_iota,
        c.collective_permute,
        c.all_to_all,
        c.all_to_all_iota,
        c.all_gather,
        c.all_gather_iota,
    )


# ---------------------------------------------------------------------------------------------
# the per-group creator
# ---------------------------------------------------------------------------------------------


def _expand_device_groups(
    device_groups: Sequence[tuple[int, ...]], subgroups: PartitionGroups
) -> list[list[int]]:
    """XLA's ExpandDeviceGroups: out[g*|sub| + i][j] = device_groups[g][sub[i][j]].

    E.g. device groups {0,1,2,3},{4,5,6,7} and subgroups {0,2},{1,3} -> {0,2},{1,3},{4,6},{5,7}.
    """
    if not subgroups:
        return [list(g) for g in device_groups]
    return [[group[i] for i in sub] for group in device_groups for sub in subgroups]


def _in_group_index_table(device_groups: Sequence[tuple[int, ...]]) -> list[int]:
    """table[device] = the device's index inside its group."""
    size = 1 + max((d for g in device_groups for d in g), default=-1)
    table = [0] * size
    for group in device_groups:
        for j, device in enumerate(group):
            table[device] = j
    return table


def _table_lookup(b: Builder, table: Sequence[int], index: SSAValue) -> SSAValue:
    """table[index] as a `tensor<ui32>`: a u32 constant, dynamic_slice of size 1, reshape."""
    table_type = TensorType(UI32, [len(table)])
    constant = _insert(b, ConstantOp(DenseIntOrFPElementsAttr.from_list(table_type, list(table))))
    sliced = _insert(
        b,
        DynamicSliceOp.create(
            operands=[constant, index],
            result_types=[TensorType(UI32, [1])],
            properties={"slice_sizes": DimensionsAttr((1,))},
        ),
    )
    return _insert(b, ReshapeOp.create(operands=[sliced], result_types=[TensorType(UI32, [])]))


def _checked_device_groups(device_groups: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    groups = tuple(tuple(int(d) for d in g) for g in device_groups)
    if not groups or not groups[0]:
        raise ValueError("per-group creator needs at least one non-empty device group")
    if len({len(g) for g in groups}) != 1:
        raise ValueError(
            f"device groups must have one size, got {sorted({len(g) for g in groups})}"
        )
    flat = [d for g in groups for d in g]
    if len(set(flat)) != len(flat) or min(flat) < 0:
        raise ValueError("device groups must hold distinct non-negative partition ids")
    return groups


@dataclass(frozen=True)
class _PerGroupCallbacks:
    """The callbacks of `per_group_collective_ops_creator`."""

    creator: CollectiveOpsCreator
    groups: tuple[tuple[int, ...], ...]
    table: tuple[int, ...]

    def _expand(self, subgroups: PartitionGroups) -> list[list[int]]:
        return _expand_device_groups(self.groups, subgroups)

    def _expand_iota(self, iota: ReplicaGroupsAttr) -> ReplicaGroupsAttr | list[list[int]]:
        """The iota's groups translated per device group: an iota list when one exists."""
        expanded = iota_or_explicit(ReplicaGroupsAttr.explicit(self._expand(iota.groups())))
        return expanded if expanded.is_iota else [list(g) for g in expanded.groups()]

    def partition_id(self, b: Builder) -> SSAValue:
        return _table_lookup(b, self.table, self.creator.create_partition_id(b))

    def all_reduce(
        self, b: Builder, operand: SSAValue, kind: ReductionKind, sub: PartitionGroups, channel: int
    ) -> SSAValue:
        return self.creator.create_all_reduce(b, operand, kind, self._expand(sub), channel)

    def all_reduce_iota(
        self,
        b: Builder,
        operand: SSAValue,
        kind: ReductionKind,
        iota: ReplicaGroupsAttr,
        channel: int,
    ) -> SSAValue:
        sub = self._expand_iota(iota)
        if isinstance(sub, ReplicaGroupsAttr):
            return self.creator.create_all_reduce_iota(b, operand, kind, sub, channel)
        return self.creator.create_all_reduce(b, operand, kind, sub, channel)

    def collective_permute(
        self, b: Builder, operand: SSAValue, pairs: SourceTargetPairs, channel: int
    ) -> SSAValue:
        translated = [(g[s], g[t]) for g in self.groups for s, t in pairs]
        return self.creator.create_collective_permute(b, operand, translated, channel)

    def all_to_all(
        self,
        b: Builder,
        operands: Sequence[SSAValue],
        sub: PartitionGroups,
        channel: int,
        split_dimension: int | None,
    ) -> SSAValue:
        groups = self._expand(sub)
        return self.creator.create_all_to_all(b, operands, groups, channel, split_dimension)

    def all_to_all_iota(
        self,
        b: Builder,
        operands: Sequence[SSAValue],
        iota: ReplicaGroupsAttr,
        channel: int,
        split_dimension: int | None,
    ) -> SSAValue:
        sub = self._expand_iota(iota)
        if isinstance(sub, ReplicaGroupsAttr):
            return self.creator.create_all_to_all_iota(b, operands, sub, channel, split_dimension)
        return self.creator.create_all_to_all(b, operands, sub, channel, split_dimension)

    def all_gather(
        self,
        b: Builder,
        operand: SSAValue,
        ag_type: Attribute,
        sub: PartitionGroups,
        channel: int,
        dimension: int,
    ) -> SSAValue:
        groups = self._expand(sub)
        return self.creator.create_all_gather(b, operand, ag_type, groups, channel, dimension)

    def all_gather_iota(
        self,
        b: Builder,
        operand: SSAValue,
        ag_type: Attribute,
        iota: ReplicaGroupsAttr,
        channel: int,
        dimension: int,
    ) -> SSAValue:
        sub = self._expand_iota(iota)
        create = self.creator
        if isinstance(sub, ReplicaGroupsAttr):
            return create.create_all_gather_iota(b, operand, ag_type, sub, channel, dimension)
        return create.create_all_gather(b, operand, ag_type, sub, channel, dimension)


def per_group_collective_ops_creator(
    creator: CollectiveOpsCreator, device_groups: Sequence[Sequence[int]]
) -> CollectiveOpsCreator:
    """A creator working inside each of `device_groups` (equal-size lists of partition ids).

    Group ids given to its callbacks are indices within a device group; they are translated to
    partition ids for every group g (group-major: out[g*|sub| + i][j] =
    device_groups[g][sub[i][j]]; no subgroups -> the device groups themselves) before calling
    `creator`; permute pairs (s, t) become (device_groups[g][s], device_groups[g][t]) for every
    g. Its partition id is the in-group index (a u32 table constant indexed by the partition
    id). One group 0..n-1 returns `creator` itself. The iota variants expand the list, translate
    it, and call `creator`'s iota variant when the translated groups form an iota list (as
    XLA's ExpandDeviceGroupsWithIota), else its explicit variant.
    """
    groups = _checked_device_groups(device_groups)
    if len(groups) == 1 and groups[0] == tuple(range(len(groups[0]))):
        return creator
    c = _PerGroupCallbacks(creator, groups, tuple(_in_group_index_table(groups)))
    return CollectiveOpsCreator(
        c.partition_id,
        c.all_reduce,
        c.all_reduce_iota,
        c.collective_permute,
        c.all_to_all,
        c.all_to_all_iota,
        c.all_gather,
        c.all_gather_iota,
    )
