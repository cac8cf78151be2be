"""Replica groups of the random HLO programs: XLA's group modes, written from XLA's semantics.

Shared by the generator (to choose valid groups) and the numpy reference (to run them); it does
not use the project's own replica-group analysis, so it can arbitrate against it.

XLA decides a collective's group mode from `channel_id` and `use_global_device_ids`
(xla/service/collective_ops_utils.cc, GetCollectiveOpGroupMode): no channel id -> cross-replica;
a channel id on all-reduce / all-gather / reduce-scatter -> cross-replica-and-partition, or
flattened-id with use_global_device_ids=true; a channel id on all-to-all / collective-permute
-> cross-partition. The participants of a group, in rank order, follow
GetParticipatingDevicesGroups: device (r, p) has the flattened id r * P + p.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

CROSS_REPLICA = "cross-replica"
CROSS_PARTITION = "cross-partition"
CROSS_REPLICA_AND_PARTITION = "cross-replica-and-partition"
FLATTENED_ID = "flattened-id"

# Opcodes that carry `use_global_device_ids` (the others are cross-partition with a channel).
GLOBAL_ID_OPCODES = frozenset({"all-reduce", "all-gather", "reduce-scatter"})

Groups = list[list[int]]


def group_mode(opcode: str, has_channel: bool, global_ids: bool) -> str:
    """XLA's group mode of a collective (see the module docstring)."""
    if not has_channel:
        if global_ids:
            raise ValueError("use_global_device_ids=true needs a channel_id")
        return CROSS_REPLICA
    if opcode not in GLOBAL_ID_OPCODES:
        return CROSS_PARTITION
    return FLATTENED_ID if global_ids else CROSS_REPLICA_AND_PARTITION


def modes_of(opcode: str) -> tuple[str, ...]:
    """The group modes an opcode can be written in."""
    if opcode in GLOBAL_ID_OPCODES:
        return (CROSS_REPLICA, CROSS_REPLICA_AND_PARTITION, FLATTENED_ID)
    return (CROSS_REPLICA, CROSS_PARTITION)


def id_space(mode: str, replicas: int, partitions: int) -> int:
    """How many ids the replica groups of `mode` range over."""
    if mode == CROSS_PARTITION:
        return partitions
    if mode == FLATTENED_ID:
        return replicas * partitions
    return replicas


def mode_attributes(mode: str) -> tuple[bool, bool]:
    """(has channel_id, use_global_device_ids) that spell `mode`."""
    return mode != CROSS_REPLICA, mode == FLATTENED_ID


def device_groups(mode: str, groups: Groups, replicas: int, partitions: int) -> Groups:
    """Flattened device ids of every group, in rank order (XLA's participant order)."""
    space = id_space(mode, replicas, partitions)
    ids = groups if groups else [list(range(space))]
    if mode == CROSS_REPLICA:
        return [[r * partitions + p for r in g] for g in ids for p in range(partitions)]
    if mode == CROSS_PARTITION:
        return [[r * partitions + p for p in g] for g in ids for r in range(replicas)]
    if mode == CROSS_REPLICA_AND_PARTITION:
        return [[r * partitions + p for r in g for p in range(partitions)] for g in ids]
    return [list(g) for g in ids]


def permute_device_pairs(
    mode: str, pairs: Sequence[tuple[int, int]], replicas: int, partitions: int
) -> list[tuple[int, int]]:
    """collective-permute (source, target) pairs as flattened device ids."""
    if mode == CROSS_PARTITION:
        return [(r * partitions + s, r * partitions + t) for r in range(replicas) for s, t in pairs]
    return [(s * partitions + p, t * partitions + p) for p in range(partitions) for s, t in pairs]


# --- text forms -------------------------------------------------------------------------------


@dataclass(frozen=True)
class IotaGroups:
    """`[G,S]<=[dims]T(perm)`: iota(prod dims) reshaped to dims, transposed, cut in G groups."""

    num_groups: int
    group_size: int
    dims: tuple[int, ...]
    perm: tuple[int, ...]

    def expand(self) -> Groups:
        ids = np.arange(int(np.prod(self.dims))).reshape(self.dims).transpose(self.perm)
        return [[int(i) for i in row] for row in ids.reshape(self.num_groups, self.group_size)]

    def text(self) -> str:
        dims = ",".join(map(str, self.dims))
        head = f"[{self.num_groups},{self.group_size}]<=[{dims}]"
        if self.perm == tuple(range(len(self.dims))):
            return head
        return head + "T(" + ",".join(map(str, self.perm)) + ")"


def explicit_text(groups: Groups) -> str:
    return "{" + ",".join("{" + ",".join(map(str, g)) + "}" for g in groups) + "}"


_IOTA = re.compile(r"\[(\d+),(\d+)\]<=\[([\d,]+)\](?:T\(([\d,]+)\))?$")


def parse_groups(text: str) -> Groups:
    """Groups from `{}`, `{{0,1},{2,3}}` or an iota list; `[]` means one group of everyone."""
    text = text.replace(" ", "")
    m = _IOTA.match(text)
    if m is not None:
        dims = tuple(int(d) for d in m.group(3).split(","))
        perm = (
            tuple(int(d) for d in m.group(4).split(",")) if m.group(4) else tuple(range(len(dims)))
        )
        return IotaGroups(int(m.group(1)), int(m.group(2)), dims, perm).expand()
    inner = text[1:-1]
    return [[int(i) for i in g.split(",") if i] for g in re.findall(r"\{([\d,]*)\}", inner)]


def parse_pairs(text: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in re.findall(r"\{(\d+),(\d+)\}", text.replace(" ", ""))]
