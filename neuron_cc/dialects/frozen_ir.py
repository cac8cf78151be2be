"""Answers that climb the IR, remembered while the IR does not change.

A collective's verifier and the BIR lowering need the enclosing module's device counts
(`replica_groups.device_counts`), found by climbing from the op to the nearest `ModuleOp`: d
steps for an op nested d deep, so n collectives in n nested loops cost n * d, quadratic in the
nesting. Inside `frozen()` - entered by the outermost `Operation.verify` (verifiers only read
the IR; `xdsl_patches` patch 9) and by a pass around a phase that only reads it -
`enclosing_module` remembers the answer for every block it climbs through, so each block is
climbed from once per scope: O(n + d). The caller answers for the IR not changing inside the
scope (no op or block moves to another module, nothing is attached or detached); outside any
scope every call climbs.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation

_MEMOS: list[dict[int, tuple[Block, ModuleOp | None]]] = []
"""One memo per open scope: id(block) -> (the block, kept alive so its id is not reused; the
nearest module enclosing it, None when there is none)."""


@contextmanager
def frozen() -> Generator[None]:
    """A scope in which the IR does not change (see the module docstring)."""
    _MEMOS.append({})
    try:
        yield
    finally:
        _MEMOS.pop()


def is_frozen() -> bool:
    """Whether a `frozen()` scope is open."""
    return bool(_MEMOS)


def enclosing_module(op: Operation) -> ModuleOp | None:
    """The nearest `ModuleOp` that is `op` or holds it (None: `op` is in none)."""
    memo = _MEMOS[-1] if _MEMOS else None
    climbed: list[Block] = []
    node: Operation | None = op
    while node is not None and not isinstance(node, ModuleOp):
        block = node.parent
        if block is None:
            node = None
            break
        if memo is not None:
            known = memo.get(id(block))
            if known is not None:
                node = known[1]
                break
            climbed.append(block)
        node = block.parent_op()
    if memo is not None:
        for block in climbed:
            memo[id(block)] = (block, node)
    return node
