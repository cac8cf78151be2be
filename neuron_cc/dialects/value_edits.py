"""Changing a value's type, replacing many values and editing many operands, linear in their uses.

An op's operands are an immutable tuple in xDSL, so redirecting one use rebuilds its user's
whole operand tuple. A loop's body result is one `hlo.tuple` reading every slot: a rewrite
that replaces or re-types the slots one value at a time (xDSL's `replace_all_uses_with`, and
`Rewriter.replace_value_with_new_type`, which moves every use to a new value) rebuilds that
tuple once per slot, quadratic in the loop's width. These helpers do not:

- `set_type(value, t)` gives `value` the type `t` in place, MLIR's `Value::setType`: the same
  value object, the same uses, nothing rebuilt. The caller answers for the users accepting
  the new type, as with `replace_value_with_new_type`.
- `operand_edits()` collects operand assignments (`op.operands[i] = v`) and writes each
  op's operand tuple once when its block ends.
- `replace_values(pairs)` replaces every use of each old value by its new value, rebuilding
  each user's operand tuple once for all the pairs (xDSL's would rebuild it once per use).
  The uses move in the order `replace_all_uses_with` of each pair in turn would move them.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from contextlib import contextmanager

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.core import SSAValues


def set_type(value: SSAValue, new_type: Attribute) -> SSAValue:
    """`value`, now of type `new_type` (see the module docstring)."""
    object.__setattr__(value, "_type", new_type)
    return value


class OperandEdits:
    """Operand assignments (`op.operands[i] = v`) whose operand tuples are written once per
    op, at `flush` (the `operand_edits()` context flushes on exit). Each use moves to its new
    value at once, so use lists are always current; an edited op's `operands` read before the
    flush are the old ones."""

    def __init__(self) -> None:
        self._pending: dict[int, tuple[Operation, list[SSAValue]]] = {}

    def set(self, op: Operation, index: int, value: SSAValue) -> None:
        """`op`'s operand `index` becomes `value`."""
        entry = self._pending.get(id(op))
        if entry is None:
            entry = self._pending[id(op)] = (op, list(op._operands))
        old = entry[1][index]
        if old is value:
            return
        use = op._operand_uses[index]
        old.remove_use(use)
        value.add_use(use)
        entry[1][index] = value

    def flush(self) -> None:
        for op, operands in self._pending.values():
            op._operands = SSAValues(operands)
        self._pending.clear()


@contextmanager
def operand_edits() -> Generator[OperandEdits]:
    """An `OperandEdits`, flushed when the block ends."""
    edits = OperandEdits()
    try:
        yield edits
    finally:
        edits.flush()


def replace_values(pairs: Iterable[tuple[SSAValue, SSAValue]]) -> None:
    """Every use of each `old` becomes a use of its `new` (`pairs` of (old, new)); `new`
    takes `old`'s name hint when it has none, as in `replace_all_uses_with`. The pairs may be
    read from the IR as it was before any replacement: a `new` that an earlier pair replaced
    is taken as that pair's replacement (what replacing the pairs one at a time would have
    read from the IR), so a chain (b reads a, both replaced by their operands) ends where one
    replacement at a time would end. Operand tuples are written at the end (`OperandEdits`):
    a user's `operands` read while `pairs` is consumed are the old ones."""
    replaced: dict[int, SSAValue] = {}
    with operand_edits() as edits:
        for old, new in pairs:
            while (later := replaced.get(id(new))) is not None:
                new = later
            if new is old:
                continue
            replaced[id(old)] = new
            use = old.first_use
            while use is not None:
                following = use._next_use
                edits.set(use.operation, use.index, new)
                use = following
            if new.name_hint is None:
                new.name_hint = old.name_hint
