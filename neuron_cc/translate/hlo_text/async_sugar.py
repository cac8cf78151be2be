"""XLA's syntax sugar for async computations, undone at parse time.

XLA prints an `async-start` whose computation wraps one instruction as `<opcode>-start` with
that instruction's attributes (`custom-call-start(%p), custom_call_target="foo"`), and the
matching `async-update` / `async-done` as `<opcode>-update` / `<opcode>-done`. `desugar`
turns such a start into `async-start(...), calls=%<name>.wrapped` plus the wrapped computation
(its parameters are the operands, typed by element 0 of the start's shape; its ROOT is the
instruction, typed by element 1; its execution thread is the start's), and updates/dones into `async-update`/`async-done`. A done or
update whose opcode does not match its start's is an error, as in XLA.

`<opcode>-start` is sugar unless it is an opcode of its own: `all-reduce-start`,
`all-gather-start`, `collective-permute-start`, `copy-start` (and their `-done`), `send-done`,
`recv-done`.
"""

from __future__ import annotations

from collections.abc import Callable

from neuron_cc.dialects.hlo.types import tuple_elements
from neuron_cc.translate.hlo_text.parser_records import Computation, Instruction

__all__ = ["check_async_callers", "desugar"]

_OWN_OPCODES = frozenset({"all-reduce", "all-gather", "collective-permute", "copy", "send", "recv"})
_SUFFIXES = ("-start", "-update", "-done")
_THREAD = "async_execution_thread"


def _sugar(opcode: str) -> tuple[str, str] | None:
    """(wrapped opcode, "start" | "update" | "done") of a sugared async opcode, else None."""
    if not opcode.endswith(_SUFFIXES):  # most opcodes
        return None
    for suffix in _SUFFIXES:
        base = opcode.removesuffix(suffix)
        if base != opcode and base not in _OWN_OPCODES and base != "async":
            return base, suffix[1:]
    return None


def desugar(
    comp: Computation, unique: Callable[[str], str], error: Callable[[str, int], None]
) -> list[Computation]:
    """Rewrite the sugared async ops of `comp` in place; return the wrapped computations
    (named by `unique`); `error(message, pos)` reports a mismatch."""
    wrapped: list[Computation] = []
    starts: dict[str, tuple[str, str]] = {}
    """Start or update name -> (wrapped opcode, wrapped computation)."""
    for inst in comp.instructions:
        sugar = _sugar(inst.opcode)
        if sugar is None:
            continue
        base, kind = sugar
        thread = inst.attrs.get(_THREAD)
        if kind == "start":
            name = unique(f"{inst.name}.wrapped")
            wrapped.append(_wrapped(inst, base, name, error))
            wrapped[-1].execution_thread = _unquoted(thread)
            inst.attrs = {"calls": name} | ({_THREAD: thread} if thread is not None else {})
            inst.opcode = "async-start"
            starts[inst.name] = (base, name)
            continue
        handle = inst.operands[0] if len(inst.operands) == 1 else None
        start = starts.get(handle) if isinstance(handle, str) else None
        if start is None:
            error(f"{inst.opcode} must take the result of a {base}-start or -update", inst.pos)
            return wrapped
        if start[0] != base:
            error(f"{inst.opcode} continues a {start[0]}-start, not a {base}-start", inst.pos)
        inst.opcode = f"async-{kind}"
        inst.attrs = {_THREAD: thread} if thread is not None else {}
        if kind == "update":
            starts[inst.name] = start
    return wrapped


def _unquoted(raw: str | None) -> str | None:
    if raw is None:
        return None
    text = raw.strip()
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text


def _wrapped(
    start: Instruction, base: str, name: str, error: Callable[[str, int], None]
) -> Computation:
    elements = tuple_elements(start.type)
    if len(elements) < 2:
        error(f"{start.opcode} must have the shape ((operands...), result, context...)", start.pos)
    operands = tuple_elements(elements[0])
    if len(operands) != len(start.operands):
        error(
            f"{start.opcode} has {len(start.operands)} operands but its shape names {len(operands)}",
            start.pos,
        )
    params = [
        Instruction(f"{name}.param.{k}", t, "parameter", [], {}, start.pos, None, str(k))
        for k, t in enumerate(operands)
    ]
    attrs = {k: v for k, v in start.attrs.items() if k != _THREAD}
    root = Instruction(
        f"{name}.root",
        elements[1],
        base,
        [p.name for p in params],
        attrs,
        start.pos,
        attr_pos=dict(start.attr_pos),
    )
    return Computation(name, [*params, root], root, False, start.pos, dict(enumerate(params)))


def check_async_callers(
    computations: dict[str, Computation], error: Callable[[str, int], None]
) -> None:
    """Every computation is the `calls=` of at most one async-start (XLA's rule)."""
    callers: dict[str, Instruction] = {}
    for comp in computations.values():
        for inst in comp.instructions:
            if inst.opcode != "async-start" or "calls" not in inst.attrs:
                continue
            name = inst.attrs["calls"].strip().removeprefix("%")
            if name in callers:
                error(f"computation {name} is called by more than one async op", inst.pos)
            callers[name] = inst
