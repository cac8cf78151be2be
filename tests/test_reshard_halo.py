"""Reshard and halo exchange on 8 partitions, run in the interpreter against numpy slicing.

Each test builds `func @main(shard) -> shard'` with the library, feeds every partition its
piece of a random global array cut by the SOURCE sharding and checks every partition's output
equals the global array cut by the TARGET sharding (or the halo window of the global array).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, IntegerAttr, ModuleOp, TensorType, f32
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from neuron_cc.dialects.hlo.collectives import AllGatherOp, AllReduceOp, AllToAllOp
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp
from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.dialects.sharding import ShardingAttr
from neuron_cc.interpreter.runner import run_module
from neuron_cc.spmd.collective_ops_creator import (
    CollectiveOpsCreator,
    default_collective_ops_creator,
)
from neuron_cc.spmd.halo import exchange_halo, exchange_halo_and_get_valid_data
from neuron_cc.spmd.reshard import (
    ChannelCounter,
    ReshardError,
    all_gather_shards,
    all_reduce_along_sharding_dims,
    choose_strategy,
    reshard,
    shard_shape_of,
)
from neuron_cc.testing.ir import parse_module

Array = np.ndarray[Any, Any]
P = 8
Emit = Callable[[Builder, SSAValue, CollectiveOpsCreator, ChannelCounter], SSAValue]


def build(in_shape: tuple[int, ...], emit: Emit, first_channel: int = 1) -> ModuleOp:
    block = Block(arg_types=[TensorType(f32, in_shape)])
    b = Builder(InsertPoint.at_end(block))
    out = emit(
        b, block.args[0], default_collective_ops_creator(P, 1), ChannelCounter(first_channel)
    )
    b.insert(func.ReturnOp(out))
    main = func.FuncOp("main", ([block.args[0].type], [out.type]), Region(block))
    module = ModuleOp([main])
    module.attributes["hlo.num_partitions"] = IntegerAttr(P, 64)
    module.verify()
    return module


def cut(global_array: Array, sharding: ShardingAttr, device: int) -> Array:
    if not sharding.is_tiled:
        return global_array
    index = sharding.device_tile_index(device)
    tiles = sharding.tile_dims
    return global_array[
        tuple(
            slice(i * (g // t), (i + 1) * (g // t))
            for i, g, t in zip(index, global_array.shape, tiles, strict=True)
        )
    ]


def run(module: ModuleOp, per_device: Array) -> Array:
    assert device_counts(module) == (1, P)
    (out,) = run_module(module, [per_device]).outputs
    return np.asarray(out)


TWO_STAGES = ("all_gather+all_to_all", "all_to_all+all_gather", "slice+all_to_all")
COLLECTIVE_NAMES = {AllGatherOp.name, AllReduceOp.name, AllToAllOp.name, CollectivePermuteOp.name}


def ops_of(module: ModuleOp) -> list[str]:
    return [op.name for op in module.walk() if op.name.startswith("hlo.")]


RESHARD_CASES = [
    # permutation: same tiles, another device order
    ("{devices=[8,1]<=[8]}", "{devices=[8,1]7,6,5,4,3,2,1,0}", "permute", (8, 4)),
    ("{devices=[2,4]<=[8]}", "{devices=[2,4]<=[4,2]T(1,0)}", "permute", (4, 8)),
    # tiled dim swap
    ("{devices=[8,1]<=[8]}", "{devices=[1,8]<=[8]}", "all_to_all", (8, 16)),
    ("{devices=[1,4,2]<=[8]}", "{devices=[4,1,2]<=[8]}", "all_to_all", (4, 8, 2)),
    (
        "{devices=[4,1,2]<=[8] last_tile_dim_replicate}",
        "{devices=[1,4,2]<=[8] last_tile_dim_replicate}",
        "all_to_all",
        (8, 8),
    ),
    # tiled -> replicated / partially replicated
    ("{devices=[2,4]<=[8]}", "{replicated}", "all_gather", (8, 16)),
    (
        "{devices=[2,4]<=[8]}",
        "{devices=[2,1,4]<=[8] last_tile_dim_replicate}",
        "all_gather",
        (8, 16),
    ),
    (
        "{devices=[4,2]<=[2,4]T(1,0)}",
        "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}",
        "all_gather",
        (8, 4),
    ),
    # replicated / partially replicated -> tiled
    ("{replicated}", "{devices=[2,4]<=[8]}", "slice", (8, 16)),
    ("{devices=[2,1,4]<=[8] last_tile_dim_replicate}", "{devices=[2,4]<=[8]}", "slice", (8, 16)),
    ("{devices=[2,1,4]<=[8] last_tile_dim_replicate}", "{devices=[8,1]<=[8]}", "slice", (16, 4)),
    # tile counts move between dims: all-to-all chains, a permute where devices end elsewhere
    ("{devices=[2,4]<=[8]}", "{devices=[4,2]<=[8]}", "all_to_all+permute", (8, 16)),
    ("{devices=[8,1]<=[8]}", "{devices=[2,4]<=[8]}", "all_to_all", (16, 8)),
    ("{devices=[8,1]<=[8]}", "{devices=[1,8]7,6,5,4,3,2,1,0}", "all_to_all+permute", (8, 8)),
    ("{devices=[2,2,2]<=[8]}", "{devices=[1,1,8]<=[8]}", "all_to_all+permute", (4, 4, 16)),
    ("{devices=[8,1,1]<=[8]}", "{devices=[1,2,4]<=[8]}", "all_to_all", (8, 4, 8)),
    # tiles move and the replication changes: all-to-all then gather, slice then all-to-all
    (
        "{devices=[4,2]<=[2,4]T(1,0)}",
        "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}",
        "all_to_all+all_gather",
        (8, 16),
    ),
    (
        "{devices=[8,1]<=[8]}",
        "{devices=[1,2,4]<=[8] last_tile_dim_replicate}",
        "all_gather+all_to_all",
        (16, 8),
    ),
    (
        "{devices=[1,2,4]<=[8] last_tile_dim_replicate}",
        "{devices=[8,1]<=[8]}",
        "slice+all_to_all",
        (16, 8),
    ),
    # no-op
    ("{devices=[8,1]<=[8]}", "{devices=[8,1]0,1,2,3,4,5,6,7}", "noop", (8, 2)),
    ("{replicated}", "{devices=[1,1,8]<=[8] last_tile_dim_replicate}", "noop", (4, 2)),
]


@pytest.mark.parametrize(("src_text", "dst_text", "strategy", "global_shape"), RESHARD_CASES)
@pytest.mark.parametrize("iota", [True, False])
def test_reshard(
    src_text: str, dst_text: str, strategy: str, global_shape: tuple[int, ...], iota: bool
) -> None:
    src, dst = ShardingAttr.from_hlo_text(src_text), ShardingAttr.from_hlo_text(dst_text)
    assert choose_strategy(src, dst, global_shape, P) == strategy

    def emit(
        b: Builder, x: SSAValue, creator: CollectiveOpsCreator, ch: ChannelCounter
    ) -> SSAValue:
        return reshard(b, x, src, dst, creator, ch, use_iota_device_lists=iota)

    module = build(shard_shape_of(global_shape, src), emit)
    kinds = set(ops_of(module))
    expected_kinds = {
        "noop": set[str](),
        "permute": {CollectivePermuteOp.name},
        "all_to_all": {AllToAllOp.name},
        "all_to_all+permute": {AllToAllOp.name, CollectivePermuteOp.name},
        "all_gather": {AllGatherOp.name},
        "all_to_all+all_gather": {AllToAllOp.name, AllGatherOp.name},
        "all_gather+all_to_all": {AllToAllOp.name, AllGatherOp.name},
        "slice+all_to_all": {"hlo.dynamic_slice", AllToAllOp.name},
        "slice": {"hlo.dynamic_slice"},
        "gather_slice": {AllGatherOp.name, "hlo.dynamic_slice"},
    }[strategy]
    # A two-stage plan may end its all-to-all stage with a permute.
    optional = {CollectivePermuteOp.name} if strategy in TWO_STAGES else set[str]()
    assert expected_kinds <= kinds, kinds
    assert expected_kinds & COLLECTIVE_NAMES <= kinds & COLLECTIVE_NAMES, kinds
    assert kinds & COLLECTIVE_NAMES <= (expected_kinds | optional), kinds
    g = np.random.default_rng(0).standard_normal(global_shape).astype(np.float32)
    out = run(module, np.stack([cut(g, src, d) for d in range(P)]))
    assert np.array_equal(out, np.stack([cut(g, dst, d) for d in range(P)]))


def test_reshard_channels_and_gather_order() -> None:
    src = ShardingAttr.from_hlo_text("{devices=[2,4]<=[8]}")

    def emit(
        b: Builder, x: SSAValue, creator: CollectiveOpsCreator, ch: ChannelCounter
    ) -> SSAValue:
        return all_gather_shards(b, x, src, [0, 1], creator, ch)

    module = build((4, 4), emit, first_channel=5)
    gathers = [op for op in module.walk() if isinstance(op, AllGatherOp)]
    assert [g.all_gather_dimension.value.data for g in gathers] == [1, 0]
    assert [g.channel_id.value.data for g in gathers if g.channel_id] == [5, 6]


@pytest.mark.parametrize(
    ("dims", "per_dim", "groups"),
    [
        # one all-reduce over the combined groups (XLA's AllReduceAlongShardingDims)
        ([0, 1], False, [((0, 1, 2, 3, 4, 5, 6, 7),)]),
        ([1], False, [((0, 1, 2, 3), (4, 5, 6, 7))]),
        ([0], False, [((0, 4), (1, 5), (2, 6), (3, 7))]),
        # the explicit per-dimension chain, last dim first
        ([0, 1], True, [((0, 1, 2, 3), (4, 5, 6, 7)), ((0, 4), (1, 5), (2, 6), (3, 7))]),
    ],
)
def test_all_reduce_along_sharding_dims(
    dims: list[int], per_dim: bool, groups: list[tuple[tuple[int, ...], ...]]
) -> None:
    s = ShardingAttr.from_hlo_text("{devices=[2,4]<=[8]}")

    def emit(
        b: Builder, x: SSAValue, creator: CollectiveOpsCreator, ch: ChannelCounter
    ) -> SSAValue:
        return all_reduce_along_sharding_dims(
            b, x, s, dims, "hlo.add", creator, ch, per_dim=per_dim
        )

    module = build((3,), emit)
    reduces = [op for op in module.walk() if isinstance(op, AllReduceOp)]
    assert [r.replica_groups.groups() for r in reduces] == groups
    x = np.stack([np.full(3, d, np.float32) for d in range(P)])

    # Each device gets the sum over its group; the chain over both dims reaches every device.
    def members(d: int) -> tuple[int, ...]:
        return tuple(range(P)) if per_dim else next(g for g in groups[0] if d in g)

    expected = np.stack([np.full(3, sum(members(d)), np.float32) for d in range(P)])
    assert np.array_equal(run(module, x), expected)


def test_all_reduce_along_untiled_dims_is_the_value() -> None:
    s = ShardingAttr.from_hlo_text("{devices=[8,1]<=[8]}")

    def emit(
        b: Builder, x: SSAValue, creator: CollectiveOpsCreator, ch: ChannelCounter
    ) -> SSAValue:
        return all_reduce_along_sharding_dims(b, x, s, [1], "hlo.add", creator, ch)

    module = build((3,), emit)
    assert not [op for op in module.walk() if isinstance(op, AllReduceOp)]


def test_reshard_errors() -> None:
    tiled = ShardingAttr.from_hlo_text("{devices=[8]<=[8]}")
    with pytest.raises(ReshardError, match="maximal"):
        choose_strategy(tiled, ShardingAttr.maximal(0), (8,), P)
    with pytest.raises(ReshardError, match="does not split evenly"):
        choose_strategy(ShardingAttr.replicated(), tiled, (12,), P)
    with pytest.raises(ReshardError, match="tile dims for a rank-2 value"):
        choose_strategy(tiled, ShardingAttr.replicated(), (8, 8), P)


# --- halo -------------------------------------------------------------------------------------


def _window(g: Array, start: int, size: int, pad: float | None) -> Array:
    out = np.zeros(size, np.float32) if pad is None else np.full(size, pad, np.float32)
    for q in range(size):
        if 0 <= start + q < g.size:
            out[q] = g[start + q]
    return out


@pytest.mark.parametrize(("left", "right"), [(1, 1), (2, 0), (0, 3), (3, 5), (4, 4)])
@pytest.mark.parametrize("masked", [False, True])
def test_halo(left: int, right: int, masked: bool) -> None:
    g = np.arange(1, 25, dtype=np.float32)  # f32[24] over 8 partitions: 3 each
    n = g.size // P
    s = ShardingAttr.tiled([P], list(reversed(range(P))))  # device d holds tile 7 - d

    def emit(
        b: Builder, x: SSAValue, creator: CollectiveOpsCreator, ch: ChannelCounter
    ) -> SSAValue:
        if masked:
            return exchange_halo_and_get_valid_data(
                b, x, left, right, 0, s, creator, ch, pad_value=-1.0
            )
        return exchange_halo(b, x, left, right, 0, s, creator, ch)

    module = build((n,), emit)
    permutes = [op for op in module.walk() if isinstance(op, CollectivePermuteOp)]
    assert len(permutes) == -(-left // n) + -(-right // n)
    out = run(module, np.stack([cut(g, s, d) for d in range(P)]))
    for d in range(P):
        t = s.device_tile_index(d)[0]
        expected = _window(g, t * n - left, left + n + right, -1.0 if masked else None)
        assert np.array_equal(out[d], expected), (d, out[d], expected)


def test_halo_issue_example() -> None:
    s = ShardingAttr.tiled([4])

    def emit(
        b: Builder, x: SSAValue, creator: CollectiveOpsCreator, ch: ChannelCounter
    ) -> SSAValue:
        return exchange_halo(b, x, 1, 1, 0, s, default_collective_ops_creator(4, 1), ch)

    module = build((2,), emit)
    permutes = [op for op in module.walk() if isinstance(op, CollectivePermuteOp)]
    assert [p.source_target_pairs.data for p in permutes] == [
        ((0, 1), (1, 2), (2, 3)),
        ((1, 0), (2, 1), (3, 2)),
    ]
    assert [op.name for op in module.walk() if op.name.startswith("hlo.")] == [
        "hlo.slice",
        "hlo.collective_permute",
        "hlo.slice",
        "hlo.collective_permute",
        "hlo.concatenate",
    ]


# --- the pass -----------------------------------------------------------------------------------


def _pass_module(body: str, arg_shape: tuple[int, ...] = (2, 8)) -> ModuleOp:
    t = "x".join(map(str, arg_shape)) + "xf32"
    text = (
        "builtin.module attributes {hlo.num_partitions = 8 : i64} {\n"
        f"func.func @main(%x: tensor<{t}>) -> tensor<2x8xf32> {{\n{body}\n}}\n}}"
    )
    return parse_module(text, verify=False)


@pytest.mark.parametrize(
    ("attrs", "message"),
    [
        (
            'xla.sharding = "{devices=[8,1]<=[4]}", xla.source_sharding = "{replicated}"',
            "do not hold 8 devices",
        ),
        (
            'xla.sharding = "{devices=[2,4]<=[8]}", xla.source_sharding = "{replicated}"',
            "is not the target shard shape [1, 2]",
        ),
    ],
)
def test_pass_failures(attrs: str, message: str) -> None:
    from xdsl.context import Context
    from xdsl.utils.exceptions import PassFailedException

    from neuron_cc.transforms.spmd_expand_reshard import SpmdExpandReshardPass

    module = _pass_module(
        f'%r = hlo.custom_call "Sharding"(%x) {{{attrs}}} : (tensor<2x8xf32>) -> tensor<2x8xf32>\n'
        "func.return %r : tensor<2x8xf32>"
    )
    with pytest.raises(PassFailedException, match=re.escape(message)):
        SpmdExpandReshardPass().apply(Context(), module)


@pytest.mark.parametrize(
    ("src_text", "dst_text", "global_shape"),
    [
        ("{devices=[8,1]<=[8]}", "{devices=[1,8]<=[8]}", (16, 8)),  # all_to_all
        ("{devices=[2,4]<=[8]}", "{devices=[4,2]<=[8]}", (8, 16)),  # all_to_all+permute
        ("{devices=[8,1]<=[8]}", "{devices=[1,2,4]<=[8] last_tile_dim_replicate}", (16, 8)),
        (
            "{devices=[8,1]<=[8]}",
            "{devices=[1,2,4]3,6,1,4,7,2,5,0 last_tile_dim_replicate}",
            (16, 8),
        ),
        ("{devices=[1,2,4]<=[8] last_tile_dim_replicate}", "{devices=[8,1]<=[8]}", (16, 8)),
    ],
)
def test_pass_equivalence(src_text: str, dst_text: str, global_shape: tuple[int, int]) -> None:
    """The lowered program gives every partition its target shard."""
    from xdsl.context import Context

    from neuron_cc.transforms.spmd_expand_reshard import SpmdExpandReshardPass

    src, dst = ShardingAttr.from_hlo_text(src_text), ShardingAttr.from_hlo_text(dst_text)
    a, b = shard_shape_of(global_shape, src), shard_shape_of(global_shape, dst)
    module = _pass_module(
        f'%r = hlo.custom_call "Sharding"(%x) {{xla.sharding = "{dst_text}", '
        f'xla.source_sharding = "{src_text}"}} : (tensor<{a[0]}x{a[1]}xf32>) -> '
        f"tensor<{b[0]}x{b[1]}xf32>\n"
        f"func.return %r : tensor<{b[0]}x{b[1]}xf32>",
        arg_shape=a,
    )
    main = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    main.function_type = FunctionType.from_lists([TensorType(f32, a)], [TensorType(f32, b)])
    SpmdExpandReshardPass().apply(Context(), module)
    module.verify()
    assert "hlo.custom_call" not in ops_of(module)
    g = np.random.default_rng(1).standard_normal(global_shape).astype(np.float32)
    out = run(module, np.stack([cut(g, src, d) for d in range(P)]))
    assert np.array_equal(out, np.stack([cut(g, dst, d) for d in range(P)]))
