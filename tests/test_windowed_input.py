"""Per-partition halos and windowed inputs (issue 21, item 3), on the interpreter.

Each case builds `func @main(shard) -> window` with `neuron_cc.spmd.windowed_input` for a
1-D value tiled over 2, 4 and 8 partitions (with a permuted device order), feeds every
partition its shard of a random global array, and compares every partition's result with the
unpartitioned answer: a pad + slice of the global array.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType, f32
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp
from neuron_cc.dialects.sharding import ShardingAttr
from neuron_cc.interpreter.runner import run_module
from neuron_cc.spmd.collective_ops_creator import (
    default_collective_ops_creator,
    per_group_collective_ops_creator,
)
from neuron_cc.spmd.reshard import ChannelCounter, ReshardError
from neuron_cc.spmd.windowed_input import (
    HaloFunction,
    HaloSize,
    WindowDimension,
    exchange_halo_compact,
    exchange_per_partition_halo,
    reshard_as_windowed_input,
    windowed_input_halos,
)

Array = np.ndarray[Any, Any]
PAD = -7.0


def _sharding(p: int) -> ShardingAttr:
    """Tiles over p partitions, device d holding tile (3 * d) mod p when 3 is coprime to p."""
    devices = [(3 * t) % p for t in range(p)] if p % 3 else list(range(p))
    return ShardingAttr.tiled([p], devices)


def _run_shards(p: int, n: int, emit: Any, shards: Array) -> Array:
    """`func @main(shard) -> emit(shard)` on p partitions, run on the per-device `shards`."""
    block = Block(arg_types=[TensorType(f32, [n])])
    b = Builder(InsertPoint.at_end(block))
    out = emit(b, block.args[0], default_collective_ops_creator(p, 1), ChannelCounter(1))
    b.insert(func.ReturnOp(out))
    main = func.FuncOp("main", ([block.args[0].type], [out.type]), Region(block))
    module = ModuleOp([main])
    module.attributes["hlo.num_partitions"] = IntegerAttr(p, 64)
    module.verify()
    (result,) = run_module(module, [shards]).outputs
    return np.asarray(result)


def _run(p: int, n: int, emit: Any, g: Array, s: ShardingAttr) -> Array:
    shards = np.stack([g[s.device_tile_index(d)[0] * n :][:n] for d in range(p)])
    return _run_shards(p, n, emit, shards)


def _global_window(g: Array, start: int, width: int, pad: float | None) -> Array:
    """g[start : start + width], positions outside g holding `pad` (zeros when None)."""
    out = np.full(width, 0.0 if pad is None else pad, np.float32)
    for q in range(width):
        if 0 <= start + q < g.size:
            out[q] = g[start + q]
    return out


@pytest.mark.parametrize("p", [2, 4, 8])
@pytest.mark.parametrize(
    ("left", "right"),
    [
        (HaloFunction(0, 2), HaloFunction(0, 1)),  # constant halos
        (HaloFunction(0, -1), HaloFunction(0, 3)),  # trims on the left, extends on the right
        (HaloFunction(1, 0), HaloFunction(-1, 2)),  # grows with t, the right shrinks: 2 - t
        (HaloFunction(-1, 1), HaloFunction(1, -1)),  # 1 - t / t - 1: negative on both sides
        (HaloFunction(2, 2, 2), HaloFunction(-2, 6, 2)),  # with a divisor: t + 1, 3 - t
        (HaloFunction(0, -13), HaloFunction(0, 13)),  # windows two shards and one to the right
        (HaloFunction(0, 14), HaloFunction(0, -10)),  # windows from 14 to the left, 10 wide
        (HaloFunction(3, 0), HaloFunction(-3, 0)),  # window of partition t starts at 3t: shared
        (HaloFunction(5, -3), HaloFunction(-5, 10)),  # far windows drifting toward the start
    ],
)
@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("exchange", [exchange_per_partition_halo, exchange_halo_compact])
def test_per_partition_halo(
    p: int, left: HaloSize, right: HaloSize, masked: bool, exchange: Any
) -> None:
    n = 6
    s = _sharding(p)
    widths = {left(t) + n + right(t) for t in range(p)}
    if len(widths) != 1:
        pytest.skip("not one window size for this partition count")
    g = np.random.default_rng(p).standard_normal(n * p).astype(np.float32)

    def emit(b: Builder, x: SSAValue, creator: Any, ch: ChannelCounter) -> SSAValue:
        return exchange(b, x, left, right, 0, s, creator, ch, pad_value=PAD if masked else None)

    out = _run(p, n, emit, g, s)
    for d in range(p):
        t = s.device_tile_index(d)[0]
        expected = _global_window(g, t * n - left(t), widths.copy().pop(), PAD if masked else None)
        np.testing.assert_array_equal(out[d], expected, err_msg=f"device {d}, tile {t}")


WINDOWS = [
    WindowDimension(3, 1, 1, 1),  # a "same" 3-tap window
    WindowDimension(3, 2, 1, 0),  # stride 2: the shards' windows drift apart
    WindowDimension(2, 2),  # non-overlapping pairs: every halo trims or is empty
    WindowDimension(5, 1, 2, 2),
    WindowDimension(4, 3, 3, 2),
    WindowDimension(1, 1, 0, 0),  # identity
]


@pytest.mark.parametrize("p", [2, 4, 8])
@pytest.mark.parametrize("window", WINDOWS)
def test_reshard_as_windowed_input(p: int, window: WindowDimension) -> None:
    n = 12
    s = _sharding(p)
    try:
        _, _, m = windowed_input_halos(window, n, p)
    except ReshardError:
        pytest.skip("the outputs do not split evenly over this partition count")
    g = np.random.default_rng(p).standard_normal(n * p).astype(np.float32)

    def emit(b: Builder, x: SSAValue, creator: Any, ch: ChannelCounter) -> SSAValue:
        return reshard_as_windowed_input(b, x, s, 0, window, creator, ch, pad_value=PAD)

    out = _run(p, n, emit, g, s)
    padded = np.concatenate(
        [np.full(window.pad_low, PAD), g, np.full(window.pad_high, PAD)]
    ).astype(np.float32)
    reach = (m - 1) * window.stride + window.size
    for d in range(p):
        t = s.device_tile_index(d)[0]
        start = t * m * window.stride
        np.testing.assert_array_equal(out[d], padded[start : start + reach])
        # The windowed op on the local window gives the partition's output shard.
        local = [out[d][o * window.stride :][: window.size].sum() for o in range(m)]
        full = [padded[o * window.stride :][: window.size].sum() for o in range(t * m, t * m + m)]
        np.testing.assert_allclose(local, full, rtol=1e-6)


def test_halos_need_one_window_size() -> None:
    s = _sharding(4)

    def emit(b: Builder, x: SSAValue, creator: Any, ch: ChannelCounter) -> SSAValue:
        return exchange_per_partition_halo(
            b, x, HaloFunction(1, 0), HaloFunction(0, 0), 0, s, creator, ch
        )

    with pytest.raises(ReshardError, match="windows of different sizes"):
        _run(4, 6, emit, np.zeros(24, np.float32), s)


def test_uneven_outputs_are_refused() -> None:
    with pytest.raises(ReshardError, match="do not split evenly over 4 partitions"):
        windowed_input_halos(WindowDimension(3, 1), 6, 4)


def test_narrower_halos_cost_no_extra_permute() -> None:
    """Halos exchanged once at their widest; per-partition windows are dynamic slices."""
    s = _sharding(4)

    def emit(b: Builder, x: SSAValue, creator: Any, ch: ChannelCounter) -> SSAValue:
        return exchange_per_partition_halo(
            b, x, HaloFunction(1, 0), HaloFunction(-1, 3), 0, s, creator, ch
        )

    block = Block(arg_types=[TensorType(f32, [6])])
    b = Builder(InsertPoint.at_end(block))
    emit(b, block.args[0], default_collective_ops_creator(4, 1), ChannelCounter(1))
    permutes = [op for op in block.ops if isinstance(op, CollectivePermuteOp)]
    # widest left halo 3 (one neighbour: 3 <= 6), widest right 3: two permutes in all
    assert len(permutes) == 2


def _permutes_of(exchange: Any, left: HaloSize, right: HaloSize, p: int, n: int) -> int:
    block = Block(arg_types=[TensorType(f32, [n])])
    b = Builder(InsertPoint.at_end(block))
    exchange(
        b,
        block.args[0],
        left,
        right,
        0,
        _sharding(p),
        default_collective_ops_creator(p, 1),
        ChannelCounter(1),
    )
    return sum(isinstance(op, CollectivePermuteOp) for op in block.ops)


def test_compact_needs_fewer_permutes_for_far_windows() -> None:
    """A window three shards to the right: per distance, one permute for each of distances
    1..3 on the right; compact, one for the one tile the window touches."""
    left, right = HaloFunction(0, -18), HaloFunction(0, 18)  # [t*n + 18, t*n + 24), n = 6
    assert _permutes_of(exchange_per_partition_halo, left, right, 8, 6) == 3
    assert _permutes_of(exchange_halo_compact, left, right, 8, 6) == 1


def test_compact_on_a_sub_mesh() -> None:
    """Through the per-group creator: two groups of 4 partitions, each exchanging within it."""
    p, n = 8, 6
    groups = [(0, 1, 2, 3), (4, 5, 6, 7)]
    s = _sharding(4)
    left, right = HaloFunction(1, 0), HaloFunction(-1, 2)

    def emit(b: Builder, x: SSAValue, creator: Any, ch: ChannelCounter) -> SSAValue:
        sub = per_group_collective_ops_creator(creator, groups)
        return exchange_halo_compact(b, x, left, right, 0, s, sub, ch, pad_value=PAD)

    g = np.random.default_rng(5).standard_normal((2, 4 * n)).astype(np.float32)
    shards = np.stack([g[d // 4][s.device_tile_index(d % 4)[0] * n :][:n] for d in range(p)])
    result = _run_shards(p, n, emit, shards)
    for d in range(p):
        t = s.device_tile_index(d % 4)[0]
        expected = _global_window(g[d // 4], t * n - left(t), n + 2, PAD)
        np.testing.assert_array_equal(result[d], expected, err_msg=f"device {d}")
