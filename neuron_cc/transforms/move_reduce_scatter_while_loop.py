"""neuron-move-reduce-scatter-while-loop: sink stacked per-iteration collectives out of loops.

A loop that reduce-scatters (or all-reduces) a value every iteration and stores the result in
row `iv` of a loop-carried buffer issues T small collectives. Since the collective is
elementwise in the reduction, `stack_t(RS(x_t)) == RS(stack_t(x_t))` with the scatter dimension
shifted by one: this pass stores the PRE-collective values into a stacked buffer inside the loop
and runs ONE collective on the whole buffer after the loop (issue 6 §2, the dual of the
all-reduce code motion).

Pattern, for every `hlo.reduce_scatter` / `hlo.all_reduce` directly in a while body:
`buf' = dynamic_update_slice(get_tuple_element(body_arg, k), U, iv, 0, ...)` returned at slot
k, where `U` is the collective's result or a reshape of it with a leading dimension of 1, and
`iv` is an induction variable of the loop (seen through copies and JAX's
`select(i < 0, i + N, i)` normalisation, `neuron_cc.analysis.induction`). Legal only if:
- the collective has one operand and its result (and the reshape) feed only that update;
- the update covers whole rows (its dims after the first equal the buffer's) and its other
  indices are zero;
- the trip count T is known ("While loop does not have a known trip count"), the buffer's
  leading dimension is T ("Left-hand side dimension of the tensor being dynamic sliced does not
  match the trip count") and iv starts at 0 with step 1, so every row is written exactly once;
- slot k is read by nothing else in the body or the condition.

Rewrite: slot k becomes the stacked pre-collective buffer `[T, ...operand dims...]` (its init
a zero broadcast: every row is overwritten, the old init is dead); the body stores the
collective's operand (reshaped to a leading 1) at `[iv, 0, ...]`; after the loop ONE collective
on `get_tuple_element(loop, k)` (reduce_scatter: scatter dimension d+1), with the same groups,
flags and reduction, yields exactly the old slot type and replaces the uses of slot k. When the
update is the collective's own result with a leading 1 that is not scattered (all_reduce, or
reduce_scatter with d >= 1), the buffer is `[T, ...operand dims after the first...]` and the
dimension stays d. Any other reshape to a leading 1 gets a reshape after the collective. Loops
are processed innermost first, so a collective sunk out of an inner loop can be sunk out of the
outer loop in the same run. Dead code is then removed.

Deliberate differences (docs/decisions.md §6.1): the sunk collective gets a fresh channel id
(NextChannelId) only if the original had one. Every all_reduce / reduce_scatter inside a loop
body gets a remark (option `remarks`): "moved" or the reason.

```mlir
%rs = hlo.reduce_scatter(%x) dim = 0 ... : (tensor<64x8xf32>) -> tensor<8x8xf32>
%row = hlo.reshape %rs : (tensor<8x8xf32>) -> tensor<1x8x8xf32>
%buf2 = hlo.dynamic_update_slice %buf, %row at [%i, %c0, %c0] : ... -> tensor<4x8x8xf32>
// becomes, in the body, a tensor<4x64x8xf32> slot:
%rs_row = hlo.reshape %x : (tensor<64x8xf32>) -> tensor<1x64x8xf32>
%buf2 = hlo.dynamic_update_slice %buf, %rs_row at [%i, %c0, %c0] : ... -> tensor<4x64x8xf32>
// and after the loop:
%rs = hlo.reduce_scatter(%rs_stacked) dim = 1 ... : (tensor<4x64x8xf32>) -> tensor<4x8x8xf32>
```
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count
from typing import cast

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue, Use
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from neuron_cc.analysis.induction import LoopInfo, analyze_loop, tuple_element
from neuron_cc.analysis.remarks import Remarks
from neuron_cc.analysis.while_loops import while_ops_post_order
from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.collectives import AllReduceOp, ReduceScatterOp
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, ReturnOp, TupleOp, WhileOp
from neuron_cc.dialects.hlo.data_movement import BroadcastOp, DynamicUpdateSliceOp, ReshapeOp
from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp
from neuron_cc.dialects.hlo.types import is_float_type, shape_of, tensor_type, tuple_type
from neuron_cc.dialects.op_classes import of_class
from neuron_cc.dialects.replica_groups import next_channel_id
from neuron_cc.dialects.value_edits import replace_values, set_type
from neuron_cc.transforms.hlo_dce import eliminate_dead_code

Collective = AllReduceOp | ReduceScatterOp
COLLECTIVES = (AllReduceOp, ReduceScatterOp)

NO_TRIP_COUNT = "While loop does not have a known trip count"
BAD_LEADING_DIM = (
    "Left-hand side dimension of the tensor being dynamic sliced does not match the trip count"
)


class NotSinkable(Exception):
    """Why a collective cannot be sunk (the remark text)."""


@dataclass(frozen=True)
class Sink:
    """One collective to sink, and the shapes of its rewrite."""

    collective: Collective
    reshape: ReshapeOp | None
    dus: DynamicUpdateSliceOp
    slot: int
    stacked: TensorType[Attribute]
    """The new slot type (the stacked pre-collective values)."""
    direct: bool
    """The body stores the operand itself (no reshape); the dimension is unchanged."""


# ---------------------------------------------------------------------------
# matching
# ---------------------------------------------------------------------------


def _single_user(value: SSAValue) -> Operation:
    """The only user of `value` (NotSinkable when there are none or several)."""
    if value.first_use is None:
        raise NotSinkable(
            "result is not written into a loop-carried buffer by dynamic-update-slice"
        )
    use = value.get_unique_use()
    if use is None:
        raise NotSinkable("result has users other than the dynamic-update-slice")
    return use.operation


def _store(collective: Collective) -> tuple[ReshapeOp | None, DynamicUpdateSliceOp]:
    """The optional reshape and the dynamic_update_slice that store the collective's result."""
    if len(collective.operands_) != 1:
        raise NotSinkable("collective has several operands (tuple-shaped)")
    user = _single_user(collective.result)
    reshape = user if isinstance(user, ReshapeOp) else None
    stored = collective.result
    if reshape is not None:
        user = _single_user(reshape.result)
        stored = reshape.result
    if not isinstance(user, DynamicUpdateSliceOp) or user.update is not stored:
        raise NotSinkable(
            "result is not written into a loop-carried buffer by dynamic-update-slice"
        )
    return reshape, user


def _slot(info: LoopInfo, dus: DynamicUpdateSliceOp) -> int:
    """Slot k of `dus`'s buffer, checking that the body returns the update at slot k."""
    found = info.slot_of(dus.operand)
    if found is None or found[1]:
        raise NotSinkable(
            "dynamic-update-slice buffer is not a loop-carried value "
            "(get-tuple-element of the loop body argument)"
        )
    k = found[0]
    body = info.loop.body.blocks[0]
    last = body.last_op
    root = last.operands[0].owner if isinstance(last, ReturnOp) and last.operands else None
    use = dus.result.get_unique_use()
    if (
        not isinstance(root, TupleOp)
        or use is None
        or use.operation is not root
        or use.index != k
        or not root.result.has_one_use()
    ):
        raise NotSinkable(
            f"dynamic-update-slice result is not returned at slot {k} by the loop body"
        )
    return k


def _check_rows(dus: DynamicUpdateSliceOp) -> None:
    buffer, update = shape_of(dus.operand), shape_of(dus.update)
    if not update or update[0] != 1:
        raise NotSinkable("dynamic-update-slice update does not have a leading dimension of 1")
    if update[1:] != buffer[1:]:
        raise NotSinkable("dynamic-update-slice update does not cover whole rows of the buffer")


def _check_indices(info: LoopInfo, dus: DynamicUpdateSliceOp) -> None:
    """Trip count, leading dimension, induction variable and zero trailing indices."""
    trip = info.trip_count
    if trip is None:
        raise NotSinkable(NO_TRIP_COUNT)
    if shape_of(dus.operand)[0] != trip:
        raise NotSinkable(BAD_LEADING_DIM)
    first, *rest = dus.start_indices
    j = info.equals_induction(first)
    if j is None:
        raise NotSinkable("dynamic-update-slice index is not a loop induction variable")
    iv = info.induction[j]
    if (iv.init, iv.step) != (0, 1):
        raise NotSinkable(
            f"induction variable starts at {iv.init} with step {iv.step}, not at 0 with step 1"
        )
    for d, index in enumerate(rest, start=1):
        if info.value_range(index) != (0, 0):
            raise NotSinkable(f"dynamic-update-slice index {d} is not zero")


@dataclass(frozen=True)
class SlotReads:
    """Who reads the loop's tuple slots (computed once per loop)."""

    escape: str | None
    """The remark when a region argument has a user other than get_tuple_element."""
    body: dict[int, list[Use]]
    """The uses of each slot's get_tuple_elements in the body."""
    condition: frozenset[int]
    """The slots the condition reads."""


def slot_reads(info: LoopInfo) -> SlotReads:
    escape: str | None = None
    body: dict[int, list[Use]] = {}
    condition: set[int] = set()
    for arg, where in ((info.body_arg, "loop body"), (info.condition_arg, "loop condition")):
        for use in arg.uses:
            user = use.operation
            if not isinstance(user, GetTupleElementOp):
                escape = escape or (
                    f"{where} argument is used by '{user.name}', not only by get-tuple-element"
                )
                continue
            k = user.index.value.data
            if where == "loop body":
                body.setdefault(k, []).extend(user.result.uses)
            elif user.result.first_use is not None:
                condition.add(k)
    return SlotReads(escape, body, frozenset(condition))


def _check_reads(reads: SlotReads, k: int, dus: DynamicUpdateSliceOp) -> None:
    """Slot k is read only by the dynamic_update_slice (body) and not at all (condition)."""
    if reads.escape is not None:
        raise NotSinkable(reads.escape)
    if k in reads.condition:
        raise NotSinkable(f"buffer slot {k} is read by the loop condition")
    uses = reads.body.get(k, [])
    if len(uses) != 1 or uses[0].operation is not dus or uses[0].index != 0:
        raise NotSinkable(f"buffer slot {k} is read by other operations in the loop body")


def match(collective: Collective, info: LoopInfo, reads: SlotReads) -> Sink:
    """The sink of `collective` (raises NotSinkable with the reason)."""
    reshape, dus = _store(collective)
    k = _slot(info, dus)
    _check_rows(dus)
    _check_reads(reads, k, dus)
    _check_indices(info, dus)
    trip = shape_of(dus.operand)[0]
    operand = tensor_type(collective.operands_[0])
    scatters_rows = (
        isinstance(collective, ReduceScatterOp) and collective.scatter_dimension.value.data == 0
    )
    direct = reshape is None and not scatters_rows
    rows = operand.get_shape()[1:] if direct else operand.get_shape()
    stacked = TensorType(operand.element_type, (trip, *rows))
    return Sink(collective, reshape, dus, k, stacked, direct)


# ---------------------------------------------------------------------------
# rewriting
# ---------------------------------------------------------------------------


def _base_name(op: Operation) -> str:
    hint = op.results[0].name_hint
    return hint if hint else "sunk"


def _slot_types(loop: WhileOp) -> list[Attribute]:
    t = loop.init.type
    return list(t.types.data) if isinstance(t, TupleType) else []


def _zero_broadcast(t: TensorType[Attribute], name: str) -> list[Operation]:
    scalar = TensorType(t.element_type, ())
    value: float = 0.0 if is_float_type(t.element_type) else 0
    zero = ConstantOp(DenseIntOrFPElementsAttr.from_list(scalar, [value]))  # pyright: ignore[reportCallIssue, reportArgumentType]
    zero.result.name_hint = f"{name}_zero"
    init = BroadcastOp.create(
        operands=[zero.result], result_types=[t], properties={"dimensions": DimensionsAttr(())}
    )
    init.results[0].name_hint = f"{name}_init"
    return [zero, init]


def _new_init(loop: WhileOp, sinks: list[Sink]) -> TupleOp:
    """The loop's init tuple with a zero stacked buffer at every sunk slot (inserted)."""
    values: list[SSAValue] = []
    for i in range(len(_slot_types(loop))):
        element = tuple_element(loop.init, i)
        if element is None:  # defensive: a known trip count implies an init tuple op
            gte = GetTupleElementOp(loop.init, i)
            Rewriter.insert_op(gte, InsertPoint.before(loop))
            element = gte.result
        values.append(element)
    for sink in sinks:
        ops = _zero_broadcast(sink.stacked, _base_name(sink.collective))
        Rewriter.insert_op(ops, InsertPoint.before(loop))
        values[sink.slot] = ops[-1].results[0]
    init = TupleOp(values)
    init.result.name_hint = loop.init.name_hint
    Rewriter.insert_op(init, InsertPoint.before(loop))
    return init


def _stacked_indices(
    dus: DynamicUpdateSliceOp, rank: int, new_ops: list[Operation]
) -> list[SSAValue]:
    """`[iv, 0, ...]` for the stacked buffer (reusing the store's zero index when it has one)."""
    first, *rest = dus.start_indices
    if rank == len(dus.start_indices):
        return [first, *rest]
    if rest:
        zero = rest[0]
    else:
        element = tensor_type(first).element_type
        constant = ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(element, ()), [0]))  # pyright: ignore[reportCallIssue, reportArgumentType]
        constant.result.name_hint = "zero_index"
        new_ops.append(constant)
        zero = constant.result
    return [first, *([zero] * (rank - 1))]


def _rewrite_store(sink: Sink, body_arg: SSAValue) -> SSAValue:
    """Store the collective's operand into the stacked buffer, before the old store (the
    caller replaces the old store's uses by the new one's result, returned, and erases it)."""
    dus, collective = sink.dus, sink.collective
    buffer = GetTupleElementOp.create(
        operands=[body_arg],
        result_types=[sink.stacked],
        properties={"index": IntegerAttr(sink.slot, 64)},
    )
    buffer.results[0].name_hint = dus.operand.name_hint
    new_ops: list[Operation] = [buffer]
    update = collective.operands_[0]
    if not sink.direct:
        row = ReshapeOp.create(
            operands=[update],
            result_types=[TensorType(sink.stacked.element_type, (1, *shape_of(update)))],
        )
        row.results[0].name_hint = f"{_base_name(collective)}_row"
        new_ops.append(row)
        update = row.results[0]
    indices = _stacked_indices(dus, sink.stacked.get_num_dims(), new_ops)
    store = DynamicUpdateSliceOp.create(
        operands=[buffer.results[0], update, *indices],
        result_types=[sink.stacked],
        attributes=dict(dus.attributes),
    )
    store.results[0].name_hint = dus.result.name_hint
    new_ops.append(store)
    Rewriter.insert_op(new_ops, InsertPoint.before(dus))
    return store.results[0]


def _retype_argument(block: Block, new_type: TupleType, slots: set[int]) -> SSAValue:
    """Re-type the block argument; erase the unused old gtes of the re-typed slots."""
    for use in list(block.args[0].uses):
        user = use.operation
        if (
            isinstance(user, GetTupleElementOp)
            and user.index.value.data in slots
            and user.result.first_use is None
        ):
            Rewriter.erase_op(user)
    return set_type(block.args[0], new_type)


def _rewrite_body(loop: WhileOp, sinks: list[Sink], new_type: TupleType) -> None:
    body = loop.body.blocks[0]
    stores = [_rewrite_store(sink, body.args[0]) for sink in sinks]
    # at once: the body's root tuple reads every old store and is rebuilt once
    replace_values((sink.dus.result, store) for sink, store in zip(sinks, stores, strict=True))
    for sink in sinks:
        Rewriter.erase_op(sink.dus)
        if sink.reshape is not None:
            Rewriter.erase_op(sink.reshape)
    _retype_argument(body, new_type, {s.slot for s in sinks})
    _retype_argument(loop.condition.blocks[0], new_type, {s.slot for s in sinks})
    last = body.last_op
    root = last.operands[0].owner if last is not None and last.operands else None
    if isinstance(root, TupleOp):
        new_root = TupleOp(list(root.elements))
        new_root.result.name_hint = root.result.name_hint
        Rewriter.replace_op(root, new_root)


def _post_collective(sink: Sink, stacked: SSAValue, channel: Iterator[int]) -> Operation:
    """The one collective after the loop (same groups, flags, reduction and attributes)."""
    collective = sink.collective
    properties = dict(collective.properties)
    if collective.channel_id is not None:
        properties["channel_id"] = IntegerAttr(next(channel), 64)
    if isinstance(collective, ReduceScatterOp):
        dim = collective.scatter_dimension.value.data
        properties["scatter_dimension"] = IntegerAttr(dim if sink.direct else dim + 1, 64)
    shape = shape_of(collective.result)
    rows = shape[1:] if sink.direct else shape
    trip = sink.stacked.get_shape()[0]
    return type(collective).create(
        operands=[stacked],
        result_types=[TensorType(sink.stacked.element_type, (trip, *rows))],
        properties=properties,
        attributes=dict(collective.attributes),
        regions=[Rewriter.move_region_contents_to_new_regions(collective.to_apply)],
    )


def _after_loop(
    sink: Sink, loop: WhileOp, slot_type: Attribute, channel: Iterator[int]
) -> list[Operation]:
    """`gte(loop, k)`, the one collective on it, and a reshape to the slot type if needed."""
    name = _base_name(sink.collective)
    stacked = GetTupleElementOp(loop, sink.slot)
    stacked.result.name_hint = f"{name}_stacked"
    post = _post_collective(sink, stacked.result, channel)
    post.results[0].name_hint = name
    ops: list[Operation] = [stacked, post]
    if post.results[0].type != slot_type:
        reshape = ReshapeOp.create(operands=[post.results[0]], result_types=[slot_type])
        reshape.results[0].name_hint = f"{name}_rows"
        ops.append(reshape)
    return ops


def _rebuild_tuple(loop: WhileOp, finals: dict[int, SSAValue], anchor: Operation) -> SSAValue:
    """The old carried value (for users of the whole tuple), inserted after `anchor`."""
    name = loop.result.name_hint or "loop"
    size = len(_slot_types(loop))
    gtes = {i: GetTupleElementOp(loop, i) for i in range(size) if i not in finals}
    for i, gte in gtes.items():
        gte.result.name_hint = f"{name}_slot{i}"
    tup = TupleOp([finals[i] if i in finals else gtes[i].result for i in range(size)])
    tup.result.name_hint = f"{name}_tuple"
    Rewriter.insert_op([*gtes.values(), tup], InsertPoint.after(anchor))
    return tup.result


def _replace_results(
    old: WhileOp, new: WhileOp, finals: dict[int, SSAValue], anchor: Operation
) -> None:
    """Uses of the old loop: sunk slots read the post-loop collectives, the rest the new loop."""
    rebuilt: SSAValue | None = None
    for use in list(old.result.uses):
        user = use.operation
        if isinstance(user, GetTupleElementOp):
            k = user.index.value.data
            if k in finals:
                Rewriter.replace_op(user, [], [finals[k]])
            else:
                user.operands[0] = new.result
            continue
        if rebuilt is None:
            rebuilt = _rebuild_tuple(new, finals, anchor)
        user.operands[use.index] = rebuilt


def sink_loop(loop: WhileOp, sinks: list[Sink], channel: Iterator[int]) -> WhileOp:
    """Rewrite `loop` so that every collective of `sinks` runs once after it."""
    old_types = _slot_types(loop)
    new_types = list(old_types)
    for sink in sinks:
        new_types[sink.slot] = sink.stacked
    new_type = tuple_type(new_types)
    init = _new_init(loop, sinks)
    _rewrite_body(loop, sinks, new_type)
    new_loop = WhileOp.create(
        operands=[init.result],
        result_types=[new_type],
        attributes=dict(loop.attributes),
        regions=[
            Rewriter.move_region_contents_to_new_regions(loop.condition),
            Rewriter.move_region_contents_to_new_regions(loop.body),
        ],
    )
    new_loop.result.name_hint = loop.result.name_hint
    Rewriter.insert_op(new_loop, InsertPoint.before(loop))
    after: list[Operation] = []
    finals: dict[int, SSAValue] = {}
    for sink in sorted(sinks, key=lambda s: s.slot):
        ops = _after_loop(sink, new_loop, old_types[sink.slot], channel)
        after.extend(ops)
        finals[sink.slot] = ops[-1].results[0]
        Rewriter.erase_op(sink.collective)
    Rewriter.insert_op(after, InsertPoint.after(new_loop))
    _replace_results(loop, new_loop, finals, after[-1])
    Rewriter.erase_op(loop)
    return new_loop


# ---------------------------------------------------------------------------
# the pass
# ---------------------------------------------------------------------------


def _enclosing_loop(op: Operation) -> WhileOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, WhileOp):
        parent = parent.parent_op()
    return parent


def _enclosing_function(op: Operation) -> func.FuncOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent


def _remark_nested(op: Operation, remarks: Remarks) -> None:
    """A collective inside a loop but not directly in its body cannot be sunk."""
    loop = _enclosing_loop(op)
    if loop is None or op.parent_block() is loop.body.blocks.first:
        return
    if op.parent_block() is loop.condition.blocks.first:
        remarks.remark(op, "collective is in the loop condition")
    else:
        remarks.remark(op, "collective is not directly in the loop body")


def _plan(loop: WhileOp, remarks: Remarks) -> list[Sink]:
    """The sinkable collectives directly in `loop`'s body (remarks for all of them)."""
    body = loop.body.blocks.first
    collectives = cast(list[Collective], of_class(body.ops, COLLECTIVES)) if body else []
    if not collectives:
        return []
    info = analyze_loop(loop)
    reads = slot_reads(info) if info is not None else None
    sinks: list[Sink] = []
    for collective in collectives:
        try:
            if info is None or reads is None:
                raise NotSinkable("the loop-carried value is not a tuple")
            sinks.append(match(collective, info, reads))
            remarks.remark(collective, "moved")
        except NotSinkable as reason:
            remarks.remark(collective, str(reason))
    return sinks


@dataclass(frozen=True)
class MoveReduceScatterWhileLoopPass(ModulePass):
    """Sink reduce_scatter / all_reduce results stacked into a loop buffer out of the loop."""

    name = "neuron-move-reduce-scatter-while-loop"

    remarks: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        remarks = Remarks(self.name, self.remarks)
        loops = while_ops_post_order(op)  # inner loops first, else program order
        if remarks.active:
            for inner in op.walk(region_first=True):
                if isinstance(inner, COLLECTIVES):
                    _remark_nested(inner, remarks)
        channel: Iterator[int] | None = None  # the module is walked for it at the first sink
        touched: dict[int, Block] = {}
        for loop in loops:
            sinks = _plan(loop, remarks)
            if not sinks:
                continue
            if channel is None:
                channel = count(next_channel_id(op.walk()))
            new_loop = sink_loop(loop, sinks, channel)
            function = _enclosing_function(new_loop)
            if function is not None:
                touched[id(function)] = function.body.blocks[0]
        for block in touched.values():
            eliminate_dead_code(block)
