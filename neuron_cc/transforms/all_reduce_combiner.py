"""all-reduce-combiner: independent all-reduces of one kind become one variadic all-reduce.

XLA's AllReduceCombiner. Two all-reduces combine when they have the same reduction (add,
multiply, maximum, minimum, and, or, xor: `reduction_kind`; an unrecognised reducer is never
combined), replica groups, group mode (channel id or not, `use_global_device_ids`), layout
constraint and sharding, and - with `combine-different-dtypes=false` - the same element types;
and when neither depends on the other (data, control or side-effect order; see
`neuron_cc.analysis.combine_plan` for the rounds, thresholds and placement, and
`neuron_cc.transforms.combiner_rewrite` for the rewrite). Options: `threshold-bytes` (bytes of
one combined op's result per device, default 30 MiB as XLA:GPU's default), `threshold-count`
(members per combined op, default 256 = XLA's kMaxCombineCount), `combine-different-dtypes`
(default true), `remarks`, `skip-while-bodies` (default false: XLA's `combine_while_loops=false`).

```mlir
%a = hlo.all_reduce(%x) ... : (tensor<4xf32>) -> tensor<4xf32>
%b = hlo.all_reduce(%y) ... : (tensor<2xf32>) -> tensor<2xf32>
// becomes
%c = hlo.all_reduce(%x, %y) ... : (tensor<4xf32>, tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<2xf32>>
%a = hlo.get_tuple_element %c[0] ...
%b = hlo.get_tuple_element %c[1] ...
```

Where we differ from XLA: besides the plan's differences, XLA's all-reduce combiner keys
sharding domains through its domain map, ours through the op's own `xla.sharding`.
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
from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.dialects.hlo.types import value_bytes
from neuron_cc.transforms.combiner_rewrite import combine_collectives, common_key, element_types

DEFAULT_THRESHOLD_BYTES = 30 * 1024 * 1024
DEFAULT_THRESHOLD_COUNT = 256


def result_bytes(op: Operation) -> int:
    return value_bytes(op.results[0].type)


@dataclass(frozen=True)
class AllReduceCombinerPass(ModulePass):
    """Combine independent all-reduces (see module docs)."""

    name = "all-reduce-combiner"

    threshold_bytes: int = DEFAULT_THRESHOLD_BYTES
    threshold_count: int = DEFAULT_THRESHOLD_COUNT
    combine_different_dtypes: bool = True
    skip_while_bodies: bool = False
    remarks: bool = False

    def key(self, op: Operation) -> Hashable | None:
        if type(op) is not AllReduceOp:
            return None
        kind = reduction_kind(op.to_apply)
        if kind is None:
            return None
        common = common_key(op)
        if common is None:
            return None
        dtypes = () if self.combine_different_dtypes else element_types(op)
        return (kind, *common, dtypes)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        limits = Limits(self.threshold_bytes, self.threshold_count)
        remarks = Remarks(self.name, self.remarks)
        combine_collectives(
            op, self.key, result_bytes, limits, remarks, skip_while_bodies=self.skip_while_bodies
        )
