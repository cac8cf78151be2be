"""neuron-default-pipeline: the named default pipeline of the while-loop collective passes.

Runs `hlo-sync-collectives` (asynchronous start/done pairs become the synchronous collectives,
so every pass below sees them), then, in order:
`neuron-while-loop-all-reduce-code-motion{enable-reduce-scatter=true run-setup-passes=true}`,
`neuron-move-reduce-scatter-while-loop`, `neuron-move-all-gather-while-loop`, and repeats the
three until a round moves nothing (a fixed point, so the pipeline is idempotent): one pass may
move a collective out of an inner loop into a form another pass then moves out of the enclosing
loop. Later rounds print no per-collective remarks, only "round N moved K more collectives out
of while loops". It ends with `all-reduce-combiner`, `all-gather-combiner` and
`reduce-scatter-combiner` (in that order, each with `threshold-bytes`, default 30 MiB, or
`auto`, the combiners' alpha-beta rule, and threshold-count 256): the collectives the motion left side by side after a loop, and the
independent ones of a loop body, become one launch each. `combine=false` leaves them out.
A pass whose op kind the module does not hold (after the asynchronous pairs became synchronous:
no all-gather, so no all-gather hoist or combiner; no reduce-scatter, so no reduce-scatter
combiner) is not run: it would walk the module and find nothing (with `remarks`, every
combiner runs, to print its summary).
Drivers never run it implicitly; it exists so users can write `-p neuron-default-pipeline`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from neuron_cc.analysis.remarks import Remarks
from neuron_cc.dialects.hlo.collectives import AllGatherOp, CollectiveOp
from neuron_cc.dialects.hlo.control_flow import WhileOp
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp, RecvOp, SendOp
from neuron_cc.transforms.combiner_rewrite import DEFAULT_THRESHOLD_BYTES


@dataclass(frozen=True)
class NeuronDefaultPipelinePass(ModulePass):
    """Sync the async collectives; all-reduce sink, reduce-scatter sink and all-gather hoist,
    in that order, to a fixed point; then the three combiners."""

    name = "neuron-default-pipeline"

    remarks: bool = False
    threshold_bytes: int | str = DEFAULT_THRESHOLD_BYTES
    combine: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        present = self._move(ctx, op)
        if self.combine:
            from neuron_cc.transforms.all_gather_combiner import AllGatherCombinerPass
            from neuron_cc.transforms.all_reduce_combiner import AllReduceCombinerPass
            from neuron_cc.transforms.reduce_scatter_combiner import ReduceScatterCombinerPass

            for combiner in (
                AllReduceCombinerPass,
                AllGatherCombinerPass,
                ReduceScatterCombinerPass,
            ):
                if self.remarks or combiner.OP in present:  # else it has nothing to combine
                    combiner(threshold_bytes=self.threshold_bytes, remarks=self.remarks).apply(
                        ctx, op
                    )

    def _move(self, ctx: Context, op: ModuleOp) -> set[type[Operation]]:
        """The motion rounds; the collective classes the module holds after them (a pass
        whose ops the module does not hold has nothing to do: it is not run)."""
        from neuron_cc.transforms.hlo_sync_collectives import HloSyncCollectivesPass
        from neuron_cc.transforms.move_all_gather_while_loop import MoveAllGatherWhileLoopPass
        from neuron_cc.transforms.move_reduce_scatter_while_loop import (
            MoveReduceScatterWhileLoopPass,
        )
        from neuron_cc.transforms.while_loop_all_reduce_code_motion import (
            WhileLoopAllReduceCodeMotionPass,
        )

        HloSyncCollectivesPass().apply(ctx, op)
        left, inside, present = _collectives_in_loops(op)
        remarks = self.remarks
        for round_ in range(1, _MAX_ROUNDS + 1):
            WhileLoopAllReduceCodeMotionPass(
                enable_reduce_scatter=True, run_setup_passes=True, remarks=remarks
            ).apply(ctx, op)
            MoveReduceScatterWhileLoopPass(remarks=remarks).apply(ctx, op)
            if AllGatherOp in present:  # the passes above never create one
                MoveAllGatherWhileLoopPass(remarks=remarks).apply(ctx, op)
            now, after, present = _collectives_in_loops(op)
            if round_ > 1 and self.remarks and now < left:
                Remarks(self.name, True).summary(
                    f"round {round_} moved {left - now} more collectives out of while loops"
                )
            if now >= left or not after - inside:
                return present  # a fixed point, or no collective the round put inside a loop
            left, inside, remarks = now, after, False
        return present


_MAX_ROUNDS = 8
"""Each productive round moves at least one collective out of a loop; a round exposes more only
through nesting (a collective that one pass moved out of an inner loop becomes movable by another
pass in the enclosing loop), so rounds stop at a fixed point well before this bound. A round
that put no new collective inside a loop (every moved one left all its loops, and no pass
rebuilt a loop around a remaining one) exposes nothing: the pipeline stops after it without
running a confirming round."""


def _collectives_in_loops(
    module: ModuleOp,
) -> tuple[int, set[Operation], set[type[Operation]]]:
    """The sum over collectives of their `hlo.while` nesting depth (a collective moved out of
    one of its loops lowers it by one), the collectives inside a loop (the op objects: held,
    so a new op never takes an old one's identity) and the op classes anywhere in the module.
    One walk with an explicit stack of blocks; whether an op class is a collective is decided
    once per class."""
    total = 0
    inside: set[Operation] = set()
    present: set[type[Operation]] = set()
    kinds: dict[type, bool] = {}
    stack = [(block, 0) for region in module.regions for block in region.blocks]
    while stack:
        block, depth = stack.pop()
        op = block.first_op
        while op is not None:
            cls = type(op)
            present.add(cls)
            if depth:
                collective = kinds.get(cls)
                if collective is None:
                    collective = kinds[cls] = issubclass(cls, _COLLECTIVES)
                if collective:
                    total += depth
                    inside.add(op)
            if op.regions:
                inner = depth + 1 if type(op) is WhileOp else depth
                for region in op.regions:
                    nested = region.first_block
                    while nested is not None:
                        stack.append((nested, inner))
                        nested = nested.next_block
            op = op._next_op
    return total, inside, present


_COLLECTIVES = (CollectiveOp, CollectivePermuteOp, SendOp, RecvOp)
