"""While loops for the while-loop program generator (`neuron_cc.testing.generate_loops`).

How a loop counts (`Trip`, `trips`: known trip counts in several counter idioms, or an unknown
one), the loop itself around a recipe's body (`emit_loop`), optionally nested in an outer loop
(`emit_nest`), and reading the loop's results into the entry's outputs (`loop_outputs`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from neuron_cc.testing.generate_loops_emit import Draw, Emitter, Module, tensor, tuple_of


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


def loop_outputs(
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
