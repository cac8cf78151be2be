"""Progress on a terminal for long runs (tqdm), silence everywhere else.

`bar(iterable, desc)` is a tqdm bar on stderr when stderr is a terminal, the iterable itself
otherwise (pipes, CI logs, tests: no control characters in captured output).
`NEURON_CC_PROGRESS=0` turns bars off on a terminal too, `=1` forces them (for a check).

`OpTicker` is the interpreter's: `run_module(..., on_ops=ticker)` calls it every 65,536
interpreted ops; it shows a counter (ops, ops/s) once a run has taken `DELAY_SECONDS`
(`NEURON_CC_PROGRESS_DELAY` overrides it), so short runs print nothing.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
DELAY_SECONDS = 2.0


def enabled() -> bool:
    forced = os.environ.get("NEURON_CC_PROGRESS")
    if forced is not None:
        return forced == "1"
    return sys.stderr.isatty()


def bar(iterable: Iterable[T], desc: str, total: int | None = None) -> Iterator[T]:
    """`iterable`, with a progress bar on a terminal."""
    if not enabled():
        yield from iterable
        return
    from tqdm import tqdm

    yield from tqdm(iterable, desc=desc, total=total, file=sys.stderr, leave=False)


class TimeBar:
    """A bar over a time budget (`update(elapsed)`), for loops bounded by a deadline."""

    def __init__(self, seconds: float, desc: str) -> None:
        self._bar: Any = None
        self._done = 0
        if enabled():
            from tqdm import tqdm

            self._bar = tqdm(
                total=round(seconds), desc=desc, unit="s", file=sys.stderr, leave=False
            )

    def update(self, elapsed: float) -> None:
        if self._bar is not None and int(elapsed) > self._done:
            step = min(int(elapsed), self._bar.total) - self._done
            self._bar.update(step)
            self._done += step

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


class OpTicker:
    """The interpreter's progress callback (see the module docstring)."""

    def __init__(self, desc: str = "interpreting") -> None:
        self.desc = desc
        self.started = time.perf_counter()
        self.ops = 0
        self._bar: Any = None

    def __call__(self, ops: int) -> None:
        self.ops += ops
        if self._bar is None:
            delay = float(os.environ.get("NEURON_CC_PROGRESS_DELAY", DELAY_SECONDS))
            if time.perf_counter() - self.started < delay:
                return
            from tqdm import tqdm

            self._bar = tqdm(
                desc=self.desc, unit=" ops", unit_scale=True, file=sys.stderr, leave=False
            )
            self._bar.update(self.ops)
            return
        self._bar.update(ops)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def op_ticker(desc: str = "interpreting") -> OpTicker | None:
    """An `OpTicker` on a terminal, else None (no callback: nothing to pay per op)."""
    return OpTicker(desc) if enabled() else None
