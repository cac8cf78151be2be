"""Hypothesis strategies producing random but VALID hlo modules (issue 10 §1).

`programs()` draws a `GeneratedProgram`: a complete `builtin.module` in neuron-cc's pretty syntax
for a mesh of R x P devices (1x8, 2x4 or 8x1) whose entry function `@main` takes 1-3 random
tensors and returns every value nothing else used (several as one `hlo.tuple`, like XLA's ROOT, so
the module is in the image of HLO import). Recipes (the `description` names the top-level
ones a program contains, e.g. "general: all_reduce/flattened_id, all_reduce/mixed, while/known"):

- data: constants, iota, partition_id / replica_id, elementwise unary and binary chains,
  broadcast, reshape, transpose, slice, concatenate, convert, dynamic_slice /
  dynamic_update_slice (replicated and per-device indices), reduce, tuple + get_tuple_element;
- collectives: all_reduce (add / maximum / minimum / multiply reducers, one operand or variadic
  with one or mixed f32 / s32 / bf16 element types), all_gather and reduce_scatter (one or
  several operands), all_to_all (array and tuple form), collective_permute,
  collective_broadcast - each in every group mode its opcode has (cross_replica,
  cross_replica_and_partition, flattened_id, cross_partition) with empty, explicit (shuffled,
  uniform or not) and iota replica groups;
- control flow: while loops with a known trip count (the JAX counter idiom, any start / step /
  direction), with a data-dependent trip count (a bound all-reduced over every device, so the
  predicate is the same everywhere) and nested loops; loop bodies are random programs of their
  own over the carried values;
- the while-loop accumulation patterns (movable and near-miss) come from
  `neuron_cc.testing.generate_loops.loop_programs()`, one branch of `programs()`.

Values stay O(1): floats only go through continuous ops (no float compare, rounding or
float->int convert, so a legitimately reassociated sum never flips a discrete decision), every
value carries a magnitude bound and is squashed (tanh / clamp) before it could grow past 64,
multiply reducers only see values in [-1, 1] (floats) or [-2, 2] (ints), and ints never wrap
(an s32 operand of a mixed-type collective stays exact when promoted to f32).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from neuron_cc.testing.generated_program import GeneratedProgram

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


# --- the builder -----------------------------------------------------------------------------


class Builder:
    """Emits one module's text; every method draws its choices from `draw`."""

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
        text = f"hlo.broadcast {v.name}, dims = {_ints(dims)} : ({v.type}) -> {t}"
        return self.op(text, t, v.mag, v.replicated)

    def convert_to(self, v: Val, dtype: str) -> Val:
        self.use(v)
        t = v.type.with_dtype(dtype)
        return self.op(f"hlo.convert {v.name} : {v.type} -> {t}", t, v.mag, v.replicated)

    # - steps

    def step(self, depth: int) -> None:
        kinds: list[tuple[str, Callable[[], None]]] = [
            ("unary", self.unary),
            ("binary", self.binary),
            ("movement", self.movement),
            ("collective", self.collective),
            ("tuple", self.tuple_step),
            ("misc", self.misc),
            ("collective", self.collective),
            ("collective", self.collective),
        ]
        if depth < MAX_DEPTH and (depth == 0 or self.flip(0.6)):
            kinds.append(("while", lambda: self.while_loop(depth)))
        _, fn = self.choice(kinds)
        fn()

    def unary(self) -> None:
        v = self.operand()
        self.use(v)
        if v.type.is_float:
            name = self.choice(["negate", "abs", "tanh", "sine", "cosine", "logistic"])
            mag = v.mag if name in ("negate", "abs") else 1.0
        else:
            name = self.choice(["negate", "abs", "not"])
            mag = v.mag + 1
        self.op(f"hlo.{name} {v.name} : {v.type}", v.type, mag, v.replicated)

    def binary(self) -> None:
        a = self.operand()
        b = self.of_type(a.type)
        self.use(a, b)
        names = ["add", "subtract", "multiply", "maximum", "minimum"]
        if not a.type.is_float:
            names += ["and", "or", "xor"]
        name = self.choice(names)
        mag = {"add": a.mag + b.mag, "subtract": a.mag + b.mag, "multiply": a.mag * b.mag}.get(
            name, max(a.mag, b.mag)
        )
        if name in ("and", "or", "xor"):
            mag = 2 ** math.ceil(math.log2(max(a.mag, b.mag) + 1))
        rep = a.replicated and b.replicated
        self.op(f"hlo.{name} {a.name}, {b.name} : {a.type}", a.type, mag, rep)

    def movement(self) -> None:
        v = self.operand()
        shape = v.type.shape
        ways = ["reshape", "broadcast", "convert"]
        if len(shape) >= 2:
            ways.append("transpose")
        if shape:
            ways += ["slice", "concatenate", "dynamic_slice", "dynamic_update_slice"]
        getattr(self, f"_{self.choice(ways)}")(v)

    def _reshape(self, v: Val) -> None:
        self.reshape_to(v, _factor(self, v.type.size))

    def _broadcast(self, v: Val) -> None:
        shape = list(v.type.shape)
        while len(shape) < 3 and math.prod(shape) * 2 <= MAX_ELEMENTS and self.flip(0.6):
            shape.insert(self.integers(0, len(shape)), self.integers(1, 2))
        self.broadcast_to(v, tuple(shape))

    def _convert(self, v: Val) -> None:
        # Floats never become ints (a discontinuous op would amplify legitimate reassociation).
        dtypes = [d for d in (FLOATS if v.type.is_float else DTYPES) if d != v.type.dtype]
        self.convert_to(v, self.choice(dtypes))

    def _transpose(self, v: Val) -> None:
        perm = self.draw(st.permutations(range(len(v.type.shape))))
        t = v.type.with_shape([v.type.shape[i] for i in perm])
        self.use(v)
        text = f"hlo.transpose {v.name}, dims = {_ints(perm)} : ({v.type}) -> {t}"
        self.op(text, t, v.mag, v.replicated)

    def _slice(self, v: Val) -> None:
        start, limit, strides, out = [], [], [], []
        for d in v.type.shape:
            s = self.integers(0, d - 1)
            e = self.integers(s + 1, d)
            k = self.integers(1, 2)
            start.append(s)
            limit.append(e)
            strides.append(k)
            out.append(-(-(e - s) // k))
        t = v.type.with_shape(out)
        self.use(v)
        text = (
            f"hlo.slice {v.name}, start = {_ints(start)}, limit = {_ints(limit)}, "
            f"strides = {_ints(strides)} : ({v.type}) -> {t}"
        )
        self.op(text, t, v.mag, v.replicated)

    def _concatenate(self, v: Val) -> None:
        dim = self.integers(0, len(v.type.shape) - 1)
        other_shape = list(v.type.shape)
        other_shape[dim] = self.integers(1, 3)
        w = self.of_type(v.type.with_shape(other_shape))
        operands = [v, w] if self.flip() else [w, v]
        self.use(v, w)
        shape = list(v.type.shape)
        shape[dim] += other_shape[dim]
        t = v.type.with_shape(shape)
        names = ", ".join(o.name for o in operands)
        types = ", ".join(str(o.type) for o in operands)
        text = f"hlo.concatenate({names}) dim = {dim} : ({types}) -> {t}"
        self.op(text, t, max(v.mag, w.mag), v.replicated and w.replicated)

    def index(self) -> Val:
        """A scalar i32 index: a constant, the loop counter or a per-device id."""
        ways = ["constant", "device"]
        if self.scope.counter is not None:
            ways.append("counter")
        how = self.choice(ways)
        if how == "counter":
            assert self.scope.counter is not None
            return self.scope.counter
        if how == "device":
            return self.device_id()
        return self.scalar_constant("i32", self.integers(-1, 8))

    def _dynamic_slice(self, v: Val) -> None:
        sizes = [self.integers(1, d) for d in v.type.shape]
        idx = [self.index() for _ in sizes]
        self.use(v, *idx)
        t = v.type.with_shape(sizes)
        names = ", ".join(i.name for i in idx)
        types = ", ".join([str(v.type)] + [str(i.type) for i in idx])
        text = f"hlo.dynamic_slice {v.name} at [{names}] sizes = {_ints(sizes)} : ({types}) -> {t}"
        rep = v.replicated and all(i.replicated for i in idx)
        self.op(text, t, v.mag, rep)

    def _dynamic_update_slice(self, v: Val) -> None:
        upd = self.of_type(v.type.with_shape([self.integers(1, d) for d in v.type.shape]))
        idx = [self.index() for _ in v.type.shape]
        self.use(v, upd, *idx)
        names = ", ".join(i.name for i in idx)
        types = ", ".join([str(v.type), str(upd.type)] + [str(i.type) for i in idx])
        text = f"hlo.dynamic_update_slice {v.name}, {upd.name} at [{names}] : ({types}) -> {v.type}"
        rep = v.replicated and upd.replicated and all(i.replicated for i in idx)
        self.op(text, v.type, max(v.mag, upd.mag), rep)

    def misc(self) -> None:
        how = self.choice(["constant", "iota", "device", "reduce", "select"])
        if how == "constant":
            self.constant(self.tensor_type())
        elif how == "iota":
            t = self.tensor_type()
            if t.shape:
                self.iota(t)
        elif how == "device":
            self.device_id()
        elif how == "reduce":
            self.reduce()
        else:
            self.select()

    def reduce(self) -> None:
        v = self.operand(lambda v: bool(v.type.shape))
        if not v.type.shape:
            return
        rank = len(v.type.shape)
        dims = sorted(self.draw(st.sets(st.integers(0, rank - 1), min_size=1)))
        kind = self.choice(["add", "maximum", "minimum"])
        self.use(v)
        t = v.type.with_shape([d for i, d in enumerate(v.type.shape) if i not in dims])
        scalar = TensorT((), v.type.dtype)
        # The init is the reducer's identity, as XLA assumes (its simplifier drops the init of
        # a reduce over size-1 dimensions, and its tree rewrite applies it once per window), so
        # the program's result does not depend on how often it is applied. It is not pooled.
        init = self.fresh()
        self.emit(f"{init} = hlo.constant dense<{_IDENTITIES[kind][v.type.dtype]}> : {scalar}")
        mag = v.mag * v.type.size if kind == "add" else v.mag
        name = self.fresh()
        self.emit(
            f"{name} = hlo.reduce({v.name} : {v.type}) init({init} : {scalar}) "
            f"dimensions = {_ints(dims)} {{"
        )
        self.reducer_body(kind, scalar)
        self.emit(f"}} -> {t}")
        self.value(name, t, mag, v.replicated)

    def select(self) -> None:
        # Integer compares only: float predicates could flip under legitimate reassociation.
        a = self.operand(lambda v: not v.type.is_float)
        if a.type.is_float:
            return
        b = self.of_type(a.type)
        x = self.operand(lambda v: v.type.shape == a.type.shape)
        if x.type.shape != a.type.shape:
            return
        y = self.of_type(x.type)
        direction = self.choice(["LT", "LE", "EQ", "NE", "GE", "GT"])
        self.use(a, b, x, y)
        pred_t = a.type.with_dtype("i1")
        p = self.fresh()
        self.emit(f"{p} = hlo.compare {direction}, {a.name}, {b.name} : {a.type} -> {pred_t}")
        rep = all(v.replicated for v in (a, b, x, y))
        text = f"hlo.select {p}, {x.name}, {y.name} : {pred_t}, {x.type}"
        self.op(text, x.type, max(x.mag, y.mag), rep)

    def tuple_step(self) -> None:
        items = [self.operand() for _ in range(self.integers(1, 3))]
        self.use(*items)
        tt = TupleT(tuple(i.type for i in items))
        name = self.fresh("t")
        names = ", ".join(i.name for i in items)
        self.emit(f"{name} = hlo.tuple {names} : {tt}")
        k = self.integers(0, len(items) - 1)
        self.op(f"hlo.get_tuple_element {name}[{k}] : {tt}", items[k].type, items[k].mag)

    # - reducers

    def reducer_body(self, kind: str, scalar: TensorT) -> None:
        a, b, c = self.fresh("a"), self.fresh("b"), self.fresh("c")
        ind = self.scope.indent
        self.scope.lines.append(f"{ind}^bb0({a}: {scalar}, {b}: {scalar}):")
        self.scope.lines.append(f"{ind}  {c} = hlo.{kind} {a}, {b} : {scalar}")
        self.scope.lines.append(f"{ind}  hlo.return {c} : {scalar}")

    # - collectives

    def collective(self) -> None:
        kind = self.choice(
            [
                "all_reduce",
                "all_reduce_variadic",
                "all_gather",
                "reduce_scatter",
                "all_to_all",
                "collective_permute",
                "collective_broadcast",
            ]
        )
        getattr(self, kind)()

    def groups_for(self, kind: str) -> tuple[str, str, list[list[int]] | None]:
        """(mode, attribute text after the groups, groups or None for `[]`) of a random mode."""
        modes = {
            "all_reduce": ["cross_replica", "cross_replica_and_partition", "flattened_id"],
            "all_gather": ["cross_replica", "cross_replica_and_partition", "flattened_id"],
            "reduce_scatter": ["cross_replica", "cross_replica_and_partition", "flattened_id"],
            "all_to_all": ["cross_replica", "cross_partition"],
            "collective_broadcast": ["cross_replica", "cross_partition"],
        }[kind]
        mode = self.choice(modes)
        if mode == "cross_replica":
            flags = ""
        elif mode == "flattened_id":
            flags = f" channel_id = {self.next_channel()} use_global_device_ids"
        else:
            flags = f" channel_id = {self.next_channel()}"
        return mode, flags, None

    def id_space(self, mode: str) -> int:
        return {
            "cross_replica": self.r,
            "cross_replica_and_partition": self.r,
            "flattened_id": self.n,
            "cross_partition": self.p,
        }[mode]

    def members_per_id(self, mode: str) -> int:
        return self.p if mode == "cross_replica_and_partition" else 1

    def replica_groups(self, mode: str, uniform: bool, cover: bool = True) -> tuple[str, int]:
        """(groups text, group size) for `mode`; size is the largest group for non-uniform."""
        n = self.id_space(mode)
        per = self.members_per_id(mode)
        ways = ["explicit", "iota"]
        if mode != "flattened_id":
            ways.append("empty")
        how = self.choice(ways)
        if how == "empty":
            return "[]", n * per
        if how == "iota":
            return self.iota_groups(n, per)
        ids = list(self.draw(st.permutations(range(n))))
        if not cover and n > 1:
            ids = ids[: self.integers(1, n)]
        sizes = _group_sizes(self, len(ids), uniform)
        groups: list[list[int]] = []
        at = 0
        for s in sizes:
            groups.append(ids[at : at + s])
            at += s
        text = "[" + ", ".join(_ints(g) for g in groups) + "]"
        return text, max(sizes) * per

    def iota_groups(self, n: int, per: int) -> tuple[str, int]:
        size = self.choice(_divisors(n))
        dims = _factor(self, n, max_rank=3)
        perm = tuple(self.draw(st.permutations(range(len(dims)))))
        text = f"[{n // size},{size}]<=[{','.join(map(str, dims))}]"
        if perm != tuple(range(len(dims))):
            text += f"T({','.join(map(str, perm))})"
        return text, size * per

    def reducer_kind(self, dtype: str) -> str:
        del dtype
        return self.choice(["add", "maximum", "minimum", "multiply"])

    def reduce_operand(self, kind: str, v: Val, limit: float = BOUND) -> Val:
        if kind == "multiply":
            return self.bounded(v, 1.0 if v.type.is_float else 2.0)
        return self.bounded(v, limit)

    def mag_after(self, kind: str, mag: float, size: int) -> float:
        if kind == "add":
            return mag * size
        if kind == "multiply":
            return mag**size
        return mag

    def all_reduce(self) -> None:
        v = self.operand()
        kind = self.reducer_kind(v.type.dtype)
        v = self.reduce_operand(kind, v)
        mode, flags, _ = self.groups_for("all_reduce")
        groups, size = self.replica_groups(mode, uniform=self.flip(0.7))
        self.recipe(f"all_reduce/{mode}")
        self.use(v)
        scalar = TensorT((), v.type.dtype)
        name = self.fresh()
        self.emit(f"{name} = hlo.all_reduce({v.name}) replica_groups = {groups}{flags} {{")
        self.reducer_body(kind, scalar)
        self.emit(f"}} : ({v.type}) -> {v.type}")
        self.value(name, v.type, self.mag_after(kind, v.mag, size))

    def all_reduce_variadic(self) -> None:
        mixed = self.flip(0.6)
        count = self.integers(2, 3)
        if mixed:
            dtypes = list(self.draw(st.permutations(["f32", "i32", "bf16"])))[:count]
            if "i32" in dtypes and "f32" not in dtypes:
                dtypes[dtypes.index("bf16")] = "f32"
        else:
            dtypes = [self.choice(DTYPES)] * count
        kind = self.reducer_kind(dtypes[0])
        region_dtype = self.choice(sorted(set(dtypes)))
        limit = 4.0 if mixed else BOUND
        ops = [
            self.reduce_operand(kind, self.of_type(self.tensor_type([d])), limit) for d in dtypes
        ]
        mode, flags, _ = self.groups_for("all_reduce")
        groups, size = self.replica_groups(mode, uniform=self.flip(0.7))
        self.recipe(f"all_reduce/{'mixed' if mixed else 'variadic'}")
        self.use(*ops)
        types = [o.type for o in ops]
        tt = TupleT(tuple(types))
        name = self.fresh("t")
        names = ", ".join(o.name for o in ops)
        self.emit(f"{name} = hlo.all_reduce({names}) replica_groups = {groups}{flags} {{")
        self.reducer_body(kind, TensorT((), region_dtype))
        self.emit(f"}} : ({', '.join(map(str, types))}) -> {tt}")
        for i, o in enumerate(ops):
            if self.flip(0.8):
                mag = self.mag_after(kind, o.mag, size)
                self.op(f"hlo.get_tuple_element {name}[{i}] : {tt}", o.type, mag)

    def all_gather(self) -> None:
        mode, flags, _ = self.groups_for("all_gather")
        groups, size = self.replica_groups(mode, uniform=True)
        first = self.operand(lambda v: bool(v.type.shape) and v.type.size * size <= 64)
        if not first.type.shape or first.type.size * size > 64:
            first = self.of_type(TensorT((self.integers(1, 4),), self.choice(DTYPES)))
        dim = self.integers(0, len(first.type.shape) - 1)
        ops = [first]
        if self.flip(0.3):
            rank = len(first.type.shape)
            other = TensorT(tuple(self.integers(1, 3) for _ in range(rank)), self.choice(DTYPES))
            ops.append(self.of_type(other))
        self.recipe(f"all_gather/{mode}")
        self.use(*ops)
        outs = [_scaled(o.type, dim, size) for o in ops]
        self.variadic(
            "all_gather", ops, outs, f"dim = {dim} replica_groups = {groups}{flags}", None
        )

    def variadic(
        self, opname: str, ops: list[Val], outs: list[TensorT], attrs: str, kind: str | None
    ) -> None:
        names = ", ".join(o.name for o in ops)
        in_types = ", ".join(str(o.type) for o in ops)
        result = str(outs[0]) if len(outs) == 1 else str(TupleT(tuple(outs)))
        name = self.fresh("t" if len(outs) > 1 else "v")
        head = f"{name} = hlo.{opname}({names}) {attrs}"
        if kind is None:
            self.emit(f"{head} : ({in_types}) -> {result}")
        else:
            self.emit(head + " {")
            self.reducer_body(kind, TensorT((), ops[0].type.dtype))
            self.emit(f"}} : ({in_types}) -> {result}")
        size_mag = max(o.mag for o in ops)
        if len(outs) == 1:
            self.value(name, outs[0], size_mag)
            return
        tt = TupleT(tuple(outs))
        for i, t in enumerate(outs):
            self.op(f"hlo.get_tuple_element {name}[{i}] : {tt}", t, size_mag)

    def reduce_scatter(self) -> None:
        mode, flags, _ = self.groups_for("reduce_scatter")
        groups, size = self.replica_groups(mode, uniform=True)
        dtype = self.choice(DTYPES)
        kind = self.reducer_kind(dtype)
        count = 2 if self.flip(0.3) else 1
        rank = self.integers(1, 2)
        dim = self.integers(0, rank - 1)
        ops: list[Val] = []
        for _ in range(count):
            shape = [self.integers(1, 3) for _ in range(rank)]
            shape[dim] = size * self.integers(1, 2)
            ops.append(self.reduce_operand(kind, self.of_type(TensorT(tuple(shape), dtype))))
        self.recipe(f"reduce_scatter/{mode}")
        self.use(*ops)
        outs = [_scaled(o.type, dim, 1, size) for o in ops]
        attrs = f"dim = {dim} replica_groups = {groups}{flags}"
        before = len(self.scope.pool)
        self.variadic("reduce_scatter", ops, outs, attrs, kind)
        for v in self.scope.pool[before:]:
            v.mag = self.mag_after(kind, max(o.mag for o in ops), size)

    def all_to_all(self) -> None:
        mode, flags, _ = self.groups_for("all_to_all")
        groups, size = self.replica_groups(mode, uniform=True)
        self.recipe(f"all_to_all/{mode}")
        if self.flip(0.3) and size <= 4:
            t = TensorT(self.shape(2), self.choice(DTYPES))
            ops = [self.of_type(t) for _ in range(size)]
            self.use(*ops)
            self.variadic("all_to_all", ops, [t] * size, f"replica_groups = {groups}{flags}", None)
            return
        rank = self.integers(1, 2)
        dim = self.integers(0, rank - 1)
        shape = [self.integers(1, 3) for _ in range(rank)]
        shape[dim] = size * self.integers(1, 2)
        v = self.of_type(TensorT(tuple(shape), self.choice(DTYPES)))
        self.use(v)
        attrs = f"dim = {dim} replica_groups = {groups}{flags}"
        self.variadic("all_to_all", [v], [v.type], attrs, None)

    def collective_permute(self) -> None:
        v = self.operand()
        mode = self.choice(["cross_replica", "cross_partition"])
        n = self.id_space(mode)
        sources = list(self.draw(st.permutations(range(n))))[: self.integers(0, n)]
        targets = list(self.draw(st.permutations(range(n))))[: len(sources)]
        pairs = "[" + ", ".join(f"[{s}, {t}]" for s, t in zip(sources, targets)) + "]"
        flags = f" channel_id = {self.next_channel()}" if mode == "cross_partition" else ""
        self.recipe(f"collective_permute/{mode}")
        self.use(v)
        self.op(f"hlo.collective_permute {v.name} pairs = {pairs}{flags} : {v.type}", v.type, v.mag)

    def collective_broadcast(self) -> None:
        mode, flags, _ = self.groups_for("collective_broadcast")
        groups, _size = self.replica_groups(mode, uniform=True, cover=False)
        v = self.operand()
        self.recipe(f"collective_broadcast/{mode}")
        self.use(v)
        attrs = f"replica_groups = {groups}{flags}"
        self.variadic("collective_broadcast", [v], [v.type], attrs, None)

    # - while loops

    def while_loop(self, depth: int) -> None:
        how = self.choice(["known", "unknown"])
        self.recipe(f"while/{how}" + ("/nested" if depth > 0 else ""))
        carried = [self.operand() for _ in range(self.integers(1, 3))]
        if how == "known":
            start = self.integers(-2, 2)
            step = self.choice([1, 2, -1])
            trips = self.integers(0, 4)
            bound = start + step * trips
            counter = self.scalar_constant("i32", start)
            extra: list[Val] = []
            direction = "LT" if step > 0 else "GT"
        else:
            start, step = 0, 1
            counter = self.scalar_constant("i32", 0)
            limit = self.replicated_bound()
            extra = [limit]
            direction = "LT"
            bound = None
        slots = [counter, *extra, *carried]
        self.use(*slots)
        tt = TupleT(tuple(s.type for s in slots))
        init = self.fresh("init")
        self.emit(f"{init} = hlo.tuple {', '.join(s.name for s in slots)} : {tt}")
        loop = self.fresh("w")
        self.emit(f"{loop} = hlo.while({init}) : {tt} condition {{")
        self.condition(tt, direction, bound)
        self.emit("} body {")
        self.body(tt, slots, step, depth, known=how == "known")
        self.emit("}")
        for i, s in enumerate(slots):
            if i == 0 or self.flip(0.8):
                mag = BOUND if i >= 1 + len(extra) else s.mag + 8
                self.op(f"hlo.get_tuple_element {loop}[{i}] : {tt}", s.type, mag)

    def replicated_bound(self) -> Val:
        """A data-dependent, device-invariant trip count in [0, 3]: max over every device."""
        v = self.operand(lambda v: v.type.dtype == "i32")
        if v.type.dtype != "i32":
            v = self.scalar_constant("i32", self.integers(0, 3))
        if v.type.shape:
            v = self.reshape_to(v, (v.type.size,))
            self.use(v)
            s = self.fresh()
            self.emit(
                f"{s} = hlo.slice {v.name}, start = [0], limit = [1], strides = [1] : "
                f"({v.type}) -> tensor<1xi32>"
            )
            v = self.reshape_to(Val(s, TensorT((1,), "i32"), v.mag), ())
        lo = self.scalar_constant("i32", 0)
        hi = self.scalar_constant("i32", 3)
        self.use(v, lo, hi)
        t = TensorT((), "i32")
        c = self.op(f"hlo.clamp {lo.name}, {v.name}, {hi.name} : {t}, {t}, {t}", t, 3)
        self.use(c)
        groups = (
            "[" + _ints(list(range(self.n))) + "]" if self.flip() else f"[1,{self.n}]<=[{self.n}]"
        )
        name = self.fresh()
        channel = self.next_channel()
        self.emit(
            f"{name} = hlo.all_reduce({c.name}) replica_groups = {groups} "
            f"channel_id = {channel} use_global_device_ids {{"
        )
        self.reducer_body("maximum", t)
        self.emit(f"}} : ({t}) -> {t}")
        return self.value(name, t, 3, replicated=True)

    def condition(self, tt: TupleT, direction: str, bound: int | None) -> None:
        self.scopes.append(Scope(self.scope.indent + "  "))
        arg = self.fresh("s")
        self.scope.lines.append(f"{self.scopes[-2].indent}^bb0({arg}: {tt}):")
        i = self.fresh("i")
        self.emit(f"{i} = hlo.get_tuple_element {arg}[0] : {tt}")
        if bound is None:
            n = self.fresh("n")
            self.emit(f"{n} = hlo.get_tuple_element {arg}[1] : {tt}")
        else:
            n = self.scalar_constant("i32", bound).name
        p = self.fresh("p")
        self.emit(f"{p} = hlo.compare {direction}, {i}, {n} : tensor<i32> -> tensor<i1>")
        self.emit(f"hlo.return {p} : tensor<i1>")
        self.close_scope()

    def body(self, tt: TupleT, slots: list[Val], step: int, depth: int, known: bool) -> None:
        outer = self.scope
        self.scopes.append(Scope(outer.indent + "  "))
        arg = self.fresh("s")
        self.scope.lines.append(f"{outer.indent}^bb0({arg}: {tt}):")
        inner: list[Val] = []
        for k, s in enumerate(slots):
            name = self.fresh("e")
            self.emit(f"{name} = hlo.get_tuple_element {arg}[{k}] : {tt}")
            mag = s.mag + 8 if k == 0 or s.replicated else BOUND
            v = self.value(name, s.type, mag, replicated=k == 0 or s.replicated)
            inner.append(v)
        if known:
            self.scope.counter = inner[0]
        for _ in range(self.integers(1, 3)):
            self.step(depth + 1)
        one = self.scalar_constant("i32", step)
        nxt = self.op(f"hlo.add {inner[0].name}, {one.name} : tensor<i32>", inner[0].type, 0)
        self.use(inner[0], one)
        outs = [nxt]
        for k, s in enumerate(slots[1:], start=1):
            if k == 1 and not known:
                outs.append(inner[k])  # the bound passes through unchanged
                continue
            v = self.pick(lambda v, t=s.type: v.type == t) or inner[k]
            outs.append(self.bounded(v, BOUND))
        self.use(*outs)
        name = self.fresh("next")
        self.emit(f"{name} = hlo.tuple {', '.join(o.name for o in outs)} : {tt}")
        self.emit(f"hlo.return {name} : {tt}")
        self.close_scope()

    def close_scope(self) -> None:
        done = self.scopes.pop()
        self.scope.lines.extend(done.lines)

    # - the module

    def module(self, steps: int) -> str:
        self.scopes.append(Scope("    "))
        params: list[str] = []
        for k in range(self.integers(1, 3)):
            t = self.tensor_type()
            name = f"%arg{k}"
            params.append(f"{name}: {t}")
            self.value(name, t, 4.0)
        for _ in range(steps):
            self.step(0)
        outs = [v for v in self.scope.pool if v.uses == 0] or self.scope.pool[-1:]
        outs = outs[-8:]
        if len(outs) > 1:
            # Like XLA, one ROOT: several outputs are returned as one tuple.
            tt = TupleT(tuple(o.type for o in outs))
            name = self.fresh("out")
            self.emit(f"{name} = hlo.tuple {', '.join(o.name for o in outs)} : {tt}")
            outs = [Val(name, tt, 0.0)]  # pyright: ignore[reportArgumentType]
        body = self.scopes.pop().lines
        results = ", ".join(str(o.type) for o in outs)
        attrs = [f"hlo.num_partitions = {self.p} : i64", f"hlo.num_replicas = {self.r} : i64"]
        if self.p > 1:
            attrs.append("hlo.use_spmd_partitioning")
        lines = [
            f"builtin.module attributes {{{', '.join(attrs)}}} {{",
            f"  func.func @main({', '.join(params)}) -> {results} attributes {{hlo.entry}} {{",
            *body,
            f"    func.return {', '.join(o.name for o in outs)} : {results}",
            "  }",
            "}",
        ]
        return "\n".join(lines) + "\n"


# --- helpers ---------------------------------------------------------------------------------


def _ints(xs: Sequence[int]) -> str:
    return "[" + ", ".join(str(x) for x in xs) + "]"


_IDENTITIES = {
    "add": {"f32": "0.0", "bf16": "0.0", "i32": "0"},
    "maximum": {"f32": "0xFF800000", "bf16": "0xFF80", "i32": str(-(2**31))},
    "minimum": {"f32": "0x7F800000", "bf16": "0x7F80", "i32": str(2**31 - 1)},
}
"""Per reducer and element type, the identity as an MLIR literal (hex floats: +-inf)."""


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


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def _factor(b: Builder, n: int, max_rank: int = 3) -> tuple[int, ...]:
    """A random factorisation of n into at most max_rank dims (n itself when rank 1)."""
    dims: list[int] = []
    rest = n
    while len(dims) < max_rank - 1 and rest > 1 and b.flip(0.5):
        d = b.choice(_divisors(rest))
        dims.append(d)
        rest //= d
    dims.append(rest)
    if n == 1 and b.flip(0.3):
        return ()
    return tuple(dims)


def _group_sizes(b: Builder, n: int, uniform: bool) -> list[int]:
    if uniform:
        size = b.choice(_divisors(n))
        return [size] * (n // size)
    sizes: list[int] = []
    rest = n
    while rest:
        s = b.integers(1, rest)
        sizes.append(s)
        rest -= s
    return sizes


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


def _scaled(t: TensorT, dim: int, mul: int, div: int = 1) -> TensorT:
    shape = list(t.shape)
    shape[dim] = shape[dim] * mul // div
    return t.with_shape(shape)


# --- strategies ------------------------------------------------------------------------------


@st.composite
def general_programs(draw: Draw, max_steps: int = 6) -> GeneratedProgram:
    """Random straight-line code, collectives and (nested) while loops on a random mesh."""
    r, p = draw(st.sampled_from(MESHES))
    b = Builder(draw, r, p)
    text = b.module(draw(st.integers(2, max_steps)))
    description = "general: " + (", ".join(b.recipes) or "elementwise")
    return GeneratedProgram(text, r, p, description)


def programs() -> st.SearchStrategy[GeneratedProgram]:
    """Every recipe: general programs and the while-loop accumulation patterns."""
    # Imported here: generate_loops is the bigger module and general_programs() alone needs none
    # of it.
    from neuron_cc.testing.generate_loops import loop_programs

    return st.one_of(general_programs(), loop_programs())
