"""convert-hlo-to-bir: lower every hlo collective to the backend IR's collective nodes (issue 7 §2).

In every function and region (one walk to collect and plan, then one rewrite; nothing changes when
a lowering fails):

| hlo | bir |
|---|---|
| all_reduce | collective_compute kind=AllReduce, op from the reduction region |
| reduce_scatter | kind=ReduceScatter, op from the region, cc_type_hint |
| all_gather | kind=AllGather (op unset), cc_type_hint |
| all_to_all (array form) | kind=AllToAll, split_count = group size |
| collective_permute | kind=Permute, permute_chain = the source_target_pairs (flattened ids) |
| collective_permute tagged `local` | kind=SendRecv, recv_from_rank / send_to_rank, local, initial_core_barrier |
| collective_broadcast | kind=Permute, permute_chain root -> every group member (root included) |
| send / send_done | collective_send, peer_id = the target of each device (-1 none) |
| recv / recv_done | collective_recv, peer_id = the source of each device (-1 none) |
| partition_id / replica_id | get_global_rank_id world_size = P (resp. R), engine ALL |
| custom_call "CoreBarrier" | core_barrier(cores, cb_id = barrier_id) |

Reduction regions map add -> add, multiply -> mult, maximum -> max, minimum -> min; anything else
fails naming the op and the region's ops. Every device id on a bir op is a FLATTENED device id
r*P+p: replica groups are `flattened_participants` of the op's group mode; permute pairs are
replica ids without a channel id (applied in every partition: `(s*P+p, t*P+p)` for p, then pair)
and partition ids with one (applied in every replica: `(r*P+s, r*P+t)`); send/recv pairs (the
`_xla_send_recv_source_target_pairs` frontend attribute) are partition ids.

Choices:
- collective_broadcast has no bir kind of its own: it is a Permute whose chain sends the group's
  root (first id) to EVERY member of its group, the root included (`(root, root)`), so members
  get the root's value and devices in no group get zeros, exactly like hlo. The chain is the
  whole broadcast geometry (no `replica_groups`: bir groups must cover every device, broadcast
  groups need not). It takes exactly one buffer.
- partition_id / replica_id: get_global_rank_id with world_size = P gives the partition id
  (d % P) and world_size = R the replica id (d // P); when R == P > 1 the world size cannot tell
  them apart, so both ops are then left untouched.
- send/recv: collective_send is placed at the send, collective_recv at the recv, with the hlo
  `channel_id` pairing them. send_done's token becomes the send's token operand; recv_done's data
  becomes the collective_recv result and its token the recv's token operand (get_tuple_element
  users are folded, other users get an `hlo.tuple`). A send/recv result may only feed its done op.
- cc_type_hint (AllGather / ReduceScatter only): TP when the op has a `tp` key in its
  `xla.frontend_attributes` string (value not "false"/"0") or a discardable `tp` attribute, else
  FSDP likewise for `fsdp`, else None. stream_id: FSDP -> 1, TP / None -> 0 (every group kind and
  Permute; SendRecv has none). `dma_qos` (int) and `unique_tensors_type` (string) are copied from
  a discardable attribute or frontend attribute of that name when present.
- A collective_permute is `local` when its frontend attributes hold `local=true` or it carries a
  discardable `bir.local` attribute.
- Field order (properties insertion order, kept by the JSON export): op, replica_groups, kind,
  cc_type_hint, dma_qos, permute_chain, unique_tensors_type, stream_id, split_count,
  recv_from_rank, send_to_rank, local, initial_core_barrier, channel_id, tiled, input_aps,
  output_aps.

Access patterns (`neuron_cc.analysis.access_patterns`; there is no dimension field). For a buffer
of shape S, stride_i its row-major strides, group size n and collective dim d, c = S_d / n:
- chunked: `[[c*stride_d, n]] + [[stride_i, C_i] for every dim i]` with C = S, C_d = c;
- all_gather: OUTPUT chunked over the gather dim, input row-major;
- reduce_scatter: INPUT chunked over the scatter dim, output row-major;
- all_to_all: input chunked over the split dim, output chunked over the concat dim (the same dim);
- all_reduce, permute, broadcast, SendRecv: row-major in and out.
Worked example: all_gather of tensor<8x4xf32> on dim 1 over 8 ranks -> output tensor<8x32xf32>,
output AP `#bir.ap<0, [[4, 8], [32, 8], [1, 4]]>`, input AP `#bir.ap<0, [[4, 8], [1, 4]]>`.

Tiled form (`tile-bytes=N` > 0; group collectives and Permute, not SendRecv): when the largest
buffer of a collective exceeds N bytes it gets `tiled` and T tiles, T = ceil(largest bytes / N)
capped by the fewest outermost-dimension rows of any buffer's per-rank chunk (the whole buffer when
not chunked; rank 0 counts 1 row). Every buffer's chunk is cut along its outermost dimension into
T row ranges (numpy.array_split sizes); tile t of a buffer is the pattern above with C_0 = the
tile's row count and offset = first row * stride_0, and tile t of the op is the same collective
on the tile-t slices of every buffer. APs: T per buffer, a buffer's tiles consecutive. Tiled
permutes carry `channel_id` = `ring-channels` (1, 2 or 4).

```mlir
%g = hlo.all_gather(%x) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1
    use_global_device_ids : (tensor<8x4xf32>) -> tensor<8x32xf32>
// becomes
%g = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]]
    cc_type_hint = None stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>]
    output_aps = [#bir.ap<0, [[4, 8], [32, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x32xf32>
```
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis import access_patterns as aps
from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.dialects.bir import (
    CollectiveComputeOp,
    CollectiveRecvOp,
    CollectiveSendOp,
    CoreBarrierOp,
    GetGlobalRankIdOp,
)
from neuron_cc.dialects.bir_attributes import (
    AccessPatternAttr,
    AluOpType,
    AluOpTypeAttr,
    CollectiveComputeTypeHint,
    CollectiveComputeTypeHintAttr,
    CollectiveKind,
    CollectiveKindAttr,
    EngineType,
    EngineTypeAttr,
)
from neuron_cc.dialects.hlo.attributes import (
    DimensionsAttr,
    ReplicaGroupsAttr,
    SourceTargetPairsAttr,
)
from neuron_cc.dialects.hlo.collectives import (
    AllGatherOp,
    AllReduceOp,
    AllToAllOp,
    CollectiveBroadcastOp,
    CollectiveOp,
    ReduceScatterOp,
)
from neuron_cc.dialects.hlo.control_flow import CustomCallOp, GetTupleElementOp, TupleOp
from neuron_cc.dialects.hlo.frontend_attributes import (
    SEND_RECV_PAIRS,
    frontend_attributes,
    send_recv_pairs,
)
from neuron_cc.dialects.hlo.p2p import (
    CollectivePermuteOp,
    PartitionIdOp,
    RecvDoneOp,
    RecvOp,
    ReplicaIdOp,
    SendDoneOp,
    SendOp,
)
from neuron_cc.dialects.hlo.types import tuple_elements, value_bytes
from neuron_cc.dialects.replica_groups import device_counts, flattened_participants

PASS = "convert-hlo-to-bir"
_ALU = {
    "hlo.add": AluOpType.add,
    "hlo.multiply": AluOpType.mult,
    "hlo.maximum": AluOpType.max,
    "hlo.minimum": AluOpType.min,
}
_FALSE = ("false", "0")
Geometry = tuple[int | None, int]
"""(collective dimension or None for row-major, group size) of a buffer's access pattern."""


def _fail(op: Operation, message: str) -> PassFailedException:
    hint = op.results[0].name_hint if op.results else None
    where = f"%{hint}" if hint else f"'{op.name}'"
    return PassFailedException(f"{PASS}: {where}: {message}")


# --- frontend attributes -------------------------------------------------------------------


def _frontend(op: Operation) -> dict[str, str]:
    try:
        return frontend_attributes(op)
    except ValueError as e:
        raise _fail(op, str(e)) from None


def _flag(op: Operation, key: str, discardable: str) -> bool:
    if discardable in op.attributes:
        return True
    value = _frontend(op).get(key)
    return value is not None and value.strip().lower() not in _FALSE


def type_hint(op: Operation) -> CollectiveComputeTypeHint:
    """TP when `tp` is set on the op, else FSDP when `fsdp` is, else None."""
    if _flag(op, "tp", "tp"):
        return CollectiveComputeTypeHint.TP
    if _flag(op, "fsdp", "fsdp"):
        return CollectiveComputeTypeHint.FSDP
    return CollectiveComputeTypeHint.NONE


def is_local(op: Operation) -> bool:
    """A collective_permute tagged `local` (frontend `local=true` or attribute `bir.local`)."""
    return _flag(op, "local", "bir.local")


def _copied_fields(op: Operation) -> tuple[Attribute | None, Attribute | None]:
    """(dma_qos, unique_tensors_type) of the hlo op, when present."""
    front = _frontend(op)
    qos: Attribute | None = op.attributes.get("dma_qos")
    if qos is None and front.get("dma_qos", "").lstrip("-").isdigit():
        qos = IntegerAttr(int(front["dma_qos"]), 64)
    if qos is not None and not isinstance(qos, IntegerAttr):
        raise _fail(op, f"dma_qos must be an integer, got {qos}")
    unique: Attribute | None = op.attributes.get("unique_tensors_type")
    if unique is None and "unique_tensors_type" in front:
        unique = StringAttr(front["unique_tensors_type"])
    if unique is not None and not isinstance(unique, StringAttr):
        raise _fail(op, f"unique_tensors_type must be a string, got {unique}")
    if isinstance(qos, IntegerAttr):
        qos = IntegerAttr(qos.value.data, 64)
    return qos, unique


# --- planning --------------------------------------------------------------------------------


@dataclass
class Plan:
    """New ops to insert (before anchors), values to replace, ops to erase (users first)."""

    inserts: list[tuple[Operation, list[Operation]]] = field(
        default_factory=list[tuple[Operation, list[Operation]]]
    )
    replace: list[tuple[SSAValue, SSAValue]] = field(
        default_factory=list[tuple[SSAValue, SSAValue]]
    )
    erase: list[Operation] = field(default_factory=list[Operation])

    def apply(self) -> None:
        for anchor, ops in self.inserts:
            Rewriter.insert_op(ops, InsertPoint.before(anchor))
        for old, new in self.replace:
            old.replace_all_uses_with(new)
        for op in self.erase:
            Rewriter.erase_op(op)


@dataclass
class Spec:
    """The fields of one collective_compute, before access patterns and tiling."""

    kind: CollectiveKind
    alu: AluOpType | None = None
    groups: list[list[int]] | None = None
    hint: CollectiveComputeTypeHint | None = None
    chain: list[tuple[int, int]] | None = None
    split_count: int | None = None
    sendrecv: dict[str, Attribute] = field(default_factory=dict[str, Attribute])
    inputs: Geometry = (None, 1)
    outputs: Geometry = (None, 1)


def _flatten_pairs(
    pairs: Sequence[tuple[int, int]], cross_partition: bool, replicas: int, partitions: int
) -> list[tuple[int, int]]:
    if cross_partition:
        base = [r * partitions for r in range(replicas)]
        return [(b + s, b + t) for b in base for s, t in pairs]
    return [(s * partitions + p, t * partitions + p) for p in range(partitions) for s, t in pairs]


def _peer_tables(
    op: Operation, pairs: Sequence[tuple[int, int]], devices: int
) -> tuple[list[int], list[int]]:
    """(send_to, recv_from) per device, -1 for none."""
    send_to = [-1] * devices
    recv_from = [-1] * devices
    for s, t in pairs:
        if not (0 <= s < devices and 0 <= t < devices):
            raise _fail(op, f"pair ({s}, {t}) names a device outside [0, {devices})")
        if send_to[s] != -1:
            raise _fail(op, f"device {s} sends to more than one peer")
        if recv_from[t] != -1:
            raise _fail(op, f"device {t} receives from more than one peer")
        send_to[s] = t
        recv_from[t] = s
    return send_to, recv_from


def _groups(op: CollectiveOp) -> list[list[int]]:
    r, p = device_counts(op)
    return flattened_participants(op.replica_groups.groups(), op.mode(), r, p)


def _alu(op: AllReduceOp | ReduceScatterOp) -> AluOpType:
    kind = reduction_kind(op.to_apply)
    alu = _ALU.get(kind) if kind is not None else None
    if alu is None:
        block = op.to_apply.blocks.first
        names = [o.name for o in block.ops if o.name != "hlo.return"] if block else []
        region = ", ".join(names) if names else "empty"
        raise _fail(op, f"cannot map the reduction region of '{op.name}' ({region}) to an ALU op")
    return alu


def _spec_all_reduce(op: AllReduceOp) -> Spec:
    return Spec(CollectiveKind.AllReduce, alu=_alu(op), groups=_groups(op))


def _spec_reduce_scatter(op: ReduceScatterOp) -> Spec:
    n = op.group_size()
    dim = op.scatter_dimension.value.data
    return Spec(
        CollectiveKind.ReduceScatter,
        alu=_alu(op),
        groups=_groups(op),
        hint=type_hint(op),
        inputs=(dim, n),
    )


def _spec_all_gather(op: AllGatherOp) -> Spec:
    n = op.group_size()
    dim = op.all_gather_dimension.value.data
    return Spec(CollectiveKind.AllGather, groups=_groups(op), hint=type_hint(op), outputs=(dim, n))


def _spec_all_to_all(op: AllToAllOp) -> Spec:
    if op.split_dimension is None:
        raise _fail(op, "tuple-form all_to_all is not supported by convert-hlo-to-bir")
    n = op.group_size()
    dim = op.split_dimension.value.data
    return Spec(
        CollectiveKind.AllToAll,
        groups=_groups(op),
        split_count=n,
        inputs=(dim, n),
        outputs=(dim, n),
    )


def _spec_broadcast(op: CollectiveBroadcastOp) -> Spec:
    if len(op.operands_) != 1:
        raise _fail(
            op, f"Expect single broadcast buffer (collective_broadcast has {len(op.operands_)})"
        )
    groups = _groups(op)
    chain = [(g[0], m) for g in groups for m in g]
    return Spec(CollectiveKind.Permute, chain=chain)


def _spec_permute(op: CollectivePermuteOp) -> Spec:
    r, p = device_counts(op)
    pairs = _flatten_pairs(op.source_target_pairs.data, op.channel_id is not None, r, p)
    if not is_local(op):
        return Spec(CollectiveKind.Permute, chain=pairs)
    send_to, recv_from = _peer_tables(op, pairs, r * p)
    fields: dict[str, Attribute] = {
        "recv_from_rank": DimensionsAttr(tuple(recv_from)),
        "send_to_rank": DimensionsAttr(tuple(send_to)),
        "local": UnitAttr(),
        "initial_core_barrier": UnitAttr(),
    }
    return Spec(CollectiveKind.SendRecv, sendrecv=fields)


def _tensor(value: SSAValue | Attribute) -> TensorType[Attribute]:
    t = value.type if isinstance(value, SSAValue) else value
    if not isinstance(t, TensorType):
        raise PassFailedException(f"{PASS}: expected a tensor buffer, got {t}")
    return t


class Builder:
    """Turns a Spec into a collective_compute with the pass's tiling options."""

    def __init__(self, tile_bytes: int, ring_channels: int) -> None:
        self.tile_bytes = tile_bytes
        self.ring_channels = ring_channels

    def tiles(
        self, spec: Spec, ins: list[TensorType[Attribute]], outs: list[TensorType[Attribute]]
    ) -> int:
        """0 when untiled, else the tile count."""
        if self.tile_bytes <= 0 or spec.kind == CollectiveKind.SendRecv:
            return 0
        largest = max(value_bytes(t) for t in [*ins, *outs])
        if largest <= self.tile_bytes:
            return 0
        rows: list[int] = []
        for types, (dim, n) in ((ins, spec.inputs), (outs, spec.outputs)):
            for t in types:
                shape = t.get_shape()
                rows.append(aps.chunk_shape(shape, dim, n)[0] if shape else 1)
        return aps.tile_count(largest, self.tile_bytes, rows)

    def build(self, op: Operation, spec: Spec) -> CollectiveComputeOp:
        ins = [_tensor(v) for v in op.operands]
        outs = [_tensor(t) for t in tuple_elements(op.results[0].type)]
        tiles = self.tiles(spec, ins, outs)
        props = _fields(op, spec)
        if tiles and spec.kind == CollectiveKind.Permute:
            props["channel_id"] = IntegerAttr(self.ring_channels, 64)
        if tiles:
            props["tiled"] = UnitAttr()
        props["input_aps"] = _patterns(ins, spec.inputs, max(tiles, 1))
        props["output_aps"] = _patterns(outs, spec.outputs, max(tiles, 1))
        return CollectiveComputeOp.create(
            operands=list(op.operands), result_types=list(outs), properties=props
        )


def _fields(op: Operation, spec: Spec) -> dict[str, Attribute]:
    """The fields before channel_id / tiled / access patterns, in emission order."""
    props: dict[str, Attribute] = {}
    if spec.alu is not None:
        props["op"] = AluOpTypeAttr(spec.alu)
    if spec.groups is not None:
        props["replica_groups"] = ReplicaGroupsAttr.explicit(spec.groups)
    props["kind"] = CollectiveKindAttr(spec.kind)
    if spec.hint is not None:
        props["cc_type_hint"] = CollectiveComputeTypeHintAttr(spec.hint)
    qos, unique = _copied_fields(op)
    if qos is not None:
        props["dma_qos"] = qos
    if spec.chain is not None:
        props["permute_chain"] = SourceTargetPairsAttr(tuple(spec.chain))
    if unique is not None:
        props["unique_tensors_type"] = unique
    if spec.kind != CollectiveKind.SendRecv:
        fsdp = spec.hint == CollectiveComputeTypeHint.FSDP
        props["stream_id"] = IntegerAttr(1 if fsdp else 0, 64)
    if spec.split_count is not None:
        props["split_count"] = IntegerAttr(spec.split_count, 64)
    props.update(spec.sendrecv)
    return props


def _patterns(
    types: list[TensorType[Attribute]], geometry: Geometry, tiles: int
) -> ArrayAttr[AccessPatternAttr]:
    dim, n = geometry
    result: list[AccessPatternAttr] = []
    for t in types:
        for offset, pairs in aps.patterns(t.get_shape(), dim, n, tiles):
            result.append(AccessPatternAttr(offset, pairs))
    return ArrayAttr(result)


def _replace_result(op: Operation, new: Operation) -> Plan:
    """Plan: insert `new` before `op`, its results stand for op's (tupled when op's is a tuple)."""
    ops: list[Operation] = [new]
    if isinstance(op.results[0].type, TupleType):
        tup = TupleOp(list(new.results))
        ops.append(tup)
        value: SSAValue = tup.result
    else:
        value = new.results[0]
    return Plan(inserts=[(op, ops)], replace=[(op.results[0], value)], erase=[op])


# --- send / recv ---------------------------------------------------------------------------


def _send_recv_pairs(op: Operation) -> list[tuple[int, int]]:
    try:
        pairs = send_recv_pairs(op)
    except ValueError as e:
        raise _fail(op, str(e)) from None
    if pairs is None:
        raise _fail(op, f"'{op.name}' has no {SEND_RECV_PAIRS} frontend attribute")
    return pairs


def _peer_table(op: SendOp | RecvOp, receiving: bool) -> DimensionsAttr:
    r, p = device_counts(op)
    pairs = _flatten_pairs(_send_recv_pairs(op), True, r, p)
    send_to, recv_from = _peer_tables(op, pairs, r * p)
    return DimensionsAttr(tuple(recv_from if receiving else send_to))


def _done_users(op: Operation, done: type[Operation]) -> list[Operation]:
    users = [u.operation for u in op.results[0].uses]
    for user in users:
        if not isinstance(user, done):
            raise _fail(op, f"its result is used by '{user.name}'; only '{done.name}' is supported")
    return users


def _plan_send(op: SendOp) -> Plan:
    props: dict[str, Attribute] = {
        "peer_id": _peer_table(op, receiving=False),
        "channel_id": IntegerAttr(op.channel_id.value.data, 64),
    }
    send = CollectiveSendOp.create(operands=[op.data], properties=props)
    dones = _done_users(op, SendDoneOp)
    replace: list[tuple[SSAValue, SSAValue]] = [(d.results[0], op.token) for d in dones]
    return Plan(inserts=[(op, [send])], replace=replace, erase=[*dones, op])


def _plan_recv(op: RecvOp) -> Plan:
    data_type = tuple_elements(op.result.type)[0]
    props: dict[str, Attribute] = {
        "peer_id": _peer_table(op, receiving=True),
        "channel_id": IntegerAttr(op.channel_id.value.data, 64),
    }
    recv = CollectiveRecvOp.create(result_types=[data_type], properties=props)
    plan = Plan(inserts=[(op, [recv])])
    parts: list[SSAValue] = [recv.results[0], op.token]
    for done in _done_users(op, RecvDoneOp):
        tupled = False
        for use in list(done.results[0].uses):
            user = use.operation
            if isinstance(user, GetTupleElementOp):
                plan.replace.append((user.result, parts[user.index.value.data]))
                plan.erase.append(user)
            elif not tupled:
                tup = TupleOp(parts)
                plan.inserts.append((done, [tup]))
                plan.replace.append((done.results[0], tup.result))
                tupled = True
        plan.erase.append(done)
    plan.erase.append(op)
    return plan


# --- device ids and barriers ---------------------------------------------------------------


def _plan_rank_id(op: PartitionIdOp | ReplicaIdOp) -> Plan | None:
    r, p = device_counts(op)
    partition = isinstance(op, PartitionIdOp)
    if r == p > 1:
        return None
    props: dict[str, Attribute] = {
        "world_size": IntegerAttr(p if partition else r, 64),
        "engine": EngineTypeAttr(EngineType.ALL),
    }
    new = GetGlobalRankIdOp.create(result_types=[op.result.type], properties=props)
    return Plan(inserts=[(op, [new])], replace=[(op.result, new.results[0])], erase=[op])


def _cores(op: CustomCallOp) -> DimensionsAttr:
    raw = op.attributes.get("cores")
    if isinstance(raw, DimensionsAttr):
        cores = raw.data
    elif isinstance(raw, StringAttr) and re.fullmatch(r"\s*\d+(\s*,\s*\d+)*\s*", raw.data):
        cores = tuple(int(c) for c in raw.data.split(","))
    else:
        shown = raw or "none"
        raise _fail(op, f'CoreBarrier needs a `cores` attribute ([0, 1] or "0,1"), got {shown}')
    return DimensionsAttr(cores)


def _plan_core_barrier(op: CustomCallOp) -> Plan:
    if len(op.inputs) != 1 or op.inputs[0].type != op.result.type:
        raise _fail(op, "CoreBarrier takes one semaphore tensor and returns the same type")
    _tensor(op.inputs[0])
    barrier = op.attributes.get("barrier_id")
    if not isinstance(barrier, IntegerAttr) or barrier.value.data < 0:
        raise _fail(
            op, f"CoreBarrier needs a non-negative integer `barrier_id`, got {barrier or 'none'}"
        )
    props: dict[str, Attribute] = {"cores": _cores(op)}
    engine = op.attributes.get("engine")
    if engine is not None:
        if not isinstance(engine, StringAttr) or engine.data not in EngineType.__members__:
            raise _fail(op, f"CoreBarrier engine must name an engine, got {engine}")
        props["engine"] = EngineTypeAttr(EngineType(engine.data))
    props["cb_id"] = IntegerAttr(barrier.value.data, 64)
    new = CoreBarrierOp.create(
        operands=[op.inputs[0]], result_types=[op.result.type], properties=props
    )
    return Plan(inserts=[(op, [new])], replace=[(op.result, new.results[0])], erase=[op])


# --- the pass ------------------------------------------------------------------------------

_SPECS: dict[type[Operation], Callable[[Operation], Spec]] = {
    AllReduceOp: _spec_all_reduce,  # pyright: ignore[reportAssignmentType]
    ReduceScatterOp: _spec_reduce_scatter,
    AllGatherOp: _spec_all_gather,
    AllToAllOp: _spec_all_to_all,
    CollectiveBroadcastOp: _spec_broadcast,
    CollectivePermuteOp: _spec_permute,
}


@dataclass(frozen=True)
class ConvertHloToBirPass(ModulePass):
    """Lower hlo collectives, device ids and CoreBarrier custom calls to bir (module docstring)."""

    name = "convert-hlo-to-bir"

    tile_bytes: int = 0
    ring_channels: int = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.tile_bytes < 0:
            raise PassFailedException(f"{PASS}: tile-bytes must be >= 0, got {self.tile_bytes}")
        if self.ring_channels not in (1, 2, 4):
            raise PassFailedException(
                f"{PASS}: ring-channels must be 1, 2 or 4, got {self.ring_channels}"
            )
        builder = Builder(self.tile_bytes, self.ring_channels)
        plans = [p for o in list(op.walk()) if (p := self.plan(o, builder)) is not None]
        for plan in plans:
            plan.apply()

    def plan(self, op: Operation, builder: Builder) -> Plan | None:
        spec_of = _SPECS.get(type(op))
        if spec_of is not None:
            return _replace_result(op, builder.build(op, spec_of(op)))
        if isinstance(op, SendOp):
            return _plan_send(op)
        if isinstance(op, RecvOp):
            return _plan_recv(op)
        if isinstance(op, PartitionIdOp | ReplicaIdOp):
            return _plan_rank_id(op)
        if isinstance(op, CustomCallOp) and op.call_target_name.data == "CoreBarrier":
            return _plan_core_barrier(op)
        if isinstance(op, SendDoneOp | RecvDoneOp) and not isinstance(
            op.operand.owner, SendOp | RecvOp
        ):
            raise _fail(op, f"'{op.name}' is not fed by an hlo.send / hlo.recv result")
        return None
