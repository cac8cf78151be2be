"""hlo-dce: remove operations whose results are unused and that have no side effects.

Follows XLA's HloDCE: an instruction is dead when nothing uses it and it has no side effect.
Never removed: collectives (all_reduce, all_gather, reduce_scatter, all_to_all,
collective_broadcast, collective_permute, send/recv and their done ops), custom calls with
`has_side_effect`, `optimization_barrier`, `call` (the callee is not analysed), terminators,
and any other op without an effect trait. A dead `while`/`conditional` is removed only if every
op in its regions is itself removable. Dead ops inside regions are removed too. Unlike XLA,
unused computations (`func.func`) are kept.

What is removable is said by the ops' effect traits (`neuron_cc/analysis/effects.py`); the
pass is xDSL's `region_dce` on the module body: a liveness fixed point in reverse program
order, which settles in two walks on SSA code (uses follow their definitions), then one walk
that erases the dead ops.

```mlir
%a = hlo.add %x, %x : tensor<4xf32>      // removed: unused and pure
%r = hlo.all_reduce(%x) ...              // kept: a collective
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.transforms.dead_code_elimination import region_dce

from neuron_cc.analysis.effects import is_removable

__all__ = ["HloDcePass", "eliminate_dead_code", "is_removable"]


def eliminate_dead_code(block: Block) -> int:
    """Erase the dead ops of `block`'s region (xDSL's `region_dce` with our effect traits),
    recursively in the regions of the ops it keeps; the number of ops erased at top level."""
    region = block.parent
    if region is None:
        return 0
    erased: list[Operation] = []
    listener = PatternRewriterListener(operation_removal_handler=[erased.append])
    region_dce(region, listener)
    return len(erased)


@dataclass(frozen=True)
class HloDcePass(ModulePass):
    """Dead-code elimination that never removes collectives or side-effecting ops."""

    name = "hlo-dce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        region_dce(op.body)
