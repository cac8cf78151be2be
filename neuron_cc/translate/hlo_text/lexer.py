"""A small, fast cursor over XLA HLO text (no token list: values are scanned lazily).

The HLO grammar needs only a handful of token kinds (names, integers, strings, punctuation);
attribute values are captured as raw text by bracket-balanced scanning and parsed on demand
by `attrs.py`, so long `metadata={...}` values never go through a Python token loop.
"""

from __future__ import annotations

import re
from typing import NoReturn

_WS = re.compile(r"(?:\s+|/\*.*?\*/|//[^\n]*)*", re.S)
_COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:[^"\\]|\\.)*"', re.S)
_NAME = re.compile(r"%?([A-Za-z_][A-Za-z0-9_.\-]*)")
_INT = re.compile(r"-?[0-9]+")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
# Runs of characters that cannot open, close or end a raw value, or a whole string literal.
_RAW_CHUNK = re.compile(r'[^(){}\[\]",\n]+|"(?:[^"\\]|\\.)*"', re.S)
_OPEN = {"(": ")", "{": "}", "[": "]"}
# The common attribute values in one match: runs of plain characters, string literals and
# bracket groups nested at most two deep (`metadata={op_name="a/b" ...}`, `{{0,1},{2,3}}`).
# Each character admits one reading only, so possessive quantifiers (no backtracking) match
# what plain ones would; each level is written "plain run, then (item, plain run) repeated".
_STR = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
_PLAIN1 = r'[^(){}\[\]"]*+'
_PLAIN0 = r'[^(){}\[\]",\n]*+'
_GROUP1 = rf"(?:\{{{_PLAIN1}(?:{_STR}{_PLAIN1})*+\}}|\[{_PLAIN1}\]|\({_PLAIN1}\))"
_GROUP2 = (
    rf"(?:\{{{_PLAIN1}(?:(?:{_STR}|{_GROUP1}){_PLAIN1})*+\}}|\[{_PLAIN1}(?:{_GROUP1}{_PLAIN1})*+\])"
)
SIMPLE_VALUE = rf"{_PLAIN0}(?:(?:{_STR}|{_GROUP2}){_PLAIN0})*+"
"""A raw attribute value without deeper nesting (see `Cursor.raw_value`), as a pattern."""
_SIMPLE_VALUE = re.compile(SIMPLE_VALUE, re.S)
_VALUE_END = frozenset(",)}\n")
_MAY_SKIP = frozenset(" \t\n\r\f\v/")


class HloParseError(Exception):
    """A malformed or unsupported HLO input, with the offset where it was found."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


class Cursor:
    """Position in the HLO text, with skip/expect helpers and located errors."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def error(self, message: str, pos: int | None = None) -> NoReturn:
        raise HloParseError(message, self.pos if pos is None else pos)

    def skip(self) -> None:
        pos = self.pos
        if self.text[pos : pos + 1] not in _MAY_SKIP:  # most calls: nothing to skip
            return
        m = _WS.match(self.text, pos)
        if m is not None:
            self.pos = m.end()

    def at_end(self) -> bool:
        self.skip()
        return self.pos >= len(self.text)

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos : self.pos + 1]

    def startswith(self, s: str) -> bool:
        self.skip()
        return self.text.startswith(s, self.pos)

    def accept(self, s: str) -> bool:
        self.skip()
        if self.text.startswith(s, self.pos):
            self.pos += len(s)
            return True
        return False

    def expect(self, s: str, what: str | None = None) -> None:
        if not self.accept(s):
            found = self.text[self.pos : self.pos + 12].split("\n")[0]
            self.error(f"expected '{s}'{' ' + what if what else ''}, found '{found}'")

    def name(self, what: str = "a name") -> str:
        """An identifier, with an optional leading `%` (which is dropped)."""
        self.skip()
        m = _NAME.match(self.text, self.pos)
        if m is None:
            found = self.text[self.pos : self.pos + 12].split("\n")[0]
            self.error(f"expected {what}, found '{found}'")
        self.pos = m.end()
        return m.group(1)

    def optional_name(self) -> str | None:
        self.skip()
        m = _NAME.match(self.text, self.pos)
        if m is None:
            return None
        self.pos = m.end()
        return m.group(1)

    def integer(self) -> int:
        self.skip()
        m = _INT.match(self.text, self.pos)
        if m is None:
            self.error("expected an integer")
        self.pos = m.end()
        return int(m.group(0))

    def string(self) -> str:
        """A double-quoted string literal, unescaped."""
        self.skip()
        m = _STRING.match(self.text, self.pos)
        if m is None:
            self.error("expected a string literal")
        self.pos = m.end()
        return unescape(m.group(0)[1:-1])

    def raw_value(self) -> str:
        """Raw text up to the next `,` / `)` / `}` / newline at bracket depth 0."""
        self.skip()
        text, start = self.text, self.pos
        m = _SIMPLE_VALUE.match(text, start)  # always matches (possibly empty)
        end = m.end() if m is not None else start
        if end == len(text) or text[end] in _VALUE_END:
            return self._finish_raw(start, end)
        return self._finish_raw(start, self._scan_raw(start))

    def _scan_raw(self, start: int) -> int:
        """The end of a raw attribute value with nested brackets and strings."""
        text = self.text
        pos, stack = start, []
        while pos < len(text):
            m = _RAW_CHUNK.match(text, pos)
            if m is not None:
                pos = m.end()
                continue
            c = text[pos]
            if c == '"':  # _RAW_CHUNK matches every terminated string
                self.error("unterminated string in attribute value", pos)
            if c in _OPEN:
                stack.append(_OPEN[c])
            elif c in ")}]":
                if not stack:
                    break
                if stack.pop() != c:
                    self.error(f"unbalanced '{c}' in attribute value", pos)
            elif not stack:  # ',' or newline at depth 0
                break
            pos += 1
        if stack:
            self.error("unterminated attribute value", start)
        return pos

    def _finish_raw(self, start: int, end: int) -> str:
        self.pos = end
        return clean_raw(self.text[start:end])

    def line_col(self, pos: int) -> tuple[int, int]:
        line = self.text.count("\n", 0, pos) + 1
        col = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return line, col


def clean_raw(raw: str) -> str:
    """A raw value's text without comments (outside string literals) and surrounding
    whitespace."""
    if "//" in raw or "/*" in raw:
        raw = _COMMENT.sub(lambda m: m.group(0) if m.group(0)[0] == '"' else "", raw)
    return raw.strip()


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'", "r": "\r"}


def unescape(body: str) -> str:
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)
