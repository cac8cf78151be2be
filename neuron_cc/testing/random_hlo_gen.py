"""The state of one random program being generated: values, bounds, emission (random_hlo).

Every value carries a static bound: |x| <= `bound` and x is a multiple of 2**-`grid`. Inputs
are k/8 with |k| <= 32 (floats) and |k| <= 8 (s32), so an f32 value whose bound * 2**grid stays
below 2**24 is computed exactly whatever the order of a reduction, and an s32 value below 2**30
cannot overflow. Generators only emit arithmetic that keeps these guarantees (`representable`),
except the deliberate wraparound of `wrapped` s32 values; so the outputs of a program do not
depend on the evaluation order except through bf16 rounding, whose order the reference defines.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

FLOAT_INPUT = (4.0, 3)
"""Float inputs: multiples of 1/8 (grid 3) in [-4, 4]."""
INT_INPUT = 8
"""s32 inputs are in [-8, 8]."""
TRIP_PARAM_MAX = 4
"""Loop-bound parameters (named trip.N) are in [0, 4], the same on every device."""
TRIP_CONST_MAX = 5
MAX_ELEMENTS = 256
NUMERIC = ("f32", "bf16", "s32")
INT32_WRAP = float(2**31)


@dataclass(frozen=True)
class Val:
    name: str
    dtype: str
    shape: tuple[int, ...]
    bound: float = 0.0
    """|x| <= bound on every device."""
    grid: int = 0
    """x is a multiple of 2**-grid."""
    wrapped: bool = False
    """An s32 value that may have wrapped around (its bound says nothing)."""

    @property
    def type(self) -> str:
        return f"{self.dtype}[{','.join(map(str, self.shape))}]"

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def rank(self) -> int:
        return len(self.shape)


def representable(dtype: str, bound: float, grid: int) -> bool:
    """Can arithmetic producing a value of this bound stay exact (f32) / not overflow?"""
    if dtype == "f32":
        return bound * 2.0**grid < 2.0**24 and grid <= 40
    if dtype == "bf16":
        return bound < 2.0**60
    if dtype == "s32":
        return bound < 2.0**30
    return True


def accumulation_exact(bound: float, grid: int) -> bool:
    """Is an f32 accumulation of values on this grid up to this bound exact (order-free)?"""
    return bound * 2.0**grid < 2.0**24 and grid <= 40


def rounded(dtype: str, bound: float) -> float:
    """The bound after rounding to `dtype` (bf16 rounding can grow |x| by 2**-8)."""
    return bound * (1 + 2.0**-7) if dtype == "bf16" else bound


def literal(dtype: str, value: float) -> str:
    if dtype == "pred":
        return "true" if value else "false"
    if dtype in ("s32", "u32"):
        return str(int(value))
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(float(value)).removesuffix(".0")


@dataclass
class Scope:
    """One computation being written: its instruction lines and the values it can use."""

    lines: list[str] = field(default_factory=list[str])
    pool: list[Val] = field(default_factory=list[Val])
    in_loop: bool = False


class Gen:
    def __init__(self, seed: int, mesh: tuple[int, int]) -> None:
        self.rng = random.Random(seed)
        self.replicas, self.partitions = mesh
        self.devices = self.replicas * self.partitions
        self.features: set[str] = set()
        self.computations: list[str] = []
        self.reducers: dict[tuple[str, str], str] = {}
        self.params: list[Val] = []
        self.entry = Scope()
        self.scope = self.entry
        self.used: set[str] = set()
        self.count = 0
        self._names = 0
        self._channels = 0

    # --- names and emission ---------------------------------------------------------------

    def name(self, hint: str) -> str:
        self._names += 1
        return f"{hint}.{self._names}"

    def channel(self) -> int:
        self._channels += 1
        return self._channels

    def emit(
        self,
        opcode: str,
        operands: Sequence[Val],
        dtype: str,
        shape: Sequence[int],
        attrs: str = "",
        *,
        bound: float = 0.0,
        grid: int = 0,
        wrapped: bool = False,
        inside: str | None = None,
        pool: bool = True,
    ) -> Val:
        """Append `name = type opcode(operands), attrs` to the current computation."""
        v = Val(self.name(opcode), dtype, tuple(shape), bound, grid, wrapped)
        args = inside if inside is not None else ", ".join(o.name for o in operands)
        self.used.update(o.name for o in operands)
        tail = f", {attrs}" if attrs else ""
        self.scope.lines.append(f"  {v.name} = {v.type} {opcode}({args}){tail}")
        self.count += 1
        self.features.add(opcode)
        if dtype in ("bf16", "s32", "f32", "pred"):
            self.features.add(dtype)
        if pool:
            self.scope.pool.append(v)
        return v

    def emit_like(
        self, opcode: str, operands: Sequence[Val], like: Val, attrs: str = "", pool: bool = False
    ) -> Val:
        """`emit` with the type and bounds of `like`."""
        return self.emit(
            opcode,
            operands,
            like.dtype,
            like.shape,
            attrs,
            bound=like.bound,
            grid=like.grid,
            wrapped=like.wrapped,
            pool=pool,
        )

    def emit_tuple_op(
        self, opcode: str, operands: Sequence[Val], results: Sequence[Val], attrs: str
    ) -> list[Val]:
        """A tuple-shaped op (variadic collective) and one get-tuple-element per result.

        `results` give the dtype / shape / bound of each element (their names are ignored).
        """
        name = self.name(opcode)
        types = ", ".join(r.type for r in results)
        args = ", ".join(o.name for o in operands)
        self.used.update(o.name for o in operands)
        self.scope.lines.append(f"  {name} = ({types}) {opcode}({args}), {attrs}")
        self.count += 1
        self.features.add(opcode)
        whole = Val(name, "tuple", ())
        return [self.gte(whole, i, r) for i, r in enumerate(results)]

    def gte(self, whole: Val, index: int, like: Val, pool: bool = True) -> Val:
        return self.emit_like("get-tuple-element", [whole], like, f"index={index}", pool)

    def constant(self, dtype: str, value: float, pool: bool = False) -> Val:
        bound = abs(value) if math.isfinite(value) else 0.0
        return self.emit(
            "constant",
            [],
            dtype,
            (),
            inside=literal(dtype, value),
            bound=bound,
            grid=self.grid_of(value),
            pool=pool,
        )

    def splat(self, dtype: str, shape: Sequence[int], value: float, pool: bool = False) -> Val:
        """A constant broadcast to `shape` (the constant itself when `shape` is scalar)."""
        c = self.constant(dtype, value, pool=pool and not shape)
        if not shape:
            return c
        return self.emit(
            "broadcast", [c], dtype, shape, "dimensions={}", bound=c.bound, grid=c.grid, pool=pool
        )

    @staticmethod
    def grid_of(value: float) -> int:
        if not math.isfinite(value) or value == int(value):
            return 0
        return next(g for g in range(1, 40) if (value * 2**g) == int(value * 2**g))

    def small_constant(self, dtype: str) -> float:
        """A constant for arithmetic: quarters in [-2, 2] (integers for s32)."""
        if dtype == "s32":
            return float(self.rng.randint(-3, 3))
        return self.rng.randint(-8, 8) / 4

    # --- parameters -----------------------------------------------------------------------

    def parameter(self, dtype: str, shape: Sequence[int], hint: str = "arg") -> Val:
        if dtype == "s32" and hint == "trip":
            bound, grid = float(TRIP_PARAM_MAX), 0
        elif dtype == "s32":
            bound, grid = float(INT_INPUT), 0
        else:
            bound, grid = FLOAT_INPUT
        v = Val(self.name(hint), dtype, tuple(shape), bound, grid)
        self.params.append(v)
        self.features.add(dtype)
        if hint != "trip":
            self.entry.pool.append(v)
        return v

    # --- choosing -------------------------------------------------------------------------

    def pick(self, ok: Callable[[Val], bool]) -> Val | None:
        """A value of the current scope accepted by `ok` (recent values more likely)."""
        candidates = [v for v in self.scope.pool if ok(v)]
        if not candidates:
            return None
        weights = [1.0 + i for i in range(len(candidates))]
        return self.rng.choices(candidates, weights)[0]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def random_shape(self, max_rank: int = 3, max_size: int = 64) -> tuple[int, ...]:
        while True:
            rank = self.rng.randint(0, max_rank)
            shape = tuple(self.rng.choice((1, 2, 2, 4, 4, 8)) for _ in range(rank))
            if math.prod(shape) <= max_size:
                return shape

    @contextmanager
    def in_scope(self, scope: Scope) -> Generator[Scope, None, None]:
        saved = self.scope
        self.scope = scope
        try:
            yield scope
        finally:
            self.scope = saved

    # --- helper computations --------------------------------------------------------------

    def reducer(self, kind: str, dtype: str) -> str:
        """The name of a `(T, T) -> T` computation applying `kind` (add, maximum, minimum)."""
        key = (kind, dtype)
        if key not in self.reducers:
            name = f"{kind}.{dtype}.red"
            self.reducers[key] = name
            self.computations.append(
                f"{name} {{\n"
                f"  lhs.{name} = {dtype}[] parameter(0)\n"
                f"  rhs.{name} = {dtype}[] parameter(1)\n"
                f"  ROOT out.{name} = {dtype}[] {kind}(lhs.{name}, rhs.{name})\n"
                "}\n"
            )
        return self.reducers[key]

    def sinks(self) -> list[Val]:
        """Entry values nothing uses: the program's outputs."""
        return [v for v in self.entry.pool if v.name not in self.used and v not in self.params]

    def render(self, name: str) -> str:
        outputs = self.sinks() or self.entry.pool[-1:]
        types = ", ".join(v.type for v in outputs)
        names = ", ".join(v.name for v in outputs)
        params = [f"  {p.name} = {p.type} parameter({i})" for i, p in enumerate(self.params)]
        root = f"  ROOT result = ({types}) tuple({names})"
        header = (
            f"HloModule {name}, replica_count={self.replicas}, num_partitions={self.partitions}"
        )
        entry = "\n".join(["ENTRY main {", *params, *self.entry.lines, root, "}"])
        return "\n\n".join([header, *[c.rstrip() for c in self.computations], entry]) + "\n"
