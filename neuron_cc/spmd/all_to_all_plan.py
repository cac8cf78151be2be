"""Planning a reshard between two tilings of the same tile count as a chain of all-to-alls.

XLA's partitioner (`ReshardWithAllToAll`) moves tiles between dimensions with all-to-alls: one
step takes a factor k of dimension i's tile count and gives it to dimension j. Within each group
of the k partitions that differ only in the k-part of their dim-i tile index, every partition
cuts its shard into k pieces along j, sends piece c to member c and concatenates what it
receives along i. Dimension i's tiles become k times coarser, dimension j's k times finer, and
the partitions' tile indices follow arithmetically. When the tile counts match the target but
the devices sit at other tile positions, one collective-permute finishes the move.

A step only needs the divisibilities: k divides dim i's surplus (source tiles / target tiles)
and dim j's deficit, and the local size along j. The planner tries every order of such moves
(largest k per dimension pair) and keeps the cheapest chain: a 2-D [8,1] -> [1,8] is one step,
[8,1] -> [2,4] one step of k = 4, a 3-D move a step per pair of dimensions, and of two orders
the one that ends at the target's device positions (no permute) wins. Both shardings must tile the value with the same replication factor; otherwise, or
when no factor divides, there is no plan (`plan_all_to_all` returns None) and `reshard` falls
back to gathers and slices.

Tile assignments here carry an explicit trailing replication axis
(`ShardingAttr.tile_assignment_with_replication`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

IntArray = np.ndarray[tuple[int, ...], np.dtype[np.int64]]
Shape = tuple[int, ...]


@dataclass(frozen=True)
class AllToAllStep:
    """One all-to-all moving `factor` from dim `source` to dim `target` (see module doc)."""

    source: int
    target: int
    factor: int
    groups: tuple[tuple[int, ...], ...]
    """The partitions exchanging with each other, members ordered by the k-part of their
    dim-`source` tile index (the order pieces are sent and received in)."""
    after: IntArray
    """The tile assignment once the step is done."""


@dataclass(frozen=True)
class AllToAllPlan:
    steps: tuple[AllToAllStep, ...]
    permute: tuple[tuple[int, int], ...] | None
    """(source, target) pairs of the final collective-permute; None when the last step
    already leaves every device at its target position."""


def split_step(ta: IntArray, source: int, target: int, factor: int) -> AllToAllStep:
    """The step moving `factor` from `source` to `target` on assignment `ta`."""
    shape = list(ta.shape)
    coarse = shape[source] // factor
    # Dim `source`'s index is coarse * factor + c: axis `source` becomes (coarse, c).
    split = ta.reshape([*shape[:source], coarse, factor, *shape[source + 1 :]])
    k_axis = source + 1
    others = [a for a in range(split.ndim) if a != k_axis]
    groups = split.transpose([*others, k_axis]).reshape(-1, factor)
    # The piece a member keeps is its c-th along `target`: target index = old * factor + c.
    target_axis = target if target < source else target + 1
    order = [a for a in range(split.ndim) if a != k_axis]
    order.insert(order.index(target_axis) + 1, k_axis)
    merged_shape = list(shape)
    merged_shape[source] = coarse
    merged_shape[target] *= factor
    after = split.transpose(order).reshape(merged_shape)
    return AllToAllStep(
        source,
        target,
        factor,
        tuple(tuple(int(d) for d in g) for g in groups),
        after,
    )


def _moves(
    tiles: Sequence[int], goal: Sequence[int], local: Sequence[int]
) -> list[tuple[int, int, int]]:
    """Every (source, target, factor) step toward `goal`, with the largest factor per pair."""
    moves: list[tuple[int, int, int]] = []
    for i, (have_i, want_i) in enumerate(zip(tiles, goal, strict=True)):
        if have_i <= want_i or have_i % want_i:
            continue
        for j, (have_j, want_j) in enumerate(zip(tiles, goal, strict=True)):
            if have_j >= want_j or want_j % have_j:
                continue
            k = math.gcd(have_i // want_i, want_j // have_j, local[j])
            if k > 1:
                moves.append((i, j, k))
    return moves


def _cost(plan: AllToAllPlan) -> tuple[int, float]:
    """(launches, fraction of the shard each device sends in all): fewer launches first."""
    sent = sum((s.factor - 1) / s.factor for s in plan.steps)
    return len(plan.steps) + (plan.permute is not None), sent + (plan.permute is not None)


def plan_all_to_all(
    src: IntArray, dst: IntArray, local_shape: Sequence[int]
) -> AllToAllPlan | None:
    """The cheapest all-to-all chain (then maybe a permute) taking assignment `src` to `dst`
    for a shard of `local_shape` under `src` (`_cost`: fewest launches, then fewest bytes;
    every order of the dimension moves is tried, so a chain that ends at the target's device
    positions wins over one that needs a permute). None when the shardings differ in
    replication or tile count, have the same tile counts (a pure permutation), or no chain of
    divisible steps reaches `dst`'s tile counts."""
    if src.shape[-1] != dst.shape[-1] or src.size != dst.size or src.ndim != dst.ndim:
        return None
    best: AllToAllPlan | None = None
    for steps in itertools.islice(_chains(src, dst.shape[:-1], list(local_shape)), _MAX_CHAINS):
        plan = _finish(steps, dst)
        if best is None or _cost(plan) < _cost(best):
            best = plan
    return best


_MAX_CHAINS = 64
"""Chains compared at most (the orders of a few moves on real meshes; bounded for big ranks)."""


def _chains(ta: IntArray, goal: Shape, local: list[int]) -> Iterator[tuple[AllToAllStep, ...]]:
    """Every chain of steps from `ta` to tile counts `goal` (depth-first; at most one step per
    prime factor of the tile count, a handful on real meshes)."""
    if ta.shape[:-1] == goal:
        return
    for i, j, k in _moves(ta.shape[:-1], goal, local):
        step = split_step(ta, i, j, k)
        after = list(local)
        after[i] *= k
        after[j] //= k
        if step.after.shape[:-1] == goal:
            yield (step,)
            continue
        for rest in _chains(step.after, goal, after):
            yield (step, *rest)


def _finish(steps: tuple[AllToAllStep, ...], dst: IntArray) -> AllToAllPlan:
    ta = steps[-1].after
    if np.array_equal(ta, dst):
        return AllToAllPlan(steps, None)
    # Every position, also a device that stays: a partition no pair targets receives zeros.
    pairs = tuple((int(s), int(t)) for s, t in zip(ta.flat, dst.flat, strict=True))
    return AllToAllPlan(steps, pairs)


def tile_shape_after(local_shape: Shape, step: AllToAllStep) -> Shape:
    """The shard's shape after `step`."""
    out = list(local_shape)
    out[step.source] *= step.factor
    out[step.target] //= step.factor
    return tuple(out)


def replication_as_tiles(ta: IntArray, factors: Sequence[int]) -> IntArray:
    """`ta` (tiles + a trailing replication axis) with factor `factors[d]` of the replication
    taken as the minor part of dim d's tile index: tile counts `tiles[d] * factors[d]`, the
    replication divided by their product.

    Gathering that tiling over the factored dims gives back `ta` exactly (an all_gather
    concatenates its members in the order of the minor index), and `ta` is a block of it that a
    dynamic_slice can cut: the two stages around an all-to-all chain when the replication
    changes too.
    """
    rank = ta.ndim - 1
    rest = ta.shape[-1] // math.prod(factors)
    split = ta.reshape([*ta.shape[:-1], *factors, rest])
    order: list[int] = []
    for d in range(rank):
        order += [d, rank + d]
    order.append(2 * rank)
    tiles = [t * f for t, f in zip(ta.shape[:-1], factors, strict=True)]
    return split.transpose(order).reshape([*tiles, rest])


def tiles_as_replication(ta: IntArray, factors: Sequence[int]) -> IntArray:
    """The inverse direction of `replication_as_tiles`: the minor factor `factors[d]` of dim d's
    tile index joins the replication (what gathering those factors leaves on the devices)."""
    rank = ta.ndim - 1
    coarse = [t // f for t, f in zip(ta.shape[:-1], factors, strict=True)]
    split = ta.reshape(
        [x for c, f in zip(coarse, factors, strict=True) for x in (c, f)] + [ta.shape[-1]]
    )
    order = [2 * d for d in range(rank)] + [2 * d + 1 for d in range(rank)] + [2 * rank]
    return split.transpose(order).reshape([*coarse, -1])
