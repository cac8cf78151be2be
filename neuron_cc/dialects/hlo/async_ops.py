"""Asynchronous ops of the hlo dialect: XLA's start/done pairs (docs/dialects.md §3).

A start op begins the operation and returns a handle; the matching done op, its only kind of
user, returns the result. Values and semantics are those of the synchronous op (XLA):

- `hlo.all_reduce_start` takes what `hlo.all_reduce` takes and has its result type;
  `hlo.all_reduce_done` returns it.
- `hlo.all_gather_start` takes what `hlo.all_gather` takes; its result is the tuple of the
  operands and the gathered values (XLA's `(f32[4], f32[8])`); `hlo.all_gather_done` returns
  the gathered value(s).
- `hlo.collective_permute_start` takes what `hlo.collective_permute` takes; its result is
  `tuple<T, T, tensor<ui32>, tensor<ui32>>` (operand, result, two context words);
  `hlo.collective_permute_done` returns the permuted value.
- `hlo.async_start` runs the func `@calls` on its operands asynchronously (XLA's
  `async-start(...), calls=%c`); its result is `tuple<tuple<operand types>, result type,
  context>`. `hlo.async_update` passes the handle on, `hlo.async_done` returns the result of
  the call.

`hlo-sync-collectives` rewrites every pair into the synchronous op (the called body, inlined,
for `async_start`); the default pipeline runs it first, so every other pass sees synchronous IR.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    I64,
    FlatSymbolRefAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.attributes import PairsDirective, SourceTargetPairsAttr
from neuron_cc.dialects.hlo.collectives import (
    AllGatherBase,
    AllReduceBase,
    check_variadic_result,
)
from neuron_cc.dialects.hlo.control_flow import verify_callee
from neuron_cc.dialects.hlo.p2p import verify_pairs
from neuron_cc.dialects.hlo.types import HLO_TENSOR, HLO_VALUE, tuple_type

__all__ = [
    "OPS",
    "AllGatherDoneOp",
    "AllGatherStartOp",
    "AllReduceDoneOp",
    "AllReduceStartOp",
    "AsyncDoneOp",
    "AsyncStartOp",
    "AsyncUpdateOp",
    "CollectivePermuteDoneOp",
    "CollectivePermuteStartOp",
]

_U32 = TensorType(IntegerType(32, Signedness.UNSIGNED), [])


def _start_of(done: Operation, handle: SSAValue, starts: tuple[type[Operation], ...]) -> Operation:
    owner = handle.owner
    if not isinstance(owner, starts):
        names = " or ".join(s.name for s in starts)
        raise VerifyException(f"the operand of {done.name} must be the result of {names}")
    return owner


@irdl_op_definition
class AllReduceStartOp(AllReduceBase):
    """Start an all_reduce; `hlo.all_reduce_done` returns its result."""

    name = "hlo.all_reduce_start"


@irdl_op_definition
class AllReduceDoneOp(IRDLOperation):
    """The result of the all_reduce its `hlo.all_reduce_start` operand began."""

    name = "hlo.all_reduce_done"
    handle = operand_def(HLO_VALUE)
    result = result_def(HLO_VALUE)
    assembly_format = "$handle attr-dict `:` functional-type($handle, $result)"

    def verify_(self) -> None:
        _start_of(self, self.handle, (AllReduceStartOp,))
        if self.result.type != self.handle.type:
            raise VerifyException(
                f"result {self.result.type} is not the started {self.handle.type}"
            )


@irdl_op_definition
class AllGatherStartOp(AllGatherBase):
    """Start an all_gather; the result is the tuple (operands..., gathered values...)."""

    name = "hlo.all_gather_start"

    def verify_(self) -> None:
        self.verify_groups()
        operands = [o.type for o in self.operands_]
        expected = tuple_type([*operands, *self.gathered_types()])
        if self.result.type != expected:
            raise VerifyException(f"result {self.result.type} should be {expected}")


@irdl_op_definition
class AllGatherDoneOp(IRDLOperation):
    """The gathered value(s) of the all_gather its `hlo.all_gather_start` operand began."""

    name = "hlo.all_gather_done"
    handle = operand_def(HLO_VALUE)
    result = result_def(HLO_VALUE)
    assembly_format = "$handle attr-dict `:` functional-type($handle, $result)"

    def verify_(self) -> None:
        start = _start_of(self, self.handle, (AllGatherStartOp,))
        assert isinstance(start, AllGatherStartOp)
        elements = list(tuple_elements_of(self.handle.type))
        gathered = elements[len(start.operands_) :]
        check_variadic_result(gathered, self.result.type, gathered)


def tuple_elements_of(t: Attribute) -> tuple[Attribute, ...]:
    if not isinstance(t, TupleType):
        raise VerifyException(f"expected a tuple handle, got {t}")
    return tuple(t.types.data)


@irdl_op_definition
class CollectivePermuteStartOp(IRDLOperation):
    """Start a collective_permute; the result is (operand, result, ui32 context, ui32 context)."""

    name = "hlo.collective_permute_start"
    operand = operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    source_target_pairs = prop_def(SourceTargetPairsAttr)
    channel_id = opt_prop_def(IntegerAttr[I64])

    assembly_format = (
        "$operand `pairs` `=` custom<Pairs>($source_target_pairs) "
        "(`channel_id` `=` $channel_id^)? attr-dict `:` functional-type($operand, $result)"
    )
    custom_directives = (PairsDirective,)

    def verify_(self) -> None:
        verify_pairs(self, self.source_target_pairs, self.channel_id)
        t = self.operand.type
        expected = tuple_type([t, t, _U32, _U32])
        if self.result.type != expected:
            raise VerifyException(f"result {self.result.type} should be {expected}")


@irdl_op_definition
class CollectivePermuteDoneOp(IRDLOperation):
    """The permuted value of the collective_permute its start operand began."""

    name = "hlo.collective_permute_done"
    handle = operand_def(HLO_VALUE)
    result = result_def(HLO_TENSOR)
    assembly_format = "$handle attr-dict `:` functional-type($handle, $result)"

    def verify_(self) -> None:
        _start_of(self, self.handle, (CollectivePermuteStartOp,))
        elements = tuple_elements_of(self.handle.type)
        if self.result.type != elements[1]:
            raise VerifyException(f"result {self.result.type} should be {elements[1]}")


_THREAD = "(`execution_thread` `=` $execution_thread^)? "


class _AsyncOp(IRDLOperation):
    execution_thread = opt_prop_def(StringAttr)
    """XLA's `async_execution_thread` (absent: "main")."""


class _AsyncUse(_AsyncOp):
    """async_update / async_done: `calls` and `execution_thread`, if given, must be the
    start's (XLA infers them)."""

    handle = operand_def(HLO_VALUE)
    result = result_def(HLO_VALUE)
    calls = opt_prop_def(FlatSymbolRefAttr)
    assembly_format = (
        "$handle (`calls` `=` $calls^)? "
        + _THREAD
        + "attr-dict `:` functional-type($handle, $result)"
    )

    def verify_handle(self) -> tuple[Attribute, ...]:
        _start_of(self, self.handle, (AsyncStartOp, AsyncUpdateOp))
        start = async_start_of(self)
        if self.calls is not None and self.calls != start.calls:
            raise VerifyException(
                f"calls {self.calls} is not the computation of its async_start, {start.calls}"
            )
        if self.execution_thread is not None and self.execution_thread != start.execution_thread:
            raise VerifyException("the execution thread is not the one of its async_start")
        return tuple_elements_of(self.handle.type)


@irdl_op_definition
class AsyncStartOp(_AsyncOp):
    """Call `@calls` on the operands asynchronously: `tuple<tuple<operands>, result, ctx>`."""

    name = "hlo.async_start"
    calls = prop_def(FlatSymbolRefAttr)
    args = var_operand_def(HLO_VALUE)
    result = result_def(HLO_VALUE)
    assembly_format = (
        "$calls `(` $args `)` " + _THREAD + "attr-dict `:` functional-type($args, $result)"
    )

    def verify_(self) -> None:
        elements = tuple_elements_of(self.result.type)
        if len(elements) < 2:
            raise VerifyException("the handle is tuple<tuple<operands>, result, context...>")
        if elements[0] != tuple_type([a.type for a in self.args]):
            raise VerifyException(
                f"the handle's first element {elements[0]} is not the tuple of the operands"
            )
        verify_callee(self, self.calls, [a.type for a in self.args], elements[1])


@irdl_op_definition
class AsyncUpdateOp(_AsyncUse):
    """Pass the handle of an async computation on (no effect on the values)."""

    name = "hlo.async_update"

    def verify_(self) -> None:
        self.verify_handle()
        if self.result.type != self.handle.type:
            raise VerifyException(f"result {self.result.type} is not the handle {self.handle.type}")


@irdl_op_definition
class AsyncDoneOp(_AsyncUse):
    """The result of the async computation whose handle is the operand."""

    name = "hlo.async_done"

    def verify_(self) -> None:
        elements = self.verify_handle()
        if self.result.type != elements[1]:
            raise VerifyException(f"result {self.result.type} should be {elements[1]}")


def async_start_of(op: _AsyncUse) -> AsyncStartOp:
    """The `hlo.async_start` at the root of an update/done chain."""
    owner = op.handle.owner
    while isinstance(owner, AsyncUpdateOp):
        owner = owner.handle.owner
    if not isinstance(owner, AsyncStartOp):
        raise VerifyException(f"{op.name} is not fed by hlo.async_start")
    return owner


OPS: list[type[Operation]] = [
    AllReduceStartOp,
    AllReduceDoneOp,
    AllGatherStartOp,
    AllGatherDoneOp,
    CollectivePermuteStartOp,
    CollectivePermuteDoneOp,
    AsyncStartOp,
    AsyncUpdateOp,
    AsyncDoneOp,
]
