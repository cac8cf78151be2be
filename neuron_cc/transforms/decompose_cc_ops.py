"""decompose-cc-ops: split tuple-shaped all_gather / all_reduce / reduce_scatter per operand.

A collective with N operands (one `tuple<...>` result) becomes N single-operand clones of the
same opcode - same replica groups, channel id, flags, dimension and reduction region - each on
operand i with result type = tuple element i, followed by `hlo.tuple` of the clones, which
replaces every use of the original (so `get_tuple_element` users keep working). Single-operand
collectives pass through unchanged (never wrapped in a one-element tuple).

```mlir
%r = hlo.all_reduce(%a, %b) ... : (tensor<4xf32>, tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<2xi32>>
// becomes
%_0-clone = hlo.all_reduce(%a) ... : (tensor<4xf32>) -> tensor<4xf32>
%_1-clone = hlo.all_reduce(%b) ... : (tensor<2xi32>) -> tensor<2xi32>
%cc-tuple0 = hlo.tuple %_0-clone, %_1-clone : tuple<tensor<4xf32>, tensor<2xi32>>
```

In a mixed-type collective (see legalize-ccops-for-tensorizer) the reduction region is typed
for one element type; each clone gets a simple reducer of the same kind at its own operand's
element type; if the region is not such a simple reducer the collective is left unchanged
(with a remark on stderr).

The rewrite is the `DecomposeTupleCollective` pattern, run by xDSL's `PatternRewriteWalker` in
one walk. Follows the reference compiler's DecomposeCCOps: it walks only the ENTRY computation's
instructions (`all-computations=true` also processes nested regions and every function), and
names clone i `<i>-clone` and the tuple `cc-tuple<k>` (k counts the collectives replaced in
this run). Difference: MLIR/HLO names cannot start with a digit, so clones are named
`_<i>-clone`, as XLA's name sanitiser would. A module without an entry function fails with
"module has no entry computation".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, TupleType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis.entry import find_entry
from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.analysis.remarks import Remarks
from neuron_cc.dialects.hlo.builders import build_reduction_region
from neuron_cc.dialects.hlo.collectives import AllGatherOp, AllReduceOp, ReduceScatterOp
from neuron_cc.dialects.hlo.control_flow import TupleOp

CANDIDATES = (AllGatherOp, AllReduceOp, ReduceScatterOp)


def _region_for(region: Region, element: Attribute) -> Region:
    """The reduction region at `element`: a clone, or a rebuilt simple reducer when the
    region is typed for another element type (mixed-type collectives)."""
    args = region.blocks.first.args if region.blocks.first else ()
    scalar = args[0].type if args else None
    if isinstance(scalar, TensorType) and scalar.element_type != element:
        kind = reduction_kind(region)
        if kind is not None:
            return build_reduction_region(kind, element)
    return region.clone()


def _regions_retypable(op: Operation) -> bool:
    """Every clone can get a reducer of its own element type."""
    if not op.regions:
        return True
    elements = {v.type.element_type for v in op.operands if isinstance(v.type, TensorType)}
    return len(elements) <= 1 or reduction_kind(op.regions[0]) is not None


def clone_for_operand(op: Operation, result: TupleType, index: int) -> Operation:
    """A single-operand copy of collective `op` (tuple result `result`) on operand `index`."""
    operand_type = op.operands[index].type
    element = operand_type.element_type if isinstance(operand_type, TensorType) else operand_type
    regions = [_region_for(r, element) for r in op.regions]
    return type(op).create(
        operands=[op.operands[index]],
        result_types=[result.types.data[index]],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=regions,
    )


@dataclass
class DecomposeTupleCollective(RewritePattern):
    """Rewrites one tuple-shaped collective into per-operand clones and an `hlo.tuple`.

    `entry`: only that function's top-level ops match (the reference's ENTRY-only walk), or
    every op with `None`. `count` numbers the tuples (`cc-tuple<k>`) in the order the walker
    visits the collectives (program order)."""

    entry: FuncOp | None
    remarks: Remarks
    count: int = 0
    refused: set[Operation] = field(default_factory=set[Operation])

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, CANDIDATES):
            return
        if self.entry is not None and op.parent_op() is not self.entry:
            return
        result = op.results[0].type
        if not isinstance(result, TupleType):
            return
        if not _regions_retypable(op):
            if op not in self.refused:
                self.refused.add(op)
                self.remarks.remark(
                    op,
                    "not decomposed: its operands have different element types and its "
                    "reduction region is not a simple elementwise reducer",
                )
            return
        clones = [clone_for_operand(op, result, i) for i in range(len(op.operands))]
        for i, clone in enumerate(clones):
            clone.results[0].name_hint = f"_{i}-clone"
        tup = TupleOp(clones)
        tup.result.name_hint = f"cc-tuple{self.count}"
        self.count += 1
        rewriter.replace(op, [*clones, tup], [tup.result])


@dataclass(frozen=True)
class DecomposeCcOpsPass(ModulePass):
    """Split tuple-shaped collectives into one collective per operand plus a tuple."""

    name = "decompose-cc-ops"

    all_computations: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        entry = find_entry(op)
        if entry is None:
            raise PassFailedException("module has no entry computation")
        pattern = DecomposeTupleCollective(
            None if self.all_computations else entry, Remarks(self.name, enabled=True)
        )
        root = op.body if self.all_computations else entry.body
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_region(root)
