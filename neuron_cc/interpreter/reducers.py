"""Applying reduction regions (`to_apply`) to device-stacked arrays.

A region that is just `add`/`multiply`/`maximum`/`minimum`/`and`/`or`/`xor` of its two
arguments runs as the numpy ufunc; any other region is interpreted with whole arrays as its
arguments (elementwise region ops work on any shape), or element by element if it builds
values that cannot broadcast (e.g. constants).

bf16: like XLA:CPU (whose all-reduce promotion and reduce precision handling accumulate bf16 in
f32), a simple reducer accumulates in float32 and the caller rounds ONCE at the end
(`finish`); a general region rounds after every step (its own ops are bf16).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter
from xdsl.ir import Attribute, Region

from neuron_cc.analysis.reductions import reduction_kind
from neuron_cc.interpreter.values import is_bf16, normalize

Array = np.ndarray[Any, Any]

_UFUNCS: dict[str, Callable[[Array, Array], Array]] = {
    "hlo.add": np.add,
    "hlo.multiply": np.multiply,
    "hlo.maximum": np.maximum,
    "hlo.minimum": np.minimum,
    "hlo.and": np.bitwise_and,
    "hlo.or": np.bitwise_or,
    "hlo.xor": np.bitwise_xor,
}


def finish(acc: Array, element: Attribute) -> Array:
    """Round an accumulated value to `element` (the single bf16 rounding of a fast fold)."""
    return normalize(acc, element)


def make_combiner(
    interpreter: Interpreter, region: Region, element: Attribute
) -> Callable[[Array, Array], Array]:
    """A function (acc, x) -> reduced; call `finish` on the final accumulator."""
    name = reduction_kind(region)
    if name is not None:
        ufunc = _UFUNCS[name]
        keep_f32 = is_bf16(element)

        def fast(acc: Array, x: Array) -> Array:
            with np.errstate(all="ignore"):
                out = ufunc(acc, x)
            return out if keep_f32 else normalize(out, element)

        return fast

    def general(acc: Array, x: Array) -> Array:
        try:
            (out,) = interpreter.run_ssacfg_region(region, (acc, x), "reducer")
            return normalize(np.broadcast_to(out, acc.shape).copy(), element)
        except ValueError:
            return _elementwise(interpreter, region, element, acc, x)

    return general


def _elementwise(
    interpreter: Interpreter, region: Region, element: Attribute, acc: Array, x: Array
) -> Array:
    """Fallback: run the region once per element (arguments of shape (D,))."""
    devices = acc.shape[0]
    a = acc.reshape(devices, -1)
    b = x.reshape(devices, -1)
    out = np.empty_like(a)
    for i in range(a.shape[1]):
        (value,) = interpreter.run_ssacfg_region(region, (a[:, i], b[:, i]), "reducer")
        out[:, i] = value
    return normalize(out.reshape(acc.shape), element)
