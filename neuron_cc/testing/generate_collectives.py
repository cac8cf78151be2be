"""Collective steps of the general program generator (`neuron_cc.testing.generate`).

`CollectiveBuilder` adds to `ValueBuilder` all_reduce (one operand or variadic, one or mixed
element types), all_gather, reduce_scatter, all_to_all (array and tuple form),
collective_permute and collective_broadcast, each in every group mode its opcode has with empty,
explicit (shuffled, uniform or not) and iota replica groups, keeping every result's magnitude
bound (multiply reducers only see values in [-1, 1] or [-2, 2]). The `combinable` recipe emits
two or three all_reduces, all_gathers or reduce_scatters that share their group mode, replica
groups and reducer (one combiner key, unless their element types differ), so the combiners
have something to merge in the property suite. The `permute_fusion` recipe emits what
convert-hlo-to-bir fuses: a collective_permute (a ring shift or random pairs) combined by add /
multiply / maximum / minimum with a value of its type (`permute_reduce/<op>`), or a chain of one
such op over two or three `local` permutes of one value, each a permutation of every device, and
maybe the value itself (`send_recv_cce`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from neuron_cc.testing.generate_values import (
    BOUND,
    DTYPES,
    TensorT,
    TupleT,
    Val,
    ValueBuilder,
    divisors,
    factor,
    ints,
)


class CollectiveBuilder(ValueBuilder):
    """The `collective` step: one random collective in a random group mode."""

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

    _pinned: dict[str, object] | None = None
    """While `combinable` runs: the mode, groups and reducer every member takes."""

    def combinable(self) -> None:
        """Two or three collectives of one kind with one key (distinct channel ids)."""
        kind = self.choice(["all_reduce", "all_gather", "reduce_scatter"])
        self.recipe(f"combinable/{kind}")
        self._pinned = {}
        try:
            for _ in range(self.integers(2, 3)):
                getattr(self, kind)()
        finally:
            self._pinned = None

    def permute_fusion(self) -> None:
        """PermuteReduce or SendRecvCCE material (module docstring)."""
        v = self.bounded(self.operand(), 8.0)
        op = self.choice(["add", "multiply", "maximum", "minimum"])
        mode = self.choice(["cross_replica", "cross_partition"])
        n = self.id_space(mode)
        self.use(v)
        if n >= 2 and self.flip(0.4):
            self.recipe("send_recv_cce")
            terms = [
                self._permute_of(v, mode, self._full_pairs(n), local=True)
                for _ in range(self.integers(2, 3))
            ]
            if self.flip(0.5):
                terms.insert(self.integers(0, len(terms)), v)
        else:
            self.recipe(f"permute_reduce/{op}")
            ring = n >= 2 and self.flip(0.5)
            pairs = self._ring_pairs(n) if ring else self._full_pairs(n)[: self.integers(0, n)]
            local = self.of_type(v.type)
            self.use(local)
            terms = [self._permute_of(v, mode, pairs, local=False), local]
            if self.flip(0.5):
                terms.reverse()
        acc = terms[0]
        for term in terms[1:]:
            self.use(acc, term)
            mag = acc.mag * term.mag if op == "multiply" else acc.mag + term.mag
            acc = self.op(f"hlo.{op} {acc.name}, {term.name} : {v.type}", v.type, mag)

    def _full_pairs(self, n: int) -> list[tuple[int, int]]:
        targets = list(self.draw(st.permutations(range(n))))
        return list(enumerate(targets))

    def _ring_pairs(self, n: int) -> list[tuple[int, int]]:
        order = list(self.draw(st.permutations(range(n))))
        return [(order[i], order[(i + 1) % n]) for i in range(n)]

    def _permute_of(self, v: Val, mode: str, pairs: list[tuple[int, int]], local: bool) -> Val:
        text = "[" + ", ".join(f"[{s}, {t}]" for s, t in pairs) + "]"
        flags = f" channel_id = {self.next_channel()}" if mode == "cross_partition" else ""
        if local:
            flags += ' {xla.frontend_attributes = "{local=\\"true\\"}"}'
        return self.op(
            f"hlo.collective_permute {v.name} pairs = {text}{flags} : {v.type}", v.type, v.mag
        )

    def _pin(self, what: str, make: Callable[[], Any]) -> Any:
        """`make()`, or while `combinable` runs, the value its first member drew."""
        if self._pinned is None:
            return make()
        if what not in self._pinned:
            self._pinned[what] = make()
        return self._pinned[what]

    def groups_for(self, kind: str) -> tuple[str, str, list[list[int]] | None]:
        """(mode, attribute text after the groups, groups or None for `[]`) of a random mode."""
        modes = {
            "all_reduce": ["cross_replica", "cross_replica_and_partition", "flattened_id"],
            "all_gather": ["cross_replica", "cross_replica_and_partition", "flattened_id"],
            "reduce_scatter": ["cross_replica", "cross_replica_and_partition", "flattened_id"],
            "all_to_all": ["cross_replica", "cross_partition"],
            "collective_broadcast": ["cross_replica", "cross_partition"],
        }[kind]
        mode: str = self._pin("mode", lambda: self.choice(modes))
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
        return self._pin("groups", lambda: self._draw_groups(mode, uniform, cover))

    def _draw_groups(self, mode: str, uniform: bool, cover: bool) -> tuple[str, int]:
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
        text = "[" + ", ".join(ints(g) for g in groups) + "]"
        return text, max(sizes) * per

    def iota_groups(self, n: int, per: int) -> tuple[str, int]:
        size = self.choice(divisors(n))
        dims = factor(self, n, max_rank=3)
        perm = tuple(self.draw(st.permutations(range(len(dims)))))
        text = f"[{n // size},{size}]<=[{','.join(map(str, dims))}]"
        if perm != tuple(range(len(dims))):
            text += f"T({','.join(map(str, perm))})"
        return text, size * per

    def reducer_kind(self, dtype: str) -> str:
        del dtype
        return self._pin("reducer", lambda: self.choice(["add", "maximum", "minimum", "multiply"]))

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


def _group_sizes(b: ValueBuilder, n: int, uniform: bool) -> list[int]:
    if uniform:
        size = b.choice(divisors(n))
        return [size] * (n // size)
    sizes: list[int] = []
    rest = n
    while rest:
        s = b.integers(1, rest)
        sizes.append(s)
        rest -= s
    return sizes


def _scaled(t: TensorT, dim: int, mul: int, div: int = 1) -> TensorT:
    shape = list(t.shape)
    shape[dim] = shape[dim] * mul // div
    return t.with_shape(shape)
