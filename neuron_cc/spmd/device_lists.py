"""Device lists for SPMD collective emission (issue 8 §1).

A replica-groups attribute holds either explicit groups or an iota device list
`[G,S]<=[dims]T(perm)` = arange(G*S).reshape(dims).transpose(perm).reshape(G, S); iota lists are
canonicalised on construction (`IotaDeviceList`) and only expanded on demand.

- `expand_partition_groups_across_replicas(groups, R, P)`: partition groups (ids 0..P-1 of one
  replica) -> flattened-id groups over all R*P devices, replica-major (XLA's
  ExpandPartitionGroupListAcrossReplicas). An iota list stays an iota list.
- `iota_or_explicit(groups)`: the iota form of explicit groups when one exists, else the groups.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import numpy as np

from neuron_cc.dialects.hlo.attributes import (
    Groups,
    IotaDeviceList,
    ReplicaGroupsAttr,
    canonical_iota_dims,
)

MAX_SEARCH_RANK = 4
"""`iota_or_explicit` tries reshape dims of at most this many (non-unit) dims."""


def expand_partition_groups_across_replicas(
    groups: ReplicaGroupsAttr, num_replicas: int, num_partitions: int
) -> ReplicaGroupsAttr:
    """Repeat partition groups for every replica r as flattened ids r*P + p (replica-major).

    An iota list [G,S]<=[D]T(T) needs G*S == P and becomes [G*R,S]<=[R,D...]T(0,T+1...), then
    canonicalised. Explicit groups give, for r in 0..R-1 and each group g, [r*P + p for p in g];
    empty explicit groups (one group of all partitions) give one group of all P partitions per
    replica. Raises ValueError on a mismatched iota size or a partition id outside 0..P-1.
    """
    if num_replicas <= 0 or num_partitions <= 0:
        raise ValueError(
            f"need positive replica and partition counts, got {num_replicas} and {num_partitions}"
        )
    data = groups.data
    if isinstance(data, IotaDeviceList):
        return ReplicaGroupsAttr(_expand_iota(data, num_replicas, num_partitions))
    partition_groups = data or (tuple(range(num_partitions)),)
    for group in partition_groups:
        for p in group:
            if not 0 <= p < num_partitions:
                raise ValueError(f"partition id {p} is outside 0..{num_partitions - 1}")
    return ReplicaGroupsAttr(
        tuple(
            tuple(r * num_partitions + p for p in group)
            for r in range(num_replicas)
            for group in partition_groups
        )
    )


def _expand_iota(iota: IotaDeviceList, num_replicas: int, num_partitions: int) -> IotaDeviceList:
    devices = iota.num_groups * iota.group_size
    if devices != num_partitions:
        raise ValueError(
            f"iota device list [{iota.num_groups},{iota.group_size}] covers {devices} devices, "
            f"not the {num_partitions} partitions"
        )
    return IotaDeviceList(
        iota.num_groups * num_replicas,
        iota.group_size,
        (num_replicas, *iota.reshape_dims),
        (0, *(p + 1 for p in iota.perm)),
    )


def iota_or_explicit(groups: ReplicaGroupsAttr) -> ReplicaGroupsAttr:
    """`groups` as an iota device list when its explicit groups equal one, else unchanged.

    Recognises every canonical iota list of at most `MAX_SEARCH_RANK` reshape dims (contiguous
    blocks, strided/transposed 2-d, 3-d and 4-d layouts); the result expands to the same groups.
    """
    if groups.is_iota:
        return groups
    iota = find_iota_device_list(groups.groups())
    return groups if iota is None else ReplicaGroupsAttr(iota)


def find_iota_device_list(groups: Groups) -> IotaDeviceList | None:
    """The canonical iota list whose expansion is exactly `groups`, or None."""
    if not groups or not groups[0]:
        return None
    size = len(groups[0])
    if any(len(g) != size for g in groups):
        return None
    flat = np.array([i for g in groups for i in g], dtype=np.int64)
    n = flat.size
    if flat[0] != 0 or not np.array_equal(np.sort(flat), np.arange(n)):
        return None
    base = np.arange(n, dtype=np.int64)
    for dims in _ordered_factorizations(n, MAX_SEARCH_RANK):
        shaped = base.reshape(dims)
        for perm in _canonical_perms(dims):
            if np.array_equal(shaped.transpose(perm).ravel(), flat):
                return IotaDeviceList(len(groups), size, dims, perm)
    return None


def _canonical_perms(dims: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Transposes of `dims` that `canonical_iota_dims` leaves unchanged (no others are needed)."""
    for perm in itertools.permutations(range(len(dims))):
        if canonical_iota_dims(dims, perm) == (dims, perm):
            yield perm


def _ordered_factorizations(n: int, max_rank: int) -> Iterator[tuple[int, ...]]:
    """Tuples of factors > 1 (at most `max_rank`) whose product is n; `(1,)` for n == 1."""
    if n == 1:
        yield (1,)
        return
    yield (n,)
    if max_rank == 1:
        return
    for first in (d for d in range(2, math.isqrt(n) + 1) if n % d == 0):
        for head in sorted({first, n // first}):
            for rest in _ordered_factorizations(n // head, max_rank - 1):
                yield (head, *rest)
