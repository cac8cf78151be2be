"""Reduction regions (`to_apply`): recognising the common ones and building them.

A "simple" reducer computes `op(arg0, arg1)` (either order) with op one of add, multiply,
maximum, minimum, and, or, xor and returns it. Passes use `reduction_kind` to rebuild a reducer
at another element type; the interpreter uses it to run reductions as numpy ufuncs.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, Region

SIMPLE_REDUCERS = (
    "hlo.add",
    "hlo.multiply",
    "hlo.maximum",
    "hlo.minimum",
    "hlo.and",
    "hlo.or",
    "hlo.xor",
)


def reduction_kind(region: Region) -> str | None:
    """The op name of a region computing `op(arg0, arg1)` (either order), else None."""
    block = region.blocks.first
    if block is None or len(block.args) != 2:
        return None
    ops = list(block.ops)
    if len(ops) != 2 or ops[0].name not in SIMPLE_REDUCERS:
        return None
    combine, ret = ops
    if ret.name != "hlo.return" or list(ret.operands) != [combine.results[0]]:
        return None
    if set(combine.operands) != set(block.args) or len(set(combine.operands)) != 2:
        return None
    return combine.name


def build_reduction_region(kind: str, element: Attribute) -> Region:
    """A fresh region `^bb0(%a, %b): %c = <kind> %a, %b; hlo.return %c` at `element`."""
    from neuron_cc.dialects.hlo import HLO
    from neuron_cc.dialects.hlo.control_flow import ReturnOp

    scalar = TensorType(element, [])
    block = Block(arg_types=[scalar, scalar])
    op_class = next(op for op in HLO.operations if op.name == kind)
    combine = op_class.create(operands=list(block.args), result_types=[scalar])
    block.add_ops([combine, ReturnOp.create(operands=[combine.results[0]])])
    return Region(block)
