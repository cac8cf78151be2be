"""Overwrites: a loop slot that every iteration replaces by an all-reduce of a fresh value.

For an all-reduce C in a loop body whose result is returned, unchanged, at tuple slot k, and
whose slot k the body never really reads, the loop computes `slot_k = C(x_T)` after T >= 1
iterations: every earlier C(x_t) is overwritten unread. So the loop may carry the LOCAL x_t
instead and run C once after the loop, on the last one. What "never really reads" allows:
- no read at all (a `get_tuple_element` of slot k without users);
- `select(p, carried, other)` / `select(p, other, carried)` with p a splat constant choosing
  `other` (JAX and XLA reset a buffer this way, e.g. `select(false, carry, zeros)` before a
  scatter): the carried value is discarded, so carrying x_t instead of C(x_t) changes nothing.
The loop condition must not read slot k. For T = 0 the slot keeps its init, while the moved
code computes C(init): the rewrite needs either a trip count of at least one (the induction
analysis proves it) or an init that C leaves unchanged (the reducer's identity: C(e) = e).
x_t may differ between devices (it is what C reduces); no replication is needed.

This is the form of XLA's ScatterSelectReplication test cases
(`while_loop_all_reduce_code_motion_test.cc`) whose constant predicate resets the scattered
buffer every iteration; XLA moves them through its accumulation path, which is exact there
only because the buffer is reset (a scatter into the carried buffer itself is not an
accumulation of the all-reduce: the README's pass reference lists that deviation). This module
proves the overwrite directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation

from neuron_cc.analysis.accumulation import NotMovable, SlotUsers, is_identity
from neuron_cc.analysis.induction import LoopInfo, constant_int, tuple_element
from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.analysis.while_loops import ReadIndex, condition_reads_slot
from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.dialects.hlo.control_flow import ReturnOp, TupleOp, WhileOp
from neuron_cc.dialects.hlo.elementwise_misc import SelectOp


@dataclass
class Overwrite:
    """All-reduce `collective` overwrites slot `slot` each iteration (module doc)."""

    collective: AllReduceOp
    slot: int
    root: TupleOp


def returned_slot(op: AllReduceOp, loop: WhileOp) -> tuple[TupleOp, int] | None:
    """(root tuple, k) when `op`'s only use is the body's returned tuple, at index k alone."""
    uses = list(op.results[0].uses)
    body = loop.body.blocks[0]
    last = body.last_op
    root = last.operands[0].owner if isinstance(last, ReturnOp) and last.operands else None
    if len(uses) != 1 or not isinstance(root, TupleOp) or uses[0].operation is not root:
        return None
    return root, uses[0].index


def check_overwrite(
    op: AllReduceOp,
    loop: WhileOp,
    info: LoopInfo | None,
    users: SlotUsers | None = None,
    index: ReadIndex | None = None,
) -> Overwrite:
    """The overwrite `op` performs, or NotMovable with the rule it breaks. `users`: the body
    argument's users by slot, and `index`: the condition argument's reads, each built once for
    all the loop's collectives."""
    found = returned_slot(op, loop)
    if found is None:
        raise NotMovable("the all-reduce is not returned alone at one tuple index")
    root, slot = found
    _check_unread(loop, slot, users or SlotUsers(loop.body.blocks[0].args[0]))
    if condition_reads_slot(loop, slot, index):
        raise NotMovable(f"the all-reduce overwrites slot {slot}, which the loop condition reads")
    trips = info.trip_count if info is not None else None
    if trips is None or trips < 1:
        init = tuple_element(loop.init, slot)
        kind = reduction_kind(op.regions[0]) or ""
        if init is None or not is_identity(init, kind):
            raise NotMovable(
                "the loop may run no iteration and the overwritten slot's init is not the "
                "reduction's identity"
            )
    return Overwrite(op, slot, root)


def _check_unread(loop: WhileOp, slot: int, users: SlotUsers) -> None:
    """The body reads slot `slot` only through selects that discard it (the first problem in
    the order of the argument's uses is the one reported; only the slot's reads are visited,
    so checking every slot of a wide loop is linear)."""
    other = users.other
    for position, gte in users.by_slot.get(slot, ()):
        if other is not None and other[0] < position:
            break
        for reader in gte.result.uses:
            if not _discards(reader.operation, reader.index):
                how = reader.operation.name[4:]
                if isinstance(reader.operation, SelectOp):
                    how += " on a predicate that is not a splat constant"
                raise NotMovable(
                    f"the all-reduce overwrites slot {slot}, which the body reads ({how})"
                )
    if other is not None:
        raise NotMovable(f"the loop body argument is used by {other[1].name[4:]}")


def _discards(user: Operation, index: int) -> bool:
    """`user` ignores its operand `index`: a select on a splat constant choosing the other."""
    if not isinstance(user, SelectOp) or index == 0:
        return False
    chosen = constant_int(user.pred)
    if chosen is None:
        return False
    return (index == 1 and chosen == 0) or (index == 2 and chosen != 0)
