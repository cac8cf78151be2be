"""Order and rounding of reduce, reduce_window, scatter and all-reduce, as XLA:CPU does them.

Issue 15: the interpreter summed a bf16 reduce in f32 and rounded once, XLA:CPU (compared with
XLA_FLAGS=--xla_allow_excess_precision=false) rounds the running value to bf16 after every
step, so `[256, small..., -256]` is 0 on XLA and 1.898 in neuron-run.

The expected values of `PINNED` were measured on XLA:CPU (jax/jaxlib 0.10.2, x86-64): each
module's HLO text below was compiled and run on XLA:CPU as 8 replicas by the XLA oracle's
worker (`neuron_cc.testing.xla_worker`: --xla_allow_excess_precision=false,
--xla_cpu_max_isa=AVX) on the inputs below; `test_pinned_cases_match_xla_in_
neuron_run` needs no jax. With jax importable, `test_matches_xla_bit_for_bit` runs the pinned
modules and seeded random ones on XLA:CPU again, in a subprocess (XLA_FLAGS must be set before
jax is imported), and compares every output bit for bit. Each pinned case names the order it
pins; the alternative order gives a different value (noted next to it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from neuron_cc.interpreter.runner import entry_function, inputs_from_npz, run_module
from neuron_cc.interpreter.values import round_to_bf16
from neuron_cc.testing.xla_cases import XlaCase, numpy_name
from neuron_cc.testing.xla_run import XLA_UNAVAILABLE, run_xla, xla_available
from neuron_cc.translate.hlo_text.importer import import_hlo

Array = np.ndarray[Any, Any]

DEVICES = 8
_STORAGE = {"bf16": np.float32, "f16": np.float16, "f32": np.float32, "s32": np.int32}


@dataclass
class Case:
    """One HLO module, its inputs (`argI`, or per device `argI_devP`) and, for pinned cases,
    the outputs XLA:CPU gave (device 0; bf16 as float32)."""

    name: str
    hlo: str
    params: list[str]
    inputs: dict[str, Array]
    expected: list[list[float]] | None = None
    devices: int = 1
    why: str = ""


# --- HLO text --------------------------------------------------------------------------------


def _shape(ty: str, dims: tuple[int, ...] | list[int]) -> str:
    return f"{ty}[{','.join(map(str, dims))}]"


def _region(ty: str, op: str) -> str:
    return f"red {{ a = {ty}[] parameter(0) b = {ty}[] parameter(1) ROOT c = {ty}[] {op}(a, b) }}"


def reduce_hlo(
    ty: str, shape: tuple[int, ...], dims: tuple[int, ...], op: str = "add", init: str = "0"
) -> str:
    kept = [n for i, n in enumerate(shape) if i not in dims]
    return f"""HloModule reduce
{_region(ty, op)}
ENTRY e {{
  x = {_shape(ty, shape)} parameter(0)
  z = {ty}[] constant({init})
  ROOT r = {_shape(ty, kept)} reduce(x, z), dimensions={{{",".join(map(str, dims))}}}, to_apply=red
}}"""


def variadic_hlo(ty: str, n: int, ops: tuple[str, str]) -> str:
    return f"""HloModule variadic
red {{
  a = {ty}[] parameter(0) b = {ty}[] parameter(1) c = {ty}[] parameter(2) d = {ty}[] parameter(3)
  s = {ty}[] {ops[0]}(a, c) t = {ty}[] {ops[1]}(b, d)
  ROOT r = ({ty}[], {ty}[]) tuple(s, t)
}}
ENTRY e {{
  x = {ty}[{n}] parameter(0) y = {ty}[{n}] parameter(1) z = {ty}[] constant(0)
  ROOT r = ({ty}[], {ty}[]) reduce(x, y, z, z), dimensions={{0}}, to_apply=red
}}"""


def general_hlo(ty: str, n: int) -> str:
    """A reducer the fast paths do not recognise (and XLA cannot simplify): max(a + b, a)."""
    return f"""HloModule general
red {{ a = {ty}[] parameter(0) b = {ty}[] parameter(1) c = {ty}[] add(a, b) ROOT d = {ty}[] maximum(c, a) }}
ENTRY e {{ x = {ty}[{n}] parameter(0) z = {ty}[] constant(0) ROOT r = {ty}[] reduce(x, z), dimensions={{0}}, to_apply=red }}"""


@dataclass(frozen=True)
class Win:
    size: tuple[int, ...]
    stride: tuple[int, ...]
    pad: tuple[tuple[int, int], ...]
    base: tuple[int, ...]
    dilation: tuple[int, ...]

    def out(self, shape: tuple[int, ...]) -> list[int]:
        dims = zip(shape, self.size, self.stride, self.pad, self.base, self.dilation, strict=True)
        return [
            ((n - 1) * b + 1 + lo + hi - ((w - 1) * d + 1)) // s + 1
            for n, w, s, (lo, hi), b, d in dims
        ]

    def text(self) -> str:
        def x(v: tuple[int, ...]) -> str:
            return "x".join(map(str, v))

        pads = "x".join(f"{lo}_{hi}" for lo, hi in self.pad)
        return (
            f"size={x(self.size)} stride={x(self.stride)} pad={pads} "
            f"lhs_dilate={x(self.base)} rhs_dilate={x(self.dilation)}"
        )


def scan_win(n: int, forward: bool, exclusive: bool) -> Win:
    pad = n if exclusive else n - 1
    return Win((n,), (1,), ((pad, 0) if forward else (0, pad),), (1,), (1,))


def window_hlo(ty: str, shape: tuple[int, ...], win: Win, op: str = "add", init: str = "0") -> str:
    return f"""HloModule window
{_region(ty, op)}
ENTRY e {{
  x = {_shape(ty, shape)} parameter(0)
  z = {ty}[] constant({init})
  ROOT r = {_shape(ty, win.out(shape))} reduce-window(x, z), window={{{win.text()}}}, to_apply=red
}}"""


def scatter_hlo(ty: str, n: int, m: int) -> str:
    return f"""HloModule scatter
{_region(ty, "add")}
ENTRY e {{
  x = {ty}[{n}] parameter(0) i = s32[{m},1] parameter(1) u = {ty}[{m}] parameter(2)
  ROOT s = {ty}[{n}] scatter(x, i, u), update_window_dims={{}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=red
}}"""


def all_reduce_hlo(ty: str, n: int) -> str:
    return f"""HloModule all_reduce, replica_count={DEVICES}
{_region(ty, "add")}
ENTRY e {{
  x = {ty}[{n}] parameter(0)
  ROOT r = {ty}[{n}] all-reduce(x), replica_groups={{{{0,1,2,3,4,5,6,7}}}}, to_apply=red
}}"""


# --- inputs ----------------------------------------------------------------------------------


def bf16(values: Any) -> Array:
    return round_to_bf16(np.asarray(values, dtype=np.float32))


def wavy(n: int, salt: int = 0) -> Array:
    """Deterministic order-sensitive bf16 values: mixed signs, magnitudes 2^-6 .. 2^9."""
    i = np.arange(n, dtype=np.int64)
    mantissa = ((i * 7919 + salt * 104729) % 255 - 127) / 64.0
    exponent = (i * 31 + salt) % 13 - 4
    return bf16(mantissa * 2.0**exponent)


def _issue_input() -> Array:
    # The issue's shape of input: a large value, small ones that each vanish next to it in
    # bf16, and its negation. Their exact sum rounds to 1.8984375 ("1.898") in bf16.
    return bf16([256.0, 0.1, 0.2, 0.3, 0.25, 0.4, 0.35, 0.2, 0.1, -256.0])


def _one(ty: str, x: Array) -> dict[str, Array]:
    return {"arg0": x.astype(_STORAGE[ty])}


# --- the pinned cases (expected values measured on XLA:CPU, see the module docstring) --------

_REDUCTIONS: list[Case] = [
    Case(
        "issue_bf16_sum",
        reduce_hlo("bf16", (10,), (0,)),
        ["bf16"],
        _one("bf16", _issue_input()),
        [[0.0]],
        why="every step rounds to bf16 (rounding once: 1.8984375)",
    ),
    Case(
        "bf16_steps_round",
        reduce_hlo("bf16", (17,), (0,)),
        ["bf16"],
        _one("bf16", bf16([256.0] + [1.0] * 16)),
        [[256.0]],
        why="256 + 1 is a tie, to even 256, at every step (rounding once: 272)",
    ),
    Case(
        "bf16_tree_of_33",
        reduce_hlo("bf16", (33,), (0,)),
        ["bf16"],
        _one("bf16", bf16([256.0] + [1.0] * 32)),
        [[272.0]],
        why="33 > 32: windows x[0:17] (padding 15 in front) and x[17:33], then their sum "
        "(one sequential fold: 256)",
    ),
    Case(
        "bf16_tree_two_levels",
        reduce_hlo("bf16", (1100,), (0,)),
        ["bf16"],
        _one("bf16", wavy(1100)),
        [[4416.0]],
        why="1100 -> 35 windows -> 2 windows -> the sum",
    ),
    Case(
        "bf16_tree_two_dims",
        reduce_hlo("bf16", (40, 1, 40), (0, 2)),
        ["bf16"],
        _one("bf16", wavy(1600, 1).reshape(40, 1, 40)),
        [[-924.0]],
        why="32x1x32 windows padded 4_4 on both reduced dims, then the 2x2 of them",
    ),
    Case(
        "bf16_dims_in_row_major_order",
        reduce_hlo("bf16", (5, 6, 7), (2, 0)),
        ["bf16"],
        _one("bf16", wavy(210, 2).reshape(5, 6, 7)),
        [[516.0, -188.0, -356.0, -452.0, -434.0, 796.0]],
        why="dimensions={2,0} still folds dim 0 outer, dim 2 inner",
    ),
    Case(
        "s32_init_per_window",
        reduce_hlo("s32", (100,), (0,), init="1"),
        ["s32"],
        _one("s32", np.ones(100, np.int32)),
        [[105.0]],
        why="every window of the tree rewrite starts from the init: 4 windows + the sum "
        "(init once: 101)",
    ),
    Case(
        "f32_ynn_init_once",
        reduce_hlo("f32", (4096,), (0,), init="3"),
        ["f32"],
        _one("f32", np.ones(4096, np.float32)),
        [[4099.0]],
        why="4096 f32 elements go to YNNPACK, which applies the init once",
    ),
    Case(
        "f32_loop_init_per_window",
        reduce_hlo("f32", (4095,), (0,), init="3"),
        ["f32"],
        _one("f32", np.ones(4095, np.float32)),
        [[4494.0]],
        why="4095 stay in XLA's loops: 128 + 4 windows + the sum each add the init",
    ),
    Case(
        "f16_tree",
        reduce_hlo("f16", (100,), (0,)),
        ["f16"],
        _one("f16", wavy(100, 3).astype(np.float16)),
        [[-345.5]],
        why="f16 rounds every step, windows of 32",
    ),
    Case(
        "f32_tree",
        reduce_hlo("f32", (1000,), (0,)),
        ["f32"],
        _one("f32", wavy(1000, 4) * np.float32(1.0 + 2.0**-20)),
        [[-3560.016845703125]],
        why="f32 below 4096 elements: windows of 32 folded in order",
    ),
    Case(
        "bf16_variadic_no_tree",
        variadic_hlo("bf16", 33, ("add", "maximum")),
        ["bf16", "bf16"],
        {"arg0": bf16([256.0] + [1.0] * 32), "arg1": wavy(33, 5)},
        [[256.0], [236.0]],
        why="a variadic reduce is not tree-rewritten: one sequential fold (tree: 272)",
    ),
    Case(
        "bf16_general_region",
        general_hlo("bf16", 1000),
        ["bf16"],
        _one("bf16", wavy(1000, 6)),
        [[21888.0]],
        why="a general region also goes through the windows of 32",
    ),
    Case(
        "bf16_window_overlapping_padded",
        window_hlo("bf16", (12,), Win((5,), (2,), ((3, 2),), (1,), (1,)), init="0.25"),
        ["bf16"],
        _one("bf16", wavy(12, 7)),
        [[494.0, 438.0, 420.0, -188.0, -144.0, -4.625, 4.9375]],
        why="overlapping windows, padding skipped, every tap rounds, init in every window",
    ),
    Case(
        "bf16_window_2d_dilated",
        window_hlo("bf16", (6, 7), Win((2, 3), (1, 2), ((1, 0), (0, 2)), (1, 2), (2, 1))),
        ["bf16"],
        _one("bf16", wavy(42, 8).reshape(6, 7)),
        [
            [
                -58.5,
                -56.75,
                -5.5,
                -147.0,
                -142.0,
                -11.1875,
                -10.75,
                7.03125,
                0.390625,
                73.0,
                76.0,
                180.0,
                632.0,
                456.0,
                -23.875,
                -50.5,
                223.0,
                76.0,
                -170.0,
                -40.25,
                -10.875,
                -77.0,
                -75.5,
                -6.9375,
                -130.0,
                39.25,
                163.0,
                -1.140625,
                36.25,
                83.5,
                304.0,
                240.0,
                -11.4375,
                -26.0,
                2.84375,
            ]
        ],
        why="base dilation 2 with stride 2: XLA loops over the real taps of dimension 1 only and "
        "peels its last one, so the taps go column by column (row-major gives 38.75 at [3, 4])",
    ),
    Case(
        "bf16_window_peeled_tail",
        window_hlo("bf16", (4, 5), Win((2, 2), (1, 1), ((0, 0), (0, 1)), (1, 1), (1, 1))),
        ["bf16"],
        _one("bf16", wavy(20, 10).reshape(4, 5)),
        [
            [
                -148.0,
                -13.75,
                -354.0,
                -342.0,
                -1.0,
                -21.625,
                -0.109375,
                40.0,
                40.25,
                0.3203125,
                424.0,
                412.0,
                0.75,
                -2.4375,
                0.072265625,
            ]
        ],
        why="dimension 1 padded by one at its end: XLA runs (0,0), (1,0), then (0,1), (1,1)",
    ),
    Case(
        "bf16_tree_peeled_tail",
        reduce_hlo("bf16", (40, 63), (0, 1)),
        ["bf16"],
        _one("bf16", wavy(2520, 11).reshape(40, 63)),
        [[4512.0]],
        why="63 = 2 x 32 - 1: the 32x32 windows' last column runs after all the others",
    ),
    Case(
        "bf16_cumsum_tiles_of_16",
        window_hlo("bf16", (21,), scan_win(21, True, False)),
        ["bf16"],
        _one("bf16", bf16([256.0] + [1.0] * 20)),
        [
            [
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                256.0,
                258.0,
                260.0,
                260.0,
                260.0,
            ]
        ],
        why="rows of 16 scanned alone, then row 1 gets row 0's total added (one scan: 256s)",
    ),
    Case(
        "bf16_reverse_exclusive_scan",
        window_hlo("bf16", (20,), scan_win(20, False, True)),
        ["bf16"],
        _one("bf16", wavy(20, 9)),
        [
            [
                256.0,
                278.0,
                278.0,
                280.0,
                288.0,
                288.0,
                280.0,
                280.0,
                280.0,
                214.0,
                214.0,
                202.0,
                -230.0,
                -232.0,
                -172.0,
                -172.0,
                -166.0,
                -12.8125,
                -12.3125,
                -0.0341796875,
                0.0,
            ]
        ],
        why="reverse exclusive scan: padded with the init at the end, tiles of 16",
    ),
    Case(
        "bf16_scatter_add_rounds_every_update",
        scatter_hlo("bf16", 2, 16),
        ["bf16", "s32", "bf16"],
        {
            "arg0": bf16([256.0, 1.0]),
            "arg1": np.repeat(np.arange(2, dtype=np.int32), 8)[:, None],
            "arg2": bf16([1.0] * 8 + [2.0**-8] * 8),
        },
        [[256.0, 1.0]],
        why="duplicates combine one by one in bf16 (rounding once: 264, 1.03125)",
    ),
]


def _all_reduce_inputs(big: float, small: float, dtype: Any) -> dict[str, Array]:
    return {f"arg0_dev{d}": np.array([big if d == 0 else small], dtype) for d in range(DEVICES)}


_COLLECTIVES: list[Case] = [
    Case(
        "bf16_all_reduce_rounds_once",
        all_reduce_hlo("bf16", 1),
        ["bf16"],
        _all_reduce_inputs(256.0, 1.0, np.float32),
        [[264.0]],
        devices=DEVICES,
        why="XLA:CPU promotes a bf16 all-reduce to f32: 263 rounds once (every step: 256)",
    ),
    Case(
        "f16_all_reduce_rounds_every_step",
        all_reduce_hlo("f16", 1),
        ["f16"],
        _all_reduce_inputs(2048.0, 1.0, np.float16),
        [[2048.0]],
        devices=DEVICES,
        why="an f16 all-reduce is not promoted: 2048 + 1 ties to 2048 at every step",
    ),
]


PINNED = [*_REDUCTIONS, *_COLLECTIVES]


# --- running ---------------------------------------------------------------------------------


def interpret(case: Case) -> list[Array]:
    """The case's outputs in neuron-run's interpreter (device axis first)."""
    module = import_hlo(case.hlo)
    inputs = inputs_from_npz(entry_function(module), case.inputs, case.devices)
    result = run_module(module, inputs)
    return [np.asarray(v) for v in result.outputs]


def _bits(x: Array) -> Array:
    x = np.ascontiguousarray(x)
    return x.view(f"u{x.dtype.itemsize}") if x.dtype.kind == "f" else x


@pytest.mark.parametrize("case", PINNED, ids=[c.name for c in PINNED])
def test_pinned_cases_match_xla_in_neuron_run(case: Case) -> None:
    assert case.expected is not None
    outputs = interpret(case)
    assert len(outputs) == len(case.expected)
    for j, (got, want) in enumerate(zip(outputs, case.expected, strict=True)):
        expected = np.asarray(want, dtype=got.dtype).reshape(got.shape[1:])
        for d in range(got.shape[0]):
            assert np.array_equal(_bits(got[d]), _bits(expected)), (
                f"{case.name} out{j} dev{d}: {got[d].tolist()} != {expected.tolist()} ({case.why})"
            )


def test_issue_input_rounded_once_would_be_1_898() -> None:
    """The pinned 0 is not an accident of the input: its exact sum is 1.8984375 in bf16."""
    total = bf16([np.sum(_issue_input().astype(np.float64))])
    assert total.tolist() == [1.8984375]


# --- the differential test on XLA:CPU --------------------------------------------------------


def _random_cases() -> list[Case]:
    rng = np.random.default_rng(15)

    def adversarial(shape: tuple[int, ...], ty: str) -> Array:
        signs = rng.choice([-1.0, 1.0], size=shape)
        x = signs * rng.random(shape) * 2.0 ** rng.integers(-6, 9, size=shape)
        return bf16(x) if ty == "bf16" else x.astype(_STORAGE[ty])

    cases: list[Case] = []
    reduces = [
        ("bf16", (1000,), (0,), "add", "0"),
        ("bf16", (100000,), (0,), "add", "0"),
        ("bf16", (64, 100), (1,), "add", "0.5"),
        ("bf16", (3, 40, 50), (0, 2), "add", "0"),
        ("bf16", (50, 3, 70), (2, 0), "multiply", "1"),
        ("bf16", (4, 2000), (1,), "maximum", "-inf"),
        ("f16", (1000,), (0,), "add", "0"),
        ("f16", (7, 33, 5), (1,), "add", "0.25"),
        ("f32", (1000,), (0,), "add", "0"),
        ("f32", (40, 40), (0,), "add", "0.5"),
        ("f32", (64, 100), (0, 1), "maximum", "-inf"),
        ("s32", (4, 2000), (1,), "add", "7"),
    ]
    for k, (ty, shape, dims, op, init) in enumerate(reduces):
        x = adversarial(shape, ty)
        if op == "multiply":
            x = bf16(1 + x / 512)
        if ty == "s32":
            x = rng.integers(-1000, 1000, size=shape).astype(np.int32)
        cases.append(
            Case(f"random_reduce_{k}", reduce_hlo(ty, shape, dims, op, init), [ty], {"arg0": x})
        )
    windows = [
        ("bf16", (100,), Win((7,), (3,), ((2, 5),), (1,), (1,)), "0.75"),
        ("bf16", (20, 30), Win((5, 5), (1, 1), ((2, 2), (2, 2)), (1, 1), (1, 1)), "0"),
        (
            "bf16",
            (6, 7, 8),
            Win((2, 3, 2), (1, 2, 3), ((1, 0), (0, 2), (1, 1)), (1, 1, 2), (2, 1, 1)),
            "0",
        ),
        ("bf16", (1000,), scan_win(1000, True, False), "0"),
        ("bf16", (300,), scan_win(300, False, True), "0.5"),
        ("f16", (5000,), scan_win(5000, True, False), "0"),
        ("f32", (270,), scan_win(270, False, False), "0"),
    ]
    for k, (ty, shape, win, init) in enumerate(windows):
        x = adversarial(shape, ty)
        cases.append(
            Case(f"random_window_{k}", window_hlo(ty, shape, win, init=init), [ty], {"arg0": x})
        )
    cases.append(
        Case(
            "random_general",
            general_hlo("bf16", 1000),
            ["bf16"],
            {"arg0": adversarial((1000,), "bf16")},
        )
    )
    cases.append(
        Case(
            "random_scatter",
            scatter_hlo("bf16", 10, 300),
            ["bf16", "s32", "bf16"],
            {
                "arg0": adversarial((10,), "bf16"),
                "arg1": rng.integers(0, 10, size=(300, 1)).astype(np.int32),
                "arg2": adversarial((300,), "bf16"),
            },
        )
    )
    cases.append(
        Case(
            "random_all_reduce",
            all_reduce_hlo("bf16", 64),
            ["bf16"],
            {f"arg0_dev{d}": adversarial((64,), "bf16") for d in range(DEVICES)},
            devices=DEVICES,
        )
    )
    return cases


def _xla_case(case: Case) -> XlaCase:
    """`case` as the XLA oracle runs it: `DEVICES` replicas, per parameter its per-device
    inputs stacked on a leading device axis (`argI_devP`, else `argI` on every device)."""

    def per_device(i: int, d: int) -> Array:
        return case.inputs[f"arg{i}_dev{d}" if f"arg{i}_dev{d}" in case.inputs else f"arg{i}"]

    inputs = [np.stack([per_device(i, d) for d in range(DEVICES)]) for i in range(len(case.params))]
    return XlaCase(case.name, case.hlo, DEVICES, 1, inputs, [numpy_name(p) for p in case.params])


def run_on_xla(cases: list[Case]) -> dict[str, list[Array]]:
    """Every case's outputs from XLA:CPU (per output, device axis first), in one worker."""
    results = run_xla([_xla_case(case) for case in cases], case_timeout=600)
    measured: dict[str, list[Array]] = {}
    for case, result in zip(cases, results, strict=True):
        assert result.ok, f"{case.name}: {result.status} {result.stage} {result.message}"
        measured[case.name] = result.outputs
    return measured


def test_matches_xla_bit_for_bit() -> None:
    if not xla_available():
        pytest.skip(XLA_UNAVAILABLE)
    cases = PINNED + _random_cases()
    measured = run_on_xla(cases)
    failures: list[str] = []
    for case in cases:
        xla = measured[case.name]
        for j, got in enumerate(interpret(case)):
            for d in range(got.shape[0]):
                want = xla[j][d].astype(got.dtype)
                differ = int(np.sum(_bits(got[d]) != _bits(want)))
                if got[d].shape != want.shape or differ:
                    failures.append(f"{case.name} out{j} dev{d}: {differ} elements differ")
        if case.expected is not None:
            pinned = [np.asarray(v, np.float64) for v in case.expected]
            found = [xla[j][0].astype(np.float64).ravel() for j in range(len(pinned))]
            if not all(np.array_equal(p, f) for p, f in zip(pinned, found, strict=True)):
                failures.append(f"{case.name}: XLA now gives {[f.tolist() for f in found]}")
    assert not failures, "\n".join(failures)
