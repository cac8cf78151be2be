"""HLO instruction names as SSA name hints (`names.py`) and the shapes of instructions written
without one (`shape_inference.py`), issue 17."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import IntegerType, TensorType, f32, i32
from xdsl.ir import SSAValue

from neuron_cc.dialects.hlo.types import tuple_type
from neuron_cc.translate.hlo_text.attrs import AttrError
from neuron_cc.translate.hlo_text.importer import HloImportError, import_hlo
from neuron_cc.translate.hlo_text.names import hint_of, hlo_name_of
from neuron_cc.translate.hlo_text.shape_inference import infer_shape

NAMES = ["param", "param_0", "param_1", "a_1_", "a_1__", "x_", "s32_", "add.3", "b_2.1", "_7"]


@pytest.mark.parametrize("name", NAMES)
def test_names_survive_xdsl_name_hints(name: str) -> None:
    hint = hint_of(name)
    assert hlo_name_of(hint) == name
    # xDSL's setter keeps the hint as is (it would strip a `_<digits>` suffix).
    assert SSAValue.extract_valid_name(hint) == hint


def test_the_mapping_is_injective() -> None:
    assert len({hint_of(n) for n in NAMES}) == len(NAMES)


T = TensorType(f32, [2, 3])


@pytest.mark.parametrize(
    ("opcode", "operands", "attrs", "expected"),
    [
        ("add", [T, T], {}, T),
        ("negate", [T], {}, T),
        ("compare", [T, T], {"direction": "LT"}, TensorType(IntegerType(1), [2, 3])),
        ("select", [TensorType(IntegerType(1), [2, 3]), T, T], {}, T),
        ("tuple", [T, TensorType(i32, [])], {}, tuple_type([T, TensorType(i32, [])])),
        ("tuple", [], {}, tuple_type([])),
        (
            "get-tuple-element",
            [tuple_type([T, TensorType(i32, [])])],
            {"index": "1"},
            TensorType(i32, []),
        ),
        ("all-reduce", [T, T], {}, tuple_type([T, T])),
        ("transpose", [T], {"dimensions": "{1,0}"}, TensorType(f32, [3, 2])),
        (
            "dot",
            [TensorType(f32, [5, 2, 3]), TensorType(f32, [5, 3, 4])],
            {
                "lhs_batch_dims": "{0}",
                "rhs_batch_dims": "{0}",
                "lhs_contracting_dims": "{2}",
                "rhs_contracting_dims": "{1}",
            },
            TensorType(f32, [5, 2, 4]),
        ),
    ],
)
def test_inferred_shapes(
    opcode: str, operands: list[TensorType], attrs: dict[str, str], expected: object
) -> None:
    assert infer_shape(opcode, operands, attrs) == expected


@pytest.mark.parametrize(
    ("opcode", "operands", "attrs", "why"),
    [
        ("broadcast", [T], {"dimensions": "{0,1}"}, "cannot be inferred: write it"),
        ("get-tuple-element", [tuple_type([T])], {"index": "3"}, "out of range"),
        ("transpose", [T], {"dimensions": "{0,0}"}, "not a permutation"),
        ("get-tuple-element", [tuple_type([T])], {}, "needs attribute 'index'"),
    ],
)
def test_what_cannot_be_inferred_is_an_error(
    opcode: str, operands: list[TensorType], attrs: dict[str, str], why: str
) -> None:
    with pytest.raises(AttrError, match=why):
        infer_shape(opcode, operands, attrs)


def test_import_without_shapes_and_a_located_error() -> None:
    text = """HloModule m
ENTRY e {
  p = (f32[2], s32[]) parameter(0)
  x = get-tuple-element(p), index=0
  ROOT y = add(x, x)
}
"""
    module = import_hlo(text)
    assert "tensor<2xf32>" in str(module)
    bad = text.replace("ROOT y = add(x, x)", "ROOT y = broadcast(x), dimensions={0}")
    with pytest.raises(HloImportError, match=r"<hlo>:5:8: broadcast '%y': the result shape"):
        import_hlo(bad)
