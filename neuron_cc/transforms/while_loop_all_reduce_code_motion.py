"""neuron-while-loop-all-reduce-code-motion: sink accumulated all-reduces out of while loops.

A loop body that all-reduces a contribution every iteration and adds it into a loop-carried
buffer (`acc' = acc + AR(x)`) computes `init + sum_i AR(x_i)`; since AR is linear this equals
`init + AR(sum_i x_i)`. The pass accumulates the LOCAL contributions in the loop (starting
from zero) and issues ONE all-reduce after the loop:

```mlir
// in the body:  %s = hlo.all_reduce(%x) ...; %acc2 = hlo.add %acc, %s
// becomes:      %acc2 = hlo.add %acc, %x            (slot k initialised to zero)
// after loop:   %g = get_tuple_element %while[k]; %r = hlo.all_reduce(%g) ...;
//               %final = hlo.add %init_k, %r         (old init first; inits need not be zero)
```

Port of XLA's WhileLoopAllReduceCodeMotion. Legality (each failure is a remark):
- the reduction is a simple binary op with an identity (add, multiply, maximum, minimum, and,
  or, xor; see analysis/accumulation.py for the proof); element type bf16/f16/f32/f64/
  s8..s64/u8..u64 (pred for and/or/xor); a single operand; no `constrain_layout`; the replica
  groups pass the `reference-replica-groups` gate;
- every use of the result reaches the reducer's own op combining it with
  `get_tuple_element(body_arg, k)` (`acc + AR(x)`, `max(acc, AR(x))`, ...) through
  bitcast/reshape/transpose/slice/broadcast, converts that commute with the reducer,
  `select(p, x, identity)` and, for sums, `x * s` / `x / s` with s an effective scalar (p and
  s replicated within the groups); the buffer side may go through convert/bitcast/reshape/
  transpose and one dynamic_slice, mirrored by the output side and one dynamic_update_slice
  with IDENTICAL indices replicated within the groups; the result is returned at slot k;
- or (any reducer, all_reduce only) the dynamic-update-slice mode of
  analysis/update_slices.py: the result written into rows indexed by the loop counter is
  all-reduced once on the written box after the loop (transforms/update_slice_sink.py);
- an accumulation inside a `conditional` with a replicated branch index is split out of it
  first (transforms/conditional_accumulation.py);
- slot k has no other user, and the loop condition does not read it (stricter than XLA,
  docs/decisions.md §6.2);
- reduce_scatter (option `enable-reduce-scatter`): direct `add(RS(x), gte)` only; the slot is
  widened to the pre-scatter shape and one reduce_scatter runs after the loop.
`run-setup-passes` first rewrites `convert(AR(x))` into `AR(convert(x))` (except an all-reduce
converted back to its operand's source type) and `transpose(convert*(RS(x)))` into
`convert*(RS(transpose(x)))`; a reduce-scatter is never widened (it keeps its element type).
Every collective of a loop body gets a remark (collective_permute, all_to_all, ...: "not a
reduction"), and the pass ends with a summary remark (hoisted N all-reduce and M
reduce-scatter out of while loops), as XLA logs.
Differences from XLA: a fresh channel id only when the original had one (docs/decisions.md §6.1); the
condition check above. Modules with num_partitions > 1 without `hlo.use_spmd_partitioning`
are left unchanged. The new slot inits of one loop share one identity buffer per type and
reducer (XLA builds one per slot; SSA values are immutable, so the values are the same).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import (
    IntegerAttr,
    ModuleOp,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis.accumulation import (
    BITWISE,
    COMBINERS,
    Accumulation,
    NotMovable,
    SlotUsers,
    buffer_users_problem,
    is_identity,
    trace_accumulations,
)
from neuron_cc.analysis.induction import LoopInfo, analyze_loop
from neuron_cc.analysis.overwrites import Overwrite, check_overwrite, returned_slot
from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.analysis.remarks import Remarks
from neuron_cc.analysis.replication import ReplicationAnalysis
from neuron_cc.analysis.update_slices import (
    DEFAULT_DUS_MAX_SIZE_BYTES,
    LoopReads,
    UpdateSlice,
    loop_reads,
    match_update_slice,
)
from neuron_cc.analysis.while_loops import (
    ReadIndex,
    condition_reads_slot,
    erase_if_dead,
    while_ops_post_order,
)
from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.collectives import AllReduceOp, CollectiveOp, ReduceScatterOp
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, TupleOp, WhileOp
from neuron_cc.dialects.hlo.data_movement import (
    BitcastOp,
    BroadcastOp,
    DynamicUpdateSliceOp,
    ReshapeOp,
)
from neuron_cc.dialects.hlo.elementwise import DivideOp, MultiplyOp
from neuron_cc.dialects.hlo.elementwise_misc import CompareOp, ConvertOp, SelectOp
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp, RecvOp, SendOp
from neuron_cc.dialects.hlo.types import (
    element_type_name,
    is_float_type,
    is_pred_type,
)
from neuron_cc.dialects.op_classes import of_class
from neuron_cc.dialects.replica_groups import (
    USE_SPMD_ATTR,
    device_counts,
    flattened_participants,
    matches_reference,
    parse_reference_groups,
)
from neuron_cc.dialects.value_edits import (
    operand_edits,
    replace_values,
    set_type,
)
from neuron_cc.transforms.conditional_accumulation import apply_split, find_splits
from neuron_cc.transforms.loop_slots import (
    identity_buffer,
    init_slots,
    replace_loop_result,
    retype_root,
    retype_slots,
)
from neuron_cc.transforms.threshold_flags import Flag, apply_flags, check_flag, find_flag
from neuron_cc.transforms.update_slice_sink import sink_update_slices
from neuron_cc.transforms.while_loop_all_reduce_setup import run_setup


@dataclass
class _Context:
    remarks: Remarks
    reference: tuple[tuple[int, ...], ...] | None
    replicas: int
    partitions: int
    enable_reduce_scatter: bool
    dus_max_size_bytes: int = DEFAULT_DUS_MAX_SIZE_BYTES
    next_channel: int = 1
    """1 + the module's largest channel id, counted before the first rewrite (in the walk that
    finds the loops)."""
    replication: ReplicationAnalysis | None = None
    moved: dict[str, int] = field(default_factory=dict[str, int])
    slot_users: SlotUsers | None = None
    """The body argument's users by slot, for the loop being planned."""
    read_index: ReadIndex | None = None
    """The planned loop's reads (`_flag_reason`), indexed once for all its collectives."""

    def channel_for(self, old: IntegerAttr | None) -> IntegerAttr | None:
        """A fresh channel id for a moved collective that had one (docs/decisions.md §6.1)."""
        return None if old is None else self.channel()

    def count(self, ops: Sequence[CollectiveOp]) -> None:
        for op in ops:
            self.moved[op.name] = self.moved.get(op.name, 0) + 1

    def summary(self) -> str:
        ar = self.moved.get("hlo.all_reduce", 0)
        rs = self.moved.get("hlo.reduce_scatter", 0)
        return f"hoisted {ar} all-reduce and {rs} reduce-scatter out of while loops"

    def replicated(self, value: SSAValue, op: CollectiveOp) -> bool:
        if self.replication is None:
            self.replication = ReplicationAnalysis(self.replicas, self.partitions)
        groups = flattened_participants(
            op.replica_groups.groups(), op.mode(), self.replicas, self.partitions
        )
        return self.replication.is_replicated_within(value, groups)

    def channel(self) -> IntegerAttr:
        attr = IntegerAttr(self.next_channel, 64)
        self.next_channel += 1
        return attr


def _basic_problem(op: CollectiveOp, ctx: _Context, kind: str | None) -> str | None:
    """Why `op` (whose reducer is `kind`, `reduction_kind` of its region) can never move."""
    if len(op.operands) != 1:
        return "tuple-shaped collectives are not moved"
    if kind is None or kind not in COMBINERS:
        return f"reduction is {kind[4:] if kind else 'not a simple binary op'}: no accumulation"
    element = op.operands[0].type
    if (
        isinstance(element, TensorType)
        and is_pred_type(element.element_type)
        and kind not in BITWISE
    ):
        return f"element type {element_type_name(element.element_type)} is not supported"
    if op.constrain_layout is not None:
        return "constrain_layout is set"
    if ctx.reference is not None and not matches_reference(
        op.replica_groups.groups(), ctx.reference
    ):
        return "replica groups do not match reference-replica-groups"
    return None


def _check(op: CollectiveOp, loop: WhileOp, ctx: _Context) -> list[Accumulation]:
    """The accumulations of `op` if it can move (raises NotMovable with the reason)."""
    found = reduction_kind(op.regions[0])
    problem = _basic_problem(op, ctx, found)
    if problem is not None:
        raise NotMovable(problem)
    body = loop.body.blocks[0]
    kind = found or "hlo.add"
    if isinstance(op, ReduceScatterOp):
        accumulations = trace_accumulations(
            op, body, forwarding=(ConvertOp,), kind=kind, allow_scale=False
        )
        if any(a.buffer_chain or a.dynamic_slice for a in accumulations):
            raise NotMovable("a reduce_scatter accumulation must be a direct add into the buffer")
        for acc in accumulations:
            for select in acc.selects:
                if _scalar_of_broadcast(select.pred) is None:
                    raise NotMovable(
                        "select predicate on a reduce_scatter result is not a broadcast scalar"
                    )
    else:
        accumulations = trace_accumulations(op, body, kind=kind)
    for acc in accumulations:
        _check_slot(acc, loop, op, ctx)
    return accumulations


def _check_slot(acc: Accumulation, loop: WhileOp, op: CollectiveOp, ctx: _Context) -> None:
    arg = loop.body.blocks[0].args[0]
    consumers: list[Operation] = [acc.add]
    if acc.buffer_chain:
        consumers.append(acc.buffer_chain[0])
    if acc.dynamic_slice is not None:
        consumers.append(acc.dynamic_slice)
    if acc.dynamic_update_slice is not None:
        consumers.append(acc.dynamic_update_slice)
    problem = buffer_users_problem(arg, acc.slot, consumers, ctx.slot_users)
    if problem is not None:
        raise NotMovable(problem)
    if condition_reads_slot(loop, acc.slot, ctx.read_index):
        raise NotMovable("accumulation buffer is read by the loop condition")
    _check_replicated(acc, op, ctx)


def _check_replicated(acc: Accumulation, op: CollectiveOp, ctx: _Context) -> None:
    """Select predicates and DS/DUS indices must agree within every replica group."""
    for select in acc.selects:
        if not ctx.replicated(select.pred, op):
            raise NotMovable("select predicate is not replicated within the replica groups")
    for factor in acc.scales:
        if not ctx.replicated(factor, op):
            raise NotMovable("scale factor is not replicated within the replica groups")
    if acc.dynamic_slice is not None:
        for index in acc.dynamic_slice.start_indices:
            if not ctx.replicated(index, op):
                raise NotMovable(
                    "dynamic-update-slice index is not replicated within the replica groups"
                )


def _scalar_of_broadcast(value: SSAValue) -> SSAValue | None:
    """The rank-0 operand of `broadcast(scalar)`, else None."""
    owner = value.owner
    if not isinstance(owner, BroadcastOp):
        return None
    t = owner.operand.type
    return owner.operand if isinstance(t, TensorType) and not t.get_shape() else None


def _widen_value_chain(acc: Accumulation, wide: TensorType[Attribute]) -> None:
    """Re-type the ops between a removed reduce_scatter and its combine to the pre-scatter
    shape: converts keep their element type; select(broadcast(p), RS, e) re-broadcasts p and
    widens the identity."""
    shape = wide.get_shape()
    for op in acc.value_chain:
        if isinstance(op, ConvertOp):
            element = op.result.type.element_type
            set_type(op.result, TensorType(element, shape))
        elif isinstance(op, SelectOp):
            _widen_select(op, acc.kind, shape)


def _widen_select(select: SelectOp, kind: str, shape: Sequence[int]) -> None:
    scalar = _scalar_of_broadcast(select.pred)
    if scalar is None:
        return
    wide_value = select.on_true if is_identity(select.on_false, kind) else select.on_false
    value_type = wide_value.type
    if not isinstance(value_type, TensorType):
        return
    pred = BroadcastOp.create(
        operands=[scalar],
        result_types=[TensorType(scalar.type.element_type, shape)],  # pyright: ignore[reportAttributeAccessIssue]
        properties={"dimensions": DimensionsAttr(())},
    )
    identity = identity_buffer(TensorType(value_type.element_type, shape), kind)
    Rewriter.insert_op([pred, *identity], InsertPoint.before(select))
    identity_index = 2 if is_identity(select.on_false, kind) else 1
    old = [select.pred.owner, select.operands[identity_index].owner]
    select.operands[0] = pred.results[0]
    select.operands[identity_index] = identity[-1].results[0]
    set_type(select.results[0], value_type)
    for owner in old:
        if isinstance(owner, Operation):
            erase_if_dead(owner)


def _post_loop(
    loop: WhileOp, acc: Accumulation, init: SSAValue, regions: list[Region], ctx: _Context
) -> list[Operation]:
    """gte -> [convert] -> collective (with `regions`, the reducer) -> [convert] -> add(init, .)
    after the loop."""
    op = acc.collective
    ops: list[Operation] = []
    g = GetTupleElementOp(loop.result, acc.slot)
    ops.append(g)
    value: SSAValue = g.result
    buffer = value.type
    element = op.operands[0].type.element_type  # pyright: ignore[reportAttributeAccessIssue]
    if isinstance(buffer, TensorType) and buffer.element_type != element:
        down = ConvertOp.create(
            operands=[value], result_types=[TensorType(element, buffer.get_shape())]
        )
        ops.append(down)
        value = down.results[0]
    props = dict(op.properties)
    if "channel_id" in props:
        props["channel_id"] = ctx.channel()
    result_type = value.type if isinstance(op, AllReduceOp) else op.results[0].type
    if (
        isinstance(op, ReduceScatterOp)
        and isinstance(buffer, TensorType)
        and buffer.element_type != element
    ):
        result_type = TensorType(element, op.results[0].type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    moved = type(op).create(
        operands=[value],
        result_types=[result_type],
        properties=props,
        attributes=dict(op.attributes),
        regions=regions,
    )
    ops.append(moved)
    value = moved.results[0]
    if value.type.element_type != init.type.element_type:  # pyright: ignore[reportAttributeAccessIssue]
        up = ConvertOp.create(
            operands=[value],
            result_types=[TensorType(init.type.element_type, value.type.get_shape())],  # pyright: ignore[reportAttributeAccessIssue]
        )
        ops.append(up)
        value = up.results[0]
    if _absorbs(init, acc.kind):
        return ops
    combine = COMBINERS[acc.kind]
    ops.append(combine.create(operands=[init, value], result_types=[init.type]))
    return ops


def _absorbs(init: SSAValue, kind: str) -> bool:
    """`init @ v == v` bit for bit: init is @'s identity, and @ is not a float sum (where
    `+0.0 + -0.0` is `+0.0`)."""
    t = init.type
    float_sum = kind == "hlo.add" and isinstance(t, TensorType) and is_float_type(t.element_type)
    return not float_sum and is_identity(init, kind)


def _identity_inits(
    accumulations: list[Accumulation], slots: list[SSAValue]
) -> tuple[list[SSAValue], list[Operation]]:
    """The loop's new init values (each accumulated slot starts at its reducer's identity, at
    the pre-scatter shape for a reduce-scatter) and the ops building them: one identity buffer
    per type and reducer, shared by the slots that need it."""
    new_slots = list(slots)
    zeros: list[Operation] = []
    identities: dict[tuple[Attribute, str], SSAValue] = {}
    for acc in accumulations:
        wide = slots[acc.slot].type
        if isinstance(acc.collective, ReduceScatterOp):
            wide = TensorType(wide.element_type, acc.collective.operands[0].type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
        key = (wide, acc.kind)
        if key not in identities:
            identity = identity_buffer(wide, acc.kind)
            zeros.extend(identity)
            identities[key] = identity[-1].results[0]
        new_slots[acc.slot] = identities[key]
    return new_slots, zeros


def _rewrite(loop: WhileOp, accumulations: list[Accumulation], ctx: _Context) -> None:
    old_uses = list(loop.result.uses)
    slots = init_slots(loop)
    old_inits = {acc.slot: slots[acc.slot] for acc in accumulations}
    new_slots, zeros = _identity_inits(accumulations, slots)
    init = TupleOp(new_slots)
    Rewriter.insert_op([*zeros, init], InsertPoint.before(loop))
    old_init = loop.init.owner
    loop.operands[0] = init.result
    collectives = {id(a.collective): a.collective for a in accumulations}
    scattered = [acc for acc in accumulations if isinstance(acc.collective, ReduceScatterOp)]
    retype_slots(loop, {acc.slot: new_slots[acc.slot].type for acc in scattered})
    for acc in scattered:
        set_type(acc.add.results[0], new_slots[acc.slot].type)
    # The reducer regions move with the collective (the first copy after the loop takes them,
    # any further one clones them): no clone of a region that is erased next.
    reducers: dict[int, list[Region]] = {}
    replace_values((op.results[0], op.operands[0]) for op in collectives.values())
    for key, op in collectives.items():
        reducers[key] = [op.detach_region(r) for r in list(op.regions)]
        Rewriter.erase_op(op)
    for acc in accumulations:
        if isinstance(acc.collective, ReduceScatterOp):
            _widen_value_chain(acc, new_slots[acc.slot].type)  # pyright: ignore[reportArgumentType]
    retype_root(loop)
    after: list[Operation] = []
    finals: dict[int, SSAValue] = {}
    for acc, regions in _reducers_once(accumulations, reducers):
        ops = _post_loop(loop, acc, old_inits[acc.slot], regions, ctx)
        after.extend(ops)
        finals[acc.slot] = ops[-1].results[0]
    replace_loop_result(loop, finals, after, old_uses)
    if isinstance(old_init, Operation):
        erase_if_dead(old_init)  # after the post-loop adds took the old init values


def _reducers_once(
    accumulations: list[Accumulation], reducers: dict[int, list[Region]]
) -> Iterator[tuple[Accumulation, list[Region]]]:
    """The accumulations by slot, each with its collective's reducer regions: the detached
    originals for the first accumulation of a collective, clones for any further one."""
    placed: set[int] = set()
    for acc in sorted(accumulations, key=lambda a: a.slot):
        key = id(acc.collective)
        regions = reducers[key]
        yield acc, [r.clone() for r in regions] if key in placed else regions
        placed.add(key)


def _candidates(body: Block, enable_rs: bool) -> list[CollectiveOp]:
    kinds: tuple[type[CollectiveOp], ...] = (
        (AllReduceOp, ReduceScatterOp) if enable_rs else (AllReduceOp,)
    )
    return of_class(body.ops, kinds)  # pyright: ignore[reportReturnType]


_COLLECTIVES = (CollectiveOp, CollectivePermuteOp, SendOp, RecvOp)


def remark_other_collectives(body: Block, ctx: _Context) -> None:
    """A remark for every collective of the body that this pass never moves: collectives that
    are not reductions, reduce-scatters when disabled, and collectives nested in the regions of
    body ops (conditionals, calls' regions), except inside inner loops (they get their own)."""
    for op in body.ops:
        if isinstance(op, AllReduceOp | ReduceScatterOp):
            if isinstance(op, ReduceScatterOp) and not ctx.enable_reduce_scatter:
                ctx.remarks.remark(op, "reduce_scatter motion is disabled (enable-reduce-scatter)")
            continue
        if isinstance(op, WhileOp):
            continue
        if isinstance(op, _COLLECTIVES):
            ctx.remarks.remark(op, f"{op.name[4:]} is not a reduction: never moved by this pass")
        for inner in op.walk(region_first=False):
            if inner is not op and isinstance(inner, _COLLECTIVES) and not _in_loop(inner, op):
                ctx.remarks.remark(inner, f"inside {op.name[4:]} in the loop body: not moved")


def _in_loop(inner: Operation, top: Operation) -> bool:
    parent = inner.parent_op()
    while parent is not None and parent is not top:
        if isinstance(parent, WhileOp):
            return True
        parent = parent.parent_op()
    return False


@dataclass
class _Plan:
    """What moves out of one loop: accumulations and dynamic-update-slice sinks."""

    accumulations: list[Accumulation] = field(default_factory=list[Accumulation])
    slices: list[UpdateSlice] = field(default_factory=list[UpdateSlice])
    overwrites: list[Overwrite] = field(default_factory=list[Overwrite])
    moved: list[CollectiveOp] = field(default_factory=list[CollectiveOp])


def _reaches_update_slice(op: CollectiveOp) -> bool:
    """The collective's single-use chain (reshape/bitcast/convert) ends in a DUS update."""
    value = op.results[0]
    for _ in range(64):
        uses = list(value.uses)
        if len(uses) != 1:
            return False
        user = uses[0].operation
        if isinstance(user, DynamicUpdateSliceOp):
            return True
        if not isinstance(user, ReshapeOp | BitcastOp | ConvertOp | MultiplyOp | DivideOp):
            return False
        value = user.results[0]
    return False


def _plan_collective(
    op: CollectiveOp, loop: WhileOp, ctx: _Context, info: LoopInfo | None, reads: LoopReads
) -> tuple[list[Accumulation], UpdateSlice | Overwrite | None]:
    """How `op` leaves the loop (raises NotMovable with the most relevant reason)."""
    try:
        return _check(op, loop, ctx), None
    except NotMovable as e:
        if isinstance(op, AllReduceOp) and str(e).endswith("result: compare"):
            e = _flag_reason(op, loop, e, ctx.read_index)
        if not isinstance(op, AllReduceOp) or (
            ctx.reference is not None
            and not matches_reference(op.replica_groups.groups(), ctx.reference)
        ):
            raise
        accumulation_reason = e.detached()
    if returned_slot(op, loop) is not None:
        return [], check_overwrite(op, loop, info, ctx.slot_users, ctx.read_index)
    try:
        found = match_update_slice(
            op,
            loop,
            info,
            lambda v: ctx.replicated(v, op),
            ctx.dus_max_size_bytes,
            reads=reads,
        )
    except NotMovable as e:
        raise (e if _reaches_update_slice(op) else accumulation_reason) from None
    return [], found


def _flag_reason(
    op: AllReduceOp, loop: WhileOp, fallback: NotMovable, index: ReadIndex | None
) -> NotMovable:
    """Why the compare after `op` is not a threshold flag the motion handles."""
    try:
        check_flag(op, loop, index)
    except NotMovable as e:
        return e
    return fallback


def _plan(loop: WhileOp, ctx: _Context) -> _Plan:
    body = loop.body.blocks[0]
    info, reads = analyze_loop(loop), loop_reads(loop)
    plan = _Plan()
    ctx.slot_users = SlotUsers(body.args[0])
    ctx.read_index = ReadIndex()
    for op in _candidates(body, ctx.enable_reduce_scatter):
        try:
            accumulations, found = _plan_collective(op, loop, ctx, info, reads)
        except NotMovable as e:
            ctx.remarks.remark(op, str(e.detached()))
            continue
        ctx.remarks.remark(op, "moved")
        plan.accumulations.extend(accumulations)
        if isinstance(found, Overwrite):
            plan.overwrites.append(found)
        elif found is not None:
            plan.slices.append(found)
        plan.moved.append(op)
    ctx.slot_users = ctx.read_index = None
    return plan


def _sink_overwrites(loop: WhileOp, overwrites: list[Overwrite], ctx: _Context) -> None:
    """The loop returns each overwrite's local value; one all-reduce of it follows the loop."""
    old_uses = list(loop.result.uses)
    after: list[Operation] = []
    finals: dict[int, SSAValue] = {}
    with operand_edits() as edits:  # the body's root tuple is rebuilt once for all of them
        for ow in overwrites:
            op = ow.collective
            edits.set(ow.root, ow.slot, op.operands[0])
            read = GetTupleElementOp(loop.result, ow.slot)
            props = dict(op.properties)
            if "channel_id" in props:
                props["channel_id"] = ctx.channel()
            moved = AllReduceOp.create(
                operands=[read.result],
                result_types=[op.results[0].type],
                properties=props,
                attributes=dict(op.attributes),
                regions=[r.clone() for r in op.regions],
            )
            Rewriter.erase_op(op)
            after.extend([read, moved])
            finals[ow.slot] = moved.results[0]
    replace_loop_result(loop, finals, after, old_uses)


def _rewrite_flags(loop: WhileOp, ctx: _Context) -> None:
    """Threshold flags fed by movable all-reduces become running max/min accumulations: all
    of the loop's found first (on the loop as it is), then rewritten together."""
    index = ReadIndex()
    found: list[tuple[AllReduceOp, Flag]] = []
    for op in _candidates(loop.body.blocks[0], enable_rs=False):
        if not isinstance(op, AllReduceOp):
            continue
        result = op.results[0]
        use = result.first_use
        if use is None or not result.has_one_use() or not isinstance(use.operation, CompareOp):
            continue  # a flag is an all-reduce whose only user is a compare (`check_flag`)
        if _basic_problem(op, ctx, reduction_kind(op.regions[0])) is not None:
            continue
        flag = find_flag(op, loop, index)
        if flag is not None:
            found.append((op, flag))
    if not found:
        return
    apply_flags(loop, [flag for _, flag in found])
    ctx.replication = None
    for op, flag in found:
        reducer = flag.kind[4:]
        ctx.remarks.remark(
            op,
            f"the {flag.combine.name[4:]}-flag of a {reducer} threshold is carried as a running "
            f"{reducer} (the compare runs after the loop)",
        )


def process_loop(loop: WhileOp, ctx: _Context, setup: bool) -> None:
    body = loop.body.blocks[0]
    if setup:
        run_setup(body, ctx.enable_reduce_scatter)
    if not isinstance(loop.result.type, TupleType):
        for op in _candidates(body, ctx.enable_reduce_scatter):
            ctx.remarks.remark(op, "the loop-carried value is not a tuple")
        if ctx.remarks.active:
            remark_other_collectives(body, ctx)
        return
    with operand_edits() as edits:  # each wide tuple rebuilt once for all the splits
        for split in find_splits(loop, ctx.replicated):
            moved = apply_split(split, identity_buffer, edits)
            ctx.remarks.remark(moved, "split out of a conditional with a replicated branch index")
    _rewrite_flags(loop, ctx)
    plan = _plan(loop, ctx)
    if ctx.remarks.active:
        remark_other_collectives(body, ctx)
    if plan.slices or plan.overwrites or plan.accumulations:
        _apply(loop, plan, ctx)
    ctx.count(plan.moved)


def _apply(loop: WhileOp, plan: _Plan, ctx: _Context) -> None:
    """Rewrite `loop` as `plan` says: update-slice sinks, overwrites, then accumulations."""
    if plan.slices:
        sink_update_slices(loop, plan.slices, ctx.channel_for)
        ctx.replication = None  # a snapshot of the IR before the rewrite
    if plan.overwrites:
        _sink_overwrites(loop, plan.overwrites, ctx)
        ctx.replication = None
    slots = [a.slot for a in plan.accumulations]
    if plan.accumulations and len(set(slots)) == len(slots):
        _rewrite(loop, plan.accumulations, ctx)
        ctx.replication = None


@dataclass(frozen=True)
class WhileLoopAllReduceCodeMotionPass(ModulePass):
    """Sink add-accumulated all-reduces (and reduce-scatters) out of while loops."""

    name = "neuron-while-loop-all-reduce-code-motion"

    enable_reduce_scatter: bool = False
    run_setup_passes: bool = False
    reference_replica_groups: str = ""
    dus_max_size_bytes: int = DEFAULT_DUS_MAX_SIZE_BYTES
    remarks: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            reference = parse_reference_groups(self.reference_replica_groups)
        except ValueError as e:
            raise PassFailedException(str(e)) from None
        replicas, partitions = device_counts(op)
        remarks = Remarks(self.name, self.remarks)
        channel_ids: list[int] = []
        loops = while_ops_post_order(op, channel_ids)
        if partitions > 1 and USE_SPMD_ATTR not in op.attributes:
            for loop in loops:
                for c in _candidates(loop.body.blocks[0], self.enable_reduce_scatter):
                    remarks.remark(c, "num_partitions > 1 without hlo.use_spmd_partitioning")
            remarks.summary("hoisted 0 all-reduce and 0 reduce-scatter out of while loops")
            return
        state = _Context(
            remarks,
            reference,
            replicas,
            partitions,
            self.enable_reduce_scatter,
            self.dus_max_size_bytes,
            next_channel=max(channel_ids, default=0) + 1,
        )
        for loop in loops:  # innermost first, then program order
            process_loop(loop, state, self.run_setup_passes)
        remarks.summary(state.summary())
