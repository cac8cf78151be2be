"""Collective moves of the random HLO generator, in every group mode XLA has.

Groups always cover the id space of their mode with groups of one size (what XLA:CPU needs
at run time), written as explicit lists (random order), iota lists (`[G,S]<=[N]`, transposed
`[G,S]<=[a,b]T(1,0)`, 3-d) or `{}` (everyone, not for all-to-all or flattened ids). A
variadic all-reduce takes operands of one element type (one `to_apply`); a variadic
all-gather may mix element types; the tuple all-to-all has one operand per group member.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import permutations

from neuron_cc.testing import random_hlo_groups as G
from neuron_cc.testing.random_hlo_gen import (
    INT32_WRAP,
    MAX_ELEMENTS,
    NUMERIC,
    Gen,
    Val,
    accumulation_exact,
    representable,
    rounded,
)


@dataclass(frozen=True)
class GroupChoice:
    mode: str
    size: int
    """Devices per group."""
    attrs: str
    """`channel_id=..., replica_groups=..., use_global_device_ids=true` as needed."""


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def _iota_text(g: Gen, space: int, size: int) -> str:
    groups = space // size
    forms = [G.IotaGroups(groups, size, (space,), (0,))]
    for a in _divisors(space):
        if 1 < a < space:
            forms.append(G.IotaGroups(groups, size, (a, space // a), (1, 0)))
    if space == 8:
        perms = [p for p in permutations(range(3)) if p != (0, 1, 2)]
        forms.append(G.IotaGroups(groups, size, (2, 2, 2), g.rng.choice(perms)))
    return g.rng.choice(forms).text()


def _groups_text(g: Gen, opcode: str, mode: str, space: int, size: int) -> str:
    # XLA requires explicit groups in flattened-id mode and for all-to-all.
    if size == space and mode != G.FLATTENED_ID and opcode != "all-to-all" and g.chance(0.3):
        g.features.add("empty-groups")
        return "{}"
    if space > 1 and g.chance(0.4):
        g.features.add("iota-groups")
        return _iota_text(g, space, size)
    ids = list(range(space))
    if g.chance(0.6):
        g.rng.shuffle(ids)
    g.features.add("explicit-groups")
    return G.explicit_text(
        [
            sorted(ids[i : i + size]) if g.chance(0.5) else ids[i : i + size]
            for i in range(0, space, size)
        ]
    )


def choose_groups(
    g: Gen, opcode: str, ok: Callable[[int], bool], modes: Sequence[str] = ()
) -> GroupChoice | None:
    """A random group mode (of `modes`, default all) and grouping of `opcode` whose devices
    per group satisfy `ok`."""
    options: list[tuple[str, int, int]] = []
    for mode in modes or G.modes_of(opcode):
        space = G.id_space(mode, g.replicas, g.partitions)
        scale = g.partitions if mode == G.CROSS_REPLICA_AND_PARTITION else 1
        options += [(mode, space, s) for s in _divisors(space) if ok(s * scale)]
    if not options:
        return None
    modes = sorted({m for m, _, _ in options})
    mode = g.rng.choice(modes)
    _, space, size = g.rng.choice([o for o in options if o[0] == mode])
    channel, global_ids = G.mode_attributes(mode)
    parts = [f"channel_id={g.channel()}"] if channel else []
    parts.append(f"replica_groups={_groups_text(g, opcode, mode, space, size)}")
    if global_ids:
        parts.append("use_global_device_ids=true")
    scale = g.partitions if mode == G.CROSS_REPLICA_AND_PARTITION else 1
    g.features.update((mode, f"{opcode}:{mode}"))
    return GroupChoice(mode, size * scale, ", ".join(parts))


def _emit(g: Gen, opcode: str, operands: list[Val], results: list[Val], attrs: str) -> None:
    if len(operands) == 1:
        r = results[0]
        g.emit(
            opcode,
            operands,
            r.dtype,
            r.shape,
            attrs,
            bound=r.bound,
            grid=r.grid,
            wrapped=r.wrapped,
        )
        return
    g.emit_tuple_op(opcode, operands, results, attrs)
    g.features.add("variadic")
    if len({o.dtype for o in operands}) > 1:
        g.features.add("mixed-dtype")


def _reduced_bound(kind: str, v: Val, n: int) -> tuple[bool, float]:
    """(is the reduction exact / in range, bound of its result) over n devices."""
    if kind != "add":
        return True, v.bound
    if v.wrapped:
        return True, INT32_WRAP
    bound = v.bound * n
    if v.dtype == "bf16":
        return accumulation_exact(bound, v.grid), rounded("bf16", bound)
    return representable(v.dtype, bound, v.grid), bound


def _reduction_operands(g: Gen, ok: Callable[[Val], bool]) -> list[Val]:
    a = g.pick(lambda v: v.dtype in NUMERIC and ok(v))
    if a is None:
        return []
    operands = [a]
    if g.chance(0.3):
        b = g.pick(lambda v: v.dtype == a.dtype and ok(v) and v is not a)
        if b is not None:
            operands.append(b)
    return operands


def _all_fit(kind: str, operands: list[Val], n: int) -> bool:
    return all(_reduced_bound(kind, v, n)[0] for v in operands)


def move_all_reduce(g: Gen) -> bool:
    """all-reduce of one operand, or of two of one element type: the variadic form only
    cross-replica, since XLA:CPU fails to compile a variadic all-reduce with a channel_id
    ("LogicalBuffer ... does not have a layout", notes/XLA_FINDINGS.md)."""
    operands = _reduction_operands(g, lambda v: True)
    if not operands:
        return False
    kind = g.rng.choice(("add", "add", "maximum", "minimum"))
    modes = (G.CROSS_REPLICA,) if len(operands) > 1 else ()
    choice = choose_groups(g, "all-reduce", lambda n: _all_fit(kind, operands, n), modes)
    if choice is None:
        return False
    results = [
        Val("r", v.dtype, v.shape, _reduced_bound(kind, v, choice.size)[1], v.grid, v.wrapped)
        for v in operands
    ]
    attrs = f"{choice.attrs}, to_apply={g.reducer(kind, operands[0].dtype)}"
    _emit(g, "all-reduce", operands, results, attrs)
    g.features.add(f"all-reduce-{kind}")
    return True


def move_reduce_scatter(g: Gen) -> bool:
    a = g.pick(lambda v: v.dtype in NUMERIC and v.rank >= 1 and max(v.shape) > 1)
    if a is None:
        return False
    dim = max(range(a.rank), key=lambda k: (a.shape[k] > 1, g.rng.random()))
    # One operand: jax's HLO -> StableHLO conversion rejects a variadic reduce-scatter.
    operands = [a]
    kind = g.rng.choice(("add", "add", "maximum", "minimum"))

    def ok(n: int) -> bool:
        return a.shape[dim] % n == 0 and _all_fit(kind, operands, n)

    choice = choose_groups(g, "reduce-scatter", ok)
    if choice is None:
        return False
    shape = list(a.shape)
    shape[dim] //= choice.size
    results = [
        Val("r", v.dtype, tuple(shape), _reduced_bound(kind, v, choice.size)[1], v.grid, v.wrapped)
        for v in operands
    ]
    attrs = f"{choice.attrs}, dimensions={{{dim}}}, to_apply={g.reducer(kind, a.dtype)}"
    _emit(g, "reduce-scatter", operands, results, attrs)
    return True


def move_all_gather(g: Gen) -> bool:
    a = g.pick(lambda v: v.rank >= 1 and v.size * 2 <= MAX_ELEMENTS)
    if a is None:
        return False
    dim = g.rng.randrange(a.rank)
    operands = [a]
    if g.chance(0.35):
        b = g.pick(lambda v: v.rank > dim and v.size * 2 <= MAX_ELEMENTS and v is not a)
        if b is not None:
            operands.append(b)
    biggest = max(v.size for v in operands)
    choice = choose_groups(g, "all-gather", lambda n: biggest * n <= MAX_ELEMENTS)
    if choice is None:
        return False
    results: list[Val] = []
    for v in operands:
        shape = list(v.shape)
        shape[dim] *= choice.size
        results.append(Val("r", v.dtype, tuple(shape), v.bound, v.grid, v.wrapped))
    _emit(g, "all-gather", operands, results, f"{choice.attrs}, dimensions={{{dim}}}")
    return True


def move_all_to_all(g: Gen) -> bool:
    if g.chance(0.3):
        return _all_to_all_tuple(g)
    a = g.pick(lambda v: v.rank >= 1 and max(v.shape) > 1)
    if a is None:
        return False
    dim = max(range(a.rank), key=lambda k: (a.shape[k] > 1, g.rng.random()))
    choice = choose_groups(g, "all-to-all", lambda n: a.shape[dim] % n == 0)
    if choice is None:
        return False
    g.emit(
        "all-to-all",
        [a],
        a.dtype,
        a.shape,
        f"{choice.attrs}, dimensions={{{dim}}}",
        bound=a.bound,
        grid=a.grid,
        wrapped=a.wrapped,
    )
    return True


def _all_to_all_tuple(g: Gen) -> bool:
    """The tuple form: one operand per group member, all of one element type and shape.

    Not of a transpose: XLA:CPU then fails its own check "all-to-all has operands with
    different shapes" (the layouts differ; notes/XLA_FINDINGS.md)."""

    def ok(v: Val) -> bool:
        return v.rank >= 1 and not v.name.startswith("transpose.")

    a = g.pick(ok)
    if a is None:
        return False
    choice = choose_groups(g, "all-to-all", lambda n: 2 <= n <= 4)
    if choice is None:
        return False
    operands = [a]
    for _ in range(choice.size - 1):
        operands.append(g.pick(lambda v: ok(v) and v.dtype == a.dtype and v.shape == a.shape) or a)
    bound = max(v.bound for v in operands)
    grid = max(v.grid for v in operands)
    wrapped = any(v.wrapped for v in operands)
    results = [Val("r", a.dtype, a.shape, bound, grid, wrapped) for _ in operands]
    g.emit_tuple_op("all-to-all", operands, results, choice.attrs)
    g.features.update(("variadic", "all-to-all-tuple"))
    return True


def _pairs(g: Gen, space: int) -> list[tuple[int, int]]:
    ids = list(range(space))
    if g.chance(0.5):
        shift = g.rng.randint(1, max(1, space - 1))
        targets = [(i + shift) % space for i in ids]
    else:
        targets = ids[:]
        g.rng.shuffle(targets)
    pairs = list(zip(ids, targets, strict=True))
    if g.chance(0.4) and space > 1:
        pairs = g.rng.sample(pairs, g.rng.randint(1, space - 1))
        g.features.add("permute-partial")
    return pairs


def move_collective_permute(g: Gen) -> bool:
    a = g.pick(lambda v: True)
    if a is None:
        return False
    mode = g.rng.choice(G.modes_of("collective-permute"))
    space = G.id_space(mode, g.replicas, g.partitions)
    pairs = _pairs(g, space)
    text = "{" + ",".join(f"{{{s},{t}}}" for s, t in pairs) + "}"
    channel = f"channel_id={g.channel()}, " if mode == G.CROSS_PARTITION else ""
    g.emit(
        "collective-permute",
        [a],
        a.dtype,
        a.shape,
        f"{channel}source_target_pairs={text}",
        bound=a.bound,
        grid=a.grid,
        wrapped=a.wrapped,
    )
    g.features.update((mode, f"collective-permute:{mode}"))
    return True
