"""Hypothesis strategies for while-loop programs: movable and near-miss collective patterns.

The loop part of issue 10's program generator. `loop_programs()` yields `GeneratedProgram`s
whose entry function runs one `hlo.while` (or one nested in another) with collectives in its body,
in the shapes the loop code-motion passes (issue 6) recognise and in shapes one step away from
them. `description` = "<recipe> <variant> <dtype> <group mode/layout>: movable [RxP; notes]" or
"...: near-miss: <reason> [...]". Recipes (tables AR_*, RS_*, AG_* below):

- all_reduce accumulation `acc' = acc + AR(x)` (neuron-while-loop-all-reduce-code-motion).
  Movable: plain, bf16 all_reduce between converts, select(p, AR, 0) / select(p, 0, AR) with a
  replicated predicate (loop index, or a partition/replica-id table that is constant within
  the groups), slice of a wider all_reduce, one all_reduce sliced into two buffers, reshape,
  DS/DUS at the loop index or at a table index replicated within the groups, a matching
  replica-group gate; zero (broadcast / constant) or non-zero (argument) inits. Near misses:
  max / min reducer, extra use of the buffer, loop condition reading the buffer, DS/DUS or
  select index not replicated within the groups, scaled result, select against non-zero,
  buffer reset by a select, accumulated twice, tuple-shaped all_reduce, result also carried in
  another slot, constrain_layout, a float result rounded through s32, no
  hlo.use_spmd_partitioning, a replica-group gate that does not match. Optionally a pre-loop
  all_reduce, a never-movable max-reducer accumulation next to it, and an outer loop.
- reduce_scatter accumulation `acc' = acc + RS(x)` (same pass, enable-reduce-scatter): plain,
  select with a broadcast scalar predicate, convert and transpose after the RS (setup rewrites);
  near misses: max reducer, full-tensor predicate, reduce-scatter motion not enabled.
- stacked sinks `buf' = DUS(buf, C(xs[i]), i)` with C = reduce_scatter or all_reduce (any
  reducer), with and without reshapes to a leading 1 (neuron-move-reduce-scatter-while-loop):
  movable with the trip count known; near misses: unknown trip count, buffer rows != trip
  count, counter starting at 1, step 2, buffer read by another op of the body.
- all_gathers of a loop-invariant weight (neuron-move-all-gather-while-loop): plain, through a
  convert, with an extra user of the shard or a condition reading it (moved into a new slot),
  two identical gathers (merged by the duplicate remover), two different gathers of the same
  weight (one moved into a new slot), a matching gate; near misses: weight
  updated in the body, gathered value computed in the body, gate mismatch.

Every recipe: meshes R x P in {1x8, 2x4, 8x1}; f32 / bf16 / s32; every group mode of the
collective (cross_replica, cross_replica_and_partition, flattened_id) with explicit, shuffled,
strided, iota and empty replica groups; trip counts 0-4, known (counter idioms i < N, i <= N-1,
N > i, i != N and JAX's scan index normalised by select(j < 0, j + N, j)) or unknown (the
bound is a reduce of a constant, opaque to the trip-count analysis); random shapes, per-iteration
arithmetic on the carried value, ops after the loop, loop inits through an optimization_barrier,
unused reads of every slot in loop conditions and the whole loop result returned.

`loop_cases()` yields `LoopCase`s: the program plus what the recipe's pass (with its options)
and neuron-default-pipeline must do with it: the collectives of that kind nested in loops and
their launch counts, before and after (tests/test_generate_loops.py checks them by execution).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from neuron_cc.analysis.replica_groups import GroupMode, flattened_participants, group_size
from neuron_cc.testing.generated_program import GeneratedProgram

MESHES: tuple[tuple[int, int], ...] = ((1, 8), (2, 4), (8, 1))
ELEMENTS: tuple[str, ...] = ("f32", "bf16", "i32")

AR_PASS = "neuron-while-loop-all-reduce-code-motion"
RS_PASS = "neuron-move-reduce-scatter-while-loop"
AG_PASS = "neuron-move-all-gather-while-loop"

Draw = Callable[[st.SearchStrategy[Any]], Any]


# --- text helpers --------------------------------------------------------------------------------


def tensor(shape: Sequence[int], element: str) -> str:
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{element}>"


def tuple_of(types: Sequence[str]) -> str:
    return f"tuple<{', '.join(types)}>"


def is_float(element: str) -> bool:
    return element in ("f32", "bf16")


def scalar_literal(element: str, value: float) -> str:
    if is_float(element):
        return f"{float(value):e}"
    return str(int(value))


@dataclass
class Emitter:
    """Writes SSA lines with globally unique names (one counter for the whole module)."""

    lines: list[str] = field(default_factory=list[str])
    counter: int = 0
    depth: int = 2

    def fresh(self, hint: str = "v") -> str:
        self.counter += 1
        return f"%{hint}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append("  " * self.depth + line)

    def op(self, hint: str, text: str) -> str:
        name = self.fresh(hint)
        self.emit(f"{name} = {text}")
        return name

    # Common ops.
    def const(self, element: str, value: float, shape: Sequence[int] = ()) -> str:
        lit = scalar_literal(element, value)
        return self.op("c", f"hlo.constant dense<{lit}> : {tensor(shape, element)}")

    def table(self, values: Sequence[int]) -> str:
        body = ", ".join(str(v) for v in values)
        return self.op("tab", f"hlo.constant dense<[{body}]> : {tensor([len(values)], 'i32')}")

    def bcast(self, value: str, element: str, shape: Sequence[int]) -> str:
        return self.op(
            "b",
            f"hlo.broadcast {value}, dims = [] : ({tensor((), element)}) -> {tensor(shape, element)}",
        )

    def zeros(self, element: str, shape: Sequence[int], form: str = "broadcast") -> str:
        if form == "constant" or not shape:
            return self.const(element, 0, shape)
        return self.bcast(self.const(element, 0), element, shape)

    def binary(self, name: str, a: str, b: str, t: str) -> str:
        return self.op("e", f"hlo.{name} {a}, {b} : {t}")

    def unary(self, name: str, a: str, t: str) -> str:
        return self.op("e", f"hlo.{name} {a} : {t}")

    def convert(self, a: str, src: str, dst: str) -> str:
        return self.op("cv", f"hlo.convert {a} : {src} -> {dst}")

    def reshape(self, a: str, src: str, dst: str) -> str:
        return self.op("rs", f"hlo.reshape {a} : ({src}) -> {dst}")

    def compare(self, direction: str, a: str, b: str, t: str) -> str:
        return self.op("p", f"hlo.compare {direction}, {a}, {b} : {t} -> {tensor((), 'i1')}")

    def gte(self, tup: str, index: int, t: str) -> str:
        return self.op("g", f"hlo.get_tuple_element {tup}[{index}] : {t}")

    def tuple(self, values: Sequence[str], types: Sequence[str]) -> str:
        return self.op("t", f"hlo.tuple {', '.join(values)} : {tuple_of(types)}")

    def dynamic_slice(
        self, a: str, at: Sequence[str], sizes: Sequence[int], src: str, dst: str
    ) -> str:
        index_types = ", ".join(tensor((), "i32") for _ in at)
        return self.op(
            "ds",
            f"hlo.dynamic_slice {a} at [{', '.join(at)}] sizes = [{', '.join(map(str, sizes))}]"
            f" : ({src}, {index_types}) -> {dst}",
        )

    def dynamic_update_slice(self, a: str, update: str, at: Sequence[str], t: str, u: str) -> str:
        index_types = ", ".join(tensor((), "i32") for _ in at)
        return self.op(
            "dus",
            f"hlo.dynamic_update_slice {a}, {update} at [{', '.join(at)}]"
            f" : ({t}, {u}, {index_types}) -> {t}",
        )

    def slice(self, a: str, start: Sequence[int], limit: Sequence[int], src: str, dst: str) -> str:
        def fmt(xs: Sequence[int]) -> str:
            return "[" + ", ".join(map(str, xs)) + "]"

        strides = [1] * len(start)
        return self.op(
            "sl",
            f"hlo.slice {a}, start = {fmt(start)}, limit = {fmt(limit)}, strides = {fmt(strides)}"
            f" : ({src}) -> {dst}",
        )

    def select(self, pred: str, a: str, b: str, pred_t: str, t: str) -> str:
        return self.op("sel", f"hlo.select {pred}, {a}, {b} : {pred_t}, {t}")


# --- replica groups ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Groups:
    """One replica-group choice: its text, its mode flags and the resulting device groups."""

    text: str
    mode: GroupMode
    groups: tuple[tuple[int, ...], ...]
    size: int
    """Devices per group."""
    participants: tuple[tuple[int, ...], ...]
    """Flattened device ids of each group."""
    label: str

    def flags(self, channel: int) -> str:
        if self.mode == GroupMode.CROSS_REPLICA:
            return ""
        if self.mode == GroupMode.FLATTENED_ID:
            return f" channel_id = {channel} use_global_device_ids"
        return f" channel_id = {channel}"


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def _explicit_text(groups: Sequence[Sequence[int]]) -> str:
    return "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"


@st.composite
def replica_groups(draw: Draw, mesh: tuple[int, int], min_size: int = 1) -> Groups:
    """A valid replica-group choice in some group mode for the mesh (R, P)."""
    r, p = mesh
    modes = [GroupMode.CROSS_REPLICA, GroupMode.CROSS_REPLICA_AND_PARTITION, GroupMode.FLATTENED_ID]
    mode: GroupMode = draw(st.sampled_from(modes))
    n = r * p if mode == GroupMode.FLATTENED_ID else r
    scale = p if mode == GroupMode.CROSS_REPLICA_AND_PARTITION else 1
    sizes = [s for s in _divisors(n) if s * scale >= min(min_size, n * scale)]
    s: int = draw(st.sampled_from(sizes))
    layout: str = draw(st.sampled_from(["contiguous", "strided", "shuffled", "empty"]))
    count = n // s
    if layout == "empty" and (mode == GroupMode.FLATTENED_ID or s != n):
        layout = "contiguous"
    if layout == "empty":
        groups: list[list[int]] = []
        text = "[]"
    elif layout == "shuffled":
        perm: list[int] = draw(st.permutations(list(range(n))))
        groups = [perm[i * s : (i + 1) * s] for i in range(count)]
        text = _explicit_text(groups)
    else:
        if layout == "contiguous":
            groups = [list(range(i * s, (i + 1) * s)) for i in range(count)]
            iota = f"[{count},{s}]<=[{n}]"
        else:
            groups = [list(range(i, n, count)) for i in range(count)]
            iota = f"[{count},{s}]<=[{s},{count}]T(1,0)"
        text = iota if draw(st.booleans()) else _explicit_text(groups)
    frozen = tuple(tuple(g) for g in groups)
    parts = flattened_participants(frozen, mode, r, p)
    return Groups(
        text=text,
        mode=mode,
        groups=frozen,
        size=group_size(frozen, mode, r, p),
        participants=tuple(tuple(g) for g in parts),
        label=f"{mode} {layout}{' iota' if '<=' in text else ''}",
    )


# --- modules ------------------------------------------------------------------------------------


@dataclass
class Module:
    """A module under construction: the entry function's arguments, body and results."""

    mesh: tuple[int, int]
    em: Emitter = field(default_factory=Emitter)
    args: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])
    channel: int = 0
    spmd: bool = True
    notes: list[str] = field(default_factory=list[str])
    """Details for the description (trip counts, non-zero inits, ...)."""
    barrier_init: bool = False
    """Loop inits are `optimization_barrier(tuple ...)`, not a tuple op."""
    whole_result: bool = False
    """The entry returns the outermost loop's whole result tuple."""
    dead_reads: bool = False
    """Loop conditions read every slot with get_tuple_elements that have no user."""

    def arg(self, t: str) -> str:
        name = f"%arg{len(self.args)}"
        self.args.append((name, t))
        return name

    def next_channel(self) -> int:
        self.channel += 1
        return self.channel

    def text(self, results: Sequence[tuple[str, str]]) -> str:
        r, p = self.mesh
        attrs = f"hlo.num_partitions = {p} : i64, hlo.num_replicas = {r} : i64"
        if self.spmd and p > 1:
            attrs += ", hlo.use_spmd_partitioning"
        params = ", ".join(f"{n}: {t}" for n, t in self.args)
        types = [t for _, t in results]
        lines = [f"builtin.module attributes {{{attrs}}} {{"]
        if len(results) == 1:
            ret_t = types[0]
            lines.append(f"  func.func @main({params}) -> {ret_t} attributes {{hlo.entry}} {{")
            lines.extend(self.em.lines)
            lines.append(f"    func.return {results[0][0]} : {ret_t}")
        else:
            ret_t = tuple_of(types)
            lines.append(f"  func.func @main({params}) -> {ret_t} attributes {{hlo.entry}} {{")
            lines.extend(self.em.lines)
            tup = f"%out{self.em.counter + 1}"
            names = ", ".join(n for n, _ in results)
            lines.append(f"    {tup} = hlo.tuple {names} : {ret_t}")
            lines.append(f"    func.return {tup} : {ret_t}")
        lines.append("  }")
        lines.append("}")
        return "\n".join(lines) + "\n"

    # Collectives ------------------------------------------------------------------------------

    def _region(self, element: str, reducer: str) -> None:
        em = self.em
        a, b, s = em.fresh("a"), em.fresh("b"), em.fresh("s")
        scalar = tensor((), element)
        em.emit(f"^bb0({a}: {scalar}, {b}: {scalar}):")
        em.emit(f"  {s} = hlo.{reducer} {a}, {b} : {scalar}")
        em.emit(f"  hlo.return {s} : {scalar}")

    def all_reduce(
        self,
        operands: Sequence[str],
        types: Sequence[str],
        element: str,
        groups: Groups,
        reducer: str = "add",
        hint: str = "ar",
        extra_flags: str = "",
    ) -> str:
        em = self.em
        name = em.fresh(hint)
        flags = groups.flags(self.next_channel()) + extra_flags
        em.emit(
            f"{name} = hlo.all_reduce({', '.join(operands)}) replica_groups = {groups.text}{flags} {{"
        )
        self._region(element, reducer)
        result = types[0] if len(types) == 1 else tuple_of(types)
        em.emit(f"}} : ({', '.join(types)}) -> {result}")
        return name

    def reduce_scatter(
        self,
        operand: str,
        src: str,
        dst: str,
        dim: int,
        element: str,
        groups: Groups,
        reducer: str = "add",
    ) -> str:
        em = self.em
        name = em.fresh("rsc")
        flags = groups.flags(self.next_channel())
        em.emit(
            f"{name} = hlo.reduce_scatter({operand}) dim = {dim} replica_groups = {groups.text}"
            f"{flags} {{"
        )
        self._region(element, reducer)
        em.emit(f"}} : ({src}) -> {dst}")
        return name

    def all_gather(self, operand: str, src: str, dst: str, dim: int, groups: Groups) -> str:
        flags = groups.flags(self.next_channel())
        return self.em.op(
            "ag",
            f"hlo.all_gather({operand}) dim = {dim} replica_groups = {groups.text}{flags}"
            f" : ({src}) -> {dst}",
        )


def new_module(draw: Draw, mesh: tuple[int, int]) -> Module:
    """A module for `mesh` with randomly chosen structural details around its loops."""
    mod = Module(mesh)
    mod.barrier_init = draw(st.integers(0, 3)) == 0
    mod.whole_result = draw(st.integers(0, 3)) == 0
    mod.dead_reads = draw(st.integers(0, 3)) == 0
    flags = (
        (mod.barrier_init, "barrier init"),
        (mod.whole_result, "whole result"),
        (mod.dead_reads, "unused condition reads"),
    )
    mod.notes.extend(note for flag, note in flags if flag)
    return mod


# --- loops --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trip:
    """How the loop counts: `trips` iterations; `known` if the analysis can see it."""

    trips: int
    known: bool
    idiom: str
    """"lt" (i < N), "le" (i <= N-1), "gt" (N > i), "ne" (i != N), "scan" (JAX: counter slot
    plus scan index normalised by select(j < 0, j + N, j)), "unknown" (the bound is a reduce
    of a constant carried in a slot: replicated, but opaque to the trip-count analysis)."""
    start: int = 0
    step: int = 1


@st.composite
def trips(draw: Draw, known: bool | None = None, low: int = 0, high: int = 4) -> Trip:
    n: int = draw(st.integers(low, high))
    if known is None:
        known = draw(st.booleans())
    if not known:
        return Trip(n, False, "unknown")
    idiom: str = draw(st.sampled_from(["lt", "le", "gt", "ne", "scan"]))
    if idiom == "le" and n == 0:
        idiom = "lt"
    return Trip(n, True, idiom)


BodyFn = Callable[[list[str], str], list[str]]
"""(values of the user slots, index value) -> next values of the user slots."""
CondFn = Callable[[list[str]], str | None]
"""(values of the user slots in the condition) -> an extra pred to `and` in, or None."""


def emit_loop(
    mod: Module,
    types: Sequence[str],
    inits: Sequence[str],
    trip: Trip,
    body: BodyFn,
    cond: CondFn | None = None,
) -> tuple[str, str, int]:
    """Emit a while over the user slots (after the loop's own counter slots).

    Returns (while result, its tuple type, index of the first user slot)."""
    em = mod.em
    mod.notes.append(f"T={trip.trips} {trip.idiom}" + (f" from {trip.start}" if trip.start else ""))
    i32 = tensor((), "i32")
    own_types: list[str] = [i32]
    own_inits: list[str] = [em.const("i32", trip.start)]
    if trip.idiom == "scan":
        own_types.append(i32)
        own_inits.append(em.op("cp", f"hlo.copy {em.const('i32', 0)} : {i32}"))
    if trip.idiom == "unknown":
        # The bound: a reduce of a constant, replicated but opaque to the trip-count analysis.
        table = em.table([trip.start + trip.step * trip.trips])
        a, b, total = em.fresh("a"), em.fresh("b"), em.fresh("s")
        bound = em.fresh("bound")
        em.emit(
            f"{bound} = hlo.reduce({table} : {tensor([1], 'i32')}) init({em.const('i32', 0)}"
            f" : {i32}) dimensions = [0] {{"
        )
        em.emit(f"^bb0({a}: {i32}, {b}: {i32}):")
        em.emit(f"  {total} = hlo.add {a}, {b} : {i32}")
        em.emit(f"  hlo.return {total} : {i32}")
        em.emit(f"}} -> {i32}")
        own_types.append(i32)
        own_inits.append(bound)
    first = len(own_types)
    all_types = [*own_types, *types]
    tt = tuple_of(all_types)
    init = em.tuple([*own_inits, *inits], all_types)
    if mod.barrier_init:
        init = em.op("ob", f"hlo.optimization_barrier {init} : {tt}")
    loop = em.fresh("while")
    em.emit(f"{loop} = hlo.while({init}) : {tt} condition {{")
    arg = em.fresh("cs")
    em.emit(f"^bb0({arg}: {tt}):")
    em.depth += 1
    ci = em.gte(arg, 0, tt)
    pred = _condition(em, trip, ci, arg, tt)
    if cond is not None or mod.dead_reads:
        # With `dead_reads`, every slot is read by an unused get_tuple_element (a read in
        # name only, as imported HLO often has).
        values = [em.gte(arg, first + k, tt) for k in range(len(types))]
        extra = cond(values) if cond is not None else None
        if extra is not None:
            pred = em.binary("and", pred, extra, tensor((), "i1"))
    em.emit(f"hlo.return {pred} : {tensor((), 'i1')}")
    em.depth -= 1
    em.emit("} body {")
    arg = em.fresh("bs")
    em.emit(f"^bb0({arg}: {tt}):")
    em.depth += 1
    i = em.gte(arg, 0, tt)
    step = em.const("i32", trip.step)
    nexts = [em.binary("add", i, step, i32)]
    index = i
    if trip.idiom == "scan":
        j = em.gte(arg, 1, tt)
        nexts.append(em.binary("add", j, step, i32))
        zero = em.const("i32", 0)
        neg = em.compare("LT", j, zero, i32)
        wrapped = em.binary("add", j, em.const("i32", max(trip.trips, 1)), i32)
        sel = em.select(neg, wrapped, j, tensor((), "i1"), i32)
        index = em.op("cp", f"hlo.copy {sel} : {i32}")
    if trip.idiom == "unknown":
        nexts.append(em.gte(arg, len(own_types) - 1, tt))
    values = [em.gte(arg, first + k, tt) for k in range(len(types))]
    nexts.extend(body(values, index))
    result = em.tuple(nexts, all_types)
    em.emit(f"hlo.return {result} : {tt}")
    em.depth -= 1
    em.emit("}")
    return loop, tt, first


def _condition(em: Emitter, trip: Trip, ci: str, arg: str, tt: str) -> str:
    i32 = tensor((), "i32")
    end = trip.start + trip.step * trip.trips
    if trip.idiom == "le":
        return em.compare("LE", ci, em.const("i32", end - 1), i32)
    if trip.idiom == "gt":
        return em.compare("GT", em.const("i32", end), ci, i32)
    if trip.idiom == "ne":
        return em.compare("NE", ci, em.const("i32", end), i32)
    if trip.idiom == "unknown":
        bound = em.gte(arg, 1, tt)
        return em.compare("LT", ci, bound, i32)
    return em.compare("LT", ci, em.const("i32", end), i32)


# --- the case record ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    """Collectives of `LoopCase.op` nested in while bodies and launches of `LoopCase.kind`."""

    in_loops: int
    launches: int


@dataclass(frozen=True)
class LoopCase:
    """A generated program and what the loop passes must do with it."""

    program: GeneratedProgram
    op: str
    """The collective the recipe is about, e.g. "hlo.all_reduce"."""
    kind: str
    """Its launch-statistics key, e.g. "all-reduce"."""
    movable: bool
    pass_name: str
    pass_options: tuple[tuple[str, Any], ...]
    """Field name -> value of the pass dataclass (e.g. enable_reduce_scatter=True)."""
    before: Expect
    after_pass: Expect
    after_pipeline: Expect
    """After neuron-default-pipeline (no replica-group gate, reduce-scatter and setup on)."""
    tolerance: str
    """"exact", "f32" (reassociated f32 sums) or "bf16" (bf16 sums or bf16 collectives)."""


KIND = {
    "hlo.all_reduce": "all-reduce",
    "hlo.reduce_scatter": "reduce-scatter",
    "hlo.all_gather": "all-gather",
}


@dataclass
class Outcome:
    """What a recipe expects; `_case` turns it into a LoopCase."""

    op: str
    pass_name: str
    movable: bool = True
    reason: str = ""
    trips: int = 0
    """Launches of the collective per run of the program (product of nested trip counts)."""
    in_loops: int = 1
    base: int = 0
    """Launches of collectives of the same kind outside every loop."""
    tolerance: str = "exact"
    pass_options: tuple[tuple[str, Any], ...] = ()
    pipeline_moves: bool | None = None
    """None: the pipeline does what the pass does."""
    moved: Expect | None = None
    """The state after a move (None: no collective left in loops, one launch)."""


def _case(mod: Module, results: Sequence[tuple[str, str]], recipe: str, o: Outcome) -> LoopCase:
    r, p = mod.mesh
    verdict = "movable" if o.movable else f"near-miss: {o.reason}"
    notes = "; ".join([f"{r}x{p}", *mod.notes])
    description = f"{recipe}: {verdict} [{notes}]"
    program = GeneratedProgram(mod.text(results), r, p, description)
    before = Expect(o.in_loops, o.base + o.trips * o.in_loops)
    moved = o.moved if o.moved is not None else Expect(0, o.base + 1)
    pipeline_moves = o.movable if o.pipeline_moves is None else o.pipeline_moves
    return LoopCase(
        program=program,
        op=o.op,
        kind=KIND[o.op],
        movable=o.movable,
        pass_name=o.pass_name,
        pass_options=o.pass_options,
        before=before,
        after_pass=moved if o.movable else before,
        after_pipeline=moved if pipeline_moves else before,
        tolerance=o.tolerance,
    )


# --- shared pieces -------------------------------------------------------------------------------


def shapes(
    rank_low: int = 0, rank_high: int = 2, high: int = 4
) -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(st.integers(1, high), min_size=rank_low, max_size=rank_high).map(tuple)


def contribution(
    em: Emitter, draw: Draw, v: str, i: str, element: str, shape: Sequence[int]
) -> str:
    """A per-iteration value of `shape` computed from the carried `v` and the index `i`."""
    t = tensor(shape, element)
    form: str = draw(st.sampled_from(["plain", "scale", "shift", "negate", "cosine"]))
    if form == "plain":
        return v
    if form == "negate" or (form == "cosine" and not is_float(element)):
        return em.unary("negate", v, t)
    if form == "cosine":
        return em.unary("cosine", v, t)
    fi = i if element == "i32" else em.convert(i, tensor((), "i32"), tensor((), element))
    b = em.bcast(fi, element, shape)
    return em.binary("multiply" if form == "scale" else "add", v, b, t)


def float_tolerance(element: str) -> str:
    return {"f32": "f32", "bf16": "bf16"}.get(element, "exact")


def _scattered(shape: tuple[int, ...], dim: int, size: int) -> tuple[int, ...]:
    return (*shape[:dim], shape[dim] * size, *shape[dim + 1 :])


def _init_buffer(mod: Module, draw: Draw, element: str, shape: Sequence[int]) -> str:
    """A zero buffer (broadcast or constant) or a non-zero one (an entry argument)."""
    form: str = draw(st.sampled_from(["broadcast", "constant", "argument"]))
    if form == "argument":
        mod.notes.append("non-zero init")
        return mod.arg(tensor(shape, element))
    return mod.em.zeros(element, shape, form)


def _other_reference(groups: Groups, mesh: tuple[int, int]) -> str:
    """A reference-replica-groups text that does not equal `groups` (after expansion)."""
    n = mesh[0] * mesh[1]
    candidate = [[i] for i in range(n)]
    if tuple(tuple(g) for g in candidate) == groups.groups:
        candidate = [list(range(n))]
    return ";".join(",".join(map(str, g)) for g in candidate)


def _gate(o: Outcome, variant: str, groups: Groups, mesh: tuple[int, int]) -> None:
    """The `reference-replica-groups` option of the "gate" (mismatch) and "gate matches"
    variants; the default pipeline has no gate, so it moves both."""
    if variant == "gate":
        o.pass_options = (("reference_replica_groups", _other_reference(groups, mesh)),)
        o.pipeline_moves = True
    elif variant == "gate matches":
        text = ";".join(",".join(map(str, g)) for g in groups.groups)
        o.pass_options = (("reference_replica_groups", text),)


def _replicated(values: Sequence[int], groups: Groups) -> bool:
    return all(len({values[d] for d in g}) == 1 for g in groups.participants)


def _reads_first_element(em: Emitter, value: str, shape: Sequence[int], element: str) -> str:
    """`value[0, ...] == value[0, ...]`: a pred that reads `value` and is true on every device
    (no NaN is ever generated), so the control flow stays uniform."""
    ones = [1] * len(shape)
    first = em.slice(value, [0] * len(shape), ones, tensor(shape, element), tensor(ones, element))
    first = em.reshape(first, tensor(ones, element), tensor((), element))
    return em.compare("EQ", first, first, tensor((), element))


def emit_nest(
    mod: Module,
    types: Sequence[str],
    inits: Sequence[str],
    trip: Trip,
    outer: Trip | None,
    body: BodyFn,
    cond: CondFn | None = None,
    prepare: Callable[[list[str]], list[str]] | None = None,
) -> tuple[str, str, int, int]:
    """The loop, or (with `outer`) the loop inside an outer loop that threads every slot through
    it (through `prepare` on the way in, when given). Returns (outermost loop, its tuple type,
    first user slot, total trips of the body)."""
    if outer is None:
        loop, tt, first = emit_loop(mod, types, inits, trip, body, cond)
        return loop, tt, first, trip.trips
    em = mod.em

    def outer_body(values: list[str], i: str) -> list[str]:
        if prepare is not None:
            values = prepare(values)
        inner, itt, ifirst = emit_loop(mod, types, values, trip, body, cond)
        return [em.gte(inner, ifirst + k, itt) for k in range(len(types))]

    loop, tt, first = emit_loop(mod, types, inits, outer, outer_body)
    return loop, tt, first, trip.trips * outer.trips


def _outputs(
    mod: Module, draw: Draw, loop: str, tt: str, slots: Sequence[tuple[int, str]]
) -> list[tuple[str, str]]:
    """Read `slots` (index, type) of the loop; the first always, the others at random, some
    through an extra op after the loop (the result used by a multiply, ...)."""
    em = mod.em
    if mod.whole_result:
        return [(loop, tt)]
    results: list[tuple[str, str]] = []
    for n, (slot, t) in enumerate(slots):
        if n and not draw(st.booleans()):
            continue
        value = em.gte(loop, slot, tt)
        after: str = draw(st.sampled_from(["none", "none", "negate", "multiply"]))
        if after == "negate":
            value = em.unary("negate", value, t)
        elif after == "multiply":
            value = em.binary("multiply", value, value, t)
        results.append((value, t))
    return results


# --- recipes: all_reduce accumulation (neuron-while-loop-all-reduce-code-motion) ---------------

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
    b.replicated = _replicated(per_device, b.groups)
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
    _gate(o, b.variant, b.groups, b.mod.mesh)
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
    types, inits = [bt, t], [_init_buffer(mod, draw, element, buf_shape), x]
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
        return _reads_first_element(em, values[0], buf_shape, element)

    reads = cond if variant == "condition reads buffer" else None
    nested: Trip | None = draw(st.none() | trips()) if variant != "gate" else None
    loop, tt, first, total = emit_nest(mod, types, inits, draw(trips()), nested, body, reads)
    results = _outputs(mod, draw, loop, tt, [(first + k, ty) for k, ty in enumerate(types)])
    mod.spmd = variant != "no spmd"
    label = f"all_reduce accumulate {variant} {element} {b.groups.label}"
    o = _ar_outcome(b, near, total, pre, neighbour, nested)
    return _case(mod, results, label + (" nested" if nested else ""), o)


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
        return _scattered(self.shape, self.dim, self.groups.size)

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
    acc0 = _init_buffer(mod, draw, element, shape)

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
    results = _outputs(mod, draw, loop, tt, [(first, t), (first + 1, it)])
    options: tuple[tuple[str, Any], ...] = (("enable_reduce_scatter", variant != "not enabled"),)
    if variant in ("convert", "transpose"):
        options += (("run_setup_passes", True),)
    o = Outcome("hlo.reduce_scatter", AR_PASS, not near, variant, total, pass_options=options)
    o.tolerance = "bf16" if variant == "convert" else float_tolerance(element)
    o.pipeline_moves = True if variant == "not enabled" else None
    if nested is not None and mod.barrier_init:
        o.moved = Expect(1, nested.trips)  # see _ar_outcome
    label = f"reduce_scatter accumulate {variant} {element} dim {b.dim} {groups.label}"
    return _case(mod, results, label + (" nested" if nested else ""), o)


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
            return _scattered(self.row, self.dim, self.groups.size)
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
    types, inits = [bt, xs_t], [_init_buffer(mod, draw, element, (rows, *row)), mod.arg(xs_t)]
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
    results = _outputs(mod, draw, loop, tt, [(first + k, ty) for k, ty in enumerate(types)])
    o = Outcome(f"hlo.{collective}", RS_PASS, not near, variant, total)
    if mod.barrier_init and not near:
        # The counter's init is read through an optimization_barrier: no known trip count.
        o.movable, o.reason = False, "loop init through an optimization_barrier"
    if nested is not None:
        # Sunk out of the inner loop into the outer body, which does not stack it.
        o.moved = Expect(1, nested.trips)
    o.tolerance = "exact" if reducer != "add" else float_tolerance(element)
    label = f"stacked {collective} sink {reducer} {element} {groups.label}"
    return _case(mod, results, label + (" nested" if nested else ""), o)


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
        return _scattered(self.shard, self.dim, self.groups.size)

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
    inits = [_init_buffer(mod, draw, element, b.gathered), mod.arg(st_)]
    if variant == "extra user":
        types.append(st_)
        inits.append(em.zeros(element, shard))

    def cond(values: list[str]) -> str:
        return _reads_first_element(em, values[1], shard, element)

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
    results = _outputs(mod, draw, loop, tt, [(first + k, ty) for k, ty in enumerate(types)])
    o = Outcome("hlo.all_gather", AG_PASS, not near, variant, total)
    two = 2 if variant == "two different gathers" else 1
    o.in_loops = 2 if variant in ("duplicate gathers", "two different gathers") else 1
    o.moved = Expect(0, two)
    _gate(o, variant, groups, mesh)
    stuck = computed or mod.barrier_init or variant in ("extra user", "condition reads weight")
    if nested is not None and stuck:
        # The inner loop keeps the shard's slot and appends the gathered one; the outer loop's
        # slot then passes through the inner loop's result, which the hoist does not recognise
        # as invariant: the gather leaves the inner loop only. Likewise when the inner loop's
        # weight is computed in the outer body or read through an optimization_barrier.
        o.moved = Expect(two, two * nested.trips)
    label = f"all_gather hoist {variant} {element} dim {b.dim} {groups.label}"
    return _case(mod, results, label + (" nested" if nested else ""), o)


# --- the strategies ----------------------------------------------------------------------------


def loop_cases() -> st.SearchStrategy[LoopCase]:
    """Every loop recipe, movable and near-miss, with its expectations."""
    return st.one_of(
        all_reduce_accumulate(), reduce_scatter_accumulate(), stacked_sink(), all_gather_hoist()
    )


def loop_programs() -> st.SearchStrategy[GeneratedProgram]:
    """Generated while-loop programs (see the module docstring for the recipes)."""
    return loop_cases().map(lambda case: case.program)
