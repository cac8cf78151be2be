"""Resharding per-partition values between two shardings (XLA's PartitionedHlo::Reshard).

All functions work on PER-PARTITION values (the shard a partition holds) and emit ops through a
`Builder` and a `CollectiveOpsCreator`; every collective takes `channels.next()`. Device ids in
shardings are the creator's partition ids. Shapes must divide evenly (no padded shards).

`reshard(b, value, src, dst, creator, channels)` picks, in order:

1. no-op: the same placement (or both fully replicated);
2. `collective_permute`: both tiled with identical tile shapes/replication, only the device order
   differs; pairs (src.tile[idx], dst.tile[idx]) in row-major order of the full tile shape;
3. `all_to_all` / `all_to_all+permute`: both tiled with the same tile count and replication,
   other tile counts per dim: a chain of all-to-alls, each moving a factor k of one dim's tiles
   to another dim (`all_to_all_plan`; per step: reshape (split j into k x rest) -> array
   all_to_all on the k axis within the groups -> transpose k before i -> reshape), then one
   collective-permute when the devices end at other positions than the target's;
4. tiled -> (partially) replicated: `all_gather_shards` over the dims the target replicates,
   when each device's gathered block is exactly its target block;
5. (partially) replicated -> tiled: when every device's target block lies inside the block it
   holds, a `dynamic_slice` at offsets read from per-dim table constants by partition_id;
6. `all_gather+all_to_all` / `all_to_all+all_gather`: tiles move and the replication grows:
   gather the factors the source has more tiles of (`tiles_as_replication`), then step 3; or
   step 2/3 to the target's replication split into tile factors (`replication_as_tiles`),
   then one all_gather. Gathering first is chosen when its all-to-all needs no permute (one
   launch fewer), else the all-to-all first (fewer bytes);
7. `slice+all_to_all`: tiles move and the replication shrinks: a dynamic_slice to the source's
   replication split into tile factors, then step 2/3;
8. otherwise: all_gather every tiled dim (replicate), then step 5.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, i32
from xdsl.ir import Operation, SSAValue

from neuron_cc.dialects.hlo.attributes import DimensionsAttr, ReplicaGroupsAttr
from neuron_cc.dialects.hlo.data_movement import DynamicSliceOp, ReshapeOp, TransposeOp
from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp
from neuron_cc.dialects.hlo.types import shape_of, tensor_type
from neuron_cc.dialects.sharding import ShardingAttr
from neuron_cc.spmd.all_to_all_plan import (
    AllToAllPlan,
    AllToAllStep,
    plan_all_to_all,
    replication_as_tiles,
    tile_shape_after,
    tiles_as_replication,
)
from neuron_cc.spmd.collective_ops_creator import CollectiveOpsCreator
from neuron_cc.spmd.device_lists import iota_or_explicit

Shape = tuple[int, ...]


class ReshardError(ValueError):
    """A (source, target) sharding pair or shape this library cannot reshard."""


@dataclass
class ChannelCounter:
    """Post-incrementing channel ids: seed with `next_channel_id(module.walk())`."""

    value: int = 1

    def next(self) -> int:
        current = self.value
        self.value += 1
        return current


@dataclass(frozen=True)
class Emitter:
    """What every emitting function needs: where, how, channel ids and the device-list form."""

    b: Builder
    creator: CollectiveOpsCreator
    channels: ChannelCounter
    use_iota_device_lists: bool = True


# ---------------------------------------------------------------------------------------------
# small builders
# ---------------------------------------------------------------------------------------------


def insert(b: Builder, op: Operation) -> SSAValue:
    b.insert(op)
    return op.results[0]


def i32_constant(b: Builder, values: Sequence[int], shape: Sequence[int]) -> SSAValue:
    t = TensorType(i32, list(shape))
    return insert(b, ConstantOp(DenseIntOrFPElementsAttr.from_list(t, list(values))))


def reshape(b: Builder, value: SSAValue, shape: Sequence[int]) -> SSAValue:
    t = TensorType(tensor_type(value).element_type, list(shape))
    if value.type == t:
        return value
    return insert(b, ReshapeOp.create(operands=[value], result_types=[t]))


def table_lookup(b: Builder, table: Sequence[int], index: SSAValue) -> SSAValue:
    """`table[index]` as a `tensor<i32>`: constant, dynamic_slice of size 1, reshape."""
    constant = i32_constant(b, table, [len(table)])
    sliced = insert(
        b,
        DynamicSliceOp.create(
            operands=[constant, index],
            result_types=[TensorType(i32, [1])],
            properties={"slice_sizes": DimensionsAttr((1,))},
        ),
    )
    return reshape(b, sliced, [])


def per_partition_value(e: Emitter, table: Sequence[int], pid: SSAValue | None) -> SSAValue:
    """A `tensor<i32>` scalar: a constant when `table` is uniform, else table[partition_id]."""
    if len(set(table)) <= 1:
        return i32_constant(e.b, [table[0] if table else 0], [])
    if pid is None:
        pid = e.creator.create_partition_id(e.b)
    return table_lookup(e.b, table, pid)


# ---------------------------------------------------------------------------------------------
# device groups and gathers
# ---------------------------------------------------------------------------------------------


def _full_assignment(sharding: ShardingAttr, num_devices: int, rank: int) -> np.ndarray:
    """The tile assignment with a trailing replication axis; replicated = [1]*rank + [D]."""
    if sharding.is_tiled:
        return sharding.tile_assignment_with_replication()
    if sharding.data.kind == "replicated":
        return np.arange(num_devices, dtype=np.int64).reshape([1] * rank + [num_devices])
    raise ReshardError(f"unsupported sharding {sharding.to_hlo_text()}")


def partition_groups_for_replication(
    sharding: ShardingAttr, dims: Sequence[int], use_iota: bool = True
) -> ReplicaGroupsAttr:
    """Groups of partitions that differ only in their tile index along `dims`.

    Groups in row-major order of the other tile indices (incl. the replication index), members
    in row-major order of their indices along `dims`; e.g. tile [2,2] over devices 0..3:
    dims {0} -> {0,2},{1,3}; dims {1} -> {0,1},{2,3}. Iota form when one exists and `use_iota`.
    """
    ta = sharding.tile_assignment_with_replication()
    selected = sorted(set(dims))
    others = [a for a in range(ta.ndim) if a not in selected]
    size = int(np.prod([ta.shape[d] for d in selected], dtype=np.int64))
    groups = ta.transpose(others + selected).reshape(-1, size)
    attr = ReplicaGroupsAttr.explicit(groups.tolist())
    return iota_or_explicit(attr) if use_iota else attr


def _gather_along(e: Emitter, value: SSAValue, groups: ReplicaGroupsAttr, dim: int) -> SSAValue:
    t = tensor_type(value)
    shape = list(t.get_shape())
    shape[dim] *= len(groups.groups()[0])
    ag_type = TensorType(t.element_type, shape)
    channel = e.channels.next()
    if groups.is_iota:
        return e.creator.create_all_gather_iota(e.b, value, ag_type, groups, channel, dim)
    return e.creator.create_all_gather(e.b, value, ag_type, groups.groups(), channel, dim)


def all_gather_shards_with(
    e: Emitter, value: SSAValue, sharding: ShardingAttr, dims: Sequence[int]
) -> SSAValue:
    """Replicate `value` along `dims`: one all_gather per dim, in REVERSE dim order.

    Dims with tile size 1 are skipped; each all_gather gets a new channel id.
    """
    for dim in sorted(set(dims), reverse=True):
        if sharding.tile_dims[dim] == 1:
            continue
        groups = partition_groups_for_replication(sharding, [dim], e.use_iota_device_lists)
        value = _gather_along(e, value, groups, dim)
    return value


def all_reduce_along_sharding_dims_with(
    e: Emitter,
    value: SSAValue,
    sharding: ShardingAttr,
    dims: Sequence[int],
    kind: str,
    *,
    per_dim: bool = False,
) -> SSAValue:
    """Reduce `value` (reducer op name `kind`, e.g. "hlo.add") over the partitions tiling `dims`.

    One all_reduce over the combined groups (the partitions that differ only in their tile
    indices along `dims`), as XLA's AllReduceAlongShardingDims does; dims with one tile add
    nothing, and none at all leaves `value` as it is. `per_dim` emits the older chain instead:
    one all_reduce per dim in REVERSE order, each over that dim's groups (more launches, and
    a float sum associated differently). Every all_reduce takes a new channel id.
    """
    tiled = [d for d in sorted(set(dims)) if sharding.tile_dims[d] != 1]
    if not tiled:
        return value
    for group_dims in [[d] for d in reversed(tiled)] if per_dim else [tiled]:
        groups = partition_groups_for_replication(sharding, group_dims, e.use_iota_device_lists)
        channel = e.channels.next()
        if groups.is_iota:
            value = e.creator.create_all_reduce_iota(e.b, value, kind, groups, channel)
        else:
            value = e.creator.create_all_reduce(e.b, value, kind, groups.groups(), channel)
    return value


# ---------------------------------------------------------------------------------------------
# the strategies
# ---------------------------------------------------------------------------------------------


def _tiles(sharding: ShardingAttr, rank: int) -> Shape:
    return sharding.tile_dims if sharding.is_tiled else (1,) * rank


def _tile_index_of(ta: np.ndarray) -> dict[int, Shape]:
    """device -> data-dim tile index (the last axis of `ta` is the replication axis)."""
    return {int(d): tuple(int(i) for i in idx[:-1]) for idx, d in np.ndenumerate(ta)}


def _permute(e: Emitter, value: SSAValue, src: ShardingAttr, dst: ShardingAttr) -> SSAValue:
    pairs = [
        (int(s), int(t))
        for s, t in zip(src.tile_assignment().flat, dst.tile_assignment().flat, strict=True)
    ]
    return e.creator.create_collective_permute(e.b, value, pairs, e.channels.next())


def _all_to_all_plan(
    src: ShardingAttr, dst: ShardingAttr, global_shape: Shape, devices: int
) -> AllToAllPlan | None:
    if not (src.is_tiled and dst.is_tiled):
        return None
    rank = len(global_shape)
    return plan_all_to_all(
        _full_assignment(src, devices, rank),
        _full_assignment(dst, devices, rank),
        shard_shape_of(global_shape, src),
    )


def _all_to_all(e: Emitter, value: SSAValue, step: AllToAllStep) -> SSAValue:
    """One step of an all-to-all plan: reshape -> all_to_all -> transpose -> reshape."""
    shape = shape_of(value)
    i, j, k = step.source, step.target, step.factor
    split = [*shape[:j], k, shape[j] // k, *shape[j + 1 :]]
    reshaped = reshape(e.b, value, split)
    groups = ReplicaGroupsAttr.explicit([list(g) for g in step.groups])
    if e.use_iota_device_lists:
        groups = iota_or_explicit(groups)
    channel = e.channels.next()
    if groups.is_iota:
        exchanged = e.creator.create_all_to_all_iota(e.b, [reshaped], groups, channel, j)
    else:
        exchanged = e.creator.create_all_to_all(e.b, [reshaped], groups.groups(), channel, j)
    # axes of `split`: dims before j keep their index, k is at j, the rest shifts by one
    labels = [d if d < j else d + 1 for d in range(len(shape))]
    order: list[int] = []
    for d in range(len(shape)):
        if d == i:
            order.append(j)
        order.append(labels[d])
    t = tensor_type(exchanged)
    transposed_shape = [split[a] for a in order]
    transposed = exchanged
    if order != list(range(len(order))):
        transposed = insert(
            e.b,
            TransposeOp.create(
                operands=[exchanged],
                result_types=[TensorType(t.element_type, transposed_shape)],
                properties={"permutation": DimensionsAttr(tuple(order))},
            ),
        )
    return reshape(e.b, transposed, tile_shape_after(shape, step))


def _run_all_to_all_plan(e: Emitter, value: SSAValue, plan: AllToAllPlan) -> SSAValue:
    for step in plan.steps:
        value = _all_to_all(e, value, step)
    if plan.permute is not None:
        value = e.creator.create_collective_permute(
            e.b, value, list(plan.permute), e.channels.next()
        )
    return value


@dataclass(frozen=True)
class _Gather:
    dim: int
    groups: tuple[tuple[int, ...], ...]


def _gathers(src: ShardingAttr, dst: ShardingAttr, rank: int, devices: int) -> list[_Gather]:
    """The all_gathers taking src to dst when that is exactly right, else raise ReshardError.

    A dim whose tile count drops by a factor f (to 1: a full gather; to more: a partial one,
    e.g. [4 rep 2] -> [2 rep 4]) is gathered over the groups of partitions that differ only in
    the minor part (index mod f) of their tile index along it; each device's target block must
    be the one its source block lies in."""
    if not src.is_tiled:
        raise ReshardError("not tiled")
    s_ta, d_ta = _full_assignment(src, devices, rank), _full_assignment(dst, devices, rank)
    s_tiles, d_tiles = s_ta.shape[:-1], d_ta.shape[:-1]
    dims = [d for d in range(rank) if s_tiles[d] != d_tiles[d]]
    if any(s_tiles[d] % d_tiles[d] for d in dims):
        raise ReshardError("target tiles a dim differently")
    factor = {d: s_tiles[d] // d_tiles[d] for d in dims}
    dst_idx = _tile_index_of(d_ta)
    for device, idx in _tile_index_of(s_ta).items():
        expected = tuple(t // factor.get(d, 1) for d, t in enumerate(idx))
        if dst_idx.get(device) != expected:
            raise ReshardError("device placement differs")
    gathers: list[_Gather] = []
    for d in dims:
        f = factor[d]
        split = s_ta.reshape([*s_ta.shape[:d], d_tiles[d], f, *s_ta.shape[d + 1 :]])
        others = [a for a in range(split.ndim) if a != d + 1]
        groups = split.transpose([*others, d + 1]).reshape(-1, f)
        gathers.append(_Gather(d, tuple(tuple(int(x) for x in g) for g in groups)))
    return gathers


def _run_gathers(e: Emitter, value: SSAValue, gathers: list[_Gather]) -> SSAValue:
    """One all_gather per dim, in REVERSE dim order, each a new channel id."""
    for gather in reversed(gathers):
        groups = ReplicaGroupsAttr.explicit([list(g) for g in gather.groups])
        if e.use_iota_device_lists:
            groups = iota_or_explicit(groups)
        value = _gather_along(e, value, groups, gather.dim)
    return value


def _slice_offsets(
    src: ShardingAttr, dst: ShardingAttr, global_shape: Shape, devices: int
) -> list[list[int]] | None:
    """Per dim, the table partition -> local start of its dst block inside its src block."""
    rank = len(global_shape)
    s_tiles, d_tiles = _tiles(src, rank), _tiles(dst, rank)
    s_size = [g // t for g, t in zip(global_shape, s_tiles, strict=True)]
    d_size = [g // t for g, t in zip(global_shape, d_tiles, strict=True)]
    src_idx = _tile_index_of(_full_assignment(src, devices, rank))
    dst_idx = _tile_index_of(_full_assignment(dst, devices, rank))
    if set(src_idx) != set(dst_idx):
        return None
    tables = [[0] * (max(src_idx) + 1) for _ in range(rank)]
    for device, s in src_idx.items():
        t = dst_idx[device]
        for d in range(rank):
            offset = t[d] * d_size[d] - s[d] * s_size[d]
            if not 0 <= offset <= s_size[d] - d_size[d]:
                return None
            tables[d][device] = offset
    return tables


def dynamic_slice_by_partition(
    e: Emitter, value: SSAValue, tables: list[list[int]], shape: Shape
) -> SSAValue:
    """A dynamic_slice of `shape` at per-dim offsets `tables[d][partition]` (constants where a
    table is uniform, else looked up by partition_id)."""
    pid = None if all(len(set(t)) <= 1 for t in tables) else e.creator.create_partition_id(e.b)
    offsets = [per_partition_value(e, table, pid) for table in tables]
    t = TensorType(tensor_type(value).element_type, list(shape))
    op = DynamicSliceOp.create(
        operands=[value, *offsets],
        result_types=[t],
        properties={"slice_sizes": DimensionsAttr(shape)},
    )
    return insert(e.b, op)


def global_shape_of(shard: Shape, sharding: ShardingAttr) -> Shape:
    return tuple(s * t for s, t in zip(shard, _tiles(sharding, len(shard)), strict=True))


def shard_shape_of(global_shape: Shape, sharding: ShardingAttr) -> Shape:
    tiles = _tiles(sharding, len(global_shape))
    for d, (g, t) in enumerate(zip(global_shape, tiles, strict=True)):
        if g % t:
            raise ReshardError(f"dimension {d} of size {g} does not split evenly into {t} tiles")
    return tuple(g // t for g, t in zip(global_shape, tiles, strict=True))


def _check_supported(sharding: ShardingAttr, rank: int, devices: int) -> None:
    if sharding.data.kind not in ("replicated", "tiled"):
        raise ReshardError(f"cannot reshard a {sharding.data.kind} sharding")
    if sharding.is_tiled:
        if len(sharding.tile_dims) != rank:
            raise ReshardError(
                f"sharding {sharding.to_hlo_text()} has {len(sharding.tile_dims)} tile dims "
                f"for a rank-{rank} value"
            )
        if sharding.tile_assignment().size != devices:
            raise ReshardError(
                f"sharding {sharding.to_hlo_text()} does not cover the {devices} partitions"
            )


def choose_strategy(src: ShardingAttr, dst: ShardingAttr, global_shape: Shape, devices: int) -> str:
    """The strategy `reshard` uses: noop, permute, all_to_all, all_to_all+permute, all_gather,
    slice, all_gather+all_to_all, all_to_all+all_gather, slice+all_to_all, gather_slice
    (module docstring)."""
    return _choose(src, dst, global_shape, devices)[0]


def _choose(
    src: ShardingAttr, dst: ShardingAttr, global_shape: Shape, devices: int
) -> tuple[str, Any]:
    """(strategy, what `reshard_with` emits it from): the all-to-all plan, the gathers, the
    slice tables or the intermediate sharding of a two-stage plan (None for the others)."""
    rank = len(global_shape)
    _check_supported(src, rank, devices)
    _check_supported(dst, rank, devices)
    shard_shape_of(global_shape, dst)
    if src.same_placement(dst) or (src.is_replicated and dst.is_replicated):
        return "noop", None
    same_tiling = src.is_tiled and dst.is_tiled and src.data.tile_shape == dst.data.tile_shape
    if same_tiling and src.data.replicate_last == dst.data.replicate_last:
        return "permute", None
    plan = _all_to_all_plan(src, dst, global_shape, devices)
    if plan is not None:
        return ("all_to_all" if plan.permute is None else "all_to_all+permute"), plan
    try:
        return "all_gather", _gathers(src, dst, rank, devices)
    except ReshardError:
        pass
    tables = _slice_offsets(src, dst, global_shape, devices)
    if tables is not None:
        return "slice", tables
    first = _gather_first(src, dst, global_shape, devices)
    if first is not None and first[1] != "all_to_all+permute":
        return "all_gather+all_to_all", first[0]
    before = _before_gather(src, dst, global_shape, devices)
    if before is not None:
        return "all_to_all+all_gather", before
    if first is not None:
        return "all_gather+all_to_all", first[0]
    after = _after_slice(src, dst, global_shape, devices)
    if after is not None:
        return "slice+all_to_all", after
    return "gather_slice", None


_ALL_TO_ALL = ("noop", "permute", "all_to_all", "all_to_all+permute")


def _as_sharding(ta: np.ndarray) -> ShardingAttr:
    """A tiled sharding of assignment `ta` (tiles + a trailing replication axis)."""
    devices = [int(d) for d in ta.flat]
    if ta.shape[-1] == 1:
        return ShardingAttr.tiled(ta.shape[:-1], devices)
    return ShardingAttr.tiled(ta.shape, devices, replicate_last=True)


def _replication_factors(
    have: Shape, want: Shape, spare: int, global_shape: Shape
) -> list[int] | None:
    """Per dim, the factor of `spare` replication to tile it with: first where `have` has more
    tiles than `want` (the factor an all-to-all would otherwise move), then any dim that still
    divides; None if `spare` does not fit."""
    factors = [1] * len(want)
    for d, (h, w) in enumerate(zip(have, want, strict=True)):
        if h > w and h % w == 0:
            f = math.gcd(h // w, spare)
            factors[d] *= f
            spare //= f
    for d, w in enumerate(want):
        f = math.gcd(spare, global_shape[d] // (w * factors[d]))
        factors[d] *= f
        spare //= f
    return factors if spare == 1 else None


def _more_replicated(
    fewer: ShardingAttr, more: ShardingAttr, rank: int, devices: int
) -> tuple[np.ndarray, np.ndarray, int] | None:
    """(fewer's, more's assignment, their replication ratio) when `more` replicates each tile
    a whole multiple (> 1) of the times `fewer` does, and `fewer` is tiled."""
    f_ta, m_ta = _full_assignment(fewer, devices, rank), _full_assignment(more, devices, rank)
    if not fewer.is_tiled or m_ta.shape[-1] <= f_ta.shape[-1] or m_ta.shape[-1] % f_ta.shape[-1]:
        return None
    return f_ta, m_ta, m_ta.shape[-1] // f_ta.shape[-1]


def _before_gather(
    src: ShardingAttr, dst: ShardingAttr, global_shape: Shape, devices: int
) -> ShardingAttr | None:
    """A tiling T with src's replication such that src -> T is an all-to-all plan (or a
    permute) and T -> dst one all_gather: tiles move AND replication grows."""
    rank = len(global_shape)
    ratio = _more_replicated(src, dst, rank, devices)
    if ratio is None:
        return None
    s_ta, d_ta, spare = ratio
    factors = _replication_factors(s_ta.shape[:-1], d_ta.shape[:-1], spare, global_shape)
    if factors is None:
        return None
    middle = _as_sharding(replication_as_tiles(d_ta, factors))
    try:
        if choose_strategy(src, middle, global_shape, devices) not in _ALL_TO_ALL:
            return None
        _gathers(middle, dst, rank, devices)
    except ReshardError:
        return None
    return middle


def _gather_first(
    src: ShardingAttr, dst: ShardingAttr, global_shape: Shape, devices: int
) -> tuple[ShardingAttr, str] | None:
    """(T, the strategy of T -> dst) for a sharding T with dst's replication such that
    src -> T is all_gathers (of the factors src has more tiles than dst) and T -> dst an
    all-to-all plan: the other order of `_before_gather`, more bytes per all-to-all but
    sometimes one permute fewer."""
    rank = len(global_shape)
    ratio = _more_replicated(src, dst, rank, devices)
    if ratio is None:
        return None
    s_ta, d_ta, spare = ratio
    factors = [1] * rank
    for d, (have, want) in enumerate(zip(s_ta.shape[:-1], d_ta.shape[:-1], strict=True)):
        f = math.gcd(have // math.gcd(have, want), spare)
        factors[d], spare = f, spare // f
    if spare != 1:
        return None
    middle = _as_sharding(tiles_as_replication(s_ta, factors))
    try:
        _gathers(src, middle, rank, devices)
        second = choose_strategy(middle, dst, global_shape, devices)
    except ReshardError:
        return None
    return (middle, second) if second in _ALL_TO_ALL else None


def _after_slice(
    src: ShardingAttr, dst: ShardingAttr, global_shape: Shape, devices: int
) -> ShardingAttr | None:
    """A tiling T with dst's replication such that src -> T is a dynamic_slice of the held
    block and T -> dst an all-to-all plan (or a permute): tiles move AND replication shrinks."""
    ratio = _more_replicated(dst, src, len(global_shape), devices)
    if ratio is None:
        return None
    d_ta, s_ta, spare = ratio
    factors = _replication_factors(d_ta.shape[:-1], s_ta.shape[:-1], spare, global_shape)
    if factors is None:
        return None
    middle = _as_sharding(replication_as_tiles(s_ta, factors))
    try:
        if _slice_offsets(src, middle, global_shape, devices) is None:
            return None
        if choose_strategy(middle, dst, global_shape, devices) not in _ALL_TO_ALL:
            return None
    except ReshardError:
        return None
    return middle


def _num_devices(src: ShardingAttr, dst: ShardingAttr) -> int:
    for sharding in (src, dst):
        if sharding.is_tiled:
            return int(sharding.tile_assignment().size)
    return 1


def reshard_with(e: Emitter, value: SSAValue, src: ShardingAttr, dst: ShardingAttr) -> SSAValue:
    """`reshard` with the emitting context bundled in `e`."""
    global_shape = global_shape_of(shape_of(value), src)
    rank = len(global_shape)
    devices = _num_devices(src, dst)
    strategy, how = _choose(src, dst, global_shape, devices)
    if strategy == "noop":
        return value
    if strategy == "permute":
        return _permute(e, value, src, dst)
    if isinstance(how, AllToAllPlan):
        return _run_all_to_all_plan(e, value, how)
    if strategy == "all_gather":
        return _run_gathers(e, value, how)
    if isinstance(how, ShardingAttr):  # a two-stage plan through `how`
        return reshard_with(e, reshard_with(e, value, src, how), how, dst)
    if strategy == "gather_slice":
        if src.is_tiled:
            value = all_gather_shards_with(e, value, src, range(rank))
            src = ShardingAttr.replicated()
        how = _slice_offsets(src, dst, global_shape, devices)
        if how is None:
            raise ReshardError(f"cannot reshard {src.to_hlo_text()} to {dst.to_hlo_text()}")
    return dynamic_slice_by_partition(e, value, how, shard_shape_of(global_shape, dst))


def reshard(
    b: Builder,
    value: SSAValue,
    src: ShardingAttr,
    dst: ShardingAttr,
    creator: CollectiveOpsCreator,
    channels: ChannelCounter,
    *,
    use_iota_device_lists: bool = True,
) -> SSAValue:
    """`value` (this partition's shard under `src`) as this partition's shard under `dst`.

    Ops are inserted at `b`; the strategy is `choose_strategy`'s (module docstring). Raises
    ReshardError for unsupported shardings (maximal, manual, tuple) or uneven shapes.
    """
    e = Emitter(b, creator, channels, use_iota_device_lists)
    return reshard_with(e, value, src, dst)


def all_gather_shards(
    b: Builder,
    value: SSAValue,
    sharding: ShardingAttr,
    dims: Sequence[int],
    creator: CollectiveOpsCreator,
    channels: ChannelCounter,
    *,
    use_iota_device_lists: bool = True,
) -> SSAValue:
    """Replicate `value` along `dims` (see `all_gather_shards_with`)."""
    e = Emitter(b, creator, channels, use_iota_device_lists)
    return all_gather_shards_with(e, value, sharding, dims)


def all_reduce_along_sharding_dims(
    b: Builder,
    value: SSAValue,
    sharding: ShardingAttr,
    dims: Sequence[int],
    kind: str,
    creator: CollectiveOpsCreator,
    channels: ChannelCounter,
    *,
    use_iota_device_lists: bool = True,
    per_dim: bool = False,
) -> SSAValue:
    """Reduce over the partitions tiling `dims` (see `all_reduce_along_sharding_dims_with`)."""
    e = Emitter(b, creator, channels, use_iota_device_lists)
    return all_reduce_along_sharding_dims_with(e, value, sharding, dims, kind, per_dim=per_dim)


__all__ = [
    "ChannelCounter",
    "Emitter",
    "ReshardError",
    "all_gather_shards",
    "all_gather_shards_with",
    "all_reduce_along_sharding_dims",
    "all_reduce_along_sharding_dims_with",
    "choose_strategy",
    "partition_groups_for_replication",
    "reshard",
    "reshard_with",
]
