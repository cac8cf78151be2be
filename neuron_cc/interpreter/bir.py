"""Interpretation of the bir dialect on device-stacked arrays (docs/dialects.md §4 and docs/interpreter.md §7).

Every value has a leading device axis of size D = R*P (device d = flattened id). Replica groups,
permute chains and per-device tables hold flattened ids.

`bir.collective_compute` reads its geometry from the access patterns: for each buffer and tile,
every device gathers its input elements in pattern order (`flat[indices]`, index = offset +
sum(i_j * step_j)), the kind combines them across devices, and the combined elements are
written to the output in the output pattern's order (output elements no pattern visits stay 0):
- AllReduce: reduce with `op` over the group (rank order); same order in and out.
- AllGather: the output pattern visits n*E elements; its outer index k (outermost pair
  [chunk_stride, n]) receives the E input elements of rank-k member.
- ReduceScatter: reduce the n*E input elements over the group; rank k keeps outer index k.
- AllToAll: input outer index j (split chunks) goes to rank j; output outer index
  j (concat chunks) comes from rank j: out chunk j of d = in chunk rank(d) of member j.
- AllToAllV (inputs: the data, then the initial output): hlo ragged_all_to_all's semantics
  with the node's tables (`input_offsets`, `send_sizes`, `output_offsets` entry j*U+u: rows of
  dimension 0 sent to rank j, placed at that row of rank j's output); the patterns are
  row-major and not tiled.
- Permute / PermuteImplicit: device t of a routing pair (s, t) receives s's elements;
  devices that are no pair's target get zeros (collective_broadcast = chain root -> members).
  The routing is `permute_chain`, or for the implicit kinds each group's ring shift
  (g[k] -> g[k+1 mod n]).
- PermuteReduce / PermuteReduceImplicit (inputs: the sent buffers, then one local buffer
  each): out = op(local, received) with received as Permute's (zeros on a device that is no
  target); PermuteReduceImplicit has no `op` and adds.
- SendRecv: device d receives the elements of `recv_from_rank[d]` (zeros for -1).
- SendRecvCCE: a receiver r gets op over the elements of its `recv_from_ranks` pairs (r, s) in
  order, s = r meaning its own; a device that receives nothing gets zeros.
Reductions fold in order; bf16 accumulates in f32 and rounds once; `average` divides the sum
by the number of values (integers: truncated by the final cast).

`bir.collective_send` posts its data on `channel_id`; `bir.collective_recv` on that channel gives
device d the data of device `peer_id[d]` (which must send to d), zeros for -1.
`bir.core_barrier` is the identity. `bir.broadcast_partition` repeats its input along a new
outermost (partition) dimension of `partitions` entries. `bir.get_global_rank_id`: world_size = P -> partition id
d % P, world_size = R -> replica id d // P, world_size = D -> d; ambiguous (R = P > 1) or any
other world_size is an error.

Statistics (kind name with dashes, e.g. "all-gather", "send-recv-cce"): bytes per device as in
the hlo collectives: AllReduce 2(n-1)/n*B, AllGather (n-1)/n*B_out, ReduceScatter and AllToAll
(n-1)/n*B, other kinds B; `collective_send` records "collective-send" with B.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Attribute

from neuron_cc.dialects.bir import (
    RAGGED_FIELDS,
    BroadcastPartitionOp,
    CollectiveComputeOp,
    CollectiveRecvOp,
    CollectiveSendOp,
    CoreBarrierOp,
    GetGlobalRankIdOp,
)
from neuron_cc.dialects.bir_attributes import AccessPatternAttr, AluOpType, CollectiveKind
from neuron_cc.interpreter.collectives import MemberTable
from neuron_cc.interpreter.ragged_all_to_all import ragged_all_to_all
from neuron_cc.interpreter.values import (
    InterpretationError,
    SpmdState,
    element_of,
    is_bf16,
    normalize,
    numpy_dtype,
    spmd_state,
    type_bytes,
)

Array = np.ndarray[Any, Any]

_UFUNCS: dict[AluOpType, Callable[[Array, Array], Array]] = {
    AluOpType.add: np.add,
    AluOpType.mult: np.multiply,
    AluOpType.max: np.maximum,
    AluOpType.min: np.minimum,
    AluOpType.average: np.add,
}


def ap_indices(ap: AccessPatternAttr) -> Array:
    """The flat element indices `ap` visits, in pattern order (int64)."""
    idx = np.array(ap.offset, dtype=np.int64)
    for step, num in ap.pairs:
        idx = idx[..., None] + step * np.arange(num, dtype=np.int64)
    return idx.reshape(-1)


def stats_name(kind: CollectiveKind) -> str:
    """`AllGather` -> "all-gather", `SendRecvCCE` -> "send-recv-cce"."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", "-", kind.value).lower()


@dataclass
class _Reducer:
    """Folds values with an AluOpType in the element type's arithmetic (bf16: f32)."""

    alu: AluOpType
    element: Attribute

    def __call__(self, acc: Array, x: Array) -> Array:
        with np.errstate(all="ignore"):
            out = _UFUNCS[self.alu](acc, x)
        return out if is_bf16(self.element) else normalize(out, self.element)

    def finish(self, acc: Array, count: Array | int) -> Array:
        if self.alu == AluOpType.average:
            with np.errstate(all="ignore"):
                acc = acc / count
        return acc


@dataclass
class _Context:
    """What a kind needs besides the gathered values."""

    op: CollectiveComputeOp
    devices: int
    table: MemberTable
    reducer: _Reducer
    local: Array | None = None
    """The tile's local input (PermuteReduce*), gathered like the sent one."""


def _groups(op: CollectiveComputeOp, devices: int) -> MemberTable:
    groups = [list(g) for g in op.group_list()]
    for g in groups:
        for d in g:
            if not 0 <= d < devices:
                raise InterpretationError(
                    f"'{op.name}' groups name device {d}, but the run has {devices} devices"
                )
    table = MemberTable(groups, devices)
    if groups and (table.rank < 0).any():
        missing = int(np.flatnonzero(table.rank < 0)[0])
        raise InterpretationError(f"'{op.name}': device {missing} is in no replica group")
    return table


def _expand(mask: Array, ndim: int) -> Array:
    return mask.reshape(mask.shape + (1,) * (ndim - 1))


def _fold_group(ctx: _Context, vals: Array) -> Array:
    """Reduce every device's group (rank order); bf16 stays f32 until the final rounding."""
    table, reduce = ctx.table, ctx.reducer
    acc = vals[table.sources(0)[0]]
    count = np.ones(ctx.devices, dtype=np.int64)
    for k in range(1, table.size):
        src, valid = table.sources(k)
        step = reduce(acc, vals[src])
        acc = step if valid.all() else np.where(_expand(valid, vals.ndim), step, acc)
        count += valid
    return reduce.finish(acc, _expand(count, vals.ndim))


def _chunks(vals: Array, n: int, what: str) -> Array:
    if vals.shape[1] % n:
        raise InterpretationError(f"{what} of {vals.shape[1]} elements does not split in {n}")
    return vals.reshape(vals.shape[0], n, vals.shape[1] // n)


def _by_rank(ctx: _Context) -> tuple[int, Array, Array]:
    n = ctx.table.uniform_size(ctx.op)
    members = np.stack([ctx.table.sources(k)[0] for k in range(n)])  # (n, D)
    return n, members, ctx.table.rank


def _all_reduce(ctx: _Context, vals: Array) -> Array:
    return _fold_group(ctx, vals)


def _all_gather(ctx: _Context, vals: Array) -> Array:
    _, members, _ = _by_rank(ctx)
    return vals[members.T].reshape(ctx.devices, -1)


def _reduce_scatter(ctx: _Context, vals: Array) -> Array:
    n, _, rank = _by_rank(ctx)
    reduced = _chunks(_fold_group(ctx, vals), n, "a ReduceScatter input")
    return reduced[np.arange(ctx.devices), rank]


def _all_to_all(ctx: _Context, vals: Array) -> Array:
    n, members, rank = _by_rank(ctx)
    chunks = _chunks(vals, n, "an AllToAll input")
    return chunks[members.T, rank[:, None]].reshape(ctx.devices, -1)


def _chain(ctx: _Context) -> tuple[Array, Array]:
    pairs = ctx.op.ring_chain()
    sources = np.array([s for s, _ in pairs], dtype=np.int64)
    targets = np.array([t for _, t in pairs], dtype=np.int64)
    if pairs and max(int(sources.max()), int(targets.max())) >= ctx.devices:
        raise InterpretationError(
            f"'{ctx.op.name}' permute_chain names a device beyond the {ctx.devices} devices"
        )
    return sources, targets


def _permute(ctx: _Context, vals: Array) -> Array:
    sources, targets = _chain(ctx)
    out = np.zeros_like(vals)
    out[targets] = vals[sources]
    return out


def _permute_reduce(ctx: _Context, vals: Array) -> Array:
    if ctx.local is None:
        raise InterpretationError(f"'{ctx.op.name}' {ctx.op.collective_kind} has no local input")
    received = _permute(ctx, vals)
    return ctx.reducer(ctx.local, received)


def _send_recv(ctx: _Context, vals: Array) -> Array:
    table = ctx.op.recv_from_rank
    recv = np.array(table.data if table is not None else (), dtype=np.int64)
    if recv.shape != (ctx.devices,):
        raise InterpretationError(
            f"'{ctx.op.name}' recv_from_rank has {recv.shape[0]} entries for {ctx.devices} devices"
        )
    got = vals[np.maximum(recv, 0)]
    return np.where(_expand(recv >= 0, vals.ndim), got, 0).astype(vals.dtype)


def _send_recv_cce(ctx: _Context, vals: Array) -> Array:
    table = ctx.op.recv_from_ranks
    sources: dict[int, list[int]] = {}
    for receiver, source in table.data if table is not None else ():
        sources.setdefault(receiver, []).append(source)
    out = np.zeros_like(vals)
    reduce = ctx.reducer
    for receiver, srcs in sources.items():
        acc = vals[srcs[0]]
        for s in srcs[1:]:
            acc = reduce(acc, vals[s])
        out[receiver] = reduce.finish(acc, len(srcs))
    return out


_KINDS: dict[CollectiveKind, Callable[[_Context, Array], Array]] = {
    CollectiveKind.AllReduce: _all_reduce,
    CollectiveKind.AllGather: _all_gather,
    CollectiveKind.ReduceScatter: _reduce_scatter,
    CollectiveKind.AllToAll: _all_to_all,
    CollectiveKind.Permute: _permute,
    CollectiveKind.PermuteImplicit: _permute,
    CollectiveKind.PermuteReduce: _permute_reduce,
    CollectiveKind.PermuteReduceImplicit: _permute_reduce,
    CollectiveKind.SendRecv: _send_recv,
    CollectiveKind.SendRecvCCE: _send_recv_cce,
}


def _all_to_all_v(
    op: CollectiveComputeOp, groups: list[list[int]], args: PythonValues, devices: int
) -> Array:
    tables = [getattr(op, f) for f in RAGGED_FIELDS]
    if any(t is None for t in tables):
        raise InterpretationError(f"'{op.name}' AllToAllV needs {', '.join(RAGGED_FIELDS)}")
    rows = [
        np.broadcast_to(np.array(t.data, dtype=np.int64), (devices, len(t.data))) for t in tables
    ]
    return ragged_all_to_all(op, groups, (args[0], args[1], *rows))


def _bytes(op: CollectiveComputeOp, n: int) -> float:
    sent = op.inputs[: len(op.outputs)]
    b_in = float(sum(type_bytes(v.type) for v in sent))
    b_out = float(sum(type_bytes(v.type) for v in op.outputs))
    kind = op.collective_kind
    if n <= 0:
        return 0.0
    if kind == CollectiveKind.AllReduce:
        return 2 * (n - 1) / n * b_in
    if kind == CollectiveKind.AllGather:
        return (n - 1) / n * b_out
    if kind in (CollectiveKind.ReduceScatter, CollectiveKind.AllToAll, CollectiveKind.AllToAllV):
        return (n - 1) / n * b_in
    return b_in


def _run_buffer(
    ctx: _Context, buffer: int, x: Array, out_type: Attribute, local: Array | None = None
) -> Array:
    """One buffer: its tiles in order, each gathered by its input AP and scattered by its output AP."""
    op, devices = ctx.op, ctx.devices
    tiles = op.num_tiles()
    shape = tuple(int(s) for s in getattr(out_type, "get_shape")())
    element = element_of(out_type)
    flat_in = np.ascontiguousarray(x).reshape(devices, -1)
    result = np.zeros((devices, int(np.prod(shape, dtype=np.int64))), dtype=numpy_dtype(element))
    run = _KINDS[op.collective_kind]
    flat_local = None if local is None else np.ascontiguousarray(local).reshape(devices, -1)
    buffers = len(op.outputs)
    for t in range(tiles):
        in_idx = ap_indices(op.input_aps.data[buffer * tiles + t])
        out_idx = ap_indices(op.output_aps.data[buffer * tiles + t])
        if flat_local is not None:
            local_idx = ap_indices(op.input_aps.data[(buffers + buffer) * tiles + t])
            ctx.local = flat_local[:, local_idx]
        combined = run(ctx, flat_in[:, in_idx])
        if combined.shape[1] != out_idx.shape[0]:
            raise InterpretationError(
                f"'{op.name}' {op.collective_kind} tile {t} of buffer {buffer} produces "
                f"{combined.shape[1]} elements, but its output pattern visits {out_idx.shape[0]}"
            )
        result[:, out_idx] = combined
    return normalize(result, element).reshape((devices, *shape))


def _rank_id(op: GetGlobalRankIdOp, state: SpmdState) -> Array:
    world = op.world_size.value.data
    r, p = state.num_replicas, state.num_partitions
    d = np.arange(state.num_devices, dtype=np.int64)
    if world == p and world == r and r > 1:
        raise InterpretationError(
            f"get_global_rank_id world_size {world} is ambiguous with {r} replicas x "
            f"{p} partitions (partition or replica id?)"
        )
    if world == p:
        return d % p
    if world == r:
        return d // p
    if world == state.num_devices:
        return d
    raise InterpretationError(
        f"get_global_rank_id world_size {world} matches neither {p} partitions, {r} replicas "
        f"nor {state.num_devices} devices"
    )


@dataclass
class _Posted:
    """A collective_send's data and its per-device destination table, waiting for the recv."""

    data: Array
    peers: tuple[int, ...]


@register_impls
class HloBirFunctions(InterpreterFunctions):
    """bir.collective_compute, collective_send/recv, core_barrier, get_global_rank_id."""

    @impl(CollectiveComputeOp)
    def run_collective_compute(
        self, interpreter: Interpreter, op: CollectiveComputeOp, args: PythonValues
    ) -> PythonValues:
        state = spmd_state(interpreter)
        devices = state.num_devices
        table = _groups(op, devices)
        alu = op.op.data if op.op is not None else AluOpType.add
        buffers = len(op.outputs)
        locals_ = args[buffers:] if op.has_local_inputs() else [None] * buffers
        results: list[Array] = []
        if op.collective_kind == CollectiveKind.AllToAllV:
            results.append(_all_to_all_v(op, [list(g) for g in op.group_list()], args, devices))
        else:
            for b, (x, out) in enumerate(zip(args[:buffers], op.outputs, strict=True)):
                ctx = _Context(op, devices, table, _Reducer(alu, element_of(out.type)))
                results.append(_run_buffer(ctx, b, x, out.type, locals_[b]))
        n = table.size if op.replica_groups is not None else 1
        state.record(stats_name(op.collective_kind), _bytes(op, max(n, 1)))
        return tuple(results)

    @impl(CollectiveSendOp)
    def run_collective_send(
        self, interpreter: Interpreter, op: CollectiveSendOp, args: PythonValues
    ) -> PythonValues:
        state = spmd_state(interpreter)
        state.mailbox[op.channel_id.value.data] = _Posted(args[0], op.peer_id.data)
        state.record("collective-send", float(type_bytes(op.data.type)))
        return ()

    @impl(CollectiveRecvOp)
    def run_collective_recv(
        self, interpreter: Interpreter, op: CollectiveRecvOp, args: PythonValues
    ) -> PythonValues:
        state = spmd_state(interpreter)
        channel = op.channel_id.value.data
        posted = state.mailbox.pop(channel, None)
        if not isinstance(posted, _Posted):
            raise InterpretationError(
                f"collective_recv on channel {channel} has no matching collective_send before it"
            )
        data = posted.data
        result = np.zeros((state.num_devices, *op.data.type.get_shape()), dtype=data.dtype)
        if result.shape != data.shape:
            raise InterpretationError(
                f"collective_recv on channel {channel} expects shape {list(result.shape[1:])}, "
                f"but the send posted {list(data.shape[1:])}"
            )
        for d, source in enumerate(op.peer_id.data):
            if source < 0:
                continue
            if posted.peers[source] != d:
                raise InterpretationError(
                    f"collective_recv on channel {channel}: device {d} receives from {source}, "
                    f"but device {source} sends to {posted.peers[source]}"
                )
            result[d] = data[source]
        return (normalize(result, element_of(op.data.type)),)

    @impl(CoreBarrierOp)
    def run_core_barrier(
        self, interpreter: Interpreter, op: CoreBarrierOp, args: PythonValues
    ) -> PythonValues:
        return (args[0],)

    @impl(BroadcastPartitionOp)
    def run_broadcast_partition(
        self, interpreter: Interpreter, op: BroadcastPartitionOp, args: PythonValues
    ) -> PythonValues:
        x = np.asarray(args[0])
        n = op.partitions.value.data
        return (np.ascontiguousarray(np.broadcast_to(x[:, None], (x.shape[0], n, *x.shape[1:]))),)

    @impl(GetGlobalRankIdOp)
    def run_get_global_rank_id(
        self, interpreter: Interpreter, op: GetGlobalRankIdOp, args: PythonValues
    ) -> PythonValues:
        return (_rank_id(op, spmd_state(interpreter)).astype(np.uint32),)
