"""Case records and shared recipe pieces of the while-loop program generator.

What a loop recipe (`neuron_cc.testing.generate_loops`) expects of its pass and of
neuron-default-pipeline (`Expect`, `LoopCase`, built by `make_case` from an `Outcome`), the
passes' names, and the pieces the recipes share: random shapes, per-iteration contributions,
float tolerances, buffer inits, replica-group gates, replication checks and condition reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from neuron_cc.testing.generate_loops_emit import Draw, Emitter, Groups, Module, is_float, tensor
from neuron_cc.testing.generated_program import GeneratedProgram

AR_PASS = "neuron-while-loop-all-reduce-code-motion"
RS_PASS = "neuron-move-reduce-scatter-while-loop"
AG_PASS = "neuron-move-all-gather-while-loop"


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
    """What a recipe expects; `make_case` turns it into a LoopCase."""

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


def make_case(mod: Module, results: Sequence[tuple[str, str]], recipe: str, o: Outcome) -> LoopCase:
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


def scattered(shape: tuple[int, ...], dim: int, size: int) -> tuple[int, ...]:
    return (*shape[:dim], shape[dim] * size, *shape[dim + 1 :])


def init_buffer(mod: Module, draw: Draw, element: str, shape: Sequence[int]) -> str:
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


def gate(o: Outcome, variant: str, groups: Groups, mesh: tuple[int, int]) -> None:
    """The `reference-replica-groups` option of the "gate" (mismatch) and "gate matches"
    variants; the default pipeline has no gate, so it moves both."""
    if variant == "gate":
        o.pass_options = (("reference_replica_groups", _other_reference(groups, mesh)),)
        o.pipeline_moves = True
    elif variant == "gate matches":
        text = ";".join(",".join(map(str, g)) for g in groups.groups)
        o.pass_options = (("reference_replica_groups", text),)


def is_replicated(values: Sequence[int], groups: Groups) -> bool:
    return all(len({values[d] for d in g}) == 1 for g in groups.participants)


def reads_first_element(em: Emitter, value: str, shape: Sequence[int], element: str) -> str:
    """`value[0, ...] == value[0, ...]`: a pred that reads `value` and is true on every device
    (no NaN is ever generated), so the control flow stays uniform."""
    ones = [1] * len(shape)
    first = em.slice(value, [0] * len(shape), ones, tensor(shape, element), tensor(ones, element))
    first = em.reshape(first, tensor(ones, element), tensor((), element))
    return em.compare("EQ", first, first, tensor((), element))
