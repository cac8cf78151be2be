"""Which ops may be erased when nothing uses their results: xDSL's effect machinery.

The hlo ops say what they do through xDSL's effect traits (`Pure` / `NoMemoryEffect`:
elementwise, data movement, `partition_id`, `replica_id`, `hlo.return`;
`RecursiveMemoryEffect`: `while`, `conditional`, which have the effects of their bodies;
`CustomCallEffects`: a write when `has_side_effect` is set). An op without an effect trait
(collectives, send/recv, `call`, `optimization_barrier`, `after_all`) has unknown effects and is
never removable - XLA's HloDCE rule. `is_removable` is xDSL's `would_be_trivially_dead`
(not a terminator, not a symbol such as `func.func`, and no effect beyond its results); the loop
analyses use it for what a moved slice may leave.

`Effects` answers the same question for many ops in a tree, linearly: xDSL computes a `while`'s
effects from every op nested in it, so asking for every op of n nested loops walks the innermost
body n times (quadratic in the nesting depth); `Effects` remembers every op's effects, so each op
is looked at once. `hlo-dce` uses it.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from xdsl.ir import Operation, SSAValue
from xdsl.traits import (
    EffectInstance,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)
from xdsl.transforms.dead_code_elimination import would_be_trivially_dead


def is_removable(op: Operation) -> bool:
    """True if `op` may be erased when its results are unused."""
    return would_be_trivially_dead(op)


class Effects:
    """xDSL's effects and `would_be_trivially_dead`, each op's effects computed once."""

    def __init__(self) -> None:
        self._memo: dict[Operation, AbstractSet[EffectInstance] | None] = {}

    def of(self, op: Operation) -> AbstractSet[EffectInstance] | None:
        """xDSL's `get_effects(op)` (None: unknown), nested ops' effects remembered."""
        if op in self._memo:
            return self._memo[op]
        traits = op.get_traits_of_type(MemoryEffect)
        effects: set[EffectInstance] | None = set() if traits else None
        for trait in traits:
            recursive = isinstance(trait, RecursiveMemoryEffect)
            found = self._recursive(op) if recursive else trait.get_effects(op)
            if found is None or effects is None:
                effects = None
                break
            effects.update(found)
        self._memo[op] = effects
        return effects

    def _recursive(self, op: Operation) -> set[EffectInstance] | None:
        effects: set[EffectInstance] = set()
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    found = self.of(child)
                    if found is None:
                        return None
                    effects.update(found)
        return effects

    def removable(self, op: Operation) -> bool:
        """`is_removable(op)`: no terminator, no symbol, no effect beyond its results."""
        if op.has_trait(IsTerminator, value_if_unregistered=False) or op.has_trait(
            SymbolOpInterface, value_if_unregistered=False
        ):
            return False
        effects = self.of(op)
        return effects is not None and all(
            e.kind == MemoryEffectKind.READ
            or (
                e.kind == MemoryEffectKind.ALLOC
                and isinstance(v := e.value, SSAValue)
                and op.is_ancestor(v.owner)
            )
            for e in effects
        )
