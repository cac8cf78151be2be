"""Structured attributes of the hlo computation ops (dot, gather, scatter, reduce_window).

Each is a cheap data attribute holding a frozen record of int tuples, written as keyed fields:

- `DotDimensionNumbersAttr`: `#hlo.dot<lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2],
  rhs_contracting = [1]>` (empty batch lists are omitted when printing).
- `GatherDimensionNumbersAttr`: `#hlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
  start_index_map = [0], index_vector_dim = 1>` (plus `operand_batching_dims`,
  `start_indices_batching_dims` when non-empty).
- `ScatterDimensionNumbersAttr`: `#hlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
  scatter_dims_to_operand_dims = [0], index_vector_dim = 1>` (plus `input_batching_dims`,
  `scatter_indices_batching_dims` when non-empty).
- `WindowAttr`: `#hlo.window<size = [2, 2], stride = [2, 2], padding = [[0, 0], [0, 1]]>`
  (`stride`, `padding`, `base_dilation` and `window_dilation` default to 1 / 0 / 1 / 1 per
  dimension and are omitted when they hold the default).

Inside op formats the same bodies print bare, through the `custom<DotDims>`, `custom<GatherDims>`,
`custom<ScatterDims>` and `custom<Window>` directives. Fields parse in any order.

The second half holds XLA's shape rules for these records (`check_dims`, `gather_shape`,
`check_scatter`, `window_shape`), raising `VerifyException` with the ops' verifier messages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

# `make_bare_directive` builds the bare-body directive, as attributes.py does for its own attributes.
from neuron_cc.dialects.hlo.attributes import BareDataAttr, make_bare_directive
from neuron_cc.dialects.hlo.types import HloTensor, is_integer_type

Ints = tuple[int, ...]
Shape = tuple[int, ...]
FieldParser = Callable[[AttrParser], Ints]


def _parse_ints(parser: AttrParser) -> Ints:
    return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer))


def _parse_int(parser: AttrParser) -> Ints:
    return (parser.parse_integer(),)


def _parse_pairs(parser: AttrParser) -> Ints:
    """`[[lo, hi], ...]` flattened to `(lo0, hi0, lo1, hi1, ...)`."""

    def parse_pair() -> Ints:
        pos = parser.pos
        pair = _parse_ints(parser)
        if len(pair) != 2:
            parser.raise_error("a padding entry is a [low, high] pair", pos, parser.pos)
        return pair

    pairs = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_pair)
    return tuple(v for pair in pairs for v in pair)


def _parse_key(parser: AttrParser, keys: Sequence[str]) -> str | None:
    for key in keys:
        if parser.parse_optional_keyword(key) is not None:
            return key
    return None


def _parse_fields(
    parser: AttrParser, fields: Mapping[str, FieldParser], required: Sequence[str] = ()
) -> dict[str, Ints]:
    """`key = value, ...` in any order, each key at most once; the list may be empty."""
    values: dict[str, Ints] = {}
    key = _parse_key(parser, list(fields))
    while key is not None:
        if key in values:
            parser.raise_error(f"field {key} is given twice")
        parser.parse_punctuation("=")
        values[key] = fields[key](parser)
        if parser.parse_optional_punctuation(",") is None:
            break
        key = _parse_key(parser, list(fields))
        if key is None:
            parser.raise_error(f"expected one of {', '.join(fields)}")
    for key in required:
        if key not in values:
            parser.raise_error(f"missing field {key}")
    return values


def _ints_str(values: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def _print_fields(printer: Printer, fields: Sequence[tuple[str, str]]) -> None:
    printer.print_string(", ".join(f"{key} = {text}" for key, text in fields))


@dataclass(frozen=True, slots=True)
class DotDimensionNumbers:
    lhs_batch: Ints = ()
    rhs_batch: Ints = ()
    lhs_contracting: Ints = ()
    rhs_contracting: Ints = ()


_DOT_FIELDS: dict[str, FieldParser] = {
    "lhs_batch": _parse_ints,
    "rhs_batch": _parse_ints,
    "lhs_contracting": _parse_ints,
    "rhs_contracting": _parse_ints,
}


@irdl_attr_definition
class DotDimensionNumbersAttr(BareDataAttr):
    """dot's batch and contracting dimensions of each side (XLA DotDimensionNumbers)."""

    name = "hlo.dot"

    data: DotDimensionNumbers

    @staticmethod
    def make(
        lhs_batch: Sequence[int] = (),
        rhs_batch: Sequence[int] = (),
        lhs_contracting: Sequence[int] = (),
        rhs_contracting: Sequence[int] = (),
    ) -> DotDimensionNumbersAttr:
        return DotDimensionNumbersAttr(
            DotDimensionNumbers(
                tuple(lhs_batch), tuple(rhs_batch), tuple(lhs_contracting), tuple(rhs_contracting)
            )
        )

    @classmethod
    def parse_body(cls, parser: AttrParser) -> DotDimensionNumbers:
        v = _parse_fields(parser, _DOT_FIELDS)
        return DotDimensionNumbers(**v)

    def print_body(self, printer: Printer) -> None:
        d = self.data
        fields: list[tuple[str, str]] = []
        if d.lhs_batch or d.rhs_batch:
            fields += [("lhs_batch", _ints_str(d.lhs_batch)), ("rhs_batch", _ints_str(d.rhs_batch))]
        fields += [
            ("lhs_contracting", _ints_str(d.lhs_contracting)),
            ("rhs_contracting", _ints_str(d.rhs_contracting)),
        ]
        _print_fields(printer, fields)


@dataclass(frozen=True, slots=True)
class GatherDimensionNumbers:
    offset_dims: Ints = ()
    collapsed_slice_dims: Ints = ()
    start_index_map: Ints = ()
    index_vector_dim: int = 0
    operand_batching_dims: Ints = ()
    start_indices_batching_dims: Ints = ()


_GATHER_FIELDS: dict[str, FieldParser] = {
    "offset_dims": _parse_ints,
    "collapsed_slice_dims": _parse_ints,
    "start_index_map": _parse_ints,
    "index_vector_dim": _parse_int,
    "operand_batching_dims": _parse_ints,
    "start_indices_batching_dims": _parse_ints,
}


@irdl_attr_definition
class GatherDimensionNumbersAttr(BareDataAttr):
    """gather's dimension numbers (XLA GatherDimensionNumbers)."""

    name = "hlo.gather"

    data: GatherDimensionNumbers

    @staticmethod
    def make(
        offset_dims: Sequence[int],
        collapsed_slice_dims: Sequence[int],
        start_index_map: Sequence[int],
        index_vector_dim: int,
        operand_batching_dims: Sequence[int] = (),
        start_indices_batching_dims: Sequence[int] = (),
    ) -> GatherDimensionNumbersAttr:
        return GatherDimensionNumbersAttr(
            GatherDimensionNumbers(
                tuple(offset_dims),
                tuple(collapsed_slice_dims),
                tuple(start_index_map),
                index_vector_dim,
                tuple(operand_batching_dims),
                tuple(start_indices_batching_dims),
            )
        )

    @classmethod
    def parse_body(cls, parser: AttrParser) -> GatherDimensionNumbers:
        v = _parse_fields(parser, _GATHER_FIELDS, required=("index_vector_dim",))
        return GatherDimensionNumbers(
            offset_dims=v.get("offset_dims", ()),
            collapsed_slice_dims=v.get("collapsed_slice_dims", ()),
            start_index_map=v.get("start_index_map", ()),
            index_vector_dim=v["index_vector_dim"][0],
            operand_batching_dims=v.get("operand_batching_dims", ()),
            start_indices_batching_dims=v.get("start_indices_batching_dims", ()),
        )

    def print_body(self, printer: Printer) -> None:
        d = self.data
        fields = [
            ("offset_dims", _ints_str(d.offset_dims)),
            ("collapsed_slice_dims", _ints_str(d.collapsed_slice_dims)),
        ]
        if d.operand_batching_dims or d.start_indices_batching_dims:
            fields += [
                ("operand_batching_dims", _ints_str(d.operand_batching_dims)),
                ("start_indices_batching_dims", _ints_str(d.start_indices_batching_dims)),
            ]
        fields += [
            ("start_index_map", _ints_str(d.start_index_map)),
            ("index_vector_dim", str(d.index_vector_dim)),
        ]
        _print_fields(printer, fields)


@dataclass(frozen=True, slots=True)
class ScatterDimensionNumbers:
    update_window_dims: Ints = ()
    inserted_window_dims: Ints = ()
    scatter_dims_to_operand_dims: Ints = ()
    index_vector_dim: int = 0
    input_batching_dims: Ints = ()
    scatter_indices_batching_dims: Ints = ()


_SCATTER_FIELDS: dict[str, FieldParser] = {
    "update_window_dims": _parse_ints,
    "inserted_window_dims": _parse_ints,
    "scatter_dims_to_operand_dims": _parse_ints,
    "index_vector_dim": _parse_int,
    "input_batching_dims": _parse_ints,
    "scatter_indices_batching_dims": _parse_ints,
}


@irdl_attr_definition
class ScatterDimensionNumbersAttr(BareDataAttr):
    """scatter's dimension numbers (XLA ScatterDimensionNumbers)."""

    name = "hlo.scatter"

    data: ScatterDimensionNumbers

    @staticmethod
    def make(
        update_window_dims: Sequence[int],
        inserted_window_dims: Sequence[int],
        scatter_dims_to_operand_dims: Sequence[int],
        index_vector_dim: int,
        input_batching_dims: Sequence[int] = (),
        scatter_indices_batching_dims: Sequence[int] = (),
    ) -> ScatterDimensionNumbersAttr:
        return ScatterDimensionNumbersAttr(
            ScatterDimensionNumbers(
                tuple(update_window_dims),
                tuple(inserted_window_dims),
                tuple(scatter_dims_to_operand_dims),
                index_vector_dim,
                tuple(input_batching_dims),
                tuple(scatter_indices_batching_dims),
            )
        )

    @classmethod
    def parse_body(cls, parser: AttrParser) -> ScatterDimensionNumbers:
        v = _parse_fields(parser, _SCATTER_FIELDS, required=("index_vector_dim",))
        return ScatterDimensionNumbers(
            update_window_dims=v.get("update_window_dims", ()),
            inserted_window_dims=v.get("inserted_window_dims", ()),
            scatter_dims_to_operand_dims=v.get("scatter_dims_to_operand_dims", ()),
            index_vector_dim=v["index_vector_dim"][0],
            input_batching_dims=v.get("input_batching_dims", ()),
            scatter_indices_batching_dims=v.get("scatter_indices_batching_dims", ()),
        )

    def print_body(self, printer: Printer) -> None:
        d = self.data
        fields = [
            ("update_window_dims", _ints_str(d.update_window_dims)),
            ("inserted_window_dims", _ints_str(d.inserted_window_dims)),
        ]
        if d.input_batching_dims or d.scatter_indices_batching_dims:
            fields += [
                ("input_batching_dims", _ints_str(d.input_batching_dims)),
                ("scatter_indices_batching_dims", _ints_str(d.scatter_indices_batching_dims)),
            ]
        fields += [
            ("scatter_dims_to_operand_dims", _ints_str(d.scatter_dims_to_operand_dims)),
            ("index_vector_dim", str(d.index_vector_dim)),
        ]
        _print_fields(printer, fields)


@dataclass(frozen=True, slots=True)
class Window:
    """One entry per dimension in every field; `padding` holds (low, high) pairs."""

    size: Ints
    stride: Ints
    padding: tuple[tuple[int, int], ...]
    base_dilation: Ints
    window_dilation: Ints

    def problem(self) -> str | None:
        """Why the window is malformed (field lengths, non-positive entries), or None."""
        rank = len(self.size)
        lengths = (
            ("stride", len(self.stride)),
            ("padding", len(self.padding)),
            ("base_dilation", len(self.base_dilation)),
            ("window_dilation", len(self.window_dilation)),
        )
        for field, n in lengths:
            if n != rank:
                return f"window {field} has {n} entries, but size has {rank}"
        positive = (
            ("size", self.size),
            ("stride", self.stride),
            ("base_dilation", self.base_dilation),
            ("window_dilation", self.window_dilation),
        )
        for field, values in positive:
            for dim, v in enumerate(values):
                if v <= 0:
                    return f"window {field} {v} in dimension {dim} must be positive"
        return None


_WINDOW_FIELDS: dict[str, FieldParser] = {
    "size": _parse_ints,
    "stride": _parse_ints,
    "padding": _parse_pairs,
    "base_dilation": _parse_ints,
    "window_dilation": _parse_ints,
}


@irdl_attr_definition
class WindowAttr(BareDataAttr):
    """reduce_window's window: size, stride, (low, high) padding, base and window dilation."""

    name = "hlo.window"

    data: Window

    @staticmethod
    def make(
        size: Sequence[int],
        stride: Sequence[int] | None = None,
        padding: Sequence[Sequence[int]] | None = None,
        base_dilation: Sequence[int] | None = None,
        window_dilation: Sequence[int] | None = None,
    ) -> WindowAttr:
        ones = (1,) * len(size)
        pads = tuple((int(p[0]), int(p[1])) for p in padding) if padding is not None else None
        return WindowAttr(
            Window(
                tuple(size),
                ones if stride is None else tuple(stride),
                ((0, 0),) * len(size) if pads is None else pads,
                ones if base_dilation is None else tuple(base_dilation),
                ones if window_dilation is None else tuple(window_dilation),
            )
        )

    @classmethod
    def parse_body(cls, parser: AttrParser) -> Window:
        start = parser.pos
        v = _parse_fields(parser, _WINDOW_FIELDS, required=("size",))
        flat = v.get("padding")
        pairs = None if flat is None else tuple(zip(flat[::2], flat[1::2], strict=True))
        window = cls.make(
            v["size"], v.get("stride"), pairs, v.get("base_dilation"), v.get("window_dilation")
        ).data
        problem = window.problem()
        if problem is not None:
            parser.raise_error(problem, start, parser.pos)
        return window

    def print_body(self, printer: Printer) -> None:
        w = self.data
        ones = (1,) * len(w.size)
        fields = [("size", _ints_str(w.size))]
        if w.stride != ones:
            fields.append(("stride", _ints_str(w.stride)))
        if any(p != (0, 0) for p in w.padding) or len(w.padding) != len(w.size):
            pads = ", ".join(_ints_str(p) for p in w.padding)
            fields.append(("padding", f"[{pads}]"))
        if w.base_dilation != ones:
            fields.append(("base_dilation", _ints_str(w.base_dilation)))
        if w.window_dilation != ones:
            fields.append(("window_dilation", _ints_str(w.window_dilation)))
        _print_fields(printer, fields)


# --- shape rules (xla/service/shape_inference.cc) ---------------------------------------


def check_dims(
    dims: Sequence[int], rank: int, name: str, of: str, *, ascending: bool = False
) -> None:
    """Every entry of `name` is a dimension of `of` (rank `rank`), no repeats, maybe sorted."""
    seen: set[int] = set()
    for d in dims:
        if not 0 <= d < rank:
            raise VerifyException(
                f"dimension {d} in {name} is out of range for {of} of rank {rank}"
            )
        if d in seen:
            raise VerifyException(f"dimension {d} appears twice in {name}")
        seen.add(d)
    if ascending and list(dims) != sorted(dims):
        raise VerifyException(f"{name} must be sorted ascending, got {list(dims)}")


def check_disjoint(a: Sequence[int], a_name: str, b: Sequence[int], b_name: str, of: str) -> None:
    """No dimension of `of` is listed in both `a_name` and `b_name`."""
    for d in a:
        if d in b:
            raise VerifyException(f"dimension {d} of {of} is in both {a_name} and {b_name}")


def _index_vector_size(indices: HloTensor, ivd: int, name: str) -> tuple[int, Shape]:
    """The index vector size and the batch shape (indices shape without `index_vector_dim`)."""
    shape = indices.get_shape()
    if not is_integer_type(indices.element_type):
        raise VerifyException(f"{name} must have an integer element type, got {indices}")
    if not 0 <= ivd <= len(shape):
        raise VerifyException(
            f"index_vector_dim {ivd} is out of range for {name} of rank {len(shape)}"
        )
    if ivd == len(shape):
        return 1, shape
    return shape[ivd], shape[:ivd] + shape[ivd + 1 :]


def _check_batching_dims(
    operand: HloTensor,
    operand_dims: Sequence[int],
    indices: HloTensor,
    indices_dims: Sequence[int],
    ivd: int,
    names: tuple[str, str, str],
) -> None:
    """Operand batching dims pair up with indices batching dims of the same size."""
    operand_name, indices_name, what = names
    check_dims(indices_dims, len(indices.get_shape()), indices_name, what)
    if ivd in indices_dims:
        raise VerifyException(f"{indices_name} must not contain index_vector_dim {ivd}")
    if len(operand_dims) != len(indices_dims):
        raise VerifyException(
            f"{operand_name} has {len(operand_dims)} entries, but {indices_name} has {len(indices_dims)}"
        )
    for o, s in zip(operand_dims, indices_dims, strict=True):
        if operand.get_shape()[o] != indices.get_shape()[s]:
            raise VerifyException(
                f"operand batching dimension {o} has size {operand.get_shape()[o]}, "
                f"but {what} batching dimension {s} has size {indices.get_shape()[s]}"
            )


def _dilated(bound: int, dilation: int) -> int:
    return 0 if bound == 0 else (bound - 1) * dilation + 1


def window_shape(shape: Shape, window: Window) -> list[int]:
    """XLA's InferWindowOutputShape: strided bound of the dilated, padded input."""
    out: list[int] = []
    for d, size in enumerate(shape):
        lo, hi = window.padding[d]
        bound = _dilated(size, window.base_dilation[d]) + lo + hi
        extent = _dilated(window.size[d], window.window_dilation[d])
        out.append(0 if extent > bound else (bound - extent) // window.stride[d] + 1)
    return out


def _check_gather_dims(
    dn: GatherDimensionNumbers, operand: HloTensor, indices: HloTensor, result_rank: int
) -> None:
    rank = len(operand.get_shape())
    check_dims(dn.offset_dims, result_rank, "offset_dims", "the result", ascending=True)
    check_dims(dn.collapsed_slice_dims, rank, "collapsed_slice_dims", "the operand", ascending=True)
    check_dims(dn.start_index_map, rank, "start_index_map", "the operand")
    check_dims(
        dn.operand_batching_dims, rank, "operand_batching_dims", "the operand", ascending=True
    )
    check_disjoint(
        dn.collapsed_slice_dims,
        "collapsed_slice_dims",
        dn.operand_batching_dims,
        "operand_batching_dims",
        "the operand",
    )
    check_disjoint(
        dn.start_index_map,
        "start_index_map",
        dn.operand_batching_dims,
        "operand_batching_dims",
        "the operand",
    )
    _check_batching_dims(
        operand,
        dn.operand_batching_dims,
        indices,
        dn.start_indices_batching_dims,
        dn.index_vector_dim,
        ("operand_batching_dims", "start_indices_batching_dims", "start_indices"),
    )


def _check_slice_sizes(dn: GatherDimensionNumbers, operand: Shape, sizes: Sequence[int]) -> None:
    if len(sizes) != len(operand):
        raise VerifyException(
            f"slice_sizes has {len(sizes)} entries, but the operand has rank {len(operand)}"
        )
    for d, (size, bound) in enumerate(zip(sizes, operand, strict=True)):
        if size < 0:
            raise VerifyException(f"slice size {size} of dimension {d} is negative")
        if size > bound:
            raise VerifyException(f"slice size {size} exceeds dimension {d} of size {bound}")
    for d in (*dn.collapsed_slice_dims, *dn.operand_batching_dims):
        if sizes[d] > 1:
            raise VerifyException(
                f"dimension {d} is collapsed or a batching dimension, so its slice size must "
                f"be at most 1, got {sizes[d]}"
            )
    kept = len(operand) - len(dn.collapsed_slice_dims) - len(dn.operand_batching_dims)
    if len(dn.offset_dims) != kept:
        raise VerifyException(
            f"offset_dims has {len(dn.offset_dims)} entries, but the operand keeps {kept} "
            "dimensions after collapsed_slice_dims and operand_batching_dims"
        )


def _interleave(
    offset_dims: Sequence[int], offsets: Sequence[int], batch: Sequence[int]
) -> list[int]:
    """Result dimension i is the next offset size if i is in `offset_dims`, else the next batch one."""
    offset_it, batch_it = iter(offsets), iter(batch)
    return [
        next(offset_it) if i in offset_dims else next(batch_it)
        for i in range(len(offsets) + len(batch))
    ]


def _check_scatter_dims(
    dn: ScatterDimensionNumbers, operand: HloTensor, indices: HloTensor, updates: HloTensor
) -> None:
    rank = len(operand.get_shape())
    check_dims(
        dn.update_window_dims,
        len(updates.get_shape()),
        "update_window_dims",
        "the updates",
        ascending=True,
    )
    check_dims(dn.inserted_window_dims, rank, "inserted_window_dims", "the operand", ascending=True)
    check_dims(dn.input_batching_dims, rank, "input_batching_dims", "the operand", ascending=True)
    check_dims(dn.scatter_dims_to_operand_dims, rank, "scatter_dims_to_operand_dims", "the operand")
    check_disjoint(
        dn.inserted_window_dims,
        "inserted_window_dims",
        dn.input_batching_dims,
        "input_batching_dims",
        "the operand",
    )
    check_disjoint(
        dn.scatter_dims_to_operand_dims,
        "scatter_dims_to_operand_dims",
        dn.input_batching_dims,
        "input_batching_dims",
        "the operand",
    )
    _check_batching_dims(
        operand,
        dn.input_batching_dims,
        indices,
        dn.scatter_indices_batching_dims,
        dn.index_vector_dim,
        ("input_batching_dims", "scatter_indices_batching_dims", "scatter_indices"),
    )
    window = len(dn.update_window_dims) + len(dn.inserted_window_dims) + len(dn.input_batching_dims)
    if window != rank:
        raise VerifyException(
            f"update_window_dims, inserted_window_dims and input_batching_dims cover {window} "
            f"dimensions, but the operand has rank {rank}"
        )


def _check_scatter_updates(
    dn: ScatterDimensionNumbers, operand: Shape, updates: Shape, batch: Shape
) -> None:
    """Updates = batch dims (the indices') around window dims bounded by the operand's."""
    expected_rank = len(dn.update_window_dims) + len(batch)
    if len(updates) != expected_rank:
        raise VerifyException(f"updates have rank {len(updates)}, expected {expected_rank}")
    skipped = {*dn.inserted_window_dims, *dn.input_batching_dims}
    operand_window = [d for d in range(len(operand)) if d not in skipped]
    for u, o in zip(dn.update_window_dims, operand_window, strict=True):
        if updates[u] > operand[o]:
            raise VerifyException(
                f"updates window dimension {u} of size {updates[u]} exceeds operand "
                f"dimension {o} of size {operand[o]}"
            )
    scatter_dims = [d for d in range(len(updates)) if d not in dn.update_window_dims]
    for u, b in zip(scatter_dims, batch, strict=True):
        if updates[u] != b:
            raise VerifyException(
                f"updates dimension {u} has size {updates[u]}, but the scatter_indices batch "
                f"dimensions give {b}"
            )


def gather_shape(
    dn: GatherDimensionNumbers, operand: HloTensor, indices: HloTensor, sizes: Sequence[int]
) -> list[int]:
    """XLA's gather shape rules: check `dn` and `slice_sizes`, return the result shape."""
    index_size, batch = _index_vector_size(indices, dn.index_vector_dim, "start_indices")
    if len(dn.start_index_map) != index_size:
        raise VerifyException(
            f"start_index_map has {len(dn.start_index_map)} entries, but the index vector "
            f"of start_indices has size {index_size}"
        )
    _check_gather_dims(dn, operand, indices, len(dn.offset_dims) + len(batch))
    _check_slice_sizes(dn, operand.get_shape(), sizes)
    dropped = {*dn.collapsed_slice_dims, *dn.operand_batching_dims}
    offsets = [s for d, s in enumerate(sizes) if d not in dropped]
    return _interleave(dn.offset_dims, offsets, batch)


def check_scatter(
    dn: ScatterDimensionNumbers, operand: HloTensor, indices: HloTensor, updates: HloTensor
) -> None:
    """XLA's scatter shape rules for one operand / updates pair."""
    index_size, batch = _index_vector_size(indices, dn.index_vector_dim, "scatter_indices")
    if len(dn.scatter_dims_to_operand_dims) != index_size:
        raise VerifyException(
            f"scatter_dims_to_operand_dims has {len(dn.scatter_dims_to_operand_dims)} "
            f"entries, but the index vector of scatter_indices has size {index_size}"
        )
    _check_scatter_dims(dn, operand, indices, updates)
    _check_scatter_updates(dn, operand.get_shape(), updates.get_shape(), batch)


DotDimsDirective = make_bare_directive(DotDimensionNumbersAttr, "DotDims")
"""`custom<DotDims>($dot_dimension_numbers)`."""
GatherDimsDirective = make_bare_directive(GatherDimensionNumbersAttr, "GatherDims")
"""`custom<GatherDims>($dimension_numbers)`."""
ScatterDimsDirective = make_bare_directive(ScatterDimensionNumbersAttr, "ScatterDims")
"""`custom<ScatterDims>($dimension_numbers)`."""
WindowDirective = make_bare_directive(WindowAttr, "Window")
"""`custom<Window>($window)`."""

ATTRS = [
    DotDimensionNumbersAttr,
    GatherDimensionNumbersAttr,
    ScatterDimensionNumbersAttr,
    WindowAttr,
]
