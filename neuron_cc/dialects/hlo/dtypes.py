"""numpy dtypes of the hlo element types: the exact ones and the interpreter's storage ones.

`exact_dtype(t)` is the dtype whose values and bits are exactly those of element type `t`:
numpy's own for pred, s8..s64, u8..u64, f16, f32, f64, c64, c128, and `ml_dtypes` (the dtype
library JAX and XLA's Python bindings use, whose C++ is XLA's own float8/intN code) for the rest:
bf16, the FP8/FP6/FP4 types, s1/s2/s4 and u1/u2/u4. Rounding a value to `t` is
`x.astype(exact_dtype(t))`; the bits of a value are a view of that array as unsigned integers
(one byte per element for the sub-byte types, the low bits meaningful).

`storage_dtype(t)` is how the interpreter holds `t`: the exact dtype where numpy computes in it,
float32 for bf16 and the FP8/FP6/FP4 types (XLA:CPU computes their elementwise ops in f32 and
rounds the result to the type; every value of those types is exact in f32), int8 / uint8 for
s1..s4 / u1..u4 (wrapped to the width after every operation, `wrap_narrow_int`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.types import ELEMENT_TYPES, NARROW_FLOATS, element_type_name

_NUMPY_NAMES = {
    "pred": "bool",
    **{f"s{w}": f"int{w}" for w in (8, 16, 32, 64)},
    **{f"u{w}": f"uint{w}" for w in (8, 16, 32, 64)},
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "c64": "complex64",
    "c128": "complex128",
}

_ML_DTYPES: dict[str, str] = {
    "bf16": "bfloat16",
    "f8e5m2": "float8_e5m2",
    "f8e4m3": "float8_e4m3",
    "f8e4m3fn": "float8_e4m3fn",
    "f8e5m2fnuz": "float8_e5m2fnuz",
    "f8e4m3fnuz": "float8_e4m3fnuz",
    "f8e4m3b11fnuz": "float8_e4m3b11fnuz",
    "f8e3m4": "float8_e3m4",
    "f8e8m0fnu": "float8_e8m0fnu",
    "f6e2m3fn": "float6_e2m3fn",
    "f6e3m2fn": "float6_e3m2fn",
    "f4e2m1fn": "float4_e2m1fn",
    "s1": "int1",
    "s2": "int2",
    "s4": "int4",
    "u1": "uint1",
    "u2": "uint2",
    "u4": "uint4",
}
"""XLA element type name -> the `ml_dtypes` dtype of that name. `ml_dtypes` is imported on
first use: its import costs about a second, which a tool run on a module without these types
should not pay."""

_NUMPY_DTYPES: dict[str, np.dtype[Any]] = {
    name: np.dtype(numpy) for name, numpy in _NUMPY_NAMES.items()
}


@cache
def _ml_dtype(name: str) -> np.dtype[Any]:
    import ml_dtypes

    return np.dtype(getattr(ml_dtypes, _ML_DTYPES[name]))


def exact_dtype_of_name(name: str) -> np.dtype[Any]:
    """The exact dtype of the XLA element type called `name` (numpy's or ml_dtypes')."""
    numpy = _NUMPY_DTYPES.get(name)
    return numpy if numpy is not None else _ml_dtype(name)


_NARROW_INTS = {"s1": 1, "s2": 2, "s4": 4, "u1": 1, "u2": 2, "u4": 4}
_F32_STORED = frozenset({"bf16", *NARROW_FLOATS})


_NAMES: dict[Attribute, str] = {}
"""Supported element type -> its name, filled on first use (the interpreter asks for the
dtype of every operand of every op it runs: one dict lookup instead of the checks below)."""


def _name(element: Attribute) -> str:
    name = _NAMES.get(element)
    if name is not None:
        return name
    name = element_type_name(element)
    if (name not in _NUMPY_DTYPES and name not in _ML_DTYPES) or ELEMENT_TYPES.get(name) != element:
        raise ValueError(f"unsupported element type {element}")
    _NAMES[element] = name
    return name


def exact_dtype(element: Attribute) -> np.dtype[Any]:
    """The dtype holding exactly the values (and bits) of `element`."""
    return exact_dtype_of_name(_name(element))


_STORAGE: dict[Attribute, np.dtype[Any]] = {}


def storage_dtype(element: Attribute) -> np.dtype[Any]:
    """The interpreter's storage dtype of `element` (see the module docstring)."""
    dtype = _STORAGE.get(element)
    if dtype is None:
        dtype = _STORAGE[element] = _storage_dtype(_name(element))
    return dtype


def _storage_dtype(name: str) -> np.dtype[Any]:
    if name in _F32_STORED:
        return np.dtype(np.float32)
    if name in _NARROW_INTS:
        return np.dtype(np.uint8 if name[0] == "u" else np.int8)
    return exact_dtype_of_name(name)


def is_f32_stored(element: Attribute) -> bool:
    """True for the float types the interpreter stores as float32 and rounds (bf16, FP8...)."""
    return element_type_name(element) in _F32_STORED


def narrow_int_width(element: Attribute) -> int | None:
    """The bit width of s1..s4 / u1..u4 (None for other types)."""
    return _NARROW_INTS.get(element_type_name(element))


def bit_width(element: Attribute) -> int:
    """Bits of one element as XLA counts them (pred: 1, s4: 4, f8e4m3fn: 8, c64: 64)."""
    name = _name(element)
    if name == "pred":
        return 1
    if name in _NARROW_INTS:
        return _NARROW_INTS[name]
    bits = getattr(element, "bitwidth", None)
    if isinstance(bits, int):
        return bits
    return exact_dtype_of_name(name).itemsize * 8
