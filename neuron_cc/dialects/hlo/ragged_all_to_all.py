"""`hlo.ragged_all_to_all`: XLA's RaggedAllToAll collective.

Within each replica group (XLA's group modes, `CollectiveOp`), the device of rank i sends
`input[input_offsets[j] : input_offsets[j] + send_sizes[j]]` (rows along dimension 0) to the
group member of rank j, which writes it into its `output` at row `output_offsets[j]` (the
offset is the sender's, in the receiver's buffer); `recv_sizes[j]` is the number of rows the
device receives from rank j. Rows of `output` that nothing is written to keep their value.
The result has the type of `output`.

The verifier follows XLA's ShapeVerifier: six operands, the four offset/size operands of one
shape and rank 1 or 2, the result the shape of `output`. We also require (XLA leaves it to
the backends) that `input` and `output` have one element type and rank, and that the offsets
and sizes are s32 or s64.

```mlir
%r = hlo.ragged_all_to_all %in, %out, %io, %ss, %oo, %rs replica_groups = [[0, 1]]
    : (tensor<4x2xf32>, tensor<6x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>) -> tensor<6x2xf32>
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, Signedness
from xdsl.ir import Operation
from xdsl.irdl import irdl_op_definition, operand_def, result_def
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.attributes import GroupsDirective
from neuron_cc.dialects.hlo.collectives import CollectiveOp
from neuron_cc.dialects.hlo.types import HLO_TENSOR, tensor_type

_INDEX_TYPES = (
    IntegerType(32, Signedness.SIGNLESS),
    IntegerType(64, Signedness.SIGNLESS),
)
OFFSET_OPERANDS = ("input_offsets", "send_sizes", "output_offsets", "recv_sizes")


@irdl_op_definition
class RaggedAllToAllOp(CollectiveOp):
    """Exchange row ranges of dimension 0 within each group (see the module docstring)."""

    name = "hlo.ragged_all_to_all"
    input = operand_def(HLO_TENSOR)
    output = operand_def(HLO_TENSOR)
    input_offsets = operand_def(HLO_TENSOR)
    send_sizes = operand_def(HLO_TENSOR)
    output_offsets = operand_def(HLO_TENSOR)
    recv_sizes = operand_def(HLO_TENSOR)
    result = result_def(HLO_TENSOR)

    assembly_format = (
        "$input `,` $output `,` $input_offsets `,` $send_sizes `,` $output_offsets `,` "
        "$recv_sizes `replica_groups` `=` custom<ReplicaGroups>($replica_groups) "
        "(`channel_id` `=` $channel_id^)? (`constrain_layout` $constrain_layout^)? attr-dict `:` functional-type(operands, $result)"
    )
    custom_directives = (GroupsDirective,)

    def verify_(self) -> None:
        self.verify_groups()
        inp, out = tensor_type(self.input), tensor_type(self.output)
        if not out.get_shape():
            raise VerifyException("ragged_all_to_all output must have rank at least 1")
        if inp.element_type != out.element_type or len(inp.get_shape()) != len(out.get_shape()):
            raise VerifyException(
                f"ragged_all_to_all input {inp} and output {out} must have one element type and rank"
            )
        if inp.get_shape()[1:] != out.get_shape()[1:]:
            raise VerifyException(
                f"ragged_all_to_all input {inp} and output {out} must agree beyond dimension 0"
            )
        first = self.input_offsets.type
        for name, value in zip(OFFSET_OPERANDS, self.operands[2:], strict=True):
            t = tensor_type(value)
            if len(t.get_shape()) not in (1, 2):
                raise VerifyException(f"ragged_all_to_all {name} must have rank 1 or 2, got {t}")
            if t.element_type not in _INDEX_TYPES:
                raise VerifyException(f"ragged_all_to_all {name} must be s32 or s64, got {t}")
            if t != first:
                raise VerifyException(
                    f"ragged_all_to_all {name} has type {t}, but input_offsets has {first}"
                )
        if self.result.type != out:
            raise VerifyException(
                f"ragged_all_to_all result must have the output's type {out}, got {self.result.type}"
            )


OPS: list[type[Operation]] = [RaggedAllToAllOp]
