"""Interpretation of add_dependency, domain, copy_start/copy_done, and the refusal of
infeed/outfeed through the run's host queues, and the refusal of the RNG ops.

- add_dependency and domain are identities; copy_start gives (operand, operand, u32 0) and
  copy_done its element 0 (our values are immutable, so no copy is made).
- infeed takes the next entry of the run's host infeed queue, outfeed appends to its outfeed
  queue (`neuron_cc.interpreter.host_feeds`; XLA reads / writes the host's transfer manager).
- rng, rng_bit_generator, rng_get_and_update_state: refused too; XLA's bits depend on the
  backend's generator and are not reproducible by us.
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation

from neuron_cc.dialects.hlo.host_feeds import InfeedOp, OutfeedOp
from neuron_cc.dialects.hlo.rng import RngBitGeneratorOp, RngGetAndUpdateStateOp, RngOp
from neuron_cc.dialects.hlo.scheduling import AddDependencyOp, CopyDoneOp, CopyStartOp, DomainOp
from neuron_cc.dialects.hlo.types import tuple_elements
from neuron_cc.interpreter.host_feeds import put_outfeed, take_infeed
from neuron_cc.interpreter.values import TOKEN, InterpretationError, spmd_state


def _no_rng(op: Operation) -> InterpretationError:
    return InterpretationError(
        f"'{op.name}' cannot be interpreted: XLA's random bits are backend-specific and not "
        "reproducible; pass the random values in as parameters",
        op,
    )


@register_impls
class HloSideEffectFunctions(InterpreterFunctions):
    """add_dependency, domain, copy_start/done, infeed, outfeed; RNG ops are refused."""

    @impl(AddDependencyOp)
    def run_add_dependency(
        self, interpreter: Interpreter, op: AddDependencyOp, args: PythonValues
    ) -> PythonValues:
        return (args[0],)

    @impl(DomainOp)
    def run_domain(
        self, interpreter: Interpreter, op: DomainOp, args: PythonValues
    ) -> PythonValues:
        return (args[0],)

    @impl(CopyStartOp)
    def run_copy_start(
        self, interpreter: Interpreter, op: CopyStartOp, args: PythonValues
    ) -> PythonValues:
        context = np.zeros(spmd_state(interpreter).num_devices, dtype=np.uint32)
        return ((args[0], args[0], context),)

    @impl(CopyDoneOp)
    def run_copy_done(
        self, interpreter: Interpreter, op: CopyDoneOp, args: PythonValues
    ) -> PythonValues:
        return (args[0][0],)

    @impl(InfeedOp)
    def run_infeed(
        self, interpreter: Interpreter, op: InfeedOp, args: PythonValues
    ) -> PythonValues:
        data_type = tuple_elements(op.result.type)[0]
        return ((take_infeed(spmd_state(interpreter), data_type, op), TOKEN),)

    @impl(OutfeedOp)
    def run_outfeed(
        self, interpreter: Interpreter, op: OutfeedOp, args: PythonValues
    ) -> PythonValues:
        put_outfeed(spmd_state(interpreter), args[0])
        return (TOKEN,)

    @impl(RngOp)
    def run_rng(self, interpreter: Interpreter, op: RngOp, args: PythonValues) -> PythonValues:
        raise _no_rng(op)

    @impl(RngBitGeneratorOp)
    def run_rng_bit_generator(
        self, interpreter: Interpreter, op: RngBitGeneratorOp, args: PythonValues
    ) -> PythonValues:
        raise _no_rng(op)

    @impl(RngGetAndUpdateStateOp)
    def run_rng_state(
        self, interpreter: Interpreter, op: RngGetAndUpdateStateOp, args: PythonValues
    ) -> PythonValues:
        raise _no_rng(op)
