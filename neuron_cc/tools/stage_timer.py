"""`--time-passes`: wall time per stage of a tool run, printed as a table (like `-mlir-timing`).

A `StageTimer` collects (stage, seconds) rows: `with timer.stage("parse"):` around a stage, or
`timer.add(name, seconds)` for one timed elsewhere (a pass, between two pipeline callbacks).
Rows with the same name (several `--split-input-file` chunks) add up and keep the place of their
first occurrence. `report()` gives the table: one row per stage with its share of the total,
then the total of the rows and the wall time of the whole run (the difference is what no stage
covers: argument parsing, setting up the pipeline, writing the output).

A disabled timer (the default) records nothing and costs one attribute test per stage.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from contextlib import contextmanager

_RULE = "===" + "-" * 73 + "==="


class StageTimer:
    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled
        self.rows: dict[str, float] = {}
        self.started = time.perf_counter()

    def add(self, name: str, seconds: float) -> None:
        if self.enabled:
            self.rows[name] = self.rows.get(name, 0.0) + seconds

    @contextmanager
    def stage(self, name: str) -> Generator[None]:
        if not self.enabled:
            yield
            return
        start = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - start)

    def report(self, title: str) -> str:
        wall = time.perf_counter() - self.started
        total = sum(self.rows.values())
        lines = [
            _RULE,
            f"{'... ' + title + ' ...':^79}",
            _RULE,
            f"  Total Execution Time: {wall:.4f} seconds",
            "",
            "  ----Wall Time----  ----Name----",
        ]
        for name, seconds in self.rows.items():
            lines.append(f"  {seconds:9.4f} ({_share(seconds, wall)})  {name}")
        lines.append(f"  {total:9.4f} ({_share(total, wall)})  Total (stages)")
        lines.append(f"  {wall:9.4f} (100.0%)  Total (wall)")
        return "\n".join(line.rstrip() for line in lines) + "\n"


def _share(part: float, whole: float) -> str:
    return f"{100 * part / whole:5.1f}%" if whole > 0 else "  0.0%"
