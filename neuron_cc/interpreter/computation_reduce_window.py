"""reduce_window for the interpreter of the hlo computation ops (`computation`).

A fold per output over its taps in `window_order` (`window_taps`, `reduce_window`), and prefix
scans computed as XLA's ReduceWindowRewriter rewrites them (`Scan`, `find_scan`, `scan_last`,
`scan_window`): rows of 16 scanned directly, the rows' carries scanned recursively.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from neuron_cc.dialects.hlo.dimension_numbers import Window, window_shape
from neuron_cc.interpreter.computation_reduce import WindowDim, window_order
from neuron_cc.interpreter.computation_regions import expand
from neuron_cc.interpreter.data_movement import along

Array = np.ndarray[Any, Any]
Shape = tuple[int, ...]

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
