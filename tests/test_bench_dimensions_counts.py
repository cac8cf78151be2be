"""tools/bench_dimensions.py --count: only the cells above the limit are counted, and reported.

The counting itself (callgrind) is replaced here; `tests/test_bench_counts.py` tests it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import load_tool

bench_dimensions = load_tool("bench_dimensions")


def _results() -> dict[str, Any]:
    """Two dimensions: `slow` is above the limit on width only; `refused` has no 10x time."""
    small = {"import": 1.0, "slow": 1.0, "refused": 1.0}
    return {
        "scale": 10,
        "dimensions": {
            "width": {
                "1x": {"n": 200, "seconds": small},
                "10x": {"n": 2000, "seconds": {"import": 10.0, "slow": 13.0, "refused": None}},
            },
            "users": {
                "1x": {"n": 400, "seconds": small},
                "10x": {"n": 4000, "seconds": {"import": 9.0, "slow": 11.0, "refused": None}},
            },
        },
    }


def test_only_the_cells_above_the_limit_are_counted_and_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[dict[str, list[str]]] = []

    def counted(cells: dict[str, list[str]], scale: int) -> dict[str, Any]:
        asked.append(cells)
        return {
            d: {s: [9.9, 10.0, 9.8, 17.5] for s in steps} for d, steps in cells.items() if steps
        }

    monkeypatch.setattr(bench_dimensions.bench_counts, "available", lambda: True)
    monkeypatch.setattr(bench_dimensions.bench_counts, "counted_ratios", counted)
    results = _results()
    bench_dimensions.count_failures(results)
    assert asked == [{"width": ["slow"], "users": []}]
    report = bench_dimensions.markdown(results)
    assert "| slow | width | 13.0 | 9.9 | 10.0 | 9.8 | 17.5 |" in report


def test_nothing_is_counted_without_valgrind_or_without_a_cell_above_the_limit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def never(cells: dict[str, list[str]], scale: int) -> dict[str, Any]:
        raise AssertionError("counted")

    monkeypatch.setattr(bench_dimensions.bench_counts, "counted_ratios", never)
    monkeypatch.setattr(bench_dimensions.bench_counts, "available", lambda: False)
    results = _results()
    bench_dimensions.count_failures(results)
    assert "counts" not in results
    assert "valgrind not found" in capsys.readouterr().err
    assert "Counted under callgrind" not in bench_dimensions.markdown(results)

    monkeypatch.setattr(bench_dimensions.bench_counts, "available", lambda: True)
    results = _results()
    results["dimensions"]["width"]["10x"]["seconds"]["slow"] = 11.9
    bench_dimensions.count_failures(results)
    assert "counts" not in results
