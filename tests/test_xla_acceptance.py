"""XLA accepts and runs what the exporter prints.

a. XLA's HLO parser accepts the export of every corpus module, with the same number of
   collective instructions per opcode as our text.
b. The export of every `spmd.hlo` (rewritten from P partitions to P replicas by
   `neuron_cc.testing.xla_oracle.partitions_to_replicas`) runs on XLA:CPU with 8 host devices
   and reproduces the oracle outputs of `inputs.npz`. All cases run in ONE worker process of
   the oracle (`neuron_cc.testing.xla_oracle.run_xla`; XLA_FLAGS must be set before jax is
   imported), once with XLA's default flags and once with `--xla_allow_excess_precision=false`;
   the parser checks of a. run in one more.

The jax-free tests of the replica rewrite always run; the others need jax (`make test` installs
it) and are skipped without it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.dialects.func import FuncOp

from neuron_cc.dialects.hlo.collectives import AllReduceOp, CollectiveOp, ReduceScatterOp
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp
from neuron_cc.interpreter.runner import inputs_from_npz
from neuron_cc.testing.xla_oracle import (
    XLA_UNAVAILABLE,
    ReplicaRewriteError,
    XlaParse,
    XlaResult,
    numpy_name,
    output_types,
    parse_xla,
    partitions_to_replicas,
    run_xla,
    xla_available,
    xla_case,
)
from neuron_cc.testing.xla_rewrites import split_variadic_collectives, unique_channel_ids
from neuron_cc.transforms.default_pipeline import NeuronDefaultPipelinePass
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo

TESTS = Path(__file__).resolve().parent
CORPUS = TESTS / "corpus" / "jax"
FILES = sorted(CORPUS.glob("*/*.hlo"))
SPMD_CASES = sorted(p.parent.name for p in CORPUS.glob("*/spmd.hlo"))
DEVICES = 8
BROKEN = "psum_subgroups_2x4+broken_groups"  # a wrong program the oracle must reject
PIPELINE = "+default_pipeline"
BF16_PROGRAMS = {
    "bf16_clip_global_norm",
    "grad_accum_bf16_convert",
    "fsdp_allgather_bf16_convert",
    "pytree_mixed_accum",
    "reduce_scatter_accum_bf16",
}

# HLO opcode -> XLA's HloOpcode member name.
COLLECTIVES = {
    "all-reduce": "kAllReduce",
    "all-gather": "kAllGather",
    "reduce-scatter": "kReduceScatter",
    "all-to-all": "kAllToAll",
    "collective-permute": "kCollectivePermute",
    "collective-broadcast": "kCollectiveBroadcast",
    "send": "kSend",
    "send-done": "kSendDone",
    "recv": "kRecv",
    "recv-done": "kRecvDone",
    "partition-id": "kPartitionId",
    "replica-id": "kReplicaId",
}


def _ids(paths: list[Path]) -> list[str]:
    return [f"{p.parent.name}/{p.name}" for p in paths]


def _entry(module: ModuleOp) -> FuncOp:
    (entry,) = [op for op in module.ops if isinstance(op, FuncOp) and "hlo.entry" in op.attributes]
    return entry


# --- the replica rewrite (no jax) ---------------------------------------------------------


def _spmd(case: str) -> ModuleOp:
    path = CORPUS / case / "spmd.hlo"
    return import_hlo(path.read_text(), str(path))


def test_replica_rewrite_of_partition_ids_and_groups() -> None:
    module = partitions_to_replicas(_spmd("jit_auto_megatron_mlp"))
    module.verify()
    assert module.attributes["hlo.num_replicas"] == IntegerAttr(DEVICES, 64)
    assert module.attributes["hlo.num_partitions"] == IntegerAttr(1, 64)
    assert "hlo.use_spmd_partitioning" not in module.attributes
    names = [op.name for op in module.walk()]
    assert "hlo.partition_id" not in names
    assert names.count("hlo.replica_id") == 1
    collectives = [op for op in module.walk() if isinstance(op, CollectiveOp)]
    assert len(collectives) == 3
    for op in collectives:
        assert op.channel_id is None
        assert not op.uses_global_device_ids
        assert not op.replica_groups.is_iota
    # The iota groups [2,4]<=[8] are now explicit.
    assert collectives[0].replica_groups.groups() == ((0, 1, 2, 3), (4, 5, 6, 7))
    text = export_hlo(module)
    assert "replica_count=8, num_partitions=1" in text
    assert "sharding=" not in text
    assert "channel_id" not in text
    assert "allow_spmd" not in text
    assert "replica-id()" in text
    assert "partition-id(" not in text


def test_replica_rewrite_keeps_permute_pairs_and_gives_lone_groups_without_channel() -> None:
    module = _spmd("ppermute_ring_loop")
    (permute,) = [op for op in module.walk() if isinstance(op, CollectivePermuteOp)]
    pairs = permute.source_target_pairs
    partitions_to_replicas(module)
    module.verify()
    assert permute.channel_id is None
    assert permute.source_target_pairs == pairs
    # A collective without channel_id spans the one replica: each device stays alone.
    module = _spmd("pmean_and_int_psum")
    first = next(op for op in module.walk() if isinstance(op, AllReduceOp))
    del first.properties["channel_id"]
    first.properties.pop("use_global_device_ids", None)
    partitions_to_replicas(module)
    module.verify()
    assert first.replica_groups.groups() == tuple((i,) for i in range(DEVICES))


def test_replica_rewrite_refuses_send_recv_and_custom_calls() -> None:
    send_recv = CORPUS / "send_recv_cuda_lowering" / "pre.hlo"
    with pytest.raises(ReplicaRewriteError, match="send/recv has no cross-replica rewrite"):
        partitions_to_replicas(import_hlo(send_recv.read_text()))
    sdy = CORPUS / "psum_subgroups_2x4" / "pre.hlo"
    with pytest.raises(ReplicaRewriteError, match=re.escape("custom_call target 'xla.sdy.")):
        partitions_to_replicas(import_hlo(sdy.read_text()))


# --- a. XLA's parser accepts every export --------------------------------------------------


def _require_xla() -> None:
    if not xla_available():
        pytest.skip(XLA_UNAVAILABLE)


@pytest.fixture(scope="module")
def xla_parsed() -> dict[Path, tuple[str, XlaParse]]:
    """Per corpus file: our export and XLA's parse of it (one worker process for all)."""
    _require_xla()
    exports = [export_hlo(import_hlo(path.read_text(), str(path))) for path in FILES]
    return dict(zip(FILES, zip(exports, parse_xla(exports), strict=True), strict=True))


def _text_counts(text: str) -> Counter[str]:
    return Counter({op: len(re.findall(rf" {op}\(", text)) for op in COLLECTIVES})


def _xla_counts(parsed: XlaParse) -> Counter[str]:
    return Counter({op: parsed.opcodes[member] for op, member in COLLECTIVES.items()})


@pytest.mark.parametrize("path", FILES, ids=_ids(FILES))
def test_xla_parses_export_with_same_collectives(
    path: Path, xla_parsed: dict[Path, tuple[str, XlaParse]]
) -> None:
    ours, parsed = xla_parsed[path]
    assert parsed.ok, parsed.message
    expected = _text_counts(ours)
    assert _text_counts(parsed.text) == expected
    assert _xla_counts(parsed) == expected
    assert expected.total() >= _text_counts(path.read_text()).total()


def test_export_has_collectives_to_compare() -> None:
    total = Counter[str]()
    for path in FILES:
        total += _text_counts(path.read_text())
    assert {op for op, n in total.items() if n} >= set(COLLECTIVES) - {"replica-id"}


# --- b. re-execution on XLA:CPU ------------------------------------------------------------


@dataclass
class Run:
    """One run of the oracle over every job: per job its result (per output, the per-device
    values) and its output dtypes (numpy names: bf16 as `bfloat16`)."""

    results: dict[str, XlaResult]
    dtypes: dict[str, list[str]]


@dataclass
class Execution:
    """Every spmd case run twice, in one worker process each: with XLA's default flags, as the
    corpus oracles were recorded (`results`, `dtypes`), and with no excess precision, the
    program as written (`exact`)."""

    results: dict[str, XlaResult]
    dtypes: dict[str, list[str]]
    exact: Run
    skipped: dict[str, str] = field(default_factory=dict[str, str])


@dataclass(frozen=True)
class Job:
    name: str
    module: ModuleOp
    case: str


def _inputs(module: ModuleOp, case: str) -> list[Any]:
    with np.load(CORPUS / case / "inputs.npz") as data:
        arrays = {k: data[k] for k in data.files}
    return inputs_from_npz(_entry(module), arrays, DEVICES)


def _broken_job() -> Job:
    module = partitions_to_replicas(_spmd("psum_subgroups_2x4"))
    first = next(op for op in module.walk() if isinstance(op, AllReduceOp))
    lone = [[i] for i in range(DEVICES)]
    first.properties["replica_groups"] = type(first.replica_groups).explicit(lone)
    return Job(BROKEN, module, "psum_subgroups_2x4")


@pytest.fixture(scope="module")
def execution() -> Execution:
    _require_xla()
    jobs: list[Job] = []
    skipped: dict[str, str] = {}
    for case in SPMD_CASES:
        try:
            module = partitions_to_replicas(_spmd(case))
        except ReplicaRewriteError as e:
            skipped[case] = f"no replica equivalent: {e}"
            continue
        module.verify()
        jobs.append(Job(case, module, case))
        transformed = _spmd(case)
        NeuronDefaultPipelinePass().apply(Context(), transformed)
        transformed.verify()
        # XLA:CPU compiles through StableHLO, whose reduce_scatter takes one operand: the
        # reduce-scatters the pipeline combined are split back (its all-reduces and
        # all-gathers stay combined and run as they are).
        if split_variadic_collectives(transformed, (ReduceScatterOp,)):
            unique_channel_ids(transformed)
        jobs.append(Job(case + PIPELINE, partitions_to_replicas(transformed), case))
    jobs.append(_broken_job())
    default = _run(jobs, allow_excess_precision=True)
    return Execution(default.results, default.dtypes, _run(jobs, False), skipped)


def _run(jobs: list[Job], allow_excess_precision: bool) -> Run:
    """Every job's export, as it is (no oracle rewrites: the modules are already replicas)."""
    cases = [
        xla_case(job.module, _inputs(job.module, job.case), job.name, exact_rewrites=False)
        for job in jobs
    ]
    results = run_xla(cases, allow_excess_precision=allow_excess_precision, case_timeout=300)
    dtypes = {job.name: [numpy_name(t) for t in output_types(job.module)] for job in jobs}
    return Run({job.name: r for job, r in zip(jobs, results, strict=True)}, dtypes)


def _oracle(case: str) -> tuple[Any, int]:
    data = np.load(CORPUS / case / "inputs.npz")
    info = json.loads((CORPUS / case / "case.json").read_text())
    return data, int(info["num_outputs"])


def _expected(data: Any, j: int, p: int) -> Any:
    key = f"out{j}_dev{p}"
    return data[key] if key in data else data[f"out{j}"]


def _compare(got: Any, expected: Any, dtype: str, what: str) -> None:
    assert got.shape == expected.shape, f"{what}: shape {got.shape} != {expected.shape}"
    if dtype.startswith(("int", "uint", "bool")):
        np.testing.assert_array_equal(got, expected, err_msg=what)
    else:
        tol = 1e-2 if dtype == "bfloat16" else 1e-5
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, err_msg=what)


def _check_outputs(execution: Execution, name: str, case: str) -> None:
    result = execution.results[name]
    assert result.ok, f"{result.stage} failed: {result.message}"
    data, num_outputs = _oracle(case)
    assert len(result.outputs) == num_outputs
    for j, dtype in enumerate(execution.dtypes[name]):
        for p in range(DEVICES):
            what = f"{name}: output {j} of device {p}"
            _compare(result.outputs[j][p], _expected(data, j, p), dtype, what)


@pytest.mark.parametrize("case", SPMD_CASES)
def test_spmd_export_runs_on_xla_cpu_and_matches_oracle(case: str, execution: Execution) -> None:
    if case in execution.skipped:
        pytest.skip(execution.skipped[case])
    _check_outputs(execution, case, case)


@pytest.mark.parametrize("case", SPMD_CASES)
def test_pipeline_output_runs_on_xla_cpu_and_matches_oracle(
    case: str, execution: Execution
) -> None:
    """The default loop pipeline's result, exported, still computes XLA's outputs on XLA:CPU.

    Moving a collective out of a loop reassociates float sums; where the program rounds to
    bf16 (two cases) the comparison is at bf16 scale of the output.
    """
    if case in execution.skipped:
        pytest.skip(execution.skipped[case])
    name = case + PIPELINE
    result = execution.results[name]
    assert result.ok, f"{result.stage} failed: {result.message}"
    data, num_outputs = _oracle(case)
    assert len(result.outputs) == num_outputs
    for j in range(num_outputs):
        for p in range(DEVICES):
            want, value = _expected(data, j, p), result.outputs[j][p]
            if case in BF16_PROGRAMS:
                bound = 2.0**-6 * float(np.max(np.abs(want)))
                assert float(np.max(np.abs(value.astype(np.float64) - want))) <= bound
            else:
                dtype = execution.dtypes[name][j]
                _compare(value, want, dtype, f"{name}: output {j} of device {p}")


@pytest.mark.parametrize("case", SPMD_CASES)
def test_pipeline_output_matches_xla_on_the_original(case: str, execution: Execution) -> None:
    """Differential: XLA:CPU running the pipeline's exported result gives what XLA:CPU gives
    for the original per-partition module, device by device (both with no excess precision).
    Integers and predicates bit for bit; floats up to the reassociation of the moved sums (bf16
    programs at bf16 scale of the output)."""
    if case in execution.skipped:
        pytest.skip(execution.skipped[case])
    run = execution.exact
    original, moved = run.results[case], run.results[case + PIPELINE]
    assert original.ok, original.message
    assert moved.ok, moved.message
    assert run.dtypes[case] == run.dtypes[case + PIPELINE]
    assert len(original.outputs) == len(moved.outputs)
    for j, (want, got) in enumerate(zip(original.outputs, moved.outputs, strict=True)):
        dtype = run.dtypes[case][j]
        for p in range(DEVICES):
            key, a, b = f"out{j}_dev{p}", want[p], got[p]
            if case in BF16_PROGRAMS and not dtype.startswith(("int", "uint", "bool")):
                bound = 2.0**-6 * float(np.max(np.abs(a)))
                assert float(np.max(np.abs(b.astype(np.float64) - a))) <= bound, key
            else:
                _compare(b, a, dtype, f"{case}: {key}")


def test_reexecution_ran_cases(execution: Execution) -> None:
    ran = [c for c in SPMD_CASES if c in execution.results and execution.results[c].ok]
    assert ran, f"no spmd case ran on XLA:CPU (skipped: {execution.skipped})"
    assert len(SPMD_CASES) == 33


def test_oracle_rejects_a_wrong_program(execution: Execution) -> None:
    with pytest.raises(AssertionError, match="output 0 of device"):
        _check_outputs(execution, BROKEN, "psum_subgroups_2x4")
