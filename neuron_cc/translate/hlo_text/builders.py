"""Per-opcode translation of HLO instructions (records) into hlo-dialect operations.

`OPCODE_PROPERTIES` maps an opcode to a function that turns the instruction's raw attributes
into the op's properties (and consumes them); everything not consumed is kept as an `xla.<key>`
string attribute by the importer. Ops are created with `Operation.create` (no per-op
verification: the module is verified once after the import).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.attributes import (
    ComparisonDirection,
    ComparisonDirectionAttr,
    ComparisonType,
    ComparisonTypeAttr,
    DimensionsAttr,
    SourceTargetPairsAttr,
)
from neuron_cc.dialects.hlo.dimension_numbers import (
    DotDimensionNumbersAttr,
    GatherDimensionNumbersAttr,
    ScatterDimensionNumbersAttr,
)
from neuron_cc.dialects.hlo.types import tensor_type
from neuron_cc.translate.hlo_text import attrs as A
from neuron_cc.translate.hlo_text import builders_ops
from neuron_cc.translate.hlo_text.attrs import AttrError
from neuron_cc.translate.hlo_text.parser import Instruction

Props = dict[str, Attribute]
PropBuilder = Callable[[Instruction, "Consumer"], Props]

# XLA opcode -> hlo op name where it is not `hlo.` + opcode with '-' -> '_'.
OPCODE_RENAMES = {
    "count-leading-zeros": "hlo.clz",
    "opt-barrier": "hlo.optimization_barrier",
    "fusion": "hlo.call",
}

API_VERSIONS = {
    "API_VERSION_ORIGINAL": 1,
    "API_VERSION_STATUS_RETURNING": 2,
    "API_VERSION_STATUS_RETURNING_UNIFIED": 3,
    "API_VERSION_TYPED_FFI": 4,
}

_I64_CACHE: dict[int, IntegerAttr] = {}


def i64(v: int) -> IntegerAttr:
    attr = _I64_CACHE.get(v)
    if attr is None:
        attr = _I64_CACHE[v] = IntegerAttr(v, 64)
    return attr


@lru_cache(maxsize=4096)
def dims(raw: str) -> DimensionsAttr:
    """The `DimensionsAttr` of integer list text `{1,0}` (AttrError if malformed); built once
    per text (attributes are immutable, so ops share them)."""
    return DimensionsAttr(A.ints(raw))


@lru_cache(maxsize=256)
def segment_sizes(*sizes: int) -> DenseArrayBase:
    """`operandSegmentSizes` with the given sizes (built once per list of sizes)."""
    return DenseArrayBase.from_list(i32, sizes)


@lru_cache(maxsize=4096)
def _dot_numbers(
    lhs_batch: str | None,
    rhs_batch: str | None,
    lhs_contracting: str | None,
    rhs_contracting: str | None,
) -> DotDimensionNumbersAttr:
    """The dot dimension numbers of the four raw attribute values (None: absent)."""
    raws = (lhs_batch, rhs_batch, lhs_contracting, rhs_contracting)
    return DotDimensionNumbersAttr.make(*(() if raw is None else A.ints(raw) for raw in raws))


def op_name(opcode: str) -> str:
    return OPCODE_RENAMES.get(opcode) or "hlo." + opcode.replace("-", "_")


class Consumer:
    """Hands out an instruction's raw attributes and remembers which ones were used."""

    __slots__ = ("inst", "used")

    def __init__(self, inst: Instruction) -> None:
        self.inst = inst
        self.used: set[str] = set()

    def get(self, key: str) -> str | None:
        value = self.inst.attrs.get(key)
        if value is not None:
            self.used.add(key)
        return value

    def need(self, key: str) -> str:
        value = self.get(key)
        if value is None:
            raise AttrError(f"{self.inst.opcode} needs attribute '{key}'")
        return value

    def flag(self, key: str) -> bool:
        value = self.get(key)
        return value is not None and A.boolean(value)

    def rest(self) -> dict[str, str]:
        return {k: v for k, v in self.inst.attrs.items() if k not in self.used}


def _broadcast(inst: Instruction, c: Consumer) -> Props:
    """XLA lets a broadcast of a scalar leave out `dimensions` (it is `{}`); for any other
    operand the verifier then reports the missing dimensions."""
    raw = c.get("dimensions")
    return {"dimensions": dims(raw) if raw is not None else DimensionsAttr(())}


def _collective_flags(c: Consumer, props: Props, global_ids: bool = True) -> None:
    groups = c.get("replica_groups")
    device_ids = c.get("device_ids")
    if groups is not None and device_ids is not None:
        # `mesh[...], device_ids=(...) {axes}`: the comma split the mesh form in two.
        groups = f"{groups}, device_ids={device_ids}"
    props["replica_groups"] = A.replica_groups(groups if groups is not None else "{}")
    channel = c.get("channel_id")
    if channel is not None:
        props["channel_id"] = i64(A.integer(channel))
    if global_ids and c.flag("use_global_device_ids"):
        props["use_global_device_ids"] = UnitAttr()
    if c.flag("constrain_layout"):
        props["constrain_layout"] = UnitAttr()


def _all_reduce(inst: Instruction, c: Consumer) -> Props:
    props: Props = {}
    _collective_flags(c, props)
    return props


def _all_gather(inst: Instruction, c: Consumer) -> Props:
    props: Props = {"all_gather_dimension": i64(A.single_dimension(c.need("dimensions")))}
    _collective_flags(c, props)
    return props


def _reduce_scatter(inst: Instruction, c: Consumer) -> Props:
    props: Props = {"scatter_dimension": i64(A.single_dimension(c.need("dimensions")))}
    _collective_flags(c, props)
    return props


def _all_to_all(inst: Instruction, c: Consumer) -> Props:
    props: Props = {}
    dims = c.get("dimensions")
    if dims is not None:
        props["split_dimension"] = i64(A.single_dimension(dims))
    _collective_flags(c, props, global_ids=False)
    return props


def _collective_broadcast(inst: Instruction, c: Consumer) -> Props:
    """Also ragged-all-to-all: replica groups, channel id, constrain_layout."""
    props: Props = {}
    _collective_flags(c, props, global_ids=False)
    return props


def _collective_permute(inst: Instruction, c: Consumer) -> Props:
    props: Props = {
        "source_target_pairs": SourceTargetPairsAttr(A.pairs(c.need("source_target_pairs")))
    }
    channel = c.get("channel_id")
    if channel is not None:
        props["channel_id"] = i64(A.integer(channel))
    return props


def _channel(inst: Instruction, c: Consumer) -> Props:
    props: Props = {"channel_id": i64(A.integer(c.need("channel_id")))}
    if c.flag("is_host_transfer"):
        props["is_host_transfer"] = UnitAttr()
    return props


def _compare(inst: Instruction, c: Consumer) -> Props:
    direction = c.need("direction").strip()
    try:
        props: Props = {"direction": ComparisonDirectionAttr(ComparisonDirection(direction))}
    except ValueError:
        raise AttrError(f"unknown comparison direction '{direction}'") from None
    kind = c.get("type")
    if kind is not None:
        try:
            props["compare_type"] = ComparisonTypeAttr(ComparisonType(kind.strip()))
        except ValueError:
            raise AttrError(f"unknown comparison type '{kind}'") from None
    return props


def _iota(inst: Instruction, c: Consumer) -> Props:
    return {"iota_dimension": i64(A.integer(c.need("iota_dimension")))}


def _slice(inst: Instruction, c: Consumer) -> Props:
    starts, limits, strides = A.slice_ranges(c.need("slice"))
    return {
        "start_indices": DimensionsAttr(tuple(starts)),
        "limit_indices": DimensionsAttr(tuple(limits)),
        "strides": DimensionsAttr(tuple(strides)),
    }


def _dynamic_slice(inst: Instruction, c: Consumer) -> Props:
    return {"slice_sizes": dims(c.need("dynamic_slice_sizes"))}


def _concatenate(inst: Instruction, c: Consumer) -> Props:
    return {"dimension": i64(A.single_dimension(c.need("dimensions")))}


def _pad(inst: Instruction, c: Consumer) -> Props:
    rank = len(tensor_type(inst.type).get_shape())
    low, high, interior = A.padding(c.need("padding"), rank)
    return {
        "edge_padding_low": DimensionsAttr(tuple(low)),
        "edge_padding_high": DimensionsAttr(tuple(high)),
        "interior_padding": DimensionsAttr(tuple(interior)),
    }


def _optional_ints(c: Consumer, key: str) -> tuple[int, ...]:
    value = c.get(key)
    return () if value is None else A.ints(value)


def _dot(inst: Instruction, c: Consumer) -> Props:
    return {
        "dot_dimension_numbers": _dot_numbers(
            c.get("lhs_batch_dims"),
            c.get("rhs_batch_dims"),
            c.get("lhs_contracting_dims"),
            c.get("rhs_contracting_dims"),
        )
    }


def _gather(inst: Instruction, c: Consumer) -> Props:
    props: Props = {
        "dimension_numbers": GatherDimensionNumbersAttr.make(
            _optional_ints(c, "offset_dims"),
            _optional_ints(c, "collapsed_slice_dims"),
            _optional_ints(c, "start_index_map"),
            A.integer(c.need("index_vector_dim")),
            _optional_ints(c, "operand_batching_dims"),
            _optional_ints(c, "start_indices_batching_dims"),
        ),
        "slice_sizes": DimensionsAttr(A.ints(c.need("slice_sizes"))),
    }
    if c.flag("indices_are_sorted"):
        props["indices_are_sorted"] = UnitAttr()
    return props


def _scatter(inst: Instruction, c: Consumer) -> Props:
    n = (len(inst.operands) - 1) // 2
    props: Props = {
        "dimension_numbers": ScatterDimensionNumbersAttr.make(
            _optional_ints(c, "update_window_dims"),
            _optional_ints(c, "inserted_window_dims"),
            _optional_ints(c, "scatter_dims_to_operand_dims"),
            A.integer(c.need("index_vector_dim")),
            _optional_ints(c, "input_batching_dims"),
            _optional_ints(c, "scatter_indices_batching_dims"),
        ),
        "operandSegmentSizes": segment_sizes(n, 1, n),
    }
    if c.flag("indices_are_sorted"):
        props["indices_are_sorted"] = UnitAttr()
    if c.flag("unique_indices"):
        props["unique_indices"] = UnitAttr()
    return props


def _reduce(inst: Instruction, c: Consumer) -> Props:
    n = len(inst.operands) // 2
    return {
        "dimensions": dims(c.need("dimensions")),
        "operandSegmentSizes": segment_sizes(n, n),
    }


def _reduce_window(inst: Instruction, c: Consumer) -> Props:
    n = len(inst.operands) // 2
    return {
        "window": A.window(c.get("window") or "{}"),
        "operandSegmentSizes": segment_sizes(n, n),
    }


def _sort(inst: Instruction, c: Consumer) -> Props:
    props: Props = {"dimension": i64(A.single_dimension(c.need("dimensions")))}
    if c.flag("is_stable"):
        props["is_stable"] = UnitAttr()
    return props


def _get_tuple_element(inst: Instruction, c: Consumer) -> Props:
    return {"index": i64(A.integer(c.need("index")))}


def _custom_call(inst: Instruction, c: Consumer) -> Props:
    target = c.need("custom_call_target").strip()
    if target.startswith('"'):
        from neuron_cc.translate.hlo_text.lexer import unescape

        target = unescape(target[1:-1])
    props: Props = {"call_target_name": StringAttr(target)}
    if c.flag("custom_call_has_side_effect"):
        props["has_side_effect"] = UnitAttr()
    config = c.get("backend_config")
    if config is not None:
        props["backend_config"] = StringAttr(_string_or_raw(config))
    version = c.get("api_version")
    if version is not None:
        number = API_VERSIONS.get(version.strip())
        if number is None:
            raise AttrError(f"unknown custom-call api_version '{version}'")
        props["api_version"] = IntegerAttr(number, 32)
    return props


def _string_or_raw(raw: str) -> str:
    from neuron_cc.translate.hlo_text.lexer import unescape

    body = raw.strip()
    if len(body) >= 2 and body.startswith('"') and body.endswith('"'):
        return unescape(body[1:-1])
    return body


def _reduce_precision(inst: Instruction, c: Consumer) -> Props:
    return {
        "exponent_bits": i64(A.integer(c.need("exponent_bits"))),
        "mantissa_bits": i64(A.integer(c.need("mantissa_bits"))),
    }


def _transpose(inst: Instruction, c: Consumer) -> Props:
    return {"permutation": dims(c.need("dimensions"))}


def _call(inst: Instruction, c: Consumer) -> Props:
    key = "calls" if inst.opcode == "fusion" else "to_apply"
    names = A.computation_names(c.need(key))
    if len(names) != 1:
        raise AttrError(f"{inst.opcode} calls exactly one computation, got {names}")
    return {"callee": SymbolRefAttr(names[0])}


def _async(inst: Instruction, c: Consumer) -> Props:
    """`calls=%c` (the computation, a func; optional after async-start) and
    `async_execution_thread="t"`."""
    props: Props = {}
    raw = c.need("calls") if inst.opcode == "async-start" else c.get("calls")
    if raw is not None:
        names = A.computation_names(raw)
        if len(names) != 1:
            raise AttrError(f"{inst.opcode} calls exactly one computation, got {names}")
        props["calls"] = SymbolRefAttr(names[0])
    thread = c.get("async_execution_thread")
    if thread is not None:
        props["execution_thread"] = StringAttr(_string_or_raw(thread))
    return props


OPCODE_PROPERTIES: dict[str, PropBuilder] = {
    "all-reduce": _all_reduce,
    "all-reduce-start": _all_reduce,
    "all-gather": _all_gather,
    "all-gather-start": _all_gather,
    "collective-permute-start": _collective_permute,
    "async-start": _async,
    "async-update": _async,
    "async-done": _async,
    "reduce-scatter": _reduce_scatter,
    "all-to-all": _all_to_all,
    "ragged-all-to-all": _collective_broadcast,
    "collective-broadcast": _collective_broadcast,
    "collective-permute": _collective_permute,
    "send": _channel,
    "send-done": _channel,
    "recv": _channel,
    "recv-done": _channel,
    "compare": _compare,
    "iota": _iota,
    "broadcast": _broadcast,
    "transpose": _transpose,
    "slice": _slice,
    "dynamic-slice": _dynamic_slice,
    "concatenate": _concatenate,
    "pad": _pad,
    "dot": _dot,
    "gather": _gather,
    "scatter": _scatter,
    "reduce": _reduce,
    "reduce-window": _reduce_window,
    "sort": _sort,
    "get-tuple-element": _get_tuple_element,
    "custom-call": _custom_call,
    "reduce-precision": _reduce_precision,
    "call": _call,
    "fusion": _call,
    **builders_ops.OPCODE_PROPERTIES,
}

# Attribute key holding the computation(s) cloned into each region, per opcode.
REGION_KEYS: dict[str, tuple[str, ...]] = {
    "all-reduce": ("to_apply",),
    "all-reduce-start": ("to_apply",),
    "reduce-scatter": ("to_apply",),
    "reduce": ("to_apply",),
    "reduce-window": ("to_apply",),
    "scatter": ("to_apply",),
    "sort": ("to_apply",),
    "while": ("condition", "body"),
    **builders_ops.REGION_KEYS,
}
