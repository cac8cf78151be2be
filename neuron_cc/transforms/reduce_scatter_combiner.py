"""reduce-scatter-combiner: independent reduce-scatters become one variadic reduce-scatter.

XLA's ReduceScatterCombiner. Two reduce-scatters combine when they have the same reduction
(`reduction_kind`; an unrecognised reducer is never combined), replica groups, group mode,
layout constraint and sharding, the same `scatter_dimension` (with `combine-by-dim=true`, the
default), and - with `combine-different-dtypes=false` - the same element types, and neither
depends on the other (`neuron_cc.analysis.combine_plan`). `combine-different-dtypes` is false
by default, as for all-reduce (one typed reduction region). With `combine-by-dim=false` the
combined op scatters along the most frequent dimension and the other operands are transposed
before and after (`neuron_cc.transforms.combiner_rewrite`). Options as all-gather-combiner:
`threshold-bytes` (bytes of the combined result per device, default 30 MiB),
`threshold-count` (default 256), `combine-by-dim`, `combine-different-dtypes`,
`skip-while-bodies`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.ir import Operation

from neuron_cc.dialects.hlo.collectives import ReduceScatterOp
from neuron_cc.transforms.combiner_rewrite import CombinerPass


@dataclass(frozen=True)
class ReduceScatterCombinerPass(CombinerPass):
    """Combine independent reduce-scatters (see module docs)."""

    name = "reduce-scatter-combiner"
    OP: ClassVar[type[Operation]] = ReduceScatterOp
    REDUCES: ClassVar[bool] = True
    DIM: ClassVar[str] = "scatter_dimension"

    combine_by_dim: bool = True

    def by_dim(self) -> bool:
        return self.combine_by_dim
