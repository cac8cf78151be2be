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

The recipes are split by topic: text emission, replica groups and the module in
`generate_loops_emit`, while loops in `generate_loops_while`, the case record and shared pieces
in `generate_loops_case`, all_reduce accumulations in `generate_loops_all_reduce`, and the
reduce_scatter / stacked-sink / all_gather recipes in `generate_loops_scatter_gather`; this
module combines them.
"""

from __future__ import annotations

from hypothesis import strategies as st

from neuron_cc.testing.generate_loops_all_reduce import all_reduce_accumulate
from neuron_cc.testing.generate_loops_case import Expect, LoopCase
from neuron_cc.testing.generate_loops_scatter_gather import (
    all_gather_hoist,
    reduce_scatter_accumulate,
    stacked_sink,
)
from neuron_cc.testing.generated_program import GeneratedProgram

__all__ = [
    "Expect",
    "LoopCase",
    "all_gather_hoist",
    "all_reduce_accumulate",
    "loop_cases",
    "loop_programs",
    "reduce_scatter_accumulate",
    "stacked_sink",
]


def loop_cases() -> st.SearchStrategy[LoopCase]:
    """Every loop recipe, movable and near-miss, with its expectations."""
    return st.one_of(
        all_reduce_accumulate(), reduce_scatter_accumulate(), stacked_sink(), all_gather_hoist()
    )


def loop_programs() -> st.SearchStrategy[GeneratedProgram]:
    """Generated while-loop programs (see the module docstring for the recipes)."""
    return loop_cases().map(lambda case: case.program)
