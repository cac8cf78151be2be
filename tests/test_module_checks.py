"""The defined-before-use check's fast path (`driver._defined_in_scope_order`) never says
"fine" where the exact check (`driver._check_defined_before_use`) finds an error, and it says
"fine" on real programs (else every input would pay the slow check)."""

from __future__ import annotations

from pathlib import Path

import pytest

from neuron_cc.tools.driver import (
    UserError,
    _check_defined_before_use,
    _defined_in_scope_order,
    check_module,
    parse_mlir,
    read_hlo,
    tool_context,
)

CORPUS = Path(__file__).parent / "corpus" / "jax"


def _module(body: str):
    text = f"builtin.module {{\n  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {{\n{body}\n  }}\n}}"
    return parse_mlir(tool_context(), text, "t.mlir")[0]


def _exact(module: object) -> str:
    try:
        _check_defined_before_use(module, lambda op, message: UserError(message))  # pyright: ignore[reportArgumentType]
    except UserError as e:
        return str(e)
    return ""


GOOD = {
    "chain": """
    %a = "hlo.add"(%x, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %b = "hlo.add"(%a, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    func.return %b : tensor<8xf32>""",
    "region uses an enclosing block's earlier value": """
    %a = "hlo.add"(%x, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %b = "test.op"() ({
      %c = "hlo.add"(%a, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      "test.op"(%c) : (tensor<8xf32>) -> ()
    }) : () -> tensor<8xf32>
    %d = "hlo.add"(%b, %a) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    func.return %d : tensor<8xf32>""",
}

BAD = {
    "forward reference": """
    %a = "hlo.add"(%x, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %b = "hlo.add"(%x, %a) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    func.return %b : tensor<8xf32>""",
    "a region uses its own op's result": """
    %b = "test.op"() ({
      "test.op"(%b) : (tensor<8xf32>) -> ()
    }) : () -> tensor<8xf32>
    func.return %b : tensor<8xf32>""",
}


@pytest.mark.parametrize("name", sorted(GOOD))
def test_fast_path_accepts_what_the_exact_check_accepts(name: str) -> None:
    module = _module(GOOD[name])
    assert _exact(module) == ""
    assert _defined_in_scope_order(module)


# What the .mlir parser refuses (its scopes) but a pass could build: a use of a value defined
# inside a region, from outside it or from a sibling region. Built by rewiring `%x` uses.
REWIRED = """
    %b = "test.op"() ({
      %c = "hlo.add"(%x, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      "test.op"(%c) : (tensor<8xf32>) -> ()
    }, {
      "test.op"(%x) : (tensor<8xf32>) -> ()
    }) : () -> tensor<8xf32>
    %d = "hlo.add"(%b, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    func.return %d : tensor<8xf32>"""


def _rewired(user_name: str):
    """REWIRED with the `%x` operand of `user_name`'s op replaced by the region's `%c`."""
    module = _module(REWIRED)
    ops = list(module.walk())
    inner = next(op for op in ops if op.results and op.results[0].name_hint == "c")
    if user_name == "d":
        user = next(op for op in ops if op.results and op.results[0].name_hint == "d")
    else:  # the sibling region's test.op
        user = [op for op in ops if op.name == "test.op" and not op.results][1]
    user.operands = [inner.results[0] if o.name_hint == "x" else o for o in user.operands]
    return module


BAD_BUILT = {"used outside its region": "d", "used from a sibling region": "sibling"}


@pytest.mark.parametrize("name", sorted(BAD) + sorted(BAD_BUILT))
def test_fast_path_defers_every_error_to_the_exact_check(name: str) -> None:
    module = _module(BAD[name]) if name in BAD else _rewired(BAD_BUILT[name])
    assert not _defined_in_scope_order(module)
    assert "defines it" in _exact(module) or "before it is defined" in _exact(module)
    with pytest.raises(UserError):
        check_module(module, None)


def test_multi_block_regions_take_the_exact_check() -> None:
    module = _module(
        """
    %b = "test.op"() ({
      "test.op"() [^bb1] : () -> ()
    ^bb1:
      "test.op"(%x) : (tensor<8xf32>) -> ()
    }) : () -> tensor<8xf32>
    func.return %b : tensor<8xf32>"""
    )
    assert not _defined_in_scope_order(module)
    assert _exact(module) == ""


@pytest.mark.parametrize("path", sorted(str(p.relative_to(CORPUS)) for p in CORPUS.glob("*/*.hlo")))
def test_real_programs_take_the_fast_path(path: str) -> None:
    module, _ = read_hlo(tool_context(), (CORPUS / path).read_text(), path)
    assert _defined_in_scope_order(module)
    assert _exact(module) == ""
