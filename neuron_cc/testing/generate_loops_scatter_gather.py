"""Reduce_scatter and all_gather recipes of the while-loop program generator.

Three branches of `neuron_cc.testing.generate_loops.loop_cases()`: reduce_scatter
accumulations `acc' = acc + RS(x)` (`reduce_scatter_accumulate`, all-reduce code motion with
enable-reduce-scatter), stacked sinks `buf' = DUS(buf, C(xs[i]), i)` with C a reduce_scatter or
an all_reduce (`stacked_sink`, neuron-move-reduce-scatter-while-loop) and all_gathers of
loop-invariant weights (`all_gather_hoist`, neuron-move-all-gather-while-loop), movable and near
misses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from neuron_cc.testing.generate_loops_case import (
    AG_PASS,
    AR_PASS,
    RS_PASS,
    Expect,
    LoopCase,
    Outcome,
    contribution,
    float_tolerance,
    gate,
    init_buffer,
    make_case,
    reads_first_element,
    scattered,
    shapes,
)
from neuron_cc.testing.generate_loops_emit import (
    ELEMENTS,
    MESHES,
    Draw,
    Groups,
    Module,
    new_module,
    replica_groups,
    tensor,
)
from neuron_cc.testing.generate_loops_while import Trip, emit_nest, loop_outputs, trips

# --- recipes: reduce_scatter accumulation (all-reduce code motion, enable-reduce-scatter) ----

RS_ACC_MOVABLE = ("plain", "select scalar predicate", "convert", "transpose")
RS_ACC_NEAR = ("max reducer", "full predicate select", "not enabled")


@dataclass
class RsBody:
    """`acc' = acc + RS(g)` being built; `shape` is the scattered (buffer) shape."""

    mod: Module
    draw: Draw
    variant: str
    element: str
    shape: tuple[int, ...]
    dim: int
    groups: Groups

    @property
    def in_shape(self) -> tuple[int, ...]:
        return scattered(self.shape, self.dim, self.groups.size)

    def scatter(self, g: str) -> str:
        """RS(g), or its convert / transpose forms that need the setup rewrites."""
        mod, em, el = self.mod, self.mod.em, self.element
        t, it = tensor(self.shape, el), tensor(self.in_shape, el)
        if self.variant == "convert":
            nt, nit = tensor(self.shape, "bf16"), tensor(self.in_shape, "bf16")
            rs = mod.reduce_scatter(em.convert(g, it, nit), nit, nt, self.dim, "bf16", self.groups)
            return em.convert(rs, nt, t)
        if self.variant == "transpose":
            tin = tensor(self.in_shape[::-1], el)
            tout = tensor(self.shape[::-1], el)
            g2 = em.op("tr", f"hlo.transpose {g}, dims = [1, 0] : ({it}) -> {tin}")
            rs = mod.reduce_scatter(g2, tin, tout, 1 - self.dim, el, self.groups)
            return em.op("tr", f"hlo.transpose {rs}, dims = [1, 0] : ({tout}) -> {t}")
        reducer = "maximum" if self.variant == "max reducer" else "add"
        return mod.reduce_scatter(g, it, t, self.dim, el, self.groups, reducer)

    def select(self, value: str, i: str) -> str:
        em, el = self.mod.em, self.element
        t, pt = tensor(self.shape, el), tensor(self.shape, "i1")
        if self.variant == "full predicate select":
            pb = em.op("p", f"hlo.compare GT, {value}, {em.zeros(el, self.shape)} : {t} -> {pt}")
        else:
            bound = em.const("i32", self.draw(st.integers(0, 3)))
            pb = em.bcast(em.compare("GE", i, bound, tensor((), "i32")), "i1", self.shape)
        return em.select(pb, value, em.zeros(el, self.shape), pt, t)


@st.composite
def reduce_scatter_accumulate(draw: Draw) -> LoopCase:
    """`acc' = acc + RS(x)` with the scattered buffer widened by the pass (issue 6 §1)."""
    mesh: tuple[int, int] = draw(st.sampled_from(MESHES))
    near: bool = draw(st.booleans())
    variant: str = draw(st.sampled_from(RS_ACC_NEAR if near else RS_ACC_MOVABLE))
    element: str = "f32" if variant == "convert" else draw(st.sampled_from(ELEMENTS))
    rank: int = 2 if variant == "transpose" else draw(st.integers(1, 2))
    shape: tuple[int, ...] = draw(shapes(rank, rank, 3))
    groups: Groups = draw(replica_groups(mesh))
    b = RsBody(
        new_module(draw, mesh),
        draw,
        variant,
        element,
        shape,
        draw(st.integers(0, rank - 1)),
        groups,
    )
    mod, em = b.mod, b.mod.em
    t, it = tensor(shape, element), tensor(b.in_shape, element)
    x = mod.arg(it)
    acc0 = init_buffer(mod, draw, element, shape)

    def body(values: list[str], i: str) -> list[str]:
        acc, v = values
        contrib = b.scatter(contribution(em, draw, v, i, element, b.in_shape))
        if variant in ("select scalar predicate", "full predicate select"):
            contrib = b.select(contrib, i)
        swap: bool = draw(st.booleans())
        new_acc = em.binary("add", contrib, acc, t) if swap else em.binary("add", acc, contrib, t)
        return [new_acc, v if draw(st.booleans()) else em.unary("negate", v, it)]

    nested: Trip | None = draw(st.none() | trips())
    loop, tt, first, total = emit_nest(mod, [t, it], [acc0, x], draw(trips()), nested, body)
    results = loop_outputs(mod, draw, loop, tt, [(first, t), (first + 1, it)])
    options: tuple[tuple[str, Any], ...] = (("enable_reduce_scatter", variant != "not enabled"),)
    if variant in ("convert", "transpose"):
        options += (("run_setup_passes", True),)
    o = Outcome("hlo.reduce_scatter", AR_PASS, not near, variant, total, pass_options=options)
    o.tolerance = "bf16" if variant == "convert" else float_tolerance(element)
    o.pipeline_moves = True if variant == "not enabled" else None
    if nested is not None and mod.barrier_init:
        o.moved = Expect(1, nested.trips)  # see _ar_outcome
    label = f"reduce_scatter accumulate {variant} {element} dim {b.dim} {groups.label}"
    return make_case(mod, results, label + (" nested" if nested else ""), o)


# --- recipes: stacked collectives sunk by neuron-move-reduce-scatter-while-loop ----------------

RS_SINK_NEAR = (
    "unknown trip count",
    "rows differ from trip count",
    "counter starts at 1",
    "step 2",
    "buffer read in the body",
)


@dataclass
class SinkBody:
    """`buf' = DUS(buf, C(xs[i]) as a row, i)` with C a reduce_scatter or an all_reduce."""

    mod: Module
    draw: Draw
    collective: str
    element: str
    row: tuple[int, ...]
    """The collective's result shape (one row of the buffer without its leading 1)."""
    dim: int
    groups: Groups
    reducer: str
    keep_leading: bool
    """The collective works on [1, ...] rows (no reshapes around it)."""

    @property
    def row_in(self) -> tuple[int, ...]:
        if self.collective == "reduce_scatter":
            return scattered(self.row, self.dim, self.groups.size)
        return self.row

    def update(self, sl: str) -> str:
        """The [1, ...row] update computed from the [1, ...row_in] slice `sl`."""
        mod, em, el = self.mod, self.mod.em, self.element
        lead_in, lead = tensor((1, *self.row_in), el), tensor((1, *self.row), el)
        rin, r = tensor(self.row_in, el), tensor(self.row, el)
        if self.collective == "reduce_scatter":
            if self.keep_leading:
                return mod.reduce_scatter(sl, lead_in, lead, self.dim + 1, el, self.groups)
            c = mod.reduce_scatter(em.reshape(sl, lead_in, rin), rin, r, self.dim, el, self.groups)
            return em.reshape(c, r, lead)
        if self.keep_leading:
            return mod.all_reduce([sl], [lead], el, self.groups, self.reducer)
        c = mod.all_reduce([em.reshape(sl, lead, r)], [r], el, self.groups, self.reducer)
        return em.reshape(c, r, lead)


def _sink_trip(draw: Draw, variant: str) -> tuple[Trip, int]:
    """The loop's counting and the buffer's number of rows."""
    trip: Trip = draw(trips(known=variant != "unknown trip count", low=1))
    if variant in ("counter starts at 1", "step 2"):
        start, step = (1, 1) if variant == "counter starts at 1" else (0, 2)
        trip = Trip(trip.trips, True, draw(st.sampled_from(["lt", "le", "gt"])), start, step)
    rows = trip.trips
    if variant == "rows differ from trip count":
        rows += 1 if trip.trips == 1 or draw(st.booleans()) else -1
    return trip, rows


@st.composite
def stacked_sink(draw: Draw) -> LoopCase:
    """Per-iteration collectives stored in row i of a [T, ...] buffer (issue 6 §2)."""
    mesh: tuple[int, int] = draw(st.sampled_from(MESHES))
    near: bool = draw(st.booleans())
    variant: str = draw(st.sampled_from(RS_SINK_NEAR)) if near else ""
    collective: str = draw(st.sampled_from(["reduce_scatter", "all_reduce"]))
    element: str = draw(st.sampled_from(ELEMENTS))
    groups: Groups = draw(replica_groups(mesh))
    trip, rows = _sink_trip(draw, variant)
    rank: int = draw(st.integers(1, 2))
    row: tuple[int, ...] = draw(shapes(rank, rank, 3))
    scatter = collective == "reduce_scatter"
    dim: int = draw(st.integers(0, rank - 1)) if scatter else 0
    reducer: str = "add" if scatter else draw(st.sampled_from(["add", "maximum", "minimum"]))
    b = SinkBody(
        new_module(draw, mesh),
        draw,
        collective,
        element,
        row,
        dim,
        groups,
        reducer,
        draw(st.booleans()),
    )
    mod, em = b.mod, b.mod.em
    xs_t = tensor((trip.trips, *b.row_in), element)
    bt = tensor((rows, *row), element)
    types, inits = [bt, xs_t], [init_buffer(mod, draw, element, (rows, *row)), mod.arg(xs_t)]
    if variant == "buffer read in the body":
        types.append(bt)
        inits.append(em.zeros(element, (rows, *row)))

    def body(values: list[str], i: str) -> list[str]:
        buf, v = values[0], values[1]
        at = [i, *([em.const("i32", 0)] * rank)]
        lead_in = tensor((1, *b.row_in), element)
        sl = em.dynamic_slice(v, at, (1, *b.row_in), xs_t, lead_in)
        sl = em.unary("negate", sl, lead_in) if draw(st.booleans()) else sl
        update = b.update(sl)
        new_buf = em.dynamic_update_slice(buf, update, at, bt, tensor((1, *row), element))
        if variant == "buffer read in the body":
            return [new_buf, v, em.unary("negate", buf, bt)]
        return [new_buf, v]

    nested: Trip | None = draw(st.none() | trips())
    loop, tt, first, total = emit_nest(mod, types, inits, trip, nested, body)
    results = loop_outputs(mod, draw, loop, tt, [(first + k, ty) for k, ty in enumerate(types)])
    o = Outcome(f"hlo.{collective}", RS_PASS, not near, variant, total)
    if mod.barrier_init and not near:
        # The counter's init is read through an optimization_barrier: no known trip count.
        o.movable, o.reason = False, "loop init through an optimization_barrier"
    if nested is not None:
        # Sunk out of the inner loop into the outer body, which does not stack it.
        o.moved = Expect(1, nested.trips)
    o.tolerance = "exact" if reducer != "add" else float_tolerance(element)
    label = f"stacked {collective} sink {reducer} {element} {groups.label}"
    return make_case(mod, results, label + (" nested" if nested else ""), o)


# --- recipes: all_gathers of loop-invariant weights ---------------------------------------------

AG_MOVABLE = (
    "plain",
    "convert",
    "extra user",
    "condition reads weight",
    "duplicate gathers",
    "two different gathers",
    "gate matches",
)
AG_NEAR = ("weight updated", "gathered value computed", "gate")
NARROW = {"f32": "bf16", "bf16": "f32", "i32": "f32"}


@dataclass
class GatherBody:
    """`acc' = acc + f(AG(w))` with w a loop-carried shard."""

    mod: Module
    draw: Draw
    variant: str
    element: str
    shard: tuple[int, ...]
    dim: int
    groups: Groups

    @property
    def gathered(self) -> tuple[int, ...]:
        return scattered(self.shard, self.dim, self.groups.size)

    def gather(self, w: str, converted: bool = False) -> str:
        mod, em, el = self.mod, self.mod.em, self.element
        st_, gt_ = tensor(self.shard, el), tensor(self.gathered, el)
        if self.variant == "convert" or converted:
            nst, ngt = tensor(self.shard, NARROW[el]), tensor(self.gathered, NARROW[el])
            ag = mod.all_gather(em.convert(w, st_, nst), nst, ngt, self.dim, self.groups)
            return em.convert(ag, ngt, gt_)
        if self.variant == "gathered value computed":
            w = em.unary("negate", w, st_)
        return mod.all_gather(w, st_, gt_, self.dim, self.groups)

    def step(self, values: list[str], i: str) -> list[str]:
        em = self.mod.em
        st_, gt_ = tensor(self.shard, self.element), tensor(self.gathered, self.element)
        acc, w = values[0], values[1]
        ag = self.gather(w)
        if self.variant in ("duplicate gathers", "two different gathers"):
            second = self.gather(w, converted=self.variant == "two different gathers")
            ag = em.binary("multiply", ag, second, gt_)
        contrib = contribution(em, self.draw, ag, i, self.element, self.gathered)
        new_w = em.unary("negate", w, st_) if self.variant == "weight updated" else w
        rest = [em.binary("add", acc, contrib, gt_), new_w]
        if self.variant == "extra user":
            rest.append(em.binary("add", values[2], w, st_))
        return rest


@st.composite
def all_gather_hoist(draw: Draw) -> LoopCase:
    """all_gathers of a loop-invariant slot (FSDP weights, issue 6 §3)."""
    mesh: tuple[int, int] = draw(st.sampled_from(MESHES))
    near: bool = draw(st.booleans())
    variant: str = draw(st.sampled_from(AG_NEAR if near else AG_MOVABLE))
    element: str = draw(st.sampled_from(ELEMENTS))
    rank: int = draw(st.integers(1, 2))
    shard: tuple[int, ...] = draw(shapes(rank, rank, 3))
    groups: Groups = draw(replica_groups(mesh))
    b = GatherBody(
        new_module(draw, mesh),
        draw,
        variant,
        element,
        shard,
        draw(st.integers(0, rank - 1)),
        groups,
    )
    mod, em = b.mod, b.mod.em
    st_, gt_ = tensor(shard, element), tensor(b.gathered, element)
    types = [gt_, st_]
    inits = [init_buffer(mod, draw, element, b.gathered), mod.arg(st_)]
    if variant == "extra user":
        types.append(st_)
        inits.append(em.zeros(element, shard))

    def cond(values: list[str]) -> str:
        return reads_first_element(em, values[1], shard, element)

    def negate_weight(values: list[str]) -> list[str]:
        mod.notes.append("inner weight computed in the outer body")
        return [values[0], em.unary("negate", values[1], st_), *values[2:]]

    reads = cond if variant == "condition reads weight" else None
    nested: Trip | None = draw(st.none() | trips()) if variant != "gate" else None
    computed: bool = nested is not None and not near and draw(st.booleans())
    prepare = negate_weight if computed else None
    loop, tt, first, total = emit_nest(
        mod, types, inits, draw(trips()), nested, b.step, reads, prepare
    )
    results = loop_outputs(mod, draw, loop, tt, [(first + k, ty) for k, ty in enumerate(types)])
    o = Outcome("hlo.all_gather", AG_PASS, not near, variant, total)
    two = 2 if variant == "two different gathers" else 1
    o.in_loops = 2 if variant in ("duplicate gathers", "two different gathers") else 1
    o.moved = Expect(0, two)
    gate(o, variant, groups, mesh)
    stuck = computed or mod.barrier_init or variant in ("extra user", "condition reads weight")
    if nested is not None and stuck:
        # The inner loop keeps the shard's slot and appends the gathered one; the outer loop's
        # slot then passes through the inner loop's result, which the hoist does not recognise
        # as invariant: the gather leaves the inner loop only. Likewise when the inner loop's
        # weight is computed in the outer body or read through an optimization_barrier.
        o.moved = Expect(two, two * nested.trips)
    label = f"all_gather hoist {variant} {element} dim {b.dim} {groups.label}"
    return make_case(mod, results, label + (" nested" if nested else ""), o)
