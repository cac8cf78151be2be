"""Re-typing, re-initialising and replacing the tuple slots of an `hlo.while` loop.

Shared by the loop-motion rewrites (neuron-while-loop-all-reduce-code-motion and its helpers):
each changes what one slot k carries (a local buffer instead of a reduced one, a running
maximum instead of a flag) and then reads the loop's result at k through new ops after the
loop. None of these functions checks legality; the callers prove it.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Mapping

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, TupleType
from xdsl.ir import Attribute, Operation, SSAValue, Use
from xdsl.rewriter import InsertPoint, Rewriter

from neuron_cc.analysis.accumulation import NotMovable, identity_value
from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, TupleOp, WhileOp
from neuron_cc.dialects.hlo.data_movement import BroadcastOp
from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp
from neuron_cc.dialects.hlo.types import is_float_type, tuple_type
from neuron_cc.dialects.value_edits import replace_values, set_type


def identity_buffer(t: Attribute, kind: str = "hlo.add") -> list[Operation]:
    """Ops building a tensor of reducer `kind`'s identity: `broadcast(constant)` (a scalar
    constant alone for rank 0), never a full dense literal (exported HLO stays small)."""
    if not isinstance(t, TensorType):
        raise NotMovable(f"cannot build an identity of type {t}")
    element: Attribute = t.element_type
    value = identity_value(kind, element)
    if value is None:
        raise NotMovable(f"{kind[4:]} has no identity at element type {element}")
    return splat_buffer(t, value)


@functools.lru_cache(maxsize=1024)
def _scalar_literal(element: Attribute, value: float, bits: bytes) -> DenseIntOrFPElementsAttr:
    """`dense<value> : tensor<element>`, built once (`bits` tells -0.0 from 0.0 and NaNs apart
    in the cache key; building a dense literal costs ~100 us)."""
    del bits
    return DenseIntOrFPElementsAttr.from_list(TensorType(element, []), [value])  # pyright: ignore[reportArgumentType, reportCallIssue]


def splat_buffer(t: TensorType[Attribute], value: float) -> list[Operation]:
    """Ops building a tensor of type `t` whose every element is `value`: `broadcast(constant)`
    (a scalar constant alone for rank 0)."""
    element: Attribute = t.element_type
    if is_float_type(element):
        value = float(value)
    scalar = ConstantOp(_scalar_literal(element, value, struct.pack("<d", value)))
    if not t.get_shape():
        return [scalar]
    broadcast = BroadcastOp.create(
        operands=[scalar.result],
        result_types=[t],
        properties={"dimensions": DimensionsAttr(())},
    )
    return [scalar, broadcast]


def init_slots(loop: WhileOp) -> list[SSAValue]:
    """The init's per-slot values (gtes inserted before the loop unless it is a tuple op)."""
    init = loop.init
    owner = init.owner
    if isinstance(owner, TupleOp):
        return list(owner.elements)
    t = init.type
    if not isinstance(t, TupleType):
        raise NotMovable("the loop-carried value is not a tuple")
    gtes = [GetTupleElementOp(init, i) for i in range(len(t.types.data))]
    Rewriter.insert_op(gtes, InsertPoint.before(loop))
    return [g.result for g in gtes]


def retype_slots(loop: WhileOp, wides: Mapping[int, Attribute]) -> None:
    """Re-type every slot k of `wides` to `wides[k]`: the loop result, the body and condition
    arguments and their gtes of those slots, in place (`set_type`): one new tuple type and one
    walk of each argument's uses for all the slots, so re-typing k slots of a loop of width n
    costs n + k, not k * n."""
    t = loop.result.type
    if not isinstance(t, TupleType) or not wides:
        return
    types: list[Attribute] = list(t.types.data)
    for slot, wide in wides.items():
        types[slot] = wide
    new = tuple_type(types)
    for region in (loop.body, loop.condition):
        arg = set_type(region.blocks[0].args[0], new)
        for use in arg.uses:
            user = use.operation
            if isinstance(user, GetTupleElementOp):
                wide = wides.get(user.index.value.data)
                if wide is not None:
                    set_type(user.result, wide)
    set_type(loop.result, new)


def retype_root(loop: WhileOp) -> None:
    """The body's returned tuple type follows its (possibly re-typed) elements."""
    body = loop.body.blocks[0]
    root = body.last_op.operands[0].owner if body.last_op else None
    if isinstance(root, TupleOp):
        new = tuple_type([e.type for e in root.elements])
        if new != root.result.type:
            set_type(root.result, new)


def replace_loop_result(
    loop: WhileOp, finals: dict[int, SSAValue], after: list[Operation], old_uses: list[Use]
) -> None:
    """Old `gte(loop, k)` of accumulated slots read the final values directly (so an outer
    loop sees the same accumulation shape again); whole-tuple uses get a rebuilt tuple."""
    Rewriter.insert_op(after, InsertPoint.after(loop))
    whole: list[Use] = []
    read: list[tuple[GetTupleElementOp, SSAValue]] = []
    for use in old_uses:
        user = use.operation
        if isinstance(user, GetTupleElementOp):
            final = finals.get(user.index.value.data)
            if final is not None:
                read.append((user, final))
        else:
            whole.append(use)
    # at once: a wide op reading many of them (a returned tuple) is rebuilt once
    replace_values((gte.result, final) for gte, final in read)
    for gte, _ in read:
        Rewriter.erase_op(gte)
    if not whole:
        return
    t = loop.result.type
    count = len(t.types.data) if isinstance(t, TupleType) else 0
    parts: list[SSAValue] = []
    extra: list[Operation] = []
    for i in range(count):
        if i in finals:
            parts.append(finals[i])
        else:
            g = GetTupleElementOp(loop.result, i)
            extra.append(g)
            parts.append(g.result)
    result = TupleOp(parts)
    Rewriter.insert_op([*extra, result], InsertPoint.after(after[-1] if after else loop))
    for use in whole:
        use.operation.operands[use.index] = result.result
