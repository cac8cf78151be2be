"""Parsing helpers for tests, generators and tools: one neuron-cc context, one module parser."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser


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
