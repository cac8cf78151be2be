"""Running an hlo module on R x P simulated devices.

`run_module(module, inputs)` executes the entry function (marked `hlo.entry`, else `@main`,
else the only function) with every value holding all devices at once, and returns the
outputs (the entry's tuple result is flattened into outputs 0..N-1, like XLA's output tuple)
and the collective statistics. `inputs_from_npz` / `outputs_to_npz` use the corpus naming:
`arg<I>_dev<D>` (or `arg<I>` for a value replicated on every device) and `out<J>_dev<D>`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr, TupleType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    OpImplResult,
    PythonValues,
    ReturnedValues,
    _InterpreterFunctionImpls,
)
from xdsl.interpreters.func import FuncFunctions
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import InterpretationError as XdslInterpretationError

from neuron_cc.analysis.entry import find_entry
from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.interpreter.host_feeds import cast_host_array, check_infeed_drained
from neuron_cc.interpreter.liveness import release_plan
from neuron_cc.interpreter.values import (
    DEFAULT_MAX_VALUE_BYTES,
    DEFAULT_MAX_WHILE_ITERATIONS,
    InterpretationError,
    SpmdState,
    Value,
    attach_state,
    storage_bytes,
)

Array = np.ndarray[Any, Any]


@dataclass
class RunResult:
    outputs: list[Value]
    """One value per output (leading device axis)."""
    output_types: list[Attribute]
    state: SpmdState


def _function_tables() -> list[InterpreterFunctions]:
    from neuron_cc.interpreter.async_ops import HloAsyncFunctions
    from neuron_cc.interpreter.batch_norm import HloBatchNormFunctions
    from neuron_cc.interpreter.bir import HloBirFunctions
    from neuron_cc.interpreter.collectives import HloCollectiveFunctions
    from neuron_cc.interpreter.computation import HloComputationFunctions
    from neuron_cc.interpreter.control_flow import HloControlFlowFunctions
    from neuron_cc.interpreter.data_movement import HloDataMovementFunctions
    from neuron_cc.interpreter.elementwise import HloElementwiseFunctions
    from neuron_cc.interpreter.fft import HloFftFunctions
    from neuron_cc.interpreter.linalg import HloLinalgFunctions
    from neuron_cc.interpreter.ragged_all_to_all import HloRaggedAllToAllFunctions
    from neuron_cc.interpreter.side_effect_ops import HloSideEffectFunctions
    from neuron_cc.interpreter.structured_ops import HloStructuredFunctions

    return [
        FuncFunctions(),
        HloControlFlowFunctions(),
        HloCollectiveFunctions(),
        HloAsyncFunctions(),
        HloElementwiseFunctions(),
        HloDataMovementFunctions(),
        HloComputationFunctions(),
        HloStructuredFunctions(),
        HloRaggedAllToAllFunctions(),
        HloSideEffectFunctions(),
        HloBatchNormFunctions(),
        HloLinalgFunctions(),
        HloFftFunctions(),
        HloBirFunctions(),
    ]


def _callee(op: Operation) -> str | None:
    """The callee name of a call op (`hlo.call`, `func.call`), else None."""
    callee = op.properties.get("callee")
    return callee.string_value() if isinstance(callee, SymbolRefAttr) else None


TICK_MASK = (1 << 16) - 1
"""`RunGuard.on_ops` is called every 65,536 interpreted ops."""


class RunGuard:
    """Safety checks around every interpreted op (see notes/INTERPRETER_SAFETY.md).

    Keeps the stack of ops being run (the innermost one is blamed for an error without an op),
    refuses a result bigger than `state.max_value_bytes` before it is computed, and refuses a
    call of a computation that is already running (HLO has no recursion). `_HloInterpreter`
    calls `admit` before every op (not an xDSL listener: two calls per op fewer).
    """

    def __init__(self, state: SpmdState, on_ops: Callable[[int], None] | None = None) -> None:
        self.state = state
        self.on_ops = on_ops
        """Called with TICK_MASK + 1 every that many interpreted ops (progress display)."""
        self.count = 0
        self.running: list[Operation] = []
        limit = state.max_value_bytes
        self.max_bytes_per_device = limit // state.num_devices if limit > 0 else None
        """A result bigger than this on one device is refused (None: no limit)."""
        self.facts: dict[Operation, tuple[str | None, int]] = {}
        """Per op: its callee (None if not a call) and result size, read once per run."""

    def admit(self, op: Operation) -> int:
        """Check `op` before it runs and push it; the stack depth before the push."""
        self.count += 1
        if not self.count & TICK_MASK and self.on_ops is not None:
            self.on_ops(TICK_MASK + 1)
        facts = self.facts.get(op)
        if facts is None:
            facts = self.facts[op] = (_callee(op), _result_bytes(op))
        callee, size = facts
        if callee is not None:
            self._check_call(op, callee)
        limit = self.max_bytes_per_device
        if limit is not None and size > limit:
            raise self._too_big(op, size)
        depth = len(self.running)
        self.running.append(op)
        return depth

    def _check_call(self, op: Operation, callee: str) -> None:
        calls = [c for c in map(_callee, self.running) if c is not None]
        if callee in calls:
            chain = " -> ".join(f"@{c}" for c in [*calls, callee])
            raise InterpretationError(
                f"recursive call of @{callee} ({chain}): HLO computations cannot recurse", op
            )

    def _too_big(self, op: Operation, size: int) -> InterpretationError:
        total = size * self.state.num_devices
        return InterpretationError(
            f"'{op.name}' would produce {total} bytes ({size} bytes on each of "
            f"{self.state.num_devices} devices), over the interpreter's limit of "
            f"{self.state.max_value_bytes} bytes per value",
            op,
        )

    def innermost(self) -> Operation | None:
        return self.running[-1] if self.running else None


def _result_bytes(op: Operation) -> int:
    """Storage bytes of the op's biggest result on one device (0 where a type has no size)."""
    try:
        return max((storage_bytes(r.type) for r in op.results), default=0)
    except InterpretationError:
        return 0


class _QuietImpls(_InterpreterFunctionImpls):
    """xDSL's implementation table without its error handler, which prints the WHOLE module
    into the exception's notes at every nesting level an error passes through (seconds per
    level on big modules, and a RecursionError of its own on deeply nested ones)."""

    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> OpImplResult:
        entry = self._impl_dict.get(type(op))
        if entry is None:
            raise InterpretationError(f"no interpretation of '{op.name}'", op)
        ft, implementation = entry
        return implementation(ft, interpreter, op, args)


@dataclass
class _HloInterpreter(Interpreter):
    """xDSL's interpreter with a leaner `run_ssacfg_region`: the same scopes, listeners and
    terminator handling, without the per-op generator, helper calls and operand-count check
    (the module is verified; an implementation returning the wrong number of results is
    still an error). Region interpretation is most of the interpreter's own cost on big
    programs: every op of every loop iteration goes through it. A value is dropped from its
    scope after its last use (`liveness.release_plan`), so a big program's memory is its live
    set, not every array it ever computed."""

    guard: RunGuard = field(kw_only=True)
    _release_plans: dict[Block, dict[Operation, tuple[SSAValue, ...]]] = field(
        default_factory=lambda: {}
    )

    def run_ssacfg_region(
        self, region: Region, args: PythonValues, name: str = "unknown"
    ) -> PythonValues:
        block = region.blocks.first
        results: PythonValues = ()
        plans = self._release_plans
        initial_scope = self._ctx
        run = self._impls.run
        listeners = self.listeners
        admit, running = self.guard.admit, self.guard.running
        while block is not None:
            self.push_scope(name)
            scope = self._ctx
            local = cast(dict[SSAValue, Any], scope.local_scope)
            local.update(zip(block.args, args))
            plan = plans.get(block) or self._plan(block)
            op = block.first_op
            block = None
            while op is not None:
                inputs = tuple(local[v] if v in local else scope[v] for v in op.operands)
                depth = admit(op)
                for listener in listeners:
                    listener.will_interpret_op(op, inputs)
                result = run(self, op, inputs)
                values = _checked(op, result.values)
                for listener in listeners:
                    listener.did_interpret_op(op, values)
                # Ops above `op` are stale: they raised an exception that an implementation caught.
                del running[depth:]
                local.update(zip(op.results, values))
                dead = plan.get(op)
                if dead is not None:
                    for value in dead:
                        del local[value]
                terminator = result.terminator_value
                if terminator is not None:
                    if isinstance(terminator, ReturnedValues):
                        results = terminator.values
                    else:
                        block, args = terminator
                    break
                op = op.next_op
        self._ctx = initial_scope
        return results

    def _plan(self, block: Block) -> dict[Operation, tuple[SSAValue, ...]]:
        plan = self._release_plans[block] = release_plan(block)
        return plan


def _checked(op: Operation, values: PythonValues) -> PythonValues:
    if len(values) != len(op.results):
        raise XdslInterpretationError(
            f"Incorrect number of results for op {op.name}, expected "
            f"{len(op.results)} but got {len(values)}"
        )
    return values


def make_interpreter(
    module: ModuleOp, state: SpmdState, on_ops: Callable[[int], None] | None = None
) -> _HloInterpreter:
    """An xDSL interpreter with every hlo implementation registered and `state` attached."""
    interpreter = _HloInterpreter(module, _impls=_QuietImpls(), guard=RunGuard(state, on_ops))
    for table in _function_tables():
        interpreter.register_implementations(table)
    attach_state(interpreter, state)
    return interpreter


def entry_function(module: ModuleOp) -> func.FuncOp:
    entry = find_entry(module)
    if entry is None:
        raise InterpretationError("module has no entry computation (no hlo.entry, no @main)")
    return entry


def run_module(
    module: ModuleOp,
    inputs: Sequence[Value],
    num_replicas: int | None = None,
    num_partitions: int | None = None,
    *,
    max_while_iterations: int = DEFAULT_MAX_WHILE_ITERATIONS,
    max_value_bytes: int = DEFAULT_MAX_VALUE_BYTES,
    infeed: Sequence[Sequence[Array]] = (),
    on_ops: Callable[[int], None] | None = None,
) -> RunResult:
    """Run the entry function on all devices; `inputs` hold the device axis.

    `on_ops(n)` (optional, for a progress display) is called every n = TICK_MASK + 1 ops.

    Every failure is an `InterpretationError` whose `op` is the failing operation (when one is
    known): a while running more than `max_while_iterations` times, a result over
    `max_value_bytes` (all devices together), recursion, running out of memory or Python stack.
    `infeed` holds the host's infeed entries (`neuron_cc.interpreter.host_feeds`); what the
    program's outfeeds write is `result.state.outfeed`.
    """
    r, p = device_counts(module)
    state = SpmdState(
        num_replicas or r,
        num_partitions or p,
        max_while_iterations=max_while_iterations,
        max_value_bytes=max_value_bytes,
        infeed=[list(e) for e in infeed],
    )
    entry = entry_function(module)
    arg_types = list(entry.function_type.inputs.data)
    if len(inputs) != len(arg_types):
        raise InterpretationError(f"entry takes {len(arg_types)} arguments, got {len(inputs)}")
    interpreter = make_interpreter(module, state, on_ops)
    results = _guarded_call(interpreter, entry, tuple(inputs))
    _check_mailbox(state)
    check_infeed_drained(state)
    out_types: list[Attribute] = list(entry.function_type.outputs.data)
    outputs: list[Value] = list(results)
    if len(out_types) == 1 and isinstance(out_types[0], TupleType):
        outputs = list(results[0])
        out_types = [t for t in out_types[0].types.data]
    return RunResult(outputs, out_types, state)


def _guarded_call(interpreter: _HloInterpreter, entry: func.FuncOp, inputs: PythonValues) -> Any:
    """Call the entry; every failure becomes an InterpretationError blaming the innermost op."""
    guard = interpreter.guard
    try:
        return interpreter.call_op(entry, inputs)
    except InterpretationError as e:
        if e.op is None:
            e.op = guard.innermost()
        raise
    except XdslInterpretationError as e:
        raise InterpretationError(str(e), guard.innermost()) from None
    except MemoryError:
        op = guard.innermost()
        what = f"'{op.name}'" if op is not None else "the program"
        raise InterpretationError(f"out of memory while running {what}", op) from None
    except RecursionError:
        raise InterpretationError(
            "the program nests regions or calls too deeply to interpret", guard.innermost()
        ) from None


def _check_mailbox(state: SpmdState) -> None:
    """A send whose value no recv took would block XLA forever: report it."""
    for channel in state.mailbox:
        raise InterpretationError(
            f"send on channel {channel} is never received (no recv on that channel runs after it)",
            state.senders.get(channel),
        )


def inputs_from_npz(entry: func.FuncOp, data: Mapping[str, Array], devices: int) -> list[Value]:
    """Entry arguments from `arg<I>_dev<D>` / `arg<I>` arrays (cast exactly to the arg type)."""
    values: list[Value] = []
    for i, t in enumerate(entry.function_type.inputs.data):
        per_device = [f"arg{i}_dev{d}" for d in range(devices)]
        if all(k in data for k in per_device):
            stacked = np.stack([np.asarray(data[k]) for k in per_device])
            values.append(cast_host_array(f"argument arg{i}", stacked, t, devices, True))
        elif f"arg{i}" in data:
            values.append(
                cast_host_array(f"argument arg{i}", np.asarray(data[f"arg{i}"]), t, devices, False)
            )
        else:
            missing = next(k for k in per_device if k not in data)
            raise InterpretationError(
                f"missing input for argument {i}: neither arg{i} nor {missing}"
            )
    return values


def outputs_to_npz(result: RunResult) -> dict[str, Array]:
    """`out<J>_dev<D>` arrays (bf16 as float32, pred as bool)."""
    arrays: dict[str, Array] = {}
    for j, value in enumerate(result.outputs):
        if not isinstance(value, np.ndarray):
            raise InterpretationError(f"output {j} is not a tensor and cannot be saved")
        for d in range(value.shape[0]):
            arrays[f"out{j}_dev{d}"] = value[d]
    return arrays
