"""The records the HLO text parser builds (`parser.py`): instructions with raw attributes,
computations and the module, before the importer turns them into IR."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Attribute

__all__ = ["Computation", "HloModuleRecord", "Instruction"]


def _attr_positions() -> dict[str, int]:
    """A new, empty `Instruction.attr_pos`."""
    return {}


def _operand_shapes() -> dict[int, tuple[Attribute, int]]:
    """A new, empty `Instruction.operand_shapes`."""
    return {}


@dataclass(slots=True)
class Instruction:
    """One HLO instruction, attributes still raw."""

    name: str
    type: Attribute
    opcode: str
    operands: list[str | Instruction]
    attrs: dict[str, str]
    pos: int
    shape_text: str | None = None
    """The original shape text when some layout in it is not the default."""
    payload: str | None = None
    """The raw text between the parentheses of `constant(...)` / `parameter(N)`."""
    payload_pos: int = 0
    """The offset of `payload` in the module text."""
    # Plain factories: calling `dict[str, int]` costs several times a `{}` (an instruction
    # record is built per line of a module of 100k lines).
    attr_pos: dict[str, int] = field(default_factory=_attr_positions)
    """Attribute name -> offset of its value in the module text."""
    operand_shapes: dict[int, tuple[Attribute, int]] = field(default_factory=_operand_shapes)
    """Operand index -> (declared type, offset) of operands written with a shape, `f32[4] %a`."""


@dataclass
class Computation:
    name: str
    instructions: list[Instruction]
    root: Instruction
    is_entry: bool
    pos: int
    params: dict[int, Instruction] = field(default_factory=dict[int, Instruction])
    execution_thread: str | None = None
    """`}, execution_thread="t"` after the body (absent: XLA's main thread)."""


@dataclass
class HloModuleRecord:
    name: str
    header: list[tuple[str, str]]
    sections: str | None
    computations: dict[str, Computation]
    entry: Computation
    header_pos: list[int] = field(default_factory=list[int])
    """The offset of each header value in the module text."""
