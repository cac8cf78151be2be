"""Collective ops of the hlo dialect (XLA semantics, docs/dialects.md §3 and docs/collective-semantics.md §5).

A variadic collective returns ONE value: a `tuple<...>` when it has several operands, the plain
tensor otherwise (exactly like XLA). Group semantics follow XLA's group modes (see
`neuron_cc.dialects.replica_groups`); the module attributes `hlo.num_replicas` and
`hlo.num_partitions` bound the ids. Collectives are never `Pure`.

```mlir
%s = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids {
^bb0(%a: tensor<f32>, %b: tensor<f32>):
  %c = hlo.add %a, %b : tensor<f32>
  hlo.return %c : tensor<f32>
} : (tensor<8xf32>) -> tensor<8xf32>
```
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr, TensorType, TupleType, UnitAttr
from xdsl.ir import Attribute, Operation, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.attributes import (
    GroupsDirective,
    ReplicaGroupsAttr,
)
from neuron_cc.dialects.hlo.types import (
    HLO_TENSOR,
    HLO_VALUE,
    HloTensor,
    element_type_name,
    tensor_type,
    tuple_elements,
)
from neuron_cc.dialects.replica_groups import (
    GroupMode,
    GroupModeError,
    device_counts,
    group_mode,
    group_size,
    groups_problem,
    id_space_size,
)

_FLAGS = (
    "(`channel_id` `=` $channel_id^)? "
    "(`use_global_device_ids` $use_global_device_ids^)? "
    "(`constrain_layout` $constrain_layout^)?"
)


class CollectiveOp(IRDLOperation, ABC):
    """Shared properties and checks of the replica-group collectives."""

    replica_groups = prop_def(ReplicaGroupsAttr)
    channel_id = opt_prop_def(IntegerAttr[I64])
    constrain_layout = opt_prop_def(UnitAttr)

    HAS_GLOBAL_IDS_FLAG: ClassVar[bool] = False
    UNIFORM_GROUPS: ClassVar[bool] = True
    COVER_IDS: ClassVar[bool] = True

    @property
    def uses_global_device_ids(self) -> bool:
        return False

    def mode(self) -> GroupMode:
        """The group mode (raises VerifyException for an invalid combination)."""
        try:
            return group_mode(
                self.channel_id is not None, self.uses_global_device_ids, self.HAS_GLOBAL_IDS_FLAG
            )
        except GroupModeError as e:
            raise VerifyException(str(e)) from e

    def group_size(self) -> int:
        r, p = checked_device_counts(self)
        return group_size(self.replica_groups.groups(), self.mode(), r, p)

    def verify_groups(self) -> None:
        problem = self.replica_groups.problem()
        if problem is not None:
            raise VerifyException(problem)
        if self.channel_id is not None and self.channel_id.value.data <= 0:
            raise VerifyException(f"channel_id must be positive, got {self.channel_id.value.data}")
        mode = self.mode()
        groups = self.replica_groups.groups()
        if mode == GroupMode.FLATTENED_ID and not groups:
            raise VerifyException(
                "flattened_id mode (use_global_device_ids) needs explicit replica groups"
            )
        r, p = checked_device_counts(self)
        problem = groups_problem(
            groups,
            id_space_size(mode, r, p),
            require_uniform=self.UNIFORM_GROUPS,
            require_cover=self.COVER_IDS,
        )
        if problem is not None:
            raise VerifyException(f"{problem} ({mode} mode, {r} replicas x {p} partitions)")


class GlobalIdsCollectiveOp(CollectiveOp, ABC):
    """all_reduce, all_gather, reduce_scatter: they carry `use_global_device_ids`."""

    use_global_device_ids = opt_prop_def(UnitAttr)
    HAS_GLOBAL_IDS_FLAG: ClassVar[bool] = True

    @property
    def uses_global_device_ids(self) -> bool:
        return self.use_global_device_ids is not None


def check_variadic_result(
    operand_types: Sequence[Attribute], result: Attribute, expected: Sequence[Attribute]
) -> None:
    """A tuple result iff several operands, whose elements are `expected`."""
    if not operand_types:
        raise VerifyException("a collective needs at least one operand")
    if len(operand_types) == 1:
        if isinstance(result, TupleType):
            raise VerifyException("a single-operand collective returns a tensor, not a tuple")
        got: Sequence[Attribute] = [result]
    else:
        if not isinstance(result, TupleType):
            raise VerifyException(
                f"a collective with {len(operand_types)} operands returns a tuple"
            )
        got = result.types.data
    if len(got) != len(expected):
        raise VerifyException(f"expected {len(expected)} results in the tuple, got {len(got)}")
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        if g != e:
            raise VerifyException(f"result {i} has type {g}, expected {e}")


def verify_reduction_region(region: Region, element_types: Sequence[Attribute], what: str) -> None:
    """The reducer takes two scalars of an operand element type and returns one of that type."""
    if not region.blocks:
        raise VerifyException(f"{what} region must have a block")
    block = region.blocks[0]
    arg_types = [a.type for a in block.args]
    if len(arg_types) != 2:
        raise VerifyException(f"{what} region must take two scalar arguments, got {len(arg_types)}")
    scalar = arg_types[0]
    if not isinstance(scalar, TensorType) or scalar.get_shape() or arg_types[1] != scalar:
        raise VerifyException(
            f"{what} region arguments must be two scalars of one type, got {', '.join(map(str, arg_types))}"
        )
    elem = scalar.element_type
    if elem not in element_types:
        names = ", ".join(sorted({element_type_name(t) for t in element_types}))
        raise VerifyException(
            f"{what} region reduces {element_type_name(elem)}, but the operands are {names}"
        )
    last = block.last_op
    if last is None or last.name != "hlo.return":
        raise VerifyException(f"{what} region must end in hlo.return")
    results = [o.type for o in last.operands]
    if results != [scalar]:
        got = ", ".join(str(t) for t in results)
        raise VerifyException(f"{what} region must return one {scalar}, got ({got})")


def checked_device_counts(op: Operation) -> tuple[int, int]:
    """(num_replicas, num_partitions) of the enclosing module, which must both be positive."""
    r, p = device_counts(op)
    if r < 1 or p < 1:
        raise VerifyException(
            f"hlo.num_replicas and hlo.num_partitions must be positive, got {r} and {p}"
        )
    return r, p


def _elem(t: Attribute) -> Attribute:
    return tensor_type(t).element_type


def _check_dimension(dim: int, rank: int, what: str) -> None:
    if not 0 <= dim < rank:
        raise VerifyException(f"{what} {dim} is out of range for rank {rank}")


class AllReduceBase(GlobalIdsCollectiveOp, ABC):
    """The operands, properties, region and checks of all_reduce (and all_reduce_start)."""

    operands_ = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    to_apply = region_def("single_block")
    UNIFORM_GROUPS: ClassVar[bool] = False

    assembly_format = (
        "`(` $operands_ `)` `replica_groups` `=` custom<ReplicaGroups>($replica_groups) "
        + _FLAGS
        + " $to_apply attr-dict `:` functional-type($operands_, $result)"
    )
    custom_directives = (GroupsDirective,)

    def reduced_types(self) -> list[Attribute]:
        """What the reduction of the operands gives (the result of all_reduce)."""
        return [o.type for o in self.operands_]

    def verify_(self) -> None:
        self.verify_groups()
        types = [o.type for o in self.operands_]
        check_variadic_result(types, self.result.type, self.reduced_types())
        verify_reduction_region(self.to_apply, [_elem(t) for t in types], self.name[4:])


@irdl_op_definition
class AllReduceOp(AllReduceBase):
    """Reduce each operand over every group with `to_apply`; every member gets the result.

    Groups may have different sizes (XLA allows it for all_reduce only).
    """

    name = "hlo.all_reduce"


def _scaled_shape(t: HloTensor, dim: int, factor: int, divide: bool, what: str) -> HloTensor:
    shape = list(t.get_shape())
    _check_dimension(dim, len(shape), what)
    if divide:
        if shape[dim] % factor:
            raise VerifyException(
                f"operand dimension {dim} of size {shape[dim]} is not divisible by the group size {factor}"
            )
        shape[dim] //= factor
    else:
        shape[dim] *= factor
    return TensorType(t.element_type, shape)


class AllGatherBase(GlobalIdsCollectiveOp, ABC):
    """The operands, properties and checks of all_gather (and all_gather_start)."""

    operands_ = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    all_gather_dimension = prop_def(IntegerAttr[I64])

    assembly_format = (
        "`(` $operands_ `)` `dim` `=` $all_gather_dimension "
        "`replica_groups` `=` custom<ReplicaGroups>($replica_groups) "
        + _FLAGS
        + " attr-dict `:` functional-type($operands_, $result)"
    )
    custom_directives = (GroupsDirective,)

    def gathered_types(self) -> list[Attribute]:
        """The gathered value of every operand (the result of all_gather)."""
        size = self.group_size()
        dim = self.all_gather_dimension.value.data
        types = [tensor_type(o) for o in self.operands_]
        return [_scaled_shape(t, dim, size, False, "all_gather_dimension") for t in types]


@irdl_op_definition
class AllGatherOp(AllGatherBase):
    """Concatenate each operand along `all_gather_dimension` over the group, in rank order."""

    name = "hlo.all_gather"

    def verify_(self) -> None:
        self.verify_groups()
        check_variadic_result(
            [o.type for o in self.operands_], self.result.type, self.gathered_types()
        )


@irdl_op_definition
class ReduceScatterOp(GlobalIdsCollectiveOp):
    """Reduce over the group with `to_apply`, then rank k keeps chunk k of `scatter_dimension`."""

    name = "hlo.reduce_scatter"
    operands_ = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    scatter_dimension = prop_def(IntegerAttr[I64])
    to_apply = region_def("single_block")

    assembly_format = (
        "`(` $operands_ `)` `dim` `=` $scatter_dimension "
        "`replica_groups` `=` custom<ReplicaGroups>($replica_groups) "
        + _FLAGS
        + " $to_apply attr-dict `:` functional-type($operands_, $result)"
    )
    custom_directives = (GroupsDirective,)

    def verify_(self) -> None:
        self.verify_groups()
        size = self.group_size()
        dim = self.scatter_dimension.value.data
        types = [tensor_type(o) for o in self.operands_]
        expected = [_scaled_shape(t, dim, size, True, "scatter_dimension") for t in types]
        check_variadic_result(types, self.result.type, expected)
        verify_reduction_region(self.to_apply, [t.element_type for t in types], "reduce_scatter")


@irdl_op_definition
class AllToAllOp(CollectiveOp):
    """Exchange chunks within each group.

    Array form (`split_dimension` set, one operand): the operand is split into group-size
    chunks along the dimension; chunk k goes to rank k; received chunks are concatenated
    along the same dimension in rank order (result shape = operand shape).
    Tuple form (no dimension): operand k goes to rank k; result element j came from rank j.
    """

    name = "hlo.all_to_all"
    operands_ = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    split_dimension = opt_prop_def(IntegerAttr[I64])

    assembly_format = (
        "`(` $operands_ `)` (`dim` `=` $split_dimension^)? "
        "`replica_groups` `=` custom<ReplicaGroups>($replica_groups) "
        "(`channel_id` `=` $channel_id^)? (`constrain_layout` $constrain_layout^)? "
        "attr-dict `:` functional-type($operands_, $result)"
    )
    custom_directives = (GroupsDirective,)

    def verify_(self) -> None:
        self.verify_groups()
        size = self.group_size()
        types = [tensor_type(o) for o in self.operands_]
        if self.split_dimension is not None:
            if len(types) != 1:
                raise VerifyException(
                    f"array-form all_to_all takes exactly one operand, got {len(types)}"
                )
            _scaled_shape(types[0], self.split_dimension.value.data, size, True, "split_dimension")
        elif len(types) != size:
            raise VerifyException(
                f"tuple-form all_to_all needs one operand per group member ({size}), got {len(types)}"
            )
        elif len({t for t in types}) != 1:
            raise VerifyException("tuple-form all_to_all operands must all have the same type")
        check_variadic_result(types, self.result.type, types)


@irdl_op_definition
class CollectiveBroadcastOp(CollectiveOp):
    """Every group member receives the operand of the group's first id (the root).

    Devices in no group receive zeros.
    """

    name = "hlo.collective_broadcast"
    operands_ = var_operand_def(HLO_TENSOR)
    result = result_def(HLO_VALUE)
    COVER_IDS: ClassVar[bool] = False

    assembly_format = (
        "`(` $operands_ `)` `replica_groups` `=` custom<ReplicaGroups>($replica_groups) "
        "(`channel_id` `=` $channel_id^)? (`constrain_layout` $constrain_layout^)? "
        "attr-dict `:` functional-type($operands_, $result)"
    )
    custom_directives = (GroupsDirective,)

    def verify_(self) -> None:
        self.verify_groups()
        types = [o.type for o in self.operands_]
        check_variadic_result(types, self.result.type, types)


def collective_result_types(result: Attribute) -> Sequence[Attribute]:
    """Per-operand result types of a variadic collective."""
    return tuple_elements(result)


OPS = [AllReduceOp, AllGatherOp, ReduceScatterOp, AllToAllOp, CollectiveBroadcastOp]
