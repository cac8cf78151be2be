"""tools/gen_model.py: generated SPMD training steps import, verify and are deterministic."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from xdsl.dialects.builtin import IntegerAttr, ModuleOp

from neuron_cc.testing.ir import parse_module
from neuron_cc.translate.hlo_text.importer import import_hlo
from tests.conftest import load_tool

OPS = 1000


gen_model = load_tool("gen_model")


@pytest.fixture(scope="module")
def hlo_text() -> str:
    return gen_model.generate_hlo(OPS, seed=0)


@pytest.fixture(scope="module")
def imported(hlo_text: str) -> ModuleOp:
    return import_hlo(hlo_text, "generated.hlo")


def _op_names(module: ModuleOp) -> Counter[str]:
    return Counter(op.name for op in module.walk())


def test_imports_and_verifies(imported: ModuleOp):
    imported.verify()
    assert imported.attributes["hlo.num_partitions"] == IntegerAttr(8, 64)


@pytest.mark.parametrize(("ops", "seed"), [(1000, 0), (1000, 7), (3000, 1), (1234, 2)])
def test_instruction_count_within_tolerance(ops: int, seed: int):
    count = gen_model.count_instructions(gen_model.generate_hlo(ops, seed))
    assert abs(count - ops) <= 0.05 * ops, count


def test_count_matches_imported_ops(hlo_text: str, imported: ModuleOp):
    # The counted lines are real instructions: each non-parameter instruction outside the two
    # reducers is one op; each reducer use clones its root + an hlo.return (parameters become
    # block arguments); plus module, func.func, func.return and the while regions' returns.
    names = _op_names(imported)
    reducer_uses = names["hlo.all_reduce"] + names["hlo.reduce_scatter"] + names["hlo.reduce"]
    parameters = hlo_text.count(" parameter(")
    reducer_roots = 2
    expected = gen_model.count_instructions(hlo_text) - parameters - reducer_roots
    expected += 2 * reducer_uses + 3 + 2
    assert sum(names.values()) == expected
    assert names["hlo.while"] == 1


def test_deterministic(hlo_text: str):
    assert gen_model.generate_hlo(OPS, seed=0) == hlo_text
    assert gen_model.generate_hlo(OPS, seed=1) != hlo_text


def test_contains_spmd_training_structure(hlo_text: str, imported: ModuleOp):
    assert "num_partitions=8" in hlo_text.splitlines()[0]
    for opcode in ("while", "all-reduce", "reduce-scatter", "all-gather", "dynamic-update-slice"):
        assert f" {opcode}(" in hlo_text, opcode
    assert hlo_text.count("to_apply=%add_reducer") > 2
    assert hlo_text.count("to_apply=%max_reducer") > 2
    names = _op_names(imported)
    for name in (
        "hlo.while",
        "hlo.all_reduce",
        "hlo.reduce_scatter",
        "hlo.all_gather",
        "hlo.dynamic_update_slice",
        "hlo.collective_permute",
        "hlo.dot",
    ):
        assert names[name] > 0, name


def test_every_instruction_has_metadata(hlo_text: str):
    lines = [line for line in hlo_text.splitlines() if " = " in line]
    assert all("metadata={op_name=" in line for line in lines)
    assert sum('source_file="model.py"' in line for line in lines) > 0.9 * len(lines)


def test_generic_mlir_parses_back(hlo_text: str, imported: ModuleOp):
    generic = gen_model.to_generic_mlir(hlo_text)
    assert generic.startswith('"builtin.module"()')
    parsed = parse_module(generic)
    assert _op_names(parsed) == _op_names(imported)


def test_cli_writes_file(tmp_path: Path, hlo_text: str):
    out = tmp_path / "model.hlo"
    gen_model.main(["--ops", str(OPS), "--seed", "0", "-o", str(out)])
    assert out.read_text() == hlo_text
