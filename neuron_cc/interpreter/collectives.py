"""Interpretation of collectives on all devices at once (XLA semantics, docs/collective-semantics.md §5).

For a group collective, `member_table(op)` gives, for every device d, the devices of d's group
in rank order and d's rank. A reduction folds the group's values in rank order with the
`to_apply` region; a simple bf16 reducer accumulates in f32 and rounds once at the end, like
XLA:CPU's all-reduce promotion (see reducers.py). Devices that are
not in any group (collective_broadcast) or not targeted (collective_permute, send/recv) receive
zeros. Every executed collective is recorded in the run's statistics with its per-device byte
count under a simple model: all_reduce 2(n-1)/n*B, all_gather and reduce_scatter (n-1)/n*B_full,
all_to_all (n-1)/n*B, permute / broadcast / send B.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Attribute, Operation

from neuron_cc.dialects.hlo.async_ops import CollectivePermuteStartOp
from neuron_cc.dialects.hlo.collectives import (
    AllGatherBase,
    AllGatherOp,
    AllReduceBase,
    AllReduceOp,
    AllToAllOp,
    CollectiveBroadcastOp,
    CollectiveOp,
    ReduceScatterOp,
)
from neuron_cc.dialects.hlo.combined_permute import CombinedCollectivePermuteOp
from neuron_cc.dialects.hlo.frontend_attributes import SEND_RECV_PAIRS, send_recv_pairs
from neuron_cc.dialects.hlo.in_place_permute import InPlaceCollectivePermuteOp
from neuron_cc.dialects.hlo.p2p import (
    CollectivePermuteOp,
    RecvDoneOp,
    RecvOp,
    SendDoneOp,
    SendOp,
)
from neuron_cc.dialects.hlo.types import tuple_elements
from neuron_cc.dialects.replica_groups import flattened_participants
from neuron_cc.interpreter.reducers import finish, make_combiner
from neuron_cc.interpreter.values import (
    TOKEN,
    InterpretationError,
    SpmdState,
    element_of,
    numpy_dtype,
    spmd_state,
    type_bytes,
)

Array = np.ndarray[Any, Any]


def groups_of(op: CollectiveOp, state: SpmdState) -> list[list[int]]:
    """The device groups (flattened ids, rank order) of a group collective."""
    groups = flattened_participants(
        op.replica_groups.groups(), op.mode(), state.num_replicas, state.num_partitions
    )
    devices = state.num_devices
    for group in groups:
        for d in group:
            if not 0 <= d < devices:
                raise InterpretationError(
                    f"'{op.name}' groups name device {d}, but the run has {devices} devices "
                    f"({state.num_replicas} replicas x {state.num_partitions} partitions)"
                )
    if not isinstance(op, CollectiveBroadcastOp):
        _check_cover(op, groups, state)
    return groups


def _check_cover(op: CollectiveOp, groups: list[list[int]], state: SpmdState) -> None:
    """Every device runs the collective, so each must be in exactly one group (XLA fails
    "device not in any replica group" at run time otherwise)."""
    seen: dict[int, int] = {}
    for group in groups:
        for d in group:
            seen[d] = seen.get(d, 0) + 1
    missing = [d for d in range(state.num_devices) if d not in seen]
    repeated = sorted(d for d, n in seen.items() if n > 1)
    if missing or repeated:
        problem = (
            f"devices {missing[:8]} are in none of its {len(groups)} groups"
            if missing
            else f"devices {repeated[:8]} are in several of its groups"
        )
        raise InterpretationError(
            f"'{op.name}': {problem} "
            f"(the run has {state.num_replicas} replicas x {state.num_partitions} partitions; "
            "every device executes the collective)",
            op,
        )


class MemberTable:
    """For every device: its group (rank order) and its rank; -1 rank if in no group."""

    def __init__(self, groups: list[list[int]], devices: int) -> None:
        self.groups = groups
        self.group_of: list[list[int]] = [[] for _ in range(devices)]
        self.rank = np.full(devices, -1, dtype=np.int64)
        for group in groups:
            for k, d in enumerate(group):
                self.group_of[d] = group
                self.rank[d] = k
        self.size = max((len(g) for g in groups), default=0)

    def sources(self, k: int) -> tuple[Array, Array]:
        """(device index of rank-k member of each device's group, whether it exists)."""
        src = np.array([g[k] if k < len(g) else d for d, g in enumerate(self.group_of)])
        valid = np.array([k < len(g) for g in self.group_of])
        return src, valid

    def uniform_size(self, op: Operation) -> int:
        sizes = {len(g) for g in self.groups}
        if len(sizes) != 1:
            raise InterpretationError(f"'{op.name}' needs groups of one size, got {sorted(sizes)}")
        return sizes.pop()


def _expand(mask: Array, ndim: int) -> Array:
    return mask.reshape(mask.shape + (1,) * (ndim - 1))


def _element_types(op: Operation) -> list[Attribute]:
    return [element_of(o.type) for o in op.operands]


def _pack(op: Operation, values: list[Any]) -> PythonValues:
    return (tuple(values),) if len(op.operands) > 1 else (values[0],)


@register_impls
class HloCollectiveFunctions(InterpreterFunctions):
    """all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, permute, send/recv."""

    @impl(AllReduceOp)
    def run_all_reduce(
        self, interpreter: Interpreter, op: AllReduceOp, args: PythonValues
    ) -> PythonValues:
        return _pack(op, all_reduce_values(interpreter, op, args))

    @impl(ReduceScatterOp)
    def run_reduce_scatter(
        self, interpreter: Interpreter, op: ReduceScatterOp, args: PythonValues
    ) -> PythonValues:
        state = spmd_state(interpreter)
        table = MemberTable(groups_of(op, state), state.num_devices)
        n = table.uniform_size(op)
        dim = op.scatter_dimension.value.data + 1
        results = [
            _select_by_rank(np.split(reduced, n, axis=dim), table.rank)
            for reduced in _group_reduce(interpreter, op, table, args)
        ]
        state.record("reduce-scatter", (n - 1) / n * _bytes(op))
        return _pack(op, results)

    @impl(AllGatherOp)
    def run_all_gather(
        self, interpreter: Interpreter, op: AllGatherOp, args: PythonValues
    ) -> PythonValues:
        return _pack(op, all_gather_values(interpreter, op, args))

    @impl(AllToAllOp)
    def run_all_to_all(
        self, interpreter: Interpreter, op: AllToAllOp, args: PythonValues
    ) -> PythonValues:
        state = spmd_state(interpreter)
        table = MemberTable(groups_of(op, state), state.num_devices)
        n = table.uniform_size(op)
        members = [table.sources(k)[0] for k in range(n)]
        if op.split_dimension is not None:
            dim = op.split_dimension.value.data + 1
            (x,) = args
            # Result chunk k of device d = chunk rank(d) of the group's rank-k member.
            chunks = [np.split(x[members[k]], n, axis=dim) for k in range(n)]
            received = [_select_by_rank(chunks[k], table.rank) for k in range(n)]
            result: PythonValues = (np.concatenate(received, axis=dim),)
        else:
            # Tuple form: element k of device d = operand rank(d) of the rank-k member.
            elements = tuple(
                _select_by_rank([args[j][members[k]] for j in range(n)], table.rank)
                for k in range(n)
            )
            # One operand (a group of one): the result is that tensor, not a 1-tuple.
            result = (elements[0] if len(elements) == 1 else elements,)
        state.record("all-to-all", (n - 1) / n * _bytes(op))
        return result

    @impl(CollectiveBroadcastOp)
    def run_collective_broadcast(
        self, interpreter: Interpreter, op: CollectiveBroadcastOp, args: PythonValues
    ) -> PythonValues:
        state = spmd_state(interpreter)
        table = MemberTable(groups_of(op, state), state.num_devices)
        root, _ = table.sources(0)
        member = table.rank >= 0
        results = [np.where(_expand(member, x.ndim), x[root], 0).astype(x.dtype) for x in args]
        state.record("collective-broadcast", _bytes(op))
        return _pack(op, results)

    @impl(CollectivePermuteOp)
    def run_collective_permute(
        self, interpreter: Interpreter, op: CollectivePermuteOp, args: PythonValues
    ) -> PythonValues:
        return (permuted_value(interpreter, op, args),)

    @impl(CombinedCollectivePermuteOp)
    def run_combined_collective_permute(
        self, interpreter: Interpreter, op: CombinedCollectivePermuteOp, args: PythonValues
    ) -> PythonValues:
        """Each operand permuted as by collective_permute; one launch for all of them."""
        state = spmd_state(interpreter)
        pairs = op.source_target_pairs.data
        results = tuple(_route(state, pairs, op.channel_id is not None, x, op) for x in args)
        state.record("collective-permute", sum(type_bytes(v.type) for v in op.inputs))
        return (results,)

    @impl(InPlaceCollectivePermuteOp)
    def run_in_place_collective_permute(
        self, interpreter: Interpreter, op: InPlaceCollectivePermuteOp, args: PythonValues
    ) -> PythonValues:
        raise InterpretationError(
            "the in-place collective-permute is not interpreted: XLA:CPU does not implement it, "
            "so no oracle checks a model of it",
            op,
        )

    @impl(SendOp)
    def run_send(self, interpreter: Interpreter, op: SendOp, args: PythonValues) -> PythonValues:
        state = spmd_state(interpreter)
        pairs = _send_recv_pairs(op)
        channel = op.channel_id.value.data
        if channel in state.mailbox:
            raise InterpretationError(
                f"send on channel {channel} while the previous send on it is not received", op
            )
        state.mailbox[channel] = _route(state, pairs, True, args[0], op)
        state.senders[channel] = op
        state.record("send", _bytes(op))
        return ((args[0], np.zeros(state.num_devices, np.uint32), TOKEN),)

    @impl(SendDoneOp)
    def run_send_done(
        self, interpreter: Interpreter, op: SendDoneOp, args: PythonValues
    ) -> PythonValues:
        return (TOKEN,)

    @impl(RecvOp)
    def run_recv(self, interpreter: Interpreter, op: RecvOp, args: PythonValues) -> PythonValues:
        state = spmd_state(interpreter)
        channel = op.channel_id.value.data
        # XLA usually issues the recv before its send: then the data is taken by recv_done.
        data = _take(state, op, op) if channel in state.mailbox else PendingRecv(op)
        return ((data, np.zeros(state.num_devices, np.uint32), TOKEN),)

    @impl(RecvDoneOp)
    def run_recv_done(
        self, interpreter: Interpreter, op: RecvDoneOp, args: PythonValues
    ) -> PythonValues:
        data = args[0][0]
        if isinstance(data, PendingRecv):
            data = _take(spmd_state(interpreter), data.recv, op)
        return ((data, TOKEN),)


class PendingRecv:
    """The data of a recv issued before its send; its recv_done takes it from the mailbox."""

    def __init__(self, recv: RecvOp) -> None:
        self.recv = recv


def _take(state: SpmdState, recv: RecvOp, at: Operation) -> Array:
    """The value sent on `recv`'s channel (checked against the recv), taken at op `at`."""
    channel = recv.channel_id.value.data
    data = state.mailbox.pop(channel, None)
    sender = state.senders.pop(channel, None)
    if data is None:
        raise InterpretationError(
            f"recv on channel {channel} has no matching send before its {at.name}", at
        )
    _check_recv(recv, sender, data)
    return data


def all_reduce_values(interpreter: Interpreter, op: AllReduceBase, args: PythonValues) -> list[Any]:
    """Per operand, the all-reduced value (all_reduce and all_reduce_start)."""
    state = spmd_state(interpreter)
    table = MemberTable(groups_of(op, state), state.num_devices)
    results = _group_reduce(interpreter, op, table, args)
    n = table.size
    state.record("all-reduce", 2 * (n - 1) / n * _bytes(op) if n else 0)
    return results


def all_gather_values(interpreter: Interpreter, op: AllGatherBase, args: PythonValues) -> list[Any]:
    """Per operand, the gathered value (all_gather and all_gather_start)."""
    state = spmd_state(interpreter)
    table = MemberTable(groups_of(op, state), state.num_devices)
    n = table.uniform_size(op)
    dim = op.all_gather_dimension.value.data + 1
    results = [np.concatenate([x[table.sources(k)[0]] for k in range(n)], axis=dim) for x in args]
    state.record("all-gather", (n - 1) / n * sum(type_bytes(r.type) for r in op.operands) * n)
    return results


def permuted_value(
    interpreter: Interpreter, op: CollectivePermuteOp | CollectivePermuteStartOp, args: PythonValues
) -> Array:
    """The permuted operand (collective_permute and collective_permute_start)."""
    state = spmd_state(interpreter)
    pairs = op.source_target_pairs.data
    result = _route(state, pairs, op.channel_id is not None, args[0], op)
    state.record("collective-permute", type_bytes(op.operand.type))
    return result


def _group_reduce(
    interpreter: Interpreter,
    op: AllReduceBase | ReduceScatterOp,
    table: MemberTable,
    args: PythonValues,
) -> list[Array]:
    """Every device's rank-ordered reduction of its group's values, per operand."""
    return [
        finish(_fold(table, x, make_combiner(interpreter, op.to_apply, element)), element)
        for x, element in zip(args, _element_types(op), strict=True)
    ]


def _fold(table: MemberTable, x: Array, combine: Any) -> Array:
    src, _ = table.sources(0)
    acc = x[src]
    for k in range(1, table.size):
        src, valid = table.sources(k)
        step = combine(acc, x[src])
        acc = step if valid.all() else np.where(_expand(valid, x.ndim), step, acc)
    return acc


def _select_by_rank(chunks: list[Array], rank: Array) -> Array:
    """Device d takes chunks[rank[d]][d]."""
    stacked = np.stack(chunks)
    return stacked[rank, np.arange(rank.shape[0])]


def _bytes(op: Operation) -> float:
    return float(sum(type_bytes(o.type) for o in op.operands))


def _route(state: SpmdState, pairs: Any, cross_partition: bool, x: Array, op: Operation) -> Array:
    """Device target receives device source's value (ids per the mode); others get zeros."""
    result = np.zeros_like(x)
    r_count, p_count = state.num_replicas, state.num_partitions
    count, what = (p_count, "partition") if cross_partition else (r_count, "replica")
    for source, target in pairs:
        if not (0 <= source < count and 0 <= target < count):
            raise InterpretationError(
                f"'{op.name}' source_target_pair {{{source},{target}}} names a {what} outside "
                f"the run's {count} {what}s",
                op,
            )
        if cross_partition:
            for r in range(r_count):
                result[r * p_count + target] = x[r * p_count + source]
        else:
            for p in range(p_count):
                result[target * p_count + p] = x[source * p_count + p]
    return result


def _check_recv(op: RecvOp, sender: Operation | None, data: Any) -> None:
    """The recv must expect what its send sent: the same shape and the same pairs."""
    channel = op.channel_id.value.data
    expected = tuple_elements(op.result.type)[0]
    if not isinstance(data, np.ndarray) or not isinstance(expected, TensorType):
        return
    if tuple(expected.get_shape()) != data.shape[1:] or data.dtype != numpy_dtype(
        expected.element_type
    ):
        raise InterpretationError(
            f"recv on channel {channel} expects {expected}, but the send sent "
            f"{sender.operands[0].type if sender is not None else list(data.shape[1:])}",
            op,
        )
    if sender is None:
        return
    try:
        expect = _send_recv_pairs(op)
    except InterpretationError:
        return  # a recv without its own pairs takes the send's
    sent = _send_recv_pairs(sender)
    if sorted(sent) != sorted(expect):
        raise InterpretationError(
            f"recv on channel {channel} lists source_target_pairs {expect}, but its send "
            f"lists {sent}: the devices would wait for peers that never send",
            op,
        )


def _send_recv_pairs(op: Operation) -> list[tuple[int, int]]:
    channel = getattr(op, "channel_id").value.data
    try:
        pairs = send_recv_pairs(op)
    except ValueError as e:
        raise InterpretationError(f"'{op.name}' on channel {channel}: {e}", op) from None
    if pairs is None:
        raise InterpretationError(
            f"'{op.name}' on channel {channel} has no {SEND_RECV_PAIRS} frontend attribute", op
        )
    return pairs
