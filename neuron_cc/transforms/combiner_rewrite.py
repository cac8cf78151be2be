"""The rewrite the three combiners share (not a pass): a planned group becomes one collective.

`combine_collectives` plans every block of the module (`neuron_cc.analysis.combine_plan`; the
bodies of while loops are skipped with `skip_while_bodies`) and replaces each group by ONE
variadic collective of the members' opcode: its operands are the members' operands in order
(a variadic member contributes all of its own), its result the tuple of their results, its
properties (replica groups, channel id, flags, dimension) and reduction region the first
member's, and each member's uses read `get_tuple_element` of it (a variadic member: a tuple
of them), named as the member was (the combined op is `%combined`). The channel ids of the other members disappear with them, so channel ids stay
unique. The combined op stands where the last member stood; ops that depended on an earlier
member and stood before that point move right after it, in their order.

`relabel` (all-gather / reduce-scatter combined across dimensions, `combine-by-dim=false`):
an operand whose dimension differs from the combined op's is transposed (the two dimensions
swapped) before it and its result transposed back after it. XLA uses a layout `bitcast` for
this; the hlo dialect has no layouts, so ours is a transpose (a local copy).

Attributes: the combined op keeps the first member's attributes (`xla.metadata`,
`xla.frontend_attributes`, `xla.sharding`); XLA merges the members' metadata op names
(`(a:b)`) and frontend attribute values, which we do not do.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType, TupleType, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue, TypeAttribute
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis.combine_plan import Limits, Plan, plan_groups
from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.analysis.remarks import Remarks, describe
from neuron_cc.dialects.block_order import set_block_ops
from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, TupleOp, WhileOp
from neuron_cc.dialects.hlo.data_movement import TransposeOp
from neuron_cc.dialects.hlo.types import value_bytes
from neuron_cc.dialects.value_edits import replace_values
from neuron_cc.interpreter.cost_model import DEFAULT
from neuron_cc.transforms.closed_erase import erase_closed

DEFAULT_THRESHOLD_BYTES = 30 * 1024 * 1024
"""30 MiB: XLA:GPU's default combine threshold."""
DEFAULT_THRESHOLD_COUNT = 256
"""XLA's kMaxCombineCount."""


@dataclass(frozen=True)
class Relabel:
    """The dimension property of an op kind that `combine-by-dim=false` lets differ."""

    prop: str
    choose: Callable[[Sequence[Operation]], int]
    """The combined op's dimension for a group."""


def leaves(t: Attribute) -> list[Attribute]:
    return list(t.types.data) if isinstance(t, TupleType) else [t]


def dimension(op: Operation, prop: str) -> int:
    attr = op.properties[prop]
    assert isinstance(attr, IntegerAttr)
    return int(attr.value.data)


def _swap(rank: int, a: int, b: int) -> tuple[int, ...]:
    perm = list(range(rank))
    perm[a], perm[b] = perm[b], perm[a]
    return tuple(perm)


def _transpose(value: SSAValue, perm: tuple[int, ...]) -> TransposeOp:
    t = value.type
    assert isinstance(t, TensorType)
    shape = t.get_shape()
    return TransposeOp.create(
        operands=[value],
        result_types=[TensorType(t.element_type, [shape[p] for p in perm])],
        properties={"permutation": DimensionsAttr(perm)},
    )


def _combined(
    members: Sequence[Operation], relabel: Relabel | None
) -> tuple[list[Operation], dict[Operation, SSAValue]]:
    """The new ops (in order) and the value replacing each member's result."""
    first = members[0]
    target = relabel.choose(members) if relabel is not None else None
    before: list[Operation] = []
    operands: list[SSAValue] = []
    types: list[TypeAttribute] = []
    swaps: list[tuple[int, ...] | None] = []
    for m in members:
        own = dimension(m, relabel.prop) if relabel is not None else None
        for value, result in zip(m.operands, leaves(m.results[0].type), strict=True):
            perm = None
            if target is not None and own is not None and own != target:
                assert isinstance(value.type, TensorType)
                perm = _swap(len(value.type.get_shape()), own, target)
                moved = _transpose(value, perm)
                before.append(moved)
                value = moved.results[0]
                assert isinstance(result, TensorType)
                shape = result.get_shape()
                result = TensorType(result.element_type, [shape[p] for p in perm])
            assert isinstance(result, TypeAttribute)
            operands.append(value)
            types.append(result)
            swaps.append(perm)
    properties = dict(first.properties)
    if relabel is not None and target is not None:
        properties[relabel.prop] = IntegerAttr(target, i64)
    combined = type(first).create(
        operands=operands,
        result_types=[TupleType(tuple(types))],
        properties=properties,
        attributes=dict(first.attributes),
        regions=[r.clone() for r in first.regions],
    )
    combined.results[0].name_hint = "combined"
    after: list[Operation] = []
    replacement: dict[Operation, SSAValue] = {}
    index = 0
    for m in members:
        parts: list[SSAValue] = []
        for _ in leaves(m.results[0].type):
            element = GetTupleElementOp(combined, index)
            after.append(element)
            value = element.results[0]
            perm = swaps[index]
            if perm is not None:
                back = _transpose(value, perm)  # a swap is its own inverse
                after.append(back)
                value = back.results[0]
            parts.append(value)
            index += 1
        if isinstance(m.results[0].type, TupleType):
            whole = TupleOp(parts)
            after.append(whole)
            replacement[m] = whole.results[0]
        else:
            replacement[m] = parts[0]
        replacement[m].name_hint = m.results[0].name_hint
    return [*before, combined, *after], replacement


def apply_plan(
    block: Block, plan: Plan, relabel: Relabel | None, closed_regions: bool = False
) -> None:
    """Rewrite `block` as `plan` says. `closed_regions`: every member's regions are simple
    reducers (the combiner's key holds their `reduction_kind`), so erasing a member need not
    check them again."""
    built = [_combined(group, relabel) for group in plan.groups]
    order = plan.order
    if order is None:
        # nothing moves: each combined op (and its reads) takes its last member's place
        for group, (new_ops, _) in zip(plan.groups, built, strict=True):
            block.insert_ops_before(new_ops, group[-1])
    else:  # the block in its final order; the members leave it (erased below)
        ops: list[Operation] = []
        for entry in order:
            if isinstance(entry, int):
                ops += built[entry][0]
            else:
                ops.append(entry)
        set_block_ops(block, ops)
    # at once: a wide op reading many members (a returned tuple) is rebuilt once
    replace_values(
        (m.results[0], replacement[m])
        for group, (_, replacement) in zip(plan.groups, built, strict=True)
        for m in group
    )
    for group in plan.groups:
        for m in group:
            if m.parent is not None:  # still in place when nothing moved
                m.parent.detach_op(m)
            erase_closed(m, closed_regions)


def _blocks(
    module: ModuleOp, skip_while_bodies: bool, candidates: type[Operation] | None
) -> list[Block]:
    """The blocks to plan, outer before inner, in program order. With `candidates`, only the
    blocks holding at least two ops of that class (no other block can combine anything: a
    reducer region or a loop without two gathers costs its walk, not a plan). An explicit stack
    of blocks, not a recursion (nesting depth is unbounded)."""
    found: list[Block | None] = []
    stack: list[tuple[Block, bool]] = [
        (block, False) for region in reversed(module.regions) for block in reversed(region.blocks)
    ]
    while stack:
        block, skipped = stack.pop()
        position = len(found)
        found.append(None if skipped else block)
        count = 0
        inner_blocks: list[tuple[Block, bool]] = []
        op = block.first_op
        while op is not None:
            if type(op) is candidates:
                count += 1
            if op.regions:
                body = op.body if skip_while_bodies and type(op) is WhileOp else None
                for region in op.regions:
                    nested = region.first_block
                    while nested is not None:
                        inner_blocks.append((nested, region is body))
                        nested = nested.next_block
            op = op._next_op
        if candidates is not None and count < 2:
            found[position] = None
        stack.extend(reversed(inner_blocks))
    return [block for block in found if block is not None]


def combine_collectives(
    module: ModuleOp,
    key_of: Callable[[Operation], Hashable | None],
    bytes_of: Callable[[Operation], int],
    limits: Limits,
    remarks: Remarks,
    *,
    skip_while_bodies: bool = False,
    relabel: Relabel | None = None,
    candidates: type[Operation] | None = None,
    closed_regions: bool = False,
    blocks: list[Block] | None = None,
) -> int:
    """Combine in every block; the number of combined ops created. A remark per combined op
    names its members; the summary counts them. `closed_regions`: `key_of` gives a key only to
    ops whose regions are simple reducers (see `apply_plan`). `blocks`: the blocks `_blocks`
    would find, from a walk the caller made anyway (the default pipeline's census)."""
    created = members = 0
    if blocks is None:
        blocks = _blocks(module, skip_while_bodies, candidates)
    for block in blocks:
        plan = plan_groups(block, key_of, bytes_of, limits)
        if remarks.active:  # nothing is formatted for a silent pass
            for group in plan.groups:
                names = ", ".join(describe(m) for m in group)
                remarks.remark(group[-1], f"combined {len(group)} into one: {names}")
        if plan.groups:
            apply_plan(block, plan, relabel, closed_regions)
            created += len(plan.groups)
            members += sum(len(g) for g in plan.groups)
    remarks.summary(f"combined {members} collectives into {created}")
    return created


def common_key(op: Operation) -> tuple[Hashable, ...] | None:
    """What every combiner's key holds: the replica groups, the group mode (channel id or not,
    global device ids) and the sharding (our stand-in for XLA's sharding-domain id: the
    partitioner gives every op of one domain its sharding). None for a collective with a
    layout constraint: never combined (XLA's all-reduce combiner does nothing at all in a
    module that has one)."""
    if "constrain_layout" in op.properties:
        return None
    return (
        op.properties.get("replica_groups"),
        "channel_id" in op.properties,
        "use_global_device_ids" in op.properties,
        op.attributes.get("xla.sharding"),
    )


def element_types(op: Operation) -> frozenset[Attribute]:
    """The element types of the operands (a set: a variadic f32 op keys as a single one)."""
    return frozenset(v.type.element_type for v in op.operands if isinstance(v.type, TensorType))


def most_frequent_dimension(prop: str) -> Callable[[Sequence[Operation]], int]:
    """XLA's choice of the combined op's dimension when members differ: the most frequent
    one (the smallest of equally frequent ones), unless some operand's rank is too small for
    it; then 0."""

    def choose(members: Sequence[Operation]) -> int:
        counts: dict[int, int] = {}
        for m in members:
            d = dimension(m, prop)
            counts[d] = counts.get(d, 0) + len(m.operands)
        best = min(counts, key=lambda d: (-counts[d], d))
        ranks = [
            len(v.type.get_shape())
            for m in members
            for v in m.operands
            if isinstance(v.type, TensorType)
        ]
        return best if all(best < r for r in ranks) else 0

    return choose


def result_bytes(op: Operation) -> int:
    return value_bytes(op.results[0].type)


AUTO = "auto"


def combine_limits(
    threshold_bytes: int | str, threshold_count: int, alpha_us: float, bandwidth_gbps: float
) -> Limits:
    """The plan's limits; `threshold_bytes="auto"` is the alpha-beta rule below.

    The model is `neuron-run --stats`' alpha-beta one: a launch of B bytes per device takes
    alpha + B / beta. Combining k collectives of B bytes in all saves (k - 1) * alpha and moves
    the same bytes, so the combined op is always cheaper than its parts; what it costs is
    waiting: the users of every member now wait for the whole transfer, up to B / beta longer
    than for their own. `auto` combines while that wait stays within what the combination
    saves, B / beta <= (k - 1) * alpha, i.e. B <= (k - 1) * alpha * beta (1 MB per saved launch
    at 10 us and 100 GB/s): many small collectives combine, two large ones do not."""
    if threshold_bytes == AUTO:
        budget = alpha_us * 1e-6 * bandwidth_gbps * 1e9
        return Limits(sys.maxsize, threshold_count, budget)
    if isinstance(threshold_bytes, str):
        raise PassFailedException(
            f"threshold-bytes must be a number of bytes or 'auto', got '{threshold_bytes}'"
        )
    return Limits(threshold_bytes, threshold_count)


@dataclass(frozen=True)
class CombinerPass(ModulePass):
    """The options, key and run the three combiners share. A subclass names its op (`OP`),
    whether the reduction kind is part of the key (`REDUCES`) and its dimension property
    (`DIM`, "" for none: then it has no `combine-by-dim` option)."""

    OP: ClassVar[type[Operation]]
    REDUCES: ClassVar[bool] = False
    DIM: ClassVar[str] = ""

    threshold_bytes: int | str = DEFAULT_THRESHOLD_BYTES
    threshold_count: int = DEFAULT_THRESHOLD_COUNT
    alpha_us: float = DEFAULT.alpha_us
    bandwidth_gbps: float = DEFAULT.bandwidth_gbps
    combine_different_dtypes: bool = False
    skip_while_bodies: bool = False
    remarks: bool = False

    def by_dim(self) -> bool:
        """Whether the dimension is part of the key (`combine-by-dim`)."""
        return True

    def key(self, op: Operation) -> Hashable | None:
        if type(op) is not self.OP:
            return None
        common = common_key(op)
        if common is None:
            return None
        kind = reduction_kind(op.regions[0]) if self.REDUCES else ""
        if kind is None:
            return None
        dim = dimension(op, self.DIM) if self.DIM and self.by_dim() else None
        dtypes = frozenset[Attribute]() if self.combine_different_dtypes else element_types(op)
        return (kind, *common, dim, dtypes)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.combine(op)

    def combine(self, op: ModuleOp, blocks: list[Block] | None = None) -> None:
        """The pass on `op`; `blocks`: the blocks holding two or more of `OP` in `_blocks`'
        order, when the caller knows them (`skip_while_bodies` off)."""
        assert blocks is None or not self.skip_while_bodies
        relabel = None
        if self.DIM and not self.by_dim():
            relabel = Relabel(self.DIM, most_frequent_dimension(self.DIM))
        combine_collectives(
            op,
            self.key,
            result_bytes,
            combine_limits(
                self.threshold_bytes, self.threshold_count, self.alpha_us, self.bandwidth_gbps
            ),
            Remarks(self.name, self.remarks),
            skip_while_bodies=self.skip_while_bodies,
            relabel=relabel,
            candidates=self.OP,
            closed_regions=self.REDUCES,  # the key holds the reducer's kind (never None)
            blocks=blocks,
        )
