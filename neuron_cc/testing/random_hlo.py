"""Random valid HLO modules and their numpy reference (issue 15, item 2).

`random_program(seed, mesh)` writes an HLO text module of ~5-40 instructions for a mesh of R
replicas x P partitions ((1, 8), (2, 4) or (8, 1)): elementwise ops, data movement, dot,
reduce, every collective in every group mode (explicit, iota and empty replica groups,
variadic and mixed-dtype operands), replica-id / partition-id feeding dynamic-slice offsets,
and while loops shaped like JAX scans with accumulators `acc + all-reduce(x)` and their near
misses; element types f32, bf16, s32 (pred, u32 where natural). It is independent of the
pass-oriented generators (neuron_cc.testing.generate*), and written from XLA's semantics.

`RandomProgram.reference(inputs)` evaluates the text with numpy (random_hlo_reference:
bf16 rounded after every op, reductions in index / rank order, 32-bit wraparound, clamped
dynamic indices), to arbitrate when the interpreter and XLA:CPU disagree.
`random_program_inputs(program, seed)` draws inputs within the ranges the generator's bounds
assume (see random_hlo_gen). `compare_outputs` is the agreed comparison (f32 within 1e-5
relative, everything else exact). random_hlo_forms.xla_text gives the text XLA:CPU can run on
R x P devices, random_hlo_xla runs it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from neuron_cc.testing import random_hlo_collgen as C
from neuron_cc.testing import random_hlo_moves as M
from neuron_cc.testing.random_hlo_gen import NUMERIC, TRIP_PARAM_MAX, Gen
from neuron_cc.testing.random_hlo_loops import Move, make_move_while
from neuron_cc.testing.random_hlo_reference import evaluate, parsed

Array = np.ndarray[Any, Any]

MESHES: tuple[tuple[int, int], ...] = ((1, 8), (2, 4), (8, 1))


@dataclass(frozen=True)
class RandomProgram:
    text: str
    """HLO text: `HloModule name, replica_count=R, num_partitions=P`, computations, ENTRY."""
    replicas: int
    partitions: int
    features: frozenset[str]

    def reference(self, inputs: Sequence[Array]) -> list[Array]:
        """The numpy reference outputs: one array per ROOT tuple leaf, device axis first.

        `inputs`: one array per ENTRY parameter with a leading device axis of R*P (device
        d = replica d // P, partition d % P); bf16 as float32 holding bf16 values or as
        ml_dtypes.bfloat16. bf16 outputs are float32 holding bf16 values.
        """
        return evaluate(self.text, inputs)


BODY_MOVES: list[tuple[Move, float]] = [
    (M.move_binary, 6.0),
    (M.move_unary, 1.5),
    (M.move_compare_select, 2.5),
    (M.move_convert, 2.5),
    (M.move_broadcast, 1.5),
    (M.move_reshape, 1.5),
    (M.move_transpose, 1.0),
    (M.move_slice, 1.5),
    (M.move_concatenate, 1.0),
    (M.move_dynamic_slice, 1.5),
    (M.move_dynamic_update_slice, 1.0),
    (M.move_dot, 1.5),
    (M.move_reduce, 2.0),
    (M.move_iota, 0.4),
    (M.move_constant, 0.4),
    (M.move_slice_by_id, 1.5),
    (M.move_s32_wrap, 0.2),
    (M.move_pred_logic, 0.4),
    (C.move_all_reduce, 3.0),
    (C.move_all_gather, 1.5),
    (C.move_reduce_scatter, 1.5),
    (C.move_all_to_all, 1.5),
    (C.move_collective_permute, 1.5),
]
MOVES: list[tuple[Move, float]] = [*BODY_MOVES, (make_move_while(BODY_MOVES), 1.2)]


def _parameters(g: Gen) -> None:
    for _ in range(g.rng.randint(1, 4)):
        dtype = g.rng.choices(NUMERIC, (0.45, 0.25, 0.3))[0]
        g.parameter(dtype, g.random_shape(max_rank=3, max_size=64))


def _weights(g: Gen) -> list[float]:
    """The move weights of one program: one or two favourite moves weigh 5x."""
    favourites = set(g.rng.sample(range(len(MOVES)), g.rng.randint(1, 2)))
    return [w * (5.0 if i in favourites else 1.0) for i, (_, w) in enumerate(MOVES)]


def random_program(seed: int, mesh: tuple[int, int] | None = None) -> RandomProgram:
    """A random valid HLO module (deterministic in `seed`; mesh (R, P) drawn when None)."""
    if mesh is None:
        mesh = random.Random(seed * 7919 + 1).choice(MESHES)
    g = Gen(seed, mesh)
    _parameters(g)
    target = g.rng.randint(4, 30)
    funcs = [m for m, _ in MOVES]
    weights = _weights(g)
    for _ in range(400):
        if g.count >= target:
            break
        g.rng.choices(funcs, weights)[0](g)
    text = g.render(f"random_{seed}")
    g.features.add(f"mesh-{mesh[0]}x{mesh[1]}")
    return RandomProgram(text, mesh[0], mesh[1], frozenset(g.features))


def random_program_inputs(program: RandomProgram, seed: int) -> list[Array]:
    """Per-device inputs (leading device axis of R*P) for every ENTRY parameter.

    Floats (f32, bf16 as float32) are k/8 with |k| <= 32, s32 in [-8, 8], pred random; a loop
    bound parameter (`trip.N`) is in [0, 4] and the same on every device.
    """
    rng = np.random.default_rng(seed)
    devices = program.replicas * program.partitions
    arrays: list[Array] = []
    for param in parsed(program.text).entry_computation.parameters():
        t = param.type.array
        shape = (devices, *t.shape)
        if param.name.startswith("trip."):
            value = int(rng.integers(0, TRIP_PARAM_MAX + 1))
            arrays.append(np.full(shape, value, dtype=np.int32))
        elif t.dtype in ("f32", "bf16"):
            arrays.append((rng.integers(-32, 33, size=shape) / 8).astype(np.float32))
        elif t.dtype == "s32":
            arrays.append(rng.integers(-8, 9, size=shape).astype(np.int32))
        else:
            arrays.append(rng.random(shape) < 0.5)
    return arrays


def output_types(program: RandomProgram) -> list[str]:
    """The element type of every output leaf (`f32`, `bf16`, `s32`, `pred`, `u32`)."""
    root = parsed(program.text).entry_computation.root
    return [leaf.dtype for leaf in root.type.leaves]


def parameter_types(program: RandomProgram) -> list[str]:
    return [p.type.array.dtype for p in parsed(program.text).entry_computation.parameters()]


def compare_outputs(
    expected: Sequence[Array], actual: Sequence[Any], types: Sequence[str], rtol: float = 1e-5
) -> list[str]:
    """Why `actual` differs from `expected` (one message per differing output; [] if equal).

    f32 within `rtol` relative (an absolute slack of rtol for values near 0); bf16 (compared
    as float32), integers and pred exactly. Shapes include the device axis.
    """
    if len(expected) != len(actual):
        return [f"{len(actual)} outputs, expected {len(expected)}"]
    problems: list[str] = []
    for j, (e, a, t) in enumerate(zip(expected, actual, types, strict=True)):
        e_arr = np.asarray(e)
        a_arr = np.asarray(a).astype(e_arr.dtype) if t == "bf16" else np.asarray(a)
        problem = _difference(e_arr, a_arr, t, rtol)
        if problem:
            problems.append(f"output {j} ({t}): {problem}")
    return problems


def _difference(e: Array, a: Array, dtype: str, rtol: float) -> str:
    if e.shape != a.shape:
        return f"shape {a.shape}, expected {e.shape}"
    if dtype == "f32":
        same = np.isclose(a.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=rtol)
        same |= np.isnan(a) & np.isnan(e)
    else:
        same = (a == e) | (np.isnan(a) & np.isnan(e)) if e.dtype.kind == "f" else a == e
    if bool(np.all(same)):
        return ""
    bad = np.argwhere(~same)
    first = tuple(int(i) for i in bad[0])
    return f"{len(bad)} elements differ, first at {first}: got {a[first]!r}, expected {e[first]!r}"
