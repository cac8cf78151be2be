"""The HLO text exporter's caches and fast paths never change what it prints.

The exporter caches literal texts per exporter (by type identity and bytes), remembers which
op attribute keys print as `key=value` and which op classes are bitcasts (per process), shares
one table of template references between computations, and names the usual SSA hint with one
regex. Each test exports several modules, or one module before and after a change, in one
process and checks the exact text, so a stale or shared entry would show.
"""

from __future__ import annotations

import itertools

import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, StringAttr, TensorType, f32
from xdsl.ir import Operation

from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp
from neuron_cc.translate.hlo_text.export_text import instruction_name, sanitize_name
from neuron_cc.translate.hlo_text.exporter import ExportError, export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo
from neuron_cc.translate.hlo_text.names import hlo_name_of
from tests.test_hlo_export import parse

HEADER = "HloModule m, entry_computation_layout={{{layout}}}, replica_count=1, num_partitions=1"

CONSTANTS_HLO = """\
HloModule m, entry_computation_layout={()->(f32[], s32[], f32[2]{0}, f32[], s32[])}, replica_count=1, num_partitions=1

ENTRY %main () -> (f32[], s32[], f32[2], f32[], s32[]) {
  %one = f32[] constant(1)
  %bits = s32[] constant(1065353216)
  %pair = f32[2]{0} constant({1, 1})
  %half = f32[] constant(0.5)
  %again = s32[] constant(1065353216)
  ROOT %tuple = (f32[], s32[], f32[2]{0}, f32[], s32[]) tuple(%one, %bits, %pair, %half, %again)
}
"""
"""Constants with the same bytes and different types, or the same type and other bytes."""


def _ops(module: ModuleOp, name: str) -> list[Operation]:
    return [op for op in module.walk() if op.name == name]


def test_literals_with_equal_bytes_or_types_print_their_own_text() -> None:
    module = import_hlo(CONSTANTS_HLO)
    assert export_hlo(module) == CONSTANTS_HLO
    assert export_hlo(import_hlo(CONSTANTS_HLO)) == CONSTANTS_HLO


def test_a_changed_constant_and_attribute_print_their_new_text() -> None:
    module = import_hlo(CONSTANTS_HLO)
    assert export_hlo(module) == CONSTANTS_HLO
    one, _, _, half, _ = _ops(module, "hlo.constant")
    assert isinstance(one, ConstantOp)
    assert isinstance(half, ConstantOp)
    one.properties["value"] = DenseIntOrFPElementsAttr.from_list(TensorType(f32, []), [2.0])
    half.attributes["xla.metadata"] = StringAttr('{op_name="x"}')
    expected = CONSTANTS_HLO.replace("constant(1)\n", "constant(2)\n").replace(
        "constant(0.5)", 'constant(0.5), metadata={op_name="x"}'
    )
    assert export_hlo(module) == expected
    assert export_hlo(import_hlo(CONSTANTS_HLO)) == CONSTANTS_HLO


def _chain_hlo(length: int, name: str) -> str:
    """A computation of `length` negates in a row (more than the first reference table)."""
    lines = [
        HEADER.format(layout="(f32[])->f32[]").replace("HloModule m", f"HloModule {name}"),
        "",
        "ENTRY %main (x: f32[]) -> f32[] {",
        "  %x = f32[] parameter(0)",
    ]
    previous = "x"
    for k in range(length):
        root = "ROOT " if k == length - 1 else ""
        lines.append(f"  {root}%n{k} = f32[] negate(%{previous})")
        previous = f"n{k}"
    return "\n".join([*lines, "}", ""])


def test_small_and_big_modules_exported_in_turn_keep_their_references() -> None:
    small, big = _chain_hlo(3, "small"), _chain_hlo(300, "big")
    for text in (small, big, small, big):
        assert export_hlo(import_hlo(text)) == text


ATTRS_SRC = r"""
builtin.module @m {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = hlo.negate %x {xla.backend_config = "plain", xla.frontend_attributes = 7 : i64} : tensor<4xf32>
    %cc = hlo.custom_call "T"(%a) backend_config = "kept" {xla.backend_config = "dropped", xla.frontend_attributes = "s"} : (tensor<4xf32>) -> tensor<4xf32>
    %b = hlo.bitcast %cc layout = [0] : (tensor<4xf32>) -> tensor<4xf32>
    %c = hlo.abs %b {xla.backend_config = "again"} : tensor<4xf32>
    func.return %c : tensor<4xf32>
  }
}
"""

ATTRS_HLO = """\
HloModule m, entry_computation_layout={(f32[4]{0})->f32[4]{0}}, replica_count=1, num_partitions=1

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %a = f32[4]{0} negate(%x), backend_config=plain, frontend_attributes=7
  %cc = f32[4]{0} custom-call(%a), custom_call_target="T", backend_config="kept", frontend_attributes=s
  %b = f32[4]{0} bitcast(%cc)
  ROOT %c = f32[4]{0} abs(%b), backend_config=again
}
"""


def test_raw_attributes_print_per_op_whatever_was_seen_before() -> None:
    for _ in range(2):
        assert export_hlo(parse(ATTRS_SRC)) == ATTRS_HLO


def test_a_nul_in_a_raw_attribute_is_still_an_error_after_the_key_was_seen() -> None:
    module = parse(ATTRS_SRC)
    assert export_hlo(module) == ATTRS_HLO
    (op,) = _ops(module, "hlo.abs")
    op.attributes["xla.backend_config"] = StringAttr("a\0b")
    message = "attribute xla.backend_config of hlo.abs in @main contains a NUL character"
    with pytest.raises(ExportError, match=f"^{message}$"):
        export_hlo(module)


def test_instruction_name_is_hlo_name_then_sanitize() -> None:
    pieces = [
        "",
        "a",
        "_",
        "_1",
        "1",
        ".",
        "-",
        "x",
        "f32",
        "pred",
        "s8",
        "f8e4m3fn",
        "\n",
        "é",
        "%",
    ]
    hints = ["".join(p) for n in range(4) for p in itertools.product(pieces, repeat=n)]
    hints += ["param_0_", "a_1__", "add.10", "reduce_sum.4991", "x_", "s32_", "token", "c128"]
    for hint in hints:
        name = hlo_name_of(hint)
        assert instruction_name(hint) == (name, sanitize_name(name)), hint
