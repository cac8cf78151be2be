"""The HLO text importer's fast paths and caches give what the general code gives.

The parser reads the common instruction layout with one match (`_FAST_INSTRUCTION`) and plain
attributes with another (`_FAST_ATTR`); with both disabled every text takes the general cursor
path, which must yield the same records, or the same error at the same offset. The importer
builds a short literal once per (text, type) and dimension lists once per text; a shared
attribute must equal a freshly built one, and malformed values must still fail per instruction.
"""

from __future__ import annotations

import random
import re

import pytest
from xdsl.dialects.builtin import DenseArrayBase, TensorType, f32, i32

from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp
from neuron_cc.translate.hlo_text import lexer, parser
from neuron_cc.translate.hlo_text.attrs import AttrError, ints
from neuron_cc.translate.hlo_text.builders import dims, segment_sizes
from neuron_cc.translate.hlo_text.importer import HloImportError, import_hlo
from neuron_cc.translate.hlo_text.lexer import HloParseError
from neuron_cc.translate.hlo_text.literals import parse_literal
from neuron_cc.translate.hlo_text.parser import HloTextParser
from neuron_cc.translate.hlo_text.parser_records import HloModuleRecord

_HEAD = "HloModule m\n\n"
_ADD = (
    "%add (a: f32[], b: f32[]) -> f32[] {\n"
    "  %a = f32[] parameter(0)\n"
    "  %b = f32[] parameter(1)\n"
    "  ROOT %s = f32[] add(%a, %b)\n"
    "}\n\n"
)


def _entry(*lines: str) -> str:
    body = "".join(f"  {line}\n" for line in lines)
    return f"{_HEAD}{_ADD}ENTRY %e (p: f32[4,8]) -> f32[4,8] {{\n{body}}}\n"


TEXTS = [
    _entry(
        '%p = f32[4,8]{1,0} parameter(0), metadata={op_name="p" source_line=3}',
        '%c = f32[] constant(0.5), metadata={op_name="jit(f)/c" source_file="m.py"}',
        "%b = f32[4,8]{0,1} broadcast(%c), dimensions={}",
        "ROOT %m = f32[4,8] multiply(%p, %b), sharding={replicated}",
    ),
    _entry(
        "%p = f32[4,8] parameter(0)",
        'ROOT  %n = f32[4,8]{1,0}   negate( %p ) ,  metadata={op_name="a, b"}  ',
    ),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] %negate(%p)"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8]negate(%p)"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = /* c */ f32[4,8] negate(%p)"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] /* c */ negate(%p)"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(%p), // tail\n  k=v"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(%p),\n    metadata={}"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(%p), a=/*x*/1"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(%p), a=1 /*x*/, b=2"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(%p), a=\n 1"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(%p), a=\u00a01"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(%p), a= \u00a01"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(%p), a=1, a=2"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(%p), a={{{0}}}, b={}"),
    _entry("%p = f32[4,8] parameter(0)", 'ROOT %n = f32[4,8] negate(%p), a="x\\"y", b=(1)'),
    _entry("%p = f32[4,8] parameter(0)", 'ROOT %n = f32[4,8] negate(%p), a={"unterminated}'),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(f32[4,8] %p)"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(%p, )"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8]{0,0} negate(%p)"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = q32[4,8] negate(%p)"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT = f32[4,8] negate(%p)"),
    _entry("%p = f32[4,8] parameter(0)", "ROOT ROOT = f32[4,8] negate(%p)"),
    _entry("%p = f32[4,8] parameter(0)", "ROOTn = f32[4,8] negate(%p)"),
    _entry("%p = f32[4,8] parameter(0)", "%t = () tuple()", "ROOT %n = f32[4,8] negate(%p)"),
    _entry("%p = f32[4,8] parameter(0)", "%t = f32[] constant()", "ROOT %n = f32[] copy(%t)"),
    _entry(
        "%p = f32[4,8] parameter(0)",
        "%z = f32[] constant(0)",
        "ROOT %r = f32[4] reduce(%p, %z), dimensions={1}, to_apply=%add",
    ),
    _entry(
        "%p = f32[4,8] parameter(0)",
        "%z = f32[] constant(0)",
        "ROOT %r = f32[4] reduce(%p, %z), dimensions={1}, to_apply={ %x = f32[] parameter(0)\n"
        "    %y = f32[] parameter(1)\n    ROOT %s = f32[] add(%x, %y) }",
    ),
    _entry(
        "%p = f32[4,8] parameter(0)",
        "%z = f32[] constant(0)",
        "ROOT %r = f32[4] reduce(%p, %z), dimensions={1}, to_apply={ROOT s = f32[] add("
        "f32[] parameter(0), f32[] parameter(1))}",
    ),
    _entry("%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(%p)\n  %o = f32[4,8] abs(%p)"),
    _entry(
        "%p = f32[4,8] parameter(0)", "ROOT %n = f32[4,8] negate(%p)\n  ROOT %o = f32[] abs(%p)"
    ),
    f"{_HEAD}ENTRY %e () -> f32[] {{\n  ROOT %c = f32[] constant(1), a=1 }}",
    f"{_HEAD}ENTRY %e () -> f32[] {{\n  ROOT %c = f32[] constant(1), a=1",
    f"{_HEAD}ENTRY %e () -> f32[] {{\n  ROOT %c = f32[] constant(1), a=1,",
    f"{_HEAD}ENTRY %e () -> f32[] {{\n  ROOT %c = f32[] constant(1), a=1\x0b}}",
]


def _parse(text: str) -> HloModuleRecord | tuple[str, int]:
    try:
        return HloTextParser(text).module()
    except HloParseError as e:
        return e.message, e.pos


@pytest.mark.parametrize("text", TEXTS)
def test_fast_paths_read_what_the_general_path_reads(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _parse(text)
    never = re.compile(r"(?!)")
    monkeypatch.setattr(parser, "_FAST_INSTRUCTION", never)
    monkeypatch.setattr(parser, "_FAST_ATTR", never)
    assert _parse(text) == fast


def test_fast_paths_on_random_attribute_values(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(17)
    alphabet = ['"', "\\", "{", "}", "(", ")", "[", "]", ",", " ", "\n", "/", "*", "a", "="]
    texts = [
        _entry(
            "%p = f32[4,8] parameter(0)",
            "ROOT %n = f32[4,8] negate(%p), k="
            + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))),
        )
        for _ in range(300)
    ]
    fast = [_parse(t) for t in texts]
    never = re.compile(r"(?!)")
    monkeypatch.setattr(parser, "_FAST_INSTRUCTION", never)
    monkeypatch.setattr(parser, "_FAST_ATTR", never)
    assert [_parse(t) for t in texts] == fast


def test_possessive_value_pattern_matches_the_backtracking_one() -> None:
    text = r'"(?:[^"\\]|\\.)*"'
    group1 = rf"(?:\{{(?:[^(){{}}\[\]\"]|{text})*\}}|\[[^(){{}}\[\]\"]*\]|\([^(){{}}\[\]\"]*\))"
    group2 = rf"(?:\{{(?:[^(){{}}\[\]\"]|{text}|{group1})*\}}|\[(?:[^(){{}}\[\]\"]|{group1})*\])"
    reference = re.compile(rf'(?:[^(){{}}\[\]",\n]|{text}|{group2})*', re.S)
    fast = re.compile(lexer.SIMPLE_VALUE, re.S)
    rng = random.Random(3)
    alphabet = '(){}[]",\n\\ a/'
    for _ in range(20000):
        value = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        ref, got = reference.match(value), fast.match(value)
        assert ref is not None
        assert got is not None
        assert got.end() == ref.end(), value


def test_a_shared_literal_equals_a_fresh_one() -> None:
    module = import_hlo(
        _HEAD + "ENTRY %e () -> (f32[], f32[], s32[], f32[2]) {\n"
        "  %a = f32[] constant(0.02)\n"
        "  %b = f32[] constant(0.02)\n"
        "  %c = s32[] constant(2)\n"
        "  %d = f32[2] constant({0.02, 0.02})\n"
        "  ROOT %t = (f32[], f32[], s32[], f32[2]) tuple(%a, %b, %c, %d)\n"
        "}\n"
    )
    constants = [op for op in module.walk() if isinstance(op, ConstantOp)]
    values = [op.properties["value"] for op in constants]
    assert values[0] is values[1]
    assert values[0] == parse_literal("0.02", TensorType(f32, []))
    assert values[2] == parse_literal("2", TensorType(i32, []))
    assert values[3] == parse_literal("{0.02, 0.02}", TensorType(f32, [2]))
    assert len({id(v) for v in values}) == 3


def test_literal_errors_are_reported_per_instruction() -> None:
    # The same text is a valid f32 literal (built once, shared) and out of range for s8.
    good = "  %a = f32[] constant(300)\n  %b = f32[] constant(300)\n"
    bad = "  %c = s8[] constant(300)\n"
    text = f"{_HEAD}ENTRY %e () -> f32[] {{\n{good}{bad}  ROOT %d = f32[] add(%a, %b)\n}}\n"
    with pytest.raises(HloImportError, match=r":6:3: constant '%c': literal value 300 is out"):
        import_hlo(text)
    assert "dense<3.000000e+02>" in str(import_hlo(text.replace(bad, "")))
    malformed = text.replace(bad, "  %c = f32[] constant(3 00)\n")
    with pytest.raises(HloImportError, match=r":6:25: constant '%c': expected '\)' after"):
        import_hlo(malformed)


def test_shared_dimension_attributes_equal_fresh_ones() -> None:
    for raw in ("{}", "{0}", "{1,0}", " {2, 0,1} "):
        assert dims(raw) == DimensionsAttr(ints(raw))
        assert dims(raw) is dims(raw)
    for _ in range(2):  # a malformed value fails every time (errors are not cached)
        with pytest.raises(AttrError, match="expected integers"):
            dims("{1,x}")
    assert segment_sizes(2, 2) == DenseArrayBase.from_list(i32, [2, 2])
    assert segment_sizes(1, 1, 1) == DenseArrayBase.from_list(i32, [1, 1, 1])
