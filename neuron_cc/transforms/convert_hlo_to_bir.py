"""convert-hlo-to-bir: lower every hlo collective to the backend IR's collective nodes (issue 7 §2).

In every function and region (one walk to collect and plan - the fusions first, then one op at
a time - then one rewrite; nothing changes when a lowering fails):

| hlo | bir |
|---|---|
| all_reduce | collective_compute kind=AllReduce, op from the reduction region |
| reduce_scatter (variadic too) | kind=ReduceScatter, op from the region, cc_type_hint |
| all_gather (variadic too) | kind=AllGather (op unset), cc_type_hint |
| all_to_all (array form) | kind=AllToAll, split_count = group size |
| all_to_all (tuple form) | stacked, one AllToAll, unstacked (`bir_lowering/tuple_all_to_all.py`) |
| ragged_all_to_all | kind=AllToAllV with the constant tables (`bir_lowering/ragged.py`) |
| collective_permute | kind=Permute, permute_chain = the source_target_pairs (flattened ids); a ring shift: PermuteImplicit (`bir_lowering/permutes.py`) |
| permute + add/multiply/maximum/minimum | PermuteReduce / PermuteReduceImplicit (`bir_lowering/permutes.py`) |
| collective_permute tagged `local` | kind=SendRecv, recv_from_rank / send_to_rank, local, initial_core_barrier, pipe_id, dyn_pipe_id, use_gpsimd_dma |
| chain of one op over `local` permutes of x | SendRecvCCE (`bir_lowering/send_recv_cce.py`) |
| collective_broadcast | kind=Permute, permute_chain root -> every group member (root included) |
| broadcast to a new outermost dim (`dve-channels` > 0) | broadcast_partition (`bir_lowering/broadcast_partition.py`) |
| send / send_done | collective_send, peer_id = the target of each device (-1 none), input_aps |
| recv / recv_done | collective_recv, peer_id = the source of each device (-1 none), output_aps |
| partition_id / replica_id | get_global_rank_id world_size = P (resp. R), engine ALL, register |
| custom_call "CoreBarrier" | core_barrier(cores, cb_id = barrier_id), input_aps / output_aps |

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
  discardable `bir.local` attribute. `pipe_id` / `dyn_pipe_id` (integers) and `use_gpsimd_dma`
  (a flag; or the `use-gpsimd-dma` option for every SendRecv) come from a discardable or
  frontend attribute of that name.
- Fusions (`fuse`, default on): SendRecvCCE chains are found first (they take `local` permutes),
  then PermuteReduce (non-local permutes); an op a fusion took is not lowered again.
- get_global_rank_id's register is `rank_id_<k>`, k counting the rank-id ops in program order.
- Field order (properties insertion order, kept by the JSON export): `bir_json.COMPUTE_FIELDS`
  (op, replica_groups, kind, cc_type_hint, dma_qos, permute_chain, unique_tensors_type,
  stream_id, split_count, the SendRecv / SendRecvCCE / AllToAllV fields, channel_id, tiled,
  input_aps, output_aps) or, for a tiled node, `bir_json.TILED_COMPUTE_FIELDS` (channel_id
  before kind, stream_id after the access patterns).

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
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, UnitAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.dialects.bir import (
    CollectiveRecvOp,
    CollectiveSendOp,
    CoreBarrierOp,
    GetGlobalRankIdOp,
)
from neuron_cc.dialects.bir_attributes import CollectiveKind, EngineType, EngineTypeAttr
from neuron_cc.dialects.frozen_ir import frozen
from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.collectives import (
    AllGatherOp,
    AllReduceOp,
    AllToAllOp,
    CollectiveBroadcastOp,
    ReduceScatterOp,
)
from neuron_cc.dialects.hlo.control_flow import CustomCallOp, GetTupleElementOp, TupleOp
from neuron_cc.dialects.hlo.data_movement import BroadcastOp
from neuron_cc.dialects.hlo.frontend_attributes import SEND_RECV_PAIRS, send_recv_pairs
from neuron_cc.dialects.hlo.p2p import (
    CollectivePermuteOp,
    PartitionIdOp,
    RecvDoneOp,
    RecvOp,
    ReplicaIdOp,
    SendDoneOp,
    SendOp,
)
from neuron_cc.dialects.hlo.ragged_all_to_all import RaggedAllToAllOp
from neuron_cc.dialects.hlo.types import tuple_elements
from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.transforms.bir_lowering.broadcast_partition import plan_broadcast_partition
from neuron_cc.transforms.bir_lowering.common import (
    PASS,
    Builder,
    Plan,
    Spec,
    all_to_all_spec,
    alu_of,
    apply_plans,
    fail,
    flag,
    flatten_pairs,
    groups_of,
    int_field,
    is_local,
    peer_tables,
    replace_result,
    sequential,
    tensor_of,
    type_hint,
)
from neuron_cc.transforms.bir_lowering.permutes import flat_pairs, permute_spec, plan_permute_reduce
from neuron_cc.transforms.bir_lowering.ragged import plan_ragged
from neuron_cc.transforms.bir_lowering.send_recv_cce import cce_chains, plan_cce
from neuron_cc.transforms.bir_lowering.tuple_all_to_all import plan_tuple_all_to_all


def _spec_all_reduce(op: AllReduceOp, options: ConvertHloToBirPass) -> Spec:
    return Spec(CollectiveKind.AllReduce, alu=alu_of(op), groups=groups_of(op))


def _spec_reduce_scatter(op: ReduceScatterOp, options: ConvertHloToBirPass) -> Spec:
    n = op.group_size()
    dim = op.scatter_dimension.value.data
    return Spec(
        CollectiveKind.ReduceScatter,
        alu=alu_of(op),
        groups=groups_of(op),
        hint=type_hint(op),
        inputs=(dim, n),
    )


def _spec_all_gather(op: AllGatherOp, options: ConvertHloToBirPass) -> Spec:
    n = op.group_size()
    dim = op.all_gather_dimension.value.data
    return Spec(
        CollectiveKind.AllGather, groups=groups_of(op), hint=type_hint(op), outputs=(dim, n)
    )


def _spec_all_to_all(op: AllToAllOp, options: ConvertHloToBirPass) -> Spec:
    """The array form (the tuple form is `plan_tuple_all_to_all`'s, planned before)."""
    if op.split_dimension is None:
        raise fail(op, "tuple-form all_to_all reached the array-form rule")
    return all_to_all_spec(op, op.split_dimension.value.data)


def _spec_broadcast(op: CollectiveBroadcastOp, options: ConvertHloToBirPass) -> Spec:
    if len(op.operands_) != 1:
        raise fail(
            op, f"Expect single broadcast buffer (collective_broadcast has {len(op.operands_)})"
        )
    groups = groups_of(op)
    chain = [(g[0], m) for g in groups for m in g]
    return Spec(CollectiveKind.Permute, chain=chain)


def _spec_permute(op: CollectivePermuteOp, options: ConvertHloToBirPass) -> Spec:
    if not is_local(op):
        return permute_spec(op, options.implicit)
    r, p = device_counts(op)
    send_to, recv_from = peer_tables(op, flat_pairs(op), r * p)
    fields: dict[str, Attribute] = {}
    for name in ("pipe_id", "dyn_pipe_id"):
        value = int_field(op, name)
        if value is not None:
            fields[name] = value
    fields["recv_from_rank"] = DimensionsAttr(tuple(recv_from))
    fields["send_to_rank"] = DimensionsAttr(tuple(send_to))
    fields["local"] = UnitAttr()
    fields["initial_core_barrier"] = UnitAttr()
    if options.use_gpsimd_dma or flag(op, "use_gpsimd_dma", "use_gpsimd_dma"):
        fields["use_gpsimd_dma"] = UnitAttr()
    return Spec(CollectiveKind.SendRecv, extra=fields)


# --- send / recv ---------------------------------------------------------------------------


def _send_recv_pairs(op: Operation) -> list[tuple[int, int]]:
    try:
        pairs = send_recv_pairs(op)
    except ValueError as e:
        raise fail(op, str(e)) from None
    if pairs is None:
        raise fail(op, f"'{op.name}' has no {SEND_RECV_PAIRS} frontend attribute")
    return pairs


def _peer_table(op: SendOp | RecvOp, receiving: bool) -> DimensionsAttr:
    r, p = device_counts(op)
    pairs = flatten_pairs(_send_recv_pairs(op), True, r, p)
    send_to, recv_from = peer_tables(op, pairs, r * p)
    return DimensionsAttr(tuple(recv_from if receiving else send_to))


def _done_users(op: Operation, done: type[Operation]) -> list[Operation]:
    users = [u.operation for u in op.results[0].uses]
    for user in users:
        if not isinstance(user, done):
            raise fail(op, f"its result is used by '{user.name}'; only '{done.name}' is supported")
    return users


def _plan_send(op: SendOp) -> Plan:
    props: dict[str, Attribute] = {
        "peer_id": _peer_table(op, receiving=False),
        "channel_id": IntegerAttr(op.channel_id.value.data, 64),
        "input_aps": sequential(op.data),
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
        "output_aps": sequential(data_type),
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


def _plan_rank_id(op: PartitionIdOp | ReplicaIdOp, register: int) -> Plan | None:
    r, p = device_counts(op)
    partition = isinstance(op, PartitionIdOp)
    if r == p > 1:
        return None
    props: dict[str, Attribute] = {
        "world_size": IntegerAttr(p if partition else r, 64),
        "engine": EngineTypeAttr(EngineType.ALL),
        "register": StringAttr(f"rank_id_{register}"),
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
        raise fail(op, f'CoreBarrier needs a `cores` attribute ([0, 1] or "0,1"), got {shown}')
    return DimensionsAttr(cores)


def _barrier_id(op: Operation) -> int | None:
    if isinstance(op, CustomCallOp) and op.call_target_name.data == "CoreBarrier":
        barrier = op.attributes.get("barrier_id")
        if isinstance(barrier, IntegerAttr):
            return barrier.value.data
    return None


def _plan_core_barrier(op: CustomCallOp) -> Plan:
    if len(op.inputs) != 1 or op.inputs[0].type != op.result.type:
        raise fail(op, "CoreBarrier takes one semaphore tensor and returns the same type")
    tensor_of(op.inputs[0])
    barrier = op.attributes.get("barrier_id")
    if not isinstance(barrier, IntegerAttr) or barrier.value.data < 0:
        raise fail(
            op, f"CoreBarrier needs a non-negative integer `barrier_id`, got {barrier or 'none'}"
        )
    props: dict[str, Attribute] = {"cores": _cores(op)}
    engine = op.attributes.get("engine")
    if engine is not None:
        if not isinstance(engine, StringAttr) or engine.data not in EngineType.__members__:
            raise fail(op, f"CoreBarrier engine must name an engine, got {engine}")
        props["engine"] = EngineTypeAttr(EngineType(engine.data))
    props["cb_id"] = IntegerAttr(barrier.value.data, 64)
    props["input_aps"] = sequential(op.inputs[0])
    props["output_aps"] = sequential(op.result)
    new = CoreBarrierOp.create(
        operands=[op.inputs[0]], result_types=[op.result.type], properties=props
    )
    return Plan(inserts=[(op, [new])], replace=[(op.result, new.results[0])], erase=[op])


# --- the pass ------------------------------------------------------------------------------

_SPECS: dict[type[Operation], Callable[[Operation, ConvertHloToBirPass], Spec]] = {
    AllReduceOp: _spec_all_reduce,  # pyright: ignore[reportAssignmentType]
    ReduceScatterOp: _spec_reduce_scatter,
    AllGatherOp: _spec_all_gather,
    AllToAllOp: _spec_all_to_all,
    CollectiveBroadcastOp: _spec_broadcast,
    CollectivePermuteOp: _spec_permute,
}


@dataclass
class _Walk:
    """What one run of the pass has planned so far."""

    builder: Builder
    plans: list[Plan]
    taken: set[Operation]
    """Ops a fused plan (PermuteReduce, SendRecvCCE) already lowers."""
    registers: int = 0

    def add(self, plan: Plan) -> None:
        self.plans.append(plan)
        self.taken.update(plan.erase)


@dataclass(frozen=True)
class ConvertHloToBirPass(ModulePass):
    """Lower hlo collectives, device ids and CoreBarrier custom calls to bir (module docstring)."""

    name = "convert-hlo-to-bir"

    tile_bytes: int = 0
    ring_channels: int = 1
    implicit: bool = True
    """Ring-shift permutes become the implicit kinds (PermuteImplicit, PermuteReduceImplicit)."""
    fuse: bool = True
    """Fuse PermuteReduce and SendRecvCCE from their idioms."""
    use_gpsimd_dma: bool = False
    """Set `use_gpsimd_dma` on every SendRecv (else only where the op asks for it)."""
    dve_channels: int = 0
    """The target's DVE channels per bank: broadcasts to at most that many partitions lower to
    bir.broadcast_partition (0: broadcasts stay in hlo)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.tile_bytes < 0:
            raise PassFailedException(f"{PASS}: tile-bytes must be >= 0, got {self.tile_bytes}")
        if self.ring_channels not in (1, 2, 4):
            raise PassFailedException(
                f"{PASS}: ring-channels must be 1, 2 or 4, got {self.ring_channels}"
            )
        if self.dve_channels < 0:
            raise PassFailedException(f"{PASS}: dve-channels must be >= 0, got {self.dve_channels}")
        ops = list(op.walk())
        walk = _Walk(Builder(self.tile_bytes, self.ring_channels), [], set())
        with frozen():  # planning only reads the IR: each block finds its module once
            if self.fuse:
                self.plan_fusions(ops, walk)
            for o in ops:
                if o not in walk.taken and (plan := self.plan(o, walk)) is not None:
                    walk.plans.append(plan)
        apply_plans(walk.plans)

    def plan_fusions(self, ops: list[Operation], walk: _Walk) -> None:
        """SendRecvCCE chains first (they take local permutes), then PermuteReduce."""
        barrier = 1 + max((b for o in ops if (b := _barrier_id(o)) is not None), default=-1)
        for chain in cce_chains(ops):
            walk.add(plan_cce(chain, walk.builder, barrier))
            barrier += 1
        for o in ops:
            if o not in walk.taken:
                plan = plan_permute_reduce(o, walk.builder, self.implicit)
                if plan is not None:
                    walk.add(plan)

    def plan(self, op: Operation, walk: _Walk) -> Plan | None:
        spec_of = _SPECS.get(type(op))
        if isinstance(op, AllToAllOp) and op.split_dimension is None:
            return plan_tuple_all_to_all(op, walk.builder)
        if spec_of is not None:
            return replace_result(op, walk.builder.build(op, spec_of(op, self)))
        if isinstance(op, RaggedAllToAllOp):
            return plan_ragged(op, walk.builder)
        if isinstance(op, BroadcastOp):
            return plan_broadcast_partition(op, self.dve_channels)
        if isinstance(op, SendOp):
            return _plan_send(op)
        if isinstance(op, RecvOp):
            return _plan_recv(op)
        if isinstance(op, PartitionIdOp | ReplicaIdOp):
            walk.registers += 1
            return _plan_rank_id(op, walk.registers - 1)
        if isinstance(op, CustomCallOp) and op.call_target_name.data == "CoreBarrier":
            return _plan_core_barrier(op)
        if isinstance(op, SendDoneOp | RecvDoneOp) and not isinstance(
            op.operand.owner, SendOp | RecvOp
        ):
            raise fail(op, f"'{op.name}' is not fed by an hlo.send / hlo.recv result")
        return None
