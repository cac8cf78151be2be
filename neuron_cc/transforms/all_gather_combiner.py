"""all-gather-combiner: independent all-gathers become one variadic all-gather.

XLA's AllGatherCombiner. Two all-gathers combine when they have the same replica groups,
group mode, layout constraint and sharding, the same `all_gather_dimension` (with
`combine-by-dim=true`, the default), and - with `combine-different-dtypes=false` - the same
element types, and neither depends on the other (`neuron_cc.analysis.combine_plan`). With
`combine-by-dim=false` gathers along different dimensions combine too: the combined op
gathers along the most frequent dimension of the group (0 when an operand's rank is too small
for it) and every other operand is transposed before and after
(`neuron_cc.transforms.combiner_rewrite`; XLA relabels with a layout bitcast). Options:
`threshold-bytes` (bytes of the combined result per device, default 30 MiB),
`threshold-count` (default 256), `combine-by-dim`, `combine-different-dtypes` (default true),
`remarks`, `skip-while-bodies` (default false; the option AWS added upstream, `combine_while_loops=false`,
so FSDP all-gathers in loop bodies stay separate to overlap with compute).

```mlir
%a = hlo.all_gather(%x) dim = 0 ... : (tensor<2xf32>) -> tensor<8xf32>
%b = hlo.all_gather(%y) dim = 0 ... : (tensor<3xf32>) -> tensor<12xf32>
// becomes
%c = hlo.all_gather(%x, %y) dim = 0 ... : (...) -> tuple<tensor<8xf32>, tensor<12xf32>>
```
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.ir import Operation

from neuron_cc.dialects.hlo.collectives import AllGatherOp
from neuron_cc.transforms.combiner_rewrite import CombinerPass


@dataclass(frozen=True)
class AllGatherCombinerPass(CombinerPass):
    """Combine independent all-gathers (see module docs)."""

    name = "all-gather-combiner"
    OP: ClassVar[type[Operation]] = AllGatherOp
    REDUCES: ClassVar[bool] = False
    DIM: ClassVar[str] = "all_gather_dimension"

    combine_by_dim: bool = True
    combine_different_dtypes: bool = True

    def by_dim(self) -> bool:
        return self.combine_by_dim
