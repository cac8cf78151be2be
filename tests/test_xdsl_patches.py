"""neuron-cc's patches of xDSL (neuron_cc/dialects/xdsl_patches.py) and scoped remark forcing.

Each `test_upstream_still_*` test shows, with xDSL's own definitions restored (`unpatched()`),
that the bug or slowness its patch works around is still in the installed xDSL. When one of them
fails, upstream has fixed it: delete that patch (and the test). The `test_patched_*` tests show
the patched behaviour.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float32Type, TensorType, f32
from xdsl.parser import Parser
from xdsl.parser import attribute_parser as xdsl_attribute_parser

from neuron_cc.analysis.remarks import forced_remarks, remarks_forced
from neuron_cc.dialects import xdsl_patches
from neuron_cc.testing.loop_text import WhileLoop
from neuron_cc.tools.neuron_opt import main as neuron_opt


def _dense(text: str) -> DenseIntOrFPElementsAttr:
    attr = Parser(Context(), text).parse_attribute()
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    return attr


def _signed_zeros() -> DenseIntOrFPElementsAttr:
    return DenseIntOrFPElementsAttr.from_list(TensorType(f32, [2]), [-0.0, 0.0])


def test_installed_once_at_import_for_the_pinned_xdsl() -> None:
    assert xdsl_patches.is_installed()
    assert xdsl_patches.installed_xdsl() == xdsl_patches.PINNED_XDSL
    xdsl_patches.install()  # idempotent
    assert xdsl_patches.is_installed()


def test_refuses_any_other_xdsl() -> None:
    with pytest.raises(xdsl_patches.XdslVersionError, match=r"refuses to patch xdsl 0\.76\.0"):
        xdsl_patches.check_version("0.76.0")
    xdsl_patches.check_version(xdsl_patches.PINNED_XDSL)


def test_refusal_patches_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xdsl_patches, "installed_xdsl", lambda: "0.74.1")
    with xdsl_patches.unpatched():
        with pytest.raises(xdsl_patches.XdslVersionError, match=re.escape("xdsl==0.75.0")):
            xdsl_patches.install()
        assert not xdsl_patches.is_installed()
    assert xdsl_patches.is_installed()


def test_upstream_still_reads_hex_floats_as_integers() -> None:
    with xdsl_patches.unpatched():
        value = _dense("dense<0x7F800000> : tensor<f32>").get_values()[0]
    assert value == 2139095040.0, "xDSL reads hex float literals as bit patterns: delete patch 2"


def test_patched_hex_floats_are_bit_patterns() -> None:
    assert _dense("dense<0x7F800000> : tensor<f32>").get_values()[0] == float("inf")
    assert _dense("dense<0xFF80> : tensor<bf16>").get_values()[0] == float("-inf")
    assert _dense("dense<0x3F800000> : tensor<f32>").get_values()[0] == 1.0
    assert isinstance(_dense("dense<0x3F800000> : tensor<f32>").get_element_type(), Float32Type)


def test_upstream_still_calls_signed_zeros_a_splat() -> None:
    with xdsl_patches.unpatched():
        splat = _signed_zeros().is_splat()
    assert splat, "xDSL's is_splat tells -0.0 from 0.0: delete patch 3"


def test_patched_splat_compares_bytes() -> None:
    assert not _signed_zeros().is_splat()
    assert DenseIntOrFPElementsAttr.from_list(TensorType(f32, [3]), [2.0, 2.0, 2.0]).is_splat()


def _constraints_built(monkeypatch: pytest.MonkeyPatch, literals: int) -> int:
    calls: list[object] = []
    original = vars(xdsl_attribute_parser)["base"]

    def counting(*args: object) -> object:
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(xdsl_attribute_parser, "base", counting)
    for _ in range(literals):
        _dense("dense<[1.0, 2.0]> : tensor<2xf32>")
    monkeypatch.undo()
    return len(calls)


def test_upstream_still_builds_the_dense_type_constraint_per_literal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with xdsl_patches.unpatched():
        built = _constraints_built(monkeypatch, 3)
    assert built >= 3, "xDSL builds the dense literal constraint once: delete patch 1"


def test_patched_dense_type_constraint_is_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _constraints_built(monkeypatch, 3) == 0


# --- remarks: forced within a scope only ---------------------------------------------------

LOOP = Path(__file__).resolve().parent.parent / "examples" / "grad_accum.mlir"


def test_forced_remarks_are_scoped() -> None:
    assert not remarks_forced()
    with forced_remarks():
        assert remarks_forced()
        with forced_remarks(False):
            assert remarks_forced()  # an inner scope cannot switch an outer one off
    assert not remarks_forced()


def test_pass_remarks_do_not_leak_into_the_next_in_process_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "out.mlir")
    pipeline = "neuron-while-loop-all-reduce-code-motion"
    assert neuron_opt([str(LOOP), "-p", pipeline, "--pass-remarks", "-o", out]) == 0
    assert "remark: neuron-while-loop-all-reduce-code-motion" in capsys.readouterr().err
    assert neuron_opt([str(LOOP), "-p", pipeline, "-o", out]) == 0
    assert "remark:" not in capsys.readouterr().err
    assert not remarks_forced()


_INNER = WhileLoop(
    slots=["tensor<4xf32>"],
    body="%n = hlo.negate %d : tensor<4xf32>",
    yields=["%n"],
    condition="%p = hlo.constant dense<false> : tensor<i1>",
    arguments=("%c2", "%d"),
    bare=True,
)
_OUTER = WhileLoop(
    slots=["tensor<4xf32>"],
    body=_INNER.text("%b", result="%v", indent=0) + "\n%m = hlo.add %v, %b : tensor<4xf32>",
    yields=["%m"],
    condition="%p = hlo.constant dense<false> : tensor<i1>",
    bare=True,
)
_NESTED = f"""
builtin.module {{
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {{
{_OUTER.text("%x")}
    func.return %w : tensor<4xf32>
  }}
}}
"""


def test_patched_walk_visits_in_xdsls_order() -> None:
    from neuron_cc.testing.ir import parse_module

    module = parse_module(_NESTED)
    flags = [(r, f) for r in (False, True) for f in (False, True)]
    ours = {k: [id(op) for op in module.walk(reverse=k[0], region_first=k[1])] for k in flags}
    with xdsl_patches.unpatched():
        upstream = {
            k: [id(op) for op in module.walk(reverse=k[0], region_first=k[1])] for k in flags
        }
    assert ours == upstream
    assert len(set(ours[(False, False)])) == len(ours[(False, False)]) == 13


def test_upstream_walk_still_nests_generators() -> None:
    """xDSL's walk yields through a generator per op, region and block of every level."""
    from neuron_cc.testing.ir import parse_module

    module = parse_module(_NESTED)
    ops = list(module.walk())
    with xdsl_patches.unpatched():
        assert [id(o) for o in module.walk()] == [id(o) for o in ops]

    # the generator frames are not on the caller's stack, so count them through gi_yieldfrom
    def chain(gen: object) -> int:
        depth = 0
        while gen is not None:
            depth += 1
            gen = getattr(gen, "gi_yieldfrom", None)
        return depth

    def deepest(walk: object) -> int:
        best = 0
        for _ in walk:  # pyright: ignore[reportGeneralTypeIssues]
            best = max(best, chain(walk))
        return best

    with xdsl_patches.unpatched():
        upstream = deepest(module.walk())
    assert upstream >= 9  # module, func, while, while: 3 generators per level
    assert deepest(module.walk()) <= 2
