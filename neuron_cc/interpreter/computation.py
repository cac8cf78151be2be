"""Interpretation of the hlo computation ops: dot, reduce, reduce_window, gather, scatter, sort.

XLA semantics on values with a leading device axis of size D (operand dimension k is numpy
axis k + 1). Regions (reducers, scatter combiners, comparators) run on whole stacks of elements
at once: every region argument has shape (D, ...), and values of shape (D,) (constants) are
broadcast to the stack (`run_region`). Common regions are recognised and
replaced by numpy: a reducer whose result k is add/multiply/maximum/minimum/and/or of its
arguments k and N+k, a scatter combiner that returns its update (replace), and key
comparators (see sort below).

Decisions (XLA:CPU's observable behaviour):
- dot converts the operands to the result element type and accumulates there (f16/bf16 in
  f32, rounded once; integers wrap in the result type).
- f32/f64 arithmetic of the numpy paths (dot, reduce, reduce_window, scatter) flushes
  denormal inputs and results to zero, like XLA:CPU (FTZ/DAZ); regions get it from the
  elementwise ops. Signed zeros of max/min fast paths follow numpy, not XLA (-0 < +0).
- reduce, reduce_window and scatter follow XLA:CPU's order and roundings (measured with jax
  0.10.2 and --xla_allow_excess_precision=false; tests/test_interp_reduce_rounding.py): every
  step of a fold rounds to the element type (bf16: computed in f32, rounded to bf16, as XLA's
  float normalisation wraps every region op in converts; f16 in f16; f32/f64 with FTZ).
- reduce: a one-input reduce with a reduced dimension longer than 32 is first cut into windows
  (XLA's TreeReductionRewriter): every reduced dimension of size n gets windows of
  w = min(n, 32) with stride w, padded to a multiple of w (the low side takes the smaller half),
  and each window is folded from the init; this repeats on the result until every reduced
  dimension is at most 32 (`reduction_passes`). Variadic reduces skip it. The final reduce and
  every window fold sequentially, acc = init, then acc = f(acc, x) for the elements in
  row-major order of the reduced dimensions (ascending dimension numbers, whatever the order of
  `dimensions`), padding skipped, except that a window dimension padded by one at its end
  runs its last position after all the others (`window_order`). A non-identity init is
  therefore applied once per window of every pass, as in XLA. Add/multiply of floats run that
  loop step by step (vectorised over the windows); the order-free kinds (max, min, and, or,
  and every integer kind) use the ufunc's reduce per window. Exception: XLA:CPU hands a
  one-input f32 add/max/min reduce of at least 4096 elements per device to YNNPACK, which
  applies the init once; its summation order is not modelled (numpy's pairwise order stands
  in for it: the last bits of an f32 sum differ).
- reduce_window: a fold per output over its taps, padding and dilation holes skipped, in the
  order of XLA's loop emitter (`window_order`): row-major, except that XLA's PeelLoops pass
  moves the last position of one window dimension (the innermost whose bounds or hole test
  it removes) into a loop of its own that runs after all the others. A prefix scan - one
  non-trivial window dimension whose window covers the whole dimension of n > 16, stride 1,
  padding n - 1 (inclusive) or n (exclusive) on one side, JAX's cumsum/cumprod/cummax - is
  computed as XLA's ReduceWindowRewriter rewrites it (`scan_last`): padded with the init to a
  multiple of 16, scanned directly per row of 16, the rows' carries scanned exclusively
  (recursively), then step(row value, carry in).
- Not modelled (documented differences): for f32/f16 add/multiply (not bf16, whose converts
  pin the order) XLA emits LLVM `reassoc` arithmetic and LLVM vectorises some small
  multi-dimensional loop nests, e.g. a 4x4 or 32x2 window, or the final 2x4 reduce after the
  tree passes of a 64x100 reduce over both dimensions; a reduce over no dimension returns the
  operand on XLA (init dropped) but init + x here; XLA simplifies regions before recognising
  them (`maximum(c, c)` becomes `c`), the interpreter does not.
- scatter: duplicates combine in update order; the numpy fast path (`ufunc.at`, f16 in f16)
  serves f32/f16 and the order-free kinds, while bf16 add/multiply go through the region, which
  rounds every update like XLA.
- gather clamps each start so the slice fits; scatter skips a whole update window whose start
  does not fit (XLA's ScatterExpander); duplicates combine in update order.
- sort is always stable. A key comparator (`compare LT|GT` of the same scalar function of
  arguments 2k and 2k+1, e.g. JAX's -0/NaN canonicalisation before a TOTALORDER compare, and
  the lexicographic `or(lt, and(eq, ...))` of several keys) becomes numpy stable sorts on the
  key arrays, computed once by running the key function's ops on the whole operand. Any other
  comparator is evaluated on all pairs of a row at once (or pair by pair for very long rows)
  and drives Python's merge sort.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cmp_to_key
from typing import Any

import numpy as np
from xdsl.dialects.builtin import Float32Type, TensorType, TupleType, i1
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue

from neuron_cc.dialects.hlo.attributes import ComparisonDirection, ComparisonType
from neuron_cc.dialects.hlo.computation import (
    DotOp,
    GatherOp,
    ReduceOp,
    ReduceWindowOp,
    ScatterOp,
    SortOp,
)
from neuron_cc.dialects.hlo.control_flow import ReturnOp
from neuron_cc.dialects.hlo.dimension_numbers import (
    DotDimensionNumbers,
    GatherDimensionNumbers,
    ScatterDimensionNumbers,
    Window,
    window_shape,
)
from neuron_cc.dialects.hlo.elementwise import (
    AddOp,
    AndOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    OrOp,
)
from neuron_cc.dialects.hlo.elementwise_misc import CompareOp
from neuron_cc.dialects.hlo.types import tensor_type, tuple_elements
from neuron_cc.interpreter.conversions import flush_denormals
from neuron_cc.interpreter.data_movement import (
    ScatterTargets,
    along,
    gather,
    scatter_targets,
)
from neuron_cc.interpreter.values import (
    InterpretationError,
    is_bf16,
    normalize,
    numpy_dtype,
    round_to_bf16,
)

Array = np.ndarray[Any, Any]
Shape = tuple[int, ...]

# --- regions ---------------------------------------------------------------------------------

_BINARY_KINDS: dict[type[Operation], str] = {
    AddOp: "add",
    MultiplyOp: "multiply",
    MaximumOp: "maximum",
    MinimumOp: "minimum",
    AndOp: "and",
    OrOp: "or",
}
UFUNC_KINDS = frozenset(_BINARY_KINDS.values())

_BOOL_UFUNCS: dict[str, np.ufunc] = {
    "add": np.logical_or,
    "multiply": np.logical_and,
    "maximum": np.logical_or,
    "minimum": np.logical_and,
    "and": np.logical_and,
    "or": np.logical_or,
}
_UFUNCS: dict[str, np.ufunc] = {
    "add": np.add,
    "multiply": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
}


def ufunc_for(kind: str, dtype: np.dtype[Any]) -> np.ufunc:
    """The numpy ufunc of a recognised reducer kind on `dtype` (pred add is or, as in XLA)."""
    return (_BOOL_UFUNCS if dtype == np.bool_ else _UFUNCS)[kind]


def _value_kind(value: SSAValue, acc: SSAValue, x: SSAValue) -> str | None:
    if value is x:
        return "replace"
    if value is acc:
        return "keep"
    if not isinstance(value, OpResult):
        return None
    kind = _BINARY_KINDS.get(type(value.op))
    operands = tuple(value.op.operands)
    if kind is None or operands not in ((acc, x), (x, acc)):
        return None
    return kind


def reducer_kinds(region: Region) -> list[str] | None:
    """Per result k of a 2N-argument region: the kind of `f(arg k, arg N+k)`, or None.

    Kinds are the ufunc names of `_BINARY_KINDS`, `replace` (returns arg N+k) and `keep`
    (returns arg k).
    """
    block = region.block
    last = block.last_op
    if not isinstance(last, ReturnOp):
        return None
    n = len(last.results_)
    if len(block.args) != 2 * n:
        return None
    kinds: list[str] = []
    for k, value in enumerate(last.results_):
        kind = _value_kind(value, block.args[k], block.args[n + k])
        if kind is None:
            return None
        kinds.append(kind)
    return kinds


def expand(x: Any, shape: Sequence[int]) -> Array:
    """Broadcast a (D, ...) value to `shape` by adding trailing axes (a (D,) scalar per device)."""
    a = np.asarray(x)
    if a.shape == tuple(shape):
        return a
    a = a.reshape(a.shape + (1,) * (len(shape) - a.ndim))
    return np.broadcast_to(a, tuple(shape))


def run_region(
    interpreter: Interpreter,
    region: Region,
    args: Sequence[Array],
    shape: Sequence[int],
    elements: Sequence[Attribute],
    name: str,
) -> list[Array]:
    """Run `region` on stacks of elements; results broadcast to `shape` and normalised.

    A region without nested regions runs op by op (through `interpreter.run_op`) with every
    value held at the full `shape`: values that do not depend on the arguments (constants,
    shape (D,)) are broadcast as soon as they are made, so elementwise implementations only
    ever see operands of one shape. Other regions go through `run_ssacfg_region`.
    """
    block = region.block
    if any(op.regions for op in block.ops):
        results = interpreter.run_ssacfg_region(region, tuple(args), name)
    else:
        env: dict[SSAValue, Any] = {a: expand(v, shape) for a, v in zip(block.args, args)}
        run_ops(interpreter, list(block.ops), env, tuple(shape))
        last = block.last_op
        if not isinstance(last, ReturnOp):
            raise InterpretationError(f"{name} region must end in hlo.return")
        results = [env[v] for v in last.results_]
    return [normalize(expand(r, shape), e) for r, e in zip(results, elements, strict=True)]


def run_ops(
    interpreter: Interpreter, ops: Sequence[Operation], env: dict[SSAValue, Any], shape: Shape
) -> None:
    """Run `ops` in order on the values of `env`, adding their results broadcast to `shape`
    (the terminator is skipped)."""
    for op in ops:
        if isinstance(op, ReturnOp):
            continue
        results = interpreter.run_op(op, tuple(env[o] for o in op.operands))
        for result, value in zip(op.results, results, strict=True):
            env[result] = _stacked(value, shape)


def _stacked(value: Any, shape: Shape) -> Any:
    """A (D, ...) array that is a prefix of `shape` (e.g. a (D,) constant), broadcast to it."""
    if not isinstance(value, np.ndarray):
        return value
    array: Array = value
    if array.shape != shape and array.shape == shape[: array.ndim]:
        return expand(array, shape)
    return array


def _pack(outs: Sequence[Array], result_type: Attribute) -> Any:
    """One tensor, or a tuple for several (XLA's variadic form), in the result's storage."""
    types = tuple_elements(result_type)
    values = [
        normalize(np.ascontiguousarray(o), tensor_type(t).element_type)
        for o, t in zip(outs, types, strict=True)
    ]
    return tuple(values) if isinstance(result_type, TupleType) else values[0]


def _compute_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """f16 accumulates in f32 (bf16 is stored as f32 already)."""
    return np.dtype(np.float32) if dtype == np.float16 else dtype


# --- dot -------------------------------------------------------------------------------------


def dot_general(lhs: Array, rhs: Array, dn: DotDimensionNumbers, dtype: np.dtype[Any]) -> Array:
    """XLA DotGeneral of (D, ...) stacks: result = batch, lhs free, rhs free dims."""
    lrank, rrank = lhs.ndim - 1, rhs.ndim - 1
    lhs_labels = [0, *(1 + i for i in range(lrank))]
    rhs_labels = [0, *(1 + lrank + i for i in range(rrank))]
    for l_dim, r_dim in zip(
        (*dn.lhs_batch, *dn.lhs_contracting), (*dn.rhs_batch, *dn.rhs_contracting), strict=True
    ):
        rhs_labels[1 + r_dim] = lhs_labels[1 + l_dim]
    lhs_used = {*dn.lhs_batch, *dn.lhs_contracting}
    rhs_used = {*dn.rhs_batch, *dn.rhs_contracting}
    out_labels = [
        0,
        *(lhs_labels[1 + d] for d in dn.lhs_batch),
        *(lhs_labels[1 + d] for d in range(lrank) if d not in lhs_used),
        *(rhs_labels[1 + d] for d in range(rrank) if d not in rhs_used),
    ]
    compute = np.dtype(np.int64) if dtype == np.bool_ else _compute_dtype(dtype)
    a, b = flush_denormals(lhs.astype(compute)), flush_denormals(rhs.astype(compute))
    return flush_denormals(np.einsum(a, lhs_labels, b, rhs_labels, out_labels, optimize=True))


# --- the order of a window's taps ------------------------------------------------------------

PEEL_LIMIT = 64
"""XLA's PeelLoops stops peeling once the window loops it has passed iterate this often."""


@dataclass(frozen=True)
class WindowDim:
    """One dimension of a window, as XLA's indexing map of a reduce_window sees it."""

    size: int
    stride: int
    low: int
    base: int
    dilation: int
    input: int
    output: int


def _rescaled(d: WindowDim) -> bool:
    """Whether XLA turns the hole test of a base dilation into a loop over the real taps only:
    stride a multiple of the dilation, window dilation 1, low padding a multiple of it."""
    return d.base > 1 and d.stride % d.base == 0 and d.dilation == 1 and d.low % d.base == 0


def _positions(d: WindowDim) -> list[int]:
    """The window positions XLA's loop over this dimension visits: every `base`-th one if the
    hole test is rescaled away, else all of them (holes are tested in the loop)."""
    return list(range(0, d.size, d.base)) if _rescaled(d) else list(range(d.size))


def _constrained(d: WindowDim, positions: Sequence[int]) -> bool:
    """Whether XLA's loop over these positions keeps a bounds or hole test (its symbol stays
    constrained). One position never does; a hole test that mixes the position with the output
    index always does. The bounds test of a full rescaled loop is judged on the window's last
    position, not its last real tap (as measured on XLA:CPU)."""
    if len(positions) <= 1:
        return False
    if d.base > 1 and not _rescaled(d) and d.dilation % d.base:
        return True
    full = positions[-1] == _positions(d)[-1]
    last_position = d.size - 1 if full else positions[-1]
    first = positions[0] * d.dilation - d.low
    last = (d.output - 1) * d.stride + last_position * d.dilation - d.low
    return first < 0 or last > (d.input - 1) * d.base


def window_order(dims: Sequence[WindowDim]) -> list[tuple[int, ...]]:
    """The window positions in the order XLA:CPU's loop emitter visits them: row-major, except
    what its PeelLoops pass splits off (measured: at most one split). From the last dimension
    to the first, while the loops passed so far iterate fewer than 64 times, the first
    dimension whose bounds or hole test disappears once its last position is removed is split
    into the loop nest without that position, which runs first, and a "tail" nest over the
    last position alone. So a 2x2 window padded in dimension 1 visits (0,0), (1,0), (0,1),
    (1,1)."""
    box = [_positions(d) for d in dims]
    parts = [box]
    trips = 1
    for i in reversed(range(len(dims))):
        if trips >= PEEL_LIMIT:
            break
        trips *= len(box[i])
        if _constrained(dims[i], box[i]) and not _constrained(dims[i], box[i][:-1]):
            parts = [[*box[:i], box[i][:-1], *box[i + 1 :]], [*box[:i], box[i][-1:], *box[i + 1 :]]]
            break
    return [p for part in parts for p in itertools.product(*part)]


# --- reduce ----------------------------------------------------------------------------------

TREE_WINDOW = 32
"""The window of XLA:CPU's TreeReductionRewriter (its `reduce_window_size`)."""

Layout = dict[int, tuple[int, int, int]]
"""Per reduced numpy axis of one window pass: (window = stride, low padding, high padding)."""

_SEQUENTIAL_KINDS = frozenset({"add", "multiply"})
"""Kinds whose float result depends on the order of the steps (the others are exact)."""


def _kept_shape(x: Array, axes: Sequence[int]) -> Shape:
    return tuple(s for i, s in enumerate(x.shape) if i not in axes)


def tree_layout(n: int) -> tuple[int, int, int]:
    """One TreeReductionRewriter pass on a reduced dimension of size n: windows of min(n, 32)
    with that stride, padded like `Padding::kSame` (the low side gets the smaller half)."""
    w = min(n, TREE_WINDOW)
    total = -(-n // w) * w - n
    return w, total // 2, total - total // 2


def reduction_passes(shape: Shape, axes: Sequence[int], tree: bool) -> Iterator[Layout]:
    """The window passes of XLA:CPU's reduce over numpy `axes` of `shape`, ending with the
    final reduce (one window over everything that is left). With `tree`, passes of
    `tree_layout` windows (every reduced axis, all at once) repeat while a reduced axis is
    longer than 32, as XLA's pass pipeline re-runs the rewrite on the reduce it leaves."""
    sizes = {a: shape[a] for a in axes}
    while tree and any(n > TREE_WINDOW for n in sizes.values()):
        layout = {a: tree_layout(n) for a, n in sizes.items()}
        yield layout
        sizes = {a: (sizes[a] + lo + hi) // w for a, (w, lo, hi) in layout.items()}
    yield {a: (n, 0, 0) for a, n in sizes.items()}


def tap_stack(x: Array, layout: Layout, fill: Any) -> Array:
    """`x` cut into the windows of `layout`: shape (...out, taps), the window positions of the
    reduced axes on the last axis in XLA's order (`window_order`: row-major unless a window
    dimension padded by one at its end is peeled); padding taps hold `fill`."""
    pads = [layout[a][1:] if a in layout else (0, 0) for a in range(x.ndim)]
    if any(lo or hi for lo, hi in pads):
        x = np.pad(x, pads, constant_values=fill)
    split: list[int] = []
    for a, n in enumerate(x.shape):
        w = layout[a][0] if a in layout else 1
        split += [n // w, w]
    order = [*range(0, 2 * x.ndim, 2), *range(1, 2 * x.ndim, 2)]
    taps = x.reshape(split).transpose(order).reshape(*split[0::2], -1)
    visit = _tree_visit(x.shape, layout)
    return taps if visit is None else taps[..., visit]


def _tree_visit(padded: Shape, layout: Layout) -> Array | None:
    """The row-major tap numbers of `tap_stack` in XLA's `window_order`, None if row-major."""
    dims = [
        WindowDim(w, w, lo, 1, 1, padded[a] - lo - hi, padded[a] // w)
        for a, (w, lo, hi) in sorted(layout.items())
    ]
    if not dims:
        return None
    positions = np.array(window_order(dims), dtype=np.int64).reshape(-1, len(dims))
    visit = np.ravel_multi_index(tuple(positions.T), [d.size for d in dims])
    return None if bool(np.all(visit == np.arange(visit.size))) else visit


def _identity(kind: str, dtype: np.dtype[Any]) -> Any:
    """The neutral element of a reducer kind (padding taps are no-ops: -0.0 keeps zero signs)."""
    if dtype == np.bool_:
        return kind in ("multiply", "minimum", "and")
    if dtype.kind == "f":
        floats = {"add": -0.0, "multiply": 1.0, "maximum": -np.inf, "minimum": np.inf}
        return floats[kind]
    info = np.iinfo(dtype)
    ints = {"add": 0, "multiply": 1, "or": 0, "and": -1 if info.min < 0 else info.max}
    return ints.get(kind, info.min if kind == "maximum" else info.max)


def rounding_step(kind: str, element: Attribute) -> Callable[[Array, Array], Array]:
    """One step `acc = kind(acc, x)` as XLA:CPU does it: f32/f64 with denormals flushed,
    bf16 through f32 and rounded to bf16, f16 in f16 (numpy rounds every f16 op)."""
    dtype = numpy_dtype(element)
    uf = ufunc_for(kind, dtype)
    if is_bf16(element):
        return lambda acc, x: round_to_bf16(flush_denormals(uf(acc, x)))
    return lambda acc, x: flush_denormals(uf(acc, x))


def fast_reduce(
    x: Array, init: Array, axes: Sequence[int], kind: str, element: Attribute, tree: bool
) -> Array:
    """`kind`-reduce `x` over numpy `axes` from the per-device scalar `init`, in XLA:CPU's
    order: the `reduction_passes` windows, each window folded sequentially from `init` over its
    taps in `tap_stack` order (add/multiply of floats step by step, rounding every step;
    order-free kinds at once with the ufunc's reduce)."""
    kept = _kept_shape(x, axes)
    dtype = x.dtype
    start = flush_denormals(np.asarray(init).astype(dtype))
    if any(x.shape[a] == 0 for a in axes):
        return expand(start, kept)
    x = flush_denormals(x)
    fill = _identity(kind, dtype)
    uf = ufunc_for(kind, dtype)
    step = rounding_step(kind, element)
    sequential = dtype.kind == "f" and kind in _SEQUENTIAL_KINDS
    for layout in reduction_passes(x.shape, axes, tree):
        taps = tap_stack(x, layout, fill)
        if sequential:
            x = fold_taps(step, start, taps)
        else:
            reduced = uf.reduce(taps, axis=-1, dtype=dtype)
            x = flush_denormals(uf(expand(start, reduced.shape), reduced))
    return x.reshape(kept)


YNN_MIN_ELEMENTS = 4096
"""Input elements (per device) from which XLA:CPU hands an f32 add/max/min reduce to YNNPACK."""

_YNN_KINDS = frozenset({"add", "maximum", "minimum"})


def offloaded_to_ynn(
    x: Array, axes: Sequence[int], kinds: Sequence[str], element: Attribute
) -> bool:
    """Whether XLA:CPU runs this reduce in YNNPACK (measured with jax 0.10.2: a one-input f32
    reduce over some dimension by add/max/min of at least 4096 elements, whatever its
    producer): the init is applied once and the order is YNNPACK's own."""
    return (
        isinstance(element, Float32Type)
        and len(kinds) == 1
        and kinds[0] in _YNN_KINDS
        and bool(axes)
        and math.prod(x.shape[1:]) >= YNN_MIN_ELEMENTS
    )


def numpy_reduce(x: Array, init: Array, axes: Sequence[int], kind: str) -> Array:
    """`kind`-reduce `x` over numpy `axes` with numpy's own (pairwise) order, then apply the
    per-device scalar `init` once: the stand-in for YNNPACK, whose order is not modelled."""
    kept = _kept_shape(x, axes)
    start = flush_denormals(expand(init, kept).astype(x.dtype))
    if any(x.shape[a] == 0 for a in axes):
        return start
    uf = ufunc_for(kind, x.dtype)
    reduced = uf.reduce(flush_denormals(x), axis=tuple(axes), dtype=x.dtype)
    return flush_denormals(uf(start, reduced))


def fold_taps(step: Callable[[Array, Array], Array], init: Array, taps: Array) -> Array:
    """acc = init, then acc = step(acc, tap) for every tap (last axis) in order."""
    acc = expand(init, taps.shape[:-1])
    for t in range(taps.shape[-1]):
        acc = step(acc, taps[..., t])
    return acc


def fold_reduce(
    interpreter: Interpreter,
    region: Region,
    inputs: Sequence[Array],
    inits: Sequence[Array],
    axes: Sequence[int],
    elements: Sequence[Attribute],
) -> list[Array]:
    """Apply the reducer region in XLA:CPU's order, vectorised across the windows (region
    arguments have shape (D, ...windows)): the `reduction_passes` of a one-input reduce (the
    tree rewrite skips variadic reduces), each window folded over its taps in `tap_stack`
    order; padding taps are skipped."""
    kept = _kept_shape(inputs[0], axes)
    if any(inputs[0].shape[a] == 0 for a in axes):
        return [expand(init, kept) for init in inits]
    values = list(inputs)
    for layout in reduction_passes(values[0].shape, axes, len(values) == 1):
        stacks = [tap_stack(x, layout, 0) for x in values]
        shape = stacks[0].shape[:-1]
        padded = any(lo or hi for _, lo, hi in layout.values())
        valid = tap_stack(np.ones(values[0].shape, np.bool_), layout, False) if padded else None
        acc = [expand(init, shape) for init in inits]
        for t in range(stacks[0].shape[-1]):
            step = [*acc, *(s[..., t] for s in stacks)]
            new = run_region(interpreter, region, step, shape, elements, "reduce")
            acc = (
                new if valid is None else [np.where(valid[..., t], n, a) for n, a in zip(new, acc)]
            )
        values = acc
    return [v.reshape(kept) for v in values]


# --- reduce_window ---------------------------------------------------------------------------


def _tap_indices(size: int, out: int, window: Window, dim: int) -> tuple[list[Array], list[Array]]:
    """For each window position w of dimension `dim`: input indices and validity per output."""
    lo = window.padding[dim][0]
    dilation = window.base_dilation[dim]
    o = np.arange(out, dtype=np.int64) * window.stride[dim]
    indices: list[Array] = []
    valid: list[Array] = []
    for w in range(window.size[dim]):
        p = o + w * window.window_dilation[dim] - lo
        ok = (p >= 0) & (p % dilation == 0) & (p // dilation < size)
        indices.append(np.where(ok, p // dilation, 0))
        valid.append(ok)
    return indices, valid


def window_taps(shape: Shape, window: Window) -> Iterator[tuple[tuple[Array, ...], Array | None]]:
    """Per window position (in XLA's `window_order`): the open-mesh input index per output, and
    the validity mask (None when every output reads a real element, not padding or a hole)."""
    out = window_shape(shape, window)
    per_dim = [_tap_indices(s, o, window, d) for d, (s, o) in enumerate(zip(shape, out))]
    dims = [
        WindowDim(
            window.size[d],
            window.stride[d],
            window.padding[d][0],
            window.base_dilation[d],
            window.window_dilation[d],
            shape[d],
            out[d],
        )
        for d in range(len(shape))
    ]
    for taps in window_order(dims):
        index = tuple(along(per_dim[d][0][w], d, len(out)) for d, w in enumerate(taps))
        valid = np.ones(out, dtype=np.bool_)
        for d, w in enumerate(taps):
            valid = valid & along(per_dim[d][1][w], d, len(out))
        if not valid.any():
            continue
        yield index, (None if valid.all() else valid)


def reduce_window(
    step: Callable[[list[Array], list[Array]], list[Array]],
    inputs: Sequence[Array],
    inits: Sequence[Array],
    window: Window,
) -> list[Array]:
    """Fold `step(acc, taps)` over the window positions; padding positions keep the acc."""
    devices = inputs[0].shape[0]
    shape = (devices, *window_shape(inputs[0].shape[1:], window))
    acc = [expand(init, shape) for init in inits]
    for index, valid in window_taps(inputs[0].shape[1:], window):
        taps = [x[(slice(None), *index)] for x in inputs]
        new = step(acc, taps)
        acc = new if valid is None else [np.where(valid, n, a) for n, a in zip(new, acc)]
    return acc


SCAN_BASE = 16
"""XLA:CPU's ReduceWindowRewriter base length: scans longer than this are tiled."""

Step = Callable[[list[Array], list[Array]], list[Array]]


@dataclass(frozen=True)
class Scan:
    """A reduce_window that is a prefix scan along operand dimension `dim`: the window covers
    the whole dimension, stride 1, padded by n-1 (inclusive) or n (exclusive) on the low
    (`forward`) or high side, every other window dimension trivial."""

    dim: int
    forward: bool
    exclusive: bool


def _trivial(window: Window, d: int) -> bool:
    return (
        window.size[d] == 1
        and window.stride[d] == 1
        and window.padding[d] == (0, 0)
        and window.base_dilation[d] == 1
        and window.window_dilation[d] == 1
    )


def find_scan(shape: Shape, window: Window) -> Scan | None:
    """The scan XLA:CPU's ReduceWindowRewriter rewrites (longer than SCAN_BASE), or None."""
    dims = [d for d in range(len(shape)) if not _trivial(window, d)]
    if len(dims) != 1:
        return None
    d = dims[0]
    n = shape[d]
    plain = window.stride[d] == 1 and window.base_dilation[d] == 1
    if n <= SCAN_BASE or window.size[d] != n or not plain or window.window_dilation[d] != 1:
        return None
    lo, hi = window.padding[d]
    if hi == 0 and lo in (n - 1, n):
        return Scan(d, True, lo == n)
    if lo == 0 and hi in (n - 1, n):
        return Scan(d, False, hi == n)
    return None


def _pad_last(x: Array, lo: int, hi: int, init: Array) -> Array:
    """`x` with `lo`/`hi` copies of the per-device scalar `init` around its last axis."""
    parts = [expand(init, (*x.shape[:-1], k)).astype(x.dtype) for k in (lo, hi)]
    return np.concatenate([parts[0], x, parts[1]], axis=-1)


def _direct_scan(
    step: Step, xs: Sequence[Array], inits: Sequence[Array], forward: bool, exclusive: bool
) -> list[Array]:
    """The scan along the last axis as the reduce_window itself (one window per output)."""
    rank = xs[0].ndim - 1
    n = xs[0].shape[-1]
    pad = n if exclusive else n - 1
    window = Window(
        size=(1,) * (rank - 1) + (n,),
        stride=(1,) * rank,
        padding=((0, 0),) * (rank - 1) + ((pad, 0) if forward else (0, pad),),
        base_dilation=(1,) * rank,
        window_dilation=(1,) * rank,
    )
    return reduce_window(step, xs, inits, window)


def scan_last(
    step: Step, xs: Sequence[Array], inits: Sequence[Array], forward: bool, exclusive: bool
) -> list[Array]:
    """XLA:CPU's scan along the last axis (ReduceWindowRewriter): pad with the init to a
    multiple of 16, scan every row of 16 directly, scan the rows' last (first, for a reverse
    scan) elements exclusively (recursively), and combine each row with the carry in as
    step(row, carry); exclusive scans put the init in front (behind)."""
    n = xs[0].shape[-1]
    if n <= SCAN_BASE:
        return _direct_scan(step, xs, inits, forward, exclusive)
    k = -(-n // SCAN_BASE) * SCAN_BASE
    tiles = [
        _pad_last(x, 0, k - n, i).reshape(*x.shape[:-1], k // SCAN_BASE, SCAN_BASE)
        for x, i in zip(xs, inits, strict=True)
    ]
    rows = _direct_scan(step, tiles, inits, forward, False)
    edges = [r[..., -1] if forward else r[..., 0] for r in rows]
    carried = scan_last(step, edges, inits, forward, True)
    carry = [
        np.broadcast_to((c[..., :-1] if forward else c[..., 1:])[..., None], rows[0].shape)
        for c in carried
    ]
    flat = [c.reshape(*c.shape[:-2], k)[..., :n] for c in step(rows, carry)]
    if not exclusive:
        return flat
    return [_pad_last(f, int(forward), int(not forward), i) for f, i in zip(flat, inits)]


def scan_window(
    step: Step, inputs: Sequence[Array], inits: Sequence[Array], scan: Scan
) -> list[Array]:
    """A `find_scan` reduce_window in XLA:CPU's order (see `scan_last`)."""
    axis = 1 + scan.dim
    moved = [np.moveaxis(x, axis, -1) for x in inputs]
    outs = scan_last(step, moved, inits, scan.forward, scan.exclusive)
    return [np.moveaxis(o, -1, axis) for o in outs]


# --- scatter ---------------------------------------------------------------------------------


def _last_occurrences(keys: Array) -> Array:
    """Positions of the last occurrence of each distinct key."""
    _, first_in_reversed = np.unique(keys[::-1], return_index=True)
    return keys.shape[0] - 1 - first_in_reversed


def _occurrence_rank(keys: Array) -> Array:
    """For each key, how many equal keys come before it."""
    order = np.argsort(keys, kind="stable")
    _, first, inverse = np.unique(keys[order], return_index=True, return_inverse=True)
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0]) - first[inverse]
    return rank


def _scatter_rounds(
    interpreter: Interpreter,
    region: Region,
    outs: list[Array],
    updates: Sequence[Array],
    targets: ScatterTargets,
    elements: Sequence[Attribute],
) -> None:
    """Combine updates with the region, in update order: round r applies, on every device, the
    r-th update of each destination; arguments are (D, max updates per device in the round)."""
    devices = outs[0].shape[0]
    if targets.keys.size == 0:
        return
    rank = _occurrence_rank(targets.keys)
    for r in range(int(rank.max()) + 1):
        sel = np.nonzero(rank == r)[0]
        dev, pos = targets.device[sel], targets.position[sel]
        counts = np.bincount(dev, minlength=devices)
        column = np.arange(sel.shape[0]) - (np.cumsum(counts) - counts)[dev]
        width = int(counts.max())
        current = [_padded(o[dev, pos], dev, column, (devices, width)) for o in outs]
        incoming = [_padded(u[sel], dev, column, (devices, width)) for u in updates]
        new = run_region(
            interpreter, region, [*current, *incoming], (devices, width), elements, "scatter"
        )
        for o, n in zip(outs, new, strict=True):
            o[dev, pos] = n[dev, column]


def _padded(values: Array, dev: Array, column: Array, shape: tuple[int, int]) -> Array:
    """Scatter `values` into a (D, width) array; unused slots repeat the first value."""
    out = np.full(shape, values[0], dtype=values.dtype)
    out[dev, column] = values
    return out


def _scatter_fast(kind: str, out: Array, update: Array, targets: ScatterTargets) -> None:
    flat_out = out.reshape(-1)
    if kind == "keep":
        return
    if kind == "replace":
        last = _last_occurrences(targets.keys)
        flat_out[targets.keys[last]] = update[last]
        return
    keys = targets.keys
    flat_out[keys] = flush_denormals(flat_out[keys])
    ufunc_for(kind, out.dtype).at(flat_out, keys, flush_denormals(update))
    flat_out[keys] = flush_denormals(flat_out[keys])


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


_PAIRWISE_LIMIT = 1 << 24


def _less_matrix(interpreter: Interpreter, region: Region, rows: Sequence[Array]) -> Array:
    """less[..., i, j] = comparator(row_i, row_j) for every pair of every row, in one call."""
    shape = (*rows[0].shape, rows[0].shape[-1])
    args: list[Array] = []
    for r in rows:
        args += [np.broadcast_to(r[..., :, None], shape), np.broadcast_to(r[..., None, :], shape)]
    (less,) = run_region(interpreter, region, args, shape, [i1], "sort.comparator")
    return less


def _pair_comparator(
    interpreter: Interpreter, region: Region, rows: Sequence[Array], pos: tuple[int, ...]
) -> Callable[[int, int], bool]:
    """comparator(row_i, row_j) of the row at `pos` (device first), one region call per pair;
    every device gets the pair, the row's device answers."""
    devices = rows[0].shape[0]

    def less(i: int, j: int) -> bool:
        args: list[Array] = []
        for r in rows:
            args += [np.full((devices,), r[(*pos, i)]), np.full((devices,), r[(*pos, j)])]
        (result,) = run_region(interpreter, region, args, (devices,), [i1], "sort.comparator")
        return bool(result[pos[0]])

    return less


def _sorted_positions(n: int, less: Callable[[int, int], bool]) -> list[int]:
    def cmp(i: int, j: int) -> int:
        if less(i, j):
            return -1
        return 1 if less(j, i) else 0

    return sorted(range(n), key=cmp_to_key(cmp))


def general_sort_order(interpreter: Interpreter, region: Region, rows: Sequence[Array]) -> Array:
    """The stable order of each row (last axis) under an arbitrary comparator region."""
    shape = rows[0].shape
    n = shape[-1]
    order = np.empty(shape, dtype=np.int64)
    if int(np.prod(shape, dtype=np.int64)) * n <= _PAIRWISE_LIMIT:
        less = _less_matrix(interpreter, region, rows)
        for pos in np.ndindex(*shape[:-1]):
            matrix = less[pos]
            order[pos] = _sorted_positions(n, lambda i, j: bool(matrix[i, j]))
        return order
    for pos in np.ndindex(*shape[:-1]):
        order[pos] = _sorted_positions(n, _pair_comparator(interpreter, region, rows, pos))
    return order


# --- the device axis as a batching dimension -------------------------------------------------


def _up(dims: Sequence[int]) -> tuple[int, ...]:
    return tuple(d + 1 for d in dims)


def gather_with_devices(dn: GatherDimensionNumbers) -> GatherDimensionNumbers:
    """`dn` for (D, ...) operands: the device axis is an extra leading batching dimension."""
    return GatherDimensionNumbers(
        offset_dims=_up(dn.offset_dims),
        collapsed_slice_dims=_up(dn.collapsed_slice_dims),
        start_index_map=_up(dn.start_index_map),
        index_vector_dim=dn.index_vector_dim + 1,
        operand_batching_dims=(0, *_up(dn.operand_batching_dims)),
        start_indices_batching_dims=(0, *_up(dn.start_indices_batching_dims)),
    )


def scatter_with_devices(dn: ScatterDimensionNumbers) -> ScatterDimensionNumbers:
    """`dn` for (D, ...) operands: the device axis is an extra leading batching dimension."""
    return ScatterDimensionNumbers(
        update_window_dims=_up(dn.update_window_dims),
        inserted_window_dims=_up(dn.inserted_window_dims),
        scatter_dims_to_operand_dims=_up(dn.scatter_dims_to_operand_dims),
        index_vector_dim=dn.index_vector_dim + 1,
        input_batching_dims=(0, *_up(dn.input_batching_dims)),
        scatter_indices_batching_dims=(0, *_up(dn.scatter_indices_batching_dims)),
    )


def _elements(values: Sequence[SSAValue]) -> list[Attribute]:
    return [tensor_type(v).element_type for v in values]


def _as_elements(values: Sequence[Any], elements: Sequence[Attribute]) -> list[Array]:
    return [normalize(np.asarray(v), e) for v, e in zip(values, elements, strict=True)]


def _fast_kinds(region: Region, allowed: frozenset[str]) -> list[str] | None:
    kinds = reducer_kinds(region)
    return kinds if kinds is not None and allowed.issuperset(kinds) else None


_SCATTER_KINDS = UFUNC_KINDS | {"replace", "keep"}


def _rounds_every_update(kinds: Sequence[str], elements: Sequence[Attribute]) -> bool:
    """A bf16 add/multiply scatter: numpy's `ufunc.at` on the f32 storage cannot round to bf16
    after each update, as XLA:CPU does (f16 is stored as f16, so `at` rounds it)."""
    return any(is_bf16(e) and k in _SEQUENTIAL_KINDS for k, e in zip(kinds, elements, strict=True))


@register_impls
class HloComputationFunctions(InterpreterFunctions):
    """dot, reduce, reduce_window, gather, scatter, sort."""

    @impl(DotOp)
    def run_dot(self, interpreter: Interpreter, op: DotOp, args: PythonValues) -> PythonValues:
        element = tensor_type(op.result).element_type
        with np.errstate(all="ignore"):
            out = dot_general(args[0], args[1], op.dot_dimension_numbers.data, numpy_dtype(element))
        return (normalize(np.ascontiguousarray(out), element),)

    @impl(ReduceOp)
    def run_reduce(
        self, interpreter: Interpreter, op: ReduceOp, args: PythonValues
    ) -> PythonValues:
        n = len(op.inputs)
        elements = _elements(op.init_values)
        inputs = _as_elements(args[:n], elements)
        inits = [np.asarray(v) for v in args[n:]]
        axes = [1 + d for d in op.dimensions.data]
        kinds = _fast_kinds(op.body, UFUNC_KINDS)
        with np.errstate(all="ignore"):
            if kinds is not None and offloaded_to_ynn(inputs[0], axes, kinds, elements[0]):
                outs = [numpy_reduce(inputs[0], inits[0], axes, kinds[0])]
            elif kinds is not None:
                outs = [
                    fast_reduce(x, i, axes, k, e, tree=n == 1)
                    for x, i, k, e in zip(inputs, inits, kinds, elements, strict=True)
                ]
            else:
                outs = fold_reduce(interpreter, op.body, inputs, inits, axes, elements)
        return (_pack(outs, op.result.type),)

    @impl(ReduceWindowOp)
    def run_reduce_window(
        self, interpreter: Interpreter, op: ReduceWindowOp, args: PythonValues
    ) -> PythonValues:
        n = len(op.inputs)
        elements = _elements(op.init_values)
        inputs = _as_elements(args[:n], elements)
        inits = [np.asarray(v) for v in args[n:]]
        kinds = _fast_kinds(op.body, UFUNC_KINDS)
        if kinds is not None:
            inputs = [flush_denormals(x) for x in inputs]
            steps = [rounding_step(k, e) for k, e in zip(kinds, elements, strict=True)]

            def step(acc: list[Array], taps: list[Array]) -> list[Array]:
                return [s(flush_denormals(a), t) for s, a, t in zip(steps, acc, taps)]
        else:

            def step(acc: list[Array], taps: list[Array]) -> list[Array]:
                shape = acc[0].shape
                return run_region(
                    interpreter, op.body, [*acc, *taps], shape, elements, "reduce_window"
                )

        window = op.window.data
        scan = find_scan(inputs[0].shape[1:], window)
        with np.errstate(all="ignore"):
            if scan is not None:
                outs = scan_window(step, inputs, inits, scan)
            else:
                outs = reduce_window(step, inputs, inits, window)
        return (_pack(outs, op.result.type),)

    @impl(GatherOp)
    def run_gather(
        self, interpreter: Interpreter, op: GatherOp, args: PythonValues
    ) -> PythonValues:
        dn = gather_with_devices(op.dimension_numbers.data)
        out = gather(np.asarray(args[0]), np.asarray(args[1]), dn, (1, *op.slice_sizes.data))
        element = tensor_type(op.result).element_type
        return (normalize(np.ascontiguousarray(out), element),)

    @impl(ScatterOp)
    def run_scatter(
        self, interpreter: Interpreter, op: ScatterOp, args: PythonValues
    ) -> PythonValues:
        n = len(op.inputs)
        elements = _elements(op.inputs)
        kinds = _fast_kinds(op.update_computation, _SCATTER_KINDS)
        if kinds is not None and _rounds_every_update(kinds, elements):
            kinds = None  # bf16 add/multiply: the region's own bf16 ops round every update
        outs = [np.array(x) for x in _as_elements(args[:n], elements)]
        raw_updates = args[n + 1 :]
        dn = scatter_with_devices(op.dimension_numbers.data)
        full, valid, perm = scatter_targets(
            outs[0].shape, np.asarray(args[n]), raw_updates[0].shape, dn
        )
        targets = ScatterTargets(outs[0].shape, full, valid)
        devices = outs[0].shape[0]
        updates = [
            u.transpose(perm).reshape(devices, -1)[targets.mask].astype(o.dtype)
            for u, o in zip(_as_elements(raw_updates, elements), outs, strict=True)
        ]
        with np.errstate(all="ignore"):
            if kinds is not None:
                for kind, o, u in zip(kinds, outs, updates, strict=True):
                    _scatter_fast(kind, o, u, targets)
            else:
                flat = [o.reshape(devices, -1) for o in outs]
                _scatter_rounds(
                    interpreter, op.update_computation, flat, updates, targets, elements
                )
        return (_pack(outs, op.result.type),)

    @impl(SortOp)
    def run_sort(self, interpreter: Interpreter, op: SortOp, args: PythonValues) -> PythonValues:
        axis = op.dimension.value.data + 1
        operands = [np.asarray(a) for a in args]
        order = self._key_order(interpreter, op, operands, axis)
        if order is None:
            rows = [np.moveaxis(o, axis, -1) for o in operands]
            order = np.moveaxis(general_sort_order(interpreter, op.comparator, rows), -1, axis)
        outs = [np.take_along_axis(o, order, axis) for o in operands]
        return (_pack(outs, op.result.type),)

    def _key_order(
        self, interpreter: Interpreter, op: SortOp, operands: Sequence[Array], axis: int
    ) -> Array | None:
        """The order from the comparator's keys, or None if it is not a key comparator."""
        last = op.comparator.block.last_op
        if not isinstance(last, ReturnOp) or len(last.results_) != 1:
            return None
        keys = comparator_keys(last.results_[0], op.comparator.block)
        if keys is None:
            return None
        with np.errstate(all="ignore"):
            arrays = sort_keys(interpreter, op.comparator, keys, operands)
        if arrays is None:
            return None
        return lexicographic_order(arrays, [k.descending for k in keys], axis)
