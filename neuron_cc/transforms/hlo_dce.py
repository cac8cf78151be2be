"""hlo-dce: remove operations whose results are unused and that have no side effects.

Follows XLA's HloDCE: an instruction is dead when nothing uses it and it has no side effect.
Never removed: collectives (all_reduce, all_gather, reduce_scatter, all_to_all,
collective_broadcast, collective_permute, send/recv and their done ops), custom calls with
`has_side_effect`, `optimization_barrier`, `call` (the callee is not analysed), terminators,
and any other op without an effect trait. A dead `while`/`conditional` is removed only if every
op in its regions is itself removable. Dead ops inside regions are removed too. Unlike XLA,
unused computations (`func.func`) are kept.

What is removable is said by the ops' effect traits (`neuron_cc/analysis/effects.py`, each op's
effects computed once: `Effects`). Liveness is one worklist pass: an op is live when it is not
removable or a live op uses it, AND the op holding its region is live (ops inside a dead
while die with it and keep nothing alive outside). Then one reverse walk erases the dead ops.
Linear in the ops and in the nesting depth (xDSL's `region_dce`, which this replaces,
recomputes a while's effects from its whole body at every enclosing level and repeats its
liveness walk until nothing changes).

```mlir
%a = hlo.add %x, %x : tensor<4xf32>      // removed: unused and pure
%r = hlo.all_reduce(%x) ...              // kept: a collective
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from neuron_cc.analysis.effects import Effects, is_removable

__all__ = ["HloDcePass", "eliminate_dead_code", "is_removable"]


def dead_ops(region: Region) -> list[Operation]:
    """The ops of `region` (nested ones included) that no live op needs, in program order."""
    effects = Effects()
    ops = list(region.walk())
    inside = set(ops)
    live: set[Operation] = set()
    waiting: dict[Operation, list[Operation]] = {}
    worklist: list[Operation] = []

    def mark(op: Operation) -> None:
        if op in live:
            return
        parent = op.parent_op()
        if parent is not None and parent in inside and parent not in live:
            waiting.setdefault(parent, []).append(op)  # live once its holder is
            return
        live.add(op)
        worklist.append(op)

    for op in ops:
        if not effects.removable(op):
            mark(op)
    while worklist:
        op = worklist.pop()
        for child in waiting.pop(op, ()):
            mark(child)
        for operand in op.operands:
            owner = operand.owner
            if isinstance(owner, Operation) and owner in inside:
                mark(owner)  # (a block argument's holder is live already: it holds the user)
    return [op for op in ops if op not in live]


def eliminate_dead_code(block: Block) -> int:
    """Erase the dead ops of `block`'s region, recursively in the regions of the ops it keeps;
    the number of ops erased at top level (directly in `block`'s region)."""
    region = block.parent
    if region is None:
        return 0
    dead = dead_ops(region)
    gone = set(dead)
    top = 0
    for op in reversed(dead):  # users before their definitions, nested ops before holders
        holder = op.parent_op()
        if holder is not None and holder in gone:
            continue  # erased with its holder
        top += op.parent_region() is region
        Rewriter.erase_op(op)
    return top


@dataclass(frozen=True)
class HloDcePass(ModulePass):
    """Dead-code elimination that never removes collectives or side-effecting ops."""

    name = "hlo-dce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        block = op.body.first_block
        if block is not None:
            eliminate_dead_code(block)
