"""Collecting collective ops for the normalisation passes (one walk, then rewrite).

`collect(module, kinds, entry_only)` returns the ops whose class is in `kinds`, in program
order: only the entry function's top-level ops when `entry_only` (the reference compiler walks
the entry computation's instructions; while bodies and called computations are other
computations), else every op of every function including nested regions. A module without
an entry function is a `PassFailedException("module has no entry computation")`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis.entry import find_entry
from neuron_cc.dialects.op_classes import of_class


def collect(
    module: ModuleOp, kinds: Sequence[type[Operation]], entry_only: bool
) -> list[Operation]:
    entry = find_entry(module)
    if entry is None:
        raise PassFailedException("module has no entry computation")
    wanted = tuple(kinds)
    if entry_only:
        return of_class(entry.body.ops, wanted)
    return [op for op in module.walk() if isinstance(op, wanted)]
