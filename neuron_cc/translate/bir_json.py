"""BIR JSON export: the bir collective nodes of a module as the backend's JSON instruction list.

`bir_to_json(module)` returns a JSON array with one object per bir instruction, in program order
(every function and region, pre-order). Each object starts with `opcode` and `inst_type`, then the
node's fields under their BIR keys in the codegen's canonical emission order (`FIELD_ORDER`: the
order in which convert-hlo-to-bir inserts the properties; fixed here because the property order of
a parsed op depends on its syntax). Unset fields are omitted; unit
flags are `true`; enums are their names; replica groups are explicit (iota lists expanded); the
per-input/per-output access patterns become one `access_patterns` object:

    [
      {
        "opcode": "CollectiveCompute",
        "inst_type": 48,
        "op": "add",
        "replica_groups": [[0, 1, 2, 3]],
        "kind": "AllReduce",
        "stream_id": 0,
        "access_patterns": {
          "inputs": [{"offset": 0, "pattern": [[1, 8]]}],
          "outputs": [{"offset": 0, "pattern": [[1, 8]]}]
        }
      }
    ]

The document is described by `bir_schema.json` (shipped next to this module, see `bir_schema()`).
Non-bir ops (hlo ops the lowering left in place) are skipped.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, UnitAttr, UnregisteredOp
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation

from neuron_cc.dialects.bir import (
    BroadcastPartitionOp,
    CollectiveComputeOp,
    CollectiveRecvOp,
    CollectiveSendOp,
    CoreBarrierOp,
    GetGlobalRankIdOp,
)
from neuron_cc.dialects.bir_attributes import AccessPatternAttr
from neuron_cc.dialects.hlo.attributes import (
    DimensionsAttr,
    ReplicaGroupsAttr,
    SourceTargetPairsAttr,
)

Json = Any

BirOp = (
    CollectiveComputeOp
    | CollectiveSendOp
    | CollectiveRecvOp
    | CoreBarrierOp
    | GetGlobalRankIdOp
    | BroadcastPartitionOp
)

COMPUTE_FIELDS: tuple[str, ...] = (
    "op",
    "replica_groups",
    "kind",
    "cc_type_hint",
    "dma_qos",
    "permute_chain",
    "unique_tensors_type",
    "stream_id",
    "split_count",
    "pipe_id",
    "dyn_pipe_id",
    "recv_from_rank",
    "send_to_rank",
    "local",
    "initial_core_barrier",
    "use_gpsimd_dma",
    "recv_from_ranks",
    "barrier_id",
    "input_offsets",
    "send_sizes",
    "output_offsets",
    "recv_sizes",
    "channel_id",
    "tiled",
    "input_aps",
    "output_aps",
)
"""CollectiveCompute's fields in the codegen's emission order (the order convert-hlo-to-bir
inserts them; fields it never sets sit with their group)."""

TILED_COMPUTE_FIELDS: tuple[str, ...] = (
    "op",
    "replica_groups",
    "channel_id",
    *(f for f in COMPUTE_FIELDS[2:] if f not in ("op", "channel_id", "stream_id")),
    "stream_id",
)
"""A tiled CollectiveCompute's order (the codegen's Tiled* emitters): the ring `channel_id`
before `kind`, `stream_id` after the access patterns."""

FIELD_ORDER: dict[type[Operation], tuple[str, ...]] = {
    CollectiveComputeOp: COMPUTE_FIELDS,
    CollectiveSendOp: ("peer_id", "channel_id", "input_aps"),
    CollectiveRecvOp: ("peer_id", "channel_id", "output_aps"),
    CoreBarrierOp: ("cores", "engine", "cb_id", "input_aps", "output_aps"),
    GetGlobalRankIdOp: ("world_size", "engine", "register"),
    BroadcastPartitionOp: ("partitions", "channels", "input_aps", "output_aps"),
}
"""The JSON key order of each node: fixed, so the document does not depend on how the op was
built or parsed (the generic and the custom syntax store properties in different orders)."""

AP_PROPERTIES: dict[str, str] = {"input_aps": "inputs", "output_aps": "outputs"}
"""Access-pattern properties, merged into one `access_patterns` object."""


class BirJsonError(Exception):
    """A bir op (or one of its fields) that has no BIR JSON form."""


def bir_to_json(module: Operation) -> str:
    """The BIR JSON document of every bir op in `module` (deterministic, newline-terminated)."""
    instructions = [instruction(op) for op in module.walk() if _is_bir(op)]
    return json.dumps(instructions, indent=2) + "\n"


def bir_schema() -> dict[str, Json]:
    """The JSON Schema (draft 2020-12) of `bir_to_json`'s output."""
    text = resources.files("neuron_cc.translate").joinpath("bir_schema.json").read_text()
    return json.loads(text)


def _name(op: Operation) -> str:
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name


def _is_bir(op: Operation) -> bool:
    return _name(op).startswith("bir.")


def instruction(op: Operation) -> dict[str, Json]:
    """The JSON object of one bir op."""
    if not isinstance(op, BirOp):
        raise BirJsonError(f"'{_name(op)}' has no BIR JSON form")
    order = field_order(op)
    for name in op.properties:
        if name not in order:
            raise BirJsonError(f"'{op.name}' property '{name}' has no BIR JSON key")
    node: dict[str, Json] = {"opcode": op.OPCODE, "inst_type": op.INST_TYPE}
    for name in order:
        attr = op.properties.get(name)
        if attr is None:
            continue
        if name == "register":
            node[name] = {"name": _value(op, name, attr), "dtype": "uint32"}
        elif name in AP_PROPERTIES:
            patterns = node.setdefault("access_patterns", {"inputs": [], "outputs": []})
            patterns[AP_PROPERTIES[name]] = _access_patterns(op, name, attr)
        else:
            node[name] = _value(op, name, attr)
    return node


def field_order(op: BirOp) -> tuple[str, ...]:
    """The JSON key order of `op` (a tiled CollectiveCompute has its own)."""
    if isinstance(op, CollectiveComputeOp) and op.tiled is not None:
        return TILED_COMPUTE_FIELDS
    return FIELD_ORDER[type(op)]


def _access_patterns(op: Operation, name: str, attr: Attribute) -> list[Json]:
    if not isinstance(attr, ArrayAttr):
        raise BirJsonError(f"'{op.name}' property '{name}' is not a list of access patterns")
    patterns: list[Json] = []
    for ap in attr.data:
        if not isinstance(ap, AccessPatternAttr):
            raise BirJsonError(f"'{op.name}' property '{name}' holds {ap}, not an access pattern")
        patterns.append(_access_pattern(ap))
    return patterns


def _access_pattern(ap: AccessPatternAttr) -> Json:
    return {"offset": ap.offset, "pattern": [[step, num] for step, num in ap.pairs]}


def _value(op: Operation, name: str, attr: Attribute) -> Json:
    if isinstance(attr, EnumAttribute):
        return attr.data.value
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    if isinstance(attr, ReplicaGroupsAttr):
        return [list(group) for group in attr.groups()]
    if isinstance(attr, SourceTargetPairsAttr):
        return [[a, b] for a, b in attr.data]
    if isinstance(attr, DimensionsAttr):
        return list(attr.data)
    if isinstance(attr, UnitAttr):
        return True
    if isinstance(attr, StringAttr):
        return attr.data
    raise BirJsonError(f"'{op.name}' property '{name}' has no JSON form: {attr}")
