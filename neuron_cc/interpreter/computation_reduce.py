"""reduce for the interpreter of the hlo computation ops (`computation`).

The order of a window's taps as XLA's loop emitter runs them (`WindowDim`, `window_order`,
with PeelLoops' peeled last position) and reduce: XLA's tree rewrite of long reduced dimensions
(`tree_layout`, `reduction_passes`, `tap_stack`), the numpy fast paths (`fast_reduce`,
`numpy_reduce`, YNNPACK's offload `offloaded_to_ynn`) and the sequential fold with a rounding
per step (`rounding_step`, `fold_taps`, `fold_reduce`). See `computation`'s docstring for the
decisions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from xdsl.dialects.builtin import Float32Type
from xdsl.interpreter import Interpreter
from xdsl.ir import Attribute, Region

from neuron_cc.interpreter.computation_regions import expand, run_region, ufunc_for
from neuron_cc.interpreter.conversions import flush_denormals, smallest_normal
from neuron_cc.interpreter.values import is_bf16, numpy_dtype, round_to_bf16

Array = np.ndarray[Any, Any]
Shape = tuple[int, ...]

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

SEQUENTIAL_KINDS = frozenset({"add", "multiply"})
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
    visit = _tree_visit(x.shape, tuple(sorted(layout.items())))
    return taps if visit is None else taps[..., visit]


@lru_cache(maxsize=1024)
def _tree_visit(
    padded: Shape, layout: tuple[tuple[int, tuple[int, int, int]], ...]
) -> Array | None:
    """The row-major tap numbers of `tap_stack` in XLA's `window_order`, None if row-major
    (cached: a reduce in a loop body asks for the same windows at every iteration)."""
    dims = [
        WindowDim(w, w, lo, 1, 1, padded[a] - lo - hi, padded[a] // w) for a, (w, lo, hi) in layout
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
    if dtype.kind == "c":
        return {"add": complex(-0.0, -0.0), "multiply": complex(1.0, 0.0)}[kind]
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
    sequential = dtype.kind == "f" and kind in SEQUENTIAL_KINDS
    for layout in reduction_passes(x.shape, axes, tree):
        taps = tap_stack(x, layout, fill)
        if sequential:
            folded = None if is_bf16(element) else accumulate_taps(uf, start, taps)
            x = fold_taps(step, start, taps) if folded is None else folded
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


def accumulate_taps(uf: np.ufunc, init: Array, taps: Array) -> Array | None:
    """`fold_taps` of an f32/f64 add or multiply in a few array operations, or None.

    `uf.accumulate` along the taps is a strictly sequential fold (acc = uf(acc, tap), rounded
    in the dtype at every step; numpy's pairwise order is only for `reduce`), so every partial
    result of the step-by-step fold is among its outputs. Where none is denormal, flushing
    every step changes nothing and the last partial result is the fold's; otherwise (None) the
    caller folds step by step, flushing as XLA:CPU does."""
    acc = np.concatenate([expand(init, taps.shape[:-1])[..., None], taps], axis=-1)
    partial = uf.accumulate(acc, axis=-1, dtype=taps.dtype)
    tiny = smallest_normal(partial.dtype)
    small = np.abs(partial) < tiny if tiny is not None else np.zeros(partial.shape, bool)
    if small.any() and bool((partial[small] != 0).any()):
        return None
    return partial[..., -1]


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
