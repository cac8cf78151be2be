"""Interpretation of the asynchronous ops (`neuron_cc.dialects.hlo.async_ops`).

The simulation is synchronous: a start op computes the whole operation when it runs, as the
synchronous op would, and its handle carries the result; the done op returns it. XLA's values
are the same whichever point between start and done the data moves at, because nothing but
the done op reads the handle (the verifier checks that). The context words of the handles
(`u32[]`/`s32[]`) are zeros, as nothing observes them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from neuron_cc.dialects.hlo.async_ops import (
    AllGatherDoneOp,
    AllGatherStartOp,
    AllReduceDoneOp,
    AllReduceStartOp,
    AsyncDoneOp,
    AsyncStartOp,
    AsyncUpdateOp,
    CollectivePermuteDoneOp,
    CollectivePermuteStartOp,
)
from neuron_cc.dialects.hlo.types import tuple_elements
from neuron_cc.interpreter.collectives import (
    all_gather_values,
    all_reduce_values,
    permuted_value,
)
from neuron_cc.interpreter.values import element_of, numpy_dtype, spmd_state

__all__ = ["HloAsyncFunctions"]


def _context(interpreter: Interpreter, types: Any) -> tuple[Any, ...]:
    devices = spmd_state(interpreter).num_devices
    return tuple(np.zeros(devices, numpy_dtype(element_of(t))) for t in types)


@register_impls
class HloAsyncFunctions(InterpreterFunctions):
    """Start ops compute; update ops pass the handle on; done ops return the result."""

    @impl(AllReduceStartOp)
    def run_all_reduce_start(
        self, interpreter: Interpreter, op: AllReduceStartOp, args: PythonValues
    ) -> PythonValues:
        values = all_reduce_values(interpreter, op, args)
        return (tuple(values) if len(values) > 1 else values[0],)

    @impl(AllGatherStartOp)
    def run_all_gather_start(
        self, interpreter: Interpreter, op: AllGatherStartOp, args: PythonValues
    ) -> PythonValues:
        return ((*args, *all_gather_values(interpreter, op, args)),)

    @impl(CollectivePermuteStartOp)
    def run_collective_permute_start(
        self, interpreter: Interpreter, op: CollectivePermuteStartOp, args: PythonValues
    ) -> PythonValues:
        permuted = permuted_value(interpreter, op, args)
        context = _context(interpreter, tuple_elements(op.result.type)[2:])
        return ((args[0], permuted, *context),)

    @impl(AsyncStartOp)
    def run_async_start(
        self, interpreter: Interpreter, op: AsyncStartOp, args: PythonValues
    ) -> PythonValues:
        (result,) = interpreter.call_op(op.calls, args)
        context = _context(interpreter, tuple_elements(op.result.type)[2:])
        return ((tuple(args), result, *context),)

    @impl(AllReduceDoneOp)
    def run_all_reduce_done(
        self, interpreter: Interpreter, op: AllReduceDoneOp, args: PythonValues
    ) -> PythonValues:
        return (args[0],)

    @impl(AsyncUpdateOp)
    def run_async_update(
        self, interpreter: Interpreter, op: AsyncUpdateOp, args: PythonValues
    ) -> PythonValues:
        return (args[0],)

    @impl(AllGatherDoneOp)
    def run_all_gather_done(
        self, interpreter: Interpreter, op: AllGatherDoneOp, args: PythonValues
    ) -> PythonValues:
        start = op.handle.owner
        assert isinstance(start, AllGatherStartOp)
        gathered = args[0][len(start.operands_) :]
        return (tuple(gathered) if len(gathered) > 1 else gathered[0],)

    @impl(CollectivePermuteDoneOp)
    def run_collective_permute_done(
        self, interpreter: Interpreter, op: CollectivePermuteDoneOp, args: PythonValues
    ) -> PythonValues:
        return (args[0][1],)

    @impl(AsyncDoneOp)
    def run_async_done(
        self, interpreter: Interpreter, op: AsyncDoneOp, args: PythonValues
    ) -> PythonValues:
        return (args[0][1],)
