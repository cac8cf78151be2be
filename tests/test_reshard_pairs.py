"""`reshard` on every pair of a family of shardings of 8 partitions (issue 21, item 1).

For 1-D, 2-D and 3-D values: every tiling whose tile counts times replication make 8 (tiled,
partially replicated, replicated), each with the iota device order and a permuted one. Every
(source, target) pair is built with the library, run on the interpreter with each partition's
piece of a random global array, and compared with the global array cut by the target. Where
both shardings tile with the same tile count and replication, the plan must be an all-to-all
chain or a permutation, never the gather-everything fallback.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xdsl.builder import Builder
from xdsl.ir import SSAValue

from neuron_cc.dialects.sharding import ShardingAttr
from neuron_cc.spmd.collective_ops_creator import CollectiveOpsCreator
from neuron_cc.spmd.reshard import ChannelCounter, choose_strategy, reshard, shard_shape_of
from tests.test_reshard_halo import P, build, cut, run

SHAPES = {1: (16,), 2: (16, 32), 3: (16, 16, 16)}
PERMUTED = [3, 6, 1, 4, 7, 2, 5, 0]


def _tilings(rank: int) -> list[ShardingAttr]:
    """Every tile shape (plus replication) with product 8, iota and permuted devices."""
    out = [ShardingAttr.replicated()]
    for exponents in itertools.product(range(4), repeat=rank + 1):
        if sum(exponents) != 3 or exponents[-1] == 3:
            continue
        tiles = [2**e for e in exponents]
        replicate = tiles[-1] > 1
        shape = tiles if replicate else tiles[:-1]
        out.append(ShardingAttr.tiled(shape, replicate_last=replicate))
        out.append(ShardingAttr.tiled(shape, PERMUTED, replicate_last=replicate))
    return out


def _same_tile_count(src: ShardingAttr, dst: ShardingAttr) -> bool:
    return (
        src.is_tiled
        and dst.is_tiled
        and not src.is_replicated
        and src.replication_factor == dst.replication_factor
        and src.tile_dims != dst.tile_dims
    )


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_every_pair_matches_the_global_value(rank: int) -> None:
    global_shape = SHAPES[rank]
    g = np.random.default_rng(rank).standard_normal(global_shape).astype(np.float32)
    shardings = _tilings(rank)
    strategies: dict[str, int] = {}
    for src, dst in itertools.product(shardings, repeat=2):
        strategy = choose_strategy(src, dst, global_shape, P)
        strategies[strategy] = strategies.get(strategy, 0) + 1
        if _same_tile_count(src, dst):
            assert strategy.startswith("all_to_all"), (src.to_hlo_text(), dst.to_hlo_text())

        def emit(
            b: Builder,
            x: SSAValue,
            creator: CollectiveOpsCreator,
            ch: ChannelCounter,
            src: ShardingAttr = src,
            dst: ShardingAttr = dst,
        ) -> SSAValue:
            return reshard(b, x, src, dst, creator, ch)

        module = build(shard_shape_of(global_shape, src), emit)
        out = run(module, np.stack([cut(g, src, d) for d in range(P)]))
        expected = np.stack([cut(g, dst, d) for d in range(P)])
        assert np.array_equal(out, expected), (src.to_hlo_text(), dst.to_hlo_text(), strategy)
    assert "gather_slice" not in strategies, strategies  # powers of two always factor
    if rank > 1:  # every all-to-all plan occurs among the pairs
        for plan in ("all_to_all", "all_to_all+permute", "all_gather+all_to_all"):
            assert strategies.get(plan, 0), (plan, strategies)
        for plan in ("all_to_all+all_gather", "slice+all_to_all"):
            assert strategies.get(plan, 0), (plan, strategies)
