"""Unit tests of the XLA oracle (`neuron_cc.testing.xla_oracle`).

With jax: a known 2x4 program gives known per-device outputs (every group mode, partition and
replica ids, a cross-partition permute); the manual-SPMD and the replica forms of 1-replica
programs agree; a crash or a hang of one case of a batch loses no other case; the split of
variadic collectives is exact (interpreter, bit for bit; XLA agrees with it); the excess-
precision flag is honoured; the differential checks find a broken pass. Without jax: the
rewrites, the comparisons, the arbitration and the "jax is not installed" error. All XLA runs
of the file share a few worker processes (module fixtures).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TupleType
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from neuron_cc.dialects.hlo.collectives import AllToAllOp
from neuron_cc.dialects.hlo.elementwise import AddOp, SubtractOp
from neuron_cc.interpreter.equivalence import flatten_values
from neuron_cc.interpreter.runner import RunResult, entry_function, inputs_from_npz, run_module
from neuron_cc.testing.xla_oracle import (
    NOT_HLO_PASSES,
    PASS_CONFIGS,
    SHARDING,
    XLA_UNAVAILABLE,
    XlaCase,
    XlaResult,
    XlaUnavailable,
    _arbitrate,
    check_subjects,
    difference,
    explicit_all_to_all_groups,
    mark_manual,
    output_types,
    random_subject,
    rejection_reason,
    run_xla,
    split_variadic_collectives,
    unique_channel_ids,
    xla_available,
    xla_case,
)
from neuron_cc.transforms import get_all_passes
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo

Array = np.ndarray[Any, Any]
CORPUS = Path(__file__).resolve().parent / "corpus" / "jax"

needs_xla = pytest.mark.skipif(not xla_available(), reason=XLA_UNAVAILABLE)


def _run(module: ModuleOp, inputs: list[Array]) -> list[Array]:
    return flatten_values(run_module(module, [np.copy(a) for a in inputs]).outputs)


# --- the programs ------------------------------------------------------------------------------

# y = x + 10 r + p on device d = 4 r + p, then one collective per group mode.
MESH_2X4 = """HloModule mesh_2x4, replica_count=2, num_partitions=4
%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = f32[] add(%a, %b)
}
ENTRY %main (x: f32[2]) -> (f32[2], f32[2], f32[2], f32[2], f32[2], f32[2], u32[], u32[]) {
  %x = f32[2] parameter(0)
  %r = u32[] replica-id()
  %p = u32[] partition-id()
  %rf = f32[] convert(%r)
  %pf = f32[] convert(%p)
  %ten = f32[] constant(10)
  %rt = f32[] multiply(%rf, %ten)
  %s = f32[] add(%rt, %pf)
  %sb = f32[2] broadcast(%s), dimensions={}
  %y = f32[2] add(%x, %sb)
  %a1 = f32[2] all-reduce(%y), replica_groups={{0,1}}, to_apply=%add
  %a2 = f32[2] all-reduce(%y), channel_id=1, replica_groups={{0,1}}, to_apply=%add
  %a3 = f32[2] all-reduce(%y), channel_id=2, replica_groups={{0,5},{1,4},{2,7},{3,6}}, use_global_device_ids=true, to_apply=%add
  %a4 = f32[2] collective-permute(%y), channel_id=3, source_target_pairs={{0,1},{1,2},{2,3},{3,0}}
  %a5 = f32[2] all-reduce(%y), channel_id=4, replica_groups={{0},{1}}, to_apply=%add
  ROOT %t = (f32[2], f32[2], f32[2], f32[2], f32[2], f32[2], u32[], u32[]) tuple(%y, %a1, %a2, %a3, %a4, %a5, %r, %p)
}
"""


def _mesh_2x4_expected(x: Array) -> list[Array]:
    """The outputs of MESH_2X4 on inputs `x` (8, 2), written from XLA's group-mode rules."""
    r, p = np.divmod(np.arange(8), 4)
    y = x + (10 * r + p)[:, None]
    grid = y.reshape(2, 4, 2)  # [replica, partition]
    cross_replica = np.broadcast_to(grid.sum(axis=0, keepdims=True), grid.shape).reshape(8, 2)
    everyone = np.broadcast_to(y.sum(axis=0), y.shape)
    pairs = [[0, 5], [1, 4], [2, 7], [3, 6]]
    flattened = np.empty_like(y)
    for group in pairs:
        flattened[group] = y[group].sum(axis=0)
    permuted = np.roll(grid, 1, axis=1).reshape(8, 2)  # partition t gets partition t - 1
    per_replica = np.broadcast_to(grid.sum(axis=1, keepdims=True), grid.shape).reshape(8, 2)
    ids = [r.astype(np.uint32), p.astype(np.uint32)]
    return [y, cross_replica, everyone, flattened, permuted, per_replica, *ids]


VARIADIC = """HloModule variadic, replica_count=2, num_partitions=4
%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = f32[] add(%a, %b)
}
%max (a: s32[], b: s32[]) -> s32[] {
  %a = s32[] parameter(0)
  %b = s32[] parameter(1)
  ROOT %c = s32[] maximum(%a, %b)
}
%cond (s: (s32[], f32[4])) -> pred[] {
  %s = (s32[], f32[4]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %n = s32[] constant(3)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}
%body (s: (s32[], f32[4])) -> (s32[], f32[4]) {
  %s = (s32[], f32[4]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %v = f32[4] get-tuple-element(%s), index=1
  %two = (f32[4], f32[4]) all-reduce(%v, %v), channel_id=5, replica_groups={{0,1,2,3,4,5,6,7}}, use_global_device_ids=true, to_apply=%add
  %first = f32[4] get-tuple-element(%two), index=0
  %one = s32[] constant(1)
  %next = s32[] add(%i, %one)
  ROOT %out = (s32[], f32[4]) tuple(%next, %first)
}
ENTRY %main (x: f32[4], i: s32[4], h: bf16[4]) -> (f32[4], s32[4], bf16[4], f32[8], s32[8], f32[2], s32[2], s32[2], f32[4]) {
  %x = f32[4] parameter(0)
  %i = s32[4] parameter(1)
  %h = bf16[4] parameter(2)
  %ar = (f32[4], s32[4], bf16[4]) all-reduce(%x, %i, %h), channel_id=1, replica_groups={{0,1,2,3},{4,5,6,7}}, use_global_device_ids=true, to_apply=%add
  %ar0 = f32[4] get-tuple-element(%ar), index=0
  %ar1 = s32[4] get-tuple-element(%ar), index=1
  %ar2 = bf16[4] get-tuple-element(%ar), index=2
  %ag = (f32[8], s32[8]) all-gather(%ar0, %ar1), channel_id=2, replica_groups={{0,4},{1,5},{2,6},{3,7}}, use_global_device_ids=true, dimensions={0}
  %ag0 = f32[8] get-tuple-element(%ag), index=0
  %ag1 = s32[8] get-tuple-element(%ag), index=1
  %rs = (f32[2], s32[2], s32[2]) reduce-scatter(%x, %i, %ar1), replica_groups={{0,1}}, dimensions={0}, to_apply=%add
  %rs0 = f32[2] get-tuple-element(%rs), index=0
  %rs1 = s32[2] get-tuple-element(%rs), index=1
  %rs2 = s32[2] get-tuple-element(%rs), index=2
  %zero = s32[] constant(0)
  %init = (s32[], f32[4]) tuple(%zero, %x)
  %loop = (s32[], f32[4]) while(%init), condition=%cond, body=%body
  %w = f32[4] get-tuple-element(%loop), index=1
  ROOT %t = (f32[4], s32[4], bf16[4], f32[8], s32[8], f32[2], s32[2], s32[2], f32[4]) tuple(%ar0, %ar1, %ar2, %ag0, %ag1, %rs0, %rs1, %rs2, %w)
}
"""

# collective-broadcast is not implemented by XLA:CPU: the split is checked on the interpreter.
BROADCAST = """HloModule broadcast, replica_count=8
ENTRY %main (x: f32[3], i: s32[2]) -> (f32[3], s32[2]) {
  %x = f32[3] parameter(0)
  %i = s32[2] parameter(1)
  %b = (f32[3], s32[2]) collective-broadcast(%x, %i), replica_groups={{3,1,2,0},{5,4,7,6}}
  %b0 = f32[3] get-tuple-element(%b), index=0
  %b1 = s32[2] get-tuple-element(%b), index=1
  ROOT %t = (f32[3], s32[2]) tuple(%b0, %b1)
}
"""

# bf16 rounding between two ops: XLA's default (excess precision) keeps the product in f32.
EXCESS = """HloModule excess
ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4] parameter(0)
  %b = bf16[4] convert(%x)
  %y = bf16[4] multiply(%b, %b)
  ROOT %f = f32[4] convert(%y)
}
"""
EXCESS_INPUT = np.array([[1.0, 3.01, 7.3, 1.1]], dtype=np.float32)

# Two all-reduces of one channel id in a loop: XLA:CPU refuses it ("layout minor_to_major field
# contains 0 elements"), unless each gets its own id (`unique_channel_ids`).
SHARED_CHANNEL = """HloModule shared_channel, replica_count=8
%cond (s: (s32[], f32[2,3])) -> pred[] {
  %s = (s32[], f32[2,3]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %n = s32[] constant(3)
  ROOT %p = pred[] compare(%i, %n), direction=LT
}
%mul (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = f32[] multiply(%a, %b)
}
%body (s: (s32[], f32[2,3])) -> (s32[], f32[2,3]) {
  %s = (s32[], f32[2,3]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %x = f32[2,3] get-tuple-element(%s), index=1
  %f = f32[] convert(%i)
  %k = f32[2,3] constant({ {-1.5, -1.5, -1.5}, {-1.5, -1.5, -1.5} })
  %ar0 = f32[] all-reduce(%f), channel_id=1, replica_groups={}, to_apply=%mul
  %ar1 = f32[2,3] all-reduce(%k), channel_id=1, replica_groups={}, to_apply=%mul
  %one = s32[] constant(1)
  %next = s32[] add(%i, %one)
  %y = f32[2,3] add(%x, %x)
  ROOT %t = (s32[], f32[2,3]) tuple(%next, %y)
}
ENTRY %main (x: f32[2,3]) -> (s32[], f32[2,3]) {
  %x = f32[2,3] parameter(0)
  %zero = s32[] constant(0)
  %init = (s32[], f32[2,3]) tuple(%zero, %x)
  ROOT %w = (s32[], f32[2,3]) while(%init), condition=%cond, body=%body
}
"""

# x + -(y * z) in a loop body: XLA:CPU contracts it into one fused multiply-add (one rounding)
# where the hardware has FMA, unless the oracle caps the ISA at AVX (see xla_worker.py).
CONTRACTION = """HloModule contraction
%cond (s: (s32[], f32[64], f32[64], f32[64])) -> pred[] {
  %s = (s32[], f32[64], f32[64], f32[64]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %n = s32[] constant(1)
  ROOT %p = pred[] compare(%i, %n), direction=LT
}
%body (s: (s32[], f32[64], f32[64], f32[64])) -> (s32[], f32[64], f32[64], f32[64]) {
  %s = (s32[], f32[64], f32[64], f32[64]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %x = f32[64] get-tuple-element(%s), index=1
  %y = f32[64] get-tuple-element(%s), index=2
  %z = f32[64] get-tuple-element(%s), index=3
  %m = f32[64] multiply(%y, %z)
  %n = f32[64] negate(%m)
  %a = f32[64] add(%x, %n)
  %one = s32[] constant(1)
  %next = s32[] add(%i, %one)
  ROOT %t = (s32[], f32[64], f32[64], f32[64]) tuple(%next, %a, %y, %z)
}
ENTRY %main (x: f32[64], y: f32[64], z: f32[64]) -> f32[64] {
  %x = f32[64] parameter(0)
  %y = f32[64] parameter(1)
  %z = f32[64] parameter(2)
  %zero = s32[] constant(0)
  %init = (s32[], f32[64], f32[64], f32[64]) tuple(%zero, %x, %y, %z)
  %w = (s32[], f32[64], f32[64], f32[64]) while(%init), condition=%cond, body=%body
  ROOT %r = f32[64] get-tuple-element(%w), index=1
}
"""


def _contraction_inputs() -> list[Array]:
    rng = np.random.default_rng(3)
    return [rng.standard_normal((1, 64)).astype(np.float32) for _ in range(3)]


CRASH = """HloModule crash
ENTRY %main () -> s32[] {
  %a = s32[] constant(1)
  %b = s32[] constant(0)
  ROOT %d = s32[] divide(%a, %b)
}
"""

HANG = """HloModule hang
%cond (s: s32[]) -> pred[] {
  %s = s32[] parameter(0)
  ROOT %t = pred[] constant(true)
}
%body (s: s32[]) -> s32[] {
  %s = s32[] parameter(0)
  %one = s32[] constant(1)
  ROOT %n = s32[] add(%s, %one)
}
ENTRY %main (x: s32[]) -> s32[] {
  %x = s32[] parameter(0)
  ROOT %w = s32[] while(%x), condition=%cond, body=%body
}
"""


def _mesh_input() -> Array:
    return (100 * np.arange(8, dtype=np.float32)[:, None] + np.arange(2, dtype=np.float32)).copy()


def _shared_input() -> Array:
    return np.arange(48, dtype=np.float32).reshape(8, 2, 3)


def _variadic_inputs(devices: int) -> list[Array]:
    rng = np.random.default_rng(7)
    return [
        rng.integers(-8, 9, (devices, 4)).astype(np.float32) / 4,
        rng.integers(-8, 9, (devices, 4)).astype(np.int32),
        rng.integers(-8, 9, (devices, 4)).astype(np.float32) / 8,
    ]


def _corpus(case: str) -> tuple[ModuleOp, list[Array]]:
    path = CORPUS / case / "spmd.hlo"
    module = import_hlo(path.read_text(), str(path))
    with np.load(CORPUS / case / "inputs.npz") as data:
        arrays = {k: data[k] for k in data.files}
    return module, inputs_from_npz(entry_function(module), arrays, 8)


REPLICA_FORM_CASES = ("psum_subgroups_2x4", "ppermute_ring_loop", "all_to_all_moe")
BROKEN_PASS_SEEDS = (0, 10, 11, 16)


# --- one batch for the XLA tests ---------------------------------------------------------------


@dataclass
class Batch:
    results: dict[str, XlaResult]
    excess: XlaResult
    """EXCESS with XLA's default flags (the batch itself runs without excess precision)."""
    contraction: XlaResult
    """CONTRACTION with XLA's default flags (FMA contraction allowed)."""


@pytest.fixture(scope="module")
def batch() -> Batch:
    if not xla_available():
        pytest.skip(XLA_UNAVAILABLE)
    mesh = import_hlo(MESH_2X4)
    variadic = import_hlo(VARIADIC)
    excess = xla_case(import_hlo(EXCESS), [EXCESS_INPUT], "excess")
    contraction = xla_case(import_hlo(CONTRACTION), _contraction_inputs(), "contraction")
    shared = import_hlo(SHARED_CHANNEL)
    cases = [
        xla_case(mesh, [_mesh_input()], "mesh"),
        XlaCase("crash", CRASH, 1, 1, [], []),
        xla_case(shared, [_shared_input()], "shared channel"),
        xla_case(variadic, _variadic_inputs(8), "variadic"),
        excess,
        contraction,
    ]
    for case in REPLICA_FORM_CASES:
        module, inputs = _corpus(case)
        cases.append(xla_case(module, inputs, f"{case}/spmd"))
        cases.append(xla_case(module, inputs, f"{case}/replicas", as_replicas=True))
    results = run_xla(cases)
    default, contracted = run_xla([excess, contraction], allow_excess_precision=True)
    return Batch({c.name: r for c, r in zip(cases, results, strict=True)}, default, contracted)


def _ok(result: XlaResult) -> list[Array]:
    assert result.ok, f"{result.status} ({result.stage}): {result.message}"
    return result.outputs


@needs_xla
def test_known_program_gives_known_per_device_outputs(batch: Batch) -> None:
    expected = _mesh_2x4_expected(_mesh_input())
    got = _ok(batch.results["mesh"])
    types = ["f32"] * 6 + ["u32"] * 2
    assert difference(expected, got, types, "exact") is None
    assert difference(expected, _run(import_hlo(MESH_2X4), [_mesh_input()]), types, "exact") is None


@needs_xla
@pytest.mark.parametrize("case", REPLICA_FORM_CASES)
def test_manual_spmd_and_replica_forms_agree(case: str, batch: Batch) -> None:
    """A 1-replica program of 8 partitions: XLA's own partitions and the replica rewrite."""
    spmd, replicas = _ok(batch.results[f"{case}/spmd"]), _ok(batch.results[f"{case}/replicas"])
    module, inputs = _corpus(case)
    ours = _run(module, inputs)
    assert len(spmd) == len(replicas) == len(ours)
    for a, b, c in zip(spmd, replicas, ours, strict=True):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(a, c, rtol=1e-5, atol=1e-5)


@needs_xla
def test_a_crash_loses_no_other_case(batch: Batch) -> None:
    crash = batch.results["crash"]
    assert crash.status == "crash"
    assert "SIGFPE" in crash.message
    # The cases before and after it ran (the worker was restarted after the crash).
    assert batch.results["mesh"].ok
    assert batch.results["variadic"].ok
    assert all(r.ok for name, r in batch.results.items() if name != "crash")


@needs_xla
def test_a_hang_is_killed_and_the_rest_runs() -> None:
    mesh = xla_case(import_hlo(MESH_2X4), [_mesh_input()], "mesh")
    hang = XlaCase("hang", HANG, 1, 1, [np.zeros((1,), np.int32)], ["int32"])
    first, second = run_xla([hang, mesh], case_timeout=3)
    assert first.status == "timeout"
    assert difference(_mesh_2x4_expected(_mesh_input()), _ok(second), ["f32"] * 8, "exact") is None


def test_variadic_split_is_exact_on_the_interpreter() -> None:
    for text, devices in ((VARIADIC, 8), (BROADCAST, 8)):
        module = import_hlo(text)
        split = module.clone()
        count = split_variadic_collectives(split)
        split.verify()
        assert count == (4 if text == VARIADIC else 1)
        assert not [op for op in split.walk() if op.name != "hlo.tuple" and _tuple_result(op)]
        inputs = _variadic_inputs(devices)[: len(entry_function(module).function_type.inputs)]
        before, after = _run(module, inputs), _run(split, inputs)
        types = [str(a.dtype) for a in before]
        assert difference(before, after, types, "exact") is None


def _tuple_result(op: Any) -> bool:
    collective = op.name in ("hlo.all_reduce", "hlo.all_gather", "hlo.reduce_scatter")
    return collective and isinstance(op.results[0].type, TupleType)


def test_variadic_split_is_exact_on_random_programs() -> None:
    """The random programs with variadic collectives (among the first 60 seeds)."""
    split_any = 0
    for seed in range(60):
        subject = random_subject(seed)
        split = subject.module.clone()
        if not split_variadic_collectives(split):
            continue
        split_any += 1
        split.verify()
        before, after = _run(subject.module, subject.inputs), _run(split, subject.inputs)
        types = [str(a.dtype) for a in before]
        assert difference(before, after, types, "exact") is None, f"seed {seed}"
    assert split_any >= 5


@needs_xla
def test_xla_agrees_with_the_interpreter_on_split_variadic_collectives(batch: Batch) -> None:
    module = import_hlo(VARIADIC)
    expected = _run(module, _variadic_inputs(8))
    got = _ok(batch.results["variadic"])
    types = ["f32", "s32", "bf16", "f32", "s32", "f32", "s32", "s32", "f32"]
    assert difference(expected, got, types, "strict") is None


@needs_xla
def test_excess_precision_flag_is_honoured(batch: Batch) -> None:
    """Without excess precision XLA rounds the bf16 product (as the interpreter does); with
    XLA's default it keeps it in f32."""
    exact, default = _ok(batch.results["excess"])[0], _ok(batch.excess)[0]
    interpreted = _run(import_hlo(EXCESS), [EXCESS_INPUT])[0]
    np.testing.assert_array_equal(exact, interpreted)
    assert exact[0, 1] == 9.125  # bf16(3.01)^2 = 9.094 rounded to bf16
    assert not np.array_equal(exact, default)
    assert abs(default[0, 1] - np.float32(3.015625) ** 2) < 1e-6


@needs_xla
def test_no_fused_multiply_add(batch: Batch) -> None:
    """The oracle computes x + -(y * z) with two roundings, as the HLO says and neuron-run does;
    XLA's default flags may fuse it (one rounding) where the CPU has FMA."""
    x, y, z = (a.astype(np.float64) for a in _contraction_inputs())
    unfused = (x + -(y * z).astype(np.float32)).astype(np.float32)
    fused = (x - y * z).astype(np.float32)
    assert not np.array_equal(unfused, fused)  # the inputs tell the two apart
    exact = _ok(batch.results["contraction"])[0]
    np.testing.assert_array_equal(exact, unfused)
    np.testing.assert_array_equal(_run(import_hlo(CONTRACTION), _contraction_inputs())[0], exact)
    default = _ok(batch.contraction)[0]
    assert bool(np.all((default == unfused) | (default == fused)))


@needs_xla
def test_a_loop_with_a_shared_channel_id_runs(batch: Batch) -> None:
    module = import_hlo(SHARED_CHANNEL)
    expected = _run(module, [_shared_input()])
    assert (
        difference(expected, _ok(batch.results["shared channel"]), ["s32", "f32"], "exact") is None
    )


def test_unique_channel_ids_keep_send_recv_pairs() -> None:
    path = CORPUS / "send_recv_cuda_lowering" / "pre.hlo"
    module = import_hlo(path.read_text(), str(path))
    kinds = ("hlo.send", "hlo.recv", "hlo.send_done", "hlo.recv_done")
    pairs = [(op.name, op.properties["channel_id"]) for op in module.walk() if op.name in kinds]
    assert pairs
    shared = import_hlo(SHARED_CHANNEL)
    for m in (module, shared):
        unique_channel_ids(m)
        m.verify()
    assert [
        (op.name, op.properties["channel_id"]) for op in module.walk() if op.name in kinds
    ] == pairs
    ids = [op.properties["channel_id"] for op in shared.walk() if op.name == "hlo.all_reduce"]
    assert len(ids) == len(set(ids)) == 2
    inputs = [_shared_input()]
    before = _run(import_hlo(SHARED_CHANNEL), inputs)
    assert difference(before, _run(shared, inputs), ["s32", "f32"], "exact") is None


# --- the differential checks check something ---------------------------------------------------


@dataclass(frozen=True)
class _SubtractingPass(ModulePass):
    """A broken "pass": every f32 `add` of the entry function becomes a `subtract`."""

    name = "broken-subtract"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        entry = entry_function(op)
        for add in [o for o in entry.body.ops if isinstance(o, AddOp)]:
            if "f32" not in str(add.result.type):
                continue
            new = SubtractOp.create(operands=list(add.operands), result_types=[add.result.type])
            Rewriter.replace_op(add, new)


def _broken_registry() -> dict[str, Callable[[], type[ModulePass]]]:
    return {"broken-subtract": lambda: _SubtractingPass}


def _wrong_interpreter(real: Callable[..., RunResult]) -> Callable[..., RunResult]:
    """run_module with a bug: the first element of output 0 is off (+1, or negated)."""

    def run(module: ModuleOp, inputs: Any, *args: Any, **kwargs: Any) -> RunResult:
        result = real(module, inputs, *args, **kwargs)
        first = flatten_values(result.outputs)[0]
        at = (0,) * first.ndim
        first[at] = not first[at] if first.dtype == np.bool_ else first[at] + 1
        return result

    return run


@needs_xla
def test_differential_checks_blame_the_right_side(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wrong neuron-run is blamed on the interpreter, a wrong pass on the pass (the reference
    agrees with XLA), both in one run."""
    import neuron_cc.testing.xla_oracle as oracle

    monkeypatch.setattr(oracle, "run_module", _wrong_interpreter(oracle.run_module))
    subjects = [random_subject(seed) for seed in BROKEN_PASS_SEEDS]
    report = check_subjects(subjects, [("broken-subtract", {})], passes=_broken_registry())
    assert report.programs == len(subjects)
    run = [f for f in report.findings if f.check == "neuron-run"]
    assert [f.kind for f in run] == ["interpreter"] * len(subjects)
    assert "neuron-run (output 0)" in run[0].evidence
    blamed = [f for f in report.findings if f.check == "broken-subtract"]
    assert len(blamed) + report.agreed["broken-subtract"] == len(subjects)
    assert len(blamed) >= 2
    assert {f.kind for f in blamed} == {"pass"}


def test_pass_list_covers_every_registered_pass() -> None:
    configured = {name for name, _ in PASS_CONFIGS}
    assert configured | set(NOT_HLO_PASSES) == set(get_all_passes())


# --- without jax -------------------------------------------------------------------------------


def test_missing_jax_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "jax" else real(name, *a)
    )
    assert not xla_available()
    with pytest.raises(XlaUnavailable, match="jax is not installed"):
        run_xla([XlaCase("x", CRASH, 1, 1, [], [])])


def test_manual_marking_and_explicit_all_to_all_groups() -> None:
    module = import_hlo(MESH_2X4)
    mark_manual(module)
    entry = entry_function(module)
    assert entry.arg_attrs is not None
    assert all(SHARDING in d.data for d in entry.arg_attrs)
    ops = [op for op in entry.walk() if op is not entry and "return" not in op.name]
    assert all(SHARDING in op.attributes for op in ops)
    case = xla_case(import_hlo(MESH_2X4), [_mesh_input()])
    assert case.spmd
    instructions = [line for line in case.text.splitlines() if " = " in line]
    assert all("sharding={" in line for line in instructions)  # parameters of regions too
    assert "sharding={{manual}, {manual}" in case.text  # the ROOT tuple
    text = """HloModule a2a, replica_count=4
ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4] parameter(0)
  ROOT %a = f32[4] all-to-all(%x), replica_groups={}, dimensions={0}
}
"""
    module = import_hlo(text)
    assert explicit_all_to_all_groups(module) == 1
    (op,) = [o for o in module.walk() if isinstance(o, AllToAllOp)]
    assert op.replica_groups.groups() == ((0, 1, 2, 3),)


def test_difference_tolerances() -> None:
    a = [np.array([[1.0, 2.0]], np.float32)]
    near = [np.array([[1.0, 2.0 + 1e-6]], np.float32)]
    far = [np.array([[1.0, 2.001]], np.float32)]
    assert difference(a, a, ["f32"], "exact") is None
    assert difference(a, near, ["f32"], "exact") is not None
    assert difference(a, near, ["f32"], "strict") is None
    assert difference(a, near, ["bf16"], "strict") is not None
    assert difference(a, far, ["f32"], "strict") is not None
    assert difference(a, far, ["bf16"], "reassociated") is None
    nan = [np.array([[np.nan, 2.0]], np.float32)]
    assert difference(nan, nan, ["f32"], "exact") is None
    ints = [np.array([[1, 2]], np.int32)]
    assert difference(ints, [np.array([[1, 3]], np.int32)], ["s32"], "reassociated") is not None
    assert "2 outputs" in (difference(a, a + a, ["f32"], "exact") or "")


def test_arbitration() -> None:
    types = ["s32"]
    right, wrong = [np.array([[1]], np.int32)], [np.array([[2]], np.int32)]
    assert _arbitrate(wrong, right, right, types) == "interpreter"
    assert _arbitrate(right, wrong, right, types) == "xla"
    assert _arbitrate(right, wrong, [np.array([[3]], np.int32)], types) == "unresolved"
    assert _arbitrate(right, wrong, "no reference", types) == "unresolved"


def test_rejection_reasons_do_not_name_the_program() -> None:
    first = XlaResult(
        "rejected", message="jax.errors.JaxRuntimeError: bad %add.3 of 12", stage="compile"
    )
    second = XlaResult("rejected", message="bad %mul of 7\nmore", stage="compile")
    assert rejection_reason(first) == rejection_reason(second) == "rejected/compile: bad N of N"


def test_random_subjects_evaluate_our_export() -> None:
    """A random subject's inputs are per device and its reference reads our export of it."""
    for seed in range(8):
        subject = random_subject(seed)
        assert all(a.shape[0] == 8 for a in subject.inputs)
        assert subject.reference is not None
        expected = subject.reference(export_hlo(subject.module), subject.inputs)
        ours = _run(subject.module, subject.inputs)
        assert difference(expected, ours, output_types(subject.module), "strict") is None
