"""Text emission for the while-loop program generator (`neuron_cc.testing.generate_loops`).

Type-text helpers (`tensor`, `tuple_of`, ...), the SSA line writer with module-unique names
(`Emitter`), random valid replica groups in every group mode with their device groups (`Groups`,
`replica_groups`), and the module under construction (`Module`: entry arguments, collectives with
unique channel ids, the final text; `new_module` draws its structural details). Also the meshes
and element types the loop recipes draw from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from neuron_cc.dialects.replica_groups import GroupMode, flattened_participants, group_size

MESHES: tuple[tuple[int, int], ...] = ((1, 8), (2, 4), (8, 1))
ELEMENTS: tuple[str, ...] = ("f32", "bf16", "i32")

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
