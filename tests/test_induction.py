"""Induction variables, trip counts and range folding of while loops (analysis/induction.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue

from neuron_cc.analysis.induction import (
    Affine,
    InductionVar,
    LoopInfo,
    analyze_loop,
    constant_int,
    iterations,
)
from neuron_cc.dialects.hlo.attributes import ComparisonDirection
from neuron_cc.dialects.hlo.control_flow import WhileOp
from neuron_cc.dialects.hlo.data_movement import DynamicSliceOp, DynamicUpdateSliceOp
from neuron_cc.testing.ir import parse_module as _parse
from neuron_cc.testing.loop_text import WhileLoop, counted
from neuron_cc.translate.hlo_text.importer import import_hlo

CORPUS = Path(__file__).resolve().parent / "corpus" / "jax"
D = ComparisonDirection


def _loops(module: ModuleOp) -> list[WhileOp]:
    return [op for op in module.walk() if isinstance(op, WhileOp)]


def _loop(
    inits: list[str], cond: str, body: str, results: list[str], elem: str = "i32"
) -> tuple[LoopInfo, dict[str, SSAValue]]:
    """A loop over `len(inits)` scalar slots: `%s<k>` are the slots in condition and body
    (each region reads the slots it names).

    `inits` are constants of the slots; `cond` ends by defining `%p`; `body` computes
    `results`. Returns the analysis and every named value of the body.
    """
    n = len(inits)
    slots = [f"tensor<{elem}>"] * n
    loop = WhileLoop(slots, body, results, condition=cond, arguments=("%s", "%s"))
    init_ops = "\n".join(
        f"    %init{k} = hlo.constant dense<{v}> : tensor<{elem}>" for k, v in enumerate(inits)
    )
    text = f"""
builtin.module {{
  func.func @f(%arg: tensor<{elem}>) {{
{init_ops}
    %init = hlo.tuple {", ".join(f"%init{k}" for k in range(n))} : {loop.type}
{loop.text("%init")}
    func.return
  }}
}}
"""
    (while_op,) = _loops(_parse(text))
    info = analyze_loop(while_op)
    assert info is not None
    named: dict[str, SSAValue] = {
        v.name_hint: v for op in while_op.body.blocks[0].ops for v in op.results if v.name_hint
    }
    return info, named


ONE = "      %one = hlo.constant dense<1> : tensor<i32>"


def _counter(direction: str, init: int, step: int, bound: int, swap: bool = False) -> LoopInfo:
    operands = "%n, %s0" if swap else "%s0, %n"
    cond = (
        f"      %n = hlo.constant dense<{bound}> : tensor<i32>\n"
        f"      %p = hlo.compare {direction}, {operands} : tensor<i32> -> tensor<i1>"
    )
    body = (
        f"      %c = hlo.constant dense<{abs(step)}> : tensor<i32>\n"
        f"      %i1 = hlo.{'add' if step >= 0 else 'subtract'} %s0, %c : tensor<i32>"
    )
    info, _ = _loop([str(init)], cond, body, ["%i1"])
    return info


# ---------------------------------------------------------------------------
# trip counts
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("direction", "init", "step", "bound", "expected"),
    [
        (D.LT, 0, 1, 4, 4),
        (D.LT, 0, 3, 10, 4),
        (D.LT, 5, 1, 4, 0),
        (D.LE, 0, 1, 3, 4),
        (D.LE, 0, 2, 3, 2),
        (D.GT, 4, -1, 0, 4),
        (D.GE, 4, -1, 0, 5),
        (D.GT, 10, -3, 0, 4),
        (D.NE, 0, 2, 8, 4),
        (D.NE, 0, 2, 7, None),
        (D.NE, 3, 1, 3, 0),
        (D.EQ, 3, 1, 3, 1),
        (D.EQ, 2, 1, 3, 0),
        (D.LT, 0, -1, 4, None),
        (D.GT, 0, 1, -1, None),
        (D.LT, 0, 0, 4, None),
        (D.LT, 4, 0, 4, 0),
    ],
)
def test_iterations(
    direction: ComparisonDirection, init: int, step: int, bound: int, expected: int | None
) -> None:
    assert iterations(direction, init, step, bound) == expected


@pytest.mark.parametrize(
    ("direction", "init", "step", "bound", "swap", "expected"),
    [
        ("LT", 0, 1, 4, False, 4),
        ("LE", 0, 1, 3, False, 4),
        ("GT", 4, -1, 0, False, 4),
        ("LT", 0, 1, 4, True, 0),  # 4 < i: never true at i = 0
        ("GT", 0, 1, 4, True, 4),  # 4 > i
        ("LT", 0, 1, 0, False, 0),
        ("NE", 0, 1, 6, False, 6),
        ("LT", 0, -1, 4, False, None),  # only stops by wrapping around
    ],
)
def test_trip_count_from_the_condition(
    direction: str, init: int, step: int, bound: int, swap: bool, expected: int | None
) -> None:
    info = _counter(direction, init, step, bound, swap)
    assert info.induction == {0: InductionVar(0, init, step)}
    assert info.trip_count == expected
    assert info.counter == 0


def test_counter_that_would_overflow_has_no_trip_count() -> None:
    info = _counter("LT", 2147483640, 10, 2147483647)
    assert info.induction == {0: InductionVar(0, 2147483640, 10)}
    assert info.trip_count is None


def test_unsigned_counter() -> None:
    cond = (
        "      %n = hlo.constant dense<3> : tensor<ui32>\n"
        "      %p = hlo.compare LT, %s0, %n : tensor<ui32> -> tensor<i1>"
    )
    body = (
        "      %one = hlo.constant dense<1> : tensor<ui32>\n"
        "      %i1 = hlo.add %s0, %one : tensor<ui32>"
    )
    info, _ = _loop(["0"], cond, body, ["%i1"], elem="ui32")
    assert info.trip_count == 3
    assert info.slot_range(0) == (0, 2)


def test_bound_carried_in_an_invariant_slot() -> None:
    cond = "      %p = hlo.compare LT, %s0, %s1 : tensor<i32> -> tensor<i1>"
    body = ONE + "\n      %i1 = hlo.add %s0, %one : tensor<i32>"
    info, _ = _loop(["0", "5"], cond, body, ["%i1", "%s1"])
    assert info.induction == {0: InductionVar(0, 0, 1), 1: InductionVar(1, 5, 0)}
    assert info.trip_count == 5
    assert info.counter == 0


def test_condition_that_is_not_a_compare() -> None:
    cond = (
        "      %n = hlo.constant dense<4> : tensor<i32>\n"
        "      %lt = hlo.compare LT, %s0, %n : tensor<i32> -> tensor<i1>\n"
        "      %p = hlo.not %lt : tensor<i1>"
    )
    body = ONE + "\n      %i1 = hlo.add %s0, %one : tensor<i32>"
    info, _ = _loop(["0"], cond, body, ["%i1"])
    assert info.trip_count is None
    assert info.slot_range(0) is None


def test_constant_false_condition_runs_zero_times() -> None:
    cond = "      %p = hlo.constant dense<false> : tensor<i1>"
    body = ONE + "\n      %i1 = hlo.add %s0, %one : tensor<i32>"
    info, _ = _loop(["0"], cond, body, ["%i1"])
    assert info.trip_count == 0
    assert info.slot_range(0) is None
    assert info.slot_range(0, in_condition=True) == (0, 0)


# ---------------------------------------------------------------------------
# induction variables
# ---------------------------------------------------------------------------


def test_every_slot_stepping_by_a_constant_is_found() -> None:
    cond = "      %n = hlo.constant dense<4> : tensor<i32>\n      %p = hlo.compare LT, %s0, %n : tensor<i32> -> tensor<i1>"
    body = (
        ONE + "\n"
        "      %three = hlo.constant dense<3> : tensor<i32>\n"
        "      %a = hlo.add %s0, %one : tensor<i32>\n"
        "      %b = hlo.add %three, %s1 : tensor<i32>\n"
        "      %c = hlo.subtract %s2, %one : tensor<i32>\n"
        "      %d0 = hlo.add %s3, %one : tensor<i32>\n"
        "      %d = hlo.add %d0, %one : tensor<i32>\n"
        "      %e = hlo.multiply %s4, %three : tensor<i32>\n"
        "      %f = hlo.add %s5, %s0 : tensor<i32>"
    )
    info, _ = _loop(
        ["0", "10", "7", "1", "1", "0", "9"],
        cond,
        body,
        ["%a", "%b", "%c", "%d", "%e", "%f", "%s6"],
    )
    assert info.induction == {
        0: InductionVar(0, 0, 1),
        1: InductionVar(1, 10, 3),
        2: InductionVar(2, 7, -1),
        3: InductionVar(3, 1, 2),
        6: InductionVar(6, 9, 0),
    }
    assert info.trip_count == 4
    assert info.slot_range(1) == (10, 19)
    assert info.slot_range(2) == (4, 7)
    assert info.slot_range(2, in_condition=True) == (3, 7)
    assert info.slot_range(3) == (1, 7)
    assert info.slot_range(4) is None  # multiplied: not an induction variable
    assert info.slot_range(6) == (9, 9)


_COPY_STEP = WhileLoop(
    ["tensor<i32>"],
    """
    %one = hlo.constant dense<1> : tensor<i32>
    %c1 = hlo.copy %i : tensor<i32>
    %i1 = hlo.add %c1, %one : tensor<i32>
    """,
    ["%i1"],
    condition=counted(6, counter="%i"),
    names=["%i"],
    arguments=("%s", "%s"),
)


def test_init_through_copy_convert_reshape_and_tuples() -> None:
    text = f"""
builtin.module {{
  func.func @f() {{
    %c = hlo.constant dense<2> : tensor<1xi64>
    %r = hlo.reshape %c : (tensor<1xi64>) -> tensor<i64>
    %k = hlo.convert %r : tensor<i64> -> tensor<i32>
    %k2 = hlo.copy %k : tensor<i32>
    %inner = hlo.tuple %k2, %k2 : tuple<tensor<i32>, tensor<i32>>
    %g = hlo.get_tuple_element %inner[1] : tuple<tensor<i32>, tensor<i32>>
    %init = hlo.tuple %g : tuple<tensor<i32>>
{_COPY_STEP.text("%init")}
    func.return
  }}
}}
"""
    (loop,) = _loops(_parse(text))
    info = analyze_loop(loop)
    assert info is not None
    assert info.induction == {0: InductionVar(0, 2, 1)}
    assert info.trip_count == 4
    assert info.slot_range(0) == (2, 5)


def test_non_constant_init_is_not_an_induction_variable() -> None:
    cond = "      %n = hlo.constant dense<4> : tensor<i32>\n      %p = hlo.compare LT, %s0, %n : tensor<i32> -> tensor<i1>"
    body = ONE + "\n      %a = hlo.add %s0, %one : tensor<i32>"
    baseline, _ = _loop(["0"], cond, body, ["%a"])
    assert baseline.trip_count == 4
    loop = WhileLoop(
        ["tensor<i32>"],
        """
        %one = hlo.constant dense<1> : tensor<i32>
        %i1 = hlo.add %i, %one : tensor<i32>
        """,
        ["%i1"],
        condition=counted(4, counter="%i"),
        names=["%i"],
        arguments=("%s", "%s"),
    )
    module = _parse(
        f"""
builtin.module {{
  func.func @f(%arg: tensor<i32>) {{
    %init = hlo.tuple %arg : tuple<tensor<i32>>
{loop.text("%init")}
    func.return
  }}
}}
"""
    )
    info = analyze_loop(_loops(module)[0])
    assert info is not None
    assert info.induction == {}
    assert info.trip_count is None
    assert info.counter is None


def test_loop_carrying_a_tensor_is_not_analysed() -> None:
    loop = WhileLoop(
        ["tensor<4xf32>"],
        "",
        ["%s"],
        condition="%p = hlo.constant dense<false> : tensor<i1>",
        arguments=("%s", "%s"),
        bare=True,
    )
    module = _parse(
        f"""
builtin.module {{
  func.func @f(%x: tensor<4xf32>) {{
{loop.text("%x")}
    func.return
  }}
}}
"""
    )
    assert analyze_loop(_loops(module)[0]) is None


# ---------------------------------------------------------------------------
# ranges and equality with the induction variable
# ---------------------------------------------------------------------------

COND4 = (
    "      %n = hlo.constant dense<4> : tensor<i32>\n"
    "      %p = hlo.compare LT, %s0, %n : tensor<i32> -> tensor<i1>"
)
STEP = (
    ONE
    + "\n      %i2 = hlo.add %s0, %one : tensor<i32>\n      %j2 = hlo.add %s1, %one : tensor<i32>"
)


def _scan(body: str) -> tuple[LoopInfo, dict[str, SSAValue]]:
    """JAX scan: trip counter slot 0, scan index slot 1 (both 0, +1), four trips."""
    return _loop(["0", "0"], COND4, STEP + "\n" + body, ["%i2", "%j2"])


def test_select_normalisation_folds_to_the_scan_index() -> None:
    info, v = _scan(
        "      %zero = hlo.constant dense<0> : tensor<i32>\n"
        "      %four = hlo.constant dense<4> : tensor<i32>\n"
        "      %neg = hlo.compare LT, %s1, %zero : tensor<i32> -> tensor<i1>\n"
        "      %wrapped = hlo.add %s1, %four : tensor<i32>\n"
        "      %sel = hlo.select %neg, %wrapped, %s1 : tensor<i1>, tensor<i32>\n"
        "      %copy = hlo.copy %sel : tensor<i32>"
    )
    assert info.trip_count == 4
    assert info.value_range(v["neg"]) == (0, 0)
    assert info.value_range(v["wrapped"]) == (4, 7)
    assert info.value_range(v["sel"]) == (0, 3)
    assert info.equals_induction(v["sel"]) == 1
    assert info.equals_induction(v["copy"]) == 1
    assert info.equals_induction(v["wrapped"]) is None
    assert info.equals_induction(v["j2"]) is None  # the next value, not the current one


def test_python_modulo_chain_folds() -> None:
    # jnp's `j % 4`: rem = remainder(j, 4); select(rem != 0 & (rem < 0) != (4 < 0), rem + 4, rem)
    info, v = _scan(
        "      %zero = hlo.constant dense<0> : tensor<i32>\n"
        "      %four = hlo.constant dense<4> : tensor<i32>\n"
        "      %rem = hlo.remainder %s1, %four : tensor<i32>\n"
        "      %nz = hlo.compare NE, %rem, %zero : tensor<i32> -> tensor<i1>\n"
        "      %rneg = hlo.compare LT, %rem, %zero : tensor<i32> -> tensor<i1>\n"
        "      %dneg = hlo.compare LT, %four, %zero : tensor<i32> -> tensor<i1>\n"
        "      %diff = hlo.compare NE, %rneg, %dneg : tensor<i1> -> tensor<i1>\n"
        "      %fix = hlo.and %nz, %diff : tensor<i1>\n"
        "      %plus = hlo.add %rem, %four : tensor<i32>\n"
        "      %mod = hlo.select %fix, %plus, %rem : tensor<i1>, tensor<i32>"
    )
    assert info.value_range(v["fix"]) == (0, 0)
    assert info.equals_induction(v["rem"]) == 1
    assert info.equals_induction(v["mod"]) == 1


def test_undecided_select_is_not_the_induction_variable() -> None:
    info, v = _scan(
        "      %two = hlo.constant dense<2> : tensor<i32>\n"
        "      %lt = hlo.compare LT, %s1, %two : tensor<i32> -> tensor<i1>\n"
        "      %zero = hlo.constant dense<0> : tensor<i32>\n"
        "      %sel = hlo.select %lt, %s1, %zero : tensor<i1>, tensor<i32>\n"
        "      %same = hlo.select %lt, %s1, %s1 : tensor<i1>, tensor<i32>"
    )
    assert info.value_range(v["lt"]) is None
    assert info.value_range(v["sel"]) == (0, 3)
    assert info.equals_induction(v["sel"]) is None
    assert info.equals_induction(v["same"]) == 1


def test_arithmetic_identities_and_clamps() -> None:
    info, v = _scan(
        "      %zero = hlo.constant dense<0> : tensor<i32>\n"
        "      %three = hlo.constant dense<3> : tensor<i32>\n"
        "      %seven = hlo.constant dense<7> : tensor<i32>\n"
        "      %a = hlo.add %s1, %seven : tensor<i32>\n"
        "      %b = hlo.subtract %a, %seven : tensor<i32>\n"
        "      %m = hlo.multiply %s1, %three : tensor<i32>\n"
        "      %d = hlo.subtract %m, %s1 : tensor<i32>\n"
        "      %e = hlo.subtract %d, %s1 : tensor<i32>\n"
        "      %neg = hlo.negate %s1 : tensor<i32>\n"
        "      %back = hlo.negate %neg : tensor<i32>\n"
        "      %cl = hlo.clamp %zero, %s1, %three : tensor<i32>, tensor<i32>, tensor<i32>\n"
        "      %mx = hlo.maximum %s1, %zero : tensor<i32>\n"
        "      %mn = hlo.minimum %three, %s1 : tensor<i32>\n"
        "      %wide = hlo.convert %s1 : tensor<i32> -> tensor<i64>\n"
        "      %narrow = hlo.convert %wide : tensor<i64> -> tensor<i32>\n"
        "      %q = hlo.divide %m, %three : tensor<i32>\n"
        "      %ab = hlo.abs %neg : tensor<i32>\n"
        "      %diff = hlo.subtract %s0, %s1 : tensor<i32>"
    )
    for name in ("b", "e", "back", "cl", "mx", "mn", "wide", "narrow"):
        assert info.equals_induction(v[name]) == 1, name
    assert info.value_range(v["m"]) == (0, 9)
    assert info.value_range(v["neg"]) == (-3, 0)
    assert info.value_range(v["q"]) == (0, 3)
    assert info.value_range(v["ab"]) == (0, 3)
    assert info.equals_induction(v["q"]) is None  # a division is not tracked symbolically
    assert info.equals_induction(v["m"]) is None
    assert info.value_range(v["diff"]) == (-3, 3)  # two slots: ranges are independent
    assert info.equals_induction(v["diff"]) is None


def test_remainder_ranges() -> None:
    info, v = _scan(
        "      %two = hlo.constant dense<2> : tensor<i32>\n"
        "      %five = hlo.constant dense<5> : tensor<i32>\n"
        "      %r2 = hlo.remainder %s1, %two : tensor<i32>\n"
        "      %neg = hlo.subtract %s1, %five : tensor<i32>\n"
        "      %rn = hlo.remainder %neg, %two : tensor<i32>\n"
        "      %r5 = hlo.remainder %neg, %five : tensor<i32>"
    )
    assert info.value_range(v["r2"]) == (0, 1)
    assert info.equals_induction(v["r2"]) is None
    assert info.value_range(v["neg"]) == (-5, -2)
    assert info.value_range(v["rn"]) == (-1, 0)
    assert info.value_range(v["r5"]) == (-4, 0)


def test_overflowing_arithmetic_has_no_range() -> None:
    info, v = _scan(
        "      %big = hlo.constant dense<2147483647> : tensor<i32>\n"
        "      %a = hlo.add %s1, %big : tensor<i32>\n"
        "      %c = hlo.convert %a : tensor<i32> -> tensor<i8>"
    )
    assert info.value_range(v["a"]) is None
    assert info.value_range(v["c"]) is None
    assert info.equals_induction(v["c"]) is None


def test_narrowing_convert_of_a_small_range_keeps_it() -> None:
    info, v = _scan(
        "      %c = hlo.convert %s1 : tensor<i32> -> tensor<i8>\n"
        "      %p = hlo.convert %s1 : tensor<i32> -> tensor<i1>\n"
        "      %f = hlo.convert %s1 : tensor<i32> -> tensor<f32>"
    )
    assert info.value_range(v["c"]) == (0, 3)
    assert info.equals_induction(v["c"]) == 1
    assert info.value_range(v["p"]) == (0, 1)
    assert info.value_range(v["f"]) is None


def test_constant_int_through_chains() -> None:
    module = _parse(
        """
builtin.module {
  func.func @f() {
    %t = hlo.constant dense<true> : tensor<i1>
    %c = hlo.constant dense<3> : tensor<2xi32>
    %b = hlo.broadcast %c, dims = [0] : (tensor<2xi32>) -> tensor<2x2xi32>
    %f = hlo.constant dense<2.500000e+00> : tensor<f32>
    %fi = hlo.convert %f : tensor<f32> -> tensor<i32>
    %w = hlo.constant dense<300> : tensor<i32>
    %n = hlo.convert %w : tensor<i32> -> tensor<i8>
    %mixed = hlo.constant dense<[1, 2]> : tensor<2xi32>
    func.return
  }
}
"""
    )
    values = {v.name_hint: v for op in module.walk() for v in op.results if v.name_hint is not None}
    assert constant_int(values["t"]) == 1
    assert constant_int(values["b"]) == 3
    assert constant_int(values["f"]) is None
    assert constant_int(values["fi"]) == 2
    assert constant_int(values["n"]) == 44
    assert constant_int(values["mixed"]) is None


# ---------------------------------------------------------------------------
# the real corpus
# ---------------------------------------------------------------------------


def _corpus_loop(case: str) -> tuple[WhileOp, LoopInfo]:
    module = import_hlo((CORPUS / case / "spmd.hlo").read_text(), case)
    (loop,) = _loops(module)
    info = analyze_loop(loop)
    assert info is not None
    return loop, info


def _indices(loop: WhileOp) -> list[SSAValue]:
    for op in loop.body.blocks[0].ops:
        if isinstance(op, DynamicUpdateSliceOp | DynamicSliceOp):
            return list(op.start_indices)
    raise AssertionError("no dynamic slice in the loop body")


def test_corpus_reduce_scatter_dus_sink() -> None:
    loop, info = _corpus_loop("reduce_scatter_dus_sink")
    assert info.induction == {0: InductionVar(0, 0, 1), 1: InductionVar(1, 0, 1)}
    assert (info.trip_count, info.counter) == (4, 0)
    assert info.slot_range(1) == (0, 3)
    store = next(op for op in loop.body.blocks[0].ops if isinstance(op, DynamicUpdateSliceOp))
    first, *rest = store.start_indices
    assert info.equals_induction(first) == 1  # select(j < 0, j + 4, j) on the scan index
    assert [info.value_range(i) for i in rest] == [(0, 0), (0, 0)]


def test_corpus_grad_accum_zero_init() -> None:
    loop, info = _corpus_loop("grad_accum_zero_init")
    assert info.induction == {0: InductionVar(0, 0, 1)}
    assert (info.trip_count, info.counter) == (4, 0)
    assert info.equals_induction(_indices(loop)[0]) == 0


def test_corpus_grad_accum_dynamic_trip() -> None:
    loop, info = _corpus_loop("grad_accum_dynamic_trip")
    assert info.induction == {0: InductionVar(0, 0, 1)}  # the bound (slot 2) is a parameter
    assert (info.trip_count, info.counter) == (None, 0)
    assert info.slot_range(0) is None
    index = _indices(loop)[0]
    assert info.value_range(index) is None
    assert info.equals_induction(index) is None  # the select cannot be folded without a range


def test_corpus_psum_subgroups() -> None:
    loop, info = _corpus_loop("psum_subgroups_2x4")
    assert info.induction == {0: InductionVar(0, 0, 1)}
    assert (info.trip_count, info.counter) == (3, 0)
    assert info.slot_range(0) == (0, 2)
    assert info.equals_induction(_indices(loop)[0]) == 0


def test_corpus_ppermute_ring_loop() -> None:
    _, info = _corpus_loop("ppermute_ring_loop")
    assert info.induction == {0: InductionVar(0, 0, 1), 1: InductionVar(1, 0, 1)}
    assert (info.trip_count, info.counter) == (8, 0)
    assert info.slot_range(1) == (0, 7)
    assert info.slot_range(1, in_condition=True) == (0, 8)


def test_long_chains_are_evaluated_without_recursion() -> None:
    chain = "\n".join(f"      %x{k + 1} = hlo.add %x{k}, %zero : tensor<i32>" for k in range(3000))
    info, v = _scan(
        "      %zero = hlo.constant dense<0> : tensor<i32>\n"
        "      %x0 = hlo.copy %s1 : tensor<i32>\n" + chain
    )
    assert info.equals_induction(v["x3000"]) == 1
    assert info.value_range(v["x3000"]) == (0, 3)
    assert info.equals_induction(v["x50"]) == 1


def test_folding_rules() -> None:
    info, v = _scan(
        "      %zero = hlo.constant dense<0> : tensor<i32>\n"
        "      %two = hlo.constant dense<2> : tensor<i32>\n"
        "      %three = hlo.constant dense<3> : tensor<i32>\n"
        "      %four = hlo.constant dense<4> : tensor<i32>\n"
        "      %m1 = hlo.constant dense<-1> : tensor<i32>\n"
        "      %t = hlo.constant dense<true> : tensor<i1>\n"
        "      %f = hlo.constant dense<false> : tensor<i1>\n"
        "      %por = hlo.add %t, %f : tensor<i1>\n"
        "      %pand = hlo.multiply %t, %f : tensor<i1>\n"
        "      %shift = hlo.subtract %s1, %two : tensor<i32>\n"
        "      %ab = hlo.abs %shift : tensor<i32>\n"
        "      %rem = hlo.remainder %shift, %two : tensor<i32>\n"
        "      %gt = hlo.compare GT, %s1, %m1 : tensor<i32> -> tensor<i1>\n"
        "      %ge = hlo.compare GE, %s1, %four : tensor<i32> -> tensor<i1>\n"
        "      %eq = hlo.compare EQ, %four, %four : tensor<i32> -> tensor<i1>\n"
        "      %some = hlo.compare LT, %s1, %two : tensor<i32> -> tensor<i1>\n"
        "      %both = hlo.and %gt, %eq : tensor<i1>\n"
        "      %either = hlo.or %ge, %some : tensor<i1>\n"
        "      %always = hlo.or %some, %gt : tensor<i1>\n"
        "      %never = hlo.not %gt : tensor<i1>\n"
        "      %picked = hlo.select %gt, %s1, %zero : tensor<i1>, tensor<i32>\n"
        "      %pair = hlo.tuple %s1, %zero : tuple<tensor<i32>, tensor<i32>>\n"
        "      %first = hlo.get_tuple_element %pair[0] : tuple<tensor<i32>, tensor<i32>>\n"
        "      %triple = hlo.multiply %three, %s1 : tensor<i32>\n"
        "      %low = hlo.negate %s1 : tensor<i32>\n"
        "      %mx = hlo.maximum %low, %s1 : tensor<i32>\n"
        "      %mn = hlo.minimum %s1, %three : tensor<i32>\n"
        "      %fl = hlo.constant dense<2.500000e+00> : tensor<f32>\n"
        "      %fcmp = hlo.compare LT, %fl, %fl : tensor<f32> -> tensor<i1>\n"
        "      %fi = hlo.convert %fl : tensor<f32> -> tensor<i32>\n"
        "      %pi = hlo.convert %three : tensor<i32> -> tensor<i1>\n"
        "      %back = hlo.convert %pi : tensor<i1> -> tensor<i32>"
    )
    expected = {
        "por": (1, 1),
        "pand": (0, 0),
        "shift": (-2, 1),
        "ab": (0, 2),
        "rem": (-1, 1),
        "gt": (1, 1),
        "ge": (0, 0),
        "eq": (1, 1),
        "some": None,
        "both": (1, 1),
        "either": (0, 1),
        "always": (1, 1),
        "never": (0, 0),
        "picked": (0, 3),
        "first": (0, 3),
        "triple": (0, 9),
        "mx": (0, 3),
        "mn": (0, 3),
        "fcmp": None,
        "fi": (2, 2),
        "pi": (1, 1),
        "back": (1, 1),
    }
    assert {name: info.value_range(v[name]) for name in expected} == expected
    for name in ("picked", "first", "mx", "mn"):
        assert info.equals_induction(v[name]) == 1, name
    assert info.affine(v["triple"]) == Affine(1, 3, 0)
    assert info.affine(v["shift"]) == Affine(1, 1, -2)
    assert info.affine(v["low"]) == Affine(1, -1, 0)
