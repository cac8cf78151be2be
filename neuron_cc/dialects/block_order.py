"""Reordering a block's ops in one pass over its links.

xDSL moves an op by `detach_op` + `add_op`; `add_op` checks that the op is not an ancestor of
the block by climbing the block's parents, so putting every op of a big block in a new order
(what a combiner does after merging groups: `analysis/combine_plan.py`'s final order) costs a
detach, an attach and a parent climb per op. `set_block_ops` writes the same final state
directly: the block's op list becomes `ops`, in that order.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Block, Operation


def set_block_ops(block: Block, ops: Sequence[Operation]) -> None:
    """Make `ops` the ops of `block`, in order. Each op of `ops` is either an op of `block`
    or unattached (then it is attached, with xDSL's checks); the ops of `block` not in `ops`
    are detached (as by `Block.detach_op`). The state is the one `detach_op` of every op
    followed by `add_op` of each of `ops` leaves."""
    wanted = {id(op) for op in ops}
    if len(wanted) != len(ops):
        raise ValueError("an op is listed twice")
    for op in ops:
        if op.parent is not block:
            _check_attachable(op, block)
    op = block.first_op
    while op is not None:
        following = op._next_op
        if id(op) not in wanted:
            op.parent = None
            op._prev_op = op._next_op = None
        op = following
    previous: Operation | None = None
    for op in ops:
        op.parent = block
        op._prev_op = previous
        if previous is not None:
            previous._next_op = op
        previous = op
    if previous is not None:
        previous._next_op = None
    block._first_op = ops[0] if ops else None
    block._last_op = previous


def _check_attachable(op: Operation, block: Block) -> None:
    """xDSL's `Block._attach_op` checks."""
    if op.parent is not None:
        raise ValueError("Can't add to a block an operation already attached to a block.")
    if op.is_ancestor(block):
        raise ValueError("Can't add an operation to a block contained in the operation.")
