"""Replica groups, collective group modes and participants (XLA's semantics, docs/collective-semantics.md §5).

The group mode is decided by (has channel_id, use_global_device_ids) and the op kind:

| channel_id | use_global_device_ids | mode |
|---|---|---|
| absent | false | cross_replica |
| absent | true | invalid |
| present | false (all_reduce, all_gather, reduce_scatter) | cross_replica_and_partition |
| present | true | flattened_id |
| present | n/a (all_to_all, collective_permute, collective_broadcast) | cross_partition |

Devices are (replica r, partition p) with flattened id r*P+p.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import auto

from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.utils.str_enum import StrEnum

from neuron_cc.dialects.frozen_ir import enclosing_module

NUM_PARTITIONS_ATTR = "hlo.num_partitions"
NUM_REPLICAS_ATTR = "hlo.num_replicas"
USE_SPMD_ATTR = "hlo.use_spmd_partitioning"

Device = tuple[int, int]


class GroupMode(StrEnum):
    CROSS_REPLICA = auto()
    CROSS_PARTITION = auto()
    CROSS_REPLICA_AND_PARTITION = auto()
    FLATTENED_ID = auto()


class GroupModeError(ValueError):
    """The (channel_id, use_global_device_ids) combination has no group mode."""


def group_mode(
    has_channel_id: bool, use_global_device_ids: bool, has_global_ids_flag: bool = True
) -> GroupMode:
    """The group mode of a collective.

    `has_global_ids_flag` is False for all_to_all, collective_permute and
    collective_broadcast, which have no `use_global_device_ids` and are cross_partition
    whenever they carry a channel id.
    """
    if not has_channel_id:
        if use_global_device_ids:
            raise GroupModeError("use_global_device_ids requires a channel_id")
        return GroupMode.CROSS_REPLICA
    if not has_global_ids_flag:
        return GroupMode.CROSS_PARTITION
    if use_global_device_ids:
        return GroupMode.FLATTENED_ID
    return GroupMode.CROSS_REPLICA_AND_PARTITION


def id_space_size(mode: GroupMode, num_replicas: int, num_partitions: int) -> int:
    """How many distinct ids the groups of this mode range over."""
    if mode == GroupMode.CROSS_PARTITION:
        return num_partitions
    if mode == GroupMode.FLATTENED_ID:
        return num_replicas * num_partitions
    return num_replicas


def device_counts(op: Operation) -> tuple[int, int]:
    """(num_replicas, num_partitions) from the enclosing module's attributes (default 1, 1);
    climbs once per block inside a `frozen_ir.frozen()` scope (verification is one)."""
    module = enclosing_module(op)
    if module is None:
        return 1, 1
    return _count(module, NUM_REPLICAS_ATTR), _count(module, NUM_PARTITIONS_ATTR)


def _count(module: ModuleOp, name: str) -> int:
    attr = module.attributes.get(name)
    if isinstance(attr, IntegerAttr):
        return int(attr.value.data)
    return 1


def groups_problem(
    groups: Sequence[Sequence[int]],
    id_space: int,
    *,
    require_uniform: bool,
    require_cover: bool,
    what: str = "replica group",
) -> str | None:
    """Why `groups` violate XLA's rules for an id space of size `id_space`, or None.

    Rules: no empty group; every id in [0, id_space); no id twice; uniform sizes when
    required; when `require_cover`, the ids form a permutation of [0, id_space).
    An empty list of groups means "one group of everybody" and is always valid here.
    """
    seen: set[int] = set()
    for index, group in enumerate(groups):
        if not group:
            return f"{what} {index} is empty"
        for i in group:
            if not 0 <= i < id_space:
                return f"{what} {index} contains id {i} outside [0, {id_space})"
            if i in seen:
                return f"id {i} appears in more than one {what} position"
            seen.add(i)
    if require_uniform and groups and len({len(g) for g in groups}) > 1:
        sizes = sorted({len(g) for g in groups})
        return f"{what}s have non-uniform sizes {sizes}"
    if require_cover and groups and len(seen) != id_space:
        missing = sorted(set(range(id_space)) - seen)[:8]
        return f"{what}s do not cover every id in [0, {id_space}): missing {missing}"
    return None


def effective_groups(groups: Sequence[Sequence[int]], id_space: int) -> list[list[int]]:
    """Empty groups mean one group holding every id."""
    if not groups:
        return [list(range(id_space))]
    return [list(g) for g in groups]


def participants(
    groups: Sequence[Sequence[int]], mode: GroupMode, num_replicas: int, num_partitions: int
) -> list[list[Device]]:
    """The device groups, as (replica, partition) pairs in rank order (docs/collective-semantics.md §5)."""
    r_count, p_count = num_replicas, num_partitions
    result: list[list[Device]] = []
    if mode == GroupMode.CROSS_REPLICA:
        for p in range(p_count):
            result.extend([[(r, p) for r in g] for g in effective_groups(groups, r_count)])
    elif mode == GroupMode.CROSS_PARTITION:
        for r in range(r_count):
            result.extend([[(r, p) for p in g] for g in effective_groups(groups, p_count)])
    elif mode == GroupMode.CROSS_REPLICA_AND_PARTITION:
        for g in effective_groups(groups, r_count):
            result.append([(r, p) for r in g for p in range(p_count)])
    else:
        for g in groups:
            result.append([(i // p_count, i % p_count) for i in g])
    return result


def flattened_participants(
    groups: Sequence[Sequence[int]], mode: GroupMode, num_replicas: int, num_partitions: int
) -> list[list[int]]:
    """`participants` as flattened device ids r*P+p."""
    return [
        [r * num_partitions + p for r, p in g]
        for g in participants(groups, mode, num_replicas, num_partitions)
    ]


def group_size(
    groups: Sequence[Sequence[int]], mode: GroupMode, num_replicas: int, num_partitions: int
) -> int:
    """The number of devices in each group (the first group for non-uniform all_reduce)."""
    if mode == GroupMode.FLATTENED_ID:
        return len(groups[0]) if groups else num_replicas * num_partitions
    if mode == GroupMode.CROSS_PARTITION:
        return len(groups[0]) if groups else num_partitions
    size = len(groups[0]) if groups else num_replicas
    if mode == GroupMode.CROSS_REPLICA_AND_PARTITION:
        size *= num_partitions
    return size


def parse_reference_groups(text: str) -> tuple[tuple[int, ...], ...] | None:
    """`"0,1,2,3;4,5,6,7"` -> ((0, 1, 2, 3), (4, 5, 6, 7)); empty text -> None (no gate).

    Raises ValueError for malformed text.
    """
    body = text.strip()
    if not body:
        return None
    groups: list[tuple[int, ...]] = []
    for part in body.split(";"):
        ids = [p.strip() for p in part.split(",") if p.strip()]
        if not ids or not all(i.lstrip("-").isdigit() for i in ids):
            raise ValueError(f"malformed reference-replica-groups '{text}' (expected '0,1;2,3')")
        groups.append(tuple(int(i) for i in ids))
    return tuple(groups)


def matches_reference(
    groups: Sequence[Sequence[int]], reference: Sequence[Sequence[int]] | None
) -> bool:
    """The replica-group gate: no reference, or exactly the same groups in the same order."""
    if reference is None:
        return True
    return [tuple(g) for g in groups] == [tuple(g) for g in reference]


def channel_id(op: Operation) -> int | None:
    """The op's `channel_id` property as an int (None: it has none)."""
    channel = op.properties.get("channel_id")
    return channel.value.data if isinstance(channel, IntegerAttr) else None


def next_channel_id(ops: Iterable[Operation]) -> int:
    """XLA's NextChannelId: 1 + the largest channel_id among `ops` (1 if none)."""
    return max((c for op in ops if (c := channel_id(op)) is not None), default=0) + 1
