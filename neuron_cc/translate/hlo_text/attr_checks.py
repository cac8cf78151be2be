"""XLA's parser rules for instruction attributes the importer keeps as text (`xla.<key>`).

XLA's parser knows, per opcode, which attributes an instruction takes; we keep the ones we do
not model as text for the round trip, so these checks refuse what XLA refuses:
- an attribute naming called computations on an opcode that takes none of that kind
  (`calls=` on a send: "unexpected attribute");
- `control-predecessors` naming an instruction the computation does not define;
- `parameter_replication` with another count than the parameter's leaf buffers;
- a custom call's `operand_layout_constraints`: one shape per operand, each with the operand's
  element type and dimensions (XLA: "not compatible with operand shape").
"""

from __future__ import annotations

from collections.abc import Container, Sequence

from xdsl.dialects.builtin import TensorType, TupleType
from xdsl.ir import Attribute

from neuron_cc.translate.hlo_text.attrs import AttrError, computation_names
from neuron_cc.translate.hlo_text.parser_records import Instruction

_CALLERS: dict[str, frozenset[str]] = {
    "calls": frozenset({"fusion", "async-start", "async-update", "async-done", "call"}),
    "to_apply": frozenset(
        {
            "call",
            "map",
            "reduce",
            "reduce-window",
            "reduce-scatter",
            "all-reduce",
            "all-reduce-start",
            "scatter",
            "sort",
            "scan",
        }
    ),
    "condition": frozenset({"while"}),
    "body": frozenset({"while"}),
    "branch_computations": frozenset({"conditional"}),
    "true_computation": frozenset({"conditional"}),
    "false_computation": frozenset({"conditional"}),
    "called_computations": frozenset({"custom-call"}),
}
"""Attribute naming computations -> the opcodes that take it."""


def leaf_count(t: Attribute) -> int:
    """The number of array (and token) leaves of a shape."""
    if isinstance(t, TupleType):
        return sum(leaf_count(e) for e in t.types.data)
    return 1


def check_record_attrs(inst: Instruction, defined: Container[str]) -> tuple[str, str] | None:
    """The first attribute of `inst` XLA's parser refuses, as (key, message); `defined` are
    the instruction names of its computation."""
    for key in inst.attrs:
        callers = _CALLERS.get(key)
        if callers is not None and inst.opcode not in callers:
            return key, f"unexpected attribute '{key}' for {inst.opcode}"
    raw = inst.attrs.get("control-predecessors")
    if raw is not None:
        for name in _names(raw):
            if name not in defined:
                return "control-predecessors", f"control predecessor '{name}' is not defined"
    raw = inst.attrs.get("parameter_replication")
    if raw is not None and inst.opcode == "parameter":
        entries = [e for e in raw.strip().strip("{}").split(",") if e.strip()]
        leaves = leaf_count(inst.type)
        if len(entries) != leaves:
            return (
                "parameter_replication",
                f"parameter has {leaves} leaf buffers, but parameter_replication has "
                f"{len(entries)} elements",
            )
    return None


def _names(raw: str) -> list[str]:
    body = raw.strip()
    if body in ("{}", ""):
        return []
    return computation_names(raw)


def check_operand_layout_constraints(
    constraints: Sequence[Attribute], operands: Sequence[Attribute]
) -> None:
    """A custom call's layout constraints against its operand types (AttrError if wrong)."""
    if len(constraints) != len(operands):
        raise AttrError(
            f"Expected {len(operands)} operand layout constraints, {len(constraints)} given"
        )
    for k, (shape, operand) in enumerate(zip(constraints, operands, strict=True)):
        if not _compatible(shape, operand):
            raise AttrError(f"operand {k} is not compatible with operand shape")


def _compatible(a: Attribute, b: Attribute) -> bool:
    if isinstance(a, TupleType) and isinstance(b, TupleType):
        return len(a.types) == len(b.types) and all(
            _compatible(x, y) for x, y in zip(a.types.data, b.types.data, strict=True)
        )
    if isinstance(a, TensorType) and isinstance(b, TensorType):
        return a.element_type == b.element_type and a.get_shape() == b.get_shape()
    return a == b
