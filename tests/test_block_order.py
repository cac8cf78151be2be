"""`set_block_ops` leaves a block exactly as xDSL's detach-all + add_op in the new order does."""

from __future__ import annotations

import random

import pytest
from xdsl.dialects import test as test_dialect
from xdsl.ir import Block, Operation

from neuron_cc.dialects.block_order import set_block_ops


def _links(block: Block) -> list[tuple[Operation | None, Operation, Operation | None]]:
    return [(op.prev_op, op, op.next_op) for op in block.ops]


def _block(n: int) -> tuple[Block, list[Operation]]:
    ops: list[Operation] = [test_dialect.TestOp() for _ in range(n)]
    return Block(ops), ops


@pytest.mark.parametrize("seed", range(20))
def test_same_state_as_detach_and_add(seed: int) -> None:
    rng = random.Random(seed)
    ours, ours_ops = _block(rng.randrange(0, 12))
    theirs, theirs_ops = _block(len(ours_ops))
    # a random subset of the block's ops, shuffled, with new ops mixed in
    keep = [i for i in range(len(ours_ops)) if rng.random() < 0.8]
    fresh = rng.randrange(0, 4)
    order: list[int | None] = [*keep, *([None] * fresh)]
    rng.shuffle(order)
    new_ours = [test_dialect.TestOp() for _ in range(fresh)]
    new_theirs = [test_dialect.TestOp() for _ in range(fresh)]
    seq_ours = [ours_ops[i] if i is not None else new_ours.pop() for i in order]
    seq_theirs = [theirs_ops[i] if i is not None else new_theirs.pop() for i in order]

    set_block_ops(ours, seq_ours)
    for op in list(theirs.ops):
        theirs.detach_op(op)
    for op in seq_theirs:
        theirs.add_op(op)

    position = {id(op): k for k, op in enumerate(ours_ops)} | {
        id(op): k for k, op in enumerate(theirs_ops)
    }

    def shape(block: Block) -> list[tuple[int | None, int | None, int | None]]:
        def key(op: Operation | None) -> int | None:
            return None if op is None else position.get(id(op), -1)

        return [(key(p), key(o), key(n)) for p, o, n in _links(block)]

    assert list(ours.ops) == seq_ours
    assert shape(ours) == shape(theirs)
    assert ours.first_op is (seq_ours[0] if seq_ours else None)
    assert ours.last_op is (seq_ours[-1] if seq_ours else None)
    assert all(op.parent is ours for op in seq_ours)
    dropped = [op for k, op in enumerate(ours_ops) if k not in keep]
    assert all(op.parent is None and op.prev_op is None and op.next_op is None for op in dropped)


def test_refuses_duplicates_and_foreign_ops() -> None:
    block, ops = _block(3)
    with pytest.raises(ValueError, match="twice"):
        set_block_ops(block, [ops[0], ops[0]])
    other, foreign = _block(1)
    with pytest.raises(ValueError, match="already attached"):
        set_block_ops(block, [*ops, foreign[0]])
    assert list(block.ops) == ops  # nothing changed
    assert list(other.ops) == foreign
