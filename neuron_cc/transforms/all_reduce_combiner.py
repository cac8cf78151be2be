"""all-reduce-combiner: independent all-reduces of one kind become one variadic all-reduce.

XLA's AllReduceCombiner. Two all-reduces combine when they have the same reduction (add,
multiply, maximum, minimum, and, or, xor: `reduction_kind`; an unrecognised reducer is never
combined), replica groups, group mode (channel id or not, `use_global_device_ids`), layout
constraint and sharding, and - with `combine-different-dtypes=false` - the same element types;
and when neither depends on the other (data, control or side-effect order; see
`neuron_cc.analysis.combine_plan` for the rounds, thresholds and placement, and
`neuron_cc.transforms.combiner_rewrite` for the rewrite). Options: `threshold-bytes` (bytes of
one combined op's result per device, default 30 MiB as XLA:GPU's default), `threshold-count`
(buffers per combined op, default 256 = XLA's kMaxCombineCount), `combine-different-dtypes`
(default false: the reduction region is typed for one element type, and XLA's verifier refuses
a variadic all-reduce whose region does not match every operand; with true the combined op is a
mixed-type all-reduce for `legalize-ccops-for-tensorizer`), `remarks`, `skip-while-bodies` (default false: XLA's `combine_while_loops=false`).

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

from dataclasses import dataclass
from typing import ClassVar

from xdsl.ir import Operation

from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.transforms.combiner_rewrite import CombinerPass


@dataclass(frozen=True)
class AllReduceCombinerPass(CombinerPass):
    """Combine independent all-reduces (see module docs)."""

    name = "all-reduce-combiner"
    OP: ClassVar[type[Operation]] = AllReduceOp
    REDUCES: ClassVar[bool] = True
    DIM: ClassVar[str] = ""
