"""The numpy reference of `random_hlo` programs: XLA's semantics, written independently.

`evaluate(text, inputs)` runs the HLO text (the subset of random_hlo_text) on all R*P devices at
once: every value is a numpy array with a leading device axis (device d = replica d // P,
partition d % P). Storage: f32 float32, bf16 float32 holding bf16 values, s32 int32, u32 uint32,
pred bool.

Semantics (each rule is one function below, so a measured XLA:CPU behaviour can replace it):
- Every bf16 op is computed exactly (float64) and rounded to bf16 (nearest even) once: what XLA
  does with `--xla_allow_excess_precision=false` (its f32 compute then round is the same for
  + - * by the double-rounding theorem, 24 >= 2 * 8 + 2).
- `fold`: reductions apply `to_apply` sequentially in index order (`reduce`, starting from the
  init value) or in rank order of the group (all-reduce, reduce-scatter).
- `promotes_bf16`: XLA:CPU's all-reduce promotion makes bf16 all-reduce / reduce-scatter
  accumulate in f32 and round once; `reduce` applies its bf16 computation (rounding each step).
- `dot` accumulates exactly and rounds once to the result type.
- Integers wrap at their width; float -> int converts truncate and saturate (NaN -> 0).
- dynamic-slice / dynamic-update-slice clamp every start index to [0, dim - size].
- collective-permute: devices no pair targets receive zeros.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from neuron_cc.testing import random_hlo_groups as G
from neuron_cc.testing.random_hlo_text import (
    ArrayType,
    Computation,
    HloSubsetError,
    Instr,
    Module,
    int_list,
    slice_spec,
)

Array = np.ndarray[Any, Any]
Value = Any
"""An Array (leading device axis) or a tuple of Arrays."""

MAX_WHILE_ITERATIONS = 10_000

_STORAGE: dict[str, Any] = {
    "f32": np.float32,
    "bf16": np.float32,
    "f64": np.float64,
    "s32": np.int32,
    "u32": np.uint32,
    "s64": np.int64,
    "pred": np.bool_,
}
_INT_LIMITS = {"s32": (-(2**31), 2**31 - 1), "u32": (0, 2**32 - 1), "s64": (-(2**63), 2**63 - 1)}


class ReferenceEvaluationError(RuntimeError):
    """The program cannot be evaluated (divergent loop condition, unknown opcode...)."""


# --- the semantic rules -----------------------------------------------------------------------


def fold(values: Sequence[Array], combine: Callable[[Array, Array], Array]) -> Array:
    """Reduce `values` in order: ((v0 op v1) op v2) ... (sequential: what XLA:CPU does on the
    bf16 reduces measured so far; replace this function if a measurement says otherwise)."""
    acc = values[0]
    for v in values[1:]:
        acc = combine(acc, v)
    return acc


def promotes_bf16(opcode: str) -> bool:
    """Does a bf16 reduction of this opcode accumulate in f32 and round once at the end?"""
    return opcode in ("all-reduce", "reduce-scatter")


def round_bf16(x: Array) -> Array:
    """Round to the nearest bf16 (ties to even) from float64; float32 storage. (bf16
    subnormals, below 2**-126, would keep too many bits: the programs never get there.)"""
    d = np.array(x, dtype=np.float64)
    bits = d.view(np.uint64)
    drop = 45  # float64 keeps 52 mantissa bits, bf16 keeps 7
    lsb = (bits >> np.uint64(drop)) & np.uint64(1)
    half = np.uint64((1 << (drop - 1)) - 1)
    mask = np.uint64((2**64 - 1) ^ ((1 << drop) - 1))
    rounded = ((bits + half + lsb) & mask).view(np.float64)
    rounded = np.where(np.isnan(d), d, rounded)
    with np.errstate(over="ignore"):
        return rounded.astype(np.float32)


def finish(x: Array, dtype: str) -> Array:
    """The exact storage of a computed (possibly widened) array of element type `dtype`."""
    if dtype == "bf16":
        return round_bf16(x)
    if dtype in _INT_LIMITS and x.dtype.kind == "f":
        return _float_to_int(x, dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(x).astype(_STORAGE[dtype])


def _float_to_int(x: Array, dtype: str) -> Array:
    lo, hi = _INT_LIMITS[dtype]
    t = np.trunc(np.nan_to_num(np.asarray(x, dtype=np.float64), nan=0.0))
    return np.clip(t, lo, hi).astype(_STORAGE[dtype])


def widen(x: Array, dtype: str) -> Array:
    """The array in the type its ops are computed in (exact for bf16 and integers)."""
    if dtype == "bf16":
        return x.astype(np.float64)
    if dtype in ("s32", "u32"):
        return x.astype(np.int64)
    return x


# --- evaluation -------------------------------------------------------------------------------


class Evaluator:
    def __init__(self, module: Module) -> None:
        self.module = module
        self.replicas = module.replicas
        self.partitions = module.partitions
        self.devices = module.replicas * module.partitions

    def run(self, inputs: Sequence[Array]) -> list[Array]:
        entry = self.module.entry_computation
        params = entry.parameters()
        if len(params) != len(inputs):
            raise ReferenceEvaluationError(f"entry takes {len(params)} inputs, got {len(inputs)}")
        args = [self._input(p, x) for p, x in zip(params, inputs, strict=True)]
        result = self.call(entry, args)
        return list(result) if isinstance(result, tuple) else [result]

    def _input(self, param: Instr, x: Array) -> Array:
        t = param.type.array
        a = np.asarray(x)
        if a.shape != (self.devices, *t.shape):
            raise ReferenceEvaluationError(
                f"input {param.name}: shape {a.shape}, expected {t.shape}"
            )
        return finish(a.astype(np.float64) if t.dtype == "bf16" else a, t.dtype)

    def call(self, comp: Computation, args: Sequence[Value], promote: bool = False) -> Value:
        env: dict[str, Value] = {}
        for instr in comp.instrs:
            if instr.opcode == "parameter":
                env[instr.name] = args[int(instr.literal)]
                continue
            operands = [env[o] for o in instr.operands]
            op = _OPS.get(instr.opcode)
            if op is None:
                raise ReferenceEvaluationError(f"no reference for opcode {instr.opcode!r}")
            env[instr.name] = op(self, instr, operands, promote)
        return env[comp.root.name]

    def reducer(self, instr: Instr, promote: bool) -> Callable[[Array, Array], Array]:
        """The `to_apply` computation of `instr` as a function (promoted: bf16 ops in f32)."""
        comp = self.module.computations[instr.attrs["to_apply"]]

        def combine(a: Array, b: Array) -> Array:
            return self.call(comp, [a, b], promote)

        return combine

    def full(self, x: Array) -> Array:
        """A per-device-identical value with the device axis prepended."""
        return np.broadcast_to(x, (self.devices, *np.shape(x))).copy()


Op = Callable[[Evaluator, Instr, list[Value], bool], Value]


def _dtype(instr: Instr, promote: bool) -> str:
    dtype = instr.type.array.dtype
    return "f32" if promote and dtype == "bf16" else dtype


def _binary(fn: Callable[[Array, Array], Array]) -> Op:
    def run(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
        dtype = _dtype(instr, promote)
        with np.errstate(all="ignore"):
            return finish(fn(widen(xs[0], dtype), widen(xs[1], dtype)), dtype)

    return run


def _unary(fn: Callable[[Array], Array]) -> Op:
    def run(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
        dtype = _dtype(instr, promote)
        with np.errstate(all="ignore"):
            return finish(fn(widen(xs[0], dtype)), dtype)

    return run


def _divide(a: Array, b: Array) -> Array:
    """XLA's divide: integers truncate toward zero, x / 0 = -1 (all bits set)."""
    if a.dtype.kind == "f":
        return a / b
    safe = np.where(b == 0, 1, b)
    q = np.sign(a) * np.sign(safe) * (np.abs(a) // np.abs(safe))
    return np.where(b == 0, -1, q)


def _remainder(a: Array, b: Array) -> Array:
    """XLA's remainder: the sign of the dividend (C fmod), x % 0 = x for integers."""
    if a.dtype.kind == "f":
        return np.fmod(a, b)
    return np.where(b == 0, a, a - b * _divide(a, b))


_COMPARE: dict[str, Callable[[Array, Array], Array]] = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "LT": np.less,
    "LE": np.less_equal,
    "GT": np.greater,
    "GE": np.greater_equal,
}


def _compare(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    return _COMPARE[instr.attrs["direction"]](xs[0], xs[1])


def _expand_to(mask: Array, ndim: int) -> Array:
    return mask.reshape(mask.shape + (1,) * (ndim - mask.ndim))


def _select(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    pred, a, b = xs
    return np.where(_expand_to(pred, a.ndim), a, b)


def _convert(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    dtype = instr.type.array.dtype
    x = xs[0]
    if dtype == "pred":
        return x != 0
    if dtype == "bf16" or (dtype in _INT_LIMITS and x.dtype.kind == "f"):
        return finish(x.astype(np.float64), dtype)  # one rounding / truncation, from exact
    return finish(x.astype(np.int64) if x.dtype.kind in "biu" else x, dtype)


def _broadcast(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    shape = instr.type.array.shape
    dims = int_list(instr.attrs.get("dimensions", "{}"))
    x = xs[0]
    order = sorted(range(len(dims)), key=lambda k: dims[k])
    x = x.transpose([0, *(1 + k for k in order)])
    kept = sorted(dims)
    view = [shape[j] if j in kept else 1 for j in range(len(shape))]
    return np.broadcast_to(x.reshape(ev.devices, *view), (ev.devices, *shape)).copy()


def _reshape(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    return xs[0].reshape(ev.devices, *instr.type.array.shape)


def _transpose(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    perm = int_list(instr.attrs["dimensions"])
    return np.ascontiguousarray(xs[0].transpose([0, *(1 + p for p in perm)]))


def _slice(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    index = tuple(slice(a, b, s) for a, b, s in slice_spec(instr.attrs["slice"]))
    return np.ascontiguousarray(xs[0][(slice(None), *index)])


def _concatenate(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    (dim,) = int_list(instr.attrs["dimensions"])
    return np.concatenate(xs, axis=dim + 1)


def _clamped_index(ev: Evaluator, starts: list[Array], shape: Sequence[int], sizes: Sequence[int]):
    """Broadcastable index arrays (device, dim 0, dim 1...) of a clamped dynamic window."""
    rank = len(shape)
    index: list[Array] = [np.arange(ev.devices).reshape((ev.devices,) + (1,) * rank)]
    for k, (start, dim, size) in enumerate(zip(starts, shape, sizes, strict=True)):
        s = np.clip(start.astype(np.int64), 0, dim - size)
        view = [1] * rank
        view[k] = size
        index.append(s.reshape((ev.devices,) + (1,) * rank) + np.arange(size).reshape(1, *view))
    return tuple(index)


def _dynamic_slice(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    x = xs[0]
    sizes = int_list(instr.attrs["dynamic_slice_sizes"])
    return x[_clamped_index(ev, xs[1:], x.shape[1:], sizes)]


def _dynamic_update_slice(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    x, update = xs[0].copy(), xs[1]
    x[_clamped_index(ev, xs[2:], x.shape[1:], update.shape[1:])] = update
    return x


def _literal_values(literal: str, t: ArrayType) -> Array:
    tokens = [tok for tok in literal.replace("{", " ").replace("}", " ").split(",")]
    tokens = [tok.strip() for tok in tokens if tok.strip()]
    if t.dtype == "pred":
        return np.array([tok == "true" for tok in tokens]).reshape(t.shape)
    if t.dtype in _INT_LIMITS:
        return np.array([int(tok) for tok in tokens], dtype=np.int64).reshape(t.shape)
    return np.array([float(tok) for tok in tokens], dtype=np.float64).reshape(t.shape)


def _constant(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    t = instr.type.array
    return ev.full(finish(_literal_values(instr.literal, t), t.dtype))


def _iota(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    t = instr.type.array
    dim = int(instr.attrs["iota_dimension"])
    view = [1] * len(t.shape)
    view[dim] = t.shape[dim]
    values = np.broadcast_to(np.arange(t.shape[dim]).reshape(view), t.shape)
    return ev.full(finish(values, t.dtype))


def _tuple(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    return tuple(xs)


def _get_tuple_element(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    return xs[0][int(instr.attrs["index"])]


def _replica_id(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    return (np.arange(ev.devices) // ev.partitions).astype(np.uint32)


def _partition_id(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    return (np.arange(ev.devices) % ev.partitions).astype(np.uint32)


def _dot(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    lhs, rhs = xs
    dtype = instr.type.array.dtype
    wide = np.int64 if dtype in _INT_LIMITS else np.float64
    spec = _dot_spec(
        lhs.ndim - 1,
        rhs.ndim - 1,
        tuple(int_list(instr.attrs.get("lhs_batch_dims", "{}"))),
        tuple(int_list(instr.attrs.get("rhs_batch_dims", "{}"))),
        tuple(int_list(instr.attrs.get("lhs_contracting_dims", "{}"))),
        tuple(int_list(instr.attrs.get("rhs_contracting_dims", "{}"))),
    )
    return finish(np.einsum(spec, lhs.astype(wide), rhs.astype(wide)), dtype)


@lru_cache(maxsize=256)
def _dot_spec(
    lrank: int,
    rrank: int,
    lb: tuple[int, ...],
    rb: tuple[int, ...],
    lc: tuple[int, ...],
    rc: tuple[int, ...],
) -> str:
    """The einsum of a dot (device axis `z`): result dims are batch, lhs free, rhs free."""
    letters = iter("abcdefghijklmnopqrstuvwxy")
    lhs = [next(letters) for _ in range(lrank)]
    rhs = [next(letters) for _ in range(rrank)]
    for a, b in zip(lb + lc, rb + rc, strict=True):
        rhs[b] = lhs[a]
    free_l = [lhs[i] for i in range(lrank) if i not in lb + lc]
    free_r = [rhs[i] for i in range(rrank) if i not in rb + rc]
    out = [lhs[i] for i in lb] + free_l + free_r
    return f"z{''.join(lhs)},z{''.join(rhs)}->z{''.join(out)}"


def _reduce(ev: Evaluator, instr: Instr, xs: list[Value], promote: bool) -> Value:
    if len(xs) != 2:
        raise HloSubsetError("variadic reduce is not in the reference")
    x, init = xs
    dims = int_list(instr.attrs["dimensions"])
    kept = [k for k in range(x.ndim - 1) if k not in dims]
    moved = x.transpose([0, *(1 + k for k in kept), *(1 + k for k in dims)])
    out_shape = moved.shape[: 1 + len(kept)]
    flat = moved.reshape(*out_shape, -1)
    start = np.broadcast_to(_expand_to(init, len(out_shape)), out_shape)
    items = [start, *(flat[..., j] for j in range(flat.shape[-1]))]
    dtype = instr.type.array.dtype
    if dtype == "bf16" and not promote and promotes_bf16(instr.opcode):
        return finish(fold(items, ev.reducer(instr, True)).astype(np.float64), dtype)
    return fold(items, ev.reducer(instr, promote))


OPS_ELEMENTWISE: dict[str, Op] = {
    "add": _binary(np.add),
    "subtract": _binary(np.subtract),
    "multiply": _binary(np.multiply),
    "divide": _binary(_divide),
    "remainder": _binary(_remainder),
    "maximum": _binary(np.maximum),
    "minimum": _binary(np.minimum),
    "and": _binary(np.logical_and),
    "or": _binary(np.logical_or),
    "xor": _binary(np.logical_xor),
    "negate": _unary(np.negative),
    "abs": _unary(np.abs),
    "not": _unary(np.logical_not),
    "compare": _compare,
    "select": _select,
    "convert": _convert,
}

OPS_DATA: dict[str, Op] = {
    "broadcast": _broadcast,
    "reshape": _reshape,
    "transpose": _transpose,
    "slice": _slice,
    "concatenate": _concatenate,
    "dynamic-slice": _dynamic_slice,
    "dynamic-update-slice": _dynamic_update_slice,
    "constant": _constant,
    "iota": _iota,
    "tuple": _tuple,
    "get-tuple-element": _get_tuple_element,
    "replica-id": _replica_id,
    "partition-id": _partition_id,
    "dot": _dot,
    "reduce": _reduce,
}

_OPS: dict[str, Op] = {**OPS_ELEMENTWISE, **OPS_DATA}


def register(opcode: str, op: Op) -> None:
    """Add the reference of an opcode (the collective and control-flow modules do)."""
    _OPS[opcode] = op


def group_mode_of(instr: Instr) -> str:
    has_channel = "channel_id" in instr.attrs
    global_ids = instr.attrs.get("use_global_device_ids", "false") == "true"
    return G.group_mode(instr.opcode, has_channel, global_ids)


def device_groups_of(ev: Evaluator, instr: Instr) -> G.Groups:
    groups = G.parse_groups(instr.attrs.get("replica_groups", "{}"))
    return G.device_groups(group_mode_of(instr), groups, ev.replicas, ev.partitions)
