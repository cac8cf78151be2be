"""legalize-ccops-for-tensorizer promotes mixed-type collectives exactly (issue 15).

The reference's rule ("widest bit width wins") rebuilt bf16 + s32 at s32 and f32 + s32 at f32:
bf16 values were truncated (-3.671875 -> -3) even in an all_gather, which only moves data, and
s32 values above 2**24 were rounded (134217742 -> 134217744). The default rule picks the
narrowest supported type that represents every operand type exactly (`exact_promoted_type`);
the old rule is the option `lossy-widest-bitwidth=true`.

Checked here: the promotion table (against NumPy's promotion where NumPy's is exact), the
rebuilt collectives on simulated devices (bit-identical for all_gather / maximum / minimum with
inputs that the old rule broke; the documented rounding of sums), the refusals (unchanged,
with a remark), the option (its precision warning and the values it loses) and, when jax is
importable, the same programs on XLA:CPU.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import BFloat16Type, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation

from neuron_cc.analysis.update_slices import exact_conversion
from neuron_cc.dialects.hlo.collectives import AllGatherOp, AllReduceOp, ReduceScatterOp
from neuron_cc.dialects.hlo.types import element_type_name, tensor_type
from neuron_cc.interpreter.equivalence import flatten_values
from neuron_cc.interpreter.runner import entry_function, run_module
from neuron_cc.testing import EquivalenceError, assert_equivalent
from neuron_cc.testing.ir import neuron_context, parse_module
from neuron_cc.testing.xla_cases import XlaCase, numpy_name
from neuron_cc.testing.xla_run import XLA_UNAVAILABLE, run_xla, xla_available
from neuron_cc.transforms.decompose_cc_ops import DecomposeCcOpsPass
from neuron_cc.transforms.legalize_ccops_for_tensorizer import (
    PROMOTION_ORDER,
    WARNING,
    LegalizeCcopsForTensorizerPass,
    bit_width,
    exact_promoted_type,
    promoted_type,
    widest_bit_width_type,
)
from neuron_cc.translate.hlo_text.exporter import export_hlo

Array = np.ndarray[Any, Any]
CANDIDATES = (AllGatherOp, AllReduceOp, ReduceScatterOp)
PASS = "legalize-ccops-for-tensorizer"
_context = cache(neuron_context)

# MLIR spelling of the XLA element types used below.
MLIR = {
    "pred": "i1",
    "s8": "i8",
    "s16": "i16",
    "s32": "i32",
    "s64": "i64",
    "u8": "ui8",
    "u16": "ui16",
    "u32": "ui32",
    "u64": "ui64",
    "f16": "f16",
    "bf16": "bf16",
    "f32": "f32",
    "f64": "f64",
}
BY_NAME = {element_type_name(t): t for t in PROMOTION_ORDER}


def parse(src: str) -> ModuleOp:
    return parse_module(src, ctx=_context())


def applied(module: ModuleOp, lossy: bool = False) -> ModuleOp:
    after = module.clone()
    LegalizeCcopsForTensorizerPass(lossy_widest_bitwidth=lossy).apply(Context(), after)
    after.verify()
    return after


# --- the promotion table ---------------------------------------------------------------------


def _numpy_dtype(name: str) -> np.dtype[Any]:
    if name == "pred":
        return np.dtype(bool)
    kind = {"s": "int", "u": "uint", "f": "float"}[name[0]]
    return np.dtype(f"{kind}{name[1:]}")


def _name_of(t: Attribute | None) -> str | None:
    return None if t is None else element_type_name(t)


@pytest.mark.parametrize(
    ("types", "expected"),
    [
        # the examples of issue 15
        (("bf16", "s32"), "f64"),
        (("f32", "s32"), "f64"),
        (("f16", "s16"), "f32"),
        (("f16", "bf16"), "f32"),
        (("s32", "u32"), "s64"),
        (("s8", "pred"), "s8"),
        (("f32", "bf16"), "f32"),
        # ties between types of one width: the integer, as XLA / NumPy promote
        (("u8", "s8"), "s16"),
        (("u16", "s8"), "s32"),
        (("u32", "s16"), "s64"),
        # a narrower float holds small integers
        (("bf16", "u8"), "bf16"),
        (("bf16", "s8", "u8"), "bf16"),
        (("f16", "u8"), "f16"),
        (("bf16", "u16"), "f32"),
        (("f32", "s16"), "f32"),
        (("f16", "u32"), "f64"),
        (("u8", "u32", "pred"), "u32"),
        # no supported type represents them all
        (("s64", "u64"), None),
        (("s64", "f32"), None),
        (("s64", "f64"), None),
        (("u64", "f16"), None),
        (("u64", "s8"), None),
        (("bf16", "u64"), None),
        (("f32", "s32", "u64"), None),
    ],
)
def test_exact_promotion_examples(types: tuple[str, ...], expected: str | None) -> None:
    elements = [BY_NAME[t] for t in types]
    assert _name_of(exact_promoted_type(elements)) == expected
    assert _name_of(promoted_type(elements)) == expected  # the default


def _numpy_keeps(source: np.dtype[Any], target: np.dtype[Any]) -> bool:
    """Whether NumPy's `target` holds every `source` value (an integer in a float: if its
    magnitude bits fit the significand; NumPy's own "safe" casting allows int64 -> float64)."""
    if source.kind == "b":
        return True
    if source.kind in "iu" and target.kind == "f":
        magnitude = source.itemsize * 8 - (1 if source.kind == "i" else 0)
        return magnitude <= np.finfo(target).nmant + 1
    return bool(np.can_cast(source, target, "safe"))


def test_exact_promotion_agrees_with_numpy_where_numpy_is_exact() -> None:
    """For every pair without bf16 (NumPy has none) the exact rule picks NumPy's promoted type;
    where NumPy's loses values (64-bit ints with floats, u64 with signed ints: NumPy picks
    float64) there is no exact type and the rule refuses."""
    names = [n for n in BY_NAME if n != "bf16"]
    refused = 0
    for a in names:
        for b in names:
            x, y = _numpy_dtype(a), _numpy_dtype(b)
            numpy = np.promote_types(x, y)
            got = _name_of(exact_promoted_type([BY_NAME[a], BY_NAME[b]]))
            if _numpy_keeps(x, numpy) and _numpy_keeps(y, numpy):
                assert got is not None, (a, b)
                assert _numpy_dtype(got) == numpy, (a, b, got, numpy)
            else:
                assert got is None, (a, b, got)
                refused += 1
    assert refused == 2 * 10  # s64 + u64; s64 or u64 + f16/f32/f64; u64 + s8/s16/s32


def test_exact_promotion_bf16_row() -> None:
    expected = {
        "pred": "bf16",
        "u8": "bf16",
        "s8": "bf16",
        "u16": "f32",
        "s16": "f32",
        "f16": "f32",
        "bf16": "bf16",
        "u32": "f64",
        "s32": "f64",
        "f32": "f32",
        "u64": None,
        "s64": None,
        "f64": "f64",
    }
    got = {n: _name_of(exact_promoted_type([BFloat16Type(), BY_NAME[n]])) for n in expected}
    assert got == expected


def test_exact_promotion_is_the_narrowest_exact_type() -> None:
    """The promoted type represents every operand type; no narrower supported type does."""
    for a in PROMOTION_ORDER:
        for b in PROMOTION_ORDER:
            got = exact_promoted_type([a, b])
            exact = [
                c for c in PROMOTION_ORDER if exact_conversion(a, c) and exact_conversion(b, c)
            ]
            if got is None:
                assert exact == [], (a, b)
                continue
            assert got in exact
            assert all(bit_width(c) >= bit_width(got) for c in exact), (a, b, got)


def test_lossy_rule_is_the_reference_table() -> None:
    cases = {
        ("bf16", "s32"): "s32",
        ("f32", "s32"): "f32",
        ("f16", "s16"): "f16",
        ("bf16", "s16"): "bf16",
        ("s64", "f32"): "s64",
        ("s8", "pred"): "s8",
        ("f16", "bf16"): "f32",
        ("s32", "u32"): "s64",
        ("u64", "s8"): "u64",
        ("s64", "u64"): None,
    }
    for types, expected in cases.items():
        elements = [BY_NAME[t] for t in types]
        assert _name_of(widest_bit_width_type(elements)) == expected, types
        assert _name_of(promoted_type(elements, lossy=True)) == expected, types


# --- modules -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A two-operand collective `kind` over `devices` replicas of operands `types` (XLA names)
    with the reducer `op` typed at `reducer` (default: the first operand's type)."""

    kind: str
    types: tuple[str, str]
    op: str = "maximum"
    devices: int = 2
    reducer: str | None = None

    def text(self) -> str:
        a, b = (MLIR[t] for t in self.types)
        n = self.devices
        ins = f"tensor<4x{a}>, tensor<4x{b}>"
        rows = {"all_gather": 4 * n, "reduce_scatter": 4 // n}.get(self.kind, 4)
        outs = f"tuple<tensor<{rows}x{a}>, tensor<{rows}x{b}>>"
        groups = f"replica_groups = [{list(range(n))}]"
        attrs = groups if self.kind == "all_reduce" else f"dim = 0 {groups}"
        r = MLIR[self.reducer or self.types[0]]
        region = (
            ""
            if self.kind == "all_gather"
            else f""" {{
    ^bb0(%x: tensor<{r}>, %y: tensor<{r}>):
      %s = hlo.{self.op} %x, %y : tensor<{r}>
      hlo.return %s : tensor<{r}>
    }}"""
        )
        return f"""
builtin.module attributes {{hlo.num_replicas = {n} : i64}} {{
  func.func @main(%a: tensor<4x{a}>, %b: tensor<4x{b}>) -> {outs} {{
    %r = hlo.{self.kind}(%a, %b) {attrs}{region} : ({ins}) -> {outs}
    func.return %r : {outs}
  }}
}}
"""

    def module(self) -> ModuleOp:
        return parse(self.text())


def collectives(module: ModuleOp) -> list[Operation]:
    return [op for op in module.walk() if isinstance(op, CANDIDATES)]


def collective_element_types(module: ModuleOp) -> list[str]:
    """The operand element types of the module's one collective."""
    (op,) = collectives(module)
    types: list[str] = []
    for v in op.operands:
        assert isinstance(v.type, TensorType)
        types.append(element_type_name(v.type.element_type))
    return types


# Inputs (devices, 4) that the reference's rule got wrong: bf16 / f16 fractions and values that
# need more significand bits than the lossy type has.
BF16 = np.array([[-3.671875, 0.5, -0.0, np.inf], [2.75, 65280.0, 2.0**-100, -1.0]], np.float32)
F16 = np.array([[65504.0, -3.671875, 2.0**-14, -0.0], [0.5, -65504.0, 1.0, 2049.0]], np.float16)
F32 = np.array([[0.1, -2.5, 3.0e38, -np.inf], [1.0e-30, -0.1, 7.0, 2.0**60]], np.float32)
S32 = np.array([[134217742, -(2**31), 2**31 - 1, 16777217], [-134217742, 7, 0, -1]], np.int32)
S16 = np.array([[32767, -32768, 2049, -4097], [4097, 2047, -2049, 0]], np.int16)
U32 = np.array([[2**32 - 1, 2**31, 0, 123], [7, 2**31 + 1, 16777217, 4000000000]], np.uint32)
S32_FOR_U32 = np.array([[-(2**31), 2**31 - 1, -1, 0], [5, -7, 2**30, 2**31 - 1]], np.int32)
U8 = np.array([[255, 0, 128, 7], [1, 254, 127, 200]], np.uint8)
S8 = np.array([[-128, 127, -1, 0], [3, -3, 100, -100]], np.int8)
PRED = np.array([[True, False, True, False], [False, False, True, True]])
BF16_2 = np.array(
    [[2.0**100, -3.671875, 0.0078125, 1.0], [-(2.0**-100), 3.0, -65280.0, 0.5]], np.float32
)

INPUTS: dict[str, Array] = {
    "bf16": BF16,
    "f16": F16,
    "f32": F32,
    "s32": S32,
    "s16": S16,
    "u32": U32,
    "u8": U8,
    "s8": S8,
    "pred": PRED,
}


def inputs_for(types: tuple[str, str]) -> list[Array]:
    if types == ("s32", "u32"):
        return [S32_FOR_U32, U32]
    if types == ("f16", "bf16"):
        return [F16, BF16_2]
    return [INPUTS[t] for t in types]


def assert_bit_identical(before: ModuleOp, after: ModuleOp, inputs: list[Array]) -> list[Array]:
    """Both modules' outputs on `inputs`: same dtypes, shapes and bytes (so -0.0 stays -0.0)."""
    assert_equivalent(before, after, inputs=inputs, rtol=0, atol=0)
    first, second = outputs_of(before, inputs), outputs_of(after, inputs)
    for j, (a, b) in enumerate(zip(first, second, strict=True)):
        assert (a.dtype, a.shape) == (b.dtype, b.shape), j
        assert a.tobytes() == b.tobytes(), f"output {j}: {a} before vs {b} after"
    return first


def outputs_of(module: ModuleOp, inputs: list[Array]) -> list[Array]:
    """The module's outputs on simulated devices (tuples flattened)."""
    return flatten_values(run_module(module, [np.copy(x) for x in inputs]).outputs)


EXACT = [
    (Case("all_gather", ("bf16", "s32")), "f64"),
    (Case("all_reduce", ("bf16", "s32"), "maximum"), "f64"),
    (Case("all_reduce", ("bf16", "s32"), "minimum"), "f64"),
    (Case("reduce_scatter", ("bf16", "s32"), "maximum"), "f64"),
    (Case("all_gather", ("f32", "s32")), "f64"),
    (Case("all_reduce", ("f32", "s32"), "maximum"), "f64"),
    (Case("all_reduce", ("f32", "s32"), "minimum", reducer="s32"), "f64"),
    (Case("reduce_scatter", ("f32", "s32"), "minimum"), "f64"),
    (Case("all_gather", ("f16", "s16")), "f32"),
    (Case("all_reduce", ("f16", "s16"), "maximum"), "f32"),
    (Case("all_reduce", ("f16", "bf16"), "minimum"), "f32"),
    (Case("all_gather", ("f16", "bf16")), "f32"),
    (Case("all_reduce", ("s32", "u32"), "minimum"), "s64"),
    (Case("all_gather", ("s32", "u32")), "s64"),
    (Case("all_reduce", ("u8", "s8"), "maximum"), "s16"),
    (Case("all_gather", ("s8", "pred")), "s8"),
    (Case("all_reduce", ("s8", "pred"), "maximum"), "s8"),
    (Case("all_gather", ("f32", "bf16")), "f32"),
    (Case("all_reduce", ("f32", "bf16"), "minimum"), "f32"),
]


def _case_id(case: Case) -> str:
    op = "" if case.kind == "all_gather" else f"-{case.op}"
    return f"{case.kind}{op}-{'+'.join(case.types)}"


@pytest.mark.parametrize(("case", "promoted"), EXACT, ids=[_case_id(c) for c, _ in EXACT])
def test_exact_promotion_is_bit_identical(case: Case, promoted: str) -> None:
    """All_gather / maximum / minimum at the exact type: the outputs keep every bit."""
    before = case.module()
    after = applied(before)
    assert collective_element_types(after) == [promoted, promoted]
    assert_bit_identical(before, after, inputs_for(case.types))


def test_the_old_bug_values_survive() -> None:
    """The issue's values: -3.671875 (bf16 next to s32) and 134217742 (s32 next to f32)."""
    before = Case("all_gather", ("bf16", "s32")).module()
    outs = assert_bit_identical(before, applied(before), [BF16, S32])
    assert outs[0][0][0] == -3.671875
    assert outs[1][0][0] == 134217742
    before = Case("all_reduce", ("f32", "s32"), "maximum").module()
    outs = assert_bit_identical(before, applied(before), [F32, S32])
    assert outs[1][0][0] == 134217742


# --- sums and products -------------------------------------------------------------------------


def test_integer_sum_at_f64_is_exact_while_it_fits() -> None:
    """s32 summed in f64 (next to f32): exact while the exact sum fits s32, unlike the lossy
    f32 (134217742 + 7 rounds to a multiple of 16)."""
    case = Case("all_reduce", ("f32", "s32"), "add", devices=4)
    before = case.module()
    ints = np.zeros((4, 4), np.int32)
    ints[:, 0] = [134217742, 7, -3, 0]
    ints[:, 1] = [2**31 - 4, 1, 1, 1]
    floats = np.arange(16, dtype=np.float32).reshape(4, 4)  # small integers: exact sums
    outs = assert_bit_identical(before, applied(before), [floats, ints])
    assert list(outs[1][0][:2]) == [134217746, 2**31 - 1]
    lossy = outputs_of(applied(before, lossy=True), [floats, ints])
    assert lossy[1][0][0] != 134217746


def test_integer_sum_overflow_saturates_at_f64_as_documented() -> None:
    """Where the original s32 sum overflows it wraps; the f64 sum converted back saturates."""
    before = Case("all_reduce", ("f32", "s32"), "add").module()
    ints = np.array([[2**31 - 1, 0, 0, 0], [1, 0, 0, 0]], np.int32)
    floats = np.zeros((2, 4), np.float32)
    original = outputs_of(before, [floats, ints])
    legalized = outputs_of(applied(before), [floats, ints])
    assert original[1][0][0] == -(2**31)
    assert legalized[1][0][0] == 2**31 - 1


def test_float_sum_rounds_once_at_the_wider_type() -> None:
    """f16 + s16 -> f32: the f16 sum rounds once at the end (2048 + 1 + 1 + 1 = 2051 -> 2052),
    where the original rounds after every device step (2048 + 1 -> 2048, ...)."""
    before = Case("all_reduce", ("f16", "s16"), "add", devices=4).module()
    halves = np.zeros((4, 4), np.float16)
    halves[:, 0] = [2048, 1, 1, 1]
    ints = np.zeros((4, 4), np.int16)
    ints[:, 0] = [32000, 700, 60, 7]  # the s16 sum (32767) is exact in f32
    original = outputs_of(before, [halves, ints])
    legalized = outputs_of(applied(before), [halves, ints])
    assert original[0][0][0] == 2048
    assert legalized[0][0][0] == np.float16(np.float32(2051)) == 2052
    np.testing.assert_array_equal(legalized[1], original[1])


def test_integer_product_at_wider_int_wraps_to_the_same_values() -> None:
    before = Case("all_reduce", ("s32", "u32"), "multiply", devices=2).module()
    after = applied(before)
    assert collective_element_types(after) == ["s64", "s64"]
    assert_bit_identical(before, after, [S32_FOR_U32, U32])


# --- refusals ----------------------------------------------------------------------------------

REFUSALS = [
    (Case("all_reduce", ("s64", "u64"), "add"), "no supported type represents s64, u64 exactly"),
    (
        Case("all_reduce", ("s64", "f32"), "maximum"),
        "no supported type represents f32, s64 exactly",
    ),
    (Case("all_gather", ("u64", "s8")), "no supported type represents s8, u64 exactly"),
    (Case("all_gather", ("s64", "f64")), "no supported type represents f64, s64 exactly"),
    (Case("all_gather", ("bf16", "u64")), "no supported type represents bf16, u64 exactly"),
    (Case("all_reduce", ("s32", "f32"), "and"), "a and reduction cannot run at f64"),
    (Case("all_reduce", ("f32", "pred"), "or", reducer="pred"), "a or reduction cannot run at f32"),
]


@pytest.mark.parametrize(
    ("case", "why"),
    REFUSALS,
    ids=[_case_id(c) for c, _ in REFUSALS],
)
def test_refusal_leaves_the_collective_with_a_remark(
    case: Case, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unchanged, one remark naming the types (or the bitwise reducer), no warning."""
    before = case.module()
    after = applied(before)
    assert str(after) == str(before)
    assert capsys.readouterr().err == f"remark: {PASS}: %r not legalized: {why}\n"


# --- the lossy option --------------------------------------------------------------------------


def _precision(name: str, wide: str, lost: str) -> str:
    return (
        f"warning: {PASS}: lossy-widest-bitwidth: %{name} is rebuilt at {wide}, which does not "
        f"represent {lost} exactly: values are rounded or truncated\n"
    )


def test_lossy_option_truncates_bf16_in_an_all_gather(capsys: pytest.CaptureFixture[str]) -> None:
    before = Case("all_gather", ("bf16", "s32")).module()
    after = applied(before, lossy=True)
    assert capsys.readouterr().err == _precision("r", "s32", "bf16") + f"warning: {WARNING}\n"
    assert collective_element_types(after) == ["s32", "s32"]
    with pytest.raises(EquivalenceError, match=r"-3\.671875 before vs -3\.0 after"):
        assert_equivalent(before, after, inputs=[BF16, S32], rtol=0, atol=0)


def test_lossy_option_rounds_s32_next_to_f32(capsys: pytest.CaptureFixture[str]) -> None:
    before = Case("all_reduce", ("f32", "s32"), "maximum").module()
    after = applied(before, lossy=True)
    assert capsys.readouterr().err == _precision("r", "f32", "s32") + f"warning: {WARNING}\n"
    assert collective_element_types(after) == ["f32", "f32"]
    with pytest.raises(EquivalenceError, match="134217742 before vs 134217744 after"):
        assert_equivalent(before, after, inputs=[F32, S32], rtol=0, atol=0)


def test_lossy_option_warns_only_when_it_loses(capsys: pytest.CaptureFixture[str]) -> None:
    """f32 + bf16 is exact under both rules: the up-cast warning, no precision warning."""
    before = Case("all_reduce", ("f32", "bf16"), "add").module()
    after = applied(before, lossy=True)
    assert str(after) == str(applied(before))
    assert capsys.readouterr().err == f"warning: {WARNING}\n" * 2


def test_default_never_prints_a_precision_warning(capsys: pytest.CaptureFixture[str]) -> None:
    for case, _ in EXACT:
        applied(case.module())
        assert capsys.readouterr().err == f"warning: {WARNING}\n", case


def test_lossy_option_on_the_command_line(tmp_path: Path) -> None:
    src = tmp_path / "bf16_s32.mlir"
    src.write_text(Case("all_gather", ("bf16", "s32")).text())
    opt = str(Path(sys.executable).parent / "neuron-opt")
    lossy = subprocess.run(
        [opt, str(src), "-p", f"{PASS}{{lossy-widest-bitwidth=true}}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert lossy.returncode == 0, lossy.stderr
    assert lossy.stderr == _precision("r", "s32", "bf16") + f"warning: {WARNING}\n"
    assert "tensor<8xi32>, tensor<8xi32>" in lossy.stdout
    exact = subprocess.run([opt, str(src), "-p", PASS], capture_output=True, text=True, check=False)
    assert exact.returncode == 0, exact.stderr
    assert exact.stderr == f"warning: {WARNING}\n"
    assert "tensor<8xf64>, tensor<8xf64>" in exact.stdout


# --- XLA:CPU ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class XlaJob:
    name: str
    module: ModuleOp
    inputs: list[Array]


def _xla_jobs() -> list[XlaJob]:
    """Programs XLA:CPU accepts: XLA rejects a reducer typed for one of several element types,
    so the original of a mixed reduction runs as decompose-cc-ops' per-operand collectives."""
    jobs: list[XlaJob] = []
    for case in (
        Case("all_gather", ("bf16", "s32")),
        Case("all_gather", ("f32", "s32")),
        Case("all_gather", ("f16", "s16")),
        Case("all_reduce", ("f32", "s32"), "maximum"),
        Case("all_reduce", ("bf16", "s32"), "minimum"),
    ):
        before = case.module()
        reference = before.clone()
        if case.kind != "all_gather":
            DecomposeCcOpsPass().apply(Context(), reference)
        name = _case_id(case)
        ins = inputs_for(case.types)
        jobs.append(XlaJob(f"{name}.before", reference, ins))
        jobs.append(XlaJob(f"{name}.exact", applied(before), ins))
        jobs.append(XlaJob(f"{name}.lossy", applied(before, lossy=True), ins))
    return jobs


def _run_on_xla(jobs: list[XlaJob]) -> dict[str, list[Array]]:
    """Every job's outputs on XLA:CPU as 2 replicas (per output, device axis first)."""
    cases = [
        XlaCase(
            job.name,
            export_hlo(job.module),
            2,
            1,
            job.inputs,
            [
                numpy_name(element_type_name(tensor_type(t).element_type))
                for t in entry_function(job.module).function_type.inputs.data
            ],
        )
        for job in jobs
    ]
    outputs: dict[str, list[Array]] = {}
    for job, result in zip(jobs, run_xla(cases, case_timeout=300), strict=True):
        assert result.ok, (job.name, result.status, result.stage, result.message)
        outputs[job.name] = result.outputs
    return outputs


@pytest.fixture(scope="module")
def xla() -> tuple[list[XlaJob], dict[str, list[Array]]]:
    if not xla_available():
        pytest.skip(XLA_UNAVAILABLE)
    jobs = _xla_jobs()
    return jobs, _run_on_xla(jobs)


def _bits(x: Array) -> bytes:
    return np.ascontiguousarray(x).tobytes()


def test_xla_exact_promotion_is_bit_identical(
    xla: tuple[list[XlaJob], dict[str, list[Array]]],
) -> None:
    """On XLA:CPU the legalized program gives the original's bits; so does the interpreter."""
    jobs, outputs = xla
    for job in jobs:
        if not job.name.endswith(".before"):
            continue
        stem = job.name.removesuffix(".before")
        reference, exact = outputs[job.name], outputs[f"{stem}.exact"]
        for j, (a, b) in enumerate(zip(reference, exact, strict=True)):
            assert _bits(a) == _bits(b), (stem, j, a, b)
        simulated = outputs_of(job.module, job.inputs)
        for j, (a, s) in enumerate(zip(reference, simulated, strict=True)):
            np.testing.assert_array_equal(a, s.astype(a.dtype), err_msg=f"{stem} output {j}")


def test_xla_lossy_option_loses_the_old_bug_values(
    xla: tuple[list[XlaJob], dict[str, list[Array]]],
) -> None:
    _, outputs = xla
    gather = outputs["all_gather-bf16+s32.lossy"]
    assert gather[0][0][0] == -3.0  # XLA's original: -3.671875
    assert outputs["all_gather-bf16+s32.before"][0][0][0] == -3.671875
    rounded = outputs["all_reduce-maximum-f32+s32.lossy"]
    assert rounded[1][0][0] == 134217744  # XLA's original: 134217742
    assert outputs["all_reduce-maximum-f32+s32.before"][1][0][0] == 134217742
