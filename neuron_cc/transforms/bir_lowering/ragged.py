"""AllToAllV from hlo ragged_all_to_all.

`ragged_all_to_all(input, output, input_offsets, send_sizes, output_offsets, recv_sizes)`
becomes one collective_compute kind=AllToAllV(input, output) with the replica groups
(flattened), `stream_id` 0 and the four tables as the node's fields (`input_offsets`,
`send_sizes`, `output_offsets`, `recv_sizes`: the operands' entries row-major, peer-major as in
hlo: entry j*U+u is update u to the group's rank-j member; `output_offsets` index the RECEIVER's
output, as in XLA). The second input is the initial output (rows no update writes keep it);
access patterns are row-major and AllToAllV is never tiled.

The tables must be compile-time constants (`hlo.constant`): a field is one value for every
device, while a computed offset may differ per device. Anything else fails naming the operand.
"""

from __future__ import annotations

from xdsl.ir import Attribute, Operation

from neuron_cc.dialects.bir_attributes import CollectiveKind
from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp
from neuron_cc.dialects.hlo.ragged_all_to_all import RaggedAllToAllOp
from neuron_cc.transforms.bir_lowering.common import (
    Builder,
    Plan,
    Spec,
    fail,
    groups_of,
    replace_result,
)

TABLES = ("input_offsets", "send_sizes", "output_offsets", "recv_sizes")


def _table(op: RaggedAllToAllOp, index: int) -> DimensionsAttr:
    value = op.operands[2 + index]
    const = value.owner
    if not isinstance(const, ConstantOp):
        where = const.name if isinstance(const, Operation) else "a block argument"
        raise fail(
            op,
            f"ragged_all_to_all {TABLES[index]} must be an hlo.constant to lower to AllToAllV "
            f"(its entries become the node's fields), got {where}",
        )
    dense = const.value
    count = 1
    for size in dense.get_shape() or ():
        count *= size
    values = [v for v in dense.get_values() if isinstance(v, int)]
    if len(values) == 1 and count != 1:
        values = values * count
    return DimensionsAttr(tuple(values))


def plan_ragged(op: RaggedAllToAllOp, builder: Builder) -> Plan:
    """The AllToAllV node of `op`."""
    extra: dict[str, Attribute] = {name: _table(op, i) for i, name in enumerate(TABLES)}
    spec = Spec(CollectiveKind.AllToAllV, groups=groups_of(op), extra=extra)
    new = builder.build(op, spec, inputs=[op.input, op.output], result_types=[op.result.type])
    return replace_result(op, new)
