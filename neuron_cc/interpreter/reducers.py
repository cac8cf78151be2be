"""Applying reduction regions (`to_apply`) to device-stacked arrays.

A region that is just `add`/`multiply`/`maximum`/`minimum`/`and`/`or`/`xor` of its two
arguments runs as the numpy ufunc; any other region is interpreted with whole arrays as its
arguments (elementwise region ops work on any shape), or element by element if it builds
values that cannot broadcast (e.g. constants).

Used by the collectives (all_reduce, reduce_scatter), which fold a group's values in rank
order. bf16: XLA:CPU's all-reduce promotion rewrites a bf16 all-reduce or reduce-scatter into
an f32 one between converts, so the sum over the group is computed in f32 and rounded to bf16
ONCE (measured with jax 0.10.2, 8 host devices, --xla_allow_excess_precision=false: 256 plus
seven 1.0 gives 264, not 256). A simple reducer therefore accumulates in float32 and the caller
rounds once at the end (`finish`); f16 is not promoted and rounds after every step, and a
general region rounds after every step (its own ops are bf16). The reduce and reduce_window
ops, unlike the collectives, round every bf16 step (see computation.py). Not reproduced: XLA's
promotion of a general bf16 region keeps only the region's root opcode (measured:
`maximum(add(a, b), add(a, b))` ran as `maximum(a, b)`).
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
