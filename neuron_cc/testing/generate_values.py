"""The value side of the general program generator (`neuron_cc.testing.generate`).

Its tensor and tuple types (`TensorT`, `TupleT`), the generated values with their magnitude
bounds (`Val`), the blocks being generated (`Scope`), the generator's limits (`BOUND`,
`MAX_ELEMENTS`, ...) and `ValueBuilder`: the base of `generate.Builder` that names and emits
values, draws shapes and types, makes leaf values (constants, iota, device ids), picks and
bounds pool operands, reshapes / broadcasts / converts them to a wanted type and writes reducer
regions. Text helpers shared by the builder's topics (`ints`, `divisors`, `factor`) live here
too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

MESHES: tuple[tuple[int, int], ...] = ((2, 4), (1, 8), (8, 1))
DTYPES = ("f32", "bf16", "i32")
FLOATS = ("f32", "bf16")
BOUND = 64.0
MAX_ELEMENTS = 32
MAX_DEPTH = 2

Draw = Callable[[st.SearchStrategy[Any]], Any]


# --- types and values ------------------------------------------------------------------------


@dataclass(frozen=True)
class TensorT:
    shape: tuple[int, ...]
    dtype: str

    def __str__(self) -> str:
        dims = "".join(f"{d}x" for d in self.shape)
        return f"tensor<{dims}{self.dtype}>"

    @property
    def is_float(self) -> bool:
        return self.dtype in FLOATS

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def with_shape(self, shape: Sequence[int]) -> TensorT:
        return TensorT(tuple(shape), self.dtype)

    def with_dtype(self, dtype: str) -> TensorT:
        return TensorT(self.shape, dtype)


@dataclass(frozen=True)
class TupleT:
    items: tuple[TensorT, ...]

    def __str__(self) -> str:
        return f"tuple<{', '.join(map(str, self.items))}>"


@dataclass
class Val:
    name: str
    type: TensorT
    mag: float
    uses: int = 0
    replicated: bool = False


@dataclass
class Scope:
    """One block being generated: its lines and the values it may use."""

    indent: str
    lines: list[str] = field(default_factory=list[str])
    pool: list[Val] = field(default_factory=list[Val])
    counter: Val | None = None
    """The known-trip-count loop counter (replicated, in range), inside a loop body."""


# --- the base builder ------------------------------------------------------------------------


class ValueBuilder:
    """Emits values into the current scope; every method draws its choices from `draw`."""

    def __init__(self, draw: Draw, replicas: int, partitions: int) -> None:
        self.draw = draw
        self.r = replicas
        self.p = partitions
        self.n = replicas * partitions
        self.names = 0
        self.channel = 0
        self.recipes: list[str] = []
        self.scopes: list[Scope] = []

    # - plumbing

    @property
    def scope(self) -> Scope:
        return self.scopes[-1]

    def fresh(self, stem: str = "v") -> str:
        self.names += 1
        return f"%{stem}{self.names}"

    def emit(self, line: str) -> None:
        self.scope.lines.append(self.scope.indent + line)

    def value(self, name: str, t: TensorT, mag: float, replicated: bool = False) -> Val:
        v = Val(name, t, min(mag, 1e30), replicated=replicated)
        self.scope.pool.append(v)
        return v

    def op(self, text: str, t: TensorT, mag: float, replicated: bool = False) -> Val:
        name = self.fresh()
        self.emit(f"{name} = {text}")
        return self.value(name, t, mag, replicated)

    def use(self, *vals: Val) -> None:
        for v in vals:
            v.uses += 1

    def next_channel(self) -> int:
        self.channel += 1
        return self.channel

    def recipe(self, name: str) -> None:
        if name not in self.recipes:
            self.recipes.append(name)

    def integers(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))

    def choice(self, items: Sequence[Any]) -> Any:
        return self.draw(st.sampled_from(items))

    def flip(self, p: float = 0.5) -> bool:
        # An integer draw shrinks towards False.
        return self.draw(st.integers(0, 99)) >= 100 - int(p * 100)

    # - types

    def shape(self, max_rank: int = 3) -> tuple[int, ...]:
        rank = self.integers(0, max_rank)
        dims: list[int] = []
        for _ in range(rank):
            limit = max(1, min(8, MAX_ELEMENTS // max(1, math.prod(dims))))
            dims.append(self.integers(1, limit))
        return tuple(dims)

    def tensor_type(self, dtypes: Sequence[str] = DTYPES) -> TensorT:
        return TensorT(self.shape(), self.choice(dtypes))

    # - leaf values

    def constant(self, t: TensorT) -> Val:
        if t.is_float:
            choices = [-2.0, -1.5, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0]
        else:
            choices = [-3, -2, -1, 0, 1, 2, 3]
        if t.size <= 8 and t.shape and self.flip(0.5):
            flat = [self.choice(choices) for _ in range(t.size)]
            literal = _nested(flat, t.shape)
            mag = max(abs(x) for x in flat)
        else:
            c = self.choice(choices)
            literal = _literal(c)
            mag = abs(c)
        return self.op(f"hlo.constant dense<{literal}> : {t}", t, mag, replicated=True)

    def scalar_constant(self, dtype: str, c: float) -> Val:
        t = TensorT((), dtype)
        return self.op(f"hlo.constant dense<{_literal(c)}> : {t}", t, abs(c), replicated=True)

    def device_id(self) -> Val:
        which = self.choice(["partition_id", "replica_id"])
        u = TensorT((), "ui32")
        name = self.fresh()
        self.emit(f"{name} = hlo.{which} : {u}")
        t = TensorT((), "i32")
        return self.op(f"hlo.convert {name} : {u} -> {t}", t, self.n)

    def iota(self, t: TensorT) -> Val:
        dim = self.integers(0, len(t.shape) - 1)
        return self.op(f"hlo.iota dim = {dim} : {t}", t, t.shape[dim], replicated=True)

    # - picking operands

    def pick(self, pred: Callable[[Val], bool] = lambda v: True) -> Val | None:
        """A pool value satisfying `pred`, biased towards the most recent ones."""
        pool = [v for v in self.scope.pool if pred(v)]
        if not pool:
            return None
        k = self.integers(0, len(pool) - 1)
        # Shrinks towards the newest value.
        return pool[len(pool) - 1 - k]

    def bounded(self, v: Val, limit: float = BOUND) -> Val:
        """`v` squashed into [-limit, limit] (tanh for floats, clamp for ints) when needed."""
        if v.mag <= limit:
            return v
        self.use(v)
        if v.type.is_float:
            return self.op(f"hlo.tanh {v.name} : {v.type}", v.type, 1.0, v.replicated)
        bound = int(max(1, min(limit, 8)))
        lo = self.scalar_constant(v.type.dtype, -bound)
        hi = self.scalar_constant(v.type.dtype, bound)
        self.use(lo, hi)
        scalar = TensorT((), v.type.dtype)
        text = f"hlo.clamp {lo.name}, {v.name}, {hi.name} : {scalar}, {v.type}, {scalar}"
        return self.op(text, v.type, bound, v.replicated)

    def operand(self, pred: Callable[[Val], bool] = lambda v: True) -> Val:
        v = self.pick(pred)
        if v is None:
            v = self.constant(self.tensor_type())
        return self.bounded(v)

    def of_type(self, t: TensorT) -> Val:
        """A value of type `t`, derived from the pool when possible."""
        exact = self.pick(lambda v: v.type == t)
        if exact is not None and self.flip(0.6):
            return self.bounded(exact)
        ways = ["constant"]
        if self.pick(lambda v: v.type.dtype == t.dtype and v.type.size == t.size) is not None:
            ways.append("reshape")
        if self.pick(lambda v: v.type.dtype == t.dtype and _embeds(v.type.shape, t.shape)):
            ways.append("broadcast")
        if self.pick(lambda v: v.type.shape == t.shape and v.type.dtype != t.dtype):
            ways.append("convert")
        if t.shape and self.flip(0.2):
            ways.append("iota")
        how = self.choice(ways)
        if how == "reshape":
            src = self.operand(lambda v: v.type.dtype == t.dtype and v.type.size == t.size)
            return self.reshape_to(src, t.shape)
        if how == "broadcast":
            src = self.operand(lambda v: v.type.dtype == t.dtype and _embeds(v.type.shape, t.shape))
            return self.broadcast_to(src, t.shape)
        if how == "convert":
            src = self.operand(lambda v: v.type.shape == t.shape and v.type.dtype != t.dtype)
            return self.convert_to(src, t.dtype)
        if how == "iota":
            return self.iota(t)
        return self.constant(t)

    # - data movement

    def reshape_to(self, v: Val, shape: tuple[int, ...]) -> Val:
        self.use(v)
        t = v.type.with_shape(shape)
        return self.op(f"hlo.reshape {v.name} : ({v.type}) -> {t}", t, v.mag, v.replicated)

    def broadcast_to(self, v: Val, shape: tuple[int, ...]) -> Val:
        self.use(v)
        dims = _embedding(v.type.shape, shape)
        assert dims is not None
        t = v.type.with_shape(shape)
        text = f"hlo.broadcast {v.name}, dims = {ints(dims)} : ({v.type}) -> {t}"
        return self.op(text, t, v.mag, v.replicated)

    def convert_to(self, v: Val, dtype: str) -> Val:
        self.use(v)
        t = v.type.with_dtype(dtype)
        return self.op(f"hlo.convert {v.name} : {v.type} -> {t}", t, v.mag, v.replicated)

    # - reducers

    def reducer_body(self, kind: str, scalar: TensorT) -> None:
        a, b, c = self.fresh("a"), self.fresh("b"), self.fresh("c")
        ind = self.scope.indent
        self.scope.lines.append(f"{ind}^bb0({a}: {scalar}, {b}: {scalar}):")
        self.scope.lines.append(f"{ind}  {c} = hlo.{kind} {a}, {b} : {scalar}")
        self.scope.lines.append(f"{ind}  hlo.return {c} : {scalar}")


# --- helpers ---------------------------------------------------------------------------------


def ints(xs: Sequence[int]) -> str:
    return "[" + ", ".join(str(x) for x in xs) + "]"


def _literal(c: float) -> str:
    return repr(float(c)) if isinstance(c, float) else str(c)


def _nested(flat: list[Any], shape: tuple[int, ...]) -> str:
    if not shape:
        return _literal(flat[0])
    if len(shape) == 1:
        return "[" + ", ".join(_literal(x) for x in flat) + "]"
    inner = math.prod(shape[1:])
    parts = [_nested(flat[i * inner : (i + 1) * inner], shape[1:]) for i in range(shape[0])]
    return "[" + ", ".join(parts) + "]"


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def factor(b: ValueBuilder, n: int, max_rank: int = 3) -> tuple[int, ...]:
    """A random factorisation of n into at most max_rank dims (n itself when rank 1)."""
    dims: list[int] = []
    rest = n
    while len(dims) < max_rank - 1 and rest > 1 and b.flip(0.5):
        d = b.choice(divisors(rest))
        dims.append(d)
        rest //= d
    dims.append(rest)
    if n == 1 and b.flip(0.3):
        return ()
    return tuple(dims)


def _embedding(src: tuple[int, ...], dst: tuple[int, ...]) -> list[int] | None:
    """Increasing result dims that src's dims map to with equal sizes (greedy), or None."""
    dims: list[int] = []
    at = 0
    for d in src:
        while at < len(dst) and dst[at] != d:
            at += 1
        if at == len(dst):
            return None
        dims.append(at)
        at += 1
    return dims


def _embeds(src: tuple[int, ...], dst: tuple[int, ...]) -> bool:
    return _embedding(src, dst) is not None
