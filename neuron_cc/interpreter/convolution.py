"""XLA's convolution on (D, ...) stacks (the interpreter of `hlo.convolution`).

The input is brought to (D, batch, feature, spatial...) and the kernel to (D, out, in,
spatial...); base dilation inserts zeros, padding pads with zeros (negative padding crops),
window dilation spreads the kernel taps and `window_reversal` flips them. Every kernel tap
adds one strided slice of the input contracted over the features of its group.

Precision: floats accumulate in float64 and round once to the result type; XLA:CPU
accumulates in the element type (f32, bf16 through f32) in Eigen's order, so float results
agree to a few ulps, not bit for bit (tests/test_interp_convolution.py: 1e-5 relative to the
output's largest magnitude). Integers accumulate in int64 and wrap to the result type, exactly.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from neuron_cc.dialects.hlo.convolution import ConvDims
from neuron_cc.dialects.hlo.dimension_numbers import Window
from neuron_cc.interpreter.conversions import flush_denormals

Array = np.ndarray[Any, Any]


def _dilate(x: Array, axis: int, factor: int) -> Array:
    if factor == 1 or x.shape[axis] == 0:
        return x
    shape = list(x.shape)
    shape[axis] = (shape[axis] - 1) * factor + 1
    out = np.zeros(shape, x.dtype)
    index: list[slice] = [slice(None)] * x.ndim
    index[axis] = slice(None, None, factor)
    out[tuple(index)] = x
    return out


def _pad(x: Array, axis: int, lo: int, hi: int) -> Array:
    index: list[slice] = [slice(None)] * x.ndim
    index[axis] = slice(max(-lo, 0), x.shape[axis] - max(-hi, 0))
    x = x[tuple(index)]
    widths = [(0, 0)] * x.ndim
    widths[axis] = (max(lo, 0), max(hi, 0))
    return np.pad(x, widths)


def _input(lhs: Array, d: ConvDims, window: Window) -> Array:
    """(D, batch, feature, spatial...) base-dilated and padded."""
    x = np.transpose(
        lhs, [0, 1 + d.input_batch, 1 + d.input_feature, *(1 + s for s in d.input_spatial)]
    )
    for k in range(len(d.input_spatial)):
        x = _pad(_dilate(x, 3 + k, window.base_dilation[k]), 3 + k, *window.padding[k])
    return x


def convolution(
    lhs: Array,
    rhs: Array,
    d: ConvDims,
    window: Window,
    groups: tuple[int, int],
    reversal: tuple[int, ...],
    out_dtype: np.dtype[Any],
) -> Array:
    """The convolution of (D, ...) stacks `lhs` and `rhs`, laid out as the output labels say."""
    feature_groups, batch_groups = groups
    compute = np.dtype(np.float64) if out_dtype.kind == "f" else np.dtype(np.int64)
    x = _input(flush_denormals(lhs), d, window).astype(compute)
    w = np.transpose(
        flush_denormals(rhs),
        [
            0,
            1 + d.kernel_output_feature,
            1 + d.kernel_input_feature,
            *(1 + s for s in d.kernel_spatial),
        ],
    ).astype(compute)
    for k, flip in enumerate(reversal):
        if flip:
            w = np.flip(w, 3 + k)
    devices, batch, features = x.shape[:3]
    out_features = w.shape[1]
    rank = len(d.input_spatial)
    extents = [(window.size[k] - 1) * window.window_dilation[k] + 1 for k in range(rank)]
    sizes = [
        (x.shape[3 + k] - extents[k]) // window.stride[k] + 1 if x.shape[3 + k] >= extents[k] else 0
        for k in range(rank)
    ]
    g, bg = feature_groups, batch_groups
    out = np.zeros((devices, batch // bg, bg, out_features // bg, *sizes), compute)
    xg = x.reshape(devices, bg, batch // bg, g, features // g, *x.shape[3:])
    wg = w.reshape(devices, bg * g, out_features // (bg * g), features // g, *w.shape[3:])
    taps = itertools.product(*(range(s) for s in window.size)) if 0 not in sizes else ()
    for tap in taps:
        index = [slice(None)] * 5
        for k, t in enumerate(tap):
            start = t * window.window_dilation[k]
            index.append(
                slice(start, start + (sizes[k] - 1) * window.stride[k] + 1, window.stride[k])
            )
        xs = xg[tuple(index)]  # (D, bg, nb, g, i, *sizes)
        ws = wg[(slice(None),) * 4 + tuple(tap)]  # (D, bg*g, og, i)
        if bg > 1:
            ws = ws.reshape(devices, bg, -1, features)
            part = np.einsum("dbni...,dboi->dnbo...", xs[:, :, :, 0], ws)
        else:
            ws = ws.reshape(devices, g, -1, features // g)
            part = np.einsum("dngi...,dgoi->dngo...", xs[:, 0], ws)
        out += part.reshape(out.shape)
    out = out.reshape(devices, batch // bg, out_features, *sizes)
    canonical = [d.output_batch, d.output_feature, *d.output_spatial]
    axes = [0] + [1 + canonical.index(r) for r in range(rank + 2)]
    result = np.transpose(out, axes)
    if out_dtype.kind == "f":
        return flush_denormals(result.astype(out_dtype))
    return result.astype(out_dtype)
