"""Control-flow steps of the general program generator (`neuron_cc.testing.generate`).

`ControlFlowBuilder` adds to `ValueBuilder` while loops with a known trip count (the JAX counter
idiom, any start / step / direction) or a data-dependent one (a bound all-reduced over every
device, so the predicate is the same everywhere); their bodies are random steps of their own
over the carried values (`step`, provided by `generate.Builder`), so loops nest.
"""

from __future__ import annotations

from neuron_cc.testing.generate_values import BOUND, Scope, TensorT, TupleT, Val, ValueBuilder, ints


class ControlFlowBuilder(ValueBuilder):
    """The `while_loop` step and the condition and body regions it writes."""

    def step(self, depth: int) -> None:
        """One random step at loop depth `depth` (`generate.Builder.step`)."""
        raise NotImplementedError

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
            "[" + ints(list(range(self.n))) + "]" if self.flip() else f"[1,{self.n}]<=[{self.n}]"
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
