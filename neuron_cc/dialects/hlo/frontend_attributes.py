"""Reading XLA's `frontend_attributes` where ops keep them: the `xla.frontend_attributes`
string `{key="value", key2={{0,1},{1,2}}, key3=token}` (the importer checked its syntax).

Values are quoted strings (`"` or `'`; C escapes undone), balanced `{...}` texts (kept as written: JAX
prints `_xla_send_recv_source_target_pairs={{0,1},{1,2}}` unquoted) or bare tokens.
`send_recv_pairs` reads the source/target pairs of a send or recv, the one reading the
interpreter and `convert-hlo-to-bir` share.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

__all__ = [
    "FRONTEND_ATTRIBUTES",
    "SEND_RECV_PAIRS",
    "frontend_attributes",
    "parse_frontend_attributes",
    "send_recv_pairs",
]

FRONTEND_ATTRIBUTES = "xla.frontend_attributes"
SEND_RECV_PAIRS = "_xla_send_recv_source_target_pairs"
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'"}
_PAIR = re.compile(r"\{\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\}")


def _string(text: str, i: int, end: int) -> tuple[str, int]:
    """The string quoted by `text[i]` (`"` or `'`; escapes undone) and the index after it,
    within `text[:end]`."""
    out: list[str] = []
    quote = text[i]
    i += 1
    while i < end and text[i] != quote:
        if text[i] == "\\" and i + 1 < end:
            out.append(_ESCAPES.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(text[i])
            i += 1
    if i >= end:
        raise ValueError("unterminated string in frontend attributes")
    return "".join(out), i + 1


def _balanced(text: str, i: int, end: int) -> int:
    """The index after the `{...}` group starting at `text[i] == '{'` (strings skipped),
    within `text[:end]`."""
    depth = 0
    while i < end:
        c = text[i]
        if c in "\"'":
            _, i = _string(text, i, end)
            continue
        depth += (c == "{") - (c == "}")
        i += 1
        if depth == 0:
            return i
    raise ValueError("unbalanced braces in frontend attributes")


def parse_frontend_attributes(text: str) -> dict[str, str]:
    """`{k="v", k2={...}, k3=tok}` as `{k: v, k2: "{...}", k3: "tok"}`; ValueError if it is
    not of that form."""
    text = text.strip()
    if not (text.startswith("{") and text.endswith("}")):
        raise ValueError(f"frontend attributes '{text}' are not a '{{...}}' dictionary")
    items: dict[str, str] = {}
    i, end = 1, len(text) - 1
    while i < end:
        if text[i] in " \t\n,":
            i += 1
            continue
        eq = text.find("=", i, end)
        if eq < 0:
            raise ValueError(f"frontend attribute '{text[i:end].strip()}' has no '='")
        key = text[i:eq].strip()
        i = eq + 1
        while i < end and text[i] in " \t\n":
            i += 1
        if i < end and text[i] in "\"'":
            value, i = _string(text, i, end)
        elif i < end and text[i] == "{":
            start, i = i, _balanced(text, i, end)
            value = text[start:i]
        else:
            start = i
            while i < end and text[i] != ",":
                i += 1
            value = text[start:i].strip()
        items[key] = value
    return items


def frontend_attributes(op: Operation) -> dict[str, str]:
    """The frontend attributes of `op` (empty if it has none; ValueError if malformed)."""
    raw = op.attributes.get(FRONTEND_ATTRIBUTES)
    if not isinstance(raw, StringAttr):
        return {}
    return parse_frontend_attributes(raw.data)


def send_recv_pairs(op: Operation) -> list[tuple[int, int]] | None:
    """The `_xla_send_recv_source_target_pairs` of a send/recv (`{{0,1},{1,2}}`, quoted or
    not; also read from a discardable attribute of that name), or None if it has none.
    ValueError if the value is not a list of pairs."""
    direct = op.attributes.get(SEND_RECV_PAIRS)
    text = (
        direct.data
        if isinstance(direct, StringAttr)
        else frontend_attributes(op).get(SEND_RECV_PAIRS)
    )
    if text is None:
        return None
    pairs = _PAIR.findall(text)
    rest = _PAIR.sub("", text).replace(",", "").replace(" ", "")
    if rest not in ("{}", ""):
        raise ValueError(f"malformed {SEND_RECV_PAIRS} '{text}' (expected {{{{0,1}},{{1,2}}}})")
    return [(int(a), int(b)) for a, b in pairs]
