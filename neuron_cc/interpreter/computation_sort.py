"""Key comparators of sort for the interpreter of the hlo computation ops (`computation`).

A comparator that is `compare LT|GT` of one scalar function of arguments 2k and 2k+1 (or the
lexicographic `or(lt, and(eq, ...))` of several such keys) is recognised (`SortKey`,
`comparator_keys`), its key function run once on the whole operand (`scalar_slice`,
`evaluate_scalar_slice`, `sort_keys`) and the sort done by numpy stable sorts
(`lexicographic_order`, `total_order_key`, `stable_order`). Other comparators stay in
`computation` (`general_sort_order`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue

from neuron_cc.dialects.hlo.attributes import ComparisonDirection, ComparisonType
from neuron_cc.dialects.hlo.elementwise import AndOp, OrOp
from neuron_cc.dialects.hlo.elementwise_misc import CompareOp
from neuron_cc.interpreter.computation_regions import expand, run_ops
from neuron_cc.interpreter.conversions import flush_denormals
from neuron_cc.interpreter.data_movement import along
from neuron_cc.interpreter.values import InterpretationError

Array = np.ndarray[Any, Any]

# --- sort ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SortKey:
    """One key of a comparator `compare LT|GT, f(arg 2k), f(arg 2k+1)`.

    `left` depends only on arg 2k and `right` only on arg 2k+1 (each through scalar ops);
    with `f` the identity they are the arguments themselves.
    """

    left: SSAValue
    right: SSAValue
    operand: int
    descending: bool
    compare_type: ComparisonType


def _scalar_op(op: Operation) -> bool:
    """An op without regions whose results are all rank-0 tensors (elementwise on scalars)."""
    if op.regions or not op.results:
        return False
    return all(isinstance(r.type, TensorType) and not r.type.get_shape() for r in op.results)


def scalar_slice(value: SSAValue, block: Block) -> tuple[list[Operation], set[int]] | None:
    """The ops (in block order) computing `value` from block arguments, and the arguments it
    reads; None if it needs anything other than scalar ops of `block`."""
    ops: set[Operation] = set()
    args: set[int] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, BlockArgument):
            if v.block is not block:
                return None
            args.add(v.index)
            continue
        op = v.owner
        if not isinstance(op, Operation) or op in ops:
            continue
        if op.parent_block() is not block or not _scalar_op(op):
            return None
        ops.add(op)
        stack.extend(op.operands)
    return [op for op in block.ops if op in ops], args


def _single_arg(value: SSAValue, block: Block) -> int | None:
    found = scalar_slice(value, block)
    if found is None or len(found[1]) != 1:
        return None
    return next(iter(found[1]))


def _key_term(value: SSAValue, block: Block) -> SortKey | None:
    """`compare LT|GT` of a function of arg 2k against the same function of arg 2k+1."""
    if not isinstance(value, OpResult) or not isinstance(value.op, CompareOp):
        return None
    cmp = value.op
    direction = cmp.direction.data
    if direction not in (ComparisonDirection.LT, ComparisonDirection.GT):
        return None
    a, b = _single_arg(cmp.lhs, block), _single_arg(cmp.rhs, block)
    if a is None or b is None or a // 2 != b // 2 or a == b:
        return None
    descending = (direction == ComparisonDirection.GT) == (a < b)
    left, right = (cmp.lhs, cmp.rhs) if a < b else (cmp.rhs, cmp.lhs)
    return SortKey(left, right, a // 2, descending, cmp.effective_compare_type())


def _is_equality_of(value: SSAValue, key: SortKey) -> bool:
    if not isinstance(value, OpResult) or not isinstance(value.op, CompareOp):
        return False
    cmp = value.op
    return (
        cmp.direction.data == ComparisonDirection.EQ
        and {cmp.lhs, cmp.rhs} == {key.left, key.right}
        and cmp.effective_compare_type() == key.compare_type
    )


def _operands_of(value: SSAValue, kind: type[Operation]) -> list[tuple[SSAValue, SSAValue]]:
    """Both orders of the operands of `value` if it is the result of a binary `kind` op."""
    if not isinstance(value, OpResult) or not isinstance(value.op, kind):
        return []
    x, y = value.op.operands
    return [(x, y), (y, x)]


def comparator_keys(value: SSAValue, block: Block) -> list[SortKey] | None:
    """The keys, most significant first, of a lexicographic comparator:
    `key` or `or(key_lt, and(key_eq, rest))` (the form XLA and JAX build for several keys)."""
    term = _key_term(value, block)
    if term is not None:
        return [term]
    for first, rest in _operands_of(value, OrOp):
        term = _key_term(first, block)
        if term is None:
            continue
        for equal, tail in _operands_of(rest, AndOp):
            if _is_equality_of(equal, term):
                keys = comparator_keys(tail, block)
                if keys is not None:
                    return [term, *keys]
    return None


def evaluate_scalar_slice(
    interpreter: Interpreter, value: SSAValue, block: Block, arg: int, array: Array
) -> Array:
    """`value` computed by its scalar ops with block argument `arg` bound to a whole array."""
    found = scalar_slice(value, block)
    if found is None:
        raise InterpretationError(f"cannot evaluate {value} outside its comparator")
    env: dict[SSAValue, Any] = {block.args[arg]: array}
    run_ops(interpreter, found[0], env, array.shape)
    return expand(env[value], array.shape)


def _sortable(key: Array, compare_type: ComparisonType) -> Array:
    """Values numpy orders like the comparison: TOTALORDER on the bits, FLOAT with DAZ."""
    if key.dtype.kind != "f":
        return key
    if compare_type == ComparisonType.TOTALORDER:
        return total_order_key(key)
    return flush_denormals(key)


def sort_keys(
    interpreter: Interpreter, region: Region, keys: Sequence[SortKey], operands: Sequence[Array]
) -> list[Array] | None:
    """The sortable key arrays, or None if a key's two sides disagree (not one function)."""
    block = region.block
    arrays: list[Array] = []
    for key in keys:
        x = operands[key.operand]
        left = evaluate_scalar_slice(interpreter, key.left, block, 2 * key.operand, x)
        right = evaluate_scalar_slice(interpreter, key.right, block, 2 * key.operand + 1, x)
        left_bits, right_bits = total_order_key(left), total_order_key(right)
        if left_bits.dtype != right_bits.dtype or not np.array_equal(left_bits, right_bits):
            return None
        arrays.append(_sortable(left, key.compare_type))
    return arrays


def lexicographic_order(keys: Sequence[Array], descending: Sequence[bool], axis: int) -> Array:
    """Stable order by several keys (most significant first): stable sorts, least significant
    key first."""
    order = np.broadcast_to(
        along(np.arange(keys[0].shape[axis]), axis, keys[0].ndim), keys[0].shape
    )
    for key, desc in reversed(list(zip(keys, descending, strict=True))):
        step = stable_order(np.take_along_axis(key, order, axis), axis, desc)
        order = np.take_along_axis(order, step, axis)
    return order


def total_order_key(x: Array) -> Array:
    """Integers ordered like XLA's TOTALORDER floats: -NaN < -inf < ... < -0 < +0 < ... < NaN."""
    if x.dtype.kind != "f":
        return x
    bits = np.ascontiguousarray(x).view(f"int{8 * x.dtype.itemsize}")
    magnitude = np.iinfo(bits.dtype).max
    return bits ^ ((bits >> (bits.dtype.itemsize * 8 - 1)) & magnitude)


def stable_order(key: Array, axis: int, descending: bool) -> Array:
    """Stable argsort along `axis`; descending keeps equal keys in their original order."""
    if not descending:
        return np.argsort(key, axis=axis, kind="stable")
    n = key.shape[axis]
    reversed_order = np.argsort(np.flip(key, axis), axis=axis, kind="stable")
    return np.flip(n - 1 - reversed_order, axis)
