"""Halo exchange between neighbouring shards (XLA's ExchangeHalo / ExchangeHaloAndGetValidData).

A partition holding shard t of dimension `dim` (size n per shard) receives the `left` elements
before its shard (the LAST elements of its left neighbours) and the `right` elements after it
(the FIRST elements of its right neighbours). A halo wider than a shard spans several
neighbours: one collective_permute per neighbour distance, each with a new channel id. The
result is `concatenate(left pieces farthest -> nearest, self, right pieces nearest ->
farthest)` of size left + n + right; partitions without such a neighbour receive zeros.

Example: f32[8] over 4 partitions (2 each), halo 1/1: slice [1:2] permuted {0->1,1->2,2->3},
slice [0:1] permuted {1->0,2->1,3->2}, concatenate -> f32[4].
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects.builtin import I64, DenseIntOrFPElementsAttr, IntegerAttr, TensorType, i32
from xdsl.ir import SSAValue

from neuron_cc.dialects.hlo.attributes import ComparisonDirection, DimensionsAttr
from neuron_cc.dialects.hlo.data_movement import BroadcastOp, ConcatenateOp, SliceOp
from neuron_cc.dialects.hlo.elementwise import AddOp, AndOp
from neuron_cc.dialects.hlo.elementwise_misc import CompareOp, ConstantOp, IotaOp, SelectOp
from neuron_cc.dialects.hlo.types import is_float_type, shape_of, tensor_type
from neuron_cc.dialects.sharding import ShardingAttr
from neuron_cc.spmd.collective_ops_creator import CollectiveOpsCreator
from neuron_cc.spmd.reshard import ChannelCounter, ReshardError, insert, per_partition_value
from neuron_cc.spmd.reshard import Emitter as _Emitter


def _slice(b: Builder, value: SSAValue, dim: int, start: int, limit: int) -> SSAValue:
    shape = list(shape_of(value))
    if start == 0 and limit == shape[dim]:
        return value
    starts = [0] * len(shape)
    limits = list(shape)
    starts[dim], limits[dim] = start, limit
    shape[dim] = limit - start
    op = SliceOp.create(
        operands=[value],
        result_types=[TensorType(tensor_type(value).element_type, shape)],
        properties={
            "start_indices": DimensionsAttr(tuple(starts)),
            "limit_indices": DimensionsAttr(tuple(limits)),
            "strides": DimensionsAttr((1,) * len(shape)),
        },
    )
    return insert(b, op)


def _neighbour_pairs(sharding: ShardingAttr, dim: int, distance: int) -> list[tuple[int, int]]:
    """(source, target) pairs sending from tile index t along `dim` to t + distance.

    Listed in row-major order of the receiver for left halos (distance > 0) and of the sender
    for right halos (distance < 0), like XLA.
    """
    ta = sharding.tile_assignment_with_replication()
    pairs: list[tuple[int, int]] = []
    for index, device in np.ndenumerate(ta):
        other = list(index)
        other[dim] -= abs(distance)
        if other[dim] < 0:
            continue
        peer = int(ta[tuple(other)])
        pairs.append((peer, int(device)) if distance > 0 else (int(device), peer))
    return pairs


def _check(value: SSAValue, left: int, right: int, dim: int, sharding: ShardingAttr) -> int:
    shape = shape_of(value)
    if not sharding.is_tiled or not 0 <= dim < len(sharding.tile_dims):
        raise ReshardError(f"halo exchange needs a sharding tiled along dimension {dim}")
    if left < 0 or right < 0:
        raise ReshardError(f"halo sizes must be non-negative, got {left} and {right}")
    return shape[dim]


def exchange_halo(
    b: Builder,
    value: SSAValue,
    left: int,
    right: int,
    dim: int,
    sharding: ShardingAttr,
    creator: CollectiveOpsCreator,
    channels: ChannelCounter,
) -> SSAValue:
    """This partition's shard extended by `left`/`right` neighbour elements along `dim`."""
    n = _check(value, left, right, dim, sharding)
    pieces: list[SSAValue] = []
    for i in range(-(-left // n) - 1, -1, -1):  # farthest -> nearest
        size = min(left - n * i, n)
        piece = _slice(b, value, dim, n - size, n)
        pairs = _neighbour_pairs(sharding, dim, i + 1)
        pieces.append(creator.create_collective_permute(b, piece, pairs, channels.next()))
    pieces.append(value)
    for i in range(-(-right // n)):  # nearest -> farthest
        size = min(right - n * i, n)
        piece = _slice(b, value, dim, 0, size)
        pairs = _neighbour_pairs(sharding, dim, -(i + 1))
        pieces.append(creator.create_collective_permute(b, piece, pairs, channels.next()))
    if len(pieces) == 1:
        return value
    shape = list(shape_of(value))
    shape[dim] = sum(shape_of(p)[dim] for p in pieces)
    op = ConcatenateOp.create(
        operands=pieces,
        result_types=[TensorType(tensor_type(value).element_type, shape)],
        properties={"dimension": IntegerAttr[I64](dim, 64)},
    )
    return insert(b, op)


def _scalar_constant(b: Builder, element: object, value: float) -> SSAValue:
    t = TensorType(element, [])  # pyright: ignore[reportArgumentType]
    literal: float = float(value) if is_float_type(element) else int(value)  # pyright: ignore[reportArgumentType]
    return insert(b, ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [literal])))  # pyright: ignore[reportArgumentType, reportCallIssue]


def _broadcast(b: Builder, scalar: SSAValue, shape: Sequence[int]) -> SSAValue:
    t = TensorType(tensor_type(scalar).element_type, list(shape))
    op = BroadcastOp.create(
        operands=[scalar], result_types=[t], properties={"dimensions": DimensionsAttr(())}
    )
    return insert(b, op)


def exchange_halo_and_get_valid_data(
    b: Builder,
    value: SSAValue,
    left: int,
    right: int,
    dim: int,
    sharding: ShardingAttr,
    creator: CollectiveOpsCreator,
    channels: ChannelCounter,
    *,
    pad_value: float | SSAValue = 0.0,
    global_size: int | None = None,
) -> SSAValue:
    """`exchange_halo`, then elements outside [0, global_size) of the global dimension -> pad.

    Local element q of the partition with tile index t along `dim` is global element
    t*n - left + q; the mask is `iota + offset >= 0 and < global_size` (offset from a table
    indexed by partition_id), applied with a select against the broadcast pad value.
    `global_size` defaults to n * tiles.
    """
    n = _check(value, left, right, dim, sharding)
    size = n * sharding.tile_dims[dim] if global_size is None else global_size
    exchanged = exchange_halo(b, value, left, right, dim, sharding, creator, channels)
    starts = {device: t * n - left for device, t in tile_indices(sharding, dim).items()}
    return mask_outside(_Emitter(b, creator, channels), exchanged, dim, starts, size, pad_value)


def tile_indices(sharding: ShardingAttr, dim: int) -> dict[int, int]:
    """device -> its tile index along `dim`."""
    ta = sharding.tile_assignment_with_replication()
    return {int(device): index[dim] for index, device in np.ndenumerate(ta)}


def mask_outside(
    e: _Emitter,
    value: SSAValue,
    dim: int,
    starts: dict[int, int],
    global_size: int,
    pad_value: float | SSAValue,
) -> SSAValue:
    """`value` with every element whose global position along `dim` is outside
    [0, global_size) replaced by the pad: local element q of partition p is global element
    starts[p] + q. The test is `iota + start >= 0 and < global_size` (start from a table indexed
    by partition_id), applied with a select against the broadcast pad value."""
    b = e.b
    shape = list(shape_of(value))
    table = [0] * (1 + max(starts))
    for device, start in starts.items():
        table[device] = start
    offset = _broadcast(b, per_partition_value(e, table, None), shape)
    iota = insert(b, IotaOp(dim, TensorType(i32, shape)))
    position = insert(b, AddOp(iota, offset))
    low = _broadcast(b, _scalar_constant(b, i32, 0), shape)
    high = _broadcast(b, _scalar_constant(b, i32, global_size), shape)
    above = insert(b, CompareOp(ComparisonDirection.GE, position, low))
    below = insert(b, CompareOp(ComparisonDirection.LT, position, high))
    valid = insert(b, AndOp(above, below))
    element = tensor_type(value).element_type
    pad = pad_value if isinstance(pad_value, SSAValue) else _scalar_constant(b, element, pad_value)
    padding = _broadcast(b, pad, shape)
    return insert(b, SelectOp(valid, value, padding))
