"""Interpretation of the hlo dialect's structural and control-flow ops.

`while` and `conditional` need a predicate/index that is identical on every device (SPMD
programs branch uniformly); otherwise the run stops with "divergent control flow at <loc>:
devices ... disagree". `custom_call` runs only the `xla.sdy.*` sharding markers, as identities
on per-partition programs (where they do not change the shape).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation

from neuron_cc.dialects.hlo.control_flow import (
    AfterAllOp,
    CallOp,
    ConditionalOp,
    CustomCallOp,
    GetTupleElementOp,
    OptimizationBarrierOp,
    ReturnOp,
    TupleOp,
    WhileOp,
)
from neuron_cc.dialects.hlo.p2p import PartitionIdOp, ReplicaIdOp
from neuron_cc.interpreter.values import TOKEN, InterpretationError, spmd_state

IDENTITY_CUSTOM_CALLS = frozenset(
    {
        "xla.sdy.GlobalToLocalShape",
        "xla.sdy.LocalToGlobalShape",
        "xla.sdy.FuncResultSharding",
        "Sharding",
        "SPMDFullToShardShape",
        "SPMDShardToFullShape",
        "CoreBarrier",
    }
)
"""Custom calls that pass their one operand through (the sharding markers; CoreBarrier, a
rendezvous that leaves its semaphore's data unchanged, as bir.core_barrier does)."""


def describe(op: Operation) -> str:
    """`'hlo.while' (%name)` for messages."""
    hint = op.results[0].name_hint if op.results else None
    return f"'{op.name}'" + (f" (%{hint})" if hint else "")


def uniform_scalar(op: Operation, value: np.ndarray[Any, Any], what: str) -> int:
    """The single value every device holds, or a divergence error naming the devices."""
    flat = value.reshape(value.shape[0])
    first = flat[0]
    disagree = np.nonzero(flat != first)[0]
    if disagree.size:
        raise InterpretationError(
            f"divergent control flow at {describe(op)}: devices 0 and "
            f"{', '.join(map(str, disagree[:8]))} disagree on the {what} "
            f"({first} vs {flat[disagree[0]]})"
        )
    return int(first)


@register_impls
class HloControlFlowFunctions(InterpreterFunctions):
    """tuple, get_tuple_element, while, conditional, call, custom_call, barriers, ids."""

    @impl_terminator(ReturnOp)
    def run_return(
        self, interpreter: Interpreter, op: ReturnOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl(TupleOp)
    def run_tuple(self, interpreter: Interpreter, op: TupleOp, args: PythonValues) -> PythonValues:
        return (tuple(args),)

    @impl(GetTupleElementOp)
    def run_gte(
        self, interpreter: Interpreter, op: GetTupleElementOp, args: PythonValues
    ) -> PythonValues:
        return (args[0][op.index.value.data],)

    @impl(WhileOp)
    def run_while(self, interpreter: Interpreter, op: WhileOp, args: PythonValues) -> PythonValues:
        state = args[0]
        limit = spmd_state(interpreter).max_while_iterations
        iterations = 0
        while True:
            (pred,) = interpreter.run_ssacfg_region(op.condition, (state,), "while.condition")
            if not uniform_scalar(op, pred, "loop condition"):
                return (state,)
            if 0 < limit <= iterations:
                raise InterpretationError(
                    f"{describe(op)} is still running after {limit} iterations (an infinite "
                    "loop?); raise the limit with --max-while-iterations",
                    op,
                )
            iterations += 1
            (state,) = interpreter.run_ssacfg_region(op.body, (state,), "while.body")

    @impl(ConditionalOp)
    def run_conditional(
        self, interpreter: Interpreter, op: ConditionalOp, args: PythonValues
    ) -> PythonValues:
        index = uniform_scalar(op, args[0], "branch index")
        branches = list(op.branches)
        if args[0].dtype == np.bool_:
            branch = 0 if index else 1
        else:
            branch = index if 0 <= index < len(branches) else len(branches) - 1
        return interpreter.run_ssacfg_region(branches[branch], (args[1 + branch],), "branch")

    @impl(CallOp)
    def run_call(self, interpreter: Interpreter, op: CallOp, args: PythonValues) -> PythonValues:
        return interpreter.call_op(op.callee, args)

    @impl(CustomCallOp)
    def run_custom_call(
        self, interpreter: Interpreter, op: CustomCallOp, args: PythonValues
    ) -> PythonValues:
        target = op.call_target_name.data
        if target not in IDENTITY_CUSTOM_CALLS:
            raise InterpretationError(f"cannot interpret custom_call target {target}")
        if len(args) != 1 or op.inputs[0].type != op.result.type:
            raise InterpretationError(
                f"cannot interpret custom_call target {target} that changes the shape "
                f"({op.inputs[0].type if op.inputs else '()'} -> {op.result.type}): "
                "global-view programs are not supported, run the partitioned program"
            )
        return (args[0],)

    @impl(OptimizationBarrierOp)
    def run_barrier(
        self, interpreter: Interpreter, op: OptimizationBarrierOp, args: PythonValues
    ) -> PythonValues:
        return (args[0],)

    @impl(AfterAllOp)
    def run_after_all(
        self, interpreter: Interpreter, op: AfterAllOp, args: PythonValues
    ) -> PythonValues:
        return (TOKEN,)

    @impl(PartitionIdOp)
    def run_partition_id(
        self, interpreter: Interpreter, op: PartitionIdOp, args: PythonValues
    ) -> PythonValues:
        state = spmd_state(interpreter)
        ids = np.arange(state.num_devices, dtype=np.uint32) % np.uint32(state.num_partitions)
        return (ids,)

    @impl(ReplicaIdOp)
    def run_replica_id(
        self, interpreter: Interpreter, op: ReplicaIdOp, args: PythonValues
    ) -> PythonValues:
        state = spmd_state(interpreter)
        ids = np.arange(state.num_devices, dtype=np.uint32) // np.uint32(state.num_partitions)
        return (ids,)
