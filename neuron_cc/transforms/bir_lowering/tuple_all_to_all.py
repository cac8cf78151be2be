"""Tuple-form all_to_all: one AllToAll node over the operands stacked along a new dimension.

hlo's tuple form sends operand j of every device to the group's rank-j member and returns, as
element j, what rank j sent (all operands have one type T, one per member). That is the array
form over the stack of the operands: reshape each operand to [1, *T] (`hlo.reshape`),
`hlo.concatenate` them along dimension 0 into [n, *T], one collective_compute kind=AllToAll with
split = concat dimension 0 and split_count n, then `hlo.slice` row j back out and reshape it to
T. The node's access patterns are the array form's (chunked over dimension 0 on both sides);
the reshapes and slices are data movement around the one node.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, TensorType, TupleType
from xdsl.ir import Attribute, Operation, SSAValue

from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.collectives import AllToAllOp
from neuron_cc.dialects.hlo.control_flow import TupleOp
from neuron_cc.dialects.hlo.data_movement import ConcatenateOp, ReshapeOp, SliceOp
from neuron_cc.transforms.bir_lowering.common import Builder, Plan, all_to_all_spec, tensor_of


def _reshape(value: SSAValue, t: Attribute) -> ReshapeOp:
    return ReshapeOp.create(operands=[value], result_types=[t])


def plan_tuple_all_to_all(op: AllToAllOp, builder: Builder) -> Plan:
    """Stack, one AllToAll node, unstack (module docstring)."""
    operands = list(op.operands)
    t = tensor_of(operands[0])
    n = len(operands)
    shape = list(t.get_shape())
    row: TensorType[Attribute] = TensorType(t.element_type, [1, *shape])
    stacked: TensorType[Attribute] = TensorType(t.element_type, [n, *shape])
    rows = [_reshape(v, row) for v in operands]
    concat = ConcatenateOp.create(
        operands=[r.result for r in rows],
        result_types=[stacked],
        properties={"dimension": IntegerAttr(0, 64)},
    )
    node = builder.build(op, all_to_all_spec(op, 0), inputs=[concat.result], result_types=[stacked])
    ops: list[Operation] = [*rows, concat, node]
    parts: list[SSAValue] = []
    for j in range(n):
        start = DimensionsAttr((j, *[0] * len(shape)))
        limit = DimensionsAttr((j + 1, *shape))
        strides = DimensionsAttr((1,) * (len(shape) + 1))
        piece = SliceOp.create(
            operands=[node.results[0]],
            result_types=[row],
            properties={"start_indices": start, "limit_indices": limit, "strides": strides},
        )
        back = _reshape(piece.result, t)
        ops += [piece, back]
        parts.append(back.result)
    value = parts[0]
    if isinstance(op.result.type, TupleType):
        tup = TupleOp(parts)
        ops.append(tup)
        value = tup.result
    return Plan(inserts=[(op, ops)], replace=[(op.result, value)], erase=[op])
