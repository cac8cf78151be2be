"""Patch 6's compact op layout (neuron_cc/dialects/xdsl_patches.py): every op keeps its fields in
CPython's per-class shared key table, never in a dict of its own.

On CPython 3.11 an instance's attributes stay in a compact values array only while its class's
shared key table can take each new attribute name, and the table's spare room shrinks with every
instance built. xDSL's `Operation.__init__` leaves `parent`, `_next_op` and `_prev_op` to the
class defaults until the op is linked into a block, so a class whose first few dozen ops are
built before any of them is linked (a body the importer builds, then links) never gets those
names into its table: every op of the class then carries a full dict (15% more memory per op of
a loop body, and one more cache line per field read). The patched constructor sets the three
with the others, so the first instance puts them in the table.
"""

from __future__ import annotations

import gc
import sys

import pytest
from xdsl.dialects.builtin import f32
from xdsl.ir import Block, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition

from neuron_cc.dialects import xdsl_patches

BUILT_BEFORE_LINKING = 64
"""More than CPython 3.11's shared key table has room for (30 names) after as many instances."""


def _fresh_op_class() -> type[IRDLOperation]:
    """A new op class each call: the shared key table belongs to the class, and another test may
    already have filled the table of any class defined once."""

    @irdl_op_definition
    class LayoutProbeOp(IRDLOperation):
        name = "test.layout_probe"

    return LayoutProbeOp


def _has_own_dict(op: Operation) -> bool:
    """Whether `op`'s fields moved from the compact values into a dict of its own (the garbage
    collector then reports that dict, holding the field names, among the op's referents)."""
    return any(type(r) is dict and "_operands" in r for r in gc.get_referents(op))


def _built_then_linked() -> list[bool]:
    """`BUILT_BEFORE_LINKING` ops of a fresh class, all built before the first is linked into a
    block (as the importer builds a body); whether each has a dict of its own."""
    cls = _fresh_op_class()
    ops = [cls.create(result_types=[f32]) for _ in range(BUILT_BEFORE_LINKING)]
    block = Block()
    block.add_ops(ops)
    assert [op.parent for op in ops] == [block] * len(ops)
    assert ops[1].prev_op is ops[0]
    assert ops[0].next_op is ops[1]
    return [_has_own_dict(op) for op in ops]


def test_has_own_dict_sees_a_materialised_dict() -> None:
    op = _fresh_op_class().create(result_types=[f32])
    assert not _has_own_dict(op)
    _ = op.__dict__  # asking for the dict builds it
    assert _has_own_dict(op)


def test_patched_ops_built_before_linking_keep_the_compact_layout() -> None:
    assert not any(_built_then_linked())


@pytest.mark.skipif(
    sys.version_info[:2] != (3, 11), reason="the shrinking shared key table is CPython 3.11's"
)
def test_upstream_ops_built_before_linking_still_get_a_dict_each() -> None:
    with xdsl_patches.unpatched():
        own = _built_then_linked()
    assert all(own), "xDSL now sets the link fields at construction: patch 6's part on them"
