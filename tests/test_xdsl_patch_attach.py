"""Patch 15 of neuron_cc/dialects/xdsl_patches.py: attaching an op to a block (a block to a
region) checks "does it contain its new parent?" in O(min(depth, size)), not O(depth).

As in tests/test_xdsl_patches.py: `test_patched_*` show the patched behaviour (xDSL's verdicts
and messages), `test_upstream_still_*` show with xDSL's definitions restored (`unpatched()`)
that upstream still climbs to the top of the IR on every insertion.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from xdsl.dialects import test as test_dialect
from xdsl.ir import Block, Operation, Region

from neuron_cc.dialects import xdsl_patches


def _holder(*blocks: Block) -> test_dialect.TestOp:
    """An op with one region holding `blocks` (one empty block if none)."""
    return test_dialect.TestOp(regions=[Region(list(blocks) or [Block()])])


def _nest(depth: int) -> tuple[test_dialect.TestOp, Block]:
    """`depth` ops nested in each other's regions: (the outermost, the innermost block)."""
    inner = Block()
    op = _holder(inner)
    innermost = inner
    for _ in range(depth - 1):
        op = _holder(Block([op]))
    return op, innermost


def _outcome(attempt: Callable[[], object]) -> str:
    try:
        attempt()
    except ValueError as e:
        return str(e)
    return "attached"


def _cases() -> list[Callable[[], object]]:
    """Fresh IR per call: attachments that xDSL refuses and ones it accepts."""

    def into_own_block() -> object:
        outer, innermost = _nest(4)
        return innermost.add_op(outer)

    def into_own_empty_block() -> object:
        empty = Block()
        op = _holder(Block([test_dialect.TestOp()]), empty)
        return empty.add_op(op)

    def elsewhere_deep() -> object:
        _, innermost = _nest(30)
        return innermost.add_op(_holder(Block([test_dialect.TestOp()])))

    def without_regions() -> object:
        _, innermost = _nest(5)
        return innermost.add_op(test_dialect.TestOp())

    def already_attached() -> object:
        _, innermost = _nest(2)
        op = test_dialect.TestOp()
        Block([op])
        return innermost.add_op(op)

    def block_into_own_region() -> object:
        outer, innermost = _nest(3)
        region = innermost.parent_region()
        assert region is not None
        top = Block([outer])
        return region.add_block(top)

    def block_elsewhere() -> object:
        _, innermost = _nest(6)
        region = innermost.parent_region()
        assert region is not None
        return region.add_block(Block([_holder()]))

    def empty_block() -> object:
        _, innermost = _nest(3)
        region = innermost.parent_region()
        assert region is not None
        return region.add_block(Block())

    return [
        into_own_block,
        into_own_empty_block,
        elsewhere_deep,
        without_regions,
        already_attached,
        block_into_own_region,
        block_elsewhere,
        empty_block,
    ]


def test_patched_attach_gives_xdsls_verdicts() -> None:
    assert xdsl_patches.is_installed()
    patched = [_outcome(case) for case in _cases()]
    with xdsl_patches.unpatched():
        upstream = [_outcome(case) for case in _cases()]
    assert patched == upstream
    assert patched.count("attached") == 4  # and the four others are refused
    assert "Can't add an operation to a block contained in the operation." in patched
    assert "Can't add a block to a region contained in the block." in patched


def _parent_reads(monkeypatch: pytest.MonkeyPatch, attach: Callable[[], object]) -> int:
    """How many times `attach` reads a node's parent (the climb toward the top)."""
    reads = [0]
    for cls in (Operation, Block, Region):
        original = cls.parent_node

        def counted(self: object, original: property = original) -> object:
            reads[0] += 1
            return original.fget(self) if original.fget else None

        monkeypatch.setattr(cls, "parent_node", property(counted))
    attach()
    monkeypatch.undo()
    return reads[0]


DEPTH = 300


def test_patched_attach_at_depth_reads_a_bounded_number_of_parents(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, innermost = _nest(DEPTH)
    # a collective's shape: an op with a small region, inserted deep in the IR
    reads = _parent_reads(
        monkeypatch, lambda: innermost.add_op(_holder(Block([test_dialect.TestOp()])))
    )
    assert reads <= xdsl_patches._QUICK_CLIMB + 6


def test_upstream_still_climbs_to_the_top_on_every_insertion(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, innermost = _nest(DEPTH)
    with xdsl_patches.unpatched():
        reads = _parent_reads(
            monkeypatch, lambda: innermost.add_op(_holder(Block([test_dialect.TestOp()])))
        )
    assert reads >= 3 * DEPTH - 1  # block, region and op per level
