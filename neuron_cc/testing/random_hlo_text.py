"""A parser for the HLO text that `random_hlo` writes (and hand-minimised variants of it).

It reads the regular subset the generator emits: one instruction per line
`[ROOT] name = TYPE opcode(operands)[, key=value]*`, computations `name {` ... `}` (the entry
`ENTRY name {`), array types `f32[2,4]` (a layout `{1,0}` is skipped) and flat tuple types. It is
independent of the project's HLO importer so that the numpy reference built on it can arbitrate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


class HloSubsetError(ValueError):
    """Text outside the subset this parser reads."""


@dataclass(frozen=True)
class ArrayType:
    dtype: str
    shape: tuple[int, ...]

    def text(self) -> str:
        return f"{self.dtype}[{','.join(map(str, self.shape))}]"


@dataclass(frozen=True)
class HloType:
    """An array type, or a (flat) tuple of array types."""

    leaves: tuple[ArrayType, ...]
    is_tuple: bool

    @property
    def array(self) -> ArrayType:
        if self.is_tuple:
            raise HloSubsetError("expected an array type, got a tuple")
        return self.leaves[0]

    def text(self) -> str:
        if self.is_tuple:
            return "(" + ", ".join(leaf.text() for leaf in self.leaves) + ")"
        return self.leaves[0].text()


@dataclass(frozen=True)
class Instr:
    name: str
    type: HloType
    opcode: str
    operands: tuple[str, ...]
    literal: str
    """The text between the parentheses of a `constant(...)`."""
    attrs: dict[str, str] = field(default_factory=dict[str, str])
    root: bool = False


@dataclass(frozen=True)
class Computation:
    name: str
    instrs: tuple[Instr, ...]

    @property
    def root(self) -> Instr:
        roots = [i for i in self.instrs if i.root]
        return roots[0] if roots else self.instrs[-1]

    def parameters(self) -> list[Instr]:
        params = [i for i in self.instrs if i.opcode == "parameter"]
        return sorted(params, key=lambda i: int(i.literal))


@dataclass(frozen=True)
class Module:
    name: str
    replicas: int
    partitions: int
    computations: dict[str, Computation]
    entry: str

    @property
    def entry_computation(self) -> Computation:
        return self.computations[self.entry]


_ARRAY = re.compile(r"([a-z]+[0-9]*)\[([0-9,]*)\](?:\{[0-9,]*\})?")
_HEADER = re.compile(r"HloModule\s+([\w.\-]+)(.*)")
_COMP = re.compile(r"(ENTRY\s+)?%?([\w.\-]+)\s*(?:\([^)]*\)\s*->\s*.*)?\{$")


def _split_top(text: str) -> list[str]:
    """Split at commas outside any bracket."""
    parts: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch in "{[(":
            depth += 1
        elif ch in "}])":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return parts


def _matching(text: str, start: int) -> int:
    """Index of the bracket closing the one at `start`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "({[":
            depth += 1
        elif text[i] in ")}]":
            depth -= 1
            if depth == 0:
                return i
    raise HloSubsetError(f"unbalanced brackets in {text!r}")


def parse_array_type(text: str) -> ArrayType:
    m = _ARRAY.fullmatch(text.strip())
    if m is None:
        raise HloSubsetError(f"not an array type: {text!r}")
    dims = tuple(int(d) for d in m.group(2).split(",") if d)
    return ArrayType(m.group(1), dims)


def _parse_type(text: str) -> tuple[HloType, str]:
    """The type at the start of `text` and the rest of the text."""
    text = text.lstrip()
    if text.startswith("("):
        end = _matching(text, 0)
        leaves = tuple(parse_array_type(t) for t in _split_top(text[1:end]))
        return HloType(leaves, True), text[end + 1 :]
    m = _ARRAY.match(text)
    if m is None:
        raise HloSubsetError(f"no type at {text[:40]!r}")
    return HloType((parse_array_type(m.group(0)),), False), text[m.end() :]


def _parse_attrs(text: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    for part in _split_top(text):
        key, _, value = part.partition("=")
        attrs[key.strip()] = value.strip()
    return attrs


def parse_instruction(line: str) -> Instr:
    root = line.startswith("ROOT ")
    body = line[5:] if root else line
    name, eq, rest = body.partition("=")
    if not eq:
        raise HloSubsetError(f"not an instruction: {line!r}")
    hlo_type, rest = _parse_type(rest)
    m = re.match(r"\s*([a-z][a-z\-]*)\(", rest)
    if m is None:
        raise HloSubsetError(f"no opcode in {line!r}")
    opcode = m.group(1)
    close = _matching(rest, m.end() - 1)
    inside = rest[m.end() : close]
    after = rest[close + 1 :].lstrip()
    attrs = _parse_attrs(after[1:]) if after.startswith(",") else {}
    is_literal = opcode in ("constant", "parameter")
    operands = () if is_literal else tuple(o.lstrip("%") for o in _split_top(inside))
    return Instr(
        name.strip().lstrip("%"),
        hlo_type,
        opcode,
        operands,
        inside.strip() if is_literal else "",
        attrs,
        root,
    )


def render_instruction(instr: Instr) -> str:
    """The line of an instruction (what parse_instruction reads)."""
    inside = (
        instr.literal if instr.opcode in ("constant", "parameter") else ", ".join(instr.operands)
    )
    attrs = "".join(f", {k}={v}" for k, v in instr.attrs.items())
    root = "ROOT " if instr.root else ""
    return f"  {root}{instr.name} = {instr.type.text()} {instr.opcode}({inside}){attrs}"


def _header(line: str) -> tuple[str, int, int]:
    m = _HEADER.match(line)
    if m is None:
        raise HloSubsetError(f"expected an HloModule header, got {line!r}")
    attrs = _parse_attrs(m.group(2).lstrip(", "))
    return m.group(1), int(attrs.get("replica_count", "1")), int(attrs.get("num_partitions", "1"))


def parse_module(text: str) -> Module:
    lines = [ln.strip() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("//")]
    name, replicas, partitions = _header(lines[0])
    computations: dict[str, Computation] = {}
    entry = ""
    current: tuple[str, list[Instr]] | None = None
    for line in lines[1:]:
        if line == "}":
            if current is None:
                raise HloSubsetError("unmatched '}'")
            computations[current[0]] = Computation(current[0], tuple(current[1]))
            current = None
            continue
        m = _COMP.match(line)
        if m is not None and current is None:
            current = (m.group(2), [])
            entry = m.group(2) if m.group(1) else entry
            continue
        if current is None:
            raise HloSubsetError(f"instruction outside a computation: {line!r}")
        current[1].append(parse_instruction(line))
    if not entry:
        raise HloSubsetError("no ENTRY computation")
    return Module(name, replicas, partitions, computations, entry)


def int_list(text: str) -> list[int]:
    """`{1,0}` -> [1, 0]."""
    return [int(x) for x in text.strip("{} ").split(",") if x.strip()]


def slice_spec(text: str) -> list[tuple[int, int, int]]:
    """`{[0:2], [1:5:2]}` -> [(0, 2, 1), (1, 5, 2)]."""
    specs: list[tuple[int, int, int]] = []
    for part in re.findall(r"\[([^\]]*)\]", text):
        nums = [int(x) for x in part.split(":")]
        specs.append((nums[0], nums[1], nums[2] if len(nums) > 2 else 1))
    return specs
