"""Changing a value's type, and replacing many values at once, in time linear in their uses.

An op's operands are an immutable tuple in xDSL, so redirecting one use rebuilds its user's
whole operand tuple. A loop's body result is one `hlo.tuple` reading every slot: a rewrite
that replaces or re-types the slots one value at a time (xDSL's `replace_all_uses_with`, and
`Rewriter.replace_value_with_new_type`, which moves every use to a new value) rebuilds that
tuple once per slot, quadratic in the loop's width. These two helpers do not:

- `set_type(value, t)` gives `value` the type `t` in place, MLIR's `Value::setType`: the same
  value object, the same uses, nothing rebuilt. The caller answers for the users accepting
  the new type, as with `replace_value_with_new_type`.
- `replace_values(pairs)` replaces every use of each old value by its new value, rebuilding
  each user's operand tuple once for all the pairs (xDSL's would rebuild it once per use).
  The uses move in the order `replace_all_uses_with` of each pair in turn would move them.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.core import SSAValues


def set_type(value: SSAValue, new_type: Attribute) -> SSAValue:
    """`value`, now of type `new_type` (see the module docstring)."""
    object.__setattr__(value, "_type", new_type)
    return value


def replace_values(pairs: Iterable[tuple[SSAValue, SSAValue]]) -> None:
    """Every use of each `old` becomes a use of its `new` (`pairs` of (old, new)); `new`
    takes `old`'s name hint when it has none, as in `replace_all_uses_with`. The pairs may be
    read from the IR as it was before any replacement: a `new` that an earlier pair replaced
    is taken as that pair's replacement (what replacing the pairs one at a time would have
    read from the IR), so a chain (b reads a, both replaced by their operands) ends where one
    replacement at a time would end. Operand tuples are written at the end: a user's
    `operands` read while `pairs` is consumed are the old ones."""
    rebuilt: dict[int, tuple[Operation, list[SSAValue]]] = {}
    replaced: dict[int, SSAValue] = {}
    for old, new in pairs:
        while (later := replaced.get(id(new))) is not None:
            new = later
        if new is old:
            continue
        replaced[id(old)] = new
        use = old.first_use
        while use is not None:
            following = use._next_use
            user = use.operation
            entry = rebuilt.get(id(user))
            if entry is None:
                entry = rebuilt[id(user)] = (user, list(user._operands))
            entry[1][use.index] = new
            old.remove_use(use)
            new.add_use(use)
            use = following
        if new.name_hint is None:
            new.name_hint = old.name_hint
    for user, operands in rebuilt.values():
        user._operands = SSAValues(operands)
