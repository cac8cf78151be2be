"""The one builder of hand-written while loops for tests: the `hlo.while` skeleton in the
project's MLIR text form, around the lines a test cares about.

A test states the slots of the loop tuple, the body (and, when it is not the default counter,
the condition) as MLIR text lines that read slot k as `names[k]` (`%s0`, `%s1`, ... unless
given), and the value every slot takes next (`yields`). `WhileLoop.text(init)` writes

    %w = hlo.while(<init>) : tuple<...> condition {
    ^bb0(%c: tuple<...>):
      <a get_tuple_element for every slot the condition names>
      <condition lines, defining %p (`predicate`)>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%b: tuple<...>):
      <a get_tuple_element for every slot the body or the yields name (or `body_reads`)>
      <body lines>
      %next = hlo.tuple <yields> : tuple<...>
      hlo.return %next : tuple<...>
    }

Only the slots a region names are read in it, so a region holds no dead get_tuple_element.
The block arguments `%c` and `%b` can be renamed (`arguments`), e.g. for a loop nested in the
body of another, which then also needs its own slot `names`. A `bare` loop carries its one
slot as is, not in a 1-tuple.
`counted(n)` is the usual condition: slot 0 (an s32 counter) < n. `module_text` wraps
functions in a `builtin.module` with the mesh attributes.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["WhileLoop", "counted", "module_text", "tuple_type"]


def tuple_type(slots: Sequence[str]) -> str:
    """`tuple<slot0, slot1, ...>`."""
    return f"tuple<{', '.join(slots)}>"


def counted(trips: int, counter: str = "%s0", element: str = "i32", direction: str = "LT") -> str:
    """The condition `counter <direction> trips` (defining `%p`) over a scalar counter slot."""
    return (
        f"%bound = hlo.constant dense<{trips}> : tensor<{element}>\n"
        f"%p = hlo.compare {direction}, {counter}, %bound : tensor<{element}> -> tensor<i1>"
    )


def _reads(text: str, names: Sequence[str]) -> list[int]:
    """The slots whose name `text` mentions (as a whole SSA name), in slot order."""
    return [k for k, name in enumerate(names) if re.search(re.escape(name) + r"(?![\w$.-])", text)]


@dataclass(frozen=True)
class WhileLoop:
    """One `hlo.while` over a tuple of `slots` (MLIR type strings)."""

    slots: Sequence[str]
    body: str
    """Body lines; slot k is `names[k]` (the builder defines `%next`, the next tuple)."""
    yields: Sequence[str]
    """The next value of every slot (SSA names of the body or slot names)."""
    condition: str = field(default_factory=lambda: counted(4))
    """Condition lines defining `predicate : tensor<i1>`; slot k is `names[k]`."""
    names: Sequence[str] = ()
    """The SSA name of every slot in both regions (default `%s0`, `%s1`, ...)."""
    arguments: tuple[str, str] = ("%c", "%b")
    """The block argument of the condition and of the body (rename them when `%c` or `%b`
    is already in scope: a captured value, or the body argument of an enclosing loop)."""
    predicate: str = "%p"
    """The value the condition lines define and the condition returns (`counted` defines
    `%p`)."""
    body_reads: Sequence[int] = ()
    """Slots the body reads though it names them nowhere (a dead get_tuple_element, e.g. one
    a test looks up by name)."""
    bare: bool = False
    """Carry the one slot itself, not a 1-tuple: the block arguments are the slot (no
    get_tuple_element, `names` unused) and the body returns `yields[0]`."""

    def __post_init__(self) -> None:
        if len(self.yields) != len(self.slots):
            raise ValueError(f"{len(self.yields)} yields for {len(self.slots)} slots")
        if self.names and len(self.names) != len(self.slots):
            raise ValueError(f"{len(self.names)} names for {len(self.slots)} slots")
        if any(not 0 <= k < len(self.slots) for k in self.body_reads):
            raise ValueError(f"body_reads {list(self.body_reads)} outside {len(self.slots)} slots")
        if self.bare and len(self.slots) != 1:
            raise ValueError(f"a bare loop carries 1 slot, not {len(self.slots)}")

    @property
    def type(self) -> str:
        """The carried type: the tuple of the slots (the slot itself when `bare`)."""
        return self.slots[0] if self.bare else tuple_type(self.slots)

    @property
    def slot_names(self) -> list[str]:
        """The SSA name of every slot: `names`, or `%s0`, `%s1`, ..."""
        return list(self.names) or [f"%s{k}" for k in range(len(self.slots))]

    def _region(self, arg: str, lines: str, mentions: str, also: Sequence[int] = ()) -> list[str]:
        names, t = self.slot_names, self.type
        slots = [] if self.bare else sorted({*_reads(mentions, names), *also})
        reads = [f"{names[k]} = hlo.get_tuple_element {arg}[{k}] : {t}" for k in slots]
        return [f"^bb0({arg}: {t}):", *reads, *textwrap.dedent(lines).strip("\n").splitlines()]

    def text(self, init: str, result: str = "%w", indent: int = 4) -> str:
        """The loop as MLIR text lines indented by `indent` spaces (no trailing newline)."""
        t = self.type
        condition_arg, body_arg = self.arguments
        condition = self._region(condition_arg, self.condition, self.condition)
        condition.append(f"hlo.return {self.predicate} : tensor<i1>")
        yields = ", ".join(self.yields)
        body = self._region(body_arg, self.body, self.body + "\n" + yields, self.body_reads)
        if self.bare:
            body.append(f"hlo.return {yields} : {t}")
        else:
            body += [f"%next = hlo.tuple {yields} : {t}", f"hlo.return %next : {t}"]
        lines = [
            f"{result} = hlo.while({init}) : {t} condition {{",
            condition[0],
            *(f"  {line.rstrip()}" if line.strip() else "" for line in condition[1:]),
            "} body {",
            body[0],
            *(f"  {line.rstrip()}" if line.strip() else "" for line in body[1:]),
            "}",
        ]
        return "\n".join(" " * indent + line if line else "" for line in lines)


def module_text(
    *functions: str,
    partitions: int | None = None,
    replicas: int | None = None,
    spmd: bool = False,
) -> str:
    """`builtin.module` around `functions`, with `hlo.num_partitions`/`hlo.num_replicas`
    (and `hlo.use_spmd_partitioning`) when given."""
    attrs: list[str] = []
    if partitions is not None:
        attrs.append(f"hlo.num_partitions = {partitions} : i64")
    if replicas is not None:
        attrs.append(f"hlo.num_replicas = {replicas} : i64")
    if spmd:
        attrs.append("hlo.use_spmd_partitioning")
    header = f"builtin.module attributes {{{', '.join(attrs)}}}" if attrs else "builtin.module"
    return header + " {\n" + "\n".join(functions) + "\n}\n"
