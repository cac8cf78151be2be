"""Per-partition halos and windowed inputs (XLA's OffsetCalculation halos, ReshardAsWindowedInput).

A windowed op (convolution, reduce-window) partitioned along a dimension needs on partition t
not its shard [t*n, (t+1)*n) but the input window its output shard reads, which starts and ends
at other places on every partition. XLA describes the two ends as halo sizes that are linear
functions of t (`HaloFunction`, its MultiplyAddDivideOffsetCalculation): a left halo L(t) and a
right halo R(t), where a negative size TRIMS the shard on that side instead of extending it.

`exchange_per_partition_halo` gives partition t the global elements
[t*n - L(t), (t+1)*n + R(t)); their count L(t) + n + R(t) must be the same on every partition
(one static shape). It exchanges the widest halos with `exchange_halo` (max(0, max L) on the
left, max(0, max R) on the right) and then cuts each partition's window out with a dynamic_slice
at offset max L - L(t) - so halos narrower than the widest, and trims, cost no extra collective.
With `pad_value`, elements outside [0, global_size) become the pad (`halo.mask_outside`, with
each partition's real start).

`reshard_as_windowed_input` derives L and R from a window configuration (size, stride, low and
high padding) along one tiled dimension: output element o reads padded input elements
[o*stride, o*stride + size), so partition t, which computes output elements [t*m, (t+1)*m),
needs padded input [t*m*stride, (t*m + m - 1)*stride + size), i.e. unpadded start
t*m*stride - pad_low. The result, with the padding's positions holding `pad_value`, is what the
windowed op runs on locally with no padding. Differences from XLA: the output count must split
evenly over the tiles (XLA pads the shard and masks the excess); base and window dilation are
not supported (`ReshardError`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects.builtin import I64, DenseIntOrFPElementsAttr, IntegerAttr, TensorType, i32
from xdsl.ir import SSAValue

from neuron_cc.dialects.hlo.attributes import ComparisonDirection, DimensionsAttr
from neuron_cc.dialects.hlo.data_movement import BroadcastOp, ConcatenateOp
from neuron_cc.dialects.hlo.elementwise_misc import CompareOp, ConstantOp, SelectOp
from neuron_cc.dialects.hlo.types import shape_of, tensor_type
from neuron_cc.dialects.sharding import ShardingAttr
from neuron_cc.spmd.collective_ops_creator import CollectiveOpsCreator, zeros
from neuron_cc.spmd.halo import exchange_halo, mask_outside, tile_indices
from neuron_cc.spmd.reshard import (
    ChannelCounter,
    Emitter,
    ReshardError,
    dynamic_slice_by_partition,
    insert,
    per_partition_value,
)

IntArray = np.ndarray[Any, np.dtype[np.int64]]


@dataclass(frozen=True)
class HaloFunction:
    """(multiplier * t + offset) // divisor of the tile index t (floor division, as XLA's
    MultiplyAddDivideOffsetCalculation)."""

    multiplier: int
    offset: int
    divisor: int = 1

    def __call__(self, t: int) -> int:
        return (self.multiplier * t + self.offset) // self.divisor


HaloSize = Callable[[int], int]


def exchange_per_partition_halo(
    b: Builder,
    value: SSAValue,
    left: HaloSize,
    right: HaloSize,
    dim: int,
    sharding: ShardingAttr,
    creator: CollectiveOpsCreator,
    channels: ChannelCounter,
    *,
    pad_value: float | SSAValue | None = None,
    global_size: int | None = None,
) -> SSAValue:
    """Partition t's global elements [t*n - left(t), (t+1)*n + right(t)) along `dim`; outside
    [0, global_size) (default: n * tiles) the pad when `pad_value` is given (else whatever
    neighbours sent: zeros past the edges). See the module docstring."""
    if not sharding.is_tiled or not 0 <= dim < len(sharding.tile_dims):
        raise ReshardError(f"halo exchange needs a sharding tiled along dimension {dim}")
    n = shape_of(value)[dim]
    tiles = sharding.tile_dims[dim]
    width = _window_width(left, right, n, tiles, dim)
    lefts = [left(t) for t in range(tiles)]
    rights = [right(t) for t in range(tiles)]
    widest_left, widest_right = max(0, *lefts), max(0, *rights)
    exchanged = exchange_halo(b, value, widest_left, widest_right, dim, sharding, creator, channels)
    e = Emitter(b, creator, channels)
    index = tile_indices(sharding, dim)
    rank = len(shape_of(value))
    tables = [[0] * (1 + max(index)) for _ in range(rank)]
    for device, t in index.items():
        tables[dim][device] = widest_left - lefts[t]
    shape = list(shape_of(exchanged))
    shape[dim] = width
    window = exchanged
    if shape != list(shape_of(exchanged)):
        window = dynamic_slice_by_partition(e, exchanged, tables, tuple(shape))
    starts = [t * n - lefts[t] for t in range(tiles)]
    return _masked(e, window, dim, index, starts, n * tiles, pad_value, global_size)


def exchange_halo_compact(
    b: Builder,
    value: SSAValue,
    left: HaloSize,
    right: HaloSize,
    dim: int,
    sharding: ShardingAttr,
    creator: CollectiveOpsCreator,
    channels: ChannelCounter,
    *,
    pad_value: float | SSAValue | None = None,
    global_size: int | None = None,
) -> SSAValue:
    """`exchange_per_partition_halo` with fewer collectives when the windows lie far from the
    partitions' own shards (XLA's ExchangeHaloCompact).

    Partition t's window [start(t), start(t) + W) touches the source tiles first(t) ..
    last(t) (start(t) = t*n - left(t)). Slot k carries tile first(t) + k to every partition t
    that needs it: one collective_permute per slot (more only where two partitions need the
    same source in one slot), whatever the distance between a window and its partition. The
    K received shards form ONE region, the tiles first(t) .. first(t) + K - 1 side by side,
    and a dynamic_slice at start(t) - first(t)*n cuts the window out of it; then the optional
    mask. `exchange_per_partition_halo` instead sends one permute per neighbour distance up to
    the widest halo (cheaper when windows stay next to their shards). Works with any
    collective-ops creator (`per_group_collective_ops_creator` for a sub-mesh: device ids of
    `sharding` are the group-local ids).
    """
    if not sharding.is_tiled or not 0 <= dim < len(sharding.tile_dims):
        raise ReshardError(f"halo exchange needs a sharding tiled along dimension {dim}")
    n = shape_of(value)[dim]
    tiles = sharding.tile_dims[dim]
    width = _window_width(left, right, n, tiles, dim)
    starts = [t * n - left(t) for t in range(tiles)]
    firsts = [start // n for start in starts]
    lasts = [(start + width - 1) // n for start in starts]
    slots = max(last - first + 1 for first, last in zip(firsts, lasts, strict=True))
    ta = sharding.tile_assignment_with_replication()
    e = Emitter(b, creator, channels)
    pieces: list[SSAValue] = []
    for k in range(slots):
        rounds = _slot_permutes(ta, dim, firsts, lasts, k, tiles)
        piece: SSAValue | None = None
        for pairs in rounds:
            got = creator.create_collective_permute(b, value, pairs, channels.next())
            # Rounds have disjoint receivers: each takes its round's data (a select, exact).
            receivers = {t for _, t in pairs}
            piece = got if piece is None else _pick(e, piece, got, receivers, int(ta.size))
        pieces.append(piece if piece is not None else zeros(b, value.type))
    region = pieces[0] if len(pieces) == 1 else _concatenate(b, pieces, dim)
    index = tile_indices(sharding, dim)
    rank = len(shape_of(value))
    tables = [[0] * (1 + max(index)) for _ in range(rank)]
    for device, t in index.items():
        tables[dim][device] = starts[t] - firsts[t] * n
    shape = list(shape_of(region))
    shape[dim] = width
    window = dynamic_slice_by_partition(e, region, tables, tuple(shape))
    return _masked(e, window, dim, index, starts, n * tiles, pad_value, global_size)


def _masked(
    e: Emitter,
    window: SSAValue,
    dim: int,
    index: dict[int, int],
    starts: list[int],
    full_size: int,
    pad_value: float | SSAValue | None,
    global_size: int | None,
) -> SSAValue:
    """`window` (partition t's starts at global `starts[t]`) masked outside the global array,
    or as it is without a `pad_value`."""
    if pad_value is None:
        return window
    size = full_size if global_size is None else global_size
    real = {device: starts[t] for device, t in index.items()}
    return mask_outside(e, window, dim, real, size, pad_value)


def _window_width(left: HaloSize, right: HaloSize, n: int, tiles: int, dim: int) -> int:
    widths = {left(t) + n + right(t) for t in range(tiles)}
    if len(widths) != 1:
        raise ReshardError(
            f"per-partition halos give windows of different sizes {sorted(widths)} along "
            f"dimension {dim}: one static shape needs left(t) + right(t) to be constant"
        )
    width = widths.pop()
    if width <= 0:
        raise ReshardError(f"per-partition halos leave no element (window size {width})")
    return width


def _slot_permutes(
    ta: IntArray, dim: int, firsts: list[int], lasts: list[int], k: int, tiles: int
) -> list[list[tuple[int, int]]]:
    """The (source, target) pairs of slot k, split into rounds with distinct sources."""
    rounds: list[list[tuple[int, int]]] = []
    used: list[set[int]] = []
    for index, device in np.ndenumerate(ta):
        t = index[dim]
        source_tile = firsts[t] + k
        if not (0 <= source_tile < tiles and source_tile <= lasts[t]):
            continue
        source_index = list(index)
        source_index[dim] = source_tile
        source = int(ta[tuple(source_index)])
        r = next((i for i, seen in enumerate(used) if source not in seen), len(rounds))
        if r == len(rounds):
            rounds.append([])
            used.append(set())
        rounds[r].append((source, int(device)))
        used[r].add(source)
    return rounds


def _pick(e: Emitter, old: SSAValue, new: SSAValue, receivers: set[int], devices: int) -> SSAValue:
    """`new` on the partitions in `receivers`, `old` on the other of the `devices`."""
    b = e.b
    table = [1 if d in receivers else 0 for d in range(devices)]
    flag = per_partition_value(e, table, None)
    one = insert(b, ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(i32, []), [1])))
    scalar = insert(b, CompareOp(ComparisonDirection.EQ, flag, one))
    shape = list(shape_of(old))
    mask = insert(
        b,
        BroadcastOp.create(
            operands=[scalar],
            result_types=[TensorType(tensor_type(scalar).element_type, shape)],
            properties={"dimensions": DimensionsAttr(())},
        ),
    )
    return insert(b, SelectOp(mask, new, old))


@dataclass(frozen=True)
class WindowDimension:
    """One dimension of a window configuration (HLO's `window={size=.. stride=.. pad=lo_hi}`)."""

    size: int
    stride: int = 1
    pad_low: int = 0
    pad_high: int = 0


def windowed_input_halos(
    window: WindowDimension, shard_size: int, tiles: int
) -> tuple[HaloFunction, HaloFunction, int]:
    """(left, right, outputs per partition) of the input halos of a windowed op whose input is
    tiled `tiles` ways with `shard_size` elements each (see the module docstring)."""
    if window.size <= 0 or window.stride <= 0:
        raise ReshardError(f"window size and stride must be positive, got {window}")
    padded = shard_size * tiles + window.pad_low + window.pad_high
    outputs = (padded - window.size) // window.stride + 1 if padded >= window.size else 0
    if outputs <= 0 or outputs % tiles:
        raise ReshardError(
            f"the window's {max(outputs, 0)} outputs do not split evenly over {tiles} partitions"
        )
    m = outputs // tiles
    reach = (m - 1) * window.stride + window.size  # input elements one partition reads
    # start(t) = t*m*stride - pad_low; left(t) = t*n - start(t); right(t) = start(t) + reach - (t+1)*n
    left = HaloFunction(shard_size - m * window.stride, window.pad_low)
    right = HaloFunction(m * window.stride - shard_size, reach - window.pad_low - shard_size)
    return left, right, m


def reshard_as_windowed_input(
    b: Builder,
    value: SSAValue,
    sharding: ShardingAttr,
    dim: int,
    window: WindowDimension,
    creator: CollectiveOpsCreator,
    channels: ChannelCounter,
    *,
    pad_value: float | SSAValue = 0.0,
) -> SSAValue:
    """This partition's input window for `window` along tiled `dim`: the padded global input
    elements [t*m*stride, t*m*stride + (m-1)*stride + size) of partition t (m outputs each),
    padding positions holding `pad_value`. Run the windowed op on it with stride `stride` and
    no padding to get the partition's output shard."""
    if not sharding.is_tiled or not 0 <= dim < len(sharding.tile_dims):
        raise ReshardError(f"a windowed input needs a sharding tiled along dimension {dim}")
    n = shape_of(value)[dim]
    tiles = sharding.tile_dims[dim]
    left, right, _ = windowed_input_halos(window, n, tiles)
    return exchange_per_partition_halo(
        b, value, left, right, dim, sharding, creator, channels, pad_value=pad_value
    )


__all__ = [
    "HaloFunction",
    "WindowDimension",
    "exchange_halo_compact",
    "exchange_per_partition_halo",
    "reshard_as_windowed_input",
    "windowed_input_halos",
]


def _concatenate(b: Builder, pieces: list[SSAValue], dim: int) -> SSAValue:
    shape = list(shape_of(pieces[0]))
    shape[dim] = sum(shape_of(p)[dim] for p in pieces)
    op = ConcatenateOp.create(
        operands=pieces,
        result_types=[TensorType(tensor_type(pieces[0]).element_type, shape)],
        properties={"dimension": IntegerAttr[I64](dim, 64)},
    )
    return insert(b, op)
