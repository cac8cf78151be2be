"""neuron-default-pipeline: the named default pipeline of the while-loop collective passes.

Runs, in order:
`neuron-while-loop-all-reduce-code-motion{enable-reduce-scatter=true run-setup-passes=true}`,
`neuron-move-reduce-scatter-while-loop`, `neuron-move-all-gather-while-loop`. Drivers never run
it implicitly (DESIGN §8); it exists so users can write `-p neuron-default-pipeline`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class NeuronDefaultPipelinePass(ModulePass):
    """All-reduce sink, reduce-scatter sink and all-gather hoist, in that order."""

    name = "neuron-default-pipeline"

    remarks: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from neuron_cc.transforms.move_all_gather_while_loop import MoveAllGatherWhileLoopPass
        from neuron_cc.transforms.move_reduce_scatter_while_loop import (
            MoveReduceScatterWhileLoopPass,
        )
        from neuron_cc.transforms.while_loop_all_reduce_code_motion import (
            WhileLoopAllReduceCodeMotionPass,
        )

        WhileLoopAllReduceCodeMotionPass(
            enable_reduce_scatter=True, run_setup_passes=True, remarks=self.remarks
        ).apply(ctx, op)
        MoveReduceScatterWhileLoopPass(remarks=self.remarks).apply(ctx, op)
        MoveAllGatherWhileLoopPass(remarks=self.remarks).apply(ctx, op)
