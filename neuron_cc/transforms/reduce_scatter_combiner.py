"""reduce-scatter-combiner: independent reduce-scatters become one variadic reduce-scatter.

XLA's ReduceScatterCombiner. Two reduce-scatters combine when they have the same reduction
(`reduction_kind`; an unrecognised reducer is never combined), replica groups, group mode,
layout constraint and sharding, the same `scatter_dimension` (with `combine-by-dim=true`, the
default), and - with `combine-different-dtypes=false` - the same element types, and neither
depends on the other (`neuron_cc.analysis.combine_plan`). With `combine-by-dim=false` the
combined op scatters along the most frequent dimension and the other operands are transposed
before and after (`neuron_cc.transforms.combiner_rewrite`). Options as all-gather-combiner:
`threshold-bytes` (bytes of the combined result per device, default 30 MiB),
`threshold-count` (default 256), `combine-by-dim`, `combine-different-dtypes`,
`skip-while-bodies`.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from neuron_cc.analysis.combine_plan import Limits
from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.analysis.remarks import Remarks
from neuron_cc.dialects.hlo.collectives import ReduceScatterOp
from neuron_cc.transforms.all_reduce_combiner import (
    DEFAULT_THRESHOLD_BYTES,
    DEFAULT_THRESHOLD_COUNT,
    result_bytes,
)
from neuron_cc.transforms.combiner_rewrite import (
    Relabel,
    combine_collectives,
    common_key,
    dimension,
    element_types,
    most_frequent_dimension,
)

_DIM = "scatter_dimension"


@dataclass(frozen=True)
class ReduceScatterCombinerPass(ModulePass):
    """Combine independent reduce-scatters (see module docs)."""

    name = "reduce-scatter-combiner"

    threshold_bytes: int = DEFAULT_THRESHOLD_BYTES
    threshold_count: int = DEFAULT_THRESHOLD_COUNT
    combine_by_dim: bool = True
    combine_different_dtypes: bool = True
    skip_while_bodies: bool = False
    remarks: bool = False

    def key(self, op: Operation) -> Hashable | None:
        if type(op) is not ReduceScatterOp:
            return None
        kind = reduction_kind(op.to_apply)
        if kind is None:
            return None
        dim = dimension(op, _DIM) if self.combine_by_dim else None
        common = common_key(op)
        if common is None:
            return None
        dtypes = () if self.combine_different_dtypes else element_types(op)
        return (kind, *common, dim, dtypes)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        relabel = None if self.combine_by_dim else Relabel(_DIM, most_frequent_dimension(_DIM))
        combine_collectives(
            op,
            self.key,
            result_bytes,
            Limits(self.threshold_bytes, self.threshold_count),
            Remarks(self.name, self.remarks),
            skip_while_bodies=self.skip_while_bodies,
            relabel=relabel,
        )
