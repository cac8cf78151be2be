"""Induction variables, trip counts and integer ranges of `hlo.while` loops (docs/decisions.md §6b).

`analyze_loop(loop)` studies ONE `hlo.while` whose carried value is a tuple (None otherwise):

- `LoopInfo.induction`: EVERY integer scalar slot j whose init is a constant (through copy,
  convert, reshape, bitcast, broadcast and tuple / get_tuple_element chains) and whose body
  result at slot j is `slot_j + c` (add with the constant on either side, subtract of a
  constant, chains of them), as `InductionVar(slot, init, step)`. JAX scans carry two such
  counters (the trip counter and the scan index). A slot returned unchanged with a constant init
  is an induction variable with step 0 (an invariant, e.g. a carried loop bound).
- `LoopInfo.trip_count`: how many times the body runs, when the condition returns
  `compare(slot_i, N)` (either operand order; LT, LE, GT, GE, NE, EQ; N a constant or an
  invariant slot; signed or unsigned) for an induction slot i (`LoopInfo.counter`). 0 when the
  loop never runs; None when unknown (a non-constant bound, another condition shape, a loop
  that only stops by wrapping around, or a counter that would overflow its type).
- `LoopInfo.slot_range(j)`: the values slot j takes in the body, [init_j, init_j + step_j*(T-1)]
  ordered; `in_condition=True` includes the final, failing check (T+1 values).
- `LoopInfo.value_range(v)`: an integer interval for a scalar integer or pred value: constants,
  the slots above (body or condition argument), add/subtract/multiply/negate/abs, divide and
  remainder by constants, maximum/minimum/clamp, convert, compare ((1, 1) = always true,
  (0, 0) = always false), select, and/or/not of preds. None when unknown or when the integer
  arithmetic could wrap.
- `LoopInfo.affine(v)`: v as `coef * slot + offset` (`slot` None: the constant `offset`),
  folding selects whose predicate the ranges decide, remainders/clamps/maximum/minimum that
  cannot change their operand, and in-range converts: JAX's normalisation
  `select(i < 0, i + N, i)` (and remainder-based modulo chains) with i in [0, N) fold to i.
- `LoopInfo.equals_induction(v)`: the induction slot j when v provably equals the value of slot
  j in every iteration (so a pass can ask "is this index the loop counter?"), else None.

```python
info = analyze_loop(loop)
if info is not None and info.trip_count is not None:
    j = info.equals_induction(dus.start_indices[0])   # e.g. the scan index slot
    first, last = info.slot_range(j)
```
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from xdsl.dialects.builtin import TensorType, TupleType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from neuron_cc.analysis.scalar_constants import (
    Interval,
    constant_int,
    int_bounds,
    scalar_element,
    tuple_element,
)
from neuron_cc.analysis.scalar_constants import constant_number as constant_number
from neuron_cc.dialects.hlo.attributes import ComparisonDirection, ComparisonType
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, ReturnOp, WhileOp
from neuron_cc.dialects.hlo.data_movement import BitcastOp, BroadcastOp, CopyOp, ReshapeOp
from neuron_cc.dialects.hlo.elementwise import (
    AbsOp,
    AddOp,
    AndOp,
    DivideOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    NegateOp,
    NotOp,
    OrOp,
    RemainderOp,
    SubtractOp,
)
from neuron_cc.dialects.hlo.elementwise_misc import (
    ClampOp,
    CompareOp,
    ConvertOp,
    SelectOp,
)
from neuron_cc.dialects.hlo.types import (
    is_integer_type,
    is_pred_type,
    is_unsigned_type,
)


@dataclass(frozen=True)
class InductionVar:
    """Slot `slot` starts at `init` and grows by `step` per iteration (step 0: invariant)."""

    slot: int
    init: int
    step: int


@dataclass(frozen=True)
class Affine:
    """`coef * slot + offset`; `slot` None means the constant `offset` (coef 0)."""

    slot: int | None
    coef: int
    offset: int


# ---------------------------------------------------------------------------
# the loop analysis
# ---------------------------------------------------------------------------


@dataclass
class LoopInfo:
    """Induction variables, trip count and range queries of one while loop (see module doc)."""

    loop: WhileOp
    induction: dict[int, InductionVar] = field(default_factory=dict[int, InductionVar])
    trip_count: int | None = None
    counter: int | None = None
    _ranges: dict[SSAValue, Interval | None] = field(
        default_factory=dict[SSAValue, "Interval | None"], repr=False
    )
    _affines: dict[SSAValue, Affine | None] = field(
        default_factory=dict[SSAValue, "Affine | None"], repr=False
    )

    @property
    def body_arg(self) -> BlockArgument:
        return self.loop.body.blocks[0].args[0]

    @property
    def condition_arg(self) -> BlockArgument:
        return self.loop.condition.blocks[0].args[0]

    def slot_types(self) -> tuple[Attribute, ...]:
        t = self.loop.init.type
        return tuple(t.types.data) if isinstance(t, TupleType) else ()

    def clear_cache(self) -> None:
        """Forget memoised ranges (after the IR or the induction facts change)."""
        self._ranges.clear()
        self._affines.clear()

    def slot_of(self, v: SSAValue) -> tuple[int, bool] | None:
        """(slot, in_condition) when `v` is `get_tuple_element` of the body/condition argument."""
        op = v.owner
        if not isinstance(op, GetTupleElementOp):
            return None
        if op.tuple_ is self.body_arg:
            return op.index.value.data, False
        if op.tuple_ is self.condition_arg:
            return op.index.value.data, True
        return None

    def slot_range(self, slot: int, in_condition: bool = False) -> Interval | None:
        """The values slot `slot` takes in the body (or at the condition's checks)."""
        iv = self.induction.get(slot)
        if iv is None:
            return None
        if iv.step == 0:
            return (iv.init, iv.init)
        count = self.trip_count
        if count is None or (count == 0 and not in_condition):
            return None
        last = iv.init + iv.step * (count if in_condition else count - 1)
        lo, hi = min(iv.init, last), max(iv.init, last)
        bounds = int_bounds(self.slot_types()[slot].element_type)  # pyright: ignore[reportAttributeAccessIssue]
        if bounds is None or lo < bounds[0] or hi > bounds[1]:
            return None
        return (lo, hi)

    def value_range(self, v: SSAValue) -> Interval | None:
        """An interval holding every value of scalar integer/pred `v` (None: unknown)."""
        if v not in self._ranges:
            _evaluate(v, self._ranges, self._range_of)
        return self._ranges[v]

    def _range_of(self, v: SSAValue) -> Interval | None:
        element = scalar_element(v)
        bounds = int_bounds(element) if element is not None else None
        if bounds is None:
            return None
        r = self._compute_range(v)
        if r is not None and (r[0] < bounds[0] or r[1] > bounds[1]):
            return None
        return r

    def _compute_range(self, v: SSAValue) -> Interval | None:
        c = constant_int(v)
        if c is not None:
            return (c, c)
        slot = self.slot_of(v)
        if slot is not None:
            return self.slot_range(*slot)
        op = v.owner
        rule = _RANGE_RULES.get(type(op)) if isinstance(op, Operation) else None
        return rule(self, op) if rule is not None else None

    def affine(self, v: SSAValue) -> Affine | None:
        """`v` as `coef * slot + offset` (integer scalars; None when not affine)."""
        if v not in self._affines:
            _evaluate(v, self._affines, self._compute_affine)
        return self._affines[v]

    def _compute_affine(self, v: SSAValue) -> Affine | None:
        element = scalar_element(v)
        if element is None or not is_integer_type(element):
            return None
        r = self.value_range(v)
        if r is not None and r[0] == r[1]:
            return Affine(None, 0, r[0])
        slot = self.slot_of(v)
        if slot is not None:
            return Affine(slot[0], 1, 0)
        op = v.owner
        rule = _AFFINE_RULES.get(type(op)) if isinstance(op, Operation) else None
        return rule(self, op) if rule is not None else None

    def equals_induction(self, v: SSAValue) -> int | None:
        """The induction slot whose value `v` equals in every iteration, else None."""
        a = self.affine(v)
        if a is not None and a.slot is None:
            return self._single_value_induction(a.offset)
        if a is None or a.slot is None or a.coef != 1 or a.offset != 0:
            return None
        return a.slot if a.slot in self.induction else None

    def _single_value_induction(self, value: int) -> int | None:
        """A counting slot that holds `value` in every iteration (a loop of one trip, where the
        ranges fold the counter itself to a constant), preferring the trip counter."""
        slots = sorted(self.induction, key=lambda j: j != self.counter)
        for j in slots:
            if self.induction[j].step != 0 and self.slot_range(j) == (value, value):
                return j
        return None


_T = TypeVar("_T")


def _dependencies(v: SSAValue) -> list[SSAValue]:
    """The values the rules for `v` query (its operands, or the tuple element a gte reads)."""
    op = v.owner
    if isinstance(op, GetTupleElementOp):
        element = tuple_element(op.tuple_, op.index.value.data)
        return [element] if element is not None else []
    if isinstance(op, Operation) and type(op) in _RANGE_RULES:
        return list(op.operands)
    return []


def _evaluate(
    v: SSAValue, cache: dict[SSAValue, _T | None], compute: Callable[[SSAValue], _T | None]
) -> None:
    """Fill `cache[v]`, evaluating its dependencies first, bottom-up and without recursion
    (long chains of index arithmetic cannot exhaust Python's stack)."""
    stack: list[tuple[SSAValue, bool]] = [(v, False)]
    while stack:
        x, ready = stack.pop()
        if x in cache:
            continue
        if ready:
            cache[x] = compute(x)
            continue
        stack.append((x, True))
        stack.extend((d, False) for d in _dependencies(x) if d not in cache)


def analyze_loop(loop: WhileOp) -> LoopInfo | None:
    """Induction variables and trip count of `loop` (None if it does not carry a tuple)."""
    if not isinstance(loop.init.type, TupleType):
        return None
    for region in (loop.body, loop.condition):
        if len(region.blocks) != 1 or len(region.blocks[0].args) != 1:
            return None
    info = LoopInfo(loop)
    info.induction = _find_induction(info)
    info.clear_cache()
    info.trip_count, info.counter = _trip_count(info)
    info.clear_cache()
    return info


def _find_induction(info: LoopInfo) -> dict[int, InductionVar]:
    last = info.loop.body.blocks[0].last_op
    if not isinstance(last, ReturnOp) or len(last.results_) != 1:
        return {}
    result: dict[int, InductionVar] = {}
    for k, t in enumerate(info.slot_types()):
        element = t.element_type if isinstance(t, TensorType) and not t.get_shape() else None
        if element is None or not is_integer_type(element):
            continue
        init_value = tuple_element(info.loop.init, k)
        next_value = tuple_element(last.results_[0], k)
        if init_value is None or next_value is None:
            continue
        init = constant_int(init_value)
        a = info.affine(next_value)
        if init is None or a is None or a.slot != k or a.coef != 1:
            continue
        result[k] = InductionVar(k, init, a.offset)
    return result


_SWAPPED = {
    ComparisonDirection.LT: ComparisonDirection.GT,
    ComparisonDirection.LE: ComparisonDirection.GE,
    ComparisonDirection.GT: ComparisonDirection.LT,
    ComparisonDirection.GE: ComparisonDirection.LE,
    ComparisonDirection.EQ: ComparisonDirection.EQ,
    ComparisonDirection.NE: ComparisonDirection.NE,
}


def _trip_count(info: LoopInfo) -> tuple[int | None, int | None]:
    """(trip count, counter slot) from the loop condition."""
    last = info.loop.condition.blocks[0].last_op
    if not isinstance(last, ReturnOp) or len(last.results_) != 1:
        return None, None
    if info.value_range(last.results_[0]) == (0, 0):
        return 0, None
    cmp = last.results_[0].owner
    if not isinstance(cmp, CompareOp) or not _integer_compare(cmp):
        return None, None
    direction = cmp.direction.data
    counter: int | None = None
    for x, y, d in ((cmp.lhs, cmp.rhs, direction), (cmp.rhs, cmp.lhs, _SWAPPED[direction])):
        a = info.affine(x)
        if a is None or a.slot is None or a.coef != 1 or a.offset != 0:
            continue
        iv = info.induction.get(a.slot)
        if iv is None or iv.step == 0:
            continue
        counter = a.slot
        bound = info.value_range(y)
        if bound is None or bound[0] != bound[1]:
            continue
        count = iterations(d, iv.init, iv.step, bound[0])
        return (count if count is not None and _fits(info, iv, count) else None), a.slot
    return None, counter


def _integer_compare(cmp: CompareOp) -> bool:
    element = scalar_element(cmp.lhs)
    if element is None or not is_integer_type(element):
        return False
    expected = ComparisonType.UNSIGNED if is_unsigned_type(element) else ComparisonType.SIGNED
    return cmp.effective_compare_type() == expected


def _fits(info: LoopInfo, iv: InductionVar, count: int) -> bool:
    """Every value the counter takes (including the failing check) fits its type."""
    t = info.slot_types()[iv.slot]
    bounds = int_bounds(t.element_type) if isinstance(t, TensorType) else None
    last = iv.init + iv.step * count
    return bounds is not None and bounds[0] <= min(iv.init, last) <= max(iv.init, last) <= bounds[1]


def iterations(direction: ComparisonDirection, init: int, step: int, bound: int) -> int | None:
    """How many times `x = init, init + step, ...` satisfies `x <direction> bound` before the
    first failure (None if it never fails without wrapping around)."""
    if direction == ComparisonDirection.NE:
        if step == 0:
            return 0 if init == bound else None
        q, r = divmod(bound - init, step)
        return q if r == 0 and q >= 0 else None
    if direction == ComparisonDirection.EQ:
        if init != bound:
            return 0
        return 1 if step != 0 else None
    if direction in (ComparisonDirection.GT, ComparisonDirection.GE):
        init, step, bound = -init, -step, -bound
    limit = bound + 1 if direction in (ComparisonDirection.LE, ComparisonDirection.GE) else bound
    if init >= limit:
        return 0
    if step <= 0:
        return None
    return -((init - limit) // step)


# ---------------------------------------------------------------------------
# interval rules (operands are scalars of the result's element type unless said)
# ---------------------------------------------------------------------------


def _hull(a: Interval | None, b: Interval | None) -> Interval | None:
    if a is None or b is None:
        return None
    return (min(a[0], b[0]), max(a[1], b[1]))


def _span(values: list[int]) -> Interval:
    return (min(values), max(values))


def _binary(info: LoopInfo, op: Any) -> tuple[Interval, Interval] | None:
    a, b = info.value_range(op.lhs), info.value_range(op.rhs)
    return None if a is None or b is None else (a, b)


def _is_pred(op: Operation) -> bool:
    element = scalar_element(op.results[0])
    return element is not None and is_pred_type(element)


def _range_forward(info: LoopInfo, op: Any) -> Interval | None:
    operand: SSAValue = op.operand
    return info.value_range(operand) if scalar_element(operand) is not None else None


def _range_add(info: LoopInfo, op: AddOp) -> Interval | None:
    if _is_pred(op):
        return _range_logic(info, op, any)  # add of preds is or
    ab = _binary(info, op)
    if ab is None:
        return None
    (a0, a1), (b0, b1) = ab
    return (a0 + b0, a1 + b1)


def _range_subtract(info: LoopInfo, op: SubtractOp) -> Interval | None:
    ab = _binary(info, op)
    if ab is None or _is_pred(op):
        return None
    (a0, a1), (b0, b1) = ab
    return (a0 - b1, a1 - b0)


def _range_multiply(info: LoopInfo, op: MultiplyOp) -> Interval | None:
    if _is_pred(op):
        return _range_logic(info, op, all)  # multiply of preds is and
    ab = _binary(info, op)
    if ab is None:
        return None
    (a0, a1), (b0, b1) = ab
    return _span([a0 * b0, a0 * b1, a1 * b0, a1 * b1])


def _range_negate(info: LoopInfo, op: NegateOp) -> Interval | None:
    a = info.value_range(op.operand)
    return None if a is None or _is_pred(op) else (-a[1], -a[0])


def _range_abs(info: LoopInfo, op: AbsOp) -> Interval | None:
    a = info.value_range(op.operand)
    if a is None:
        return None
    if a[0] >= 0:
        return a
    if a[1] <= 0:
        return (-a[1], -a[0])
    return (0, max(-a[0], a[1]))


def _trunc_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


def _range_divide(info: LoopInfo, op: DivideOp) -> Interval | None:
    ab = _binary(info, op)
    if ab is None or ab[1][0] != ab[1][1] or ab[1][0] == 0:
        return None
    (a0, a1), (c, _) = ab
    return _span([_trunc_div(a0, c), _trunc_div(a1, c)])


def _remainder_range(a: Interval, c: int) -> Interval:
    """`a rem c` (the sign follows the dividend, as C's fmod / XLA's remainder)."""
    m = abs(c)
    if (0 <= a[0] and a[1] < m) or (a[1] <= 0 and a[0] > -m):
        return a
    if a[0] >= 0:
        return (0, min(a[1], m - 1))
    if a[1] <= 0:
        return (max(a[0], -(m - 1)), 0)
    return (max(a[0], -(m - 1)), min(a[1], m - 1))


def _range_remainder(info: LoopInfo, op: RemainderOp) -> Interval | None:
    ab = _binary(info, op)
    if ab is None or ab[1][0] != ab[1][1] or ab[1][0] == 0:
        return None
    return _remainder_range(ab[0], ab[1][0])


def _range_maximum(info: LoopInfo, op: MaximumOp) -> Interval | None:
    ab = _binary(info, op)
    return None if ab is None else (max(ab[0][0], ab[1][0]), max(ab[0][1], ab[1][1]))


def _range_minimum(info: LoopInfo, op: MinimumOp) -> Interval | None:
    ab = _binary(info, op)
    return None if ab is None else (min(ab[0][0], ab[1][0]), min(ab[0][1], ab[1][1]))


def _range_clamp(info: LoopInfo, op: ClampOp) -> Interval | None:
    lo, x, hi = info.value_range(op.min), info.value_range(op.operand), info.value_range(op.max)
    if lo is None or x is None or hi is None:
        return None
    raised = (max(x[0], lo[0]), max(x[1], lo[1]))
    return (min(raised[0], hi[0]), min(raised[1], hi[1]))


def _range_convert(info: LoopInfo, op: ConvertOp) -> Interval | None:
    element = scalar_element(op.operand)
    if element is None or int_bounds(element) is None:
        return None
    a = info.value_range(op.operand)
    if a is None or not _is_pred(op):
        return a
    return (int(a[0] > 0 or a[1] < 0), int(a != (0, 0)))


def _truth(direction: ComparisonDirection, a: Interval, b: Interval) -> bool | None:
    """Whether `x <direction> y` holds for all / no x in a, y in b (None: it depends)."""
    d = ComparisonDirection
    if direction in (d.GT, d.GE):
        return _truth(_SWAPPED[direction], b, a)
    if direction == d.NE:
        eq = _truth(d.EQ, a, b)
        return None if eq is None else not eq
    if direction == d.EQ:
        if a[0] == a[1] == b[0] == b[1]:
            return True
        return False if a[1] < b[0] or b[1] < a[0] else None
    strict = direction == d.LT
    if a[1] < b[0] or (not strict and a[1] == b[0]):
        return True
    if a[0] > b[1] or (strict and a[0] == b[1]):
        return False
    return None


def _range_compare(info: LoopInfo, op: CompareOp) -> Interval | None:
    element = scalar_element(op.lhs)
    if element is None or int_bounds(element) is None:
        return None
    if not is_pred_type(element) and not _integer_compare(op):
        return None
    ab = _binary(info, op)
    truth = None if ab is None else _truth(op.direction.data, *ab)
    return None if truth is None else (int(truth), int(truth))


def _range_select(info: LoopInfo, op: SelectOp) -> Interval | None:
    p = info.value_range(op.pred)
    if p == (1, 1):
        return info.value_range(op.on_true)
    if p == (0, 0):
        return info.value_range(op.on_false)
    return _hull(info.value_range(op.on_true), info.value_range(op.on_false))


def _range_logic(info: LoopInfo, op: Any, combine: Callable[[list[bool]], bool]) -> Interval:
    """and (`all`) / or (`any`) of preds: decided when the known operands decide it."""
    ranges = [info.value_range(op.lhs), info.value_range(op.rhs)]
    known = [r[0] == 1 for r in ranges if r is not None and r[0] == r[1]]
    if len(known) == 2:
        value = combine(known)
        return (int(value), int(value))
    if known and combine([known[0], not known[0]]) == known[0]:
        return (int(known[0]), int(known[0]))  # a dominating operand (false for and, true for or)
    return (0, 1)


def _range_and(info: LoopInfo, op: AndOp) -> Interval | None:
    return _range_logic(info, op, all) if _is_pred(op) else None


def _range_or(info: LoopInfo, op: OrOp) -> Interval | None:
    return _range_logic(info, op, any) if _is_pred(op) else None


def _range_not(info: LoopInfo, op: NotOp) -> Interval | None:
    a = info.value_range(op.operand)
    return None if a is None or not _is_pred(op) else (1 - a[1], 1 - a[0])


def _range_gte(info: LoopInfo, op: GetTupleElementOp) -> Interval | None:
    element = tuple_element(op.tuple_, op.index.value.data)
    return None if element is None else info.value_range(element)


_RANGE_RULES: dict[type[Operation], Callable[[LoopInfo, Any], Interval | None]] = {
    CopyOp: _range_forward,
    ReshapeOp: _range_forward,
    BitcastOp: _range_forward,
    BroadcastOp: _range_forward,
    GetTupleElementOp: _range_gte,
    ConvertOp: _range_convert,
    AddOp: _range_add,
    SubtractOp: _range_subtract,
    MultiplyOp: _range_multiply,
    NegateOp: _range_negate,
    AbsOp: _range_abs,
    DivideOp: _range_divide,
    RemainderOp: _range_remainder,
    MaximumOp: _range_maximum,
    MinimumOp: _range_minimum,
    ClampOp: _range_clamp,
    CompareOp: _range_compare,
    SelectOp: _range_select,
    AndOp: _range_and,
    OrOp: _range_or,
    NotOp: _range_not,
}


# ---------------------------------------------------------------------------
# affine rules
# ---------------------------------------------------------------------------


def _combine(a: Affine | None, b: Affine | None, sign: int) -> Affine | None:
    """a + sign * b, when at most one slot is involved."""
    if a is None or b is None:
        return None
    if a.slot is not None and b.slot is not None and a.slot != b.slot:
        return None
    coef = a.coef + sign * b.coef
    offset = a.offset + sign * b.offset
    slot = a.slot if a.slot is not None else b.slot
    return Affine(slot if coef else None, coef, offset)


def _scale(a: Affine | None, c: int) -> Affine | None:
    if a is None:
        return None
    return Affine(a.slot if a.coef * c else None, a.coef * c, a.offset * c)


def _affine_forward(info: LoopInfo, op: Any) -> Affine | None:
    operand: SSAValue = op.operand
    return info.affine(operand) if scalar_element(operand) is not None else None


def _affine_gte(info: LoopInfo, op: GetTupleElementOp) -> Affine | None:
    element = tuple_element(op.tuple_, op.index.value.data)
    return None if element is None else info.affine(element)


def _affine_convert(info: LoopInfo, op: ConvertOp) -> Affine | None:
    element = scalar_element(op.operand)
    if element is None or not is_integer_type(element):
        return None
    return info.affine(op.operand) if info.value_range(op.operand) is not None else None


def _affine_add(info: LoopInfo, op: AddOp) -> Affine | None:
    return _combine(info.affine(op.lhs), info.affine(op.rhs), 1)


def _affine_subtract(info: LoopInfo, op: SubtractOp) -> Affine | None:
    return _combine(info.affine(op.lhs), info.affine(op.rhs), -1)


def _affine_multiply(info: LoopInfo, op: MultiplyOp) -> Affine | None:
    a, b = info.affine(op.lhs), info.affine(op.rhs)
    if a is None or b is None:
        return None
    if b.slot is None:
        return _scale(a, b.offset)
    return _scale(b, a.offset) if a.slot is None else None


def _affine_negate(info: LoopInfo, op: NegateOp) -> Affine | None:
    return _scale(info.affine(op.operand), -1)


def _affine_select(info: LoopInfo, op: SelectOp) -> Affine | None:
    p = info.value_range(op.pred)
    if p == (1, 1):
        return info.affine(op.on_true)
    if p == (0, 0):
        return info.affine(op.on_false)
    a = info.affine(op.on_true)
    return a if a is not None and a == info.affine(op.on_false) else None


def _affine_remainder(info: LoopInfo, op: RemainderOp) -> Affine | None:
    a, b = info.value_range(op.lhs), info.value_range(op.rhs)
    if a is None or b is None or b[0] != b[1] or b[0] == 0:
        return None
    return info.affine(op.lhs) if _remainder_range(a, b[0]) == a else None


def _affine_maximum(info: LoopInfo, op: MaximumOp) -> Affine | None:
    ab = _binary(info, op)
    if ab is not None and ab[0][0] >= ab[1][1]:
        return info.affine(op.lhs)
    if ab is not None and ab[1][0] >= ab[0][1]:
        return info.affine(op.rhs)
    return None


def _affine_minimum(info: LoopInfo, op: MinimumOp) -> Affine | None:
    ab = _binary(info, op)
    if ab is not None and ab[0][1] <= ab[1][0]:
        return info.affine(op.lhs)
    if ab is not None and ab[1][1] <= ab[0][0]:
        return info.affine(op.rhs)
    return None


def _affine_clamp(info: LoopInfo, op: ClampOp) -> Affine | None:
    lo, x, hi = info.value_range(op.min), info.value_range(op.operand), info.value_range(op.max)
    if lo is None or x is None or hi is None or x[0] < lo[1] or x[1] > hi[0]:
        return None
    return info.affine(op.operand)


_AFFINE_RULES: dict[type[Operation], Callable[[LoopInfo, Any], Affine | None]] = {
    CopyOp: _affine_forward,
    ReshapeOp: _affine_forward,
    BitcastOp: _affine_forward,
    BroadcastOp: _affine_forward,
    GetTupleElementOp: _affine_gte,
    ConvertOp: _affine_convert,
    AddOp: _affine_add,
    SubtractOp: _affine_subtract,
    MultiplyOp: _affine_multiply,
    NegateOp: _affine_negate,
    SelectOp: _affine_select,
    RemainderOp: _affine_remainder,
    MaximumOp: _affine_maximum,
    MinimumOp: _affine_minimum,
    ClampOp: _affine_clamp,
}
