"""Interpreter of `hlo.fft`, on (D, ...) stacks, with numpy.fft.

The transform runs in c128/f64 (numpy's pocketfft) and is rounded once to the result type.
XLA:CPU runs DUCC's FFT in the operand's precision (c64 in f32), so c64/f32 results differ in
their last bits, by up to about log2(n) f32 ulps of the largest output magnitude; the tests
compare with a tolerance relative to that magnitude.

- FFT: `fftn` over the `len(fft_length)` minor dimensions (unnormalized); IFFT: `ifftn`
  (divided by the transform size).
- RFFT: `rfftn` with `s = fft_length`; IRFFT: `irfftn` with `s = fft_length` (the imaginary
  parts of the self-conjugate frequencies are ignored, as in XLA).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from neuron_cc.dialects.hlo.fft import FftOp, FftType
from neuron_cc.dialects.hlo.types import tensor_type
from neuron_cc.interpreter.values import normalize

Array = np.ndarray[Any, Any]


def fft(x: Array, kind: FftType, length: tuple[int, ...]) -> Array:
    """The transform of the minor `len(length)` dimensions of `x` in c128/f64."""
    axes = tuple(range(x.ndim - len(length), x.ndim))
    if any(n == 0 for n in length) or x.size == 0:
        return _empty(x, kind, length)
    if kind == FftType.FFT:
        return np.fft.fftn(x.astype(np.complex128), axes=axes)
    if kind == FftType.IFFT:
        return np.fft.ifftn(x.astype(np.complex128), axes=axes)
    if kind == FftType.RFFT:
        return np.fft.rfftn(x.astype(np.float64), s=length, axes=axes)
    return np.fft.irfftn(x.astype(np.complex128), s=length, axes=axes)


def _empty(x: Array, kind: FftType, length: tuple[int, ...]) -> Array:
    """The all-zero result of a transform with a zero-sized dimension."""
    shape = list(x.shape)
    if kind == FftType.RFFT and length[-1]:
        shape[-1] = length[-1] // 2 + 1
    elif kind == FftType.IRFFT:
        shape[-1] = length[-1]
    real = kind == FftType.IRFFT
    return np.zeros(shape, np.float64 if real else np.complex128)


@register_impls
class HloFftFunctions(InterpreterFunctions):
    """fft."""

    @impl(FftOp)
    def run_fft(self, interpreter: Interpreter, op: FftOp, args: PythonValues) -> PythonValues:
        element = tensor_type(op.result).element_type
        x = np.asarray(args[0])
        with np.errstate(all="ignore"):
            out = fft(x, op.fft_type.data, op.fft_length.data)
        return (normalize(np.ascontiguousarray(out), element),)
