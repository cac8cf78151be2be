"""The in-place collective permute of the hlo dialect (XLA's `collective-permute(input, output,
input_offsets, output_offsets), slice_sizes={...}`).

XLA's TPU/GPU back ends write, on every pair's target, slices of the source's `input` into
the target's `output` buffer (a device may appear in several pairs: one per slice it sends) (offsets are tuples of s32 scalars, one tuple per slice, or one
per buffer and slice when `input`/`output` are tuples of buffers; `slice_sizes` has one entry
per slice); the result has the type of `output`.

The dialect keeps the op for the round trip (`slice_sizes` stays as the `xla.slice_sizes`
text) and checks its structure; XLA:CPU does not implement it, so there is no oracle to check
a model of it against: the interpreter refuses it with a located error, and the passes leave it
alone.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr, TensorType, TupleType
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.attributes import SourceTargetPairsAttr
from neuron_cc.dialects.hlo.p2p import verify_pair_ids
from neuron_cc.dialects.hlo.types import HLO_VALUE


@irdl_op_definition
class InPlaceCollectivePermuteOp(IRDLOperation):
    """Write slices of each source's `input` into its target's `output` (see the module)."""

    name = "hlo.in_place_collective_permute"
    input = operand_def(HLO_VALUE)
    output = operand_def(HLO_VALUE)
    input_offsets = operand_def(TupleType)
    output_offsets = operand_def(TupleType)
    result = result_def(HLO_VALUE)
    source_target_pairs = prop_def(SourceTargetPairsAttr)
    channel_id = opt_prop_def(IntegerAttr[I64])

    def verify_(self) -> None:
        if self.result.type != self.output.type:
            raise VerifyException(
                f"result type {self.result.type} must be the output buffer's {self.output.type}"
            )
        a, b = self.input.type, self.output.type
        if isinstance(a, TupleType) != isinstance(b, TupleType):
            raise VerifyException("input and output must both be buffers or both tuples")
        if isinstance(a, TupleType) and isinstance(b, TupleType) and len(a.types) != len(b.types):
            raise VerifyException("input and output tuples must have as many buffers")
        for buffer in a.types.data if isinstance(a, TupleType) else (a,):
            if not isinstance(buffer, TensorType):
                raise VerifyException(f"a buffer must be an array, got {buffer}")
        verify_pair_ids(self, self.source_target_pairs, self.channel_id)


OPS = [InPlaceCollectivePermuteOp]
