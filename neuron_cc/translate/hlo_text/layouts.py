"""Syntax of a shape's layout (`{1,0:T(8,128)(2,1)E(32)S(1)}`) as XLA's `ParseLayout` reads it.

`layout_problem(text)` returns None when XLA's parser accepts the layout text, else the message
and the offset of the offending token. XLA's grammar, in this order after the `:`:
`D(dim level types)`, `T(tile)(tile)...`, `L(n)`, `#(index type)`, `*(pointer type)`, `E(bits)`,
`S(memory space)`, `SC(dim:indices)...`, `P(physical shape)`, `M(bytes)`. Like XLA, a malformed
item after the `:` is only an error when the layout then fails to end with `}` (so `T(8,128}`
passes and `T(x)` does not); a physical shape `P(...)` is always refused (dense arrays have
none). The number of minor-to-major entries is checked by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_TOKEN = re.compile(
    r"(?P<ws>[ \t\n\r]+)"
    r"|(?P<bad>[0-9]+(?:x[0-9]+)+|-?[0-9]+_-?[0-9]+(?:_[0-9]+)?(?:x-?[0-9]+_-?[0-9]+(?:_[0-9]+)?)*"
    r"|-?(?:[0-9]+\.[0-9]*|[0-9]*\.[0-9]+|[0-9]+(?=[eE][+-]?[0-9]))(?:[eE][+-]?[0-9]+)?)"
    r"|(?P<int>-?[0-9]+)"
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_.\-]*[:=]?)"
    r"|(?P<punct>.)",
    re.S,
)
PRIMITIVE_TYPE = re.compile(
    r"pred|[su](?:1|2|4|8|16|32|64)|f(?:16|32|64)|bf16|c(?:64|128)|f[468]e[0-9a-z]+|token|opaque"
)
"""XLA's primitive type names (the element types of shapes)."""
_ORDER = ("D", "T", "L", "#", "*", "E", "S", "SC", "P", "M")


@dataclass(frozen=True)
class _Tok:
    kind: str  # "int", "ident", "prim", "bad", "eof" or the punctuation character
    text: str
    start: int


def _lex(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "punct"
        if kind == "ws":
            continue
        word = m.group(0)
        if kind == "punct":
            kind = word
        elif kind == "ident" and PRIMITIVE_TYPE.fullmatch(word):
            kind = "prim"
        out.append(_Tok(kind, word, m.start()))
    out.append(_Tok("eof", "", len(text)))
    return out


class _Negative(Exception):
    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


class _LayoutParser:
    def __init__(self, text: str) -> None:
        self.tokens = _lex(text)
        self.i = 0
        self.minor_to_major: list[int] = []
        self.physical = False

    @property
    def tok(self) -> _Tok:
        return self.tokens[self.i]

    def eat(self, kind: str, text: str | None = None) -> bool:
        if self.tok.kind == kind and (text is None or self.tok.text == text):
            self.i += 1
            return True
        return False

    def int_list(self, start: str, end: str, item: Callable[[], bool]) -> bool:
        """XLA's ParseList(start, end, ','): items, a failed item stops it."""
        if not self.eat(start):
            return False
        if self.tok.kind != end:
            while True:
                if not item():
                    return False
                if not self.eat(","):
                    break
        return self.eat(end)

    def tile_dim(self) -> bool:
        if self.tok.kind == "int" and int(self.tok.text) < 0:
            raise _Negative(self.tok.start)  # XLA aborts on a negative tile dimension
        return self.eat("int") or self.eat("*")

    def level_type(self) -> bool:
        if self.tok.kind == "ident" and self.tok.text in ("D", "C", "S", "H"):
            self.i += 1
            self.eat("+")
            self.eat("~")
            return True
        return False

    def tiles(self) -> None:
        while self.int_list("(", ")", self.tile_dim) and self.tok.kind == "(":
            pass

    def int_attribute(self) -> None:
        _ = self.eat("(") and self.eat("int") and self.eat(")")

    def primitive(self) -> None:
        self.eat("(")
        self.eat("prim")
        self.eat(")")

    def split_configs(self) -> None:
        while self.eat("(") and self.eat("int"):
            if not self.int_list(":", ")", lambda: self.eat("int")) or self.tok.kind != "(":
                return

    def physical_shape(self) -> None:
        self.physical = True  # refused whatever follows: skip to the matching ')'
        depth = 0
        while self.tok.kind != "eof":
            depth += (self.tok.kind == "(") - (self.tok.kind == ")")
            self.i += 1
            if depth == 0:
                return

    def attributes(self) -> None:
        """The optional items after ':' (their errors do not stop XLA's parse)."""
        actions: dict[str, Callable[[], object]] = {
            "D": lambda: self.int_list("(", ")", self.level_type),
            "T": self.tiles,
            "L": self.int_attribute,
            "#": self.primitive,
            "*": self.primitive,
            "E": self.int_attribute,
            "S": self.int_attribute,
            "SC": self.split_configs,
            "P": self.physical_shape,
            "M": self.int_attribute,
        }
        for key in _ORDER:
            if self.tok.kind == key or (self.tok.kind == "ident" and self.tok.text == key):
                self.i += 1
                actions[key]()

    def parse(self) -> tuple[str, int] | None:
        self.eat("{")
        if self.tok.kind != "}":
            while self.tok.kind == "int":
                self.minor_to_major.append(int(self.tok.text))
                self.i += 1
                if not self.eat(","):
                    break
                if self.tok.kind != "int":
                    return f"expected an integer in layout, found {self.found()}", self.tok.start
            if self.eat(":"):
                self.attributes()
        if not self.eat("}"):
            return f"expected '}}' to end the layout, found {self.found()}", self.tok.start
        if self.tok.kind != "eof":
            return f"unexpected {self.found()} after the layout", self.tok.start
        if self.physical:
            return "a layout with a physical shape P(...) is only valid for sparse arrays", 0
        return None

    def found(self) -> str:
        return "the end of the layout" if self.tok.kind == "eof" else repr(self.tok.text)


def layout_problem(text: str) -> tuple[str, int] | None:
    """None if XLA's parser accepts the layout `text` (`{...}`), else (message, offset)."""
    try:
        return _LayoutParser(text).parse()
    except _Negative as e:
        return "tile dimensions must not be negative", e.offset


def minor_to_major(text: str) -> list[int]:
    """The minor-to-major entries of a layout that `layout_problem` accepted."""
    parser = _LayoutParser(text)
    parser.parse()
    return parser.minor_to_major
