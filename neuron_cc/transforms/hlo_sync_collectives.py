"""hlo-sync-collectives: asynchronous start/done pairs become the synchronous op.

- `all_reduce_done(all_reduce_start(x))` -> `all_reduce(x)` (same groups, flags, reducer);
- `all_gather_done(all_gather_start(x))` -> `all_gather(x)`;
- `collective_permute_done(collective_permute_start(x))` -> `collective_permute(x)`;
- `async_done(async_update*(async_start(x), calls=@f))` -> the body of `@f` inlined (XLA's
  async computations wrap one instruction, a reduce-scatter or an all-to-all, which the
  collective passes then see as any other); `@f` stays in the module.

The synchronous op takes the place of the start op (its operands are defined there, and every
user of the done op comes after it), so values are unchanged: nothing but the done op reads a
handle. A pair whose handle has another user (XLA's verifier forbids it, ours does not look at
users) is left as it is. `neuron-default-pipeline` runs this pass first, so the collective
passes see synchronous collectives only; XLA's latency-hiding scheduler, not this toolkit,
decides where a backend splits them again.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from neuron_cc.dialects.hlo.async_ops import (
    AllGatherDoneOp,
    AllGatherStartOp,
    AllReduceDoneOp,
    AllReduceStartOp,
    AsyncDoneOp,
    AsyncStartOp,
    AsyncUpdateOp,
    CollectivePermuteDoneOp,
    CollectivePermuteStartOp,
)
from neuron_cc.dialects.hlo.collectives import AllGatherOp, AllReduceOp
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp
from neuron_cc.dialects.op_classes import of_class

__all__ = ["HloSyncCollectivesPass"]


def _chain(done: Operation) -> list[Operation] | None:
    """The ops from the start to `done` (start first), if each handle has one use only."""
    chain = [done]
    handle: SSAValue = done.operands[0]
    while True:
        if not handle.has_one_use():
            return None
        owner = handle.owner
        if not isinstance(owner, Operation):
            return None
        chain.append(owner)
        if not isinstance(owner, AsyncUpdateOp):
            return chain[::-1]
        handle = owner.handle


def _replace(rewriter: PatternRewriter, chain: list[Operation], sync: Operation) -> None:
    """Put `sync` where the start is, give the done's users its result, erase the chain."""
    rewriter.insert(sync, InsertPoint.before(chain[0]))
    rewriter.replace(chain[-1], [], [sync.results[0]])
    for op in reversed(chain[:-1]):
        rewriter.erase(op)


class SyncAllReduce(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllReduceDoneOp, rewriter: PatternRewriter) -> None:
        chain = _chain(op)
        if chain is None or not isinstance(start := chain[0], AllReduceStartOp):
            return
        sync = AllReduceOp.create(
            operands=list(start.operands_),
            result_types=[op.result.type],
            properties=dict(start.properties),
            attributes=dict(start.attributes),
            regions=[start.to_apply.clone()],
        )
        _replace(rewriter, chain, sync)


class SyncAllGather(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllGatherDoneOp, rewriter: PatternRewriter) -> None:
        chain = _chain(op)
        if chain is None or not isinstance(start := chain[0], AllGatherStartOp):
            return
        sync = AllGatherOp.create(
            operands=list(start.operands_),
            result_types=[op.result.type],
            properties=dict(start.properties),
            attributes=dict(start.attributes),
        )
        _replace(rewriter, chain, sync)


class SyncCollectivePermute(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CollectivePermuteDoneOp, rewriter: PatternRewriter) -> None:
        chain = _chain(op)
        if chain is None or not isinstance(start := chain[0], CollectivePermuteStartOp):
            return
        sync = CollectivePermuteOp.create(
            operands=[start.operand],
            result_types=[op.result.type],
            properties=dict(start.properties),
            attributes=dict(start.attributes),
        )
        _replace(rewriter, chain, sync)


class SyncAsyncCall(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AsyncDoneOp, rewriter: PatternRewriter) -> None:
        chain = _chain(op)
        if chain is None or not isinstance(start := chain[0], AsyncStartOp):
            return
        callee = SymbolTable.lookup_symbol(start, start.calls)
        if not isinstance(callee, FuncOp) or len(callee.body.blocks) != 1:
            return  # the verifier of a module reports it
        block = callee.body.blocks[0]
        returned = block.last_op
        if not isinstance(returned, ReturnOp) or len(returned.operands) != 1:
            return
        mapper: dict[SSAValue, SSAValue] = dict(zip(block.args, start.args, strict=True))
        clones = [inner.clone(mapper) for inner in block.ops if inner is not returned]
        rewriter.insert(clones, InsertPoint.before(start))
        rewriter.replace(op, [], [mapper.get(returned.operands[0], returned.operands[0])])
        for handle in reversed(chain[:-1]):
            rewriter.erase(handle)


@dataclass(frozen=True)
class HloSyncCollectivesPass(ModulePass):
    """Every asynchronous start/done pair becomes the synchronous op."""

    name = "hlo-sync-collectives"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        """One walk finds the done ops (most modules have none: nothing else is done); each
        is then rewritten once, in program order, as a non-recursive pattern walk would."""
        dones = of_class(op.walk(), DONE_OPS)
        for done in dones:
            if done.parent is not None:
                _PATTERNS[type(done)].match_and_rewrite(done, PatternRewriter(done))


_PATTERNS: dict[type[Operation], RewritePattern] = {
    AllReduceDoneOp: SyncAllReduce(),
    AllGatherDoneOp: SyncAllGather(),
    CollectivePermuteDoneOp: SyncCollectivePermute(),
    AsyncDoneOp: SyncAsyncCall(),
}
DONE_OPS = tuple(_PATTERNS)
