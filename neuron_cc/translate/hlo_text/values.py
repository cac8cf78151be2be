"""Syntax checks of attribute values the importer keeps as raw text, as XLA's parser reads them.

Each `check_*` takes the raw value text and returns None when XLA's parser accepts it, else
`(message, offset)` with the offset of the offending token in the text. Covered: the module
header's `input_output_alias`, `buffer_donor`, `entry_computation_layout`,
`frontend_attributes`, booleans and boolean lists, and an instruction's `result_accuracy`.
Semantic checks that need the module (an alias's output index must exist in the entry result)
are `alias_output_problem`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.types import TupleType
from neuron_cc.translate.hlo_text.layouts import PRIMITIVE_TYPE, layout_problem

_TOKEN = re.compile(
    r"(?P<ws>[ \t\n\r]+)"
    r"|(?P<arrow>->)"
    r"|(?P<dec>(?=[0-9-])-?(?:(?:[0-9]+|[0-9]+\.[0-9]*|[0-9]*\.[0-9]+)[eE][+-]?[0-9]+"
    r"|[0-9]+\.[0-9]*|[0-9]*\.[0-9]+))"
    r"|(?P<int>-?[0-9]+(?![0-9_x]))"
    r"|(?P<neginf>-inf)"
    r"|(?P<str>\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')"
    r"|(?P<attr>[A-Za-z_][A-Za-z0-9_.\-]*=)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_.\-]*:)"
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_.\-]*)"
    r"|(?P<punct>.)",
    re.S,
)
_ARRAY = re.compile(r"[a-z][a-z0-9]*\[[^\]]*\]")
_ACCURACY_MODES = ("default", "highest")
Problem = tuple[str, int] | None


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    start: int


def _lex(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "punct"
        word = m.group(0)
        if kind == "ws":
            continue
        if kind == "punct":
            kind = word
        elif kind == "int" and not -(2**63) <= int(word) <= 2**64 - 1:
            kind = "bad"
        elif kind == "ident" and word == "inf":
            kind = "inf"
        out.append(_Tok(kind, word, m.start()))
    out.append(_Tok("eof", "", len(text)))
    return out


class ValueSyntaxError(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


class _Stream:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _lex(text)
        self.i = 0

    @property
    def tok(self) -> _Tok:
        return self.tokens[self.i]

    def eat(self, kind: str) -> bool:
        if self.tok.kind == kind:
            self.i += 1
            return True
        return False

    def fail(self, message: str, tok: _Tok | None = None) -> ValueSyntaxError:
        tok = tok or self.tok
        found = "the end of the value" if tok.kind == "eof" else repr(tok.text)
        return ValueSyntaxError(f"{message}, found {found}", tok.start)

    def expect(self, kind: str, what: str) -> _Tok:
        tok = self.tok
        if not self.eat(kind):
            raise self.fail(f"expected {what}")
        return tok

    def integer(self) -> int:
        value = int(self.expect("int", "an integer").text)
        return value - 2**64 if value > 2**63 - 1 else value

    def end(self) -> None:
        if self.tok.kind != "eof":
            raise self.fail("unexpected text after the value")

    def listing(self, close: str, item: Callable[[], object], trailing: bool = True) -> None:
        """Items up to `close` (already past the opener), comma separated; XLA's aliasing and
        donor loops allow a trailing comma, its ParseList does not."""
        if self.eat(close):
            return
        while True:
            item()
            if not self.eat(","):
                break
            if trailing and self.tok.kind == close:
                break
        self.expect(close, f"'{close}'")


def _run(text: str, body: Callable[[_Stream], None]) -> Problem:
    stream = _Stream(text)
    try:
        body(stream)
        stream.end()
    except ValueSyntaxError as e:
        return e.message, e.offset
    return None


# --- module header ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Alias:
    output: tuple[int, ...]
    parameter: int
    offset: int


def _shape_index(s: _Stream) -> tuple[int, ...]:
    s.expect("{", "'{' to start a shape index")
    index: list[int] = []
    s.listing("}", lambda: index.append(s.integer()))
    return tuple(index)


def aliases(text: str) -> tuple[list[Alias], Problem]:
    """`{ {0}: (0, {}, may-alias), {1}: (1, {}) }` -> the aliases, or the syntax problem."""
    found: list[Alias] = []

    def entry(s: _Stream) -> None:
        start = s.tok.start
        output = _shape_index(s)
        s.expect(":", "':' after the output shape index")
        s.expect("(", "'(' before the aliased parameter")
        parameter = s.integer()
        s.expect(",", "',' after the parameter number")
        _shape_index(s)
        if s.eat(","):
            kind = s.tok
            if not (s.eat("ident") and kind.text in ("may-alias", "must-alias")):
                raise s.fail("expected may-alias or must-alias", kind)
        s.expect(")", "')' to end the alias")
        found.append(Alias(output, parameter, start))

    def body(s: _Stream) -> None:
        s.expect("{", "'{' to start the aliasing description")
        s.listing("}", lambda: entry(s))

    return found, _run(text, body)


def donors(text: str) -> tuple[list[Alias], Problem]:
    """`{ (0, {}), (1, {}) }` -> the donated parameters (output index empty), or the problem."""
    found: list[Alias] = []

    def entry(s: _Stream) -> None:
        start = s.tok.start
        s.expect("(", "'(' to start a buffer donor")
        parameter = s.integer()
        s.expect(",", "',' after the parameter number")
        _shape_index(s)
        s.expect(")", "')' to end the buffer donor")
        found.append(Alias((), parameter, start))

    def body(s: _Stream) -> None:
        s.expect("{", "'{' to start the buffer donor description")
        s.listing("}", lambda: entry(s))

    return found, _run(text, body)


def _index_is_valid(t: Attribute, index: tuple[int, ...]) -> bool:
    """XLA's ShapeUtil::IndexIsValid."""
    for i in index:
        if not isinstance(t, TupleType) or not 0 <= i < len(t.types.data):
            return False
        t = t.types.data[i]
    return True


def alias_problem(entries: list[Alias], result: Attribute | None) -> Problem:
    """What XLA's SetUpAlias / AddBufferDonor refuse: a negative parameter number, an output
    index the entry result does not have (`result` None: not checked)."""
    for a in entries:
        if a.parameter < 0:
            return f"parameter number {a.parameter} is negative", a.offset
        if result is not None and not _index_is_valid(result, a.output):
            index = "{" + ",".join(map(str, a.output)) + "}"
            return f"output index {index} does not exist in the entry result", a.offset
    return None


def _shape(s: _Stream) -> None:
    """A shape as XLA writes it: `f32[4]{0}` or `(s32[], f32[2])` (syntax only)."""
    if s.eat("("):
        s.listing(")", lambda: _shape(s), trailing=False)
        return
    tok = s.tok
    m = _ARRAY.match(s.text, tok.start)
    if tok.kind != "ident" or m is None or PRIMITIVE_TYPE.fullmatch(tok.text) is None:
        raise s.fail("expected a shape")
    while s.tok.start < m.end():
        s.i += 1
    if s.tok.kind == "{" and s.tokens[s.i + 1].kind in ("int", ":"):
        close = s.text.find("}", s.tok.start)
        layout = s.text[s.tok.start : close + 1] if close >= 0 else s.text[s.tok.start :]
        problem = layout_problem(layout)
        if problem is not None:
            raise ValueSyntaxError(f"malformed layout {layout}: {problem[0]}", tok.start)
        while s.tok.kind != "eof" and s.tok.start <= close:
            s.i += 1


def check_computation_layout(text: str) -> Problem:
    """`{(f32[4]{0}, s32[])->f32[4]{0}}`."""

    def body(s: _Stream) -> None:
        s.expect("{", "'{' to start the computation layout")
        s.expect("(", "'(' before the parameter shapes")
        while s.tok.kind != ")":
            _shape(s)
            if s.tok.kind == ")":
                break
            s.expect(",", "',' between parameter shapes")
        s.expect(")", "')' after the parameter shapes")
        s.expect("arrow", "'->' before the result shape")
        _shape(s)
        s.expect("}", "'}' to end the computation layout")

    return _run(text, body)


def _json_dict(s: _Stream) -> None:
    """A `{...}` JSON dictionary value: balanced braces, strings skipped."""
    depth = 0
    while True:
        kind = s.tok.kind
        if kind == "eof":
            raise s.fail("unterminated JSON dictionary")
        depth += (kind == "{") - (kind == "}")
        s.i += 1
        if depth == 0:
            return


def check_frontend_attributes(text: str) -> Problem:
    """`{key="value", other={...json...}}`."""

    def item(s: _Stream) -> None:
        s.expect("attr", "an attribute name followed by '='")
        if s.tok.kind == "{":
            _json_dict(s)
        else:
            s.expect("str", "a string or a JSON dictionary")

    def body(s: _Stream) -> None:
        s.expect("{", "'{' to start the frontend attributes")
        s.listing("}", lambda: item(s), trailing=False)

    return _run(text, body)


def _boolean(s: _Stream) -> None:
    if s.tok.kind != "ident" or s.tok.text not in ("true", "false"):
        raise s.fail("expected true or false")
    s.i += 1


def check_bool(text: str) -> Problem:
    return _run(text, _boolean)


def check_bool_list(text: str) -> Problem:
    """`true`, `false` or `{true,false,...}`."""

    def body(s: _Stream) -> None:
        if s.eat("{"):
            s.listing("}", lambda: _boolean(s), trailing=False)
        else:
            _boolean(s)

    return _run(text, body)


# --- result_accuracy --------------------------------------------------------------------------

RESULT_ACCURACY_OPCODES = frozenset(
    {
        "acos",
        "acosh",
        "asin",
        "asinh",
        "atanh",
        "cbrt",
        "cosine",
        "cosh",
        "erf",
        "exponential",
        "exponential-minus-one",
        "log",
        "log-plus-one",
        "logistic",
        "rsqrt",
        "sine",
        "sinh",
        "sqrt",
        "tan",
        "tanh",
    }
)
"""Opcodes whose instructions take `result_accuracy=` (XLA's unary ops with result accuracy)."""


def _tolerance_value(s: _Stream, key: str) -> None:
    tok = s.tok
    if tok.kind in ("int", "dec", "inf", "neginf"):
        s.i += 1
        value = {"inf": math.inf, "neginf": -math.inf}.get(tok.kind)
        value = float(tok.text) if value is None else value
        if math.isinf(value) and tok.kind == "dec":
            raise s.fail(f"{key} is out of range for double", tok)
        if not value >= 0:  # XLA aborts on a negative tolerance
            raise s.fail(f"{key} must not be negative", tok)
    # else: XLA ignores a missing value (`atol=}`); anything else fails at the next token.


def _tolerance(s: _Stream) -> None:
    s.expect("{", "'{' to start the tolerance")

    def item() -> None:
        key = s.tok
        if key.kind != "attr" or key.text[:-1] not in ("atol", "rtol", "ulps"):
            raise s.fail("expected atol=, rtol= or ulps=", key)
        s.i += 1
        _tolerance_value(s, key.text[:-1])

    s.listing("}", item, trailing=False)


def check_result_accuracy(text: str) -> Problem:
    """`{mode=highest}` (modes default, highest, any case) or `{tolerance={atol=..., rtol=...,
    ulps=...}}`: exactly one of the two."""

    def body(s: _Stream) -> None:
        s.expect("{", "'{' to start result_accuracy")
        key = s.tok
        if key.kind == "attr" and key.text == "mode=":
            s.i += 1
            mode = s.tok
            if not (s.eat("ident") and mode.text.lower() in _ACCURACY_MODES):
                raise s.fail("expected the accuracy mode default or highest", mode)
        elif key.kind == "attr" and key.text == "tolerance=":
            s.i += 1
            _tolerance(s)
        else:
            raise s.fail("expected mode= or tolerance=", key)
        s.expect("}", "'}' to end result_accuracy")

    return _run(text, body)
