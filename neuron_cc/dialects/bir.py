"""The bir dialect: the backend IR's collective nodes (docs/dialects.md §4, notes/BIR_CONTRACT.md).

Value-semantic SSA ops: inputs are operands, outputs are results, and ONE op describes what every
device runs (SPMD); fields that differ per device are per-device tables indexed by the flattened
device id d = r*P + p (D = R*P devices, from the module's `hlo.num_replicas`/`hlo.num_partitions`).
Replica groups and permute chains hold FLATTENED device ids.

There is no collective-dimension field: the access patterns (`#bir.ap<offset, [[step, num], ...]>`
over the flat row-major tensor, outermost pair first) encode it. AllReduce / Permute* / SendRecv*
use plain row-major patterns; AllGather's OUTPUT pattern and ReduceScatter's INPUT pattern have
the outermost pair [chunk_stride, group_size] over the collective dimension; AllToAll's input
pattern has the split dimension's chunks outermost and its output pattern the concat dimension's.
Tiled collectives carry one pattern per tile (tiles of one buffer consecutive).

```mlir
%g = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]]
    cc_type_hint = None stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>]
    output_aps = [#bir.ap<0, [[4, 8], [32, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x32xf32>
```
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects import verify_cache
from neuron_cc.dialects.bir_attributes import (
    ATTRS as _ATTRS,
)
from neuron_cc.dialects.bir_attributes import (
    EXPLICIT_PERMUTE_KINDS,
    GROUP_KINDS,
    LOCAL_INPUT_KINDS,
    PERMUTE_KINDS,
    POINT_TO_POINT_KINDS,
    REDUCER_KINDS,
    AccessPatternAttr,
    AluOpTypeAttr,
    CollectiveComputeTypeHintAttr,
    CollectiveKind,
    CollectiveKindAttr,
    EngineType,
    EngineTypeAttr,
    OptDims,
    OptGroups,
    OptPairs,
    ap_problem,
    pairs_problem,
    range_problem,
)
from neuron_cc.dialects.hlo.attributes import (
    DimensionsAttr,
    DimsDirective,
    ReplicaGroupsAttr,
    SourceTargetPairsAttr,
)
from neuron_cc.dialects.hlo.types import HLO_TENSOR, tensor_type
from neuron_cc.dialects.replica_groups import device_counts, groups_problem

UI32 = IntegerType(32, Signedness.UNSIGNED)
_REGISTER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
BROADCAST_PARTITION_INST_TYPE = 1000
"""neuron-cc's BIR JSON number for BroadcastPartition: the codegen's own number is not public,
so ours sits outside the range of the documented node types (IT11 ... IT87)."""

_SEND_RECV_FIELDS = (
    "pipe_id",
    "dyn_pipe_id",
    "recv_from_rank",
    "send_to_rank",
    "local",
    "initial_core_barrier",
    "use_gpsimd_dma",
)
_CCE_FIELDS = ("recv_from_ranks", "barrier_id")
RAGGED_FIELDS = ("input_offsets", "send_sizes", "output_offsets", "recv_sizes")
"""AllToAllV's ragged tables (hlo ragged_all_to_all's operands, the same on every device)."""


def num_devices(op: Operation) -> int:
    """D = R*P of the enclosing module (1 without the module attributes)."""
    r, p = device_counts(op)
    return r * p


def _elements(t: Attribute) -> int:
    return prod(tensor_type(t).get_shape())


def _check_table(table: DimensionsAttr, devices: int, what: str) -> None:
    """A per-device table: one entry per device, each -1 (none) or a device id."""
    if len(table.data) != devices:
        raise VerifyException(
            f"{what} needs one entry per device ({devices}), got {len(table.data)}"
        )
    for d, v in enumerate(table.data):
        if not -1 <= v < devices:
            raise VerifyException(f"{what} entry {d} is {v}, outside [-1, {devices})")


def _rows(t: Attribute) -> int:
    shape = tensor_type(t).get_shape()
    return shape[0] if shape else 1


def _check_ids(ids: Sequence[int], devices: int, what: str) -> None:
    for i in ids:
        if not 0 <= i < devices:
            raise VerifyException(f"{what} names device {i} outside [0, {devices})")


@irdl_op_definition
class CollectiveComputeOp(IRDLOperation):
    """A BIR CollectiveCompute node (IT48): one collective over its input buffers.

    `kind` selects the collective (AllReduce reduces with `op` over each group, AllGather
    concatenates in rank order, ReduceScatter keeps chunk rank(d), AllToAll exchanges chunks,
    Permute* route along `permute_chain`, SendRecv along the `recv_from_rank` table, SendRecvCCE
    reduces `recv_from_ranks` sources into the receiver); the access patterns carry the geometry.
    `bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1]] stream_id = 0
    input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) ->
    tensor<8xf32>`
    """

    name = "bir.collective_compute"
    INST_TYPE: ClassVar[int] = 48
    OPCODE: ClassVar[str] = "CollectiveCompute"

    inputs = var_operand_def(HLO_TENSOR)
    outputs = var_result_def(HLO_TENSOR)
    kind = prop_def(CollectiveKindAttr)
    op = opt_prop_def(AluOpTypeAttr)
    replica_groups = opt_prop_def(ReplicaGroupsAttr)
    cc_type_hint = opt_prop_def(CollectiveComputeTypeHintAttr)
    dma_qos = opt_prop_def(IntegerAttr[I64])
    permute_chain = opt_prop_def(SourceTargetPairsAttr)
    unique_tensors_type = opt_prop_def(StringAttr)
    stream_id = opt_prop_def(IntegerAttr[I64])
    split_count = opt_prop_def(IntegerAttr[I64])
    channel_id = opt_prop_def(IntegerAttr[I64])
    tiled = opt_prop_def(UnitAttr)
    pipe_id = opt_prop_def(IntegerAttr[I64])
    dyn_pipe_id = opt_prop_def(IntegerAttr[I64])
    recv_from_rank = opt_prop_def(DimensionsAttr)
    send_to_rank = opt_prop_def(DimensionsAttr)
    local = opt_prop_def(UnitAttr)
    initial_core_barrier = opt_prop_def(UnitAttr)
    use_gpsimd_dma = opt_prop_def(UnitAttr)
    recv_from_ranks = opt_prop_def(SourceTargetPairsAttr)
    barrier_id = opt_prop_def(IntegerAttr[I64])
    input_offsets = opt_prop_def(DimensionsAttr)
    send_sizes = opt_prop_def(DimensionsAttr)
    output_offsets = opt_prop_def(DimensionsAttr)
    recv_sizes = opt_prop_def(DimensionsAttr)
    input_aps = prop_def(ArrayAttr[AccessPatternAttr])
    output_aps = prop_def(ArrayAttr[AccessPatternAttr])

    assembly_format = (
        "$kind `(` $inputs `)` (`op` `=` $op^)? "
        "(`replica_groups` `=` custom<OptGroups>($replica_groups)^)? "
        "(`cc_type_hint` `=` $cc_type_hint^)? (`dma_qos` `=` $dma_qos^)? "
        "(`permute_chain` `=` custom<OptPairs>($permute_chain)^)? "
        "(`unique_tensors_type` `=` $unique_tensors_type^)? (`stream_id` `=` $stream_id^)? "
        "(`split_count` `=` $split_count^)? (`channel_id` `=` $channel_id^)? "
        "(`tiled` $tiled^)? (`pipe_id` `=` $pipe_id^)? (`dyn_pipe_id` `=` $dyn_pipe_id^)? "
        "(`recv_from_rank` `=` custom<OptDims>($recv_from_rank)^)? "
        "(`send_to_rank` `=` custom<OptDims>($send_to_rank)^)? (`local` $local^)? "
        "(`initial_core_barrier` $initial_core_barrier^)? (`use_gpsimd_dma` $use_gpsimd_dma^)? "
        "(`recv_from_ranks` `=` custom<OptPairs>($recv_from_ranks)^)? "
        "(`barrier_id` `=` $barrier_id^)? "
        "(`input_offsets` `=` custom<OptDims>($input_offsets)^)? "
        "(`send_sizes` `=` custom<OptDims>($send_sizes)^)? "
        "(`output_offsets` `=` custom<OptDims>($output_offsets)^)? "
        "(`recv_sizes` `=` custom<OptDims>($recv_sizes)^)? "
        "`input_aps` `=` $input_aps `output_aps` `=` $output_aps "
        "attr-dict `:` functional-type($inputs, $outputs)"
    )
    custom_directives = (OptGroups, OptPairs, OptDims)

    @property
    def collective_kind(self) -> CollectiveKind:
        return self.kind.data

    def group_list(self) -> tuple[tuple[int, ...], ...]:
        """The replica groups (flattened device ids), empty when unset."""
        return () if self.replica_groups is None else self.replica_groups.groups()

    def group_size(self) -> int:
        groups = self.group_list()
        return len(groups[0]) if groups else 1

    def num_tiles(self) -> int:
        """APs per buffer (1 unless tiled)."""
        return max(1, len(self.input_aps.data) // max(1, len(self.inputs)))

    def has_local_inputs(self) -> bool:
        """PermuteReduce*, AllToAllV: inputs = the sent buffers, then one local buffer each."""
        return self.collective_kind in LOCAL_INPUT_KINDS

    def ring_chain(self) -> tuple[tuple[int, int], ...]:
        """The routing of a permute kind: `permute_chain`, or for an implicit kind the ring
        shift of every group, (g[k], g[k+1 mod n])."""
        if self.permute_chain is not None:
            return self.permute_chain.data
        return tuple((g[k], g[(k + 1) % len(g)]) for g in self.group_list() for k in range(len(g)))

    def verify_(self) -> None:
        kind = self.collective_kind
        self._verify_op(kind)
        self._verify_groups(kind)
        self._verify_restricted(kind)
        self._verify_permute(kind)
        self._verify_send_recv(kind)
        self._verify_cce(kind)
        self._verify_ragged(kind)
        self._verify_buffers(kind)
        self._verify_aps(kind)

    def _verify_op(self, kind: CollectiveKind) -> None:
        if self.op is not None and kind not in REDUCER_KINDS:
            raise VerifyException(
                "op is only allowed on reducer kinds (AllReduce, ReduceScatter, PermuteReduce, "
                f"SendRecvCCE), not {kind}"
            )
        if self.op is None and kind in REDUCER_KINDS:
            raise VerifyException(f"{kind} needs op (the reduce operator)")

    def _verify_groups(self, kind: CollectiveKind) -> None:
        if self.replica_groups is None:
            if kind in GROUP_KINDS:
                raise VerifyException(f"{kind} needs replica_groups")
            return
        problem = self.replica_groups.problem()
        groups = self.replica_groups.groups()
        if problem is None and not groups:
            problem = "replica_groups must list the flattened device groups explicitly, got []"
        devices = num_devices(self)
        if problem is None:
            problem = groups_problem(
                groups,
                devices,
                require_uniform=kind != CollectiveKind.AllReduce,
                require_cover=True,
            )
        if problem is not None:
            raise VerifyException(f"{problem} (flattened device ids, {devices} devices)")

    def _verify_restricted(self, kind: CollectiveKind) -> None:
        if self.cc_type_hint is not None and kind not in (
            CollectiveKind.AllGather,
            CollectiveKind.ReduceScatter,
        ):
            raise VerifyException("cc_type_hint is only allowed on AllGather and ReduceScatter")
        if self.stream_id is None and kind not in POINT_TO_POINT_KINDS:
            raise VerifyException("stream_id is required on every group collective")
        if (self.split_count is not None) != (kind == CollectiveKind.AllToAll):
            if self.split_count is not None:
                raise VerifyException("split_count is only allowed on AllToAll")
            raise VerifyException("AllToAll needs split_count")
        if self.split_count is not None and self.split_count.value.data != self.group_size():
            raise VerifyException(
                f"split_count {self.split_count.value.data} must equal the group size "
                f"{self.group_size()}"
            )
        if self.channel_id is not None:
            if kind not in PERMUTE_KINDS or self.tiled is None:
                raise VerifyException("channel_id is only allowed on tiled permutes")
            if self.channel_id.value.data not in (1, 2, 4):
                raise VerifyException(
                    f"channel_id must be 1, 2 or 4, got {self.channel_id.value.data}"
                )

    def _verify_permute(self, kind: CollectiveKind) -> None:
        if self.permute_chain is None:
            if kind in EXPLICIT_PERMUTE_KINDS:
                raise VerifyException(f"{kind} needs permute_chain")
            return
        if kind not in EXPLICIT_PERMUTE_KINDS:
            raise VerifyException(
                f"permute_chain is only allowed on Permute and PermuteReduce, not {kind}"
            )
        pairs = self.permute_chain.data
        _check_ids([i for pair in pairs for i in pair], num_devices(self), "permute_chain")
        targets = [t for _, t in pairs]
        for t in targets:
            if targets.count(t) > 1:
                raise VerifyException(f"permute_chain target {t} appears in more than one pair")

    def _verify_send_recv(self, kind: CollectiveKind) -> None:
        if kind != CollectiveKind.SendRecv:
            for field in _SEND_RECV_FIELDS:
                if getattr(self, field) is not None:
                    raise VerifyException(f"{field} is only allowed on SendRecv")
            return
        if self.recv_from_rank is None or self.send_to_rank is None:
            raise VerifyException("SendRecv needs recv_from_rank and send_to_rank")
        devices = num_devices(self)
        _check_table(self.recv_from_rank, devices, "recv_from_rank")
        _check_table(self.send_to_rank, devices, "send_to_rank")
        recv = self.recv_from_rank.data
        for d, t in enumerate(self.send_to_rank.data):
            if t >= 0 and recv[t] != d:
                raise VerifyException(
                    f"send_to_rank and recv_from_rank disagree: device {d} sends to {t}, "
                    f"but device {t} receives from {recv[t]}"
                )

    def _verify_cce(self, kind: CollectiveKind) -> None:
        if kind != CollectiveKind.SendRecvCCE:
            for field in _CCE_FIELDS:
                if getattr(self, field) is not None:
                    raise VerifyException(f"{field} is only allowed on SendRecvCCE")
            return
        if self.recv_from_ranks is None or self.barrier_id is None:
            raise VerifyException("SendRecvCCE needs recv_from_ranks and barrier_id")
        pairs = self.recv_from_ranks.data
        _check_ids([i for pair in pairs for i in pair], num_devices(self), "recv_from_ranks")

    def _verify_ragged(self, kind: CollectiveKind) -> None:
        tables = [getattr(self, f) for f in RAGGED_FIELDS]
        if kind != CollectiveKind.AllToAllV:
            for field, table in zip(RAGGED_FIELDS, tables, strict=True):
                if table is not None:
                    raise VerifyException(f"{field} is only allowed on AllToAllV")
            return
        if any(t is None for t in tables):
            raise VerifyException(f"AllToAllV needs {', '.join(RAGGED_FIELDS)}")
        entries = [len(t.data) for t in tables]
        n = self.group_size()
        if len(set(entries)) != 1 or entries[0] == 0 or entries[0] % n:
            raise VerifyException(
                f"AllToAllV tables need one entry per peer and update (a positive multiple of "
                f"the group size {n}, the same for all four), got {entries}"
            )
        for field, table in zip(RAGGED_FIELDS, tables, strict=True):
            if any(v < 0 for v in table.data):
                raise VerifyException(f"AllToAllV {field} must be non-negative, got {table}")
        in_rows = _rows(self.inputs[0].type)
        out_rows = _rows(self.outputs[0].type)
        io, ss, oo = (t.data for t in tables[:3])
        for e in range(entries[0]):
            if io[e] + ss[e] > in_rows or oo[e] + ss[e] > out_rows:
                raise VerifyException(
                    f"AllToAllV entry {e} sends rows [{io[e]}, {io[e] + ss[e]}) of {in_rows} "
                    f"into rows [{oo[e]}, {oo[e] + ss[e]}) of {out_rows}"
                )

    def _verify_buffers(self, kind: CollectiveKind) -> None:
        if not self.inputs:
            raise VerifyException(f"{kind} needs at least one input buffer")
        buffers = len(self.outputs)
        expected = 2 * buffers if kind in LOCAL_INPUT_KINDS else buffers
        if len(self.inputs) != expected:
            if kind in LOCAL_INPUT_KINDS:
                raise VerifyException(
                    f"{kind} takes each sent buffer and a local buffer (2 inputs per output): "
                    f"{len(self.inputs)} inputs for {buffers} outputs"
                )
            raise VerifyException(f"{kind} has {len(self.inputs)} inputs but {buffers} outputs")
        for i, a in enumerate(self.inputs):
            b = self.outputs[i % buffers] if buffers else a
            ea, eb = tensor_type(a.type).element_type, tensor_type(b.type).element_type
            if ea != eb:
                raise VerifyException(
                    f"output {i % buffers} has element type {eb}, but input {i} has {ea}"
                )
        if kind in LOCAL_INPUT_KINDS and kind != CollectiveKind.AllToAllV:
            for i, (local, out) in enumerate(zip(self.inputs[buffers:], self.outputs, strict=True)):
                if local.type != out.type:
                    raise VerifyException(
                        f"local input {buffers + i} has type {local.type}, but output {i} is "
                        f"{out.type}"
                    )

    def _verify_aps(self, kind: CollectiveKind) -> None:
        ins, outs = self.input_aps.data, self.output_aps.data
        tiles = _tile_count(ins, len(self.inputs), self.tiled is not None, "input_aps")
        out_tiles = _tile_count(outs, len(self.outputs), self.tiled is not None, "output_aps")
        if tiles != out_tiles:
            raise VerifyException(
                f"input_aps have {tiles} tiles per buffer, output_aps {out_tiles}"
            )
        for what, aps, values in (("input", ins, self.inputs), ("output", outs, self.outputs)):
            for b, v in enumerate(values):
                _check_cover(aps[b * tiles : (b + 1) * tiles], _elements(v.type), f"{what} {b}")
        if kind == CollectiveKind.AllToAllV:
            return  # ragged: the tables, not the patterns, say which rows move
        n = self.group_size()
        for a, (i, o) in enumerate(zip(ins, outs)):
            _check_geometry(kind, i, o, n, a)


def _tile_count(aps: Sequence[AccessPatternAttr], buffers: int, tiled: bool, what: str) -> int:
    if not tiled:
        if len(aps) != buffers:
            raise VerifyException(
                f"{what} needs one access pattern per buffer ({buffers}), got {len(aps)}"
            )
        return 1
    if not aps or len(aps) % buffers:
        raise VerifyException(
            f"tiled {what} needs the same number of tiles for each of the {buffers} buffers, "
            f"got {len(aps)} access patterns"
        )
    return len(aps) // buffers


def _check_cover(aps: Sequence[AccessPatternAttr], elements: int, what: str) -> None:
    """The patterns of one buffer (its tiles) fit it and together visit all its elements."""
    if len(aps) == 1:
        problem = ap_problem(aps[0], elements)
        if problem is not None:
            raise VerifyException(f"{what}: {problem}")
        return
    for t, ap in enumerate(aps):
        problem = pairs_problem(ap) or range_problem(ap, elements)
        if problem is not None:
            raise VerifyException(f"{what} tile {t}: {problem}")
    total = sum(ap.elements() for ap in aps)
    if total != elements:
        raise VerifyException(
            f"{what}: the tiles visit {total} elements, but the tensor has {elements}"
        )


def _check_geometry(
    kind: CollectiveKind, i: AccessPatternAttr, o: AccessPatternAttr, n: int, index: int
) -> None:
    """Element counts of an input/output pattern pair, and the outermost group pair."""
    expected = {CollectiveKind.AllGather: i.elements() * n}.get(kind, i.elements())
    if kind == CollectiveKind.ReduceScatter:
        expected = i.elements() // n if i.elements() % n == 0 else -1
    if o.elements() != expected:
        raise VerifyException(
            f"{kind} access pattern pair {index}: the input visits {i.elements()} elements and "
            f"the output {o.elements()} (group size {n})"
        )
    sides = {
        CollectiveKind.AllGather: (("output", o),),
        CollectiveKind.ReduceScatter: (("input", i),),
        CollectiveKind.AllToAll: (("input", i), ("output", o)),
    }.get(kind, ())
    for side, ap in sides:
        if ap.pairs and ap.pairs[0][1] != n:
            raise VerifyException(
                f"{kind} {side} access pattern {index} must have the group size {n} as its "
                f"outermost num, got {ap.pairs[0][1]}"
            )


def _check_sequential(aps: ArrayAttr[AccessPatternAttr] | None, value: SSAValue, what: str) -> None:
    """An optional single access pattern over the whole of `value` (each element once)."""
    if aps is None:
        return
    if len(aps.data) != 1:
        raise VerifyException(f"{what} needs one access pattern, got {len(aps.data)}")
    _check_cover(aps.data, _elements(value.type), what)


def _check_channel(channel: IntegerAttr) -> None:
    if channel.value.data <= 0:
        raise VerifyException(f"channel_id must be positive, got {channel.value.data}")


@irdl_op_definition
class CollectiveSendOp(IRDLOperation):
    """A BIR CollectiveSend node (IT49): device d sends `data` to device `peer_id[d]`.

    -1 in the table: d sends nothing. The matching `bir.collective_recv` has the same
    `channel_id`. `bir.collective_send %x peer_id = [1, 0] channel_id = 1 : tensor<4xf32>`
    """

    name = "bir.collective_send"
    INST_TYPE: ClassVar[int] = 49
    OPCODE: ClassVar[str] = "CollectiveSend"

    data = operand_def(HLO_TENSOR)
    peer_id = prop_def(DimensionsAttr)
    channel_id = prop_def(IntegerAttr[I64])
    input_aps = opt_prop_def(ArrayAttr[AccessPatternAttr])

    assembly_format = (
        "$data `peer_id` `=` custom<Dims>($peer_id) `channel_id` `=` $channel_id "
        "(`input_aps` `=` $input_aps^)? attr-dict `:` type($data)"
    )
    custom_directives = (DimsDirective,)

    def verify_(self) -> None:
        _check_table(self.peer_id, num_devices(self), "peer_id")
        _check_channel(self.channel_id)
        _check_sequential(self.input_aps, self.data, "collective_send input_aps")


@irdl_op_definition
class CollectiveRecvOp(IRDLOperation):
    """A BIR CollectiveRecv node (IT50): device d receives `data` from device `peer_id[d]`.

    -1 in the table (or no matching send): d receives zeros.
    `%r = bir.collective_recv peer_id = [1, 0] channel_id = 1 : tensor<4xf32>`
    """

    name = "bir.collective_recv"
    INST_TYPE: ClassVar[int] = 50
    OPCODE: ClassVar[str] = "CollectiveRecv"

    data = result_def(HLO_TENSOR)
    peer_id = prop_def(DimensionsAttr)
    channel_id = prop_def(IntegerAttr[I64])
    output_aps = opt_prop_def(ArrayAttr[AccessPatternAttr])

    assembly_format = (
        "`peer_id` `=` custom<Dims>($peer_id) `channel_id` `=` $channel_id "
        "(`output_aps` `=` $output_aps^)? attr-dict `:` type($data)"
    )
    custom_directives = (DimsDirective,)

    def verify_(self) -> None:
        _check_table(self.peer_id, num_devices(self), "peer_id")
        _check_channel(self.channel_id)
        _check_sequential(self.output_aps, self.data, "collective_recv output_aps")


@irdl_op_definition
class CoreBarrierOp(IRDLOperation):
    """A BIR CoreBarrier node (IT87): the `cores` rendezvous on barrier `cb_id`.

    The semaphore is read (operand) and written (result); the data passes through unchanged.
    `%u = bir.core_barrier %s cores = [0, 1] engine = ALL cb_id = 0 : tensor<1xi32>`
    """

    name = "bir.core_barrier"
    INST_TYPE: ClassVar[int] = 87
    OPCODE: ClassVar[str] = "CoreBarrier"

    T: ClassVar = VarConstraint("T", HLO_TENSOR)
    semaphore = operand_def(T)
    updated = result_def(T)
    cores = prop_def(DimensionsAttr)
    engine = opt_prop_def(EngineTypeAttr)
    cb_id = prop_def(IntegerAttr[I64])
    input_aps = opt_prop_def(ArrayAttr[AccessPatternAttr])
    output_aps = opt_prop_def(ArrayAttr[AccessPatternAttr])

    assembly_format = (
        "$semaphore `cores` `=` custom<Dims>($cores) (`engine` `=` $engine^)? "
        "`cb_id` `=` $cb_id (`input_aps` `=` $input_aps^)? (`output_aps` `=` $output_aps^)? "
        "attr-dict `:` type($semaphore)"
    )
    custom_directives = (DimsDirective,)

    def verify_(self) -> None:
        cores = self.cores.data
        if not cores:
            raise VerifyException("core_barrier needs at least one core")
        for c in cores:
            if c < 0 or cores.count(c) > 1:
                raise VerifyException(f"core_barrier core {c} is negative or listed twice")
        if self.cb_id.value.data < 0:
            raise VerifyException(f"cb_id must be non-negative, got {self.cb_id.value.data}")
        _check_sequential(self.input_aps, self.semaphore, "core_barrier input_aps (read)")
        _check_sequential(self.output_aps, self.updated, "core_barrier output_aps (written)")


@irdl_op_definition
class GetGlobalRankIdOp(IRDLOperation):
    """A BIR GetGlobalRankId node (IT11): this device's rank among `world_size` ranks (ui32).

    world_size = P gives the partition id, world_size = R the replica id.
    `%r = bir.get_global_rank_id world_size = 8 engine = ALL : tensor<ui32>`
    """

    name = "bir.get_global_rank_id"
    INST_TYPE: ClassVar[int] = 11
    OPCODE: ClassVar[str] = "GetGlobalRankId"

    result = result_def(TensorType[IntegerType])
    world_size = prop_def(IntegerAttr[I64])
    engine = prop_def(EngineTypeAttr)
    register = opt_prop_def(StringAttr)

    assembly_format = (
        "`world_size` `=` $world_size `engine` `=` $engine (`register` `=` $register^)? "
        "attr-dict `:` type($result)"
    )

    def verify_(self) -> None:
        t = tensor_type(self.result.type)
        if t.element_type != UI32 or t.get_shape():
            raise VerifyException(f"get_global_rank_id returns tensor<ui32>, got {t}")
        if self.world_size.value.data <= 0:
            raise VerifyException(f"world_size must be positive, got {self.world_size.value.data}")
        if self.engine.data != EngineType.ALL:
            raise VerifyException(f"get_global_rank_id runs on engine ALL, got {self.engine.data}")
        if self.register is not None and not _REGISTER.fullmatch(self.register.data):
            raise VerifyException(
                f"get_global_rank_id register must be an identifier, got {self.register.data!r}"
            )


@irdl_op_definition
class BroadcastPartitionOp(IRDLOperation):
    """The codegen's intra-core BroadcastPartition: copy one partition's row to `partitions`
    partitions of the same core (no other device is involved, not a CollectiveCompute).

    The result's outermost (partition) dimension has `partitions` entries, each equal to the
    input (the result shape is [partitions] + the input shape). The codegen's guards are the
    verifier's: more partitions than the target's DVE channels per bank (`channels`) is "too
    large broadcast in N vs M", and an element type change is "Unsupported cast".
    `%b = bir.broadcast_partition %x partitions = 4 channels = 16 input_aps = [#bir.ap<0, [[1,
    8]]>] output_aps = [#bir.ap<0, [[8, 4], [1, 8]]>] : (tensor<8xf32>) -> tensor<4x8xf32>`
    """

    name = "bir.broadcast_partition"
    INST_TYPE: ClassVar[int] = BROADCAST_PARTITION_INST_TYPE
    OPCODE: ClassVar[str] = "BroadcastPartition"

    input = operand_def(HLO_TENSOR)
    output = result_def(HLO_TENSOR)
    partitions = prop_def(IntegerAttr[I64])
    channels = prop_def(IntegerAttr[I64])
    input_aps = prop_def(ArrayAttr[AccessPatternAttr])
    output_aps = prop_def(ArrayAttr[AccessPatternAttr])

    assembly_format = (
        "$input `partitions` `=` $partitions `channels` `=` $channels `input_aps` `=` "
        "$input_aps `output_aps` `=` $output_aps attr-dict `:` functional-type($input, $output)"
    )

    def verify_(self) -> None:
        src, dst = tensor_type(self.input.type), tensor_type(self.output.type)
        if src.element_type != dst.element_type:
            raise VerifyException(
                f"Unsupported cast: broadcast_partition from {src.element_type} to "
                f"{dst.element_type}"
            )
        n, m = self.partitions.value.data, self.channels.value.data
        if m <= 0:
            raise VerifyException(f"channels (DVE channels per bank) must be positive, got {m}")
        if n > m:
            raise VerifyException(f"too large broadcast in {n} vs {m}")
        if n <= 0 or list(dst.get_shape()) != [n, *src.get_shape()]:
            raise VerifyException(
                f"broadcast_partition of {src} to {n} partitions returns "
                f"tensor<{n}x...> with the input's shape after the partition dimension, got {dst}"
            )
        _check_sequential(self.input_aps, self.input, "broadcast_partition input_aps")
        _check_sequential(self.output_aps, self.output, "broadcast_partition output_aps")


OPS: list[type[Operation]] = [
    CollectiveComputeOp,
    CollectiveSendOp,
    CollectiveRecvOp,
    CoreBarrierOp,
    GetGlobalRankIdOp,
    BroadcastPartitionOp,
]
ATTRS: list[type[Attribute]] = list(_ATTRS)

BIR = Dialect("bir", OPS, ATTRS)
verify_cache.install(OPS)
