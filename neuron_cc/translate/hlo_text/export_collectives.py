"""Exporting the collective ops (synchronous and asynchronous) to XLA HLO text: one handler
per op, each returning the instruction's text after the shape (`all-reduce(%x), channel_id=1,
replica_groups={...}, to_apply=%region_0`). `exporter.py` dispatches to them.

The asynchronous pairs print as XLA writes them: `all-reduce-start`/`all-reduce-done`,
`all-gather-start`/`all-gather-done`, `collective-permute-start`/`collective-permute-done`, and
`async-start(...)`, `async-update`, `async-done` with `calls=%<computation>` (and
`async_execution_thread="..."` when not the main thread).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from xdsl.ir import Operation, Region, SSAValue

from neuron_cc.dialects.hlo import async_ops, collectives, p2p, ragged_all_to_all
from neuron_cc.dialects.hlo.combined_permute import CombinedCollectivePermuteOp as CombinedPermute
from neuron_cc.dialects.hlo.in_place_permute import InPlaceCollectivePermuteOp as InPlacePermute
from neuron_cc.translate.hlo_text.export_text import ExportError, groups_text, int_value, opcode_of
from neuron_cc.translate.hlo_text.shapes import escape_string


class _Computations(Protocol):
    def region(self, region: Region, op: Operation, what: str) -> str: ...
    def callee(self, symbol: str, caller: str) -> str: ...


class Builder(Protocol):
    """What a handler needs of the exporter's computation builder."""

    @property
    def x(self) -> _Computations: ...
    @property
    def what(self) -> str: ...
    def ref(self, value: SSAValue) -> str: ...
    def refs(self, values: Iterable[SSAValue]) -> str: ...


__all__ = ["COLLECTIVE_HANDLERS", "to_apply"]


def _opcode(op: Operation) -> str:
    return opcode_of(op.name)


def _collective_head(b: Builder, op: collectives.CollectiveOp) -> list[str]:
    parts = [f"{_opcode(op)}({b.refs(op.operands)})"]
    if op.channel_id is not None:
        parts.append(f"channel_id={int_value(op.channel_id)}")
    parts.append(f"replica_groups={groups_text(op.replica_groups)}")
    if op.constrain_layout is not None:
        parts.append("constrain_layout=true")
    return parts


def to_apply(b: Builder, region: Region, op: Operation) -> str:
    return f"to_apply=%{b.x.region(region, op, b.what)}"


def _all_reduce(b: Builder, op: collectives.AllReduceBase) -> str:
    parts = _collective_head(b, op)
    if op.use_global_device_ids is not None:
        parts.append("use_global_device_ids=true")
    parts.append(to_apply(b, op.to_apply, op))
    return ", ".join(parts)


def _all_gather(b: Builder, op: collectives.AllGatherBase) -> str:
    parts = _collective_head(b, op)
    parts.append(f"dimensions={{{int_value(op.all_gather_dimension)}}}")
    if op.use_global_device_ids is not None:
        parts.append("use_global_device_ids=true")
    return ", ".join(parts)


def _reduce_scatter(b: Builder, op: collectives.ReduceScatterOp) -> str:
    parts = _collective_head(b, op)
    if op.use_global_device_ids is not None:
        parts.append("use_global_device_ids=true")
    parts.append(f"dimensions={{{int_value(op.scatter_dimension)}}}")
    parts.append(to_apply(b, op.to_apply, op))
    return ", ".join(parts)


def _all_to_all(b: Builder, op: collectives.AllToAllOp) -> str:
    parts = _collective_head(b, op)
    if op.split_dimension is not None:
        parts.append(f"dimensions={{{int_value(op.split_dimension)}}}")
    return ", ".join(parts)


def _all_to_all_head(b: Builder, op: collectives.CollectiveOp) -> str:
    if op.constrain_layout is not None:
        raise ExportError(f"{op.name} in {b.what}: XLA's {_opcode(op)} has no constrain_layout")
    return ", ".join(_collective_head(b, op))


def _collective_broadcast(b: Builder, op: collectives.CollectiveBroadcastOp) -> str:
    if op.constrain_layout is not None:
        raise ExportError(
            f"{op.name} in {b.what}: XLA's collective-broadcast has no constrain_layout"
        )
    return ", ".join(_collective_head(b, op))


def _collective_permute(
    b: Builder,
    op: p2p.CollectivePermuteOp
    | async_ops.CollectivePermuteStartOp
    | CombinedPermute
    | InPlacePermute,
) -> str:
    parts = [f"{_opcode(op)}({b.refs(op.operands)})"]
    if op.channel_id is not None:
        parts.append(f"channel_id={int_value(op.channel_id)}")
    pairs = ",".join(f"{{{s},{t}}}" for s, t in op.source_target_pairs.data)
    parts.append(f"source_target_pairs={{{pairs}}}")
    return ", ".join(parts)


def _done(b: Builder, op: Operation) -> str:
    return f"{_opcode(op)}({b.refs(op.operands)})"


def _async(
    b: Builder, op: async_ops.AsyncStartOp | async_ops.AsyncUpdateOp | async_ops.AsyncDoneOp
) -> str:
    """`calls=` always on async-start, on update/done where the IR has it (XLA infers it)."""
    parts = [f"{_opcode(op)}({b.refs(op.operands)})"]
    if op.calls is not None:
        callee = b.x.callee(op.calls.root_reference.data, f"{op.name} in {b.what}")
        parts.append(f"calls=%{callee}")
    if op.execution_thread is not None:
        parts.append(f'async_execution_thread="{escape_string(op.execution_thread.data)}"')
    return ", ".join(parts)


COLLECTIVE_HANDLERS: dict[type[Operation], Callable[[Any, Any], str]] = {
    collectives.AllReduceOp: _all_reduce,
    collectives.AllGatherOp: _all_gather,
    collectives.ReduceScatterOp: _reduce_scatter,
    collectives.AllToAllOp: _all_to_all,
    ragged_all_to_all.RaggedAllToAllOp: _all_to_all_head,
    collectives.CollectiveBroadcastOp: _collective_broadcast,
    p2p.CollectivePermuteOp: _collective_permute,
    CombinedPermute: _collective_permute,
    InPlacePermute: _collective_permute,
    async_ops.AllReduceStartOp: _all_reduce,
    async_ops.AllGatherStartOp: _all_gather,
    async_ops.CollectivePermuteStartOp: _collective_permute,
    async_ops.AllReduceDoneOp: _done,
    async_ops.AllGatherDoneOp: _done,
    async_ops.CollectivePermuteDoneOp: _done,
    async_ops.AsyncStartOp: _async,
    async_ops.AsyncUpdateOp: _async,
    async_ops.AsyncDoneOp: _async,
}
"""Handler per collective op class."""
