"""The numpy reference of `random_hlo` programs: collectives, while, and `evaluate`.

Collectives run group by group in XLA's rank order (random_hlo_groups.device_groups), vectorised
over the groups of one size. A group reduction folds the members' values in rank order with the
`to_apply` computation (random_hlo_eval.fold); bf16 all-reduce / reduce-scatter accumulate in
f32 and round once (random_hlo_eval.promotes_bf16). all-gather concatenates the members' values
in rank order; all-to-all sends chunk j of the split dimension to rank j and concatenates the
received chunks in rank order (the tuple form sends operand j to rank j); collective-permute
moves values along the listed pairs, zeros elsewhere. A `while` runs its condition on every
device and must get the same answer everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from neuron_cc.testing import random_hlo_groups as G
from neuron_cc.testing.random_hlo_eval import (
    MAX_WHILE_ITERATIONS,
    Evaluator,
    ReferenceEvaluationError,
    device_groups_of,
    finish,
    fold,
    group_mode_of,
    promotes_bf16,
    register,
)
from neuron_cc.testing.random_hlo_text import Instr, Module, int_list, parse_module

Array = np.ndarray[Any, Any]


def _by_size(groups: G.Groups) -> list[Array]:
    """The groups as (groups, members) index arrays, one per group size."""
    sizes = sorted({len(g) for g in groups})
    return [np.array([g for g in groups if len(g) == n], dtype=np.int64) for n in sizes]


def _pack(instr: Instr, leaves: list[Array]) -> Any:
    return tuple(leaves) if instr.type.is_tuple else leaves[0]


def _reduce_groups(ev: Evaluator, instr: Instr, idx: Array, x: Array, dtype: str) -> Array:
    """(groups, ...) rank-order reductions of each group's values."""
    promote = promotes_bf16(instr.opcode) and dtype == "bf16"
    stacked = x[idx]
    reduced = fold([stacked[:, k] for k in range(idx.shape[1])], ev.reducer(instr, promote))
    return finish(reduced.astype(np.float64), dtype) if promote else reduced


Fill = Callable[[Array, Array, Array, Any], None]


def _grouped(ev: Evaluator, instr: Instr, xs: list[Any], fill: Fill) -> Any:
    """The result of a collective, leaf by leaf: `fill(out, idx, x, leaf_type)` writes the
    result of every group of one size (`idx`: one row of device ids per group) into `out`."""
    groups = device_groups_of(ev, instr)
    leaves: list[Array] = []
    for x, t in zip(xs, instr.type.leaves, strict=True):
        out = np.empty((ev.devices, *t.shape), dtype=x.dtype)
        for idx in _by_size(groups):
            fill(out, idx, x, t)
        leaves.append(out)
    return _pack(instr, leaves)


def _all_reduce(ev: Evaluator, instr: Instr, xs: list[Any], promote: bool) -> Any:
    def fill(out: Array, idx: Array, x: Array, t: Any) -> None:
        out[idx] = _reduce_groups(ev, instr, idx, x, t.dtype)[:, None]

    return _grouped(ev, instr, xs, fill)


def _reduce_scatter(ev: Evaluator, instr: Instr, xs: list[Any], promote: bool) -> Any:
    (dim,) = int_list(instr.attrs["dimensions"])

    def fill(out: Array, idx: Array, x: Array, t: Any) -> None:
        chunks = np.split(_reduce_groups(ev, instr, idx, x, t.dtype), idx.shape[1], dim + 1)
        for k, chunk in enumerate(chunks):
            out[idx[:, k]] = chunk

    return _grouped(ev, instr, xs, fill)


def _all_gather(ev: Evaluator, instr: Instr, xs: list[Any], promote: bool) -> Any:
    (dim,) = int_list(instr.attrs["dimensions"])

    def fill(out: Array, idx: Array, x: Array, t: Any) -> None:
        stacked = x[idx]
        out[idx] = np.concatenate([stacked[:, k] for k in range(idx.shape[1])], dim + 1)[:, None]

    return _grouped(ev, instr, xs, fill)


def _all_to_all(ev: Evaluator, instr: Instr, xs: list[Any], promote: bool) -> Any:
    groups = device_groups_of(ev, instr)
    if "dimensions" not in instr.attrs:
        return _all_to_all_tuple(groups, xs)
    (dim,) = int_list(instr.attrs["dimensions"])
    (x,) = xs
    out = np.empty_like(x)
    for idx in _by_size(groups):
        n = idx.shape[1]
        sent = [np.split(x[idx[:, k]], n, dim + 1) for k in range(n)]
        for j in range(n):
            out[idx[:, j]] = np.concatenate([sent[k][j] for k in range(n)], dim + 1)
    return out


def _all_to_all_tuple(groups: G.Groups, xs: list[Array]) -> Any:
    """Element k of rank j's result is operand j of the rank-k member."""
    out = [np.empty_like(x) for x in xs]
    for idx in _by_size(groups):
        for j in range(idx.shape[1]):
            for k in range(idx.shape[1]):
                out[k][idx[:, j]] = xs[j][idx[:, k]]
    return out[0] if len(out) == 1 else tuple(out)


def _collective_permute(ev: Evaluator, instr: Instr, xs: list[Any], promote: bool) -> Any:
    pairs = G.parse_pairs(instr.attrs["source_target_pairs"])
    devices = G.permute_device_pairs(group_mode_of(instr), pairs, ev.replicas, ev.partitions)
    (x,) = xs
    out = np.zeros_like(x)
    if devices:
        src = np.array([s for s, _ in devices])
        tgt = np.array([t for _, t in devices])
        out[tgt] = x[src]
    return out


def _while(ev: Evaluator, instr: Instr, xs: list[Any], promote: bool) -> Any:
    cond = ev.module.computations[instr.attrs["condition"]]
    body = ev.module.computations[instr.attrs["body"]]
    state = xs[0]
    for _ in range(MAX_WHILE_ITERATIONS):
        go = np.asarray(ev.call(cond, [state]))
        if not go.any():
            return state
        if not go.all():
            raise ReferenceEvaluationError(f"{instr.name}: the loop condition differs by device")
        state = ev.call(body, [state])
    raise ReferenceEvaluationError(f"{instr.name}: more than {MAX_WHILE_ITERATIONS} iterations")


register("all-reduce", _all_reduce)
register("reduce-scatter", _reduce_scatter)
register("all-gather", _all_gather)
register("all-to-all", _all_to_all)
register("collective-permute", _collective_permute)
register("while", _while)


@lru_cache(maxsize=64)
def parsed(text: str) -> Module:
    return parse_module(text)


def evaluate(text: str, inputs: Sequence[Array]) -> list[Array]:
    """Run the program text on per-device inputs: one array per output leaf (device axis
    first; bf16 as float32 holding bf16 values)."""
    return Evaluator(parsed(text)).run([np.asarray(x) for x in inputs])
