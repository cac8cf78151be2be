"""hlo-dce: remove operations whose results are unused and that have no side effects.

Follows XLA's HloDCE: an instruction is dead when nothing uses it and it has no side effect.
Never removed: collectives (all_reduce, all_gather, reduce_scatter, all_to_all,
collective_broadcast, collective_permute, send/recv and their done ops), custom calls with
`has_side_effect`, `optimization_barrier`, `call` (the callee is not analysed), terminators,
and any non-hlo op without the `Pure` trait. A dead `while`/`conditional` is removed only if
every op in its regions is itself removable. Dead ops inside regions are removed too.
Unlike XLA, unused computations (`func.func`) are kept.

The pass is one reverse walk per block (linear in module size): erasing an op can only make
ops *earlier* in the same block dead, and those are visited afterwards.

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
from xdsl.traits import IsTerminator, Pure

from neuron_cc.dialects.hlo.control_flow import ConditionalOp, CustomCallOp, WhileOp
from neuron_cc.dialects.hlo.p2p import PartitionIdOp, ReplicaIdOp

_SIDE_EFFECT_FREE = (PartitionIdOp, ReplicaIdOp)


def is_removable(op: Operation) -> bool:
    """True if `op` may be erased when its results are unused."""
    if op.has_trait(IsTerminator):
        return False
    if isinstance(op, CustomCallOp):
        return op.has_side_effect is None
    if isinstance(op, WhileOp | ConditionalOp):
        return all(
            inner.has_trait(IsTerminator) or is_removable(inner)
            for region in op.regions
            for inner in region.walk()
        )
    return isinstance(op, _SIDE_EFFECT_FREE) or op.has_trait(Pure)


def _is_dead(op: Operation) -> bool:
    return all(not r.uses for r in op.results) and is_removable(op)


def eliminate_dead_code(block: Block) -> int:
    """Erase dead ops in `block` and, recursively, in the regions of the ops it keeps."""
    erased = 0
    op = block.last_op
    while op is not None:
        previous = op.prev_op
        if op.results and _is_dead(op):
            block.erase_op(op)
            erased += 1
        else:
            for region in op.regions:
                for inner in region.blocks:
                    erased += eliminate_dead_code(inner)
        op = previous
    return erased


@dataclass(frozen=True)
class HloDcePass(ModulePass):
    """Dead-code elimination that never removes collectives or side-effecting ops."""

    name = "hlo-dce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for block in op.body.blocks:
            eliminate_dead_code(block)
