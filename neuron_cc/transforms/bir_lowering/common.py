"""Shared machinery of convert-hlo-to-bir's rules: plans, specs, the node builder, field rules.

A rule turns hlo ops into a `Plan` (ops to insert, values to replace, ops to erase); the pass
applies every plan only after all were made, so a failing rule leaves the module untouched. A
`Spec` holds one collective_compute's fields before access patterns and tiling; `Builder` adds
those (module docstring of `convert_hlo_to_bir`) and orders the properties in the codegen's
emission order (`neuron_cc.translate.bir_json.field_order`, tiled variants included).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    ArrayAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    TupleType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis import access_patterns as aps
from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.dialects.bir import CollectiveComputeOp
from neuron_cc.dialects.bir_attributes import (
    PERMUTE_KINDS,
    POINT_TO_POINT_KINDS,
    AccessPatternAttr,
    AluOpType,
    AluOpTypeAttr,
    CollectiveComputeTypeHint,
    CollectiveComputeTypeHintAttr,
    CollectiveKind,
    CollectiveKindAttr,
)
from neuron_cc.dialects.hlo.attributes import ReplicaGroupsAttr, SourceTargetPairsAttr
from neuron_cc.dialects.hlo.collectives import (
    AllReduceOp,
    AllToAllOp,
    CollectiveOp,
    ReduceScatterOp,
)
from neuron_cc.dialects.hlo.control_flow import TupleOp
from neuron_cc.dialects.hlo.frontend_attributes import frontend_attributes
from neuron_cc.dialects.hlo.types import tuple_elements, value_bytes
from neuron_cc.dialects.replica_groups import device_counts, flattened_participants
from neuron_cc.dialects.value_edits import replace_values
from neuron_cc.translate.bir_json import field_order

PASS = "convert-hlo-to-bir"
ALU = {
    "hlo.add": AluOpType.add,
    "hlo.multiply": AluOpType.mult,
    "hlo.maximum": AluOpType.max,
    "hlo.minimum": AluOpType.min,
}
FALSE = ("false", "0")
Geometry = tuple[int | None, int]
"""(collective dimension or None for row-major, group size) of a buffer's access pattern."""


def fail(op: Operation, message: str) -> PassFailedException:
    hint = op.results[0].name_hint if op.results else None
    where = f"%{hint}" if hint else f"'{op.name}'"
    return PassFailedException(f"{PASS}: {where}: {message}")


# --- frontend attributes -------------------------------------------------------------------


def frontend(op: Operation) -> dict[str, str]:
    try:
        return frontend_attributes(op)
    except ValueError as e:
        raise fail(op, str(e)) from None


def flag(op: Operation, key: str, discardable: str) -> bool:
    if discardable in op.attributes:
        return True
    value = frontend(op).get(key)
    return value is not None and value.strip().lower() not in FALSE


def type_hint(op: Operation) -> CollectiveComputeTypeHint:
    """TP when `tp` is set on the op, else FSDP when `fsdp` is, else None."""
    if flag(op, "tp", "tp"):
        return CollectiveComputeTypeHint.TP
    if flag(op, "fsdp", "fsdp"):
        return CollectiveComputeTypeHint.FSDP
    return CollectiveComputeTypeHint.NONE


def is_local(op: Operation) -> bool:
    """A collective_permute tagged `local` (frontend `local=true` or attribute `bir.local`)."""
    return flag(op, "local", "bir.local")


def int_field(op: Operation, name: str) -> IntegerAttr | None:
    """An integer field copied from the discardable attribute or frontend attribute `name`."""
    value: Attribute | None = op.attributes.get(name)
    text = frontend(op).get(name)
    if value is None and text is not None:
        if not text.strip().lstrip("-").isdigit():
            raise fail(op, f"{name} must be an integer, got {text!r}")
        value = IntegerAttr(int(text), 64)
    if value is None:
        return None
    if not isinstance(value, IntegerAttr):
        raise fail(op, f"{name} must be an integer, got {value}")
    return IntegerAttr(value.value.data, 64)


def copied_fields(op: Operation) -> tuple[Attribute | None, Attribute | None]:
    """(dma_qos, unique_tensors_type) of the hlo op, when present."""
    front = frontend(op)
    qos = int_field(op, "dma_qos")
    unique: Attribute | None = op.attributes.get("unique_tensors_type")
    if unique is None and "unique_tensors_type" in front:
        unique = StringAttr(front["unique_tensors_type"])
    if unique is not None and not isinstance(unique, StringAttr):
        raise fail(op, f"unique_tensors_type must be a string, got {unique}")
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


def apply_plans(plans: Iterable[Plan]) -> None:
    """Apply `plans` together: every insert, then every replacement at once, then every
    erasure, each in the plans' order. One replacement for all of them: a user reading many
    lowered collectives (a loop body's root tuple returning one per slot) is rebuilt once,
    not once per plan (which was quadratic in the number of collectives it reads). Every
    plan was made from the IR before any was applied; an anchor is never erased by another
    plan, and a value one plan replaces may be read by another's new ops (redirected with
    the rest of its uses)."""
    plans = list(plans)
    for plan in plans:
        for anchor, ops in plan.inserts:
            Rewriter.insert_op(ops, InsertPoint.before(anchor))
    replace_values(pair for plan in plans for pair in plan.replace)
    for plan in plans:
        for op in plan.erase:
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
    extra: dict[str, Attribute] = field(default_factory=dict[str, Attribute])
    """Kind-specific fields (SendRecv's tables, SendRecvCCE's sources, AllToAllV's tables)."""
    inputs: Geometry = (None, 1)
    outputs: Geometry = (None, 1)


NEVER_TILED = frozenset(
    {CollectiveKind.SendRecv, CollectiveKind.SendRecvCCE, CollectiveKind.AllToAllV}
)
"""Kinds the tiled form leaves whole (no Tiled* variant in the codegen)."""


def flatten_pairs(
    pairs: Sequence[tuple[int, int]], cross_partition: bool, replicas: int, partitions: int
) -> list[tuple[int, int]]:
    if cross_partition:
        base = [r * partitions for r in range(replicas)]
        return [(b + s, b + t) for b in base for s, t in pairs]
    return [(s * partitions + p, t * partitions + p) for p in range(partitions) for s, t in pairs]


def peer_tables(
    op: Operation, pairs: Sequence[tuple[int, int]], devices: int
) -> tuple[list[int], list[int]]:
    """(send_to, recv_from) per device, -1 for none."""
    send_to = [-1] * devices
    recv_from = [-1] * devices
    for s, t in pairs:
        if not (0 <= s < devices and 0 <= t < devices):
            raise fail(op, f"pair ({s}, {t}) names a device outside [0, {devices})")
        if send_to[s] != -1:
            raise fail(op, f"device {s} sends to more than one peer")
        if recv_from[t] != -1:
            raise fail(op, f"device {t} receives from more than one peer")
        send_to[s] = t
        recv_from[t] = s
    return send_to, recv_from


def groups_of(op: CollectiveOp) -> list[list[int]]:
    r, p = device_counts(op)
    return flattened_participants(op.replica_groups.groups(), op.mode(), r, p)


def alu_of(op: AllReduceOp | ReduceScatterOp) -> AluOpType:
    kind = reduction_kind(op.to_apply)
    alu = ALU.get(kind) if kind is not None else None
    if alu is None:
        block = op.to_apply.blocks.first
        names = [o.name for o in block.ops if o.name != "hlo.return"] if block else []
        region = ", ".join(names) if names else "empty"
        raise fail(op, f"cannot map the reduction region of '{op.name}' ({region}) to an ALU op")
    return alu


def is_predicate(t: Attribute) -> bool:
    """A tensor of i1 (hlo pred)."""
    return isinstance(t, TensorType) and t.element_type == IntegerType(1)


def all_to_all_spec(op: AllToAllOp, dim: int) -> Spec:
    """An AllToAll over the group, split and concatenated along `dim` of its buffer."""
    n = op.group_size()
    return Spec(
        CollectiveKind.AllToAll,
        groups=groups_of(op),
        split_count=n,
        inputs=(dim, n),
        outputs=(dim, n),
    )


def tensor_of(value: SSAValue | Attribute) -> TensorType[Attribute]:
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
        if self.tile_bytes <= 0 or spec.kind in NEVER_TILED:
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

    def build(
        self,
        op: Operation,
        spec: Spec,
        inputs: Sequence[SSAValue] | None = None,
        result_types: Sequence[Attribute] | None = None,
    ) -> CollectiveComputeOp:
        """The node of `spec`; its buffers are `op`'s operands and result elements unless given
        (`op` also supplies the copied fields: dma_qos, unique_tensors_type)."""
        operands = list(op.operands if inputs is None else inputs)
        results = tuple_elements(op.results[0].type) if result_types is None else result_types
        ins = [tensor_of(v) for v in operands]
        outs = [tensor_of(t) for t in results]
        tiles = self.tiles(spec, ins, outs)
        props = fields(op, spec)
        if tiles and spec.kind in PERMUTE_KINDS:
            props["channel_id"] = IntegerAttr(self.ring_channels, 64)
        if tiles:
            props["tiled"] = UnitAttr()
        props["input_aps"] = patterns(ins, spec.inputs, max(tiles, 1))
        props["output_aps"] = patterns(outs, spec.outputs, max(tiles, 1))
        new = CollectiveComputeOp.create(
            operands=operands, result_types=list(outs), properties=props
        )
        new.properties = {k: props[k] for k in field_order(new) if k in props}
        return new


def fields(op: Operation, spec: Spec) -> dict[str, Attribute]:
    """The fields before channel_id / tiled / access patterns (`build` orders them)."""
    props: dict[str, Attribute] = {}
    if spec.alu is not None:
        props["op"] = AluOpTypeAttr(spec.alu)
    if spec.groups is not None:
        props["replica_groups"] = ReplicaGroupsAttr.explicit(spec.groups)
    props["kind"] = CollectiveKindAttr(spec.kind)
    if spec.hint is not None:
        props["cc_type_hint"] = CollectiveComputeTypeHintAttr(spec.hint)
    qos, unique = copied_fields(op)
    if qos is not None:
        props["dma_qos"] = qos
    if spec.chain is not None:
        props["permute_chain"] = SourceTargetPairsAttr(tuple(spec.chain))
    if unique is not None:
        props["unique_tensors_type"] = unique
    if spec.kind not in POINT_TO_POINT_KINDS:
        fsdp = spec.hint == CollectiveComputeTypeHint.FSDP
        props["stream_id"] = IntegerAttr(1 if fsdp else 0, 64)
    if spec.split_count is not None:
        props["split_count"] = IntegerAttr(spec.split_count, 64)
    props.update(spec.extra)
    return props


def sequential(value: SSAValue | Attribute) -> ArrayAttr[AccessPatternAttr]:
    """One row-major pattern over the whole buffer (send/recv data, semaphores)."""
    return ArrayAttr([AccessPatternAttr.row_major(tensor_of(value).get_shape())])


def patterns(
    types: list[TensorType[Attribute]], geometry: Geometry, tiles: int
) -> ArrayAttr[AccessPatternAttr]:
    dim, n = geometry
    result: list[AccessPatternAttr] = []
    for t in types:
        for offset, pairs in aps.patterns(t.get_shape(), dim, n, tiles):
            result.append(AccessPatternAttr(offset, pairs))
    return ArrayAttr(result)


def replace_result(op: Operation, new: Operation) -> Plan:
    """Plan: insert `new` before `op`, its results stand for op's (tupled when op's is a tuple)."""
    ops: list[Operation] = [new]
    if isinstance(op.results[0].type, TupleType):
        tup = TupleOp(list(new.results))
        ops.append(tup)
        value: SSAValue = tup.result
    else:
        value = new.results[0]
    return Plan(inserts=[(op, ops)], replace=[(op.results[0], value)], erase=[op])
