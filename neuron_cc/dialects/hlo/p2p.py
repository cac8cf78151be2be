"""Point-to-point collectives and device ids of the hlo dialect.

- `hlo.collective_permute`: device `source` sends its operand to device `target` for every
  pair; a device that is no pair's target receives zeros. Ids are replica ids without a
  channel id, partition ids with one (XLA's cross_replica / cross_partition modes).
- `hlo.send` / `hlo.send_done` / `hlo.recv` / `hlo.recv_done`: XLA's asynchronous pairs with
  XLA's shapes: send -> (data, u32[], token), recv -> (data, u32[], token),
  recv_done -> (data, token), send_done -> token. Peers come from the
  `_xla_send_recv_source_target_pairs` frontend attribute (kept in the attribute dictionary).
- `hlo.partition_id` / `hlo.replica_id`: this device's partition / replica number (u32).

```mlir
%y = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 1 : tensor<4xf32>
```
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    TupleType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    EqAttrConstraint,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.attributes import PairsDirective, SourceTargetPairsAttr
from neuron_cc.dialects.hlo.collectives import checked_device_counts
from neuron_cc.dialects.hlo.types import HLO_TENSOR, TokenType, tuple_elements, tuple_type
from neuron_cc.dialects.replica_groups import (
    group_mode,
    id_space_size,
)

UI32 = IntegerType(32, Signedness.UNSIGNED)
U32_SCALAR = TensorType(UI32, [])


@irdl_op_definition
class CollectivePermuteOp(IRDLOperation):
    """Send the operand along `source_target_pairs`; non-targets receive zeros."""

    name = "hlo.collective_permute"
    T: ClassVar = VarConstraint("T", HLO_TENSOR)
    operand = operand_def(T)
    result = result_def(T)
    source_target_pairs = prop_def(SourceTargetPairsAttr)
    channel_id = opt_prop_def(IntegerAttr[I64])

    assembly_format = (
        "$operand `pairs` `=` custom<Pairs>($source_target_pairs) "
        "(`channel_id` `=` $channel_id^)? attr-dict `:` type($operand)"
    )
    custom_directives = (PairsDirective,)

    def verify_(self) -> None:
        verify_pairs(self, self.source_target_pairs, self.channel_id)


def verify_pairs(
    op: Operation, pairs_attr: SourceTargetPairsAttr, channel_id: IntegerAttr | None
) -> None:
    """Every source and target id of a collective permute is a device id of its group mode,
    and none appears twice."""
    verify_pair_ids(op, pairs_attr, channel_id, unique=True)


def verify_pair_ids(
    op: Operation,
    pairs_attr: SourceTargetPairsAttr,
    channel_id: IntegerAttr | None,
    unique: bool = False,
) -> None:
    """Every source and target id is a device id of the group mode (with `unique`: none
    appears twice)."""
    mode = group_mode(channel_id is not None, False, has_global_ids_flag=False)
    r, p = checked_device_counts(op)
    n = id_space_size(mode, r, p)
    pairs = pairs_attr.data
    for what, ids in (("source", [a for a, _ in pairs]), ("target", [b for _, b in pairs])):
        seen: set[int] = set()
        for i in ids:
            if not 0 <= i < n:
                raise VerifyException(
                    f"{what} id {i} is outside [0, {n}) ({mode} mode, {r} replicas x {p} partitions)"
                )
            if unique and i in seen:
                raise VerifyException(f"{what} id {i} appears in more than one pair")
            seen.add(i)


class _ChannelOp(IRDLOperation):
    channel_id = prop_def(IntegerAttr[I64])
    is_host_transfer = opt_prop_def(UnitAttr)

    def verify_channel(self) -> None:
        if self.channel_id.value.data <= 0:
            raise VerifyException(f"channel_id must be positive, got {self.channel_id.value.data}")


def _async_tuple(data: Attribute) -> TupleType:
    return tuple_type([data, U32_SCALAR, TokenType()])


def _check_tuple(t: Attribute, expected: TupleType, what: str) -> None:
    if t != expected:
        raise VerifyException(f"{what} must have type {expected}, got {t}")


_CHANNEL_FLAGS = "`channel_id` `=` $channel_id (`is_host_transfer` $is_host_transfer^)?"


@irdl_op_definition
class SendOp(_ChannelOp):
    """Starts sending `data`: `hlo.send %d, %tok channel_id = 1 : tensor<4xf32>`."""

    name = "hlo.send"
    data = operand_def(HLO_TENSOR)
    token = operand_def(TokenType)
    result = result_def(TupleType)
    assembly_format = (
        "$data `,` $token " + _CHANNEL_FLAGS + " attr-dict `:` type($data) `->` type($result)"
    )

    def verify_(self) -> None:
        self.verify_channel()
        _check_tuple(self.result.type, _async_tuple(self.data.type), "send result")


@irdl_op_definition
class SendDoneOp(_ChannelOp):
    """Waits for a send: `%t = hlo.send_done %s channel_id = 1 : tuple<...>`."""

    name = "hlo.send_done"
    operand = operand_def(TupleType)
    result = result_def(TokenType)
    assembly_format = "$operand " + _CHANNEL_FLAGS + " attr-dict `:` type($operand)"

    def verify_(self) -> None:
        self.verify_channel()
        types = tuple_elements(self.operand.type)
        if len(types) != 3 or types[1:] != (U32_SCALAR, TokenType()):
            raise VerifyException(
                f"send_done operand must be a send result, got {self.operand.type}"
            )


@irdl_op_definition
class RecvOp(_ChannelOp):
    """Starts receiving: `%r = hlo.recv %tok channel_id = 1 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>`."""

    name = "hlo.recv"
    token = operand_def(TokenType)
    result = result_def(TupleType)
    assembly_format = "$token " + _CHANNEL_FLAGS + " attr-dict `:` type($result)"

    def verify_(self) -> None:
        self.verify_channel()
        types = tuple_elements(self.result.type)
        if len(types) != 3 or not isinstance(types[0], TensorType):
            raise VerifyException(
                f"recv result must be (data, u32[], token), got {self.result.type}"
            )
        _check_tuple(self.result.type, _async_tuple(types[0]), "recv result")


@irdl_op_definition
class RecvDoneOp(_ChannelOp):
    """Waits for a recv and yields (data, token)."""

    name = "hlo.recv_done"
    operand = operand_def(TupleType)
    result = result_def(TupleType)
    assembly_format = (
        "$operand " + _CHANNEL_FLAGS + " attr-dict `:` type($operand) `->` type($result)"
    )

    def verify_(self) -> None:
        self.verify_channel()
        types = tuple_elements(self.operand.type)
        if len(types) != 3 or not isinstance(types[0], TensorType):
            raise VerifyException(
                f"recv_done operand must be a recv result, got {self.operand.type}"
            )
        _check_tuple(self.operand.type, _async_tuple(types[0]), "recv_done operand")
        _check_tuple(self.result.type, tuple_type([types[0], TokenType()]), "recv_done result")


@irdl_op_definition
class PartitionIdOp(IRDLOperation):
    """This device's partition number: `%p = hlo.partition_id : tensor<ui32>`."""

    name = "hlo.partition_id"
    traits = traits_def(NoMemoryEffect())
    result = result_def(EqAttrConstraint(U32_SCALAR))
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self) -> None:
        super().__init__(result_types=[U32_SCALAR])


@irdl_op_definition
class ReplicaIdOp(IRDLOperation):
    """This device's replica number: `%r = hlo.replica_id : tensor<ui32>`."""

    name = "hlo.replica_id"
    traits = traits_def(NoMemoryEffect())
    result = result_def(EqAttrConstraint(U32_SCALAR))
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self) -> None:
        super().__init__(result_types=[U32_SCALAR])


OPS: list[type[Operation]] = [
    CollectivePermuteOp,
    SendOp,
    SendDoneOp,
    RecvOp,
    RecvDoneOp,
    PartitionIdOp,
    ReplicaIdOp,
]
