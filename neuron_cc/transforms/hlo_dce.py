"""hlo-dce: remove operations whose results are unused and that have no side effects.

Follows XLA's HloDCE: an instruction is dead when nothing uses it and it has no side effect.
Never removed: collectives (all_reduce, all_gather, reduce_scatter, all_to_all,
collective_broadcast, collective_permute, send/recv and their done ops), custom calls with
`has_side_effect`, `optimization_barrier`, `call` (the callee is not analysed), terminators,
and any other op without an effect trait. A dead `while`/`conditional` is removed only if every
op in its regions is itself removable. Dead ops inside regions are removed too. Unlike XLA,
unused computations (`func.func`) are kept.

What is removable is said by the ops' effect traits (`neuron_cc/analysis/effects.py`, each op's
effects computed once: `Effects`). One walk collects the ops none of whose results is used; a
worklist then erases each that is removable, and offers the defining ops of its operands (and of
the operands of every op nested in it, which die with it) to the worklist again. In SSA regions
that is exactly liveness (an op is live when it is not removable or a live op uses it, and the
op holding its region is live): a dead loop takes the values only its body used with it. Only
unused ops are ever asked whether they are removable, so a pass that calls this after a local
rewrite pays one walk, not an effect analysis of the whole module. Linear in the ops and in the
nesting depth (xDSL's `region_dce`, which this replaces, recomputes a while's effects from its
whole body at every enclosing level and repeats its liveness walk until nothing changes).

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


def _unused(op: Operation) -> bool:
    """No result of `op` has a use (a plain loop: asked of every op of the region)."""
    for result in op.results:
        if result.first_use is not None:
            return False
    return True


class _Eraser:
    """The worklist of `eliminate_dead_code` over one region."""

    def __init__(self, region: Region) -> None:
        self.region = region
        self.effects = Effects()
        self.erased: set[Operation] = set()
        self.top = 0

    def offer_operands(self, ops: list[Operation], worklist: list[Operation]) -> None:
        """Push the defining ops outside `ops` of their operands (erasing `ops` drops those uses)."""
        inside = set(ops) if len(ops) > 1 else ()
        for op in ops:
            for operand in op.operands:
                owner = operand.owner
                if isinstance(owner, Operation) and owner not in inside:
                    worklist.append(owner)

    def erase(self, op: Operation, worklist: list[Operation]) -> None:
        gone = list(op.walk()) if op.regions else [op]
        self.erased.update(gone)
        self.top += op.parent_region() is self.region
        Rewriter.erase_op(op)
        self.offer_operands(gone, worklist)

    def run(self, worklist: list[Operation]) -> None:
        while worklist:
            op = worklist.pop()
            if op in self.erased or not _unused(op) or not self.effects.removable(op):
                continue
            if op.parent is None:  # detached: not part of the region any more
                continue
            self.erase(op, worklist)


def eliminate_dead_code(block: Block) -> int:
    """Erase the dead ops of `block`'s region (nested ones included); the number of ops erased
    at top level (directly in `block`'s region)."""
    region = block.parent
    if region is None:
        return 0
    eraser = _Eraser(region)
    eraser.run([op for op in region.walk() if _unused(op)])
    return eraser.top


@dataclass(frozen=True)
class HloDcePass(ModulePass):
    """Dead-code elimination that never removes collectives or side-effecting ops."""

    name = "hlo-dce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        block = op.body.first_block
        if block is not None:
            eliminate_dead_code(block)
