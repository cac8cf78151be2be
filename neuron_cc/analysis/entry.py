"""The entry computation of an hlo module: the `func.func` marked `hlo.entry`, else `@main`,
else the only function."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

ENTRY_ATTR = "hlo.entry"


def find_entry(module: ModuleOp) -> func.FuncOp | None:
    """The entry function, or None when the module has none."""
    funcs = [op for op in module.ops if isinstance(op, func.FuncOp)]
    for f in funcs:
        if ENTRY_ATTR in f.attributes:
            return f
    for f in funcs:
        if f.sym_name.data == "main":
            return f
    return funcs[0] if len(funcs) == 1 else None
