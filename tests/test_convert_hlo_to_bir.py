"""convert-hlo-to-bir preserves the program's outputs (issue 7 §2), checked by execution.

Every executable case of the lit file (tests/filecheck/transforms/convert-hlo-to-bir.mlir) and
every corpus spmd.hlo is run before and after the pass (untiled and tiled) on the bir
interpreter, and the outputs must match on every device. Also: the access-pattern geometry of
neuron_cc.analysis.access_patterns against numpy, and the pass's error paths.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis import access_patterns as aps
from neuron_cc.dialects.bir import CollectiveComputeOp
from neuron_cc.interpreter.runner import entry_function, inputs_from_npz, run_module
from neuron_cc.testing import assert_equivalent
from neuron_cc.testing.ir import neuron_context as _context
from neuron_cc.transforms.convert_hlo_to_bir import ConvertHloToBirPass
from neuron_cc.translate.hlo_text.importer import import_hlo
from tests.conftest import count_operand_tuples

ROOT = Path(__file__).resolve().parent.parent
LIT_DIR = ROOT / "tests" / "filecheck" / "transforms"
LIT_FILES = [LIT_DIR / "convert-hlo-to-bir.mlir", LIT_DIR / "convert-hlo-to-bir-kinds.mlir"]
CORPUS = ROOT / "tests" / "corpus" / "jax"
CORPUS_CASES = sorted(p.parent.name for p in CORPUS.glob("*/spmd.hlo"))
OPTIONS = [
    pytest.param(ConvertHloToBirPass(), id="untiled"),
    pytest.param(ConvertHloToBirPass(tile_bytes=64, ring_channels=4), id="tiled64"),
    pytest.param(ConvertHloToBirPass(tile_bytes=1, ring_channels=2), id="tiled1"),
    pytest.param(
        ConvertHloToBirPass(implicit=False, dve_channels=16, use_gpsimd_dma=True), id="options"
    ),
    pytest.param(ConvertHloToBirPass(fuse=False, tile_bytes=8), id="unfused-tiled8"),
]
NOT_EXECUTABLE = {
    # entry takes a !hlo.token argument: no random input can be generated for it
    "recv_tuple": "entry argument of type !hlo.token",
    # hlo.custom_call "Other" has no interpreter implementation
    "core_barrier": "custom_call 'Other' is opaque to the interpreter",
}

Array = np.ndarray[Any, Any]


def parse(text: str) -> ModuleOp:
    module = Parser(_context(), text).parse_module()
    module.verify()
    return module


def convert(module: ModuleOp, pass_: ConvertHloToBirPass) -> ModuleOp:
    after = module.clone()
    pass_.apply(_context(), after)
    after.verify()
    return after


def _lit_cases() -> dict[str, str]:
    """The lit file's executable cases by function name (error cases left out)."""
    cases: dict[str, str] = {}
    chunks = [c for path in LIT_FILES for c in path.read_text().split("// -----\n")]
    for chunk in chunks:
        if "CHECK: convert-hlo-to-bir:" in chunk:
            continue
        body = "\n".join(line for line in chunk.splitlines() if not line.startswith("//"))
        name = body.split("func.func @", 1)[1].split("(", 1)[0]
        cases[name] = body
    return cases


LIT_CASES = _lit_cases()


def _bir_ops(module: ModuleOp) -> list[str]:
    return [op.name for op in module.walk() if op.name.startswith("bir.")]


@pytest.mark.parametrize("pass_", OPTIONS)
@pytest.mark.parametrize("case", sorted(LIT_CASES))
def test_lit_case_equivalent(case: str, pass_: ConvertHloToBirPass) -> None:
    if case in NOT_EXECUTABLE:
        pytest.skip(NOT_EXECUTABLE[case])
    before = parse(LIT_CASES[case])
    after = convert(before, pass_)
    lowers = case != "ambiguous_ids" and (case != "broadcast_partition" or pass_.dve_channels)
    if lowers:
        assert _bir_ops(after), "the pass lowered nothing"
    assert_equivalent(before, after)
    assert_equivalent(before, after, seed=7)


def test_lit_cases_found() -> None:
    expected = {"all_reduce_ops", "modes", "variadic", "reduce_scatter", "all_gather"}
    expected |= {"all_to_all", "broadcast", "local_permute", "send_recv", "tiled"}
    expected |= {"permute_reduce", "permute_reduce_ring", "implicit_permutes", "send_recv_cce"}
    expected |= {"send_recv_cce_limits", "all_to_all_v", "tuple_all_to_all", "broadcast_partition"}
    expected |= {"variadic_gather_scatter", "send_recv_fields", "permute_reduce_not_fused"}
    assert expected <= set(LIT_CASES)


# --- the corpus -----------------------------------------------------------------------------


def _corpus_inputs(module: ModuleOp, case: str) -> list[Any]:
    with np.load(CORPUS / case / "inputs.npz") as data:
        arrays = {k: data[k] for k in data.files}
    return inputs_from_npz(entry_function(module), arrays, 8)


@pytest.mark.parametrize("pass_", OPTIONS)
@pytest.mark.parametrize("case", CORPUS_CASES)
def test_corpus_equivalent(case: str, pass_: ConvertHloToBirPass) -> None:
    before = import_hlo((CORPUS / case / "spmd.hlo").read_text())
    after = convert(before, pass_)
    remaining = [
        op.name
        for op in after.walk()
        if op.name
        in (
            "hlo.all_reduce",
            "hlo.all_gather",
            "hlo.reduce_scatter",
            "hlo.all_to_all",
            "hlo.collective_permute",
            "hlo.collective_broadcast",
            "hlo.partition_id",
        )
    ]
    assert remaining == [], f"not lowered: {remaining}"
    assert _bir_ops(after)
    inputs = _corpus_inputs(before, case)
    assert_equivalent(before, after, inputs=inputs, rtol=1e-5, atol=1e-5)


def test_corpus_tiles_something() -> None:
    tiled = 0
    for case in CORPUS_CASES:
        module = convert(
            import_hlo((CORPUS / case / "spmd.hlo").read_text()), ConvertHloToBirPass(tile_bytes=1)
        )
        tiled += sum(1 for op in module.walk() if isinstance(op, CollectiveComputeOp) and op.tiled)
    assert tiled > 0


# --- access-pattern geometry ----------------------------------------------------------------


def _indices(pattern: aps.Pattern) -> Array:
    offset, pairs = pattern
    idx = np.array([offset], dtype=np.int64)
    for step, num in pairs:
        idx = (idx[:, None] + step * np.arange(num)[None, :]).reshape(-1)
    return idx


def test_worked_example() -> None:
    assert aps.chunked([8, 32], 1, 8) == (0, ((4, 8), (32, 8), (1, 4)))
    assert aps.row_major([8, 4]) == (0, ((4, 8), (1, 4)))
    assert aps.row_major([]) == (0, ((1, 1),))


@pytest.mark.parametrize("shape", [(8, 4), (2, 6, 4), (16,), (4, 1, 8)])
@pytest.mark.parametrize("n", [1, 2, 4])
def test_chunked_pattern_is_the_gathered_layout(shape: tuple[int, ...], n: int) -> None:
    """The chunked pattern of a gathered tensor visits chunk j (rank j's input) in row-major."""
    for dim in range(len(shape)):
        if shape[dim] % n:
            continue
        full = np.arange(int(np.prod(shape))).reshape(shape)
        chunks = np.split(full, n, axis=dim)
        expected = np.concatenate([c.reshape(-1) for c in chunks])
        assert (full.reshape(-1)[_indices(aps.chunked(shape, dim, n))] == expected).all()


@pytest.mark.parametrize("tiles", [1, 2, 3, 4])
def test_tiles_cover_each_chunk_once(tiles: int) -> None:
    shape, dim, n = (8, 6), 1, 2
    patterns = aps.patterns(shape, dim, n, tiles)
    assert len(patterns) == tiles
    visited = np.concatenate([_indices(p) for p in patterns])
    assert sorted(visited.tolist()) == list(range(48))
    rows = [p[1][1][1] for p in patterns]
    assert rows == [len(r) for r in np.array_split(np.arange(8), tiles)]


def test_tile_count() -> None:
    assert aps.tile_count(384, 64, [6, 6]) == 6
    assert aps.tile_count(96, 64, [6, 3]) == 2
    assert aps.tile_count(1000, 1, [4, 1]) == 1


# --- errors ---------------------------------------------------------------------------------

SUBTRACT = """
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
    %g = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1]] channel_id = 2 use_global_device_ids : (tensor<4xf32>) -> tensor<8xf32>
    %sub = hlo.all_reduce(%x) replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.subtract %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    func.return %sub, %g : tensor<4xf32>, tensor<8xf32>
  }
}
"""


def test_failure_leaves_module_untouched() -> None:
    module = parse(SUBTRACT)
    text = str(module)
    with pytest.raises(PassFailedException, match=r"%sub: cannot map the reduction region"):
        ConvertHloToBirPass().apply(_context(), module)
    assert str(module) == text


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"ring_channels": 3}, "ring-channels must be 1, 2 or 4, got 3"),
        ({"tile_bytes": -1}, "tile-bytes must be >= 0, got -1"),
        ({"dve_channels": -2}, "dve-channels must be >= 0, got -2"),
    ],
)
def test_bad_options(options: dict[str, int], message: str) -> None:
    with pytest.raises(PassFailedException, match=message):
        ConvertHloToBirPass(
            tile_bytes=options.get("tile_bytes", 0),
            ring_channels=options.get("ring_channels", 1),
            dve_channels=options.get("dve_channels", 0),
        ).apply(_context(), parse(SUBTRACT))


def test_jax_permute_reductions_fuse_and_match_xla() -> None:
    """Real JAX (tests/corpus/jax/ring_permute_reduce): acc + ppermute(acc, +1), max(ppermute(hi,
    -1), hi) in a loop body and ppermute(acc, i^1) * y become single PermuteReduce* nodes, and
    the lowered program still computes what XLA:CPU computed on every device."""
    case = "ring_permute_reduce"
    after = convert(import_hlo((CORPUS / case / "spmd.hlo").read_text()), ConvertHloToBirPass())
    nodes = [op for op in after.walk() if isinstance(op, CollectiveComputeOp)]
    kinds = sorted((op.kind.data.value, op.op.data.value if op.op else None) for op in nodes)
    assert kinds == [
        ("PermuteReduce", "max"),
        ("PermuteReduce", "mult"),
        ("PermuteReduceImplicit", None),
    ]
    assert not [op for op in after.walk() if op.name == "hlo.collective_permute"]
    result = run_module(after, _corpus_inputs(after, case))
    with np.load(CORPUS / case / "inputs.npz") as oracle:
        for j, value in enumerate(result.outputs):
            for d in range(8):
                np.testing.assert_allclose(value[d], oracle[f"out{j}_dev{d}"], rtol=1e-6)


def test_a_wide_user_of_lowered_collectives_is_rebuilt_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The plans are applied together: a tuple reading n lowered all-reduces gets one new
    operand list, not one per collective (which was quadratic in n: a loop body returning an
    all-reduce per slot)."""
    n = 24
    ars = "".join(
        f"  %ar.{i} = f32[4] all-reduce(%x), channel_id={i + 1}, "
        "replica_groups={{0,1,2,3}}, use_global_device_ids=true, to_apply=%add\n"
        for i in range(n)
    )
    shape = "(" + ", ".join(["f32[4]"] * n) + ")"
    reads = ", ".join(f"%ar.{i}" for i in range(n))
    text = (
        "HloModule wide, num_partitions=4\n\n"
        "%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n"
        "  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(%a, %b)\n}\n\n"
        f"ENTRY %main (x: f32[4]) -> {shape} {{\n  %x = f32[4] parameter(0)\n{ars}"
        f"  ROOT %t = {shape} tuple({reads})\n}}\n"
    )
    before = import_hlo(text)
    after = before.clone()
    built = count_operand_tuples(monkeypatch)
    ConvertHloToBirPass().apply(_context(), after)
    monkeypatch.undo()
    assert len(_bir_ops(after)) == n
    assert built.count(n) == 1, built
    assert_equivalent(before, after)
