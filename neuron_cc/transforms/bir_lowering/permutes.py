"""Permutes: explicit or implicit routing, and PermuteReduce (a permute fused with its use).

Routing (`permute_spec`): the pairs (flattened ids) become a `permute_chain` (Permute,
PermuteReduce), unless `implicit` is on and `analysis.permute_rings.ring_groups` proves them a
ring shift by one along equal groups covering every device: then the node is PermuteImplicit /
PermuteReduceImplicit with those groups in ring order (member k receives from member k-1) and no
chain. PermuteReduceImplicit has no `op` (the codegen's reducer kinds are AllReduce,
ReduceScatter, PermuteReduce and SendRecvCCE) and always adds, so only an add fuses into it; a
ring permute combined by multiply / maximum / minimum is a PermuteReduce with its chain.

PermuteReduce (`plan_permute_reduce`): an elementwise add / multiply / maximum / minimum whose
operand (either one) is a non-`local` collective_permute used by nothing else, in the same block,
becomes ONE collective_compute: inputs (the permute's operand, the other operand of the
elementwise op - the local value), op the ALU op, out = op(local, received). A device that is no
pair's target receives zeros in hlo and therefore combines its local value with zeros here too.
Not fused: predicate (i1) tensors (add is "or" there), a permute with another use, a permute in
another block than its use (fusing would move it into or out of a loop).
"""

from __future__ import annotations

from xdsl.ir import Operation

from neuron_cc.analysis.permute_rings import ring_groups
from neuron_cc.dialects.bir_attributes import AluOpType, CollectiveKind
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp
from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.transforms.bir_lowering.common import (
    ALU,
    Builder,
    Plan,
    Spec,
    flatten_pairs,
    is_local,
    is_predicate,
)


def flat_pairs(op: CollectivePermuteOp) -> list[tuple[int, int]]:
    """The permute's pairs as flattened device ids (module docstring of convert_hlo_to_bir)."""
    r, p = device_counts(op)
    return flatten_pairs(op.source_target_pairs.data, op.channel_id is not None, r, p)


def permute_spec(op: CollectivePermuteOp, implicit: bool, alu: AluOpType | None = None) -> Spec:
    """Permute / PermuteImplicit (alu None) or PermuteReduce / PermuteReduceImplicit."""
    pairs = flat_pairs(op)
    r, p = device_counts(op)
    rings = ring_groups(pairs, r * p) if implicit and alu in (None, AluOpType.add) else None
    if rings is not None:
        kind = (
            CollectiveKind.PermuteImplicit if alu is None else CollectiveKind.PermuteReduceImplicit
        )
        return Spec(kind, groups=rings)
    if alu is None:
        return Spec(CollectiveKind.Permute, chain=pairs)
    return Spec(CollectiveKind.PermuteReduce, alu=alu, chain=pairs)


def plan_permute_reduce(root: Operation, builder: Builder, implicit: bool) -> Plan | None:
    """The fused PermuteReduce of `root` (an elementwise op), or None when it does not fuse."""
    alu = ALU.get(root.name)
    if alu is None or len(root.operands) != 2 or is_predicate(root.results[0].type):
        return None
    for i, operand in enumerate(root.operands):
        perm = operand.owner
        if (
            not isinstance(perm, CollectivePermuteOp)
            or is_local(perm)
            or perm.parent_block() is not root.parent_block()
            or not perm.result.has_one_use()
        ):
            continue
        spec = permute_spec(perm, implicit, alu)
        inputs = [perm.operand, root.operands[1 - i]]
        new = builder.build(perm, spec, inputs=inputs, result_types=[root.results[0].type])
        return Plan(
            inserts=[(root, [new])],
            replace=[(root.results[0], new.results[0])],
            erase=[root, perm],
        )
    return None
