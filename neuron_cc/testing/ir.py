"""Parsing helpers for tests, generators and tools: one neuron-cc context, one module parser."""

from __future__ import annotations

import re

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser

from neuron_cc.dialects.hlo.control_flow import WhileOp


def neuron_context() -> Context:
    """A context with every dialect neuron-opt knows (hlo, bir, func, builtin, ...)."""
    from neuron_cc.tools.driver import tool_context

    return tool_context()


def parse_module(text: str, verify: bool = True, ctx: Context | None = None) -> ModuleOp:
    """Parse .mlir text (pretty or generic) into a module, verified unless told otherwise."""
    module = Parser(ctx or neuron_context(), text).parse_module()
    if verify:
        module.verify()
    return module


def module_text(body: str, num_replicas: int, num_partitions: int) -> str:
    """Wrap `body` in a `builtin.module` carrying the device mesh attributes."""
    return (
        f"builtin.module attributes {{hlo.num_partitions = {num_partitions} : i64, "
        f"hlo.num_replicas = {num_replicas} : i64}} {{\n{body}\n}}"
    )


def lit_modules(text: str) -> dict[str, str]:
    """Module name -> chunk text for every `// -----` chunk of a `--split-input-file` lit file
    that defines a `builtin.module @name` (chunks without one are skipped)."""
    found: dict[str, str] = {}
    for chunk in text.split("\n// -----\n"):
        match = re.search(r"^builtin\.module @(\w+)", chunk, re.MULTILINE)
        if match is not None:
            found[match.group(1)] = chunk
    return found


def inside_while(op: Operation) -> bool:
    """`op` has an enclosing `hlo.while` (at any depth)."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, WhileOp):
            return True
        parent = parent.parent_op()
    return False


def ops_in_loops(module: Operation, kinds: tuple[type[Operation], ...]) -> list[Operation]:
    """The ops of `kinds` in `module` that are inside some `hlo.while`, in walk order."""
    return [op for op in module.walk() if isinstance(op, kinds) and inside_while(op)]
