"""Tests of the XLA HLO text exporter beyond the exact-text cases of tests/test_hlo_export.py.

Shapes and layouts (`xla.shape`, bitcast layouts, the shape and literal helpers), unique names,
every export error, linear time on a large module and, when jax is installed, XLA's own parser
accepting every exported text and float constants coming back bit-exact through XLA.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    FunctionType,
    ModuleOp,
    TensorType,
    bf16,
    f16,
    f32,
    f64,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Region

from neuron_cc.dialects.hlo.elementwise import AddOp, TanhOp
from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp
from neuron_cc.translate.hlo_text.exporter import ExportError, export_hlo
from neuron_cc.translate.hlo_text.shapes import (
    escape_string,
    format_float,
    literal_text,
    shape_matches,
    shape_text,
    strip_layouts,
)
from tests.test_hlo_export import CASES, SRC_NAMES, export

# --- shapes and layouts ---------------------------------------------------------------------

LAYOUT_SRC = r"""
builtin.module @layouts {
  func.func @main(%x: tensor<8x4xf32> {xla.shape = "f32[8,4]{0,1}"}, %t: tuple<tensor<2xf32>, !hlo.token>) -> tensor<4x8xf32> {
    %c = hlo.copy %x {xla.shape = "f32[8,4]{0,1:T(8,128)}"} : tensor<8x4xf32>
    %stale = hlo.transpose %c, dims = [1, 0] {xla.shape = "f32[8,4]{0,1}"} : (tensor<8x4xf32>) -> tensor<4x8xf32>
    %b = hlo.bitcast %x layout = [0, 1] : (tensor<8x4xf32>) -> tensor<4x8xf32>
    func.return %b : tensor<4x8xf32>
  }
}
"""

LAYOUT_HLO = """\
HloModule layouts, entry_computation_layout={(f32[8,4]{0,1}, (f32[2]{0}, token[]))->f32[4,8]{0,1}}, replica_count=1, num_partitions=1

ENTRY %main (x: f32[8,4], t: (f32[2], token[])) -> f32[4,8] {
  %x = f32[8,4]{0,1} parameter(0)
  %t = (f32[2]{0}, token[]) parameter(1)
  %c = f32[8,4]{0,1:T(8,128)} copy(%x)
  %stale = f32[4,8]{1,0} transpose(%c), dimensions={1,0}
  ROOT %b = f32[4,8]{0,1} bitcast(%x)
}
"""


def test_layouts_from_xla_shape_and_bitcast() -> None:
    assert export(LAYOUT_SRC) == LAYOUT_HLO


def test_shape_helpers() -> None:
    t = TensorType(f32, [2, 3, 4])
    assert shape_text(t) == "f32[2,3,4]{2,1,0}"
    assert shape_text(t, layout=False) == "f32[2,3,4]"
    assert shape_text(TensorType(bf16, [])) == "bf16[]"
    assert strip_layouts("(f32[2,3]{0,1:T(8,128)}, s32[] )") == "(f32[2,3],s32[])"
    assert shape_matches("f32[3,2]{0,1}", TensorType(f32, [3, 2]))
    assert not shape_matches("f32[2,3]{0,1}", TensorType(f32, [3, 2]))
    assert not shape_matches("bf16[3,2]{1,0}", TensorType(f32, [3, 2]))


def test_float_and_string_helpers() -> None:
    assert format_float(1e6, f32) == "1e+06"
    assert format_float(0.1, f64) == "0.1"
    assert format_float(float("-inf"), bf16) == "-inf"
    assert format_float(float("nan"), f32, 0xFFC00000) == "-nan"
    assert format_float(float("nan"), f32, 0x7F800001) == "nan(0x1)"
    assert escape_string('a "b" \\ \n\x01') == 'a \\"b\\" \\\\ \\n\\001'


def _dense(t: Attribute, array: np.ndarray[Any, Any]) -> DenseIntOrFPElementsAttr[Any]:
    t_array = TensorType(t, array.shape)
    return DenseIntOrFPElementsAttr(t_array, BytesAttr(array.tobytes()))  # pyright: ignore[reportArgumentType]


def test_literal_text_layouts_of_nesting() -> None:
    assert literal_text(_dense(f32, np.array(2.5, np.float32))) == "2.5"
    assert literal_text(_dense(f32, np.zeros((2, 0), np.float32))) == "{ {}, {} }"
    ones = _dense(f32, np.ones((2, 1, 2), np.float32))
    assert literal_text(ones) == "{ { {1, 1} }, { {1, 1} } }"


# --- names ----------------------------------------------------------------------------------


def test_names_are_unique_across_the_module() -> None:
    text = export(SRC_NAMES)
    names = re.findall(r"^  (?:ROOT )?%([\w.\-]+) =", text, re.MULTILINE)
    assert len(names) == len(set(names))
    assert "%s1_ = f32[] parameter(1)" in text  # `s1` spells an XLA type
    assert "%pred_ = pred[] compare" in text


# --- errors ---------------------------------------------------------------------------------

ERROR_CASES = {
    "foreign op": (
        """
        func.func @main(%x: tensor<f32>) -> tensor<f32> {
          %c = arith.constant 1 : i32
          func.return %x : tensor<f32>
        }
        """,
        "cannot export arith.constant in @main: not an hlo op",
    ),
    "capture": (
        """
        builtin.module attributes {hlo.num_replicas = 2 : i64} {
          func.func @main(%x: tensor<4xf32>, %y: tensor<f32>) -> tensor<4xf32> {
            %r = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
            ^bb0(%a: tensor<f32>, %b: tensor<f32>):
              %c = hlo.add %a, %y : tensor<f32>
              hlo.return %c : tensor<f32>
            } : (tensor<4xf32>) -> tensor<4xf32>
            func.return %r : tensor<4xf32>
          }
        }
        """,
        "hlo.add in a region of hlo.all_reduce uses a value defined outside it",
    ),
    "no entry": (
        """
        func.func @f() {
          func.return
        }
        func.func @g() {
          func.return
        }
        """,
        "no entry computation",
    ),
    "two entries": (
        """
        func.func @f() attributes {hlo.entry} {
          func.return
        }
        func.func @g() attributes {hlo.entry} {
          func.return
        }
        """,
        "more than one func.func carries hlo.entry",
    ),
    "recursion": (
        """
        func.func @main(%x: tensor<f32>) -> tensor<f32> {
          %r = hlo.call @main(%x) : (tensor<f32>) -> tensor<f32>
          func.return %r : tensor<f32>
        }
        """,
        "calls @main recursively",
    ),
    "declaration": (
        """
        func.func private @ext(tensor<f32>) -> tensor<f32>
        func.func @main(%x: tensor<f32>) -> tensor<f32> {
          %r = hlo.call @ext(%x) : (tensor<f32>) -> tensor<f32>
          func.return %r : tensor<f32>
        }
        """,
        "@ext must have exactly one block",
    ),
    "nested module": (
        """
        builtin.module {
          builtin.module {
          }
        }
        """,
        "cannot export builtin.module: only func.func may sit in the module",
    ),
    "api version": (
        """
        func.func @main(%x: tensor<f32>) -> tensor<f32> {
          %r = hlo.custom_call "t"(%x) api_version = 9 : (tensor<f32>) -> tensor<f32>
          func.return %r : tensor<f32>
        }
        """,
        "custom_call api_version 9 in @main is not one of [1, 2, 3, 4]",
    ),
    "broadcast constrain_layout": (
        """
        builtin.module attributes {hlo.num_replicas = 2 : i64} {
          func.func @main(%x: tensor<f32>) -> tensor<f32> {
            %r = hlo.collective_broadcast(%x) replica_groups = [[0, 1]] constrain_layout : (tensor<f32>) -> tensor<f32>
            func.return %r : tensor<f32>
          }
        }
        """,
        "XLA's collective-broadcast has no constrain_layout",
    ),
    "non-string xla attribute": (
        """
        func.func @main(%x: tensor<f32>) -> tensor<f32> {
          %r = hlo.negate %x {xla.metadata = 1.5 : f32} : tensor<f32>
          func.return %r : tensor<f32>
        }
        """,
        "attribute xla.metadata of hlo.negate in @main must be a string",
    ),
    "bad type": (
        """
        func.func @main(%x: index) {
          func.return
        }
        """,
        "cannot export argument 0 of @main: type index has no XLA equivalent",
    ),
}


@pytest.mark.parametrize("case", ERROR_CASES)
def test_export_errors(case: str) -> None:
    src, message = ERROR_CASES[case]
    with pytest.raises(ExportError, match=re.escape(message)):
        export(src)


# --- scale ----------------------------------------------------------------------------------


def _chain(n: int) -> ModuleOp:
    t = TensorType(f32, [16, 8])
    block = Block(arg_types=[t])
    value = block.args[0]
    for i in range(n):
        op = AddOp(value, block.args[0]) if i % 2 else TanhOp(value)
        block.add_op(op)
        value = op.result
    block.add_op(ReturnOp(value))
    return ModuleOp([FuncOp("main", FunctionType.from_lists([t], [t]), Region(block))])


def test_large_module_exports_in_linear_time() -> None:
    module = _chain(20_000)
    start = time.perf_counter()
    text = export_hlo(module)
    elapsed = time.perf_counter() - start
    assert text.count("\n") == 20_000 + 5  # header, blank, signature, parameter, "}"
    assert "%add.9999 = f32[16,8]{1,0} add(%tanh.9999, %param)" in text
    assert elapsed < 10, f"exporting 20,000 ops took {elapsed:.1f} s"


# --- XLA accepts the text (needs jax) -------------------------------------------------------


def _xla_parser() -> Callable[[str], Any]:
    pytest.importorskip("jax")
    try:
        from jax._src.lib import hlo  # pyright: ignore

        return hlo.hlo_module_from_text
    except (ImportError, AttributeError):
        from jax._src.lib import xla_client  # pyright: ignore

        return xla_client._xla.hlo_module_from_text  # pyright: ignore[reportPrivateImportUsage]


def test_xla_parses_every_exported_text() -> None:
    parse_hlo = _xla_parser()
    texts = [expected for _, expected in CASES.values()] + [LAYOUT_HLO]
    for text in texts:
        module = parse_hlo(text)
        assert module.to_string().startswith("HloModule ")


_FLOAT_KINDS: list[tuple[Attribute, str, str, int]] = [
    # element type, numpy bits dtype, ml_dtypes/numpy float name, mantissa bits
    (f32, "<u4", "float32", 23),
    (f64, "<u8", "float64", 52),
    (f16, "<u2", "float16", 10),
    (bf16, "<u2", "bfloat16", 7),
]


def _reparse_xla_float(text: str, dtype: Any, bits_dtype: str, mantissa: int) -> int:
    """The bits XLA's printed float `text` stands for (NaN payloads included)."""
    negative = text.startswith("-")
    body = text.lstrip("-")
    width = np.dtype(bits_dtype).itemsize * 8
    if body.startswith("nan"):
        payload = int(body[4:-1], 16) if "(" in body else 1 << (mantissa - 1)
        exponent = ((1 << (width - 1 - mantissa)) - 1) << mantissa
        return (int(negative) << (width - 1)) | exponent | payload
    value = float(body) * (-1.0 if negative else 1.0)
    return int(np.array([value], np.float64).astype(dtype).view(bits_dtype)[0])


@pytest.mark.parametrize("kind", range(len(_FLOAT_KINDS)))
def test_float_constants_round_trip_bit_exactly_through_xla(kind: int) -> None:
    parse_hlo = _xla_parser()
    ml_dtypes = pytest.importorskip("ml_dtypes")
    from jax._src.lib import hlo  # pyright: ignore

    element, bits_dtype, dtype_name, mantissa = _FLOAT_KINDS[kind]
    dtype = getattr(ml_dtypes, dtype_name, None) or np.dtype(dtype_name)
    rng = np.random.default_rng(kind)
    width = np.dtype(bits_dtype).itemsize * 8
    bits = rng.integers(0, 2**width, 1000, dtype=np.uint64, endpoint=False)
    specials = [0, 1 << (width - 1), 1, (1 << (width - 1)) - 1]  # +0, -0, min subnormal, -nan
    raw = np.concatenate([np.array(specials, np.uint64), bits]).astype(bits_dtype)
    t_raw = TensorType(element, [raw.size])
    attr = DenseIntOrFPElementsAttr(t_raw, BytesAttr(raw.tobytes()))  # pyright: ignore[reportArgumentType]
    block = Block([ConstantOp(attr), ReturnOp()])
    module = ModuleOp([FuncOp("main", FunctionType.from_lists([], []), Region(block))])
    options = hlo.HloPrintOptions()
    options.print_large_constants = True
    printed = parse_hlo(export_hlo(module)).to_string(options)
    body = re.search(r"constant\(\{(.*)\}\)", printed)
    assert body is not None
    values = [_reparse_xla_float(v, dtype, bits_dtype, mantissa) for v in body[1].split(", ")]
    assert values == [int(b) for b in raw]
