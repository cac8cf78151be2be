"""HLO text import: every real JAX dump in tests/corpus imports and verifies; bad input is a
located error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp

from neuron_cc.translate.hlo_text.importer import HloImportError, ImportOptions, import_hlo
from tests.conftest import run_tool

CORPUS = Path(__file__).resolve().parent / "corpus" / "jax"
FILES = sorted(CORPUS.glob("*/*.hlo"))
COLLECTIVES = {
    "all-reduce": "hlo.all_reduce",
    "all-gather": "hlo.all_gather",
    "reduce-scatter": "hlo.reduce_scatter",
    "all-to-all": "hlo.all_to_all",
    "collective-permute": "hlo.collective_permute",
    "collective-broadcast": "hlo.collective_broadcast",
}


def _ids(paths: list[Path]) -> list[str]:
    return [f"{p.parent.name}/{p.name}" for p in paths]


def _entry(module: ModuleOp) -> func.FuncOp:
    entries = [
        op for op in module.ops if isinstance(op, func.FuncOp) and "hlo.entry" in op.attributes
    ]
    assert len(entries) == 1
    return entries[0]


def test_corpus_is_complete() -> None:
    assert len(FILES) == 101


@pytest.mark.parametrize("path", FILES, ids=_ids(FILES))
def test_corpus_file_imports_and_verifies(path: Path) -> None:
    text = path.read_text()
    module = import_hlo(text, str(path))
    module.verify()
    names = [op.name for op in module.walk()]
    # Every collective instruction of the text is an op (regions are cloned per use, so the IR
    # holds at least as many).
    for opcode, op_name in COLLECTIVES.items():
        in_text = len(re.findall(rf" {opcode}\(", text))
        assert names.count(op_name) >= in_text, opcode
        if in_text == 0:
            assert op_name not in names
    header = text.splitlines()[0]
    partitions = re.search(r"num_partitions=(\d+)", header)
    attr = module.attributes["hlo.num_partitions"]
    assert isinstance(attr, IntegerAttr)
    if partitions is not None:
        assert attr.value.data == int(partitions.group(1))
    else:
        assert attr.value.data == 8  # from the sdy mesh of pre-partitioning dumps
    entry = _entry(module)
    entry_name = re.search(r"^ENTRY %?([\w.\-]+)", text, re.M)
    assert entry_name is not None
    assert entry.sym_name.data == entry_name.group(1)


def test_names_become_ssa_hints_and_mesh_groups_expand() -> None:
    path = CORPUS / "jit_auto_megatron_mlp" / "spmd.hlo"
    module = import_hlo(path.read_text())
    ops = {op.results[0].name_hint: op for op in module.walk() if op.results}
    gather = ops["all-gather"]
    assert gather.name == "hlo.all_gather"
    groups = gather.properties["replica_groups"]
    # mesh['axis_0'=4,'axis_1'=2], device_ids=([2,4]T(1,0)) {'axis_0'}
    assert groups.groups() == ((0, 1, 2, 3), (4, 5, 6, 7))  # pyright: ignore[reportAttributeAccessIssue]
    reduce = ops["all-reduce.1"]
    # mesh['axis_0'=2,'axis_1'=4] {'axis_0'}
    assert reduce.properties["replica_groups"].groups() == ((0, 4), (1, 5), (2, 6), (3, 7))  # pyright: ignore[reportAttributeAccessIssue]
    assert str(ops["all-reduce"].properties["replica_groups"]) == "#hlo.replica_groups<[2,4]<=[8]>"


def test_literals() -> None:
    path = CORPUS / "constants_and_literals" / "spmd.hlo"
    module = import_hlo(path.read_text())
    constants = {
        op.results[0].name_hint: op.properties["value"]
        for op in module.walk()
        if op.name == "hlo.constant"
    }
    values = constants["constant.3.clone"].get_values()  # pyright: ignore[reportAttributeAccessIssue]
    inf = float("inf")
    expected = [0, -inf, 1.5, 0.002, -3.25, 7, 1e10, -0.0, inf, 0.5, -1, 3, 4, -5, 6, 1e-20]
    assert [float(v) for v in values] == pytest.approx(expected, rel=1e-7)
    assert str(values[7]) == "-0.0"  # the sign of -0 survives
    pred = constants["constant.4.clone"].get_values()  # pyright: ignore[reportAttributeAccessIssue]
    assert [bool(v) for v in pred] == [True, False, True, True, False, True, False, True]
    assert constants["constant.0.clone.1"].get_values() == (1e6,)  # pyright: ignore[reportAttributeAccessIssue]


BAD = [
    (
        "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[4] frobnicate(p)\n}\n",
        4,
        "unsupported opcode 'frobnicate'",
    ),
    (
        "HloModule m\nENTRY e {\n  p = c32[4] parameter(0)\n  ROOT a = c32[4] add(p, p)\n}\n",
        3,
        "unsupported element type 'c32'",
    ),
    (
        "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[4] add(p, q)\n}\n",
        4,
        "operand '%q' of '%a' is not defined",
    ),
    ("HloModule m\nENTRY e {\n  ROOT c = f32[2] constant({...})\n}\n", 3, "elided"),
    (
        "HloModule m\nENTRY e {\n  ROOT c = f32[3] constant({1, 2})\n}\n",
        3,
        "constant has 2 values, but its shape needs 3",
    ),
    (
        "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[4] all-reduce(p), to_apply=nope\n}\n",
        4,
        "unknown computation 'nope'",
    ),
    (
        "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[4] sort(p), dimensions={0,1}, to_apply=e\n}\n",
        4,
        "exactly one dimension",
    ),
    (
        "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[?] add(p, p)\n}\n",
        4,
        "dynamic dimension",
    ),
    ("HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n", 2, "is not closed"),
    ("HloModlue m\n", 1, "expected 'HloModule'"),
    (
        "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  p = f32[4] parameter(1)\n  ROOT a = f32[4] add(p, p)\n}\n",
        4,
        "defined twice",
    ),
    (
        "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[4] all-reduce(p), replica_groups=[2,4]<=[7], to_apply=e\n}\n",
        4,
        "do not hold",
    ),
]


@pytest.mark.parametrize(("text", "line", "message"), BAD)
def test_malformed_input_is_located(text: str, line: int, message: str) -> None:
    with pytest.raises(HloImportError) as info:
        import_hlo(text, "in.hlo")
    assert info.value.location.startswith(f"in.hlo:{line}:"), info.value
    assert message in info.value.message


def test_elided_constants_allowed_on_request() -> None:
    text = "HloModule m\nENTRY e {\n  ROOT c = f32[2] constant({...})\n}\n"
    module = import_hlo(text, options=ImportOptions(allow_elided_constants=True))
    module.verify()
    assert "dense<0.000000e+00> : tensor<2xf32>" in str(module)


def test_cli_import_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.hlo"
    bad.write_text(BAD[0][0])
    out = tmp_path / "out.mlir"
    for tool, args in (
        ("neuron-translate", ["--import-hlo", bad, "-o", out]),
        ("neuron-opt", [bad, "-o", out]),
    ):
        result = run_tool(tool, *args)
        assert result.returncode == 1
        assert "Traceback" not in result.stderr
        assert result.stderr.startswith(f"error: {bad}:4:")
        assert "unsupported opcode 'frobnicate'" in result.stderr
        assert not out.exists()


def test_cli_import_verifier_error_is_located(tmp_path: Path) -> None:
    bad = tmp_path / "bad.hlo"
    bad.write_text(
        "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[8] add(p, p)\n}\n"
    )
    result = run_tool("neuron-translate", "--import-hlo", bad)
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: {bad}:4:")
    assert "'hlo.add' op" in result.stderr


def test_neuron_opt_reads_hlo_by_extension_and_flag(tmp_path: Path) -> None:
    src = CORPUS / "grad_accum_zero_init" / "spmd.hlo"
    by_ext = run_tool("neuron-opt", src, "-p", "hlo-dce")
    assert by_ext.returncode == 0, by_ext.stderr
    assert "hlo.while" in by_ext.stdout
    renamed = tmp_path / "module.txt"
    renamed.write_text(src.read_text())
    by_flag = run_tool("neuron-opt", renamed, "--input", "hlo", "-p", "hlo-dce")
    assert by_flag.returncode == 0, by_flag.stderr
    assert by_flag.stdout == by_ext.stdout


def test_neuron_opt_emits_hlo(tmp_path: Path) -> None:
    src = CORPUS / "psum_subgroups_2x4" / "spmd.hlo"
    out = tmp_path / "out.hlo"
    result = run_tool("neuron-opt", src, "-p", "hlo-dce", "--emit", "hlo", "-o", out)
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert text.startswith("HloModule jit_body, entry_computation_layout=")
    assert "num_partitions=8" in text
    assert text.count(" all-reduce(") == (src.read_text().count(" all-reduce("))
    reimported = import_hlo(text, str(out))
    reimported.verify()
