"""While loops shaped like JAX scans, with loop-carried accumulators and their near misses.

A loop carries (counter, [trip count], invariants..., accumulators..., scan outputs...): the
counter starts at 0 and steps by 1 while `counter < trip`, the trip count a constant of the
condition or an entry parameter (`trip.N`, the same on every device) carried in the tuple.
The body slices the invariants at the counter (scan inputs), runs random moves, and updates
accumulators `acc + all-reduce(x)` (the pattern the loop code-motion passes move) or one of
its near misses:

- `max-of-add`: acc = max(acc, all-reduce-add(x)); `add-of-max`: acc + all-reduce-max(x)
- `read-elsewhere`: the accumulator also feeds another carried value
- `device-scaled`: acc + all-reduce(x) * replica-id / partition-id / flattened id
- `self-reduce`: acc + all-reduce(x + acc); `scaled-acc`: 2 * acc + all-reduce(x)

Bounds: the accumulator bound over all iterations is computed from the variant's recurrence
with the largest trip count before anything reads it, so every value keeps the exactness
guarantees of random_hlo_gen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from neuron_cc.testing.random_hlo_collgen import GroupChoice, choose_groups
from neuron_cc.testing.random_hlo_gen import (
    NUMERIC,
    TRIP_CONST_MAX,
    TRIP_PARAM_MAX,
    Gen,
    Scope,
    Val,
    accumulation_exact,
    representable,
    rounded,
)
from neuron_cc.testing.random_hlo_moves import device_index

VARIANTS = (
    ("plain", 5.0),
    ("max-of-add", 1.0),
    ("add-of-max", 1.0),
    ("read-elsewhere", 1.0),
    ("device-scaled", 1.0),
    ("self-reduce", 1.0),
    ("scaled-acc", 1.0),
)


@dataclass
class Slot:
    """One element of the loop state."""

    like: Val
    """Its type and its bound over every iteration."""
    init: Val | None
    """The entry value it starts from (None: zeros)."""
    next: Val | None = None
    """The body value fed back."""
    read: Val | None = None
    """Its get-tuple-element in the body."""
    out: bool = False
    """Read it after the loop."""


@dataclass(frozen=True)
class Plan:
    """An accumulator update decided before it is emitted."""

    variant: str
    kind: str
    choice: GroupChoice
    bound: float
    grid: int
    scale: str = ""
    scale_bound: float = 0.0


def _recurrence(variant: str, b0: float, bx: float, n: int, trips: int, scale: float) -> float:
    """The accumulator bound after `trips` iterations."""
    delta = bx * n
    b = b0
    for _ in range(trips):
        if variant == "max-of-add":
            b = max(b, delta)
        elif variant == "add-of-max":
            b = b + bx
        elif variant == "device-scaled":
            b = b + delta * scale
        elif variant == "self-reduce":
            b = b + n * (bx + b)
        elif variant == "scaled-acc":
            b = 2 * b + delta
        else:
            b = b + delta
    return max(b, b0)


class Loop:
    def __init__(self, g: Gen) -> None:
        self.g = g
        self.slots: list[Slot] = []
        self.body = Scope(in_loop=True)
        self.param = Val(g.name("state"), "tuple", ())
        self.trips = 0
        self.trip_const: int | None = None
        self.counter: Val | None = None

    # --- state ------------------------------------------------------------------------------

    def carry(self, like: Val, init: Val | None, pool: bool, out: bool = False) -> Val:
        """Add a state element; returns its value in the body."""
        slot = Slot(like, init, out=out)
        self.slots.append(slot)
        with self.g.in_scope(self.body):
            slot.read = self.g.gte(self.param, len(self.slots) - 1, like, pool=pool)
        return slot.read

    def start(self, invariants: Sequence[Val]) -> None:
        g = self.g
        if g.chance(0.5):
            trip = g.parameter("s32", (), hint="trip")
            self.trips = TRIP_PARAM_MAX
            g.features.add("trip-param")
        else:
            trip = None
            self.trip_const = g.rng.randint(0, TRIP_CONST_MAX)
            self.trips = self.trip_const
            g.features.add("trip-const")
        self.counter = self.carry(Val("i", "s32", (), float(self.trips)), None, pool=True)
        if trip is not None:
            self.carry(trip, trip, pool=False)
        for v in invariants:
            self.carry(v, v, pool=True, out=g.chance(0.1))

    def scan_input(self) -> None:
        g = self.g
        xs = g.pick(lambda v: v.rank >= 1 and v.name.startswith("get-tuple-element"))
        if xs is None or self.counter is None or not g.chance(0.6):
            return
        zeros = [g.constant("s32", 0) for _ in xs.shape[1:]]
        sizes = (1, *xs.shape[1:])
        dims = "{" + ",".join(map(str, sizes)) + "}"
        row = g.emit(
            "dynamic-slice",
            [xs, self.counter, *zeros],
            xs.dtype,
            sizes,
            f"dynamic_slice_sizes={dims}",
            bound=xs.bound,
            grid=xs.grid,
            wrapped=xs.wrapped,
            pool=False,
        )
        g.emit("reshape", [row], xs.dtype, xs.shape[1:], bound=xs.bound, grid=xs.grid)
        g.features.add("scan-xs")

    # --- accumulators -----------------------------------------------------------------------

    def _plan(self, x: Val, init: Val | None) -> Plan | None:
        g = self.g
        names = [v for v, _ in VARIANTS]
        variant = g.rng.choices(names, [w for _, w in VARIANTS])[0]
        kind = "maximum" if variant == "add-of-max" else "add"
        b0 = init.bound if init is not None else 0.0
        grid = max(x.grid, init.grid if init is not None else 0)
        scale, scale_bound = "", 0.0
        if variant == "device-scaled":
            scale = g.rng.choice(("replica", "partition", "flattened"))
            counts = {"replica": g.replicas, "partition": g.partitions, "flattened": g.devices}
            scale_bound = float(counts[scale] - 1)

        def bound_for(n: int) -> float:
            return _recurrence(variant, b0, x.bound, n, self.trips, scale_bound)

        def ok(n: int) -> bool:
            b = bound_for(n)
            if x.dtype == "bf16":
                return accumulation_exact(n * (x.bound + b), grid)
            return representable(x.dtype, b * (n + 2), grid)

        choice = choose_groups(g, "all-reduce", ok)
        if choice is None:
            return None
        return Plan(variant, kind, choice, bound_for(choice.size), grid, scale, scale_bound)

    def accumulate(self) -> bool:
        g = self.g
        with g.in_scope(self.body):
            x = g.pick(lambda v: v.dtype in NUMERIC and not v.wrapped and v.size <= 64)
        if x is None:
            return False
        init = None
        if g.chance(0.3):
            init = g.pick(lambda v: v.dtype == x.dtype and v.shape == x.shape and not v.wrapped)
        plan = self._plan(x, init)
        if plan is None:
            return False
        like = Val("acc", x.dtype, x.shape, rounded(x.dtype, plan.bound), plan.grid)
        acc = self.carry(like, init, pool=False, out=True)
        slot = self.slots[-1]
        with g.in_scope(self.body):
            slot.next = self._update(plan, x, acc)
        g.features.add("scan-accumulation" if plan.variant == "plain" else "near-miss")
        g.features.add(f"loop:{plan.variant}")
        return True

    def _update(self, plan: Plan, x: Val, acc: Val) -> Val:
        g = self.g
        operand = x
        if plan.variant == "self-reduce":
            operand = g.emit_like("add", [x, acc], acc)
        attrs = f"{plan.choice.attrs}, to_apply={g.reducer(plan.kind, x.dtype)}"
        delta = g.emit_like("all-reduce", [operand], acc, attrs)
        g.features.update(("all-reduce", f"all-reduce-{plan.kind}"))
        if plan.variant == "device-scaled":
            delta = self._scaled(delta, plan.scale)
        if plan.variant == "max-of-add":
            return g.emit_like("maximum", [acc, delta], acc)
        if plan.variant == "scaled-acc":
            two = g.splat(x.dtype, x.shape, 2.0)
            acc = g.emit_like("multiply", [acc, two], acc)
        new = g.emit_like("add", [acc, delta], acc)
        if plan.variant == "read-elsewhere":
            self._read_elsewhere(acc)
        return new

    def _scaled(self, delta: Val, which: str) -> Val:
        g = self.g
        index = device_index(g, which)
        value = g.emit("convert", [index], delta.dtype, (), bound=g.devices, pool=False)
        if delta.shape:
            value = g.emit(
                "broadcast", [value], delta.dtype, delta.shape, "dimensions={}", pool=False
            )
        return g.emit_like("multiply", [delta, value], delta)

    def _read_elsewhere(self, acc: Val) -> None:
        """aux' = aux + acc: a second carried value reads the accumulator."""
        g = self.g
        bound = rounded(acc.dtype, acc.bound * max(self.trips, 1))
        if not representable(acc.dtype, bound * 2, acc.grid):
            return
        like = Val("aux", acc.dtype, acc.shape, bound, acc.grid)
        aux = self.carry(like, None, pool=False, out=True)
        self.slots[-1].next = g.emit(
            "add", [aux, acc], acc.dtype, acc.shape, bound=bound, grid=acc.grid, pool=False
        )

    def scan_output(self) -> None:
        """ys' = dynamic-update-slice(ys, y, counter): the stacked outputs of a scan."""
        g = self.g
        rows = max(self.trips, 1)
        with g.in_scope(self.body):
            y = g.pick(lambda v: v.rank <= 2 and v.size * rows <= 128 and v.dtype != "pred")
        if y is None or self.counter is None:
            return
        like = Val("ys", y.dtype, (rows, *y.shape), y.bound, y.grid, y.wrapped)
        ys = self.carry(like, None, pool=False, out=True)
        with g.in_scope(self.body):
            shape = (1, *y.shape)
            row = g.emit("reshape", [y], y.dtype, shape, bound=y.bound, grid=y.grid, pool=False)
            zeros = [g.constant("s32", 0) for _ in y.shape]
            self.slots[-1].next = g.emit(
                "dynamic-update-slice",
                [ys, row, self.counter, *zeros],
                y.dtype,
                like.shape,
                bound=y.bound,
                grid=y.grid,
                wrapped=y.wrapped,
                pool=False,
            )
        g.features.add("scan-ys")

    # --- closing ----------------------------------------------------------------------------

    def _carry_sinks(self) -> None:
        """Body values nothing reads become loop outputs (scan outputs of the last iteration):
        no dead code in the body (XLA's SPMD partitioner CHECK-fails on a dead tuple-shaped
        op there), and every body instruction is observable."""
        reads = {s.read.name for s in self.slots if s.read is not None}
        for v in list(self.body.pool):
            if v.name not in self.g.used and v.name not in reads:
                self.carry(v, None, pool=False, out=True)
                self.slots[-1].next = v
                self.g.used.add(v.name)

    def _finish_body(self) -> None:
        g = self.g
        assert self.counter is not None
        self._carry_sinks()
        with g.in_scope(self.body):
            one = g.constant("s32", 1)
            step = g.emit("add", [self.counter, one], "s32", (), bound=self.trips + 1, pool=False)
        self.slots[0].next = step
        for slot in self.slots:
            slot.next = slot.next or slot.read

    def _tuple_type(self) -> str:
        return "(" + ", ".join(s.like.type for s in self.slots) + ")"

    def _body_text(self, name: str) -> str:
        t = self._tuple_type()
        names = ", ".join(s.next.name for s in self.slots if s.next is not None)
        lines = [
            f"  {self.param.name} = {t} parameter(0)",
            *self.body.lines,
            f"  ROOT {self.g.name('next')} = {t} tuple({names})",
        ]
        return "\n".join([f"{name} {{", *lines, "}"])

    def _cond_text(self, name: str) -> str:
        g = self.g
        t = self._tuple_type()
        p, i, n, lt = g.name("cstate"), g.name("ci"), g.name("cn"), g.name("lt")
        bound = (
            f"  {n} = s32[] constant({self.trip_const})"
            if self.trip_const is not None
            else f"  {n} = s32[] get-tuple-element({p}), index=1"
        )
        lines = [
            f"  {p} = {t} parameter(0)",
            f"  {i} = s32[] get-tuple-element({p}), index=0",
            bound,
            f"  ROOT {lt} = pred[] compare({i}, {n}), direction=LT",
        ]
        g.count += 4
        return "\n".join([f"{name} {{", *lines, "}"])

    def close(self) -> None:
        g = self.g
        self._finish_body()
        key = self.param.name.split(".")[-1]
        body, cond = f"body.{key}", f"cond.{key}"
        g.computations += [self._body_text(body), self._cond_text(cond)]
        inits = [s.init or g.splat(s.like.dtype, s.like.shape, 0.0) for s in self.slots]
        g.used.update(v.name for v in inits)
        t = self._tuple_type()
        state, result = g.name("init"), g.name("while")
        g.scope.lines.append(f"  {state} = {t} tuple({', '.join(v.name for v in inits)})")
        g.scope.lines.append(f"  {result} = {t} while({state}), condition={cond}, body={body}")
        g.count += 2
        whole = Val(result, "tuple", ())
        for k, slot in enumerate(self.slots):
            if slot.out or (k == 0 and g.chance(0.3)):
                g.gte(whole, k, slot.like)
        g.features.add("while")


Move = Callable[[Gen], bool]


def make_move_while(body_moves: Sequence[tuple[Move, float]]) -> Move:
    """The while move, running `body_moves` inside the loop body."""

    def move_while(g: Gen) -> bool:
        if g.scope is not g.entry:
            return False
        pool = [v for v in g.entry.pool if v.size <= 64]
        if not pool:
            return False
        loop = Loop(g)
        invariants = g.rng.sample(pool, min(len(pool), g.rng.randint(1, 3)))
        loop.start(invariants)
        with g.in_scope(loop.body):
            loop.scan_input()
            _run_moves(g, body_moves, g.rng.randint(1, 4))
        made = sum(loop.accumulate() for _ in range(g.rng.randint(1, 2)))
        if made == 0 or g.chance(0.4):
            loop.scan_output()
        loop.close()
        return True

    return move_while


def _run_moves(g: Gen, moves: Sequence[tuple[Move, float]], successes: int) -> None:
    funcs = [m for m, _ in moves]
    weights = [w for _, w in moves]
    done = 0
    for _ in range(successes * 8):
        if done >= successes:
            return
        done += g.rng.choices(funcs, weights)[0](g)
