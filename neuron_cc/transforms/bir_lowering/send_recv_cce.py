"""SendRecvCCE: several receives of one source reduced into one destination.

The idiom: a chain of ONE elementwise op (add / multiply / maximum / minimum), left-deep
(`op(op(op(t1, t2), t3), t4)`, either operand order at every node), whose terms t_i are
`local` collective_permutes of ONE source value x (each used only by the chain) or x itself, with
at least two permutes, every node in one block and every interior node used only by the next.
It becomes one collective_compute kind=SendRecvCCE(x) with `op`, `recv_from_ranks` = for every
receiver r (ascending) the pairs (r, s_1(r)), ..., (r, s_k(r)) in term order (s_i(r) = the device
term i brings to r, r itself for the term x) and `barrier_id` (the rendezvous barrier: the pass
numbers them in program order above every CoreBarrier's id).

Exactness: a chain folds left to right, as the node does; the ops are commutative, so either
operand order at a node gives the same value. Every term must reach the same receivers (x reaches
every device): a device that a permute does not reach gets zeros in hlo, which would be an extra
operand the node cannot express; then the chain stops before that term. Devices reached by no
term compute op(0, ..., 0) = 0 in hlo and get zeros from the node. A bf16 chain stops at two
terms: hlo rounds after every op, while the node accumulates in f32 and rounds once (as every bir
reducer does), which is the same only for a single op. Predicate tensors are not fused.

`cce_chains(ops)` finds the maximal chains in one forward pass: each node extends its interior
child's chain by one term, so the search is linear in the number of ops.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from xdsl.dialects.builtin import BFloat16Type, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from neuron_cc.dialects.bir import num_devices
from neuron_cc.dialects.bir_attributes import CollectiveKind
from neuron_cc.dialects.hlo.attributes import SourceTargetPairsAttr
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp
from neuron_cc.transforms.bir_lowering.common import (
    ALU,
    Builder,
    Plan,
    Spec,
    is_local,
    is_predicate,
    peer_tables,
)
from neuron_cc.transforms.bir_lowering.permutes import flat_pairs


@dataclass
class Chain:
    """A left-deep chain of one elementwise op over terms of one source."""

    name: str
    source: SSAValue
    receivers: frozenset[int]
    tables: list[list[int]] = field(default_factory=list[list[int]])
    """Per term: the device each device receives from (-1 none; itself for the term x)."""
    permutes: list[Operation] = field(default_factory=list[Operation])
    nodes: list[Operation] = field(default_factory=list[Operation])
    """The chain's elementwise ops, innermost first."""


def _term(
    v: SSAValue, source: SSAValue, node: Operation
) -> tuple[list[int], Operation | None] | None:
    """(receive table, permute or None for x itself) when `v` is a term of `source`'s chain."""
    devices = num_devices(node)
    if v is source:
        return list(range(devices)), None
    perm = v.owner
    if (
        isinstance(perm, CollectivePermuteOp)
        and is_local(perm)
        and perm.operand is source
        and perm.parent_block() is node.parent_block()
        and v.has_one_use()
    ):
        _, recv_from = peer_tables(perm, flat_pairs(perm), devices)
        return recv_from, perm
    return None


def _reached(table: list[int]) -> frozenset[int]:
    return frozenset(d for d, s in enumerate(table) if s >= 0)


def _is_bf16(t: Attribute) -> bool:
    return isinstance(t, TensorType) and isinstance(t.element_type, BFloat16Type)


def _extend(chains: dict[Operation, Chain], node: Operation) -> Chain | None:
    for child_v, term_v in (node.operands, node.operands[::-1]):
        child = child_v.owner
        chain = chains.get(child) if isinstance(child, Operation) else None
        if (
            chain is None
            or chain.name != node.name
            or not child_v.has_one_use()
            or child.parent_block() is not node.parent_block()
            or (_is_bf16(node.results[0].type) and len(chain.tables) >= 2)
        ):
            continue
        term = _term(term_v, chain.source, node)
        if term is None or _reached(term[0]) != chain.receivers:
            continue
        chain.tables.append(term[0])
        if term[1] is not None:
            chain.permutes.append(term[1])
        chain.nodes.append(node)
        return chain
    return None


def _start(node: Operation) -> Chain | None:
    a, b = node.operands
    for v in (a, b):
        perm = v.owner
        if not isinstance(perm, CollectivePermuteOp):
            continue
        ta, tb = _term(a, perm.operand, node), _term(b, perm.operand, node)
        if ta is None or tb is None or _reached(ta[0]) != _reached(tb[0]):
            continue
        chain = Chain(node.name, perm.operand, _reached(ta[0]), [ta[0], tb[0]], nodes=[node])
        chain.permutes = [t[1] for t in (ta, tb) if t[1] is not None]
        return chain
    return None


def cce_chains(ops: Iterable[Operation]) -> list[Chain]:
    """The maximal SendRecvCCE chains among `ops` (program order), with >= 2 permutes each."""
    chains: dict[Operation, Chain] = {}
    extended: set[Operation] = set()
    for node in ops:
        if node.name not in ALU or len(node.operands) != 2 or is_predicate(node.results[0].type):
            continue
        chain = _extend(chains, node)
        if chain is not None:
            extended.add(chain.nodes[-2])
        else:
            chain = _start(node)
        if chain is not None:
            chains[node] = chain
    return [c for n, c in chains.items() if n not in extended and len(c.permutes) >= 2]


def plan_cce(chain: Chain, builder: Builder, barrier_id: int) -> Plan:
    """One SendRecvCCE node for `chain`, before its root; the chain's ops are erased."""
    root = chain.nodes[-1]
    pairs = tuple((r, t[r]) for r in sorted(chain.receivers) for t in chain.tables)
    spec = Spec(
        CollectiveKind.SendRecvCCE,
        alu=ALU[chain.name],
        extra={
            "recv_from_ranks": SourceTargetPairsAttr(pairs),
            "barrier_id": IntegerAttr(barrier_id, 64),
        },
    )
    new = builder.build(root, spec, inputs=[chain.source], result_types=[root.results[0].type])
    return Plan(
        inserts=[(root, [new])],
        replace=[(root.results[0], new.results[0])],
        erase=[*reversed(chain.nodes), *chain.permutes],
    )
