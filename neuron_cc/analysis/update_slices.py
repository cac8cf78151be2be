"""Matching all-reduces whose results a loop writes into disjoint rows of a loop-carried buffer.

Port of the "dynamic-update-slice" mode of XLA's WhileLoopAllReduceCodeMotion
(`MatchDynamicUpdateSliceContext`). A loop body that all-reduces a value and writes it, through
`reshape`/`bitcast`/`convert`, with a chain of `dynamic_update_slice`s into slot k at the row
given by the loop counter, issues T all-reduces. Because an all-reduce is elementwise across
devices, it commutes with any data movement that is identical on every device, so the body can
write the LOCAL values and ONE all-reduce can run after the loop on the box of the buffer that
the loop wrote (`neuron_cc.transforms.update_slice_sink` performs that rewrite):

```mlir
// body:   %m = hlo.all_reduce(%x) ... max ...; %u = hlo.reshape %m; %b2 = dynamic_update_slice %b, %u at [%i]
// after:  %g = hlo.get_tuple_element %w[k]; [slice box] [convert] all_reduce [convert] [dynamic_update_slice]
```

`match_update_slice(op, loop, info, replicated, max_bytes)` returns an `UpdateSlice` or raises
`NotMovable` with the reason (the remark text). Notation: the chain is
`v0 = fwd(AR(x))`, `v_m = DUS_m(base_m, v_{m-1}, idx_m)` for m = 1..n, `v_n` returned at slot
k, `base_n = gte(param, k)`; T is the trip count; `U` the shape of `v0`.

Rules, each with its remark, and why they make the rewrite exact:
1. One operand ("tuple-shaped all-reduces are not sunk into dynamic-update-slices"), no
   `constrain_layout` ("constrain_layout is set"), a reducer that is one binary elementwise op
   of its two arguments, any of add/multiply/maximum/minimum/and/or/xor ("the reduction is not
   a simple binary elementwise op"): then AR(y)[e] depends only on the devices' y[e], so
   applying the all-reduce to a permutation/selection of elements that is the same on every
   device commutes with it.
2. One use chain: the all-reduce result, each forwarding op and each DUS result has exactly one
   use ("<value> has N uses; a dynamic-update-slice sink needs exactly one"); the forwarding ops
   are reshape, bitcast, convert and the scales of 2b ("unsupported operation on the
   all-reduce result: <op>");
   each DUS takes the previous value as its `update` ("the all-reduce value is not the update
   of a dynamic-update-slice"); the last one is returned by the body's root tuple ("the updated
   buffer is used by <op>, not returned by the loop body") at index k, and its base is
   `gte(param, k)` ("the outermost dynamic-update-slice does not update slot k of the loop
   parameter"). So the all-reduced elements reach the loop state only inside the box below,
   nothing else in the body sees them, and the intermediate bases (any values, not
   all-reduced) are left as they are.
2b. Scales (sums only): the chain may also multiply or divide by an effective scalar s (a
   rank-0 value or its broadcast; JAX's `pmean` is `psum(x) / n`) replicated within the groups
   ("scale factor is not replicated within the replica groups"). The body then stores
   `x * s` (or `x / s`) locally and the sunk sum gives `sum_d x_d * s = (sum_d x_d) * s`: exact
   for integers (multiply only: an integer division does not distribute over the sum) and up to
   the rounding of the reassociated float sum (exact when s is a power of two), as for
   accumulations.
3. Converts must be exact ("the convert <a> -> <b> on the way to the buffer is not exact, so
   it cannot be undone after the loop"): each target type represents every value of its source
   (f16/bf16 -> f32 -> f64, narrower to wider ints, ints to floats with enough significand
   bits, pred to anything). Then converting the buffer back to the all-reduce's type after the
   loop recovers the local values exactly, and converting the all-reduced values forward gives
   exactly the values the body stored.
4. Indices: the trip count must be known ("the loop trip count is unknown") and non-zero ("the
   loop body never runs": otherwise the box holds the init values, which must not be
   all-reduced). Every start index is a constant or `a * c + b` for a loop counter c
   (`LoopInfo.affine`, whose range `LoopInfo.value_range` knows, so it cannot wrap around;
   JAX's `select(i < 0, i + N, i)` folds to `i`), else "dynamic-update-slice index d is
   neither a constant nor an affine function of a loop counter". A counter used as
   an index must start at 0 and step by 1 ("the loop counter indexing dimension d starts at s
   with step t; only start 0 and step 1 are supported (as in XLA)"), and the rows
   `{a*j + b : j in [0, T)}` must be T consecutive rows, i.e. |a| = 1 ("dynamic-update-slice
   index d (a * i + b) does not write consecutive rows"). No index may be clamped: its range
   lies in [0, operand dim - update dim] ("dynamic-update-slice index d takes values in
   [lo, hi], outside [0, max]: it would be clamped"), and every index is replicated within the
   groups ("dynamic-update-slice index is not replicated within the replica groups").
5. At most one start index of the chain follows a counter ("more than one dynamic-update-slice
   start index follows a loop counter; the written elements do not form a box"), and in that
   dimension d the value written per iteration (the outermost update) is 1 wide ("the update
   written per iteration is w wide in dimension d, which the loop counter indexes; iterations
   would overwrite each other's rows"). Proof of the box: iteration j overwrites the region
   `[idx_n, idx_n + shape(v_{n-1}))` of the buffer, which in dimension d is the single row
   r_j; the r_j are T distinct consecutive rows, so every region is written by exactly one
   iteration, and inside it the all-reduced elements are the block U at the constant offset
   `sum_m idx_m` (in d: r_j). The union over j is the box `offsets = sum of the index minima`,
   `shape = U with T in dimension d`. With constant indices only, every iteration writes the
   same region and the last one wins: the box is U at the constant offset. Either way, after
   the rewritten loop the box holds exactly the local values whose all-reduce the original
   stored, and every other element holds what the original holds (never an all-reduced
   value). This rules out two XLA gaps: XLA also accepts a counter in an inner DUS whose outer
   update is wider (the last iteration then overwrites the other rows) and two counter
   dimensions (a diagonal is not a box).
6. Slot k is read only by the outermost DUS: no other use of its get_tuple_element, no other
   get_tuple_element of it with uses ("slot k of the loop parameter is also read by <op>"), no
   whole use of the loop parameter ("the loop body argument is used whole by <op>"), and the
   condition does not read it ("slot k is read by the loop condition": a get_tuple_element of
   k with uses, or a whole use). So the local values in slot k change nothing else.
7. Size: the sunk all-reduce moves `prod(shape) * bytes(element)` bytes, which must not exceed
   `max_bytes` ("the sunk all-reduce would move N bytes, which exceeds dus-max-size-bytes (M)").
   XLA's flag `xla_while_loop_all_reduce_dus_code_motion_max_size_bytes` defaults to 10240
   (`DEFAULT_DUS_MAX_SIZE_BYTES`; openxla/xla#46440, which made the constant of #28184 a flag).

Where this differs from XLA, deliberately: XLA's box in the counter dimension is always rows
[0, T) and its reverse index must be `(T - 1) - i` exactly; here any `c + i` / `c - i` whose T
rows fit the buffer moves, and the counter may be any induction slot with start 0 and step 1
(a JAX scan index), not only the one the condition tests. XLA's start-0 / step-1 rule is kept
(a counter starting at 1 would be exact here too, but XLA refuses it). The size counts the rows
actually written (1 for constant indices; XLA counts T), and a condition get_tuple_element of
slot k without uses does not refuse (it reads nothing, as in the other loop passes).

`match_update_slice` scans the loop parameter's uses once per call; pass `reads=loop_reads(loop)`
(computed once per loop) to keep a pass linear in the tuple width.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue, Use

from neuron_cc.analysis.accumulation import NotMovable, scale_factor
from neuron_cc.analysis.induction import LoopInfo
from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.analysis.while_loops import SlotReads, body_root_tuple, is_gte_of, slot_reads
from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.dialects.hlo.control_flow import WhileOp
from neuron_cc.dialects.hlo.data_movement import BitcastOp, DynamicUpdateSliceOp, ReshapeOp
from neuron_cc.dialects.hlo.elementwise import MultiplyOp
from neuron_cc.dialects.hlo.elementwise_misc import ConvertOp
from neuron_cc.dialects.hlo.types import (
    element_type_name,
    is_float_type,
    is_pred_type,
    is_unsigned_type,
    shape_of,
    tensor_type,
)

DEFAULT_DUS_MAX_SIZE_BYTES = 10240
"""XLA's default of `xla_while_loop_all_reduce_dus_code_motion_max_size_bytes`."""

_FORWARDING = (ReshapeOp, BitcastOp, ConvertOp)
_SIGNIFICAND_BITS: dict[type[Attribute], int] = {
    Float16Type: 11,
    BFloat16Type: 8,
    Float32Type: 24,
    Float64Type: 53,
}
_FLOAT_SUPERSETS: dict[type[Attribute], tuple[type[Attribute], ...]] = {
    Float16Type: (Float16Type, Float32Type, Float64Type),
    BFloat16Type: (BFloat16Type, Float32Type, Float64Type),
    Float32Type: (Float32Type, Float64Type),
    Float64Type: (Float64Type,),
}


@dataclass(frozen=True)
class LoopReads:
    """The get_tuple_element reads of a loop's body and condition parameters, by slot."""

    body: SlotReads
    condition: SlotReads


def loop_reads(loop: WhileOp) -> LoopReads:
    """Index the parameter reads of `loop` once (one pass over the parameters' uses)."""
    return LoopReads(slot_reads(loop.body.block.args[0]), slot_reads(loop.condition.block.args[0]))


@dataclass(frozen=True)
class UpdateSlice:
    """An all-reduce whose result the loop writes into the box `offsets`/`shape` of slot `slot`."""

    collective: AllReduceOp
    slot: int
    offsets: tuple[int, ...]
    """Start of the written box, in buffer coordinates."""
    shape: tuple[int, ...]
    """Extent of the written box."""
    buffer_type: TensorType[Attribute]
    forwarding: tuple[Operation, ...]
    """The reshape/bitcast/convert ops from the all-reduce to the first dynamic-update-slice."""
    updates: tuple[DynamicUpdateSliceOp, ...]
    """The dynamic-update-slice chain, innermost first; the last one writes slot `slot`."""
    counter_dim: int | None
    """The buffer dimension a loop counter indexes (None: all indices are constants)."""

    @property
    def chain(self) -> tuple[Operation, ...]:
        """Every op from the all-reduce to the value returned at slot `slot`."""
        return (*self.forwarding, *self.updates)

    @property
    def element_type(self) -> Attribute:
        """The all-reduce's element type (the sunk all-reduce runs at it)."""
        return tensor_type(self.collective.results[0].type).element_type

    @property
    def whole(self) -> bool:
        """The box is the whole buffer (no slice / dynamic-update-slice after the loop)."""
        return not any(self.offsets) and self.shape == tuple(self.buffer_type.get_shape())

    @property
    def size_bytes(self) -> int:
        """Bytes the sunk all-reduce moves per device."""
        return math.prod(self.shape) * element_bytes(self.element_type)


def element_bytes(element: Attribute) -> int:
    """Bytes of one element (pred: 1, as in XLA)."""
    if isinstance(element, IntegerType):
        return max(1, element.width.data // 8)
    return max(1, getattr(element, "bitwidth", 8) // 8)


def exact_conversion(source: Attribute, target: Attribute) -> bool:
    """Whether `convert` from `source` to `target` keeps every value exactly (so converting
    back restores it)."""
    if source == target or is_pred_type(source):
        return True
    if is_pred_type(target):
        return False
    if is_float_type(source):
        return isinstance(target, _FLOAT_SUPERSETS.get(type(source), ()))
    if not isinstance(source, IntegerType):
        return False
    magnitude = source.width.data - (0 if is_unsigned_type(source) else 1)
    if is_float_type(target):
        return magnitude <= _SIGNIFICAND_BITS.get(type(target), 0)
    if not isinstance(target, IntegerType):
        return False
    if is_unsigned_type(target):
        return is_unsigned_type(source) and target.width.data >= source.width.data
    return target.width.data - 1 >= magnitude


# ---------------------------------------------------------------------------
# the use chain
# ---------------------------------------------------------------------------


def _only_use(value: SSAValue, what: str) -> Use:
    use = value.get_unique_use()
    if use is None:
        count = value.uses.get_length()
        raise NotMovable(f"{what} has {count} uses; a dynamic-update-slice sink needs exactly one")
    return use


def _check_collective(op: AllReduceOp) -> None:
    if len(op.operands_) != 1:
        raise NotMovable("tuple-shaped all-reduces are not sunk into dynamic-update-slices")
    if op.constrain_layout is not None:
        raise NotMovable("constrain_layout is set")
    if reduction_kind(op.to_apply) is None:
        raise NotMovable("the reduction is not a simple binary elementwise op")


def _check_exact(op: ConvertOp) -> None:
    source = tensor_type(op.operand).element_type
    target = tensor_type(op.result).element_type
    if not exact_conversion(source, target):
        raise NotMovable(
            f"the convert {element_type_name(source)} -> {element_type_name(target)} on the way "
            "to the buffer is not exact, so it cannot be undone after the loop"
        )


def _forwarding_chain(op: AllReduceOp) -> tuple[list[Operation], list[SSAValue], Use]:
    """The reshape/bitcast/convert/scale ops after the all-reduce, their scale factors, and
    the use that ends them."""
    chain: list[Operation] = []
    scales: list[SSAValue] = []
    kind = reduction_kind(op.to_apply)
    value = op.results[0]
    use = _only_use(value, "the all-reduce result")
    while True:
        user = use.operation
        if isinstance(user, ConvertOp):
            _check_exact(user)
        elif not isinstance(user, _FORWARDING):
            factor = _linear_scale(user, value, kind)
            if factor is None:
                break
            scales.append(factor)
        chain.append(user)
        value = user.results[0]
        use = _only_use(value, f"the {user.name[4:]} of the all-reduce result")
    return chain, scales, use


def _linear_scale(user: Operation, value: SSAValue, kind: str | None) -> SSAValue | None:
    """s when `user` is `value * s` / `value / s` that a sum commutes with (module doc, 2b)."""
    if kind != "hlo.add":
        return None
    factor = scale_factor(user, value)
    if factor is None:
        return None
    exact_division = is_float_type(tensor_type(value).element_type)
    return factor if isinstance(user, MultiplyOp) or exact_division else None


def _update_chain(use: Use) -> tuple[list[DynamicUpdateSliceOp], Use]:
    """The dynamic-update-slices writing the value, innermost first, and the use of the last."""
    updates: list[DynamicUpdateSliceOp] = []
    while isinstance(use.operation, DynamicUpdateSliceOp):
        dus = use.operation
        if use.index != 1:
            raise NotMovable("the all-reduce value is not the update of a dynamic-update-slice")
        updates.append(dus)
        use = _only_use(dus.result, "the dynamic-update-slice result")
    if not updates:
        raise NotMovable(
            f"unsupported operation on the all-reduce result: {use.operation.name[4:]}"
        )
    return updates, use


def _trace(
    op: AllReduceOp, loop: WhileOp
) -> tuple[list[Operation], list[DynamicUpdateSliceOp], int]:
    """(forwarding ops, dynamic-update-slices, slot) of the all-reduce's use chain."""
    forwarding, _, use = _forwarding_chain(op)
    updates, use = _update_chain(use)
    root = body_root_tuple(loop)
    if root is None or use.operation is not root:
        raise NotMovable(
            f"the updated buffer is used by {use.operation.name[4:]}, not returned by the loop body"
        )
    slot = use.index
    if not is_gte_of(updates[-1].operand, loop.body.block.args[0], slot):
        raise NotMovable(
            f"the outermost dynamic-update-slice does not update slot {slot} of the loop parameter"
        )
    return forwarding, updates, slot


# ---------------------------------------------------------------------------
# the indices and the box
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Start:
    """One start index: its range over the loop, and whether a loop counter drives it."""

    lo: int
    hi: int
    counter: bool


def _affine_start(index: SSAValue, d: int, info: LoopInfo, trips: int) -> _Start:
    a = info.affine(index)
    iv = info.induction.get(a.slot) if a is not None and a.slot is not None else None
    counter = iv is not None and iv.step != 0 and info.value_range(index) is not None
    if a is None or (a.slot is not None and not counter):
        raise NotMovable(
            f"dynamic-update-slice index {d} is neither a constant nor an affine function of a "
            "loop counter"
        )
    if iv is None:
        return _Start(a.offset, a.offset, False)
    if iv.init != 0 or iv.step != 1:
        raise NotMovable(
            f"the loop counter indexing dimension {d} starts at {iv.init} with step {iv.step}; "
            "only start 0 and step 1 are supported (as in XLA)"
        )
    if trips > 1 and abs(a.coef) != 1:
        raise NotMovable(
            f"dynamic-update-slice index {d} ({a.coef} * i + {a.offset}) does not write "
            "consecutive rows"
        )
    last = a.coef * (trips - 1) + a.offset
    return _Start(min(a.offset, last), max(a.offset, last), True)


def _start(
    dus: DynamicUpdateSliceOp,
    d: int,
    info: LoopInfo,
    trips: int,
    replicated: Callable[[SSAValue], bool],
) -> _Start:
    index = dus.start_indices[d]
    start = _affine_start(index, d, info, trips)
    limit = shape_of(dus.operand)[d] - shape_of(dus.update)[d]
    if start.lo < 0 or start.hi > limit:
        raise NotMovable(
            f"dynamic-update-slice index {d} takes values in [{start.lo}, {start.hi}], outside "
            f"[0, {limit}]: it would be clamped"
        )
    if not replicated(index):
        raise NotMovable("dynamic-update-slice index is not replicated within the replica groups")
    return start


def _trips(info: LoopInfo | None) -> tuple[LoopInfo, int]:
    if info is None or info.trip_count is None:
        raise NotMovable("the loop trip count is unknown")
    if info.trip_count == 0:
        raise NotMovable("the loop body never runs")
    return info, info.trip_count


def _box(
    updates: list[DynamicUpdateSliceOp],
    info: LoopInfo | None,
    replicated: Callable[[SSAValue], bool],
) -> tuple[tuple[int, ...], tuple[int, ...], int | None]:
    """(offsets, shape, counter dimension) of the elements the loop writes (rules 4 and 5)."""
    info, trips = _trips(info)
    shape = list(shape_of(updates[0].update))
    offsets = [0] * len(shape)
    counter_dims: list[int] = []
    for dus in updates:
        for d in range(len(shape)):
            start = _start(dus, d, info, trips, replicated)
            offsets[d] += start.lo
            if start.counter:
                counter_dims.append(d)
    if len(counter_dims) > 1:
        raise NotMovable(
            "more than one dynamic-update-slice start index follows a loop counter; the "
            "written elements do not form a box"
        )
    if not counter_dims:
        return tuple(offsets), tuple(shape), None
    d = counter_dims[0]
    width = shape_of(updates[-1].update)[d]
    if width != 1:
        raise NotMovable(
            f"the update written per iteration is {width} wide in dimension {d}, which the loop "
            "counter indexes; iterations would overwrite each other's rows"
        )
    shape[d] *= trips
    return tuple(offsets), tuple(shape), d


# ---------------------------------------------------------------------------
# who else reads the slot
# ---------------------------------------------------------------------------


def _check_slot_reads(slot: int, writer: DynamicUpdateSliceOp, reads: LoopReads) -> None:
    """Slot `slot` is read only as the base of `writer` (rule 6)."""
    if reads.body.other_uses:
        user = reads.body.other_uses[0].operation
        raise NotMovable(f"the loop body argument is used whole by {user.name[4:]}")
    for use in reads.body.users(slot):
        if use.operation is not writer or use.index != 0:
            raise NotMovable(
                f"slot {slot} of the loop parameter is also read by {use.operation.name[4:]}"
            )
    if reads.condition.other_uses or reads.condition.by_slot.get(slot):
        # Like XLA (CountGteInstructionsWithIndex): even a get_tuple_element without users.
        raise NotMovable(f"slot {slot} is read by the loop condition")


def match_update_slice(
    op: AllReduceOp,
    loop: WhileOp,
    info: LoopInfo | None,
    replicated: Callable[[SSAValue], bool],
    max_bytes: int,
    *,
    reads: LoopReads | None = None,
) -> UpdateSlice:
    """The `UpdateSlice` of `op` in the body of `loop` (raises NotMovable with the reason).

    `info` is `analyze_loop(loop)`; `replicated(v)` tells whether v is equal on every device
    of each of `op`'s groups; `reads` is `loop_reads(loop)` (computed here when omitted).
    """
    _check_collective(op)
    forwarding, updates, slot = _trace(op, loop)
    for factor in _forwarding_chain(op)[1]:
        if not replicated(factor):
            raise NotMovable("scale factor is not replicated within the replica groups")
    offsets, shape, counter_dim = _box(updates, info, replicated)
    _check_slot_reads(slot, updates[-1], reads if reads is not None else loop_reads(loop))
    found = UpdateSlice(
        collective=op,
        slot=slot,
        offsets=offsets,
        shape=shape,
        buffer_type=tensor_type(updates[-1].result),
        forwarding=tuple(forwarding),
        updates=tuple(updates),
        counter_dim=counter_dim,
    )
    if found.size_bytes > max_bytes:
        raise NotMovable(
            f"the sunk all-reduce would move {found.size_bytes} bytes, which exceeds "
            f"dus-max-size-bytes ({max_bytes})"
        )
    return found
