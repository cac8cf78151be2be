"""Optimisation remarks: for every collective a pass considered, "moved" or why not.

A pass creates `Remarks(pass_name, enabled)` and calls `remark(op, message)`; when enabled the
line `remark: <pass>: <op description>: <message>` is written to stderr (in program order).
Enabled by a pass's `remarks=true` option or, for every pass, by `neuron-opt --pass-remarks`
(which sets `FORCE_REMARKS`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from xdsl.ir import Operation

FORCE_REMARKS = False
"""Set by `neuron-opt --pass-remarks`: every pass emits its remarks."""


def describe(op: Operation) -> str:
    """`%name ('hlo.all_reduce')`, or just the op name when it has no name hint."""
    hint = op.results[0].name_hint if op.results else None
    return f"%{hint} ({op.name})" if hint else f"'{op.name}'"


@dataclass
class Remarks:
    pass_name: str
    enabled: bool
    lines: list[str] = field(default_factory=list[str])

    def remark(self, op: Operation, message: str) -> None:
        self._emit(f"remark: {self.pass_name}: {describe(op)}: {message}")

    def summary(self, message: str) -> None:
        """One line about the whole run (e.g. how many collectives moved)."""
        self._emit(f"remark: {self.pass_name}: {message}")

    def _emit(self, line: str) -> None:
        self.lines.append(line)
        if self.enabled or FORCE_REMARKS:
            print(line, file=sys.stderr)
