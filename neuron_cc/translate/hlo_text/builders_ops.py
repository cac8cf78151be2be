"""Properties of the HLO instructions added for issue 17 (reverse, convolution,
select-and-scatter, map, topk, domain, copy-start, rng, rng-bit-generator,
rng-get-and-update-state, batch-norm-training/inference/grad, cholesky, triangular-solve,
fft), read from their raw attributes as `builders.py` does for the
others; `OPCODE_PROPERTIES` and `REGION_KEYS` there include these tables.

An epsilon that is not a finite f32 (`inf`, `1e50`) is refused: xDSL's float attributes
cannot print it back (XLA would keep it as inf).

XLA's convolution window may carry `rhs_reversal=1x0`; it becomes the op's `window_reversal`
property (the shared window attribute has no reversal). A window absent from the text is the
empty window of a convolution without spatial dimensions (or a rank-0 select-and-scatter).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

import numpy as np
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, StringAttr, TensorType, f32
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.convolution import parse_dim_labels
from neuron_cc.dialects.hlo.dimension_numbers import WindowAttr
from neuron_cc.dialects.hlo.fft import FftType, FftTypeAttr
from neuron_cc.dialects.hlo.linalg import Transpose, TransposeAttr
from neuron_cc.translate.hlo_text import attrs as A
from neuron_cc.translate.hlo_text.attrs import AttrError
from neuron_cc.translate.hlo_text.parser import Instruction

Props = dict[str, Attribute]

_REVERSAL = re.compile(r"\s*\brhs_reversal=(\S*?)(?=\s|\}|$)")


class _Attrs(Protocol):
    """The part of `builders.Consumer` these builders use (no import cycle)."""

    def get(self, key: str) -> str | None: ...
    def need(self, key: str) -> str: ...


def _window(raw: str | None) -> tuple[WindowAttr, DimensionsAttr | None]:
    if raw is None:
        return WindowAttr.make([]), None
    reversal: DimensionsAttr | None = None
    m = _REVERSAL.search(raw)
    try:
        if m is not None:
            reversal = DimensionsAttr(tuple(int(v) for v in m.group(1).split("x")))
            raw = raw[: m.start()] + raw[m.end() :]
        pad = re.search(r"\bpad=(\S*?)(?=\s|\}|$)", raw)
        if pad is not None and any(p.count("_") != 1 for p in pad.group(1).split("x")):
            raise AttrError(f"window pad '{pad.group(1)}' must be low_high per dimension")
        return A.window(raw), reversal
    except ValueError:
        raise AttrError(f"malformed window '{raw}'") from None


def _reverse(inst: Instruction, c: _Attrs) -> Props:
    return {"dimensions": DimensionsAttr(A.ints(c.need("dimensions")))}


def _convolution(inst: Instruction, c: _Attrs) -> Props:
    window, reversal = _window(c.get("window"))
    labels = c.need("dim_labels").strip()
    try:
        parse_dim_labels(labels)
    except VerifyException as e:
        raise AttrError(str(e)) from None
    props: Props = {"dim_labels": StringAttr(labels), "window": window}
    if reversal is not None and any(reversal.data):
        props["window_reversal"] = reversal
    for key in ("feature_group_count", "batch_group_count"):
        raw = c.get(key)
        if raw is not None:
            props[key] = IntegerAttr(A.integer(raw), 64)
    return props


def _select_and_scatter(inst: Instruction, c: _Attrs) -> Props:
    window, reversal = _window(c.get("window"))
    if reversal is not None:
        raise AttrError("select-and-scatter takes no rhs_reversal")
    return {"window": window}


def _map(inst: Instruction, c: _Attrs) -> Props:
    raw = c.get("dimensions")
    t = inst.type
    rank = len(t.get_shape()) if isinstance(t, TensorType) else 0
    return {"dimensions": DimensionsAttr(A.ints(raw) if raw is not None else tuple(range(rank)))}


def _topk(inst: Instruction, c: _Attrs) -> Props:
    largest = c.get("largest")
    return {
        "k": IntegerAttr(A.integer(c.need("k")), 64),
        "largest": IntegerAttr.from_bool(largest is None or A.boolean(largest)),
    }


def _domain(inst: Instruction, c: _Attrs) -> Props:
    return {"domain": StringAttr(c.need("domain").strip())}


def _copy_start(inst: Instruction, c: _Attrs) -> Props:
    raw = c.get("cross_program_prefetch_index")
    return {} if raw is None else {"cross_program_prefetch_index": IntegerAttr(A.integer(raw), 64)}


def _keyword(key: str, prop: str) -> Callable[[Instruction, _Attrs], Props]:
    def build(inst: Instruction, c: _Attrs) -> Props:
        return {prop: StringAttr(c.need(key).strip())}

    return build


def _rng_state(inst: Instruction, c: _Attrs) -> Props:
    return {"delta": IntegerAttr(A.integer(c.need("delta")), 64)}


def _batch_norm(inst: Instruction, c: _Attrs) -> Props:
    raw = c.need("epsilon")
    try:
        with np.errstate(over="ignore"):
            epsilon = float(np.float32(float(raw.strip())))
    except ValueError:
        raise AttrError(f"epsilon must be a float, got '{raw}'") from None
    if not np.isfinite(epsilon):
        raise AttrError(f"epsilon {raw.strip()} is not a finite f32")
    return {
        "epsilon": FloatAttr(epsilon, f32),
        "feature_index": IntegerAttr(A.integer(c.need("feature_index")), 64),
    }


def _flag(c: _Attrs, key: str) -> IntegerAttr:
    raw = c.get(key)
    return IntegerAttr.from_bool(raw is not None and A.boolean(raw))


def _enum_value(raw: str, names: tuple[str, ...], key: str) -> str:
    value = raw.strip()
    if value not in names:
        raise AttrError(f"{key} must be one of {', '.join(names)}, got '{raw}'")
    return value


def _cholesky(inst: Instruction, c: _Attrs) -> Props:
    return {"lower": _flag(c, "lower")}


def _triangular_solve(inst: Instruction, c: _Attrs) -> Props:
    names = tuple(t.value for t in Transpose)
    transpose = _enum_value(c.need("transpose_a"), names, "transpose_a")
    return {
        "left_side": _flag(c, "left_side"),
        "lower": _flag(c, "lower"),
        "unit_diagonal": _flag(c, "unit_diagonal"),
        "transpose_a": TransposeAttr(Transpose(transpose)),
    }


def _fft(inst: Instruction, c: _Attrs) -> Props:
    kind = _enum_value(c.need("fft_type"), tuple(t.value for t in FftType), "fft_type")
    return {
        "fft_type": FftTypeAttr(FftType(kind)),
        "fft_length": DimensionsAttr(A.ints(c.need("fft_length"))),
    }


OPCODE_PROPERTIES: dict[str, Callable[[Instruction, _Attrs], Props]] = {
    "domain": _domain,
    "copy-start": _copy_start,
    "rng": _keyword("distribution", "distribution"),
    "rng-bit-generator": _keyword("algorithm", "algorithm"),
    "rng-get-and-update-state": _rng_state,
    "reverse": _reverse,
    "convolution": _convolution,
    "select-and-scatter": _select_and_scatter,
    "map": _map,
    "topk": _topk,
    "batch-norm-training": _batch_norm,
    "batch-norm-inference": _batch_norm,
    "batch-norm-grad": _batch_norm,
    "cholesky": _cholesky,
    "triangular-solve": _triangular_solve,
    "fft": _fft,
}
REGION_KEYS: dict[str, tuple[str, ...]] = {
    "select-and-scatter": ("select", "scatter"),
    "map": ("to_apply",),
}
