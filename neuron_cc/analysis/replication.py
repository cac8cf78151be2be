"""Replication analysis: which devices are guaranteed to hold equal values of an SSA value.

Devices are flattened ids d = r*P + p (R replicas, P partitions). For a value, the analysis
computes a *partition* of the devices into classes, written as a tuple of labels (one per
device, canonical first-occurrence numbering): devices with equal labels are GUARANTEED to hold
equal values. A finer partition is always sound; the analysis is conservative.

Rules (issue 6 / docs/decisions.md §6b):
- constants and iota: one class; `partition_id`: class d % P; `replica_id`: class d // P;
- arguments of a function whose `xla.sharding` is replicated: one class per replica (every
  partition holds the same value after SPMD partitioning, as XLA's cross-partition replication
  analysis assumes);
- function arguments and other block arguments: every device its own class, except the block
  argument of a while body/condition, which is solved to a fixed point: it starts as the init's
  partition and is refined with what the body returns until nothing changes (tuples are tracked
  per element);
- all_reduce / all_gather / collective_broadcast: one class per device group (the collective
  makes the group equal); devices in no group (collective_broadcast) receive zeros, one class;
  reduce_scatter, all_to_all, collective_permute, send/recv, call, conditional, custom_call and
  every op not known to be a pure function of its operands: every device its own class;
- tuple / get_tuple_element / copy / optimization_barrier forward per element; every other pure
  op (elementwise, convert, reshape, broadcast, slice, dynamic_slice, select, compare, reduce,
  ...): the meet of its operands' partitions (equal only if equal in every operand);
- known VALUES: for single-element integer (and pred) tensors the exact per-device value is
  tracked through constants, partition_id, replica_id, + - * / % min max and or xor not negate
  abs, compare, select, clamp, convert and reshape-like ops (XLA's wrap-around and division
  semantics), and `dynamic_slice(constant table, known indices)` reads the table with XLA's
  clamping. Classes then follow equal values, so a JAX axis-index table
  `dynamic_slice(dense<[0,0,0,0,1,1,1,1]>, partition_id)` is replicated within {0..3},{4..7}.

The analysis is lazy and memoised per value, iterative (an explicit stack, no deep recursion),
and linear in the program size for a fixed device count (a while body is re-evaluated once per
fixed-point round; rounds are bounded by the lattice height, in practice two or three). It is a
snapshot: build a new one after rewriting the IR.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from numpy.typing import NDArray
from xdsl.dialects.builtin import DictionaryAttr, IntegerType, Signedness, TensorType, TupleType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.attributes import ComparisonDirection
from neuron_cc.dialects.hlo.collectives import (
    AllGatherOp,
    AllReduceOp,
    CollectiveBroadcastOp,
    CollectiveOp,
)
from neuron_cc.dialects.hlo.constants import storage_values
from neuron_cc.dialects.hlo.control_flow import (
    GetTupleElementOp,
    OptimizationBarrierOp,
    ReturnOp,
    TupleOp,
    WhileOp,
)
from neuron_cc.dialects.hlo.data_movement import (
    BitcastOp,
    BroadcastOp,
    CopyOp,
    DynamicSliceOp,
    ReshapeOp,
    SliceOp,
    TransposeOp,
)
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
    XorOp,
)
from neuron_cc.dialects.hlo.elementwise_misc import (
    ClampOp,
    CompareOp,
    ConstantOp,
    ConvertOp,
    IotaOp,
    SelectOp,
)
from neuron_cc.dialects.hlo.p2p import PartitionIdOp, ReplicaIdOp
from neuron_cc.dialects.replica_groups import device_counts, flattened_participants

Labels = tuple[int, ...]
"""One class label per flattened device, canonical (first occurrence numbered 0, 1, ...)."""

_MAX_TABLE_ELEMENTS = 1 << 16
"""Constant tables larger than this are not read (the slice then falls back to the meet)."""


@dataclass(frozen=True, slots=True)
class Leaf:
    """A non-tuple value: its device partition and, when known, its exact per-device value."""

    labels: Labels
    values: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Tup:
    """A tuple value: one partition per element (nested)."""

    elements: tuple[Info, ...]


Info = Leaf | Tup


# ---------------------------------------------------------------------------------------------
# Partitions
# ---------------------------------------------------------------------------------------------


def canonical(keys: Iterable[Hashable]) -> Labels:
    """Labels numbering the distinct keys by first occurrence: equal keys, equal labels."""
    numbering: dict[Hashable, int] = {}
    return tuple(numbering.setdefault(k, len(numbering)) for k in keys)


def meet(a: Labels, b: Labels) -> Labels:
    """The refinement of two partitions: devices are together only if together in both."""
    if a == b or not any(b):
        return a
    if not any(a):
        return b
    return canonical(zip(a, b, strict=True))


def _flat(info: Info, replicated: Labels) -> Labels:
    """The partition of a whole (possibly tuple) value: the meet over its elements."""
    if isinstance(info, Leaf):
        return info.labels
    labels = replicated
    for element in info.elements:
        labels = meet(labels, _flat(element, replicated))
    return labels


def _merge(a: Info, b: Info, replicated: Labels) -> Info:
    """Join of two iterations' infos: values kept only if equal, partitions refined."""
    if isinstance(a, Tup) and isinstance(b, Tup) and len(a.elements) == len(b.elements):
        return Tup(
            tuple(_merge(x, y, replicated) for x, y in zip(a.elements, b.elements, strict=True))
        )
    if isinstance(a, Leaf) and isinstance(b, Leaf):
        if a.values is not None and a.values == b.values:
            return a
        return Leaf(meet(a.labels, b.labels))
    return Leaf(meet(_flat(a, replicated), _flat(b, replicated)))


def _restrict(info: Info, labels: Labels) -> Info:
    """Refine every element without known values by `labels`."""
    if isinstance(info, Tup):
        return Tup(tuple(_restrict(e, labels) for e in info.elements))
    if info.values is not None:
        return info
    return Leaf(meet(info.labels, labels))


def _shaped(leaf: Leaf, t: Attribute) -> Info:
    """`leaf`'s partition for every element of a value of type `t`."""
    if isinstance(t, TupleType):
        return Tup(tuple(_shaped(Leaf(leaf.labels), e) for e in t.types.data))
    return leaf


# ---------------------------------------------------------------------------------------------
# Known integer values (XLA semantics on Python ints, wrapped to the element type)
# ---------------------------------------------------------------------------------------------


def _scalar_int_type(t: Attribute) -> IntegerType | None:
    """The element type of a single-element integer or pred tensor, else None."""
    if not isinstance(t, TensorType):
        return None
    elem = t.element_type
    if not isinstance(elem, IntegerType):
        return None
    return elem if math.prod(t.get_shape()) == 1 else None


def _wrap(x: int, elem: IntegerType) -> int:
    width = elem.width.data
    mask = (1 << width) - 1
    x &= mask
    if width == 1 or elem.signedness.data == Signedness.UNSIGNED:
        return x
    return x - (1 << width) if x >> (width - 1) else x


def _divide(a: int, b: int) -> int:
    """XLA integer division: truncates toward zero; x / 0 = -1 (all ones)."""
    if b == 0:
        return -1
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _remainder(a: int, b: int) -> int:
    """XLA integer remainder: the sign of the dividend; x % 0 = x."""
    if b == 0:
        return a
    return a - b * _divide(a, b)


_BINARY: dict[type[Operation], Callable[[int, int], int]] = {
    AddOp: operator.add,
    SubtractOp: operator.sub,
    MultiplyOp: operator.mul,
    DivideOp: _divide,
    RemainderOp: _remainder,
    MaximumOp: max,
    MinimumOp: min,
    AndOp: operator.and_,
    OrOp: operator.or_,
    XorOp: operator.xor,
}
_UNARY: dict[type[Operation], Callable[[int], int]] = {
    NegateOp: operator.neg,
    AbsOp: abs,
    NotOp: operator.invert,
    ReshapeOp: int,
    BitcastOp: int,
    CopyOp: int,
    BroadcastOp: int,
    TransposeOp: int,
    SliceOp: int,
}
_COMPARE: dict[ComparisonDirection, Callable[[int, int], bool]] = {
    ComparisonDirection.EQ: operator.eq,
    ComparisonDirection.NE: operator.ne,
    ComparisonDirection.LT: operator.lt,
    ComparisonDirection.LE: operator.le,
    ComparisonDirection.GT: operator.gt,
    ComparisonDirection.GE: operator.ge,
}

ValueFn = Callable[[Sequence[int]], int]


def _compare_fn(op: CompareOp) -> ValueFn:
    """Integer compare (the verifier ties SIGNED/UNSIGNED to the element type's signedness)."""
    compare = _COMPARE[op.direction.data]
    return lambda a: int(compare(a[0], a[1]))


def _special_value_fn(op: Operation) -> ValueFn | None:
    if isinstance(op, CompareOp):
        return _compare_fn(op)
    if isinstance(op, SelectOp):
        return lambda a: a[1] if a[0] else a[2]
    if isinstance(op, ClampOp):
        return lambda a: min(max(a[1], a[0]), a[2])
    if isinstance(op, ConvertOp):
        target = _scalar_int_type(op.result.type)
        if target is not None and target.width.data == 1:
            return lambda a: int(a[0] != 0)
        return lambda a: a[0]
    return None


def _value_fn(op: Operation) -> ValueFn | None:
    binary = _BINARY.get(type(op))
    if binary is not None:
        return lambda a: binary(a[0], a[1])
    unary = _UNARY.get(type(op))
    if unary is not None:
        return lambda a: unary(a[0])
    return _special_value_fn(op)


def _known_values(op: Operation, operands: Sequence[Info]) -> tuple[int, ...] | None:
    """The per-device result value of `op`, when every operand's value is known."""
    if len(op.results) != 1:
        return None
    elem = _scalar_int_type(op.results[0].type)
    if elem is None or not operands:
        return None
    columns: list[tuple[int, ...]] = []
    for info in operands:
        if not isinstance(info, Leaf) or info.values is None:
            return None
        columns.append(info.values)
    fn = _value_fn(op)
    if fn is None:
        return None
    return tuple(_wrap(fn(args), elem) for args in zip(*columns, strict=True))


# ---------------------------------------------------------------------------------------------
# The analysis
# ---------------------------------------------------------------------------------------------


class ReplicationAnalysis:
    """Which devices hold equal values of an SSA value (see the module docstring).

    ```python
    analysis = ReplicationAnalysis(num_replicas=1, num_partitions=8)
    analysis.is_replicated_within(index, [[0, 1, 2, 3], [4, 5, 6, 7]])
    ```
    """

    def __init__(self, num_replicas: int, num_partitions: int) -> None:
        if num_replicas < 1 or num_partitions < 1:
            raise ValueError(
                f"replica and partition counts must be positive, got {num_replicas} and "
                f"{num_partitions}"
            )
        self.num_replicas = num_replicas
        self.num_partitions = num_partitions
        self.num_devices = num_replicas * num_partitions
        self._replicated: Labels = (0,) * self.num_devices
        self._unique: Labels = tuple(range(self.num_devices))
        self._memo: dict[SSAValue, Info] = {}
        self._solved: set[WhileOp] = set()
        self._active: set[WhileOp] = set()
        self._captures: dict[WhileOp, list[SSAValue]] = {}
        self._safe_regions: dict[Operation, bool] = {}
        self._tables: dict[ConstantOp, NDArray[Any] | None] = {}

    @classmethod
    def for_op(cls, op: Operation) -> ReplicationAnalysis:
        """An analysis sized by the enclosing module's `hlo.num_replicas`/`hlo.num_partitions`."""
        replicas, partitions = device_counts(op)
        return cls(replicas, partitions)

    # -- public queries -----------------------------------------------------------------------

    def device_classes(self, value: SSAValue) -> tuple[int, ...]:
        """For each flattened device d (= r*P + p), a class label; devices with equal labels are
        guaranteed to hold equal values of `value`. Memoised; computed lazily on demand."""
        return _flat(self._info(value), self._replicated)

    def is_replicated_within(self, value: SSAValue, groups: Sequence[Sequence[int]]) -> bool:
        """True if within every group (flattened device ids) all devices share one class."""
        labels = self.device_classes(value)
        for group in groups:
            for d in group:
                if not 0 <= d < self.num_devices:
                    raise ValueError(f"device id {d} is outside [0, {self.num_devices})")
            if len({labels[d] for d in group}) > 1:
                return False
        return True

    def device_values(self, value: SSAValue) -> tuple[int, ...] | None:
        """The exact per-device value of a single-element integer/pred value, when known."""
        info = self._info(value)
        return info.values if isinstance(info, Leaf) else None

    # -- lazy evaluation with an explicit stack -----------------------------------------------

    def _info(self, value: SSAValue) -> Info:
        found = self._memo.get(value)
        if found is not None:
            return found
        stack = [value]
        while stack:
            top = stack[-1]
            if top in self._memo:
                stack.pop()
                continue
            missing = [d for d in self._deps(top) if d not in self._memo]
            if missing:
                stack.extend(missing)
                continue
            self._evaluate(top)
            stack.pop()
        return self._memo[value]

    def _get(self, value: SSAValue) -> Info:
        found = self._memo.get(value)
        return found if found is not None else self._info(value)

    def _deps(self, value: SSAValue) -> list[SSAValue]:
        """Values that must be known before `value` can be evaluated."""
        loop = self._outermost_unsolved_loop(value)
        if loop is not None:
            return [loop.result]
        if not isinstance(value, OpResult):
            return []
        op = value.op
        if isinstance(op, WhileOp):
            return [op.init, *self._captured(op)]
        return list(op.operands)

    def _outermost_unsolved_loop(self, value: SSAValue) -> WhileOp | None:
        """The outermost while (not solved or being solved) whose regions contain `value`."""
        node = value.op if isinstance(value, OpResult) else None
        parent = node.parent_op() if node is not None else _block_parent(value)
        found: WhileOp | None = None
        while parent is not None:
            if isinstance(parent, WhileOp) and not (
                parent in self._solved or parent in self._active
            ):
                found = parent
            parent = parent.parent_op()
        return found

    def _captured(self, op: WhileOp) -> list[SSAValue]:
        """Values defined outside the while that its regions use (none in imported XLA)."""
        cached = self._captures.get(op)
        if cached is not None:
            return cached
        inside: set[SSAValue] = set()
        used: list[SSAValue] = []
        for block in op.walk_blocks():
            inside.update(block.args)
            for nested in block.ops:
                inside.update(nested.results)
                used.extend(nested.operands)
        captured = [v for v in dict.fromkeys(used) if v not in inside]
        self._captures[op] = captured
        return captured

    def _evaluate(self, value: SSAValue) -> None:
        if isinstance(value, OpResult):
            self._store(value.op)
        elif isinstance(value, BlockArgument) and _sharding_replicated(value):
            self._memo[value] = _shaped(Leaf(self._per_replica()), value.type)
        else:
            self._memo[value] = Leaf(self._unique)

    def _per_replica(self) -> Labels:
        """Equal within each replica: the partitions of a replica hold one value."""
        return canonical(d // self.num_partitions for d in range(self.num_devices))

    def _store(self, op: Operation) -> None:
        for result, info in zip(op.results, self._op_infos(op), strict=True):
            self._memo[result] = info

    # -- per-op transfer functions ------------------------------------------------------------

    def _op_infos(self, op: Operation) -> list[Info]:
        if len(op.results) == 1:
            return [self._op_info(op)]
        if self._is_function_of_operands(op):
            leaf = Leaf(self._operand_meet(op))
            return [_shaped(leaf, r.type) for r in op.results]
        return [Leaf(self._unique) for _ in op.results]

    def _op_info(self, op: Operation) -> Info:
        structural = self._structural_info(op)
        if structural is not None:
            return structural
        if isinstance(op, CollectiveOp):
            return self._collective_info(op)
        if isinstance(op, DynamicSliceOp):
            return self._dynamic_slice_info(op)
        if self._is_function_of_operands(op):
            return self._pure_info(op)
        return Leaf(self._unique)

    def _structural_info(self, op: Operation) -> Info | None:
        if isinstance(op, WhileOp):
            return self._solve_while(op)
        if isinstance(op, ConstantOp):
            return self._constant_info(op)
        if isinstance(op, IotaOp):
            return Leaf(self._replicated)
        if isinstance(op, PartitionIdOp | ReplicaIdOp):
            return self._device_id_info(op)
        if isinstance(op, TupleOp):
            return Tup(tuple(self._get(v) for v in op.elements))
        if isinstance(op, GetTupleElementOp):
            return self._element_info(op)
        if isinstance(op, CopyOp | OptimizationBarrierOp):
            return self._get(op.operand)
        return None

    def _constant_info(self, op: ConstantOp) -> Info:
        elem = _scalar_int_type(op.result.type)
        if elem is None:
            return Leaf(self._replicated)
        value = int(storage_values(op.value).reshape(-1)[0])
        return Leaf(self._replicated, (value,) * self.num_devices)

    def _device_id_info(self, op: PartitionIdOp | ReplicaIdOp) -> Info:
        p = self.num_partitions
        devices = range(self.num_devices)
        if isinstance(op, PartitionIdOp):
            values = tuple(d % p for d in devices)
        else:
            values = tuple(d // p for d in devices)
        return Leaf(canonical(values), values)

    def _element_info(self, op: GetTupleElementOp) -> Info:
        whole = self._get(op.tuple_)
        index = op.index.value.data
        if isinstance(whole, Tup) and 0 <= index < len(whole.elements):
            return whole.elements[index]
        return Leaf(_flat(whole, self._replicated))

    def _collective_info(self, op: CollectiveOp) -> Info:
        """all_reduce / all_gather / collective_broadcast: one class per group; others unique."""
        if not isinstance(op, AllReduceOp | AllGatherOp | CollectiveBroadcastOp):
            return Leaf(self._unique)
        try:
            groups = flattened_participants(
                op.replica_groups.groups(), op.mode(), self.num_replicas, self.num_partitions
            )
        except VerifyException:
            return Leaf(self._unique)
        keys = [len(groups)] * self.num_devices  # devices in no group receive zeros
        for index, group in enumerate(groups):
            for d in group:
                if not 0 <= d < self.num_devices:
                    return Leaf(self._unique)
                keys[d] = index
        return _shaped(Leaf(canonical(keys)), op.results[0].type)

    def _pure_info(self, op: Operation) -> Info:
        operands = [self._get(v) for v in op.operands]
        values = _known_values(op, operands)
        if values is not None:
            return Leaf(canonical(values), values)
        labels = self._replicated
        for info in operands:
            labels = meet(labels, _flat(info, self._replicated))
        return _shaped(Leaf(labels), op.results[0].type)

    def _operand_meet(self, op: Operation) -> Labels:
        labels = self._replicated
        for v in op.operands:
            labels = meet(labels, _flat(self._get(v), self._replicated))
        return labels

    def _is_function_of_operands(self, op: Operation) -> bool:
        """Pure, and every op in its regions (reducers, comparators) is pure or a terminator."""
        if not op.has_trait(Pure):
            return False
        if not op.regions:
            return True
        known = self._safe_regions.get(op)
        if known is None:
            known = all(
                nested.has_trait(Pure) or nested.has_trait(IsTerminator)
                for region in op.regions
                for nested in region.walk()
            )
            self._safe_regions[op] = known
        return known

    # -- dynamic_slice of a constant table ----------------------------------------------------

    def _dynamic_slice_info(self, op: DynamicSliceOp) -> Info:
        data = op.operand.owner
        if isinstance(data, ConstantOp):
            table = self._table_slice_info(op, data)
            if table is not None:
                return table
        return self._pure_info(op)

    def _table(self, data: ConstantOp) -> NDArray[Any] | None:
        if data not in self._tables:
            count = math.prod(_shape(data.result.type))
            table = storage_values(data.value) if count <= _MAX_TABLE_ELEMENTS else None
            self._tables[data] = table
        return self._tables[data]

    def _table_slice_info(self, op: DynamicSliceOp, data: ConstantOp) -> Info | None:
        """Per device, the slice of the constant at its (clamped) known start indices."""
        starts: list[tuple[int, ...]] = []
        for v in op.start_indices:
            info = self._get(v)
            if not isinstance(info, Leaf) or info.values is None:
                return None
            starts.append(info.values)
        table = self._table(data)
        if table is None:
            return None
        sizes = op.slice_sizes.data
        shape = _shape(data.result.type)
        per_start: dict[tuple[int, ...], tuple[bytes, int | None]] = {}
        keys: list[bytes] = []
        values: list[int | None] = []
        for device_starts in zip(*starts, strict=True):
            clamped = tuple(
                min(max(s, 0), dim - size)
                for s, dim, size in zip(device_starts, shape, sizes, strict=True)
            )
            if clamped not in per_start:
                per_start[clamped] = _slice_key(table, clamped, sizes)
            key, value = per_start[clamped]
            keys.append(key)
            values.append(value)
        known = _known_tuple(values) if _scalar_int_type(op.result.type) is not None else None
        return Leaf(canonical(keys), known)

    # -- while loops --------------------------------------------------------------------------

    def _solve_while(self, op: WhileOp) -> Info:
        """The body/condition argument's fixed point; returns the while result's info."""
        self._active.add(op)
        carried = self._get(op.init)
        body = op.body.blocks[0]
        while True:
            self._memo[body.args[0]] = carried
            returned = self._run_block(body)
            merged = _merge(carried, returned, self._replicated)
            if merged == carried:
                break
            carried = merged
        condition = op.condition.blocks[0]
        self._memo[condition.args[0]] = carried
        predicate = _flat(self._run_block(condition), self._replicated)
        self._active.discard(op)
        self._solved.add(op)
        # A device leaves the loop when its predicate is false: devices that differ in the
        # predicate may exit at different iterations, so the result is refined by it.
        return _restrict(carried, predicate)

    def _run_block(self, block: Block) -> Info:
        """Evaluate a region block in order; the info of what its terminator returns."""
        for op in block.ops:
            if isinstance(op, ReturnOp):
                if len(op.results_) != 1:
                    return Leaf(self._unique)
                return self._get(op.results_[0])
            self._store(op)
        return Leaf(self._unique)


def _shape(t: Attribute) -> tuple[int, ...]:
    return tuple(t.get_shape()) if isinstance(t, TensorType) else ()


def _sharding_replicated(arg: BlockArgument) -> bool:
    """An argument of a `func.func` whose `xla.sharding` is replicated: after SPMD
    partitioning every partition holds the whole (same) value, as XLA's replication analysis
    assumes for cross-partition replication."""
    func = arg.block.parent_op()
    return isinstance(func, FuncOp) and parameter_replicated(func, arg.index)


def parameter_replicated(func: FuncOp, index: int) -> bool:
    """Parameter `index` of `func` carries a replicated `xla.sharding`."""
    if func.arg_attrs is None:
        return False
    attrs = func.arg_attrs.data[index]
    sharding = attrs.data.get("xla.sharding") if isinstance(attrs, DictionaryAttr) else None
    return sharding is not None and getattr(sharding, "is_replicated", False) is True


def replicated_parameters(func: FuncOp) -> frozenset[int]:
    """The indices of `func`'s parameters whose `xla.sharding` is replicated."""
    count = len(func.function_type.inputs.data)
    return frozenset(i for i in range(count) if parameter_replicated(func, i))


def _block_parent(value: SSAValue) -> Operation | None:
    if isinstance(value, BlockArgument):
        return value.block.parent_op()
    return None


def _slice_key(
    table: NDArray[Any], starts: tuple[int, ...], sizes: Sequence[int]
) -> tuple[bytes, int | None]:
    """(bytes of the slice, its value if it is a single element)."""
    window = table[tuple(slice(s, s + n) for s, n in zip(starts, sizes, strict=True))]
    flat = window.reshape(-1)
    value = int(flat[0]) if flat.size == 1 and flat.dtype.kind in "biu" else None
    return window.tobytes(), value


def _known_tuple(values: Sequence[int | None]) -> tuple[int, ...] | None:
    known: list[int] = []
    for v in values:
        if v is None:
            return None
        known.append(v)
    return tuple(known)
