"""HLO text forms XLA's parser reads beyond a full module (issue 17): a text without the
`HloModule` line (computations, or one instruction), `HloModule name:`, and a computation's
`execution_thread=`."""

from __future__ import annotations

import numpy as np
import pytest

from neuron_cc.interpreter.runner import run_module
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import HloImportError, ImportOptions, import_hlo


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


def test_canonical_single_instruction_without_names() -> None:
    """XLA's canonical form: no instruction name (named by its opcode), operands by shape."""
    module = import_hlo("f32[2,4]{1,0} multiply(f32[2,4]{1,0}, f32[2,4]{1,0})")
    text = export_hlo(module)
    assert "ROOT %multiply = f32[2,4]{1,0} multiply(" in text
    assert text.count("parameter(") == 2
    with pytest.raises(HloImportError, match=r"undefined operand|not defined"):
        import_hlo("HloModule m\nENTRY e {\n  ROOT n = f32[2] negate(f32[2])\n}\n")


_INLINE = """HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  b = s32[] parameter(1)
  r = f32[] reduce(p, f32[] constant(0)), dimensions={0}, to_apply={
    x = f32[] parameter(0)
    y = f32[] parameter(1)
    ROOT s = f32[] add(x, y)
  }
  ROOT c = f32[] conditional(b, r, r), branch_computations={
    { a = f32[] parameter(0)
      ROOT n = f32[] negate(a) },
    { a = f32[] parameter(0)
      ROOT n = f32[] call(a), to_apply={ q = f32[] parameter(0)
        ROOT k = f32[] copy(q) } }
  }
}
"""


def test_inline_computations_become_computations() -> None:
    module = import_hlo(_INLINE)
    text = str(module)
    assert text.count("hlo.conditional") == 1
    assert "hlo.add" in text
    assert "hlo.copy" in text
    exported = export_hlo(module)
    assert "to_apply={" not in exported
    assert export_hlo(import_hlo(exported)) == exported


def test_inline_computations_respect_the_depth_limit() -> None:
    deep = (
        "HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT r = f32[] call(p), to_apply={\n"
    )
    deep += "  q = f32[] parameter(0)\n  ROOT s = f32[] call(q), to_apply={ ROOT t = f32[] parameter(0) }\n"
    deep += "  }\n}\n"
    import_hlo(deep, options=ImportOptions(max_depth=2))
    with pytest.raises(HloImportError, match=r"maximum recursion depth exceeded \(1\)"):
        import_hlo(deep, options=ImportOptions(max_depth=1))


def test_tuple_constant_is_a_tuple_of_constants() -> None:
    module = import_hlo(
        "HloModule m\nENTRY e {\n  ROOT c = (f32[2], (s32[], pred[])) constant(({1, 2}, (3, true)))\n}\n"
    )
    exported = export_hlo(module)
    assert "%c.element0 = f32[2]{0} constant({1, 2})" in exported
    assert "%c.element1.element0 = s32[] constant(3)" in exported
    assert "ROOT %c = (f32[2]{0}, (s32[], pred[])) tuple(%c.element0, %c.element1)" in exported
    for bad, message in (
        ("({1, 2})", r"<hlo>:3:47: constant '%c': the tuple constant has 1 elements, its shape 2"),
        ("({1, 2}, (3, x))", r"unexpected 'x' in a literal"),
        ("{1, 2}", r"a tuple constant is written"),
    ):
        text = (
            f"HloModule m\nENTRY e {{\n  ROOT c = (f32[2], (s32[], pred[])) constant({bad})\n}}\n"
        )
        with pytest.raises(HloImportError, match=message):
            import_hlo(text)


def test_broadcast_of_a_scalar_needs_no_dimensions() -> None:
    module = import_hlo(
        "HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT b = f32[3] broadcast(p)\n}\n"
    )
    assert "dimensions={}" in export_hlo(module)


def test_conditional_result_shape_is_inferred_from_its_branches() -> None:
    text = (
        "HloModule m\nn {\n  x = f32[2] parameter(0)\n  ROOT y = negate(x)\n}\n"
        "ENTRY e {\n  p = pred[] parameter(0)\n  a = f32[2] parameter(1)\n"
        "  ROOT c = conditional(p, a, a), true_computation=n, false_computation=n\n}\n"
    )
    assert "ROOT %c = f32[2]{0} conditional(" in export_hlo(import_hlo(text))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "ROOT s = f32[] negate(p), calls=%k",
            r"<hlo>:7:33: negate '%s': unexpected attribute 'calls' for negate",
        ),
        (
            "ROOT s = f32[] negate(p), control-predecessors={%nowhere}",
            r"negate '%s': control predecessor 'nowhere' is not defined",
        ),
        (
            'ROOT s = f32[] custom-call(p), custom_call_target="x", operand_layout_constraints={f32[], f32[]}',
            r"Expected 1 operand layout constraints, 2 given",
        ),
        (
            'ROOT s = f32[] custom-call(p), custom_call_target="x", operand_layout_constraints={s32[]}',
            r"operand 0 is not compatible with operand shape",
        ),
        (
            "ROOT s = f32[] conditional(pred[] constant(true), p, p), branch_computations={%k, %k}",
            r"a conditional on a pred takes true_computation and false_computation",
        ),
    ],
)
def test_attribute_rules_of_xla_parser(line: str, message: str) -> None:
    text = f"HloModule m\nk {{\n  ROOT a = f32[] parameter(0)\n}}\nENTRY e {{\n  p = f32[] parameter(0)\n  {line}\n}}\n"
    text = text.replace(
        "ENTRY e {\n  p = f32[] parameter(0)\n  ", "ENTRY e {\n  p = f32[] parameter(0)\n"
    )
    with pytest.raises(HloImportError, match=message):
        import_hlo(text)


def test_parameter_replication_counts_leaf_buffers() -> None:
    ok = "p = (f32[3], f32[]) parameter(0), parameter_replication={true,false}"
    import_hlo(ok)
    with pytest.raises(
        HloImportError, match="parameter has 2 leaf buffers, but parameter_replication has 3"
    ):
        import_hlo(ok.replace("{true,false}", "{true,false,true}"))


def test_index_vector_dynamic_slice_gets_scalar_indices() -> None:
    """XLA's old form: one rank-1 index vector; XLA's parser splits it into scalars, so do we."""
    text = (
        "HloModule m\nENTRY e {\n  p = f32[4,6] parameter(0)\n  i = s32[2] parameter(1)\n"
        "  u = f32[2,2] parameter(2)\n"
        "  d = f32[2,3] dynamic-slice(p, i), dynamic_slice_sizes={2,3}\n"
        "  x = f32[4,6] dynamic-update-slice(p, u, i)\n"
        "  ROOT t = (f32[2,3], f32[4,6]) tuple(d, x)\n}\n"
    )
    module = import_hlo(text)
    module.verify()
    ir = str(module)
    assert ir.count("hlo.slice") == 4
    assert ir.count("hlo.reshape") == 4
    exported = export_hlo(module)
    assert "dynamic-slice(%p, " in exported
    assert export_hlo(import_hlo(exported)) == exported
    inputs = [
        np.arange(24, dtype=np.float32).reshape(4, 6),
        np.array([1, 2], np.int32),
        np.ones((2, 2), np.float32),
    ]
    outputs = run_module(module, [x[None] for x in inputs]).outputs
    np.testing.assert_array_equal(np.asarray(outputs[0])[0], inputs[0][1:3, 2:5])
    expected = inputs[0].copy()
    expected[1:3, 2:4] = 1
    np.testing.assert_array_equal(np.asarray(outputs[1])[0], expected)
    with pytest.raises(HloImportError, match="the index vector has 3 elements, the operand rank 2"):
        import_hlo(text.replace("s32[2] parameter(1)", "s32[3] parameter(1)"))
