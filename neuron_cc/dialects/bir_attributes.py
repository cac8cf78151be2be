"""Attributes of the bir dialect (docs/dialects.md §4, notes/BIR_CONTRACT.md).

- Enums printed by NAME: `CollectiveKindAttr`, `AluOpTypeAttr`, `CollectiveComputeTypeHintAttr`,
  `EngineTypeAttr`; the BIR JSON numbers are in `COLLECTIVE_KIND_VALUES`, `ALU_OP_VALUES` and
  `CC_TYPE_HINT_VALUES`.
- `AccessPatternAttr` (`#bir.ap<offset, [[step, num], ...]>`): element k of the pattern (mixed
  radix over the nums, outermost pair first) sits at the flat row-major index
  `offset + sum(i_j * step_j)` of one device's tensor.
- `OptBare*` directives: optional `keyword = [...]` groups printing hlo data attributes bare.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Data, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import IRDLOperation, irdl_attr_definition
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from neuron_cc.dialects.hlo.attributes import (
    BareDataAttr,
    DimensionsAttr,
    ReplicaGroupsAttr,
    SourceTargetPairsAttr,
)


class CollectiveKind(StrEnum):
    SendRecv = "SendRecv"
    SendRecvCCE = "SendRecvCCE"
    AllReduce = "AllReduce"
    ReduceScatter = "ReduceScatter"
    AllGather = "AllGather"
    AllToAll = "AllToAll"
    AllToAllV = "AllToAllV"
    Permute = "Permute"
    PermuteReduce = "PermuteReduce"
    PermuteImplicit = "PermuteImplicit"
    PermuteReduceImplicit = "PermuteReduceImplicit"


COLLECTIVE_KIND_VALUES: dict[CollectiveKind, int] = {k: i for i, k in enumerate(CollectiveKind)}
"""BIR JSON numbers of the kinds (SendRecv=0 ... PermuteReduceImplicit=10)."""

REDUCER_KINDS = frozenset(
    {
        CollectiveKind.AllReduce,
        CollectiveKind.ReduceScatter,
        CollectiveKind.PermuteReduce,
        CollectiveKind.SendRecvCCE,
    }
)
"""Kinds whose `op` is an AluOpType (every other kind leaves `op` unset)."""
GROUP_KINDS = frozenset(
    {
        CollectiveKind.AllReduce,
        CollectiveKind.ReduceScatter,
        CollectiveKind.AllGather,
        CollectiveKind.AllToAll,
        CollectiveKind.AllToAllV,
        CollectiveKind.PermuteImplicit,
        CollectiveKind.PermuteReduceImplicit,
    }
)
"""Kinds that need `replica_groups` (the implicit permutes: the rings, in ring order)."""
EXPLICIT_PERMUTE_KINDS = frozenset({CollectiveKind.Permute, CollectiveKind.PermuteReduce})
"""Kinds routed by `permute_chain`."""
IMPLICIT_PERMUTE_KINDS = frozenset(
    {CollectiveKind.PermuteImplicit, CollectiveKind.PermuteReduceImplicit}
)
"""Kinds routed by their rings: member k of a group receives from member k-1 (mod n)."""
PERMUTE_KINDS = EXPLICIT_PERMUTE_KINDS | IMPLICIT_PERMUTE_KINDS
"""Every permute kind (a tiled one carries the ring `channel_id`)."""
LOCAL_INPUT_KINDS = frozenset(
    {
        CollectiveKind.PermuteReduce,
        CollectiveKind.PermuteReduceImplicit,
        CollectiveKind.AllToAllV,
    }
)
"""Kinds with a second, local input per buffer (inputs = the sent buffers, then as many local
ones): the value a PermuteReduce combines with, AllToAllV's initial output."""
POINT_TO_POINT_KINDS = frozenset({CollectiveKind.SendRecv, CollectiveKind.SendRecvCCE})
"""The only kinds without a `stream_id`."""


class AluOpType(StrEnum):
    add = "add"
    mult = "mult"
    max = "max"
    min = "min"
    average = "average"


ALU_OP_VALUES: dict[AluOpType, int] = {
    AluOpType.add: 4,
    AluOpType.mult: 6,
    AluOpType.max: 8,
    AluOpType.min: 9,
    AluOpType.average: 24,
}


class CollectiveComputeTypeHint(StrEnum):
    TP = "TP"
    FSDP = "FSDP"
    NONE = "None"


CC_TYPE_HINT_VALUES: dict[CollectiveComputeTypeHint, int] = {
    CollectiveComputeTypeHint.TP: 0,
    CollectiveComputeTypeHint.FSDP: 1,
    CollectiveComputeTypeHint.NONE: 2,
}


class EngineType(StrEnum):
    ALL = "ALL"
    Pool = "Pool"
    Activation = "Activation"
    PE = "PE"
    DVE = "DVE"
    SP = "SP"


@irdl_attr_definition
class CollectiveKindAttr(EnumAttribute[CollectiveKind], SpacedOpaqueSyntaxAttribute):
    """The collective's kind: `AllReduce`, `AllGather`, `Permute`, ..."""

    name = "bir.collective_kind"


@irdl_attr_definition
class AluOpTypeAttr(EnumAttribute[AluOpType], SpacedOpaqueSyntaxAttribute):
    """The reduce operator of a reducer collective: add, mult, max, min, average."""

    name = "bir.alu_op"


@irdl_attr_definition
class CollectiveComputeTypeHintAttr(
    EnumAttribute[CollectiveComputeTypeHint], SpacedOpaqueSyntaxAttribute
):
    """AllGather / ReduceScatter parallelism hint: TP, FSDP or None."""

    name = "bir.cc_type_hint"


@irdl_attr_definition
class EngineTypeAttr(EnumAttribute[EngineType], SpacedOpaqueSyntaxAttribute):
    """The engine an instruction runs on (ALL, Pool, Activation, PE, DVE, SP)."""

    name = "bir.engine"


Pairs = tuple[tuple[int, int], ...]


@irdl_attr_definition
class AccessPatternAttr(Data[tuple[int, Pairs]]):
    """`#bir.ap<offset, [[step, num], ...]>` over one device's flat row-major tensor.

    Built as `AccessPatternAttr(offset, [[step, num], ...])` or `AccessPatternAttr.row_major(shape)`.
    """

    name = "bir.ap"

    def __init__(
        self,
        offset: int | tuple[int, Sequence[Sequence[int]]],
        pairs: Sequence[Sequence[int]] | None = None,
    ) -> None:
        if not isinstance(offset, int):  # the parser passes the (offset, pairs) data tuple
            offset, pairs = offset
        norm = tuple((int(p[0]), int(p[1])) for p in pairs or ())
        super().__init__((int(offset), norm))

    @property
    def offset(self) -> int:
        return self.data[0]

    @property
    def pairs(self) -> Pairs:
        return self.data[1]

    @staticmethod
    def row_major(shape: Sequence[int], offset: int = 0) -> AccessPatternAttr:
        """The plain pattern of a whole tensor: [[stride_d, size_d] for every dim] (rank 0: [[1, 1]])."""
        if not shape:
            return AccessPatternAttr(offset, [(1, 1)])
        strides = [1] * len(shape)
        for i in range(len(shape) - 2, -1, -1):
            strides[i] = strides[i + 1] * shape[i + 1]
        return AccessPatternAttr(offset, list(zip(strides, shape, strict=True)))

    def elements(self) -> int:
        """Number of elements the pattern visits (product of the nums)."""
        return prod(n for _, n in self.pairs)

    def min_address(self) -> int:
        return self.offset + sum(s * (n - 1) for s, n in self.pairs if s < 0 and n > 0)

    def max_address(self) -> int:
        return self.offset + sum(s * (n - 1) for s, n in self.pairs if s > 0 and n > 0)

    def extent(self) -> int:
        """One past the largest address visited (elements a buffer needs to hold the pattern)."""
        return self.max_address() + 1

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[int, Pairs]:
        with parser.in_angle_brackets():
            offset = parser.parse_integer()
            parser.parse_punctuation(",")

            def parse_pair() -> tuple[int, int]:
                pos = parser.pos
                pair = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, parser.parse_integer
                )
                if len(pair) != 2:
                    parser.raise_error("an access pattern pair is [step, num]", pos, parser.pos)
                return (pair[0], pair[1])

            pairs = tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_pair))
        return (offset, pairs)

    def print_parameter(self, printer: Printer) -> None:
        body = ", ".join(f"[{s}, {n}]" for s, n in self.pairs)
        printer.print_string(f"<{self.offset}, [{body}]>")


def pairs_problem(ap: AccessPatternAttr) -> str | None:
    """Why the [step, num] pairs of `ap` are malformed (none, or a num <= 0), or None."""
    if not ap.pairs:
        return "access pattern has no [step, num] pair"
    if any(n <= 0 for _, n in ap.pairs):
        return f"access pattern nums must be positive, got {[n for _, n in ap.pairs]}"
    return None


def ap_problem(ap: AccessPatternAttr, num_elements: int) -> str | None:
    """Why `ap` does not fit a tensor of `num_elements` elements, or None.

    The pattern must visit exactly `num_elements` elements, all inside [0, num_elements).
    """
    problem = pairs_problem(ap)
    if problem is not None:
        return problem
    if ap.elements() != num_elements:
        return f"access pattern visits {ap.elements()} elements, but the tensor has {num_elements}"
    return range_problem(ap, num_elements)


def range_problem(ap: AccessPatternAttr, num_elements: int) -> str | None:
    """Why `ap` reaches outside [0, num_elements), or None."""
    low, high = ap.min_address(), ap.max_address()
    if low < 0 or high >= num_elements:
        return f"access pattern addresses [{low}, {high}] leave [0, {num_elements})"
    return None


class _OptBare(CustomDirective):
    """`custom<X>($attr)` inside `(`kw` `=` custom<X>($attr)^)?`: prints the attribute bare."""

    attr_class: ClassVar[type[BareDataAttr]]
    attr: AttributeVariable

    def is_anchorable(self) -> bool:
        return True

    def is_present(self, op: IRDLOperation) -> bool:
        return self.attr.get(op) is not None

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.attr.set(state, self.attr_class(self.attr_class.parse_body(parser)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.attr.get(op)
        if attr is None:
            return
        state.print_whitespace(printer)
        if isinstance(attr, BareDataAttr):
            attr.print_body(printer)
        else:
            printer.print_attribute(attr)


@irdl_custom_directive
class OptGroups(_OptBare):
    attr_class = ReplicaGroupsAttr
    attr: AttributeVariable


@irdl_custom_directive
class OptPairs(_OptBare):
    attr_class = SourceTargetPairsAttr
    attr: AttributeVariable


@irdl_custom_directive
class OptDims(_OptBare):
    attr_class = DimensionsAttr
    attr: AttributeVariable


ATTRS = [
    CollectiveKindAttr,
    AluOpTypeAttr,
    CollectiveComputeTypeHintAttr,
    EngineTypeAttr,
    AccessPatternAttr,
]
