"""The rewrite of neuron-while-loop-all-reduce-code-motion's dynamic-update-slice mode.

A helper of the pass (not a pass): `sink_update_slices(loop, slices, channel)` takes the
`UpdateSlice`s that `neuron_cc.analysis.update_slices.match_update_slice` found in ONE loop
(whose module docstring proves the rewrite exact) and

- in the body, removes each all-reduce: its uses take its operand, which has the same type, so
  the reshape/bitcast/convert chain and the dynamic-update-slices keep their types and now
  store the local values;
- after the loop, per slice (in slot order) builds
  `get_tuple_element(loop, k) [-> slice box] [-> convert to the all-reduce type] -> all_reduce
  [-> convert back] [-> dynamic_update_slice into the get_tuple_element at the box offsets]`
  (no slice / dynamic-update-slice when the box is the whole buffer; the offsets are `i64`
  scalar constants, one per distinct value, as in XLA). The all-reduce keeps the original's
  properties, attributes and reduction region; its channel id is `channel(old channel id)`
  (the pass gives a fresh id only when there was one, docs/decisions.md §6.1);
- makes every later reader of slot k see the final value: each old `get_tuple_element(loop, k)`
  is replaced by it, and whole-tuple uses of the loop result read a rebuilt tuple.

```mlir
%w = hlo.while(%init) ... body { ... %b2 = hlo.dynamic_update_slice %b, %local_row at [%i, %c0] ... }
%0 = hlo.get_tuple_element %w[2] : ...
%1 = hlo.slice %0, start = [0, 2], limit = [8, 3], strides = [1, 1] : (tensor<8x6xf32>) -> tensor<8x1xf32>
%2 = hlo.convert %1 : tensor<8x1xf32> -> tensor<8x1xf16>
%3 = hlo.all_reduce(%2) ... : (tensor<8x1xf16>) -> tensor<8x1xf16>
%4 = hlo.convert %3 : tensor<8x1xf16> -> tensor<8x1xf32>
%5 = hlo.constant dense<0> : tensor<i64>
%6 = hlo.constant dense<2> : tensor<i64>
%7 = hlo.dynamic_update_slice %0, %4 at [%5, %6] : ... -> tensor<8x6xf32>
```

The rewrite is linear in the number of uses of the loop result (read once).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import Rewriter

from neuron_cc.analysis.update_slices import UpdateSlice
from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.collectives import AllReduceOp
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, WhileOp
from neuron_cc.dialects.hlo.data_movement import DynamicUpdateSliceOp, SliceOp
from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp, ConvertOp
from neuron_cc.dialects.hlo.types import tensor_type
from neuron_cc.dialects.value_edits import replace_values
from neuron_cc.transforms.loop_slots import replace_loop_result

ChannelFn = Callable[[IntegerAttr | None], IntegerAttr | None]

_I64 = IntegerType(64)


class _Builder:
    """The ops built after one loop, with the i64 offset constants shared between slices."""

    def __init__(self, loop: WhileOp, channel: ChannelFn) -> None:
        self.loop = loop
        self.channel = channel
        self.ops: list[Operation] = []
        self.constants: dict[int, SSAValue] = {}

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def convert(self, value: SSAValue, element: Attribute) -> SSAValue:
        t = tensor_type(value)
        if t.element_type == element:
            return value
        return self.add(
            ConvertOp.create(operands=[value], result_types=[TensorType(element, t.get_shape())])
        )

    def offset(self, value: int) -> SSAValue:
        found = self.constants.get(value)
        if found is None:
            scalar = TensorType(_I64, [])
            attr = DenseIntOrFPElementsAttr.from_list(scalar, [value])
            found = self.constants[value] = self.add(ConstantOp(attr))
        return found

    def all_reduce(self, original: AllReduceOp, operand: SSAValue) -> SSAValue:
        properties = dict(original.properties)
        channel = self.channel(original.channel_id)
        if channel is None:
            properties.pop("channel_id", None)
        else:
            properties["channel_id"] = channel
        return self.add(
            AllReduceOp.create(
                operands=[operand],
                result_types=[operand.type],
                properties=properties,
                attributes=dict(original.attributes),
                regions=[region.clone() for region in original.regions],
            )
        )

    def sink(self, s: UpdateSlice) -> SSAValue:
        """The final value of slot `s.slot`: the box of the buffer, all-reduced."""
        buffer = self.add(GetTupleElementOp(self.loop.result, s.slot))
        value = buffer
        element = s.buffer_type.element_type
        if not s.whole:
            value = self.add(_slice(buffer, s))
        value = self.convert(value, s.element_type)
        value = self.all_reduce(s.collective, value)
        value = self.convert(value, element)
        if s.whole:
            return value
        indices = [self.offset(o) for o in s.offsets]
        return self.add(
            DynamicUpdateSliceOp.create(
                operands=[buffer, value, *indices], result_types=[s.buffer_type]
            )
        )


def _slice(buffer: SSAValue, s: UpdateSlice) -> SliceOp:
    limits = tuple(o + n for o, n in zip(s.offsets, s.shape, strict=True))
    return SliceOp.create(
        operands=[buffer],
        result_types=[TensorType(s.buffer_type.element_type, s.shape)],
        properties={
            "start_indices": DimensionsAttr(s.offsets),
            "limit_indices": DimensionsAttr(limits),
            "strides": DimensionsAttr((1,) * len(s.shape)),
        },
    )


def sink_update_slices(loop: WhileOp, slices: Sequence[UpdateSlice], channel: ChannelFn) -> None:
    """Run the all-reduces of `slices` (all of `loop`) once after the loop (module docstring)."""
    if not slices:
        return
    old_uses = list(loop.result.uses)
    builder = _Builder(loop, channel)
    finals: dict[int, SSAValue] = {}
    for s in sorted(slices, key=lambda s: s.slot):
        finals[s.slot] = builder.sink(s)
    replace_values((s.collective.results[0], s.collective.operands_[0]) for s in slices)
    for s in slices:
        Rewriter.erase_op(s.collective)
    replace_loop_result(loop, finals, builder.ops, old_uses)
