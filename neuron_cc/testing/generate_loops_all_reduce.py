"""All_reduce accumulation recipes of the while-loop program generator.

`all_reduce_accumulate()` (one branch of `neuron_cc.testing.generate_loops.loop_cases()`):
`acc' = acc + AR(x)` in the movable variants of neuron-while-loop-all-reduce-code-motion
(`AR_MOVABLE`) and its near misses (`AR_NEAR`), each built by one `AR_BUILDERS` entry on an
`ArBody`, optionally next to a pre-loop all_reduce, a max-reducer neighbour and an outer loop.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import strategies as st

from neuron_cc.testing.generate_loops_case import (
    AR_PASS,
    Expect,
    LoopCase,
    Outcome,
    contribution,
    float_tolerance,
    gate,
    init_buffer,
    is_replicated,
    make_case,
    reads_first_element,
    shapes,
)
from neuron_cc.testing.generate_loops_emit import (
    ELEMENTS,
    MESHES,
    Draw,
    Emitter,
    Groups,
    Module,
    new_module,
    replica_groups,
    tensor,
    tuple_of,
)
from neuron_cc.testing.generate_loops_while import Trip, emit_nest, loop_outputs, trips

AR_MOVABLE = (
    "plain",
    "gate matches",
    "convert",
    "select",
    "select device predicate",
    "slice",
    "sliced two ways",
    "reshape",
    "ds_dus_counter",
    "ds_dus_table",
)
AR_NEAR = (
    "max reducer",
    "min reducer",
    "extra buffer use",
    "condition reads buffer",
    "scaled result",
    "select non-zero",
    "buffer reset",
    "accumulated twice",
    "tuple-shaped all_reduce",
    "result also carried",
    "constrain_layout",
    "float to int convert",
    "no spmd",
    "gate",
)


@dataclass
class ArBody:
    """One all_reduce accumulation being built: `acc' = acc (+) AR(g)` in some variant."""

    mod: Module
    draw: Draw
    variant: str
    element: str
    shape: tuple[int, ...]
    groups: Groups
    replicated: bool = True
    """False when a DS/DUS index turned out not replicated within the groups."""
    rows: int = 1
    """Rows of the DS/DUS buffer ([rows, ...shape])."""
    i: str = ""
    """The loop index in the body being built."""
    carried: str = ""
    """The all_reduce result also carried in the extra slot ("result also carried")."""

    @property
    def em(self) -> Emitter:
        return self.mod.em

    @property
    def t(self) -> str:
        return tensor(self.shape, self.element)

    def add(self, a: str, b: str, t: str | None = None) -> str:
        """a + b in a random operand order."""
        t = t or self.t
        swap: bool = self.draw(st.booleans())
        return self.em.binary("add", b, a, t) if swap else self.em.binary("add", a, b, t)

    def ar(self, x: str, t: str | None = None, element: str = "", reducer: str = "add") -> str:
        element = element or self.element
        flags = " constrain_layout" if self.variant == "constrain_layout" else ""
        return self.mod.all_reduce(
            [x], [t or self.t], element, self.groups, reducer, extra_flags=flags
        )

    def pred(self, direction: str, bound: int) -> tuple[str, str]:
        """A replicated pred on the loop index (i `direction` bound), broadcast to the shape."""
        em = self.em
        p = em.compare(direction, self.i, em.const("i32", bound), tensor((), "i32"))
        pb = em.bcast(p, "i1", self.shape) if self.shape else p
        return pb, tensor(self.shape, "i1")


def _ar_plain(b: ArBody, acc: str, g: str) -> str:
    return b.add(acc, b.ar(g))


def _ar_carried(b: ArBody, acc: str, g: str) -> str:
    """The result is added into the buffer AND carried in another slot."""
    b.carried = b.ar(g)
    return b.add(acc, b.carried)


def _ar_reducer(b: ArBody, acc: str, g: str) -> str:
    reducer = "maximum" if b.variant.startswith("max") else "minimum"
    return b.add(acc, b.ar(g, reducer=reducer))


def _ar_convert(b: ArBody, acc: str, g: str) -> str:
    """f32 buffer, bf16 all_reduce between two converts (JAX's mixed precision)."""
    em, nt = b.em, tensor(b.shape, "bf16")
    r = b.ar(em.convert(g, b.t, nt), nt, "bf16")
    return b.add(acc, em.convert(r, nt, b.t))


def _ar_float_int(b: ArBody, acc: str, g: str) -> str:
    em, it = b.em, tensor(b.shape, "i32")
    back = em.convert(em.convert(b.ar(g), b.t, it), it, b.t)
    return b.add(acc, back)


def _ar_select(b: ArBody, acc: str, g: str) -> str:
    em = b.em
    pb, pt = b.pred("GE", b.draw(st.integers(0, 3)))
    form: str = b.draw(st.sampled_from(["broadcast", "constant"]))
    zero = em.zeros(b.element, b.shape, form)
    r = b.ar(g)
    first: bool = b.draw(st.booleans())
    sel = em.select(pb, zero, r, pt, b.t) if first else em.select(pb, r, zero, pt, b.t)
    return b.add(acc, sel)


def _ar_select_device(b: ArBody, acc: str, g: str) -> str:
    """select(table[partition_id or replica_id] != 0, AR(g), 0): moved only when that
    predicate is replicated within the groups."""
    em = b.em
    index = _table_index(b, 2)
    p = em.compare("NE", index, em.const("i32", 0), tensor((), "i32"))
    pt = tensor(b.shape, "i1")
    pb = em.bcast(p, "i1", b.shape) if b.shape else p
    return b.add(acc, em.select(pb, b.ar(g), em.zeros(b.element, b.shape), pt, b.t))


def _ar_select_nonzero(b: ArBody, acc: str, g: str) -> str:
    em = b.em
    pb, pt = b.pred("GE", 1)
    one = em.const(b.element, 1)
    one = em.bcast(one, b.element, b.shape) if b.shape else one
    return b.add(acc, em.select(pb, b.ar(g), one, pt, b.t))


def _ar_scaled(b: ArBody, acc: str, g: str) -> str:
    em = b.em
    two = em.const(b.element, 2)
    two = em.bcast(two, b.element, b.shape) if b.shape else two
    return b.add(acc, em.binary("multiply", b.ar(g), two, b.t))


def _ar_reset(b: ArBody, acc: str, g: str) -> str:
    pb, pt = b.pred("EQ", 2)
    reset = b.em.select(pb, b.em.zeros(b.element, b.shape), acc, pt, b.t)
    return b.add(reset, b.ar(g))


def _ar_twice(b: ArBody, acc: str, g: str) -> str:
    r = b.ar(g)
    return b.add(b.add(acc, r), r)


def _ar_tuple(b: ArBody, acc: str, g: str) -> str:
    em = b.em
    pair = b.mod.all_reduce([g, em.unary("negate", g, b.t)], [b.t, b.t], b.element, b.groups)
    tt = tuple_of([b.t, b.t])
    return b.add(acc, em.binary("add", em.gte(pair, 0, tt), em.gte(pair, 1, tt), b.t))


def _ar_slice(b: ArBody, acc: str, g: str) -> str:
    """AR of [g, g] (concatenated on the last dimension), one half added into the buffer."""
    em, shape = b.em, b.shape or (1,)
    row = g if b.shape else em.reshape(g, b.t, tensor(shape, b.element))
    rt = tensor(shape, b.element)
    wide_shape = (*shape[:-1], shape[-1] * 2)
    wt = tensor(wide_shape, b.element)
    dim = len(wide_shape) - 1
    wide = em.op("cat", f"hlo.concatenate({row}, {row}) dim = {dim} : ({rt}, {rt}) -> {wt}")
    r = b.ar(wide, wt)
    offset = shape[-1] * b.draw(st.integers(0, 1))
    start = [0] * dim + [offset]
    part = em.slice(r, start, [*shape[:-1], offset + shape[-1]], wt, rt)
    if not b.shape:
        part = em.reshape(part, rt, b.t)
    return b.add(acc, part)


def _ar_two_ways(b: ArBody, acc: str, acc2: str, g: str) -> tuple[str, str]:
    """AR of [g, -g]; each half accumulated into its own buffer (two hoisted all_reduces)."""
    em, shape = b.em, b.shape or (1,)
    rt = tensor(shape, b.element)
    row = g if b.shape else em.reshape(g, b.t, rt)
    wide_shape = (*shape[:-1], shape[-1] * 2)
    wt = tensor(wide_shape, b.element)
    dim = len(wide_shape) - 1
    neg = em.unary("negate", row, rt)
    wide = em.op("cat", f"hlo.concatenate({row}, {neg}) dim = {dim} : ({rt}, {rt}) -> {wt}")
    r = b.ar(wide, wt)
    halves: list[str] = []
    for offset in (0, shape[-1]):
        part = em.slice(r, [0] * dim + [offset], [*shape[:-1], offset + shape[-1]], wt, rt)
        halves.append(part if b.shape else em.reshape(part, rt, b.t))
    return b.add(acc, halves[0]), b.add(halves[1], acc2)


def _ar_reshape(b: ArBody, acc: str, g: str) -> str:
    em = b.em
    ft = tensor((math.prod(b.shape),), b.element)
    r = b.ar(em.reshape(g, b.t, ft), ft)
    return b.add(acc, em.reshape(r, ft, b.t))


def _ar_ds_dus(b: ArBody, acc: str, g: str) -> str:
    """acc[idx] += AR(g) through a DS and a DUS at the same index (the buffer is [rows, ...]):
    idx is the loop index, or `table[partition_id]` / `table[replica_id]` (replicated within
    the groups or not, as the random table falls)."""
    em = b.em
    rows = b.rows
    buf_shape = (rows, *b.shape)
    bt, rt = tensor(buf_shape, b.element), tensor((1, *b.shape), b.element)
    index = b.i if b.variant == "ds_dus_counter" else _table_index(b, rows)
    zero = em.const("i32", 0)
    at = [index, *([zero] * len(b.shape))]
    old = em.dynamic_slice(acc, at, (1, *b.shape), bt, rt)
    if b.draw(st.booleans()):
        # Accumulate in the row's own shape, reshaping around the add.
        total = em.reshape(b.add(em.reshape(old, rt, b.t), b.ar(g)), b.t, rt)
    else:
        total = b.add(old, b.ar(em.reshape(g, b.t, rt), rt), rt)
    return em.dynamic_update_slice(acc, total, at, bt, rt)


def _table_index(b: ArBody, rows: int) -> str:
    em = b.em
    r, p = b.mod.mesh
    by_partition: bool = b.draw(st.booleans()) if r > 1 and p > 1 else p > 1
    size = p if by_partition else r
    values: list[int] = b.draw(st.lists(st.integers(0, rows - 1), min_size=size, max_size=size))
    table = em.table(values)
    who = em.op("id", f"hlo.{'partition_id' if by_partition else 'replica_id'} : tensor<ui32>")
    entry = em.op(
        "ds",
        f"hlo.dynamic_slice {table} at [{who}] sizes = [1]"
        f" : ({tensor([size], 'i32')}, tensor<ui32>) -> {tensor([1], 'i32')}",
    )
    per_device = [values[d % p] if by_partition else values[d // p] for d in range(r * p)]
    b.replicated = is_replicated(per_device, b.groups)
    return em.reshape(entry, tensor([1], "i32"), tensor((), "i32"))


AR_BUILDERS: dict[str, Callable[[ArBody, str, str], str]] = {
    "plain": _ar_plain,
    "gate": _ar_plain,
    "gate matches": _ar_plain,
    "no spmd": _ar_plain,
    "constrain_layout": _ar_plain,
    "result also carried": _ar_carried,
    "condition reads buffer": _ar_plain,
    "extra buffer use": _ar_plain,
    "max reducer": _ar_reducer,
    "min reducer": _ar_reducer,
    "convert": _ar_convert,
    "float to int convert": _ar_float_int,
    "select": _ar_select,
    "select device predicate": _ar_select_device,
    "select non-zero": _ar_select_nonzero,
    "scaled result": _ar_scaled,
    "buffer reset": _ar_reset,
    "accumulated twice": _ar_twice,
    "tuple-shaped all_reduce": _ar_tuple,
    "slice": _ar_slice,
    "reshape": _ar_reshape,
    "ds_dus_counter": _ar_ds_dus,
    "ds_dus_table": _ar_ds_dus,
}


def _ar_choice(draw: Draw) -> tuple[tuple[int, int], bool, str, str]:
    """(mesh, near miss?, variant, element type) of an all_reduce accumulation."""
    mesh: tuple[int, int] = draw(st.sampled_from(MESHES))
    near: bool = draw(st.booleans())
    variant: str = draw(st.sampled_from(AR_NEAR if near else AR_MOVABLE))
    element: str = draw(st.sampled_from(ELEMENTS))
    if variant in ("convert", "float to int convert"):
        element = "f32"
    if variant == "no spmd" and mesh[1] == 1:
        mesh = (2, 4)
    return mesh, near, variant, element


def _ar_outcome(
    b: ArBody, near: bool, total: int, pre: bool, neighbour: bool, outer: Trip | None
) -> Outcome:
    o = Outcome("hlo.all_reduce", AR_PASS, not near and b.replicated, b.variant, total, base=pre)
    if not b.replicated:
        o.reason = "index or predicate not replicated within the replica groups"
    gate(o, b.variant, b.groups, b.mod.mesh)
    o.tolerance = "bf16" if b.variant == "convert" else float_tolerance(b.element)
    hoisted = 2 if b.variant == "sliced two ways" else 1
    left, launches = 0, hoisted
    if outer is not None and b.mod.barrier_init:
        # Hoisted out of the inner loop, the all_reduce adds into the inner loop's init read
        # through the optimization_barrier, not into an outer buffer: it stays in the outer body.
        left, launches = hoisted, hoisted * outer.trips
    o.moved = Expect(left, pre + launches)
    if neighbour:
        o.in_loops = 2
        o.moved = Expect(left + 1, pre + total + launches)
    return o


@st.composite
def all_reduce_accumulate(draw: Draw) -> LoopCase:
    """`acc' = acc + AR(x)` and its variants (issue 6 §1, §4)."""
    mesh, near, variant, element = _ar_choice(draw)
    shape: tuple[int, ...] = draw(shapes())
    b = ArBody(new_module(draw, mesh), draw, variant, element, shape, draw(replica_groups(mesh)))
    mod, em, t = b.mod, b.em, b.t
    b.rows = draw(st.integers(1, 4))
    buf_shape = (b.rows, *shape) if variant.startswith("ds_dus") else shape
    bt = tensor(buf_shape, element)
    x = mod.arg(t)
    pre: bool = draw(st.booleans())
    if pre:  # an all_reduce before the loop (channel ids must stay unique)
        x = b.ar(x)
    types, inits = [bt, t], [init_buffer(mod, draw, element, buf_shape), x]
    if variant in ("extra buffer use", "sliced two ways", "result also carried"):
        types.append(bt)
        inits.append(em.zeros(element, buf_shape))
    # A second accumulation in the same loop that never moves (maximum reducer).
    neighbour: bool = draw(st.booleans())
    if neighbour:
        types.append(t)
        inits.append(em.zeros(element, shape))
        mod.notes.append("max-reducer neighbour")

    def body(values: list[str], i: str) -> list[str]:
        b.i = i
        acc, v = values[0], values[1]
        g = contribution(em, draw, v, i, element, shape)
        rest = [v if draw(st.booleans()) else em.unary("negate", v, t)]
        if variant == "sliced two ways":
            new_acc, new_acc2 = _ar_two_ways(b, acc, values[2], g)
            rest.append(new_acc2)
        else:
            new_acc = AR_BUILDERS[variant](b, acc, g)
        if variant == "extra buffer use":
            rest.append(em.binary("multiply", acc, acc, bt))
        if variant == "result also carried":
            rest.append(b.carried)
        if neighbour:
            rest.append(b.add(values[-1], b.ar(v, reducer="maximum")))
        return [new_acc, *rest]

    def cond(values: list[str]) -> str:
        return reads_first_element(em, values[0], buf_shape, element)

    reads = cond if variant == "condition reads buffer" else None
    nested: Trip | None = draw(st.none() | trips()) if variant != "gate" else None
    loop, tt, first, total = emit_nest(mod, types, inits, draw(trips()), nested, body, reads)
    results = loop_outputs(mod, draw, loop, tt, [(first + k, ty) for k, ty in enumerate(types)])
    mod.spmd = variant != "no spmd"
    label = f"all_reduce accumulate {variant} {element} {b.groups.label}"
    o = _ar_outcome(b, near, total, pre, neighbour, nested)
    return make_case(mod, results, label + (" nested" if nested else ""), o)
