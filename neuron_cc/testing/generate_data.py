"""Data (non-collective) steps of the general program generator (`neuron_cc.testing.generate`).

`DataBuilder` adds to `ValueBuilder` the steps that compute on the pool without communicating:
elementwise unary and binary ops, data movement (reshape, broadcast, convert, transpose, slice,
concatenate, dynamic_slice / dynamic_update_slice at constant, loop-counter or per-device
indices), reduce, select on integer compares and tuple + get_tuple_element.
"""

from __future__ import annotations

import math

from hypothesis import strategies as st

from neuron_cc.testing.generate_values import (
    DTYPES,
    FLOATS,
    MAX_ELEMENTS,
    TensorT,
    TupleT,
    Val,
    ValueBuilder,
    factor,
    ints,
)

_IDENTITIES = {
    "add": {"f32": "0.0", "bf16": "0.0", "i32": "0"},
    "maximum": {"f32": "0xFF800000", "bf16": "0xFF80", "i32": str(-(2**31))},
    "minimum": {"f32": "0x7F800000", "bf16": "0x7F80", "i32": str(2**31 - 1)},
}
"""Per reducer and element type, the identity as an MLIR literal (hex floats: +-inf)."""


class DataBuilder(ValueBuilder):
    """The data steps (`unary`, `binary`, `movement`, `misc`, `tuple_step`)."""

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
        self.reshape_to(v, factor(self, v.type.size))

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
        text = f"hlo.transpose {v.name}, dims = {ints(perm)} : ({v.type}) -> {t}"
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
            f"hlo.slice {v.name}, start = {ints(start)}, limit = {ints(limit)}, "
            f"strides = {ints(strides)} : ({v.type}) -> {t}"
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
        text = f"hlo.dynamic_slice {v.name} at [{names}] sizes = {ints(sizes)} : ({types}) -> {t}"
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
            f"dimensions = {ints(dims)} {{"
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
