"""Literals of every element type survive a round trip through XLA's parser (issue 17 item 3).

Per type, one constant holding every value of the type (all bit patterns of the <= 8-bit
floats, a spread of bf16/f16 values with denormals and the extremes, every narrow integer,
complex values with infinities and NaN parts) goes: our import -> our export -> XLA's parser
and verifier -> XLA's reprint -> our import -> the interpreter, and must give the values of
the type (`ml_dtypes`/numpy), bit for bit for non-NaN values; a NaN must stay a NaN. XLA
prints a NaN as `nan` (or `-nan`) without its payload, so payload bits are not compared; and
XLA reprints a complex whose real part is NaN as `(nan, nan)` (measured with jax 0.10.2: our
`(nan, 0)` comes back `(nan, nan)`), so there the imaginary part is not compared either.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from neuron_cc.dialects.hlo.dtypes import exact_dtype_of_name
from neuron_cc.dialects.hlo.types import NARROW_FLOATS
from neuron_cc.interpreter.runner import run_module
from neuron_cc.testing.xla_run import XLA_UNAVAILABLE, XlaParse, parse_xla, xla_available
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo

Array = np.ndarray[Any, Any]

INTS = {"s1": (-1, 0), "s2": (-2, 1), "s4": (-8, 7), "u1": (0, 1), "u2": (0, 3), "u4": (0, 15)}
FLOAT_TYPES = ("bf16", "f16", *sorted(NARROW_FLOATS))
COMPLEX = ("c64", "c128")


def _float_values(name: str) -> Array:
    """Every value of a <= 8-bit float type; for bf16/f16 a spread with the edge values."""
    dtype = exact_dtype_of_name(name)
    if dtype.itemsize == 1:
        bits = np.arange(1 << (8 if name.startswith("f8") else int(name[1])), dtype=np.uint8)
        return bits.view(dtype)
    info = np.finfo(dtype)
    picks = [0.0, -0.0, 1.0, -1.5, float(info.max), float(-info.max), float(info.tiny)]
    picks += [float(info.smallest_subnormal), -float(info.smallest_subnormal), np.inf, -np.inf]
    picks += [np.nan, 0.1, 1e-3, 3.140625]
    return np.array(picks, np.float32).astype(dtype)


def _literal(value: Any, name: str) -> str:
    if name in COMPLEX:
        return f"({_literal(value.real, 'f64')}, {_literal(value.imag, 'f64')})"
    if name in INTS:
        return str(int(value))
    f = float(value)
    if np.isnan(f):
        return "-nan" if np.signbit(f) else "nan"
    if np.isinf(f):
        return "-inf" if f < 0 else "inf"
    return repr(f)


def _values(name: str) -> Array:
    if name in INTS:
        low, high = INTS[name]
        return np.arange(low, high + 1).astype(exact_dtype_of_name(name))
    if name in COMPLEX:
        parts = [0.0, -2.5, 1e-30, np.inf, -np.inf, np.nan, 3.0e38]
        return np.array([complex(a, b) for a in parts for b in parts], exact_dtype_of_name(name))
    return _float_values(name)


CHUNK = 8
"""Values per constant: XLA prints a constant of more than 10 elements as `{...}`."""


def _module(name: str) -> str:
    values = _values(name)
    chunks = [values[i : i + CHUNK] for i in range(0, len(values), CHUNK)]
    lines = [
        f"  c{k} = {name}[{len(chunk)}]{{0}} constant({{{', '.join(_literal(v, name) for v in chunk)}}})"
        for k, chunk in enumerate(chunks)
    ]
    shapes = ", ".join(f"{name}[{len(chunk)}]{{0}}" for chunk in chunks)
    refs = ", ".join(f"c{k}" for k in range(len(chunks)))
    return (
        f"HloModule literal_{name}\n\nENTRY main {{\n"
        + "\n".join(lines)
        + f"\n  ROOT t = ({shapes}) tuple({refs})\n}}\n"
    )


ALL = (*FLOAT_TYPES, *INTS, *COMPLEX)


@pytest.fixture(scope="module")
def reprints() -> dict[str, tuple[str, XlaParse]]:
    """Our export of each type's module and XLA's parse (one batch for every type)."""
    if not xla_available():
        pytest.skip(XLA_UNAVAILABLE)
    exports = {name: export_hlo(import_hlo(_module(name), name)) for name in ALL}
    parsed = parse_xla([exports[name] for name in ALL])
    return {name: (exports[name], p) for name, p in zip(ALL, parsed, strict=True)}


def _bits(a: Array, name: str) -> Array:
    """Comparable storage: exact-type bits for floats (NaN -> one pattern), values otherwise."""
    if name in COMPLEX:
        return np.stack([_bits(a.real, "f64"), _bits(a.imag, "f64")])
    if name in INTS:
        return a.astype(np.int64)
    exact = np.asarray(a).astype(exact_dtype_of_name(name) if name != "f64" else np.float64)
    nan = np.isnan(exact.astype(np.float64))
    unsigned = {1: np.uint8, 2: np.uint16, 8: np.uint64}[exact.dtype.itemsize]
    bits = exact.view(unsigned).astype(np.int64)
    return np.where(nan, -1, bits)


def _run(text: str, name: str) -> Array:
    """The module's constants, concatenated (device 0)."""
    outs = run_module(import_hlo(text, name), []).outputs
    return np.concatenate([np.asarray(o)[0] for o in outs])


@pytest.mark.parametrize("name", ALL)
def test_our_literals_read_what_they_wrote(name: str) -> None:
    """Without XLA: our export of the literal reads back to the same values."""
    module = import_hlo(_module(name), name)
    again = export_hlo(module)
    assert export_hlo(import_hlo(again, name)) == again
    np.testing.assert_array_equal(_bits(_run(again, name), name), _bits(_values(name), name))


@pytest.mark.parametrize("name", ALL)
def test_literals_survive_xla_parser_round_trip(
    name: str, reprints: dict[str, tuple[str, XlaParse]]
) -> None:
    exported, parsed = reprints[name]
    assert parsed.ok, parsed.message
    assert "{...}" not in parsed.text
    got = _run(parsed.text, name)
    want = _values(name)
    if name in COMPLEX:  # XLA: (nan, x) -> (nan, nan)
        want = np.where(np.isnan(want.real), complex(np.nan, np.nan), want)
    np.testing.assert_array_equal(_bits(got, name), _bits(want, name))
    assert (_bits(_run(exported, name), name) == _bits(_values(name), name)).all()
