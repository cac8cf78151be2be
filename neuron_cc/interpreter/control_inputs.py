"""Which entry parameters decide control flow: a backward dependence walk.

The interpreter needs every `hlo.while` condition and `hlo.conditional` index to be equal on
all devices (SPMD programs branch uniformly), so random test inputs must give the parameters
these decisions depend on ONE value on every device. `control_parameters(module)` finds them:
starting from each while condition's result and each conditional's index, it walks the
def-use graph backwards to the entry function's block arguments.

The walk is element-precise through tuples: a demand is a value and a path of tuple indices
(the empty path is the whole value), so `tuple` / `get_tuple_element`, a while's init, body
result and block arguments, a conditional's branch operands and results, `optimization_barrier`
and `copy` forward exactly the demanded element. `hlo.call` / `func.call` go into the callee's
returned value and back out through the callee's arguments to EVERY call site of the callee
(context-insensitive, so conservative). Every other op needs all of its operands whole, and an
op with regions also needs the values its regions return (its region arguments need the op's
operands). Each (value, path) is visited once and paths are bounded by the tuple nesting
depth, so the walk is linear in the module size.

```mlir
func.func @main(%n: tensor<i32>, %x: tensor<4xf32>) -> ... attributes {hlo.entry} {
  %init = hlo.tuple %zero, %n, %x : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>>
  %loop = hlo.while(%init) : ... condition {
  ^bb0(%s: ...):
    %i = hlo.get_tuple_element %s[0] : ...
    %bound = hlo.get_tuple_element %s[1] : ...
    %p = hlo.compare LT, %i, %bound : tensor<i32> -> tensor<i1>
    hlo.return %p : tensor<i1>
  } body { ... }
```

Here `%n` (parameter 0) decides control flow; `%x` (only in slot 2) does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import IsTerminator

from neuron_cc.analysis.entry import find_entry
from neuron_cc.dialects.hlo.control_flow import (
    ConditionalOp,
    GetTupleElementOp,
    OptimizationBarrierOp,
    TupleOp,
    WhileOp,
)
from neuron_cc.dialects.hlo.data_movement import CopyOp

Path = tuple[int, ...]
Demand = tuple[SSAValue, Path]
"""The element at `Path` (tuple indices; () is the whole value) of an SSA value is needed."""


def _callee(op: Operation) -> str | None:
    callee = op.properties.get("callee")
    return callee.string_value() if isinstance(callee, SymbolRefAttr) else None


def _returned(region: Region, index: int) -> Iterator[SSAValue]:
    """Operand `index` of every terminator of `region` (a while body's next value, ...)."""
    for block in region.blocks:
        last = block.last_op
        if last is not None and last.has_trait(IsTerminator) and index < len(last.operands):
            yield last.operands[index]


def _region_results(op: Operation) -> Iterator[SSAValue]:
    """Every value the regions of `op` return."""
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is not None and last.has_trait(IsTerminator):
                yield from last.operands


@dataclass
class _Program:
    """One walk's index of the module: functions by name, call sites by callee, decisions."""

    functions: dict[str, func.FuncOp] = field(default_factory=dict[str, func.FuncOp])
    calls: dict[str, list[Operation]] = field(default_factory=dict[str, list[Operation]])
    decisions: list[SSAValue] = field(default_factory=list[SSAValue])

    @staticmethod
    def index(module: ModuleOp) -> _Program:
        program = _Program()
        for op in module.ops:
            if isinstance(op, func.FuncOp):
                program.functions.setdefault(op.sym_name.data, op)
        for op in module.walk():
            if isinstance(op, WhileOp):
                program.decisions.extend(_returned(op.condition, 0))
            elif isinstance(op, ConditionalOp):
                program.decisions.append(op.index)
            callee = _callee(op)
            if callee is not None:
                program.calls.setdefault(callee, []).append(op)
        return program

    def argument_sources(self, arg: BlockArgument, path: Path) -> Iterator[Demand]:
        """What a block argument's element `path` is computed from."""
        parent = arg.block.parent_op()
        if isinstance(parent, func.FuncOp):
            for call in self.calls.get(parent.sym_name.data, ()):
                if arg.index < len(call.operands):
                    yield call.operands[arg.index], path
        elif isinstance(parent, WhileOp):
            yield parent.init, path
            yield from ((v, path) for v in _returned(parent.body, 0))
        elif isinstance(parent, ConditionalOp):
            # Branch k's operand is operand 1 + k (after the index); `op.operands` is O(1)
            # where IRDL's variadic accessors copy the whole list.
            region = arg.block.parent
            for k, branch in enumerate(parent.regions):
                if branch is region:
                    yield parent.operands[1 + k], path
        elif parent is not None:
            yield from ((v, ()) for v in parent.operands)

    def result_sources(self, result: OpResult, path: Path) -> Iterator[Demand]:
        """What an op result's element `path` is computed from."""
        op = result.op
        if isinstance(op, TupleOp):
            if path:
                yield op.operands[path[0]], path[1:]
            else:
                yield from ((e, ()) for e in op.operands)
        elif isinstance(op, GetTupleElementOp):
            yield op.tuple_, (op.index.value.data, *path)
        elif isinstance(op, OptimizationBarrierOp | CopyOp):
            yield op.operand, path
        elif isinstance(op, WhileOp):
            yield op.init, path
            yield from ((v, path) for v in _returned(op.body, 0))
        elif isinstance(op, ConditionalOp):
            for branch in op.branches:
                yield from ((v, path) for v in _returned(branch, 0))
        else:
            yield from self._opaque_sources(op, result.index, path)

    def _opaque_sources(self, op: Operation, index: int, path: Path) -> Iterator[Demand]:
        callee = self.functions.get(_callee(op) or "")
        if callee is not None:
            yield from ((v, path) for v in _returned(callee.body, index))
            return
        yield from ((v, ()) for v in op.operands)
        yield from ((v, ()) for v in _region_results(op))


def control_parameters(module: ModuleOp) -> frozenset[int]:
    """Indices of the entry parameters whose values reach a while condition or a conditional
    index (empty when the module has no entry function)."""
    entry = find_entry(module)
    if entry is None:
        return frozenset()
    program = _Program.index(module)
    entry_block = entry.body.blocks.first
    found: set[int] = set()
    seen: set[Demand] = set()
    stack: list[Demand] = [(v, ()) for v in program.decisions]
    while stack:
        demand = stack.pop()
        value, path = demand
        if demand in seen or any((value, path[:k]) in seen for k in range(len(path))):
            continue  # this element, or a tuple containing it, is already needed
        seen.add(demand)
        if isinstance(value, BlockArgument):
            if value.block is entry_block:
                found.add(value.index)
            else:
                stack.extend(program.argument_sources(value, path))
        elif isinstance(value, OpResult):
            stack.extend(program.result_sources(value, path))
    return frozenset(found)
