"""batch-norm-training/inference/grad, cholesky, triangular-solve and fft in neuron-run against
XLA:CPU (issue 17).

Seeded random cases per op (shapes and attributes varied, 2 replicas with different inputs)
run on XLA:CPU (excess precision off, as the oracle helpers run it) and on the interpreter.
Tolerances, relative to the largest magnitude of XLA's output (`OpCase.rtol`; 0 = bit for bit):
(measured worst cases: 2.2e-7 for f32/c64, 2.2e-16 for f64/c128)
- batch norm: f64 bit for bit; f32 1e-6. XLA:CPU's f32 rsqrt is the CPU's `rsqrtss` estimate
  refined by one Newton step (its bits depend on the processor; we use the correctly rounded
  1/sqrt), and its order for add-reduces that keep a non-minor dimension (e.g. dimensions
  {0,2,3} of a rank-4 operand) is not the row-major fold the interpreter's reduce models;
- cholesky / triangular-solve: 1e-6 for f32/c64, 1e-14 for f64; XLA's expanders run blocked
  algorithms with Eigen dots in the element type, we compute in f64 and round once (inputs are
  well conditioned: diagonally dominant);
- fft: 1e-6 for c64/f32, 1e-14 for c128/f64; XLA:CPU's DUCC FFT computes in the operand's
  precision, numpy's in f64.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from neuron_cc.testing.op_cases import (
    OpCase,
    interpret,
    op_case,
    shape_text,
    xla_differences,
)
from neuron_cc.testing.xla_run import XLA_UNAVAILABLE, xla_available

Array = np.ndarray[Any, Any]
DEVICES = 2
_NP: dict[str, Any] = {
    "f32": np.float32,
    "f64": np.float64,
    "c64": np.complex64,
    "c128": np.complex128,
}


def _values(rng: np.random.Generator, ty: str, dims: tuple[int, ...]) -> Array:
    shape = (DEVICES, *dims)
    x = rng.standard_normal(shape)
    if ty.startswith("c"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(_NP[ty])


# --- cases -----------------------------------------------------------------------------------

_BN_RTOL = 1e-6
_BN_SHAPES: list[tuple[int, ...]] = [(2, 3, 4, 5), (8, 3), (4, 40, 3), (7,), (3, 1, 5, 2), (64, 80)]


def batch_norm_cases(seed: int) -> list[OpCase]:
    rng = np.random.default_rng(seed)
    cases: list[OpCase] = []
    for n, dims in enumerate(_BN_SHAPES):
        ty = "f64" if n == 3 else "f32"
        fi = int(rng.integers(0, len(dims)))
        f = (dims[fi],)
        eps = ["0.001", "1e-05", "0.1"][n % 3]
        rtol = _BN_RTOL if ty == "f32" else 0.0
        x = _values(rng, ty, dims) * 3 + 1
        scale, offset = _values(rng, ty, f), _values(rng, ty, f)
        mean = _values(rng, ty, f)
        var = np.abs(_values(rng, ty, f)) + 0.5
        dy = _values(rng, ty, dims)
        attrs = f"epsilon={eps}, feature_index={fi}"
        tup = f"({shape_text(ty, dims)}, {shape_text(ty, f)}, {shape_text(ty, f)})"
        cases.append(
            op_case(
                f"batch_norm_training_{seed}_{n}",
                [(ty, dims), (ty, f), (ty, f)],
                f"t = {tup} batch-norm-training(p0, p1, p2), {attrs}",
                [x, scale, offset],
                rtol=rtol,
            )
        )
        cases.append(
            op_case(
                f"batch_norm_inference_{seed}_{n}",
                [(ty, dims), (ty, f), (ty, f), (ty, f), (ty, f)],
                f"t = {shape_text(ty, dims)} batch-norm-inference(p0, p1, p2, p3, p4), {attrs}",
                [x, scale, offset, mean, var],
                rtol=rtol,
            )
        )
        cases.append(
            op_case(
                f"batch_norm_grad_{seed}_{n}",
                [(ty, dims), (ty, f), (ty, f), (ty, f), (ty, dims)],
                f"t = {tup} batch-norm-grad(p0, p1, p2, p3, p4), {attrs}",
                [x, scale, mean, var, dy],
                rtol=rtol,
            )
        )
    return cases


def _spd(rng: np.random.Generator, ty: str, batch: tuple[int, ...], n: int) -> Array:
    """Well-conditioned Hermitian positive definite matrices."""
    m = _values(rng, ty, (*batch, n, n)).astype(np.complex128 if ty[0] == "c" else np.float64)
    spd = m @ np.conj(np.swapaxes(m, -1, -2)) + n * np.eye(n)
    return spd.astype(_NP[ty])


def _tol(ty: str) -> float:
    return 1e-6 if ty in ("f32", "c64") else 1e-14


def cholesky_cases(seed: int) -> list[OpCase]:
    rng = np.random.default_rng(seed)
    cases: list[OpCase] = []
    for n, (ty, batch, size) in enumerate(
        [("f32", (), 4), ("f32", (3,), 7), ("f64", (2,), 5), ("c64", (), 3), ("f32", (), 1)]
    ):
        lower = "true" if n % 2 == 0 else "false"
        dims = (*batch, size, size)
        a = _spd(rng, ty, batch, size)
        cases.append(
            op_case(
                f"cholesky_{seed}_{n}",
                [(ty, dims)],
                f"t = {shape_text(ty, dims)} cholesky(p0), lower={lower}",
                [a],
                rtol=_tol(ty),
            )
        )
    return cases


def triangular_solve_cases(seed: int) -> list[OpCase]:
    rng = np.random.default_rng(seed)
    cases: list[OpCase] = []
    transposes = ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"]
    for n in range(12):
        ty = ["f32", "f64", "c64"][n % 3] if n < 9 else "f32"
        left, lower, unit = n % 2 == 0, n % 4 < 2, n % 5 == 0
        size, other = 1 + n % 5, 1 + (n * 7) % 4
        batch = (2,) if n % 3 == 1 else ()
        a = _values(rng, ty, (*batch, size, size))
        a = a + 4 * np.eye(size).astype(a.dtype)
        b_dims = (*batch, size, other) if left else (*batch, other, size)
        b = _values(rng, ty, b_dims)
        flags = "".join(
            f"{k}=true, "
            for k, v in (("left_side", left), ("lower", lower), ("unit_diagonal", unit))
            if v
        )
        root = (
            f"t = {shape_text(ty, b_dims)} triangular-solve(p0, p1), "
            f"{flags}transpose_a={transposes[n % 3 if n < 9 else n - 9]}"
        )
        dims = (*batch, size, size)
        cases.append(
            op_case(
                f"triangular_solve_{seed}_{n}",
                [(ty, dims), (ty, b_dims)],
                root,
                [a, b],
                rtol=_tol(ty),
            )
        )
    return cases


def fft_cases(seed: int) -> list[OpCase]:
    rng = np.random.default_rng(seed)
    cases: list[OpCase] = []
    specs: list[tuple[str, str, tuple[int, ...], tuple[int, ...]]] = [
        ("FFT", "c64", (3, 8), (8,)),
        ("FFT", "c128", (2, 5, 6), (5, 6)),
        ("IFFT", "c64", (4, 4, 3), (4, 4, 3)),
        ("IFFT", "c128", (7,), (7,)),
        ("RFFT", "f32", (2, 16), (16,)),
        ("RFFT", "f64", (3, 6, 5), (6, 5)),
        ("IRFFT", "c64", (2, 9), (16,)),
        ("IRFFT", "c128", (4, 3, 4), (3, 7)),
        ("IRFFT", "c64", (5, 4, 2, 3), (4, 2, 4)),
    ]
    results = {"c64": "c64", "c128": "c128", "f32": "c64", "f64": "c128"}
    reals = {"c64": "f32", "c128": "f64"}
    for n, (kind, ty, dims, length) in enumerate(specs):
        out = list(dims)
        out_ty = results[ty]
        if kind == "RFFT":
            out[-1] = length[-1] // 2 + 1
        if kind == "IRFFT":
            out[-1], out_ty = length[-1], reals[ty]
        lengths = "{" + ",".join(map(str, length)) + "}"
        root = f"t = {shape_text(out_ty, out)} fft(p0), fft_type={kind}, fft_length={lengths}"
        tol = _tol(ty)
        cases.append(
            op_case(f"fft_{seed}_{n}", [(ty, dims)], root, [_values(rng, ty, dims)], rtol=tol)
        )
    return cases


def all_cases() -> list[OpCase]:
    cases: list[OpCase] = []
    for seed in (1, 2):
        cases += batch_norm_cases(seed) + cholesky_cases(seed)
        cases += triangular_solve_cases(seed) + fft_cases(seed)
    return cases


CASES = all_cases()


def test_cases_vary_their_attributes() -> None:
    text = "\n".join(c.hlo for c in CASES)
    for needle in (
        "feature_index=0",
        "feature_index=1",
        "lower=true",
        "left_side=true",
        "unit_diagonal=true",
        "transpose_a=ADJOINT",
        "transpose_a=TRANSPOSE",
        "fft_type=IRFFT",
        "fft_type=RFFT",
        "fft_type=IFFT",
        "c128[",
    ):
        assert needle in text, needle


def test_small_examples() -> None:
    """Hand-checked values: a 2x2 Cholesky, a 2x2 lower solve and a 4-point FFT."""
    a = np.array([[[4.0, 0.0], [2.0, 5.0]]] * DEVICES, np.float32)
    chol = op_case("c", [("f32", (2, 2))], "t = f32[2,2] cholesky(p0), lower=true", [a])
    assert interpret(chol)[0][0].tolist() == [[2.0, 0.0], [1.0, 2.0]]
    b = np.array([[[2.0], [7.0]]] * DEVICES, np.float32)
    root = "t = f32[2,1] triangular-solve(p0, p1), left_side=true, lower=true, transpose_a=NO_TRANSPOSE"
    solve = op_case("s", [("f32", (2, 2)), ("f32", (2, 1))], root, [a, b])
    assert interpret(solve)[0][0].tolist() == [[0.5], [1.2000000476837158]]
    x = np.array([[1, 0, 0, 0]] * DEVICES, np.complex64)
    f = op_case("f", [("c64", (4,))], "t = c64[4] fft(p0), fft_type=FFT, fft_length={4}", [x])
    assert interpret(f)[0][0].tolist() == [1, 1, 1, 1]


def test_batch_norm_inference_formula() -> None:
    case = next(c for c in CASES if c.name.startswith("batch_norm_inference_1_0"))
    x, scale, offset, mean, var = (v[0].astype(np.float64) for v in case.inputs)
    fi = int(case.hlo.split("feature_index=")[1].split()[0])
    shape = [1] * x.ndim
    shape[fi] = -1
    scale, offset, mean, var = (v.reshape(shape) for v in (scale, offset, mean, var))
    got = interpret(case)[0][0]
    want = (x - mean) / np.sqrt(var + 1e-3) * scale + offset
    assert np.allclose(got, want, rtol=1e-5, atol=1e-5)


def test_cholesky_not_positive_definite_is_nan() -> None:
    a = np.array([[[1.0, 0.0], [0.0, -1.0]]] * DEVICES, np.float32)
    case = op_case("c", [("f32", (2, 2))], "t = f32[2,2] cholesky(p0), lower=true", [a])
    assert np.isnan(interpret(case)[0]).all()


@pytest.mark.parametrize(
    "op",
    [
        "batch_norm_training",
        "batch_norm_inference",
        "batch_norm_grad",
        "cholesky",
        "triangular_solve",
        "fft",
    ],
)
def test_matches_xla(op: str) -> None:
    if not xla_available():
        pytest.skip(XLA_UNAVAILABLE)
    cases = [c for c in CASES if c.name.startswith(op + "_")]
    problems = xla_differences(cases)
    assert not problems, "\n".join(problems)
