"""neuron-cc's patches of xDSL (neuron_cc/dialects/xdsl_patches.py) and scoped remark forcing.

Each `test_upstream_still_*` test shows, with xDSL's own definitions restored (`unpatched()`),
that the bug or slowness its patch works around is still in the installed xDSL. When one of them
fails, upstream has fixed it: delete that patch (and the test). The `test_patched_*` tests show
the patched behaviour.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float32Type, TensorType, f32
from xdsl.ir import Operation, SSAValue
from xdsl.ir.core import OpOperands, SSAValues
from xdsl.parser import Parser
from xdsl.parser import attribute_parser as xdsl_attribute_parser
from xdsl.utils.exceptions import VerifyException

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


def test_patched_block_and_region_walks_visit_in_xdsls_order() -> None:
    from neuron_cc.testing.ir import parse_module

    module = parse_module(_NESTED)
    flags = [(r, f) for r in (False, True) for f in (False, True)]

    def orders() -> dict[tuple[str, bool, bool], list[int]]:
        out: dict[tuple[str, bool, bool], list[int]] = {}
        for r, f in flags:
            out["block", r, f] = [
                id(op) for op in module.body.block.walk(reverse=r, region_first=f)
            ]
            out["region", r, f] = [id(op) for op in module.body.walk(reverse=r, region_first=f)]
        return out

    ours = orders()
    with xdsl_patches.unpatched():
        upstream = orders()
    assert ours == upstream
    assert len(ours["region", False, False]) == 12  # the module itself is not in its region

    def delegates(walk: Iterator[object]) -> bool:
        next(walk)
        return getattr(walk, "gi_yieldfrom", None) is not None

    assert not delegates(iter(module.body.walk()))
    assert not delegates(iter(module.body.block.walk()))
    with xdsl_patches.unpatched():  # xDSL: region -> block -> op generators
        assert delegates(iter(module.body.walk()))
        assert delegates(iter(module.body.block.walk()))


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


# --- patch 5 (walk): erasing the op just yielded --------------------------------------------


def test_patched_walk_survives_erasing_the_yielded_op() -> None:
    """Like xDSL's, the walk reads an op's neighbour when it yields the op, so a caller may
    erase what it was given and still see every later op."""
    from neuron_cc.testing.ir import parse_module

    def erase_constants(module: object) -> list[str]:
        seen: list[str] = []
        for op in module.walk():  # pyright: ignore[reportAttributeAccessIssue]
            seen.append(op.name)
            if op.name == "hlo.constant" and not op.results[0].uses:
                op.detach()
        return seen

    ours = erase_constants(parse_module(_DEAD_CONSTANTS))
    with xdsl_patches.unpatched():
        upstream = erase_constants(parse_module(_DEAD_CONSTANTS))
    assert ours == upstream
    assert ours.count("hlo.constant") == 3
    assert ours[-1] == "func.return"


def test_patched_region_walk_survives_erasing_the_yielded_op() -> None:
    from neuron_cc.testing.ir import parse_module

    def erase_constants(module: object) -> list[str]:
        seen: list[str] = []
        for op in module.body.walk():  # pyright: ignore[reportAttributeAccessIssue]
            seen.append(op.name)
            if op.name == "hlo.constant" and not op.results[0].uses:
                op.detach()
        return seen

    ours = erase_constants(parse_module(_DEAD_CONSTANTS))
    with xdsl_patches.unpatched():
        upstream = erase_constants(parse_module(_DEAD_CONSTANTS))
    assert (
        ours
        == upstream
        == ["func.func", "hlo.constant", "hlo.constant", "hlo.constant", "func.return"]
    )


_DEAD_CONSTANTS = """
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %a = hlo.constant dense<1.0> : tensor<f32>
  %b = hlo.constant dense<2.0> : tensor<f32>
  %c = hlo.constant dense<3.0> : tensor<f32>
  func.return %x : tensor<f32>
}
"""


# --- patch 6: Operation.__init__ direct ------------------------------------------------------


def _snapshot(op: Operation, values: list[SSAValue]) -> tuple[Any, ...]:
    """Everything `Operation.__init__` sets, with the use lists of `values` in order."""
    return (
        type(op),
        [id(v) for v in op.operands],
        [[(u.operation is op, u.index) for u in v.uses] for v in values],
        [(r.type, r.index, r.op is op) for r in op.results],
        dict(op.properties),
        dict(op.attributes),
        op.location,
        [(id(r), r.parent is op) for r in op.regions],
        list(op.successors),
        op.parent,
    )


def _built_ops() -> list[tuple[Operation, list[SSAValue]]]:
    from xdsl.dialects import arith, cf
    from xdsl.dialects.builtin import i32
    from xdsl.ir import Block, Region

    from neuron_cc.dialects.hlo.collectives import AllReduceOp
    from neuron_cc.dialects.hlo.control_flow import TupleOp
    from neuron_cc.dialects.hlo.elementwise import AddOp

    block = Block(arg_types=[TensorType(f32, [2]), TensorType(f32, [2]), i32])
    x, y, n = block.args
    reducer = Region(Block(arg_types=[TensorType(f32, []), TensorType(f32, [])]))
    target = Block()
    return [
        (AddOp.create(operands=[x, x], result_types=[x.type]), [x]),  # one value twice
        (TupleOp([x, y, x]), [x, y]),  # a variadic op through its IRDL __init__
        (arith.AddfOp(x, y), [x, y]),  # fastmath filled from its default
        (AllReduceOp.create(operands=[y], result_types=[y.type], regions=[reducer]), [y]),
        (cf.BranchOp(target, n), [n]),  # a successor
    ]


def test_patched_operation_init_builds_what_xdsl_builds() -> None:
    ours = [_snapshot(op, values) for op, values in _built_ops()]
    with xdsl_patches.unpatched():
        upstream = [_snapshot(op, values) for op, values in _built_ops()]
    # ids of fresh block arguments differ between the two builds: compare the rest
    assert [s[:1] + s[2:7] for s in ours] == [s[:1] + s[2:7] for s in upstream]
    assert [len(s[7]) for s in ours] == [len(s[7]) for s in upstream] == [0, 0, 0, 1, 0]
    assert all(parented for s in ours for _, parented in s[7])
    assert ours[2][4]["fastmath"] == upstream[2][4]["fastmath"]
    assert [len(s[8]) for s in ours] == [0, 0, 0, 0, 1]


def test_upstream_operation_init_still_looks_up_the_definition_per_op(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from neuron_cc.dialects.hlo.elementwise import AddOp

    calls: list[int] = []
    original = AddOp.get_irdl_definition.__func__

    def counting(cls: type) -> object:
        calls.append(1)
        return original(cls)

    monkeypatch.setattr(AddOp, "get_irdl_definition", classmethod(counting))
    value = _built_ops()[0][1][0]
    for _ in range(3):
        AddOp.create(operands=[value, value], result_types=[value.type])
    patched = len(calls)
    with xdsl_patches.unpatched():
        for _ in range(3):
            AddOp.create(operands=[value, value], result_types=[value.type])
    assert len(calls) - patched >= 3, "xDSL no longer scans the definition per op: patch 6"
    assert patched <= 1  # the defaults table, built once for the class


# --- patch 7: IntegerAttr direct -------------------------------------------------------------


_INTEGER_CASES = [(5, 64), (-1, 64), (2**63, 64), (255, 8), (-128, 8), (65535, 16), (2**31, 32)]


def test_patched_integer_attr_equals_xdsls() -> None:
    from xdsl.dialects.builtin import IntegerAttr, IntegerType, Signedness, i64

    types = [IntegerType(64), i64, IntegerType(32, Signedness.UNSIGNED), 1, 7]
    ours = [IntegerAttr(v, w) for v, w in _INTEGER_CASES] + [IntegerAttr(1, t) for t in types]
    with xdsl_patches.unpatched():
        upstream = [IntegerAttr(v, w) for v, w in _INTEGER_CASES]
        upstream += [IntegerAttr(1, t) for t in types]
    assert ours == upstream
    assert [a.value.data for a in ours[:7]] == [5, -1, -(2**63), -1, -128, -1, -(2**31)]
    assert [hash(a) for a in ours] == [hash(a) for a in upstream]
    with pytest.raises(VerifyException, match="out of range for type i64"):
        IntegerAttr(2**64, 64)
    with pytest.raises(VerifyException, match="out of range for type i8"):
        IntegerAttr(-129, 8)


def test_upstream_integer_attr_still_verifies_per_attribute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from xdsl.dialects.builtin import IntegerAttr

    calls: list[int] = []
    original = IntegerAttr.verify

    def counting(self: IntegerAttr) -> None:
        calls.append(1)
        original(self)

    monkeypatch.setattr(IntegerAttr, "verify", counting)
    for v in range(3):
        IntegerAttr(v, 64)
    assert calls == []
    with xdsl_patches.unpatched():
        for v in range(3):
            IntegerAttr(v, 64)
    assert len(calls) >= 3, "xDSL no longer verifies each IntegerAttr: delete patch 7"


# --- block ops iteration by links -----------------------------------------------------------


def test_patched_block_ops_iterate_as_xdsl_and_survive_detaching() -> None:
    from types import GeneratorType

    from neuron_cc.testing.ir import parse_module

    def visit(module: Any, backwards: bool) -> list[str]:
        block = module.body.block.first_op.body.block
        seen: list[str] = []
        for op in reversed(block.ops) if backwards else block.ops:
            seen.append(op.name)
            if op.name == "hlo.constant":
                op.detach()
        return [*seen, str(len(block.ops))]

    ours = [visit(parse_module(_DEAD_CONSTANTS), b) for b in (False, True)]
    with xdsl_patches.unpatched():
        upstream = [visit(parse_module(_DEAD_CONSTANTS), b) for b in (False, True)]
        assert not isinstance(iter(parse_module(_DEAD_CONSTANTS).body.block.ops), GeneratorType)
    assert ours == upstream
    assert ours[0] == ["hlo.constant"] * 3 + ["func.return", "1"]
    assert ours[1] == ["func.return"] + ["hlo.constant"] * 3 + ["1"]
    assert isinstance(iter(parse_module(_DEAD_CONSTANTS).body.block.ops), GeneratorType)


# --- IsolatedFromAbove -------------------------------------------------------------------------

_OUTSIDE_VALUE = """
func.func @reducer_isolated(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.add %a, %b : tensor<f32>
    %d = hlo.add %c, %z : tensor<f32>
    hlo.return %d : tensor<f32>
  } -> tensor<4xf32>
  func.return
}
"""


def test_patched_isolated_from_above_gives_xdsls_verdicts() -> None:
    from neuron_cc.testing.ir import parse_module

    def verdict(text: str) -> str:
        module = parse_module(text, verify=False)
        try:
            module.verify()
        except VerifyException as e:
            return str(e)
        return "ok"

    cases = [_NESTED, _OUTSIDE_VALUE, _OUTSIDE_VALUE.replace("%c, %z", "%c, %b")]
    ours = [verdict(t) for t in cases]
    with xdsl_patches.unpatched():
        upstream = [verdict(t) for t in cases]
    assert ours == upstream
    assert ours[0] == ours[2] == "ok"
    assert "Operation using value defined out of its IsolatedFromAbove parent" in ours[1]


# --- Operation / Block / Region verify, identity hash ------------------------------------------


def _broken_modules() -> list[Any]:
    """Structurally broken modules: a block not ending in a terminator, an empty block in a
    single-block region, an op using an erased value."""
    from xdsl.ir.core import ErasedSSAValue

    from neuron_cc.testing.ir import parse_module

    def function_body(module: Any) -> Any:
        return module.body.block.first_op.body.block

    no_terminator = parse_module(_DEAD_CONSTANTS)
    function_body(no_terminator).last_op.detach()
    empty = parse_module(_DEAD_CONSTANTS)
    for op in list(function_body(empty).ops):
        op.detach()
    erased = parse_module(_DEAD_CONSTANTS)
    ret = function_body(erased).last_op
    ret.operands = [ErasedSSAValue(ret.operands[0].type, ret.operands[0])]
    return [parse_module(_NESTED), no_terminator, empty, erased]


def test_patched_structure_checks_give_xdsls_verdicts() -> None:
    def verdict(module: Any) -> str:
        try:
            module.verify()
        except Exception as e:  # ValueError or VerifyException, as xDSL raises them
            return f"{type(e).__name__}: {str(e).splitlines()[0]}"
        return "ok"

    ours = [verdict(m) for m in _broken_modules()]
    with xdsl_patches.unpatched():
        upstream = [verdict(m) for m in _broken_modules()]
    assert ours == upstream
    assert ours[0] == "ok"
    assert "is not a terminator" in ours[1]
    assert "contains empty block" in ours[2]
    assert ours[3] == "ValueError: Erased SSA value is used by the operation"


def test_patched_op_hash_and_equality_are_identity() -> None:
    from neuron_cc.testing.ir import parse_module

    ops = list(parse_module(_NESTED).walk())
    twin = list(parse_module(_NESTED).walk())
    assert all(hash(op) == object.__hash__(op) for op in ops)
    assert len(set(ops) | set(twin)) == 2 * len(ops)
    assert all(a == a and a != b for a, b in zip(ops, twin, strict=True))
    with xdsl_patches.unpatched():  # upstream: Python functions
        assert type(ops[0]).__hash__ is not object.__hash__
        assert isinstance(type(ops[0]).__eq__, type(lambda: None))


# --- patch 11: erasing a value without uses --------------------------------------------------


def _erase_cases() -> tuple[Operation, Operation, Operation]:
    """An unused add, and an add whose result a second add uses (its producer and its user)."""
    from xdsl.ir import Block

    from neuron_cc.dialects.hlo.elementwise import AddOp

    block = Block(arg_types=[TensorType(f32, [2])])
    x = block.args[0]
    unused = AddOp.create(operands=[x, x], result_types=[x.type])
    used = AddOp.create(operands=[x, x], result_types=[x.type])
    user = AddOp.create(operands=[used.results[0], x], result_types=[x.type])
    return unused, used, user


def _erase_all(counting: list[int]) -> list[str]:
    """Erase the three ops of `_erase_cases` as passes do; what each erase left behind."""
    unused, used, user = _erase_cases()
    seen: list[str] = []
    unused.erase()
    seen.append(f"unused: {unused.results[0].first_use}")
    with pytest.raises(ValueError, match="still has uses"):
        used.erase()
    used.erase(safe_erase=False, drop_references=False)
    replaced = user.operands[0]
    seen.append(f"used: {type(replaced).__name__} of {replaced.type}")
    seen.append(f"old value uses: {used.results[0].first_use}")
    seen.append(f"erased values built: {len(counting)}")
    return seen


def test_patched_erase_of_an_unused_value_builds_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from xdsl.ir.core import ErasedSSAValue

    built: list[int] = []
    original = ErasedSSAValue.__init__

    def counting(self: ErasedSSAValue, *args: object, **kwargs: object) -> None:
        built.append(1)
        original(self, *args, **kwargs)  # pyright: ignore[reportArgumentType]

    monkeypatch.setattr(ErasedSSAValue, "__init__", counting)
    ours = _erase_all(built)
    built.clear()
    with xdsl_patches.unpatched():
        upstream = _erase_all(built)
    # the same IR afterwards; upstream built one ErasedSSAValue per erase (the used value's
    # twice: the refused safe erase builds none), ours only for the value that had a user
    assert (
        ours[:3]
        == upstream[:3]
        == [
            "unused: None",
            "used: ErasedSSAValue of tensor<2xf32>",
            "old value uses: None",
        ]
    )
    assert ours[3] == "erased values built: 1"
    assert upstream[3] == "erased values built: 2", "xDSL no longer builds one: patch 11"


# --- patch 12: named single operands and results -------------------------------------------


def _accessed() -> list[object]:
    """Every named operand, result and region of a few ops, read through their accessors."""
    from xdsl.ir import Block, Region

    from neuron_cc.dialects.hlo.collectives import AllReduceOp
    from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, TupleOp
    from neuron_cc.dialects.hlo.data_movement import DynamicUpdateSliceOp
    from neuron_cc.dialects.hlo.elementwise import AddOp

    block = Block(arg_types=[TensorType(f32, [4]), TensorType(f32, [2]), TensorType(f32, [])])
    x, y, i = block.args
    add = AddOp.create(operands=[x, x], result_types=[x.type])
    tup = TupleOp([x, add.results[0]])
    gte = GetTupleElementOp(tup, 1)
    dus = DynamicUpdateSliceOp.create(operands=[x, y, i], result_types=[x.type])
    reducer = Region(Block(arg_types=[TensorType(f32, []), TensorType(f32, [])]))
    ar = AllReduceOp.create(operands=[y], result_types=[y.type], regions=[reducer])
    return [
        add.lhs, add.rhs, add.result, tup.elements, tup.result, gte.tuple_, gte.result,
        dus.operand, dus.update, tuple(dus.start_indices), dus.result, ar.regions[0],
        add.results[0], tup.results[0], tuple(tup.operands[0:1]), type(tup.operands[0:1]),
    ]  # fmt: skip


def test_patched_accessors_read_what_xdsls_read() -> None:
    ours = _accessed()
    with xdsl_patches.unpatched():
        upstream = _accessed()

    # fresh ops each time: compare what each access is (its kind, type and position)
    def shape(v: object) -> object:
        if isinstance(v, SSAValue):
            return (type(v).__name__, str(v.type), getattr(v, "index", None))
        if isinstance(v, tuple | list):
            return [shape(e) for e in v]
        return type(v).__name__ if not isinstance(v, type) else v.__name__

    assert [shape(v) for v in ours] == [shape(v) for v in upstream]
    assert ours[-1] is upstream[-1]  # a slice of operands is still SSAValues


def test_upstream_accessor_still_builds_an_operand_view(monkeypatch: pytest.MonkeyPatch) -> None:
    from xdsl.irdl import operations as irdl_operations

    calls: list[int] = []
    original = irdl_operations.get_op_constructs

    def counting(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(irdl_operations, "get_op_constructs", counting)
    _accessed()
    patched = len(calls)
    with xdsl_patches.unpatched():
        _accessed()
    assert patched == 1  # `start_indices` (one variadic of several operands) takes xDSL's path
    assert len(calls) > 10, "xDSL's accessor no longer goes through get_op_constructs: patch 12"


def _only_variadic() -> tuple[SSAValues[SSAValue], OpOperands, list[SSAValue], list[SSAValue]]:
    """A tuple op's `elements` (its only operand definition, variadic), its operand view, and
    a dynamic update slice's `start_indices` (one variadic among three operand definitions)
    and operands."""
    from xdsl.ir import Block

    from neuron_cc.dialects.hlo.control_flow import TupleOp
    from neuron_cc.dialects.hlo.data_movement import DynamicUpdateSliceOp

    block = Block(arg_types=[TensorType(f32, [4]), TensorType(f32, [2]), TensorType(f32, [])])
    x, y, i = block.args
    tup = TupleOp([x, y, i])
    dus = DynamicUpdateSliceOp.create(operands=[x, y, i], result_types=[x.type])
    elements: Any = tup.elements
    return elements, tup.operands, list(dus.start_indices), list(dus.operands)


def test_only_variadic_operand_is_the_ops_own_tuple() -> None:
    elements, operands, starts, dus_operands = _only_variadic()
    assert elements is operands._op._operands
    assert starts == dus_operands[2:]
    with xdsl_patches.unpatched():
        up_elements, up_operands, _, _ = _only_variadic()
    # upstream slices a copy (an access costs the tuple's width); the same values either way
    assert up_elements is not up_operands._op._operands
    assert type(up_elements) is type(elements) is SSAValues
    assert [v.type for v in up_elements] == [v.type for v in elements]


# --- patch 13: replace_all_uses_with by the links ---------------------------------------------


def _replaced() -> list[Any]:
    """What replacing %x by %y leaves: each op's operands and both values' use lists, in order
    (ops and values by position), and the name hints."""
    from xdsl.ir import Block

    from neuron_cc.dialects.hlo.control_flow import TupleOp
    from neuron_cc.dialects.hlo.elementwise import AddOp

    block = Block(arg_types=[TensorType(f32, [2])] * 3)
    x, y, z = block.args
    x.name_hint = "x"
    ops: list[Operation] = [
        AddOp.create(operands=[x, x], result_types=[x.type]),  # one op using it twice
        AddOp.create(operands=[y, x], result_types=[x.type]),  # the new value already used
        TupleOp([z, x, y, x]),
    ]
    block.add_ops(ops)
    values: list[SSAValue] = [x, y, z]
    x.replace_all_uses_with(y)
    return [
        [[values.index(v) for v in op.operands] for op in ops],
        [[(ops.index(u.operation), u.index) for u in v.uses] for v in values],
        [v.name_hint for v in values],
    ]


def test_patched_replace_all_uses_leaves_what_xdsl_leaves() -> None:
    ours = _replaced()
    with xdsl_patches.unpatched():
        upstream = _replaced()
    assert ours == upstream
    assert ours[0] == [[1, 1], [1, 1], [2, 1, 1, 1]]
    assert ours[2] == ["x", "x", None]  # the new value takes the old name hint


def test_upstream_replace_all_uses_still_goes_through_operand_views(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from xdsl.ir.core import OpOperands

    calls: list[int] = []
    original = OpOperands.__setitem__

    def counting(self: OpOperands, idx: int, operand: SSAValue) -> None:
        calls.append(1)
        original(self, idx, operand)

    monkeypatch.setattr(OpOperands, "__setitem__", counting)
    _replaced()
    patched = len(calls)
    with xdsl_patches.unpatched():
        _replaced()
    assert patched == 0
    assert len(calls) == 5, "xDSL no longer rewrites each use through OpOperands: patch 13"


# --- patch 14: region.blocks[i] by the links ---------------------------------------------------


def _indexed_blocks() -> list[object]:
    """`region.blocks[i]` of a three-block region for every index kind, as block positions."""
    from xdsl.ir import Block, Region

    blocks = [Block(), Block(), Block()]
    region = Region(blocks)
    seen: list[object] = []
    for idx in (0, 1, 2, 3, -1, -3, -4):
        try:
            seen.append(blocks.index(region.blocks[idx]))
        except IndexError:
            seen.append("IndexError")
    seen.append(_first_of_empty())
    return seen


def _first_of_empty() -> str:
    from xdsl.ir import Region

    try:
        Region().blocks[0]
    except IndexError:
        return "IndexError"
    return "no error"


def test_patched_region_block_index_finds_xdsls_blocks() -> None:
    ours = _indexed_blocks()
    with xdsl_patches.unpatched():
        upstream = _indexed_blocks()
    assert ours == upstream
    assert ours == [0, 1, 2, "IndexError", 2, 0, "IndexError", "IndexError"]


def test_upstream_region_block_index_still_iterates(monkeypatch: pytest.MonkeyPatch) -> None:
    from xdsl.ir.core import RegionBlocks

    calls: list[int] = []
    original = RegionBlocks.__iter__

    def counting(self: RegionBlocks) -> Any:
        calls.append(1)
        return original(self)

    monkeypatch.setattr(RegionBlocks, "__iter__", counting)
    _indexed_blocks()
    patched = len(calls)
    with xdsl_patches.unpatched():
        _indexed_blocks()
    assert len(calls) - patched >= 4, "xDSL no longer enumerates the blocks: patch 14"
