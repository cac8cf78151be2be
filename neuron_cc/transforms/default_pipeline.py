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
combiner runs, to print its summary). The pipeline's own walk of the module (its census, which
also tells whether a round moved anything) stands in for the walks of the sync pass (run only
when the module holds an asynchronous done op) and of each combiner looking for its blocks.
Drivers never run it implicitly; it exists so users can write `-p neuron-default-pipeline`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass

from neuron_cc.analysis.remarks import Remarks
from neuron_cc.dialects.hlo.collectives import (
    AllGatherOp,
    AllReduceOp,
    CollectiveOp,
    ReduceScatterOp,
)
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
        census = self._move(ctx, op)
        if self.combine:
            from neuron_cc.transforms.all_gather_combiner import AllGatherCombinerPass
            from neuron_cc.transforms.all_reduce_combiner import AllReduceCombinerPass
            from neuron_cc.transforms.reduce_scatter_combiner import ReduceScatterCombinerPass

            # each combiner leaves the blocks of the next one's ops as they were (it rewrites
            # inside its blocks and erases only its members' reducers): the census's lists hold
            for combiner in (
                AllReduceCombinerPass,
                AllGatherCombinerPass,
                ReduceScatterCombinerPass,
            ):
                if self.remarks or combiner.OP in census.present:  # else nothing to combine
                    combiner(threshold_bytes=self.threshold_bytes, remarks=self.remarks).combine(
                        op, census.blocks.get(combiner.OP, [])
                    )

    def _move(self, ctx: Context, op: ModuleOp) -> _Census:
        """The motion rounds; the census of the module after them (a pass whose ops the
        module does not hold has nothing to do: it is not run)."""
        from neuron_cc.transforms.hlo_sync_collectives import (
            DONE_OPS,
            HloSyncCollectivesPass,
        )
        from neuron_cc.transforms.move_all_gather_while_loop import MoveAllGatherWhileLoopPass
        from neuron_cc.transforms.move_reduce_scatter_while_loop import (
            MoveReduceScatterWhileLoopPass,
        )
        from neuron_cc.transforms.while_loop_all_reduce_code_motion import (
            WhileLoopAllReduceCodeMotionPass,
        )

        census = _census(op)
        if not census.present.isdisjoint(DONE_OPS):  # the census is the sync pass's walk
            HloSyncCollectivesPass().apply(ctx, op)
            census = _census(op)
        remarks = self.remarks
        for round_ in range(1, _MAX_ROUNDS + 1):
            WhileLoopAllReduceCodeMotionPass(
                enable_reduce_scatter=True, run_setup_passes=True, remarks=remarks
            ).apply(ctx, op)
            MoveReduceScatterWhileLoopPass(remarks=remarks).apply(ctx, op)
            if AllGatherOp in census.present:  # the passes above never create one
                MoveAllGatherWhileLoopPass(remarks=remarks).apply(ctx, op)
            before, census = census, _census(op)
            if round_ > 1 and self.remarks and census.depth < before.depth:
                Remarks(self.name, True).summary(
                    f"round {round_} moved {before.depth - census.depth} more collectives out "
                    "of while loops"
                )
            if census.depth >= before.depth or not census.inside - before.inside:
                return census  # a fixed point, or no collective the round put inside a loop
            remarks = False
        return census


_MAX_ROUNDS = 8
"""Each productive round moves at least one collective out of a loop; a round exposes more only
through nesting (a collective that one pass moved out of an inner loop becomes movable by another
pass in the enclosing loop), so rounds stop at a fixed point well before this bound. A round
that put no new collective inside a loop (every moved one left all its loops, and no pass
rebuilt a loop around a remaining one) exposes nothing: the pipeline stops after it without
running a confirming round."""


@dataclass
class _Census:
    """What one walk of the module tells the pipeline."""

    depth: int = 0
    """The sum over collectives of their `hlo.while` nesting depth (a collective moved out of
    one of its loops lowers it by one)."""
    inside: set[Operation] = field(default_factory=set[Operation])
    """The collectives inside a loop (the op objects: held, so a new op never takes an old
    one's identity)."""
    present: set[type[Operation]] = field(default_factory=set[type[Operation]])
    """The op classes anywhere in the module."""
    blocks: dict[type[Operation], list[Block]] = field(
        default_factory=dict[type[Operation], list[Block]]
    )
    """Per combined class (`_COMBINED`), the blocks holding two or more of its ops, outer
    before inner, in program order (what each combiner would find by its own walk)."""


def _census(module: ModuleOp) -> _Census:
    """One walk, block by block with an explicit stack (pre-order: a block's nested blocks
    follow it, in program order)."""
    census = _Census()
    kinds: dict[type, bool] = {}
    stack = [(block, 0) for region in reversed(module.regions) for block in reversed(region.blocks)]
    while stack:
        block, depth = stack.pop()
        nested, counts = _count_block(block, depth, census, kinds)
        for cls, n in counts.items():
            if n >= 2:
                census.blocks.setdefault(cls, []).append(block)
        stack.extend(reversed(nested))
    return census


def _count_block(
    block: Block, depth: int, census: _Census, kinds: dict[type, bool]
) -> tuple[list[tuple[Block, int]], dict[type[Operation], int]]:
    """Add `block`'s ops (`depth` loops deep) to `census`; its nested blocks, in order, with
    their depth, and how many ops of each combined class it holds. Whether an op class is a
    collective is decided once per class (`kinds`)."""
    present, inside = census.present, census.inside
    counts: dict[type[Operation], int] = {}
    nested_blocks: list[tuple[Block, int]] = []
    op = block.first_op
    while op is not None:
        cls = type(op)
        present.add(cls)
        collective = kinds.get(cls)
        if collective is None:
            collective = kinds[cls] = issubclass(cls, _COLLECTIVES)
        if collective:
            if depth:
                census.depth += depth
                inside.add(op)
            if cls in _COMBINED:
                counts[cls] = counts.get(cls, 0) + 1
        if op.regions:
            inner = depth + 1 if cls is WhileOp else depth
            for region in op.regions:
                nested = region.first_block
                while nested is not None:
                    nested_blocks.append((nested, inner))
                    nested = nested.next_block
        op = op._next_op
    return nested_blocks, counts


_COMBINED = frozenset({AllReduceOp, AllGatherOp, ReduceScatterOp})
_COLLECTIVES = (CollectiveOp, CollectivePermuteOp, SendOp, RecvOp)
