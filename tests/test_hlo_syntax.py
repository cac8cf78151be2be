"""HLO text forms XLA's parser reads beyond a full module (issue 17): a text without the
`HloModule` line (computations, or one instruction), `HloModule name:`, and a computation's
`execution_thread=`."""

from __future__ import annotations

import pytest

from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import HloImportError, import_hlo


def test_one_instruction_becomes_an_entry_with_its_operands_as_parameters() -> None:
    module = import_hlo("%m = f32[2]{0} multiply(f32[2]{0} %a, f32[2]{0} %b)")
    text = str(module)
    assert "func.func @entry(%a: tensor<2xf32>, %b: tensor<2xf32>)" in text
    assert "hlo.multiply %a, %b" in text
    assert "ROOT %m = f32[2]{0} multiply(%a, %b)" in export_hlo(module)


def test_an_operand_used_twice_is_one_parameter() -> None:
    module = import_hlo("ROOT s = f32[] add(f32[] x, f32[] x)")
    assert "func.func @entry(%x: tensor<f32>)" in str(module)


def test_a_single_instruction_needs_its_operand_shapes() -> None:
    with pytest.raises(HloImportError, match=r"<hlo>:1:1: operand '%a' of a single instruction"):
        import_hlo("m = f32[2]{0} multiply(a, a)")


def test_computations_without_a_header_and_module_name_with_colon() -> None:
    bare = import_hlo("c { ROOT p = f32[] parameter(0) }")
    assert bare.sym_name is not None
    assert bare.sym_name.data == "module"
    named = import_hlo("HloModule m:\nENTRY c { ROOT p = f32[] parameter(0) }")
    assert named.sym_name is not None
    assert named.sym_name.data == "m"


def test_execution_thread_round_trips() -> None:
    text = 'HloModule m\nENTRY c {\n  ROOT p = f32[] parameter(0)\n}, execution_thread="t"\n'
    module = import_hlo(text)
    assert 'xla.execution_thread = "t"' in str(module)
    assert '}, execution_thread="t"' in export_hlo(module)
    with pytest.raises(HloImportError, match="expected a string"):
        import_hlo(text.replace('"t"', "t"))
