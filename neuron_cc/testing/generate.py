"""Hypothesis strategies producing random but VALID hlo modules (issue 10 §1).

`programs()` draws a `GeneratedProgram`: a complete `builtin.module` in neuron-cc's pretty syntax
for a mesh of R x P devices (1x8, 2x4 or 8x1) whose entry function `@main` takes 1-3 random
tensors and returns every value nothing else used (several as one `hlo.tuple`, like XLA's ROOT, so
the module is in the image of HLO import). Recipes (the `description` names the top-level
ones a program contains, e.g. "general: all_reduce/flattened_id, all_reduce/mixed, while/known"):

- data: constants, iota, partition_id / replica_id, elementwise unary and binary chains,
  broadcast, reshape, transpose, slice, concatenate, convert, dynamic_slice /
  dynamic_update_slice (replicated and per-device indices), reduce, tuple + get_tuple_element;
- collectives: all_reduce (add / maximum / minimum / multiply reducers, one operand or variadic
  with one or mixed f32 / s32 / bf16 element types), all_gather and reduce_scatter (one or
  several operands), all_to_all (array and tuple form), collective_permute,
  collective_broadcast - each in every group mode its opcode has (cross_replica,
  cross_replica_and_partition, flattened_id, cross_partition) with empty, explicit (shuffled,
  uniform or not) and iota replica groups; and `combinable/<kind>`: two or three all_reduces,
  all_gathers or reduce_scatters with one mode, one set of groups and one reducer (what the
  combiners merge); `permute_reduce/<op>` and `send_recv_cce`: what convert-hlo-to-bir fuses;
- control flow: while loops with a known trip count (the JAX counter idiom, any start / step /
  direction), with a data-dependent trip count (a bound all-reduced over every device, so the
  predicate is the same everywhere) and nested loops; loop bodies are random programs of their
  own over the carried values;
- the while-loop accumulation patterns (movable and near-miss) come from
  `neuron_cc.testing.generate_loops.loop_programs()`, one branch of `programs()`.

Values stay O(1): floats only go through continuous ops (no float compare, rounding or
float->int convert, so a legitimately reassociated sum never flips a discrete decision), every
value carries a magnitude bound and is squashed (tanh / clamp) before it could grow past 64,
multiply reducers only see values in [-1, 1] (floats) or [-2, 2] (ints), and ints never wrap
(an s32 operand of a mixed-type collective stays exact when promoted to f32).

`Builder` is split by topic: values, types and the operand pool in `generate_values`, data
steps in `generate_data`, collectives in `generate_collectives`, while loops in
`generate_control_flow`; this module holds the choice of step, the module around the steps and
the strategies (and re-exports the types and limits).
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from neuron_cc.testing.generate_collectives import CollectiveBuilder
from neuron_cc.testing.generate_control_flow import ControlFlowBuilder
from neuron_cc.testing.generate_data import DataBuilder
from neuron_cc.testing.generate_values import (
    BOUND,
    DTYPES,
    FLOATS,
    MAX_DEPTH,
    MAX_ELEMENTS,
    MESHES,
    Draw,
    Scope,
    TensorT,
    TupleT,
    Val,
)
from neuron_cc.testing.generated_program import GeneratedProgram

__all__ = [
    "BOUND",
    "DTYPES",
    "FLOATS",
    "MAX_DEPTH",
    "MAX_ELEMENTS",
    "MESHES",
    "Builder",
    "Draw",
    "Scope",
    "TensorT",
    "TupleT",
    "Val",
    "general_programs",
    "programs",
]


# --- the builder -----------------------------------------------------------------------------


class Builder(DataBuilder, CollectiveBuilder, ControlFlowBuilder):
    """Emits one module's text; every method draws its choices from `draw`.

    By topic: values and the pool (`generate_values.ValueBuilder`), data steps
    (`generate_data`), collectives (`generate_collectives`) and while loops
    (`generate_control_flow`); here the choice of step and the module around the steps."""

    def step(self, depth: int) -> None:
        kinds: list[tuple[str, Callable[[], None]]] = [
            ("unary", self.unary),
            ("binary", self.binary),
            ("movement", self.movement),
            ("collective", self.collective),
            ("tuple", self.tuple_step),
            ("misc", self.misc),
            ("collective", self.collective),
            ("combinable", self.combinable),
            ("permute_fusion", self.permute_fusion),
        ]
        if depth < MAX_DEPTH and (depth == 0 or self.flip(0.6)):
            kinds.append(("while", lambda: self.while_loop(depth)))
        _, fn = self.choice(kinds)
        fn()

    # - the module

    def module(self, steps: int) -> str:
        self.scopes.append(Scope("    "))
        params: list[str] = []
        for k in range(self.integers(1, 3)):
            t = self.tensor_type()
            name = f"%arg{k}"
            params.append(f"{name}: {t}")
            self.value(name, t, 4.0)
        for _ in range(steps):
            self.step(0)
        outs = [v for v in self.scope.pool if v.uses == 0] or self.scope.pool[-1:]
        outs = outs[-8:]
        if len(outs) > 1:
            # Like XLA, one ROOT: several outputs are returned as one tuple.
            tt = TupleT(tuple(o.type for o in outs))
            name = self.fresh("out")
            self.emit(f"{name} = hlo.tuple {', '.join(o.name for o in outs)} : {tt}")
            outs = [Val(name, tt, 0.0)]  # pyright: ignore[reportArgumentType]
        body = self.scopes.pop().lines
        results = ", ".join(str(o.type) for o in outs)
        attrs = [f"hlo.num_partitions = {self.p} : i64", f"hlo.num_replicas = {self.r} : i64"]
        if self.p > 1:
            attrs.append("hlo.use_spmd_partitioning")
        lines = [
            f"builtin.module attributes {{{', '.join(attrs)}}} {{",
            f"  func.func @main({', '.join(params)}) -> {results} attributes {{hlo.entry}} {{",
            *body,
            f"    func.return {', '.join(o.name for o in outs)} : {results}",
            "  }",
            "}",
        ]
        return "\n".join(lines) + "\n"


# --- strategies ------------------------------------------------------------------------------


@st.composite
def general_programs(draw: Draw, max_steps: int = 6) -> GeneratedProgram:
    """Random straight-line code, collectives and (nested) while loops on a random mesh."""
    r, p = draw(st.sampled_from(MESHES))
    b = Builder(draw, r, p)
    text = b.module(draw(st.integers(2, max_steps)))
    description = "general: " + (", ".join(b.recipes) or "elementwise")
    return GeneratedProgram(text, r, p, description)


def programs() -> st.SearchStrategy[GeneratedProgram]:
    """Every recipe: general programs and the while-loop accumulation patterns."""
    # Imported here: generate_loops is the bigger module and general_programs() alone needs none
    # of it.
    from neuron_cc.testing.generate_loops import loop_programs

    return st.one_of(general_programs(), loop_programs())
