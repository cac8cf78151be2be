"""Small IR builders of the hlo dialect that passes and the SPMD creator share."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, Region

from neuron_cc.dialects.hlo.control_flow import ReturnOp


def build_reduction_region(kind: str, element: Attribute) -> Region:
    """A fresh region `^bb0(%a, %b): %c = <kind> %a, %b; hlo.return %c` at `element`."""
    from neuron_cc.dialects.hlo import HLO  # the package imports this module's siblings

    scalar = TensorType(element, [])
    block = Block(arg_types=[scalar, scalar])
    op_class = next(op for op in HLO.operations if op.name == kind)
    combine = op_class.create(operands=list(block.args), result_types=[scalar])
    block.add_ops([combine, ReturnOp.create(operands=[combine.results[0]])])
    return Region(block)
