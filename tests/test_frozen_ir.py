"""`neuron_cc.dialects.frozen_ir`: the enclosing module, climbed once per block in a scope.

Checks the answers against a plain climb (nested modules, detached ops), that a scope makes
n ops nested up to d deep climb O(n + d) blocks instead of O(n * d), that verification and the
BIR lowering open a scope, and that nothing is remembered after the scope closes.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from xdsl.dialects import test as test_dialect
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region

from neuron_cc.dialects.frozen_ir import enclosing_module, frozen, is_frozen
from neuron_cc.testing.ir import neuron_context
from neuron_cc.transforms.convert_hlo_to_bir import ConvertHloToBirPass
from neuron_cc.translate.hlo_text.importer import import_hlo
from tests.conftest import load_tool

gen_dimensions = load_tool("gen_dimensions")


def _chain(depth: int) -> tuple[Operation, list[Operation]]:
    """`depth` test ops nested in each other's regions: (the outermost, one leaf op per level,
    outermost level first)."""
    leaves: list[Operation] = []
    inner: Operation | None = None
    for _ in range(depth):
        leaf = test_dialect.TestOp()
        leaves.append(leaf)
        ops = [leaf] if inner is None else [leaf, inner]
        inner = test_dialect.TestOp(regions=[Region(Block(ops))])
    assert inner is not None
    return inner, leaves[::-1]


def _plain(op: Operation) -> ModuleOp | None:
    node: Operation | None = op
    while node is not None and not isinstance(node, ModuleOp):
        node = node.parent_op()
    return node


def test_enclosing_module_is_the_nearest_one() -> None:
    outer_top, outer_leaves = _chain(5)
    inner_top, inner_leaves = _chain(4)
    inner_module = ModuleOp([inner_top])
    outer_leaves[-1].parent_block().add_op(inner_module)  # pyright: ignore[reportOptionalMemberAccess]
    outer_module = ModuleOp([outer_top])
    detached_top, detached_leaves = _chain(3)
    ops = [*outer_leaves, *inner_leaves, *detached_leaves, inner_module, outer_module]
    for scoped in (False, True):
        if scoped:
            with frozen():
                found = [enclosing_module(op) for op in ops]
        else:
            found = [enclosing_module(op) for op in ops]
        assert found == [_plain(op) for op in ops]
    assert enclosing_module(inner_leaves[0]) is inner_module
    assert enclosing_module(outer_leaves[0]) is outer_module
    assert enclosing_module(detached_leaves[-1]) is None
    assert detached_top.parent is None


def _climbs(monkeypatch: pytest.MonkeyPatch, run: Callable[[], object]) -> int:
    """How many times `run` asks a block for its parent op."""
    calls = [0]
    original = Block.parent_op

    def counted(self: Block) -> Operation | None:
        calls[0] += 1
        return original(self)

    monkeypatch.setattr(Block, "parent_op", counted)
    run()
    monkeypatch.undo()
    return calls[0]


DEPTH = 60


def test_a_scope_climbs_each_block_once(monkeypatch: pytest.MonkeyPatch) -> None:
    top, leaves = _chain(DEPTH)
    ModuleOp([top])

    def ask() -> None:
        for leaf in leaves:
            enclosing_module(leaf)

    unscoped = _climbs(monkeypatch, ask)

    def scoped() -> None:
        with frozen():
            ask()

    # level k climbs its k blocks and the module's: sum of k + 1; in a scope each block once
    assert unscoped == DEPTH * (DEPTH + 3) // 2
    assert _climbs(monkeypatch, scoped) == DEPTH + 1


def test_nothing_is_remembered_after_the_scope() -> None:
    top, leaves = _chain(3)
    first = ModuleOp([top])
    with frozen():
        assert is_frozen()
        assert enclosing_module(leaves[-1]) is first
    assert not is_frozen()
    top.detach()
    second = ModuleOp([top])
    with frozen():
        assert enclosing_module(leaves[-1]) is second


@pytest.mark.parametrize("step", ["verify", "convert-hlo-to-bir"])
def test_verification_and_bir_lowering_climb_linearly(
    monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    """A collective in each of n nested loops: verification and the lowering ask the blocks
    for their parents O(n) times (once per block), not once per collective per level."""
    counts: list[int] = []
    for n in (20, 40):
        module = import_hlo(gen_dimensions.nesting(n))
        if step == "verify":
            counts.append(_climbs(monkeypatch, module.verify))
        else:
            pass_ = ConvertHloToBirPass()
            counts.append(_climbs(monkeypatch, lambda m=module: pass_.apply(neuron_context(), m)))
    assert counts[0] > 0
    assert counts[1] <= 2.2 * counts[0], counts  # quadratic would be 4x
