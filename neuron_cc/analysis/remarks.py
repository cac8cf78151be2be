"""Optimisation remarks: for every collective a pass considered, "moved" or why not.

A pass creates `Remarks(pass_name, enabled)` and calls `remark(op, message)`; when enabled the
line `remark: <pass>: <op description>: <message>` is written to stderr (in program order).
Enabled by a pass's `remarks=true` option or, for every pass, inside `forced_remarks()` (how
`neuron-opt --pass-remarks` runs its pipeline). The forcing is scoped to the `with` block (a
context variable), so nothing leaks from one in-process run into the next.
"""

from __future__ import annotations

import sys
from collections.abc import Generator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from xdsl.ir import Operation

_FORCED: ContextVar[bool] = ContextVar("neuron_cc_forced_remarks", default=False)
"""True inside `forced_remarks()`: every pass emits its remarks."""


@contextmanager
def forced_remarks(enabled: bool = True) -> Generator[None]:
    """Within the block every pass emits its remarks (when `enabled`); restored on exit."""
    token = _FORCED.set(enabled or _FORCED.get())
    try:
        yield
    finally:
        _FORCED.reset(token)


def remarks_forced() -> bool:
    """Whether the current code runs inside `forced_remarks()`."""
    return _FORCED.get()


def describe(op: Operation) -> str:
    """`%name ('hlo.all_reduce')`, or just the op name when it has no name hint."""
    hint = op.results[0].name_hint if op.results else None
    return f"%{hint} ({op.name})" if hint else f"'{op.name}'"


@dataclass
class Remarks:
    pass_name: str
    enabled: bool
    lines: list[str] = field(default_factory=list[str])

    @property
    def active(self) -> bool:
        """Whether remarks are printed (enabled, or forced by `forced_remarks`)."""
        return self.enabled or _FORCED.get()

    def remark(self, op: Operation, message: str) -> None:
        if self.active:  # nothing is formatted for a silent pass
            self._emit(f"remark: {self.pass_name}: {describe(op)}: {message}")

    def summary(self, message: str) -> None:
        """One line about the whole run (e.g. how many collectives moved)."""
        if self.active:
            self._emit(f"remark: {self.pass_name}: {message}")

    def _emit(self, line: str) -> None:
        """Print `line` to stderr (and keep it in `lines`)."""
        self.lines.append(line)
        print(line, file=sys.stderr)
