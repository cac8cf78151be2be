"""Attributes of the hlo dialect shared by many ops.

- `ReplicaGroupsAttr` (`#hlo.replica_groups<...>`): XLA's device list, either explicit groups
  `[[0, 1], [2, 3]]` or the compact iota form `[G,S]<=[dims]T(perm)` =
  arange(G*S).reshape(dims).transpose(perm).reshape(G, S), expanded lazily by `groups()`.
- `SourceTargetPairsAttr` (`#hlo.pairs<[[0, 1], [1, 0]]>`): collective_permute's pairs.
- `ComparisonDirectionAttr` / `ComparisonTypeAttr`: `compare`'s `direction=` and `type=`.
- `Bare`: a custom directive that prints any of our data attributes without the `#hlo.x<...>`
  wrapper, so formats read `replica_groups = [[0, 1]]`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar

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

Groups = tuple[tuple[int, ...], ...]


def _parse_int_list(parser: AttrParser) -> tuple[int, ...]:
    return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer))


def _print_int_list(printer: Printer, values: Sequence[int], sep: str = ", ") -> None:
    printer.print_string("[" + sep.join(str(v) for v in values) + "]")


def _print_groups(printer: Printer, groups: Groups) -> None:
    printer.print_string("[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]")


def _drop_unit_dims(dims: list[int], perm: list[int]) -> tuple[list[int], list[int]]:
    """Remove reshape dims of size 1 and their transpose entries, renumbering the rest."""
    renumber: dict[int, int] = {}
    for i, d in enumerate(dims):
        if d != 1:
            renumber[i] = len(renumber)
    return [d for d in dims if d != 1], [renumber[p] for p in perm if p in renumber]


def _merge_consecutive_dims(dims: list[int], perm: list[int]) -> bool:
    """Fold runs perm[i], perm[i]+1, ... into their first dim (the others become size 1)."""
    changed = False
    base = 0
    for i in range(1, len(perm)):
        if perm[base] + (i - base) == perm[i]:
            dims[perm[base]] *= dims[perm[i]]
            dims[perm[i]] = 1
            changed = True
        else:
            base = i
    return changed


def canonical_iota_dims(
    reshape_dims: Sequence[int], perm: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """XLA's CanonicalizeIotaDims: the fewest reshape dims/transpose giving the same device order.

    Size-1 dims are dropped and dims that stay adjacent after the transpose (perm[i+1] ==
    perm[i] + 1) are merged into one of their product, to a fixed point; e.g. [3,4,5]T(1,2,0)
    -> [3,20]T(1,0) and [2,4]T(0,1) -> [8]. A single remaining dim has the identity perm.
    """
    dims, order = list(reshape_dims), list(perm)
    while True:
        dims, order = _drop_unit_dims(dims, order)
        if not _merge_consecutive_dims(dims, order):
            break
    if not dims:  # a single device
        return (1,), (0,)
    return tuple(dims), tuple(order)


@dataclass(frozen=True)
class IotaDeviceList:
    """`[G,S]<=[dims]T(perm)`: arange(G*S).reshape(dims).transpose(perm).reshape(G, S).

    Well-formed lists are canonicalised on construction (`canonical_iota_dims`), so equal device
    orders compare and hash equal and print identically; malformed ones are kept verbatim so
    `problem()` can name them. Expansion (`expand`) is never done eagerly.
    """

    num_groups: int
    group_size: int
    reshape_dims: tuple[int, ...]
    perm: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "reshape_dims", tuple(int(d) for d in self.reshape_dims))
        object.__setattr__(self, "perm", tuple(int(p) for p in self.perm))
        if self.problem() is None:
            dims, perm = canonical_iota_dims(self.reshape_dims, self.perm)
            object.__setattr__(self, "reshape_dims", dims)
            object.__setattr__(self, "perm", perm)

    @property
    def is_transposed(self) -> bool:
        """Whether the printed form needs `T(perm)` (always, for a canonical list of >1 dims)."""
        return self.perm != tuple(range(len(self.reshape_dims)))

    def problem(self) -> str | None:
        """Why this iota list is malformed, or None."""
        if self.num_groups <= 0 or self.group_size <= 0:
            return "iota replica groups need a positive group count and size"
        total = 1
        for d in self.reshape_dims:
            total *= d
        if any(d <= 0 for d in self.reshape_dims) or total != self.num_groups * self.group_size:
            return (
                f"iota reshape dims {list(self.reshape_dims)} do not hold "
                f"{self.num_groups}x{self.group_size} devices"
            )
        if sorted(self.perm) != list(range(len(self.reshape_dims))):
            return f"iota transpose {list(self.perm)} is not a permutation of the reshape dims"
        return None

    def expand(self) -> Groups:
        """Expand to explicit groups (no numpy needed: strides walk)."""
        dims = self.reshape_dims
        strides = [1] * len(dims)
        for i in range(len(dims) - 2, -1, -1):
            strides[i] = strides[i + 1] * dims[i + 1]
        tdims = [dims[p] for p in self.perm]
        tstrides = [strides[p] for p in self.perm]
        flat: list[int] = []
        index = [0] * len(tdims)
        for _ in range(self.num_groups * self.group_size):
            flat.append(sum(i * s for i, s in zip(index, tstrides, strict=True)))
            for k in range(len(tdims) - 1, -1, -1):
                index[k] += 1
                if index[k] < tdims[k]:
                    break
                index[k] = 0
        s = self.group_size
        return tuple(tuple(flat[g * s : (g + 1) * s]) for g in range(self.num_groups))

    def print(self, printer: Printer) -> None:
        _print_int_list(printer, (self.num_groups, self.group_size), ",")
        printer.print_string("<=")
        _print_int_list(printer, self.reshape_dims, ",")
        if self.is_transposed:
            printer.print_string("T(" + ",".join(map(str, self.perm)) + ")")


class BareDataAttr(Data[Any], ABC):
    """A data attribute whose body can be printed bare (see the `Bare` directive)."""

    @classmethod
    @abstractmethod
    def parse_body(cls, parser: AttrParser) -> Any: ...

    @abstractmethod
    def print_body(self, printer: Printer) -> None: ...

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Any:
        with parser.in_angle_brackets():
            return cls.parse_body(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_body(printer)


@irdl_attr_definition
class ReplicaGroupsAttr(BareDataAttr):
    """XLA replica groups: explicit `[[0, 1], [2, 3]]` (possibly `[]`) or iota `[2,4]<=[8]`."""

    name = "hlo.replica_groups"

    data: Groups | IotaDeviceList

    def __post_init__(self) -> None:
        if not isinstance(self.data, IotaDeviceList):
            object.__setattr__(self, "data", tuple(tuple(int(i) for i in g) for g in self.data))
        super().__post_init__()

    @staticmethod
    def explicit(groups: Sequence[Sequence[int]]) -> ReplicaGroupsAttr:
        return ReplicaGroupsAttr(tuple(tuple(g) for g in groups))

    @staticmethod
    def iota(
        num_groups: int, group_size: int, dims: Sequence[int], perm: Sequence[int] | None = None
    ) -> ReplicaGroupsAttr:
        perm = tuple(range(len(dims))) if perm is None else tuple(perm)
        return ReplicaGroupsAttr(IotaDeviceList(num_groups, group_size, tuple(dims), perm))

    @property
    def is_iota(self) -> bool:
        return isinstance(self.data, IotaDeviceList)

    @cached_property
    def _groups(self) -> Groups:
        if isinstance(self.data, IotaDeviceList):
            return self.data.expand()
        return self.data

    def groups(self) -> Groups:
        """The explicit groups (iota lists are expanded on first use and cached)."""
        return self._groups

    def problem(self) -> str | None:
        if isinstance(self.data, IotaDeviceList):
            return self.data.problem()
        return None

    @classmethod
    def parse_body(cls, parser: AttrParser) -> Groups | IotaDeviceList:
        first: list[tuple[int, ...]] = []
        scalars: list[int] = []

        def parse_item() -> None:
            if parser.parse_optional_punctuation("[") is not None:
                items: list[int] = []
                if parser.parse_optional_punctuation("]") is None:
                    items = [parser.parse_integer()]
                    while parser.parse_optional_punctuation(",") is not None:
                        items.append(parser.parse_integer())
                    parser.parse_punctuation("]")
                first.append(tuple(items))
            else:
                scalars.append(parser.parse_integer())

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_item)
        if first and scalars:
            parser.raise_error("replica groups mix groups and integers")
        if not scalars:
            return tuple(first)
        if len(scalars) != 2:
            parser.raise_error("iota replica groups need [num_groups,group_size]")
        parser.parse_punctuation("<")
        parser.parse_punctuation("=")
        dims = _parse_int_list(parser)
        perm = tuple(range(len(dims)))
        if parser.parse_optional_keyword("T") is not None:
            perm = tuple(
                parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_integer)
            )
        iota = IotaDeviceList(scalars[0], scalars[1], dims, perm)
        problem = iota.problem()
        if problem is not None:
            parser.raise_error(problem)
        return iota

    def print_body(self, printer: Printer) -> None:
        if isinstance(self.data, IotaDeviceList):
            self.data.print(printer)
        else:
            _print_groups(printer, self.data)


@irdl_attr_definition
class SourceTargetPairsAttr(BareDataAttr):
    """collective_permute's `source_target_pairs`: `[[0, 1], [1, 2]]`."""

    name = "hlo.pairs"

    data: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", tuple((int(a), int(b)) for a, b in self.data))
        super().__post_init__()

    @classmethod
    def parse_body(cls, parser: AttrParser) -> tuple[tuple[int, int], ...]:
        def parse_pair() -> tuple[int, int]:
            pos = parser.pos
            pair = _parse_int_list(parser)
            if len(pair) != 2:
                parser.raise_error("a source-target pair has exactly two ids", pos, parser.pos)
            return (pair[0], pair[1])

        return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_pair))

    def print_body(self, printer: Printer) -> None:
        _print_groups(printer, self.data)


@irdl_attr_definition
class DimensionsAttr(BareDataAttr):
    """A list of dimension numbers / sizes printed as `[0, 2]` (cheap to build and compare)."""

    name = "hlo.dims"

    data: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", tuple(int(v) for v in self.data))
        super().__post_init__()

    @classmethod
    def parse_body(cls, parser: AttrParser) -> tuple[int, ...]:
        return _parse_int_list(parser)

    def print_body(self, printer: Printer) -> None:
        _print_int_list(printer, self.data)


class ComparisonDirection(StrEnum):
    EQ = "EQ"
    NE = "NE"
    GE = "GE"
    GT = "GT"
    LE = "LE"
    LT = "LT"


@irdl_attr_definition
class ComparisonDirectionAttr(EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute):
    """`compare`'s direction: EQ, NE, GE, GT, LE, LT."""

    name = "hlo.comparison_direction"


class ComparisonType(StrEnum):
    FLOAT = "FLOAT"
    TOTALORDER = "TOTALORDER"
    SIGNED = "SIGNED"
    UNSIGNED = "UNSIGNED"


@irdl_attr_definition
class ComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    """`compare`'s type: FLOAT (IEEE), TOTALORDER, SIGNED, UNSIGNED."""

    name = "hlo.comparison_type"


_A = TypeVar("_A", bound=BareDataAttr)


class _BareBase(CustomDirective, Generic[_A]):
    attr_class: ClassVar[type[BareDataAttr]]

    def _parse(self, var: AttributeVariable, parser: Parser, state: ParsingState) -> None:
        var.set(state, self.attr_class(self.attr_class.parse_body(parser)))

    def _print(
        self, var: AttributeVariable, printer: Printer, state: PrintingState, op: IRDLOperation
    ) -> None:
        attr = var.get(op)
        if attr is None:
            return
        state.print_whitespace(printer)
        if isinstance(attr, BareDataAttr):
            attr.print_body(printer)
        else:
            printer.print_attribute(attr)


def make_bare_directive(cls: type[BareDataAttr], directive_name: str) -> type[CustomDirective]:
    def parse(self: Any, parser: Parser, state: ParsingState) -> None:
        self._parse(self.attr, parser, state)

    def print_(self: Any, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        self._print(self.attr, printer, state, op)

    namespace: dict[str, Any] = {
        "__annotations__": {"attr": AttributeVariable},
        "attr_class": cls,
        "parse": parse,
        "print": print_,
    }
    directive = type(directive_name, (_BareBase,), namespace)
    return irdl_custom_directive(directive)


GroupsDirective = make_bare_directive(ReplicaGroupsAttr, "ReplicaGroups")
"""`custom<ReplicaGroups>($replica_groups)`."""
PairsDirective = make_bare_directive(SourceTargetPairsAttr, "Pairs")
"""`custom<Pairs>($source_target_pairs)`."""
DimsDirective = make_bare_directive(DimensionsAttr, "Dims")
"""`custom<Dims>($dimensions)`."""
