"""The collective normalisation passes keep the program's meaning (run on simulated devices).

decompose-cc-ops, legalize-cpu-cc-ops and legalize-ccops-for-tensorizer are checked with the
interpreter (`neuron_cc.testing.assert_equivalent`) on hand-written modules and on the JAX
corpus modules with tuple-shaped collectives, whose outputs must also still match XLA's
(the oracle in inputs.npz). The exact IR each pass prints is checked by the lit tests in
tests/filecheck/transforms/; here: semantics, the CLI's diagnostics and XLA accepting the
exported HLO text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TupleType
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis.entry import find_entry
from neuron_cc.dialects.hlo.collectives import AllGatherOp, AllReduceOp, ReduceScatterOp
from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.interpreter.runner import entry_function, inputs_from_npz, run_module
from neuron_cc.interpreter.values import Value
from neuron_cc.testing import EquivalenceError, assert_equivalent, random_inputs
from neuron_cc.testing.ir import neuron_context
from neuron_cc.testing.loop_text import WhileLoop
from neuron_cc.transforms.decompose_cc_ops import DecomposeCcOpsPass
from neuron_cc.transforms.legalize_ccops_for_tensorizer import (
    WARNING,
    LegalizeCcopsForTensorizerPass,
)
from neuron_cc.transforms.legalize_cpu_cc_ops import LegalizeCpuCcOpsPass
from neuron_cc.translate.hlo_text.importer import import_hlo
from tests.conftest import ROOT, run_tool

CORPUS = ROOT / "tests" / "corpus" / "jax"
TUPLE_CASES = ["psum_pytree_mixed_dtype", "pmean_and_int_psum"]
CANDIDATES = (AllGatherOp, AllReduceOp, ReduceScatterOp)
ALL_PASSES: list[Callable[[], ModulePass]] = [
    DecomposeCcOpsPass,
    LegalizeCpuCcOpsPass,
    LegalizeCcopsForTensorizerPass,
]


_context = functools.cache(neuron_context)
"""One context for the whole file (building it registers every dialect)."""


def parse(src: str) -> ModuleOp:
    module = Parser(_context(), src).parse_module()
    module.verify()
    return module


def applied(module: ModuleOp, pass_: ModulePass) -> ModuleOp:
    """A clone of `module` with `pass_` applied (and verified)."""
    after = module.clone()
    pass_.apply(Context(), after)
    after.verify()
    return after


def tuple_collectives(module: ModuleOp, *, entry_only: bool) -> list[Operation]:
    """The tuple-shaped all_gather / all_reduce / reduce_scatter ops (entry top level or all)."""
    if entry_only:
        entry = find_entry(module)
        assert entry is not None
        ops: list[Operation] = list(entry.body.ops)
    else:
        ops = list(module.walk())
    return [
        op for op in ops if isinstance(op, CANDIDATES) and isinstance(op.results[0].type, TupleType)
    ]


def mixed_collectives(module: ModuleOp) -> list[Operation]:
    """Collectives whose operands have more than one element type."""
    return [
        op
        for op in module.walk()
        if isinstance(op, CANDIDATES)
        and len({getattr(v.type, "element_type", None) for v in op.operands}) > 1
    ]


def flags(module: ModuleOp) -> list[tuple[str, bool, bool]]:
    """(op name, has channel_id, has use_global_device_ids) of every collective, in order."""
    return [
        (
            op.name,
            "channel_id" in op.properties,
            "use_global_device_ids" in op.properties,
        )
        for op in module.walk()
        if "replica_groups" in op.properties or "source_target_pairs" in op.properties
    ]


# --- hand-written modules ------------------------------------------------------------------

ADD_F32 = """{
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %acc = hlo.add %lhs, %rhs : tensor<f32>
      hlo.return %acc : tensor<f32>
    }"""

# Several tuple collectives of mixed types, a uniform one, a single-operand one.
SEVERAL = f"""
builtin.module attributes {{hlo.num_replicas = 2 : i64, hlo.num_partitions = 2 : i64}} {{
  func.func @main(%a: tensor<4xf32>, %b: tensor<4xi32>, %c: tensor<4xbf16>, %m: tensor<2x8xf32>)
      -> (tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xbf16>>, tuple<tensor<8xf32>, tensor<8xbf16>>,
          tuple<tensor<2x2xf32>, tensor<2x2xf32>>, tensor<4xf32>, tensor<4xf32>) {{
    %r = hlo.all_reduce(%a, %b, %c) replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids {ADD_F32} : (tensor<4xf32>, tensor<4xi32>, tensor<4xbf16>) -> tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xbf16>>
    %g = hlo.all_gather(%a, %c) dim = 0 replica_groups = [[0, 2], [1, 3]] channel_id = 2 use_global_device_ids : (tensor<4xf32>, tensor<4xbf16>) -> tuple<tensor<8xf32>, tensor<8xbf16>>
    %rs = hlo.reduce_scatter(%m, %m) dim = 1 replica_groups = [[0, 1]] channel_id = 3 {{
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %mx = hlo.maximum %x, %y : tensor<f32>
      hlo.return %mx : tensor<f32>
    }} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tuple<tensor<2x2xf32>, tensor<2x2xf32>>
    %one = hlo.all_reduce(%a) replica_groups = [[0, 1]] {ADD_F32} : (tensor<4xf32>) -> tensor<4xf32>
    %r0 = hlo.get_tuple_element %r[0] : tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xbf16>>
    %twice = hlo.add %r0, %one : tensor<4xf32>
    func.return %r, %g, %rs, %one, %twice : tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xbf16>>, tuple<tensor<8xf32>, tensor<8xbf16>>, tuple<tensor<2x2xf32>, tensor<2x2xf32>>, tensor<4xf32>, tensor<4xf32>
  }}
}}
"""

_LOOP_WHILE = WhileLoop(
    ["tensor<i32>", "tensor<4xf32>", "tensor<4xbf16>"],
    f"""
    %r = hlo.all_reduce(%u, %v) replica_groups = [[0, 1], [2, 3]] {ADD_F32} : (tensor<4xf32>, tensor<4xbf16>) -> tuple<tensor<4xf32>, tensor<4xbf16>>
    %ru = hlo.get_tuple_element %r[0] : tuple<tensor<4xf32>, tensor<4xbf16>>
    %rv = hlo.get_tuple_element %r[1] : tuple<tensor<4xf32>, tensor<4xbf16>>
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    """,
    ["%i1", "%ru", "%rv"],
    condition="""
    %n = hlo.constant dense<3> : tensor<i32>
    %lt = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
    """,
    names=["%i", "%u", "%v"],
    arguments=("%cs", "%bs"),
    predicate="%lt",
)
_LOOP_STATE = _LOOP_WHILE.type

# A tuple collective in a while body (3 trips) and one in a called function.
LOOP = f"""
builtin.module attributes {{hlo.num_replicas = 4 : i64}} {{
  func.func @gather(%p: tensor<4xf32>, %q: tensor<4xbf16>) -> tuple<tensor<16xf32>, tensor<16xbf16>> {{
    %pq = hlo.all_gather(%p, %q) dim = 0 replica_groups = [[3, 2, 1, 0]] : (tensor<4xf32>, tensor<4xbf16>) -> tuple<tensor<16xf32>, tensor<16xbf16>>
    func.return %pq : tuple<tensor<16xf32>, tensor<16xbf16>>
  }}
  func.func @main(%x: tensor<4xf32>, %y: tensor<4xbf16>) -> ({_LOOP_STATE}, tuple<tensor<16xf32>, tensor<16xbf16>>) {{
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %x, %y : {_LOOP_STATE}
{_LOOP_WHILE.text("%init", result="%loop")}
    %called = hlo.call @gather(%x, %y) : (tensor<4xf32>, tensor<4xbf16>) -> tuple<tensor<16xf32>, tensor<16xbf16>>
    func.return %loop, %called : {_LOOP_STATE}, tuple<tensor<16xf32>, tensor<16xbf16>>
  }}
}}
"""


def _corpus(case: str) -> tuple[ModuleOp, list[Value], dict[str, Any]]:
    path = CORPUS / case / "opt.hlo"
    module = import_hlo(path.read_text(), str(path))
    module.verify()
    with np.load(CORPUS / case / "inputs.npz") as data:
        arrays = {k: data[k] for k in data.files}
    r, p = device_counts(module)
    return module, inputs_from_npz(entry_function(module), arrays, r * p), arrays


def _assert_matches_oracle(module: ModuleOp, inputs: list[Value], oracle: dict[str, Any]) -> None:
    outputs = run_module(module, inputs).outputs
    expected = sum(1 for k in oracle if k.startswith("out") and k.endswith("_dev0"))
    assert len(outputs) == expected
    for j, value in enumerate(outputs):
        assert isinstance(value, np.ndarray)
        for d in range(value.shape[0]):
            want = oracle[f"out{j}_dev{d}"]
            if want.dtype.kind == "f":
                np.testing.assert_allclose(value[d], want, rtol=1e-5, atol=1e-6)
            else:
                np.testing.assert_array_equal(value[d], want)


# --- decompose-cc-ops ----------------------------------------------------------------------


def test_decompose_several_mixed_collectives_is_equivalent() -> None:
    before = parse(SEVERAL)
    after = applied(before, DecomposeCcOpsPass())
    assert len(tuple_collectives(before, entry_only=True)) == 3
    assert tuple_collectives(after, entry_only=False) == []
    # 3 + 2 + 2 clones and the untouched single-operand all_reduce
    assert sum(isinstance(op, CANDIDATES) for op in after.walk()) == 8
    assert_equivalent(before, after, rtol=0, atol=0)


@pytest.mark.parametrize("all_computations", [False, True])
def test_decompose_while_body_and_callee(all_computations: bool) -> None:
    before = parse(LOOP)
    after = applied(before, DecomposeCcOpsPass(all_computations=all_computations))
    left = tuple_collectives(after, entry_only=False)
    # By default the while body and @gather are other computations: both stay tuple-shaped.
    assert len(left) == (0 if all_computations else 2)
    assert_equivalent(before, after, rtol=0, atol=0)


@pytest.mark.parametrize("all_computations", [False, True])
@pytest.mark.parametrize("case", TUPLE_CASES)
def test_decompose_corpus_is_equivalent_and_matches_xla(case: str, all_computations: bool) -> None:
    before, inputs, oracle = _corpus(case)
    assert tuple_collectives(before, entry_only=True)
    after = applied(before, DecomposeCcOpsPass(all_computations=all_computations))
    assert tuple_collectives(after, entry_only=False) == []
    assert_equivalent(before, after, inputs=inputs, rtol=0, atol=0)
    _assert_matches_oracle(after, inputs, oracle)


def _xla_parser() -> Callable[[str], Any]:
    pytest.importorskip("jax")
    try:
        from jax._src.lib import hlo  # pyright: ignore

        return hlo.hlo_module_from_text
    except (ImportError, AttributeError):
        from jax._src.lib import xla_client  # pyright: ignore

        return xla_client._xla.hlo_module_from_text  # pyright: ignore


def _entry_section(text: str) -> str:
    start = text.index("\nENTRY ")
    return text[start : text.index("\n}", start)]


_TUPLE_ALL_REDUCE = re.compile(r"= \(.*\) all-reduce\(")


@pytest.mark.parametrize("case", TUPLE_CASES)
def test_decompose_cli_emits_hlo_that_xla_parses(case: str) -> None:
    parse_hlo = _xla_parser()
    path = CORPUS / case / "opt.hlo"
    assert _TUPLE_ALL_REDUCE.search(_entry_section(path.read_text()))
    result = run_tool("neuron-opt", path, "-p", "decompose-cc-ops", "--emit", "hlo")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    entry = _entry_section(result.stdout)
    assert " all-reduce(" in entry
    assert not _TUPLE_ALL_REDUCE.search(entry), entry
    assert "%cc-tuple0 = (" in entry
    assert parse_hlo(result.stdout).to_string().startswith("HloModule ")


# --- legalize-cpu-cc-ops -------------------------------------------------------------------

CPU = f"""
builtin.module attributes {{hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64}} {{
  func.func @main(%x: tensor<8xf32>, %y: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<4xf32>, tuple<tensor<8xf32>, tensor<8xi32>>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {{
    %ar1 = hlo.all_reduce(%x) replica_groups = [[0, 1], [2, 3]] channel_id = 1 {ADD_F32} : (tensor<8xf32>) -> tensor<8xf32>
    %ar2 = hlo.all_reduce(%x) replica_groups = [[0, 2], [1, 3]] channel_id = 2 use_global_device_ids {ADD_F32} : (tensor<8xf32>) -> tensor<8xf32>
    %ag1 = hlo.all_gather(%x) dim = 0 replica_groups = [[3, 1, 2, 0]] channel_id = 3 : (tensor<8xf32>) -> tensor<32xf32>
    %ag2 = hlo.all_gather(%x) dim = 0 replica_groups = [[2, 0, 3, 1]] channel_id = 4 use_global_device_ids : (tensor<8xf32>) -> tensor<32xf32>
    %rs = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1], [2, 3]] channel_id = 5 use_global_device_ids {ADD_F32} : (tensor<8xf32>) -> tensor<4xf32>
    %tup = hlo.all_reduce(%x, %y) replica_groups = [[0, 1, 2, 3]] channel_id = 6 {ADD_F32} : (tensor<8xf32>, tensor<8xi32>) -> tuple<tensor<8xf32>, tensor<8xi32>>
    %a2a = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] : (tensor<8xf32>) -> tensor<8xf32>
    %bc = hlo.collective_broadcast(%x) replica_groups = [[2, 0, 1, 3]] : (tensor<8xf32>) -> tensor<8xf32>
    %cp = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<8xf32>
    %plain = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3]] {ADD_F32} : (tensor<8xf32>) -> tensor<8xf32>
    func.return %ar1, %ar2, %ag1, %ag2, %rs, %tup, %a2a, %bc, %cp, %plain : tensor<8xf32>, tensor<8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<4xf32>, tuple<tensor<8xf32>, tensor<8xi32>>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  }}
}}
"""


def test_cpu_pass_is_an_identity_in_meaning_with_one_partition() -> None:
    before = parse(CPU)
    after = applied(before, LegalizeCpuCcOpsPass())
    assert any(channel or ids for _, channel, ids in flags(before))
    assert all(not channel and not ids for _, channel, ids in flags(after))
    assert_equivalent(before, after, rtol=0, atol=0)


LOOP_WITH_CHANNELS = LOOP.replace(
    "replica_groups = [[0, 1], [2, 3]] {", "replica_groups = [[0, 1], [2, 3]] channel_id = 1 {"
).replace(
    "replica_groups = [[3, 2, 1, 0]] :",
    "replica_groups = [[3, 2, 1, 0]] channel_id = 2 use_global_device_ids :",
)


@pytest.mark.parametrize("all_computations", [False, True])
def test_cpu_pass_in_while_body_and_callee(all_computations: bool) -> None:
    before = parse(LOOP_WITH_CHANNELS)
    assert flags(before) == [("hlo.all_gather", True, True), ("hlo.all_reduce", True, False)]
    after = applied(before, LegalizeCpuCcOpsPass(all_computations=all_computations))
    cleared = [("hlo.all_gather", False, False), ("hlo.all_reduce", False, False)]
    assert flags(after) == (cleared if all_computations else flags(before))
    assert_equivalent(before, after, rtol=0, atol=0)


FOUR_PARTITIONS = """
builtin.module attributes {hlo.num_partitions = 4 : i64} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<16xf32>, tensor<4xf32>) {
    %g = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids : (tensor<4xf32>) -> tensor<16xf32>
    %p = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 2 : tensor<4xf32>
    func.return %g, %p : tensor<16xf32>, tensor<4xf32>
  }
}
"""


def test_cpu_pass_with_partitions_fails_and_leaves_the_module_untouched() -> None:
    module = parse(FOUR_PARTITIONS)
    text = str(module)
    with pytest.raises(
        PassFailedException, match=r"^legalize-cpu-cc-ops requires num_partitions == 1 \(got 4\)$"
    ):
        LegalizeCpuCcOpsPass().apply(Context(), module)
    assert str(module) == text


def test_cpu_pass_cli_reports_partitions(tmp_path: Path) -> None:
    src = tmp_path / "p4.mlir"
    src.write_text(FOUR_PARTITIONS)
    out = tmp_path / "out.mlir"
    result = run_tool("neuron-opt", src, "-p", "legalize-cpu-cc-ops", "-o", out)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == "error: legalize-cpu-cc-ops requires num_partitions == 1 (got 4)\n"
    assert not out.exists()


@pytest.mark.parametrize("case", TUPLE_CASES)
def test_cpu_pass_on_corpus_fails_because_it_has_partitions(case: str) -> None:
    module, _, _ = _corpus(case)
    assert device_counts(module) == (1, 8)
    with pytest.raises(PassFailedException, match=r"\(got 8\)"):
        LegalizeCpuCcOpsPass().apply(Context(), module)


@pytest.mark.parametrize("case", TUPLE_CASES)
def test_cpu_pass_on_corpus_retargeted_to_replicas(case: str) -> None:
    """The corpus programs use flattened ids over all 8 devices and no partition ids, so as
    8 replicas x 1 partition they compute the same; there the pass must keep the meaning."""
    before, inputs, oracle = _corpus(case)
    before.attributes["hlo.num_replicas"] = IntegerAttr(8, 64)
    before.attributes["hlo.num_partitions"] = IntegerAttr(1, 64)
    before.verify()
    _assert_matches_oracle(before, inputs, oracle)
    after = applied(before, LegalizeCpuCcOpsPass(all_computations=True))
    assert any(channel or ids for _, channel, ids in flags(before))
    assert all(not channel and not ids for _, channel, ids in flags(after))
    assert_equivalent(before, after, inputs=inputs, rtol=0, atol=0)
    _assert_matches_oracle(after, inputs, oracle)


@pytest.mark.parametrize(
    "op",
    [
        "%r = hlo.collective_broadcast(%x) replica_groups = [[0]] channel_id = 1 : (tensor<4xf32>) -> tensor<4xf32>",
        "%r = hlo.collective_permute %x pairs = [[0, 0]] channel_id = 1 : tensor<4xf32>",
        "%r = hlo.all_to_all(%x) dim = 0 replica_groups = [[0]] channel_id = 1 : (tensor<4xf32>) -> tensor<4xf32>",
    ],
    ids=["collective_broadcast", "collective_permute", "all_to_all"],
)
def test_cpu_pass_cross_partition_ops_with_replicas(op: str) -> None:
    before = parse(
        "builtin.module attributes {hlo.num_replicas = 4 : i64} {\n"
        "  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        f"    {op}\n"
        "    func.return %r : tensor<4xf32>\n  }\n}"
    )
    # With a channel id these ops are cross_partition (every replica alone when P == 1);
    # erasing it would make them cross_replica over replica ids: the pass refuses.
    after = before.clone()
    with pytest.raises(PassFailedException, match=r"needs num_replicas == 1 \(got 4\)"):
        LegalizeCpuCcOpsPass().apply(Context(), after)
    assert str(after) == str(before)


# --- legalize-ccops-for-tensorizer ---------------------------------------------------------


def _mixed_all_reduce(a: str, b: str, kind: str = "add", reducer_type: str | None = None) -> str:
    """`@main(%a: tensor<4x<a>>, %b: tensor<4x<b>>)` returning a tuple all_reduce of both."""
    r = reducer_type or a
    return f"""
builtin.module attributes {{hlo.num_replicas = 4 : i64}} {{
  func.func @main(%a: tensor<4x{a}>, %b: tensor<4x{b}>) -> tuple<tensor<4x{a}>, tensor<4x{b}>> {{
    %r = hlo.all_reduce(%a, %b) replica_groups = [[0, 1, 2, 3]] {{
    ^bb0(%x: tensor<{r}>, %y: tensor<{r}>):
      %s = hlo.{kind} %x, %y : tensor<{r}>
      hlo.return %s : tensor<{r}>
    }} : (tensor<4x{a}>, tensor<4x{b}>) -> tuple<tensor<4x{a}>, tensor<4x{b}>>
    func.return %r : tuple<tensor<4x{a}>, tensor<4x{b}>>
  }}
}}
"""


def test_tensorizer_f32_bf16_all_reduce_is_bit_exact() -> None:
    before = parse(_mixed_all_reduce("f32", "bf16"))
    after = applied(before, LegalizeCcopsForTensorizerPass())
    assert mixed_collectives(after) == []
    for seed in range(3):
        assert_equivalent(before, after, rtol=0, atol=0, seed=seed)


@pytest.mark.parametrize(
    ("a", "b", "kind"),
    [
        ("f32", "bf16", "maximum"),
        ("i8", "i1", "add"),  # pred add is `or`; a 0/1 sum converted back is the same
        ("i8", "i1", "maximum"),
        ("f32", "i32", "add"),  # f64; integer-valued f32 inputs: the f64 sums are exact
        ("bf16", "i16", "add"),  # f32
        ("i32", "ui32", "add"),  # i64 sums wrap to the same u32 / s32 values
        ("i32", "ui32", "multiply"),
        ("i32", "ui32", "minimum"),
    ],
)
def test_tensorizer_promotion_is_exact_on_representable_values(a: str, b: str, kind: str) -> None:
    before = parse(_mixed_all_reduce(a, b, kind))
    after = applied(before, LegalizeCcopsForTensorizerPass())
    assert mixed_collectives(after) == []
    inputs = random_inputs(before, seed=1)
    # integer-valued floats so that every up-cast in the table is exact
    inputs = [np.round(x * 4).astype(x.dtype) if x.dtype.kind == "f" else x for x in inputs]
    assert_equivalent(before, after, inputs=inputs, rtol=0, atol=0)


def test_tensorizer_f16_bf16_rounds_once() -> None:
    """f16 + bf16 -> f32: the f16 part is now summed in f32 and rounded to f16 once (the
    original f16 reduction rounds after every step: equal to within an f16 ulp or so)."""
    before = parse(_mixed_all_reduce("f16", "bf16"))
    after = applied(before, LegalizeCcopsForTensorizerPass())
    assert mixed_collectives(after) == []
    inputs = random_inputs(before, seed=0)
    _, result = assert_equivalent(before, after, inputs=inputs, rtol=2e-3, atol=2e-3)
    x = inputs[0]
    assert isinstance(x, np.ndarray)
    total = x[0].astype(np.float32)
    for d in range(1, 4):
        total = total + x[d].astype(np.float32)
    for d in range(4):
        np.testing.assert_array_equal(result.outputs[0][d], total.astype(np.float16))


def test_tensorizer_s64_f32_truncates_fractions_as_documented() -> None:
    """s64 + f32 has no exact type (refused by default); the lossy option truncates."""
    before = parse(_mixed_all_reduce("i64", "f32", "add"))
    assert str(applied(before, LegalizeCcopsForTensorizerPass())) == str(before)
    after = applied(before, LegalizeCcopsForTensorizerPass(lossy_widest_bitwidth=True))
    ints = np.arange(16, dtype=np.int64).reshape(4, 4)  # (devices, elements)
    fractions = np.full((4, 4), 0.75, np.float32)
    original = run_module(before, [ints, fractions]).outputs
    legalized = run_module(after, [ints, fractions]).outputs
    np.testing.assert_array_equal(legalized[0], original[0])
    np.testing.assert_array_equal(original[1], np.full((4, 4), 3.0, np.float32))
    np.testing.assert_array_equal(legalized[1], np.zeros((4, 4), np.float32))  # 0.75 -> 0 each


def test_tensorizer_several_collectives_while_body_and_callee() -> None:
    for src, rtol in ((SEVERAL, 1e-6), (LOOP, 0.0)):
        before = parse(src)
        assert mixed_collectives(before)
        after = applied(before, LegalizeCcopsForTensorizerPass())
        assert mixed_collectives(after) == []
        # LOOP (f32 + bf16 -> f32) is exact: bf16 accumulates in f32 either way. SEVERAL's
        # f32 + s32 + bf16 sum runs at f64: its f32 part rounds once instead of per step.
        assert_equivalent(before, after, rtol=rtol, atol=0)


def test_tensorizer_leaves_uniform_modules_alone(capsys: pytest.CaptureFixture[str]) -> None:
    for case in TUPLE_CASES:
        before, inputs, oracle = _corpus(case)
        after = applied(before, LegalizeCcopsForTensorizerPass())
        assert str(after) == str(before)
        assert_equivalent(before, after, inputs=inputs, rtol=0, atol=0)
        _assert_matches_oracle(after, inputs, oracle)
    assert capsys.readouterr().err == ""


def test_tensorizer_after_decompose_on_corpus() -> None:
    """The two normalisation passes in the order a pipeline runs them."""
    for case in TUPLE_CASES:
        before, inputs, oracle = _corpus(case)
        after = applied(applied(before, DecomposeCcOpsPass()), LegalizeCcopsForTensorizerPass())
        assert_equivalent(before, after, inputs=inputs, rtol=0, atol=0)
        _assert_matches_oracle(after, inputs, oracle)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_tensorizer_cli_warns_exactly_once(tmp_path: Path) -> None:
    several = _write(tmp_path, "several.mlir", SEVERAL)
    result = run_tool("neuron-opt", several, "-p", "legalize-ccops-for-tensorizer")
    assert result.returncode == 0, result.stderr
    assert result.stderr == f"warning: {WARNING}\n"
    loop = _write(tmp_path, "loop.mlir", LOOP)
    result = run_tool("neuron-opt", loop, "-p", "legalize-ccops-for-tensorizer")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("warning:") == 1


def test_tensorizer_cli_is_silent_when_nothing_changes(tmp_path: Path) -> None:
    uniform = _write(tmp_path, "uniform.mlir", _mixed_all_reduce("bf16", "bf16"))
    result = run_tool("neuron-opt", uniform, "-p", "legalize-ccops-for-tensorizer")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    corpus = CORPUS / "psum_pytree_mixed_dtype" / "opt.hlo"
    result = run_tool("neuron-opt", corpus, "-p", "legalize-ccops-for-tensorizer")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_tensorizer_cli_remark_without_warning(tmp_path: Path) -> None:
    src = _write(tmp_path, "s64u64.mlir", _mixed_all_reduce("i64", "ui64"))
    result = run_tool("neuron-opt", src, "-p", "legalize-ccops-for-tensorizer")
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        "remark: legalize-ccops-for-tensorizer: %r not legalized: "
        "no supported type represents s64, u64 exactly\n"
    )


def test_tensorizer_bitwise_reducer_promoted_to_float(capsys: pytest.CaptureFixture[str]) -> None:
    """An `or` reducer cannot run at f32: the collective stays, with a remark, no warning."""
    before = parse(_mixed_all_reduce("f32", "i1", "or", reducer_type="i1"))
    after = applied(before, LegalizeCcopsForTensorizerPass())
    assert str(after) == str(before)
    err = capsys.readouterr().err
    assert "not legalized: a or reduction cannot run at f32" in err
    assert "warning" not in err


def test_tensorizer_same_width_int_to_float_rounds_as_documented() -> None:
    """The lossy option's documented loss: s16 promoted to bf16 (a same-width tie) rounds 257
    to 256; the default (f32) keeps it."""
    before = parse(_mixed_all_reduce("bf16", "i16"))
    ints = np.zeros((4, 4), np.int16)
    ints[0, 0] = 257
    inputs = [np.zeros((4, 4), np.float32), ints]
    exact = applied(before, LegalizeCcopsForTensorizerPass())
    assert_equivalent(before, exact, inputs=inputs, rtol=0, atol=0)
    after = applied(before, LegalizeCcopsForTensorizerPass(lossy_widest_bitwidth=True))
    with pytest.raises(EquivalenceError, match="257 before vs 256 after"):
        assert_equivalent(before, after, inputs=inputs, rtol=0, atol=0)


# --- decompose bug ---------------------------------------------------------------------------


def test_decompose_mixed_types_with_a_non_simple_reducer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = parse(
        _mixed_all_reduce("f32", "i32", "add").replace(
            "%s = hlo.add %x, %y : tensor<f32>",
            "%t = hlo.add %x, %y : tensor<f32>\n      %s = hlo.add %t, %y : tensor<f32>",
        )
    )
    after = applied(before, DecomposeCcOpsPass())
    assert str(after) == str(before)
    assert "not decomposed: its operands have different element types" in capsys.readouterr().err


# --- no entry computation --------------------------------------------------------------------

NO_ENTRY = """
builtin.module {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    func.return %a : tensor<4xf32>
  }
  func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
    func.return %a : tensor<4xf32>
  }
}
"""


@pytest.mark.parametrize("make", ALL_PASSES, ids=lambda p: p.name)
def test_no_entry_computation(make: Callable[[], ModulePass], tmp_path: Path) -> None:
    module = parse(NO_ENTRY)
    with pytest.raises(PassFailedException, match=r"^module has no entry computation$"):
        make().apply(Context(), module)
    src = _write(tmp_path, "no_entry.mlir", NO_ENTRY)
    result = run_tool("neuron-opt", src, "-p", make().name)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == "error: module has no entry computation\n"
