"""When the interpreter may forget a value: the last op of its block that uses it.

The interpreter keeps the value of every SSA value of a block in the block's scope until the
block returns. On a big ENTRY computation that is every intermediate array of the program at
once (2.9 GB of the 100k-instruction model on 8 devices), and the working set no longer fits
any cache. `release_plan(block)` says, per op of the block, which values defined in the block
(its arguments and the results of its ops) are dead once that op has run: a value's last use is
the op of this block that contains the using op (the user itself, or the op whose region holds
it, e.g. a while loop whose body reads the value). Values nobody uses die with their op.

Only single-block regions get a plan (HLO regions are single-block; a CFG region's values
may be used in blocks after this one). Linear: each use is followed up to this block once.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, SSAValue


def release_plan(block: Block) -> dict[Operation, tuple[SSAValue, ...]]:
    """Per op of `block`: the values of the block that are dead after it (see module doc)."""
    if block.next_block is not None or block.prev_block is not None:
        return {}
    ops = list(block.ops)
    index = {op: i for i, op in enumerate(ops)}
    dead: list[list[SSAValue]] = [[] for _ in ops]
    for arg in block.args:
        at = _last_use(arg, block, index, -1)
        if at is not None and at >= 0:
            dead[at].append(arg)
    for i, op in enumerate(ops):
        for result in op.results:
            at = _last_use(result, block, index, i)
            if at is not None:
                dead[at].append(result)
    return {op: tuple(values) for op, values in zip(ops, dead, strict=True) if values}


def _last_use(value: SSAValue, block: Block, index: dict[Operation, int], start: int) -> int | None:
    """Index in `block` of the last op using `value` (`start` if none); None if a use is not
    inside `block`."""
    last = start
    for use in value.uses:
        user: Operation | None = use.operation
        while user is not None and user.parent is not block:
            user = user.parent_op()
        if user is None:
            return None
        last = max(last, index[user])
    return last
