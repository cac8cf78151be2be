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

from collections.abc import Hashable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from neuron_cc.analysis.combine_plan import Limits
from neuron_cc.analysis.remarks import Remarks
from neuron_cc.dialects.hlo.collectives import AllGatherOp
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

_DIM = "all_gather_dimension"


@dataclass(frozen=True)
class AllGatherCombinerPass(ModulePass):
    """Combine independent all-gathers (see module docs)."""

    name = "all-gather-combiner"

    threshold_bytes: int = DEFAULT_THRESHOLD_BYTES
    threshold_count: int = DEFAULT_THRESHOLD_COUNT
    combine_by_dim: bool = True
    combine_different_dtypes: bool = True
    skip_while_bodies: bool = False
    remarks: bool = False

    def key(self, op: Operation) -> Hashable | None:
        if type(op) is not AllGatherOp:
            return None
        dim = dimension(op, _DIM) if self.combine_by_dim else None
        common = common_key(op)
        if common is None:
            return None
        dtypes = () if self.combine_different_dtypes else element_types(op)
        return (*common, dim, dtypes)

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
