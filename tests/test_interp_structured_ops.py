"""reverse, convolution, select-and-scatter, map and topk in neuron-run against XLA:CPU (issue 17).

Seeded random cases per op (shapes and attributes varied, 2 replicas with different inputs)
run on XLA:CPU and on the interpreter. Everything is compared bit for bit except float
convolutions, whose sums XLA:CPU accumulates in f32 in Eigen's order: there 1e-5 of the
output's largest magnitude (the interpreter sums in f64 and rounds once).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from neuron_cc.dialects.hlo.dimension_numbers import WindowAttr, window_shape
from neuron_cc.testing.op_cases import (
    OpCase,
    entry_module,
    interpret,
    op_case,
    shape_text,
    xla_differences,
)
from neuron_cc.testing.xla_run import XLA_UNAVAILABLE, xla_available

Array = np.ndarray[Any, Any]
DEVICES = 2
_NP = {"f32": np.float32, "s32": np.int32}


def _values(rng: np.random.Generator, ty: str, dims: tuple[int, ...], ties: bool = False) -> Array:
    shape = (DEVICES, *dims)
    if ty == "s32":
        return rng.integers(-5 if ties else -1000, 5 if ties else 1000, shape).astype(np.int32)
    if ties:
        return rng.integers(-3, 4, shape).astype(np.float32)
    return rng.standard_normal(shape).astype(np.float32)


# --- cases -----------------------------------------------------------------------------------


def reverse_cases(seed: int) -> list[OpCase]:
    rng = np.random.default_rng(seed)
    cases: list[OpCase] = []
    for n in range(6):
        ty = ["f32", "s32"][n % 2]
        dims = tuple(int(v) for v in rng.integers(1, 5, int(rng.integers(1, 5))))
        rev = sorted(
            int(d)
            for d in rng.choice(len(dims), int(rng.integers(0, len(dims) + 1)), replace=False)
        )
        root = f"r = {shape_text(ty, dims)} reverse(p0), dimensions={{{','.join(map(str, rev))}}}"
        cases.append(op_case(f"reverse_{seed}_{n}", [(ty, dims)], root, [_values(rng, ty, dims)]))
    return cases


_LABELS = [
    ("b{s}f", "{s}io", "b{s}f"),
    ("bf{s}", "oi{s}", "bf{s}"),
    ("f{s}b", "i{s}o", "{s}bf"),
]


def _conv_case(rng: np.random.Generator, name: str, ty: str) -> OpCase:
    rank = int(rng.integers(1, 3))
    fgc, bgc = 1, 1
    kind = int(rng.integers(0, 3))
    if kind == 1:
        fgc = int(rng.integers(2, 4))
    elif kind == 2:
        bgc = int(rng.integers(2, 4))
    batch = bgc * int(rng.integers(1, 3))
    in_f = fgc * int(rng.integers(1, 4))
    out_f = fgc * bgc * int(rng.integers(1, 3))
    spatial = [int(v) for v in rng.integers(3, 7, rank)]
    size = [int(v) for v in rng.integers(1, 4, rank)]
    stride = [int(v) for v in rng.integers(1, 3, rank)]
    pads = [(int(rng.integers(-1, 3)), int(rng.integers(-1, 3))) for _ in range(rank)]
    lhs_d = [int(v) for v in rng.integers(1, 3, rank)]
    rhs_d = [int(v) for v in rng.integers(1, 3, rank)]
    rev = [int(v) for v in rng.integers(0, 2, rank)]
    s = "".join(map(str, range(rank)))
    lhs_l, rhs_l, out_l = (p.format(s=s) for p in _LABELS[int(rng.integers(0, len(_LABELS)))])

    def layout(labels: str, sizes: dict[str, int]) -> tuple[int, ...]:
        return tuple(sizes[c] if c in sizes else 0 for c in labels)

    lhs_sizes = {"b": batch, "f": in_f, **{str(k): spatial[k] for k in range(rank)}}
    rhs_sizes = {"i": in_f // fgc, "o": out_f, **{str(k): size[k] for k in range(rank)}}
    window = WindowAttr.make(size, stride, pads, lhs_d, rhs_d).data
    out_sp = window_shape(tuple(spatial), window)
    out_sizes = {"b": batch // bgc, "f": out_f, **{str(k): out_sp[k] for k in range(rank)}}
    lhs, rhs, out = layout(lhs_l, lhs_sizes), layout(rhs_l, rhs_sizes), layout(out_l, out_sizes)
    x = "x".join
    win = (
        f"size={x(map(str, size))} stride={x(map(str, stride))} "
        f"pad={x(f'{lo}_{hi}' for lo, hi in pads)} lhs_dilate={x(map(str, lhs_d))} "
        f"rhs_dilate={x(map(str, rhs_d))} rhs_reversal={x(map(str, rev))}"
    )
    groups = (f", feature_group_count={fgc}" if fgc > 1 else "") + (
        f", batch_group_count={bgc}" if bgc > 1 else ""
    )
    root = (
        f"c = {shape_text(ty, out)} convolution(p0, p1), window={{{win}}}, "
        f"dim_labels={lhs_l}_{rhs_l}->{out_l}{groups}"
    )
    inputs = [_values(rng, ty, lhs), _values(rng, ty, rhs)]
    return op_case(name, [(ty, lhs), (ty, rhs)], root, inputs, rtol=1e-5 if ty == "f32" else 0.0)


def convolution_cases(seed: int) -> list[OpCase]:
    rng = np.random.default_rng(seed)
    return [
        _conv_case(rng, f"convolution_{seed}_{n}", ["f32", "s32"][n % 3 == 2]) for n in range(12)
    ]


_SELECT = """
sel {{
  a = {t}[] parameter(0)
  b = {t}[] parameter(1)
  ROOT c = pred[] compare(a, b), direction={d}
}}

sca {{
  a = {t}[] parameter(0)
  b = {t}[] parameter(1)
  ROOT c = {t}[] {op}(a, b)
}}
"""


def select_and_scatter_cases(seed: int) -> list[OpCase]:
    rng = np.random.default_rng(seed)
    cases: list[OpCase] = []
    for n in range(8):
        ty = ["f32", "s32"][n % 2]
        dims = tuple(int(v) for v in rng.integers(2, 7, 2))
        size = [int(v) for v in rng.integers(1, 4, 2)]
        stride = [int(v) for v in rng.integers(1, 3, 2)]
        pads = [(int(rng.integers(0, 2)), int(rng.integers(0, 2))) for _ in range(2)]
        src = window_shape(dims, WindowAttr.make(size, stride, pads).data)
        x = "x".join
        win = f"size={x(map(str, size))} stride={x(map(str, stride))} pad={x(f'{a}_{b}' for a, b in pads)}"
        extra = _SELECT.format(t=ty, d=["GE", "LE", "GT"][n % 3], op=["add", "maximum"][n % 4 == 3])
        root = (
            f"s = {shape_text(ty, dims)} select-and-scatter(p0, p1, p2), window={{{win}}}, "
            "select=sel, scatter=sca"
        )
        params = [(ty, dims), (ty, tuple(src)), (ty, ())]
        inputs = [
            _values(rng, ty, dims, ties=True),
            _values(rng, ty, tuple(src)),
            _values(rng, ty, ()),
        ]
        cases.append(op_case(f"select_and_scatter_{seed}_{n}", params, root, inputs, extra=extra))
    return cases


_MAP = """
fn {{
  a = {t}[] parameter(0)
  b = {t}[] parameter(1)
  s = {t}[] add(a, b)
  m = {t}[] multiply(s, a)
  ROOT r = {t}[] maximum(m, b)
}}
"""


def map_cases(seed: int) -> list[OpCase]:
    rng = np.random.default_rng(seed)
    cases: list[OpCase] = []
    for n in range(4):
        ty = ["f32", "s32"][n % 2]
        dims = tuple(int(v) for v in rng.integers(1, 5, int(rng.integers(0, 4))))
        all_dims = ",".join(map(str, range(len(dims))))
        root = f"m = {shape_text(ty, dims)} map(p0, p1), dimensions={{{all_dims}}}, to_apply=fn"
        inputs = [_values(rng, ty, dims), _values(rng, ty, dims)]
        cases.append(
            op_case(
                f"map_{seed}_{n}", [(ty, dims), (ty, dims)], root, inputs, extra=_MAP.format(t=ty)
            )
        )
    return cases


def topk_cases(seed: int) -> list[OpCase]:
    rng = np.random.default_rng(seed)
    cases: list[OpCase] = []
    for n in range(8):
        ty = ["f32", "s32"][n % 4 == 3]
        rows, cols = int(rng.integers(1, 5)), int(rng.integers(1, 12))
        k = int(rng.integers(0, cols + 1))
        dims = (rows, cols) if n % 2 else (cols,)
        x = _values(rng, ty, dims, ties=True)
        if ty == "f32":
            special = np.array([-0.0, 0.0, np.nan, -np.nan, np.inf, -np.inf], np.float32)
            mask = rng.random(x.shape) < 0.3
            x = np.where(mask, rng.choice(special, x.shape), x).astype(np.float32)
        largest = "true" if n % 3 else "false"
        out = (*dims[:-1], k)
        root = f"t = ({shape_text(ty, out)}, {shape_text('s32', out)}) topk(p0), k={k}, largest={largest}"
        cases.append(op_case(f"topk_{seed}_{n}", [(ty, dims)], root, [x]))
    return cases


def all_cases() -> list[OpCase]:
    cases: list[OpCase] = []
    for seed in (1, 2):
        cases += reverse_cases(seed) + convolution_cases(seed) + select_and_scatter_cases(seed)
        cases += map_cases(seed) + topk_cases(seed)
    return cases


CASES = all_cases()


def test_cases_vary_their_attributes() -> None:
    text = "\n".join(c.hlo for c in CASES)
    for needle in (
        "feature_group_count",
        "batch_group_count",
        "rhs_reversal=1",
        "largest=false",
        "pad=-1",
        "direction=LE",
        "to_apply=fn",
        "dimensions={}",
    ):
        assert needle in text, needle


def test_interpreter_runs_every_case() -> None:
    for case in CASES:
        outs = interpret(case)
        assert outs, case.name
        assert all(o.shape[0] == DEVICES for o in outs), case.name


def test_reverse_and_topk_small_examples() -> None:
    rev = next(c for c in CASES if c.name.startswith("reverse"))
    got = interpret(rev)[0]
    dims = [int(d) for d in rev.hlo.split("dimensions={")[1].split("}")[0].split(",") if d]
    assert np.array_equal(got, np.flip(rev.inputs[0], tuple(1 + d for d in dims)))
    hlo = entry_module("t", [("f32", (5,))], "t = (f32[3], s32[3]) topk(p0), k=3, largest=true")
    x = np.array([[1, 3, 3, -0.0, 0.0]] * DEVICES, np.float32)
    case = OpCase("t", hlo, ("float32",), (x,))
    values, indices = interpret(case)
    assert values[0].tolist() == [3, 3, 1]
    assert indices[0].tolist() == [1, 2, 0]


@pytest.mark.parametrize("op", ["reverse", "convolution", "select_and_scatter", "map", "topk"])
def test_matches_xla(op: str) -> None:
    if not xla_available():
        pytest.skip(XLA_UNAVAILABLE)
    cases = [c for c in CASES if c.name.startswith(op + "_")]
    problems = xla_differences(cases)
    assert not problems, "\n".join(problems)
