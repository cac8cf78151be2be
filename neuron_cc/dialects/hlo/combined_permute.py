"""The combined (variadic) collective permute of the hlo dialect.

`hlo.combined_collective_permute` is XLA's `collective-permute` with several operands (what
XLA's collective-permute combiner makes, and what `hlo_parser_test`'s CombinedCollectivePermute
writes): every operand is permuted along the same `source_target_pairs`, the result is the tuple
of the permuted operands (one fabric operation in XLA). Semantics per operand are exactly
`hlo.collective_permute`'s (non-targets receive zeros; replica ids without a channel id,
partition ids with one).

The one-operand form stays `hlo.collective_permute`, which every pass reads; the passes do not
rewrite the combined form (they leave it where it is).

```mlir
%t = hlo.combined_collective_permute(%a, %b) pairs = [[0, 1]] : (tensor<4xf32>, tensor<2xi32>)
  -> tuple<tensor<4xf32>, tensor<2xi32>>
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr, TupleType
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.attributes import PairsDirective, SourceTargetPairsAttr
from neuron_cc.dialects.hlo.p2p import verify_pairs
from neuron_cc.dialects.hlo.types import HLO_TENSOR, tuple_type


@irdl_op_definition
class CombinedCollectivePermuteOp(IRDLOperation):
    """Permute every operand along the same pairs; the result is the tuple of them."""

    name = "hlo.combined_collective_permute"
    inputs = var_operand_def(HLO_TENSOR)
    result = result_def(TupleType)
    source_target_pairs = prop_def(SourceTargetPairsAttr)
    channel_id = opt_prop_def(IntegerAttr[I64])

    assembly_format = (
        "`(` $inputs `)` `pairs` `=` custom<Pairs>($source_target_pairs) "
        "(`channel_id` `=` $channel_id^)? attr-dict `:` functional-type($inputs, $result)"
    )
    custom_directives = (PairsDirective,)

    def verify_(self) -> None:
        if len(self.inputs) < 2:
            raise VerifyException(
                "a combined collective permute takes two or more operands "
                "(one operand: hlo.collective_permute)"
            )
        expected = tuple_type([v.type for v in self.inputs])
        if self.result.type != expected:
            raise VerifyException(
                f"result must be the tuple of the operand types {expected}, got {self.result.type}"
            )
        verify_pairs(self, self.source_target_pairs, self.channel_id)


OPS = [CombinedCollectivePermuteOp]
