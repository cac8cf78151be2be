"""XLA:CPU as an oracle: run HLO programs on R x P host devices of jax's CPU client (issue 15).

jax is optional: it is imported only by the worker process (`neuron_cc/testing/xla_worker.py`,
run as a script), never here. `xla_available()` says whether it is installed; the runner raises
`XlaUnavailable` ("jax is not installed ...") where it is not, and tests skip with that message.

The program XLA gets (`xla_case(module, inputs)`) is the module as `neuron-run` runs it, on the
same per-device inputs (leading device axis R*P), with exact rewrites only:

- every variadic all_reduce / all_gather / reduce_scatter / collective_broadcast split into one
  collective per operand plus an `hlo.tuple` (`split_variadic_collectives`; a mixed-type
  reducer is rebuilt at each operand's type): XLA:CPU computes a variadic bf16 all-gather along
  a non-major dimension wrongly (it concatenates the flat buffers), and its SPMD partitioner
  refuses variadic collectives in manual mode;
- the empty replica groups of an all_to_all written as the one explicit group of every id
  (`explicit_all_to_all_groups`: XLA:CPU refuses empty groups there);
- a channel id of its own for every collective (`unique_channel_ids`: XLA:CPU refuses some
  loops with two all-reduces of one channel id);
- with P > 1 partitions, real partitions: every instruction and parameter of every computation
  marked `sharding={manual}` (`mark_manual`; whiles and conditionals are left to sharding
  propagation, which jax's HLO -> StableHLO conversion needs, and are never a ROOT), compiled
  with num_partitions=P and `use_spmd_partitioning`: the partitioner keeps the per-partition
  program as written and XLA runs it with its own group-mode semantics, device d = r*P + p.
  Or, with `as_replicas=True`, a 1-replica program rewritten to P replicas x 1 partition
  (`partitions_to_replicas`, how the corpus acceptance tests run).

`run_xla(cases)` runs a batch in ONE worker process (XLA_FLAGS must be set before jax is
imported; `workers=N` splits it over N processes side by side), ALWAYS with
`--xla_allow_excess_precision=false` unless the caller passes `allow_excess_precision=True`
(XLA's default, with which the corpus oracles were recorded). XLA may crash (SIGFPE when it
folds an integer division of constants by zero, aborts in the partitioner...): the crashing
case gets status "crash" and the worker is restarted on the rest of the batch; a case running
longer than `case_timeout` seconds is killed the same way and tried once more in a fresh worker
before it gets "timeout". Every case gets an
`XlaResult`: "ok" with per-output arrays (leading device axis, the interpreter's storage dtypes:
bf16 as float32), "rejected" (XLA's parser or compiler refused it; `stage` says which), "error"
(it failed at run time), "crash" or "timeout". `start_xla` runs a batch in the background,
`parse_xla(texts)` / `parse_case(text)` only parse (and reprint).

The differential checks (`Differential`, `check_subjects`; tests/test_xla_differential.py and
tools/fuzz_xla.py) compare neuron-run with XLA, and XLA on every pass's result with XLA on the
original, arbitrating disagreements with an independent reference (`Subject.reference`, the
numpy evaluator of `neuron_cc.testing.random_hlo` for `random_subject`), see `Finding`.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from neuron_cc.analysis.reductions import build_reduction_region, reduction_kind
from neuron_cc.analysis.replica_groups import device_counts, id_space_size
from neuron_cc.dialects.hlo.attributes import ReplicaGroupsAttr
from neuron_cc.dialects.hlo.collectives import (
    AllGatherOp,
    AllReduceOp,
    AllToAllOp,
    CollectiveBroadcastOp,
    CollectiveOp,
    ReduceScatterOp,
)
from neuron_cc.dialects.hlo.control_flow import GetTupleElementOp, TupleOp
from neuron_cc.dialects.hlo.control_flow import ReturnOp as HloReturnOp
from neuron_cc.dialects.hlo.data_movement import CopyOp
from neuron_cc.dialects.hlo.p2p import CollectivePermuteOp, PartitionIdOp, ReplicaIdOp
from neuron_cc.dialects.hlo.types import element_type_name, tensor_type
from neuron_cc.interpreter.runner import entry_function, inputs_from_npz, run_module
from neuron_cc.interpreter.values import InterpretationError
from neuron_cc.spmd.sharding import Sharding, ShardingAttr
from neuron_cc.testing.equivalence import flatten_values
from neuron_cc.transforms import get_all_passes
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo

Array = np.ndarray[Any, Any]

WORKER = Path(__file__).resolve().with_name("xla_worker.py")
XLA_UNAVAILABLE = (
    "jax is not installed: the XLA oracle needs it (pip install -e '.[xla]'; make test does)"
)


class XlaUnavailable(RuntimeError):
    """jax (XLA's CPU client) is not installed."""


def xla_available() -> bool:
    """Whether jax and jaxlib are installed (checked without importing them)."""
    return all(importlib.util.find_spec(name) is not None for name in ("jax", "jaxlib"))


def require_xla() -> None:
    """Raise `XlaUnavailable` (with `XLA_UNAVAILABLE`) unless jax is installed."""
    if not xla_available():
        raise XlaUnavailable(XLA_UNAVAILABLE)


# --- partitions -> replicas -------------------------------------------------------------------

NUM_REPLICAS = "hlo.num_replicas"
NUM_PARTITIONS = "hlo.num_partitions"
SPMD = "hlo.use_spmd_partitioning"
MODULE_CONFIG = "xla.module_config"
SHARDING = "xla.sharding"
# Entries of the module header that describe partitioning only.
_SPMD_CONFIG_PREFIX = "allow_spmd_sharding_propagation"
_UNSUPPORTED = {
    "hlo.send": "send/recv",
    "hlo.recv": "send/recv",
    "hlo.send_done": "send/recv",
    "hlo.recv_done": "send/recv",
    "hlo.replica_id": "replica_id in a partitioned module",
}


class ReplicaRewriteError(Exception):
    """The module uses something with no replica equivalent (the message says what)."""


def _check_supported(op: Operation) -> None:
    reason = _UNSUPPORTED.get(op.name)
    if reason is not None:
        raise ReplicaRewriteError(f"{op.name}: {reason} has no cross-replica rewrite")
    if op.name == "hlo.custom_call":
        target = op.properties["call_target_name"]
        name = target.data if isinstance(target, StringAttr) else str(target)
        raise ReplicaRewriteError(f"custom_call target {name!r} has no cross-replica rewrite")
    if isinstance(op, CollectivePermuteOp) and op.channel_id is None:
        raise ReplicaRewriteError(
            "collective_permute without channel_id permutes replicas of a 1-replica module"
        )


def _rewrite_collective(op: CollectiveOp, partitions: int) -> None:
    if op.channel_id is None:
        # Cross-replica over a single replica: every partition is alone in its group.
        groups: Sequence[Sequence[int]] = [[i] for i in range(partitions)]
    else:
        groups = op.replica_groups.groups()
        del op.properties["channel_id"]
    op.properties["replica_groups"] = ReplicaGroupsAttr.explicit(groups)
    op.properties.pop("use_global_device_ids", None)


def _rewrite_partition_id(op: PartitionIdOp) -> None:
    new = ReplicaIdOp()
    new.attributes.update(op.attributes)
    new.result.name_hint = op.result.name_hint
    Rewriter.replace_op(op, new)


def _drop_sharding(attrs: ArrayAttr[DictionaryAttr]) -> ArrayAttr[DictionaryAttr]:
    return ArrayAttr(
        [DictionaryAttr({k: v for k, v in d.data.items() if k != SHARDING}) for d in attrs]
    )


def _rewrite_module_attrs(module: ModuleOp, partitions: int) -> None:
    module.attributes[NUM_REPLICAS] = IntegerAttr(partitions, 64)
    module.attributes[NUM_PARTITIONS] = IntegerAttr(1, 64)
    module.attributes.pop(SPMD, None)
    _drop_spmd_config(module)


def _drop_spmd_config(module: ModuleOp) -> None:
    config = module.attributes.get(MODULE_CONFIG)
    if isinstance(config, DictionaryAttr):
        kept = {k: v for k, v in config.data.items() if not k.startswith(_SPMD_CONFIG_PREFIX)}
        module.attributes[MODULE_CONFIG] = DictionaryAttr(kept)


def _rewrite_op(op: Operation, partitions: int) -> None:
    op.attributes.pop(SHARDING, None)
    if isinstance(op, CollectiveOp):
        _rewrite_collective(op, partitions)
    elif isinstance(op, CollectivePermuteOp):
        del op.properties["channel_id"]
    elif isinstance(op, PartitionIdOp):
        _rewrite_partition_id(op)
    elif isinstance(op, FuncOp):
        if op.arg_attrs is not None:
            op.arg_attrs = _drop_sharding(op.arg_attrs)
        if op.res_attrs is not None:
            op.res_attrs = _drop_sharding(op.res_attrs)


def partitions_to_replicas(module: ModuleOp) -> ModuleOp:
    """Rewrite (in place) a P-partition, 1-replica module into the same program on P replicas.

    Collectives lose `channel_id` and `use_global_device_ids` (so they become cross-replica
    over the same ids), iota replica groups become explicit lists, `partition_id` becomes
    `replica_id`, and partition shardings are dropped. Raises ReplicaRewriteError for ops with
    no equivalent (send/recv, custom calls, replica_id, collective_permute without channel_id)
    before changing anything.
    """
    replicas, partitions = device_counts(module)
    if replicas != 1:
        raise ReplicaRewriteError(f"expected 1 replica, got {replicas}")
    ops = list(module.walk())
    for op in ops:
        _check_supported(op)
    for op in ops:
        _rewrite_op(op, partitions)
    _rewrite_module_attrs(module, partitions)
    return module


# --- variadic collectives, one per operand ----------------------------------------------------

SPLIT = (AllReduceOp, AllGatherOp, ReduceScatterOp, CollectiveBroadcastOp)


def _reducer_at(region: Region, element: Attribute) -> Region | None:
    """`region` (cloned) for operands of `element`; a rebuilt simple reducer when it is typed
    for another element type (a mixed-type collective); None if it cannot be retyped."""
    block = region.blocks.first
    scalar = block.args[0].type if block is not None and block.args else None
    if not isinstance(scalar, TensorType) or scalar.element_type == element:
        return region.clone()
    kind = reduction_kind(region)
    return None if kind is None else build_reduction_region(kind, element)


def _split_one(op: Operation) -> bool:
    """Replace variadic collective `op` by one clone per operand and an `hlo.tuple`."""
    result = op.results[0].type
    if not isinstance(result, TupleType):
        return False
    clones: list[Operation] = []
    for i, operand in enumerate(op.operands):
        regions: list[Region] = []
        for region in op.regions:
            retyped = _reducer_at(region, tensor_type(operand.type).element_type)
            if retyped is None:
                return False
            regions.append(retyped)
        clone = type(op).create(
            operands=[operand],
            result_types=[result.types.data[i]],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=regions,
        )
        clones.append(clone)
    tup = TupleOp(clones)
    tup.attributes.update({k: v for k, v in op.attributes.items() if k == SHARDING})
    Rewriter.insert_op([*clones, tup], InsertPoint.before(op))
    Rewriter.replace_op(op, [], [tup.result])
    return True


def split_variadic_collectives(module: ModuleOp) -> int:
    """Split every variadic all_reduce, all_gather, reduce_scatter and collective_broadcast of
    `module` (in place, in every computation) into single-operand clones (same groups, channel
    id, flags and dimension; a mixed-type reducer rebuilt at each operand's element type) and a
    tuple of them. Returns how many were split; a mixed-type collective whose reducer is not a
    simple one is left as it is."""
    ops = [op for op in module.walk() if isinstance(op, SPLIT) and len(op.operands) > 1]
    return sum(_split_one(op) for op in ops)


def unique_channel_ids(module: ModuleOp) -> int:
    """Give every collective with a channel id (all but send/recv, whose ids pair them) its own
    id, 1, 2, ... in walk order, skipping the send/recv ids; in place, returns how many. The
    value of a collective's channel id means nothing in an SPMD program (only its presence
    picks the group mode), but XLA:CPU refuses some loops with two all-reduces of one id
    ("layout minor_to_major field contains 0 elements"), which splitting a variadic collective
    would otherwise create."""
    kinds = (CollectiveOp, CollectivePermuteOp)
    ops = [op for op in module.walk() if "channel_id" in op.properties]
    taken = {_channel(op) for op in ops if not isinstance(op, kinds)}
    renumbered = [op for op in ops if isinstance(op, kinds)]
    fresh = (i for i in itertools.count(1) if i not in taken)
    for op, channel in zip(renumbered, fresh, strict=False):
        op.properties["channel_id"] = IntegerAttr(channel, 64)
    return len(renumbered)


def _channel(op: Operation) -> int:
    attr = op.properties["channel_id"]
    return int(attr.value.data) if isinstance(attr, IntegerAttr) else 0


def explicit_all_to_all_groups(module: ModuleOp) -> int:
    """Write the empty replica groups (everybody) of every all_to_all as the one explicit group
    of every id of its mode (XLA:CPU refuses an array all_to_all with empty groups); in place,
    returns how many changed."""
    replicas, partitions = device_counts(module)
    changed = 0
    for op in module.walk():
        if isinstance(op, AllToAllOp) and not op.replica_groups.groups():
            ids = range(id_space_size(op.mode(), replicas, partitions))
            op.properties["replica_groups"] = ReplicaGroupsAttr.explicit([list(ids)])
            changed += 1
    return changed


# --- manual sharding ------------------------------------------------------------------------

_NOT_INSTRUCTIONS = (FuncOp, ReturnOp, HloReturnOp, ModuleOp)
# Left to sharding propagation: jax's HLO -> StableHLO conversion gets a while's tuple sharding
# wrong (it drops duplicated loop-carried values but keeps their shardings), and the
# partitioner aborts on a manual conditional.
_PROPAGATED = ("hlo.while", "hlo.conditional")


def _leaves(t: Attribute) -> int:
    if isinstance(t, TupleType):
        return sum(_leaves(e) for e in t.types.data)
    return 1


def _manual_for(t: Attribute) -> ShardingAttr:
    """`{manual}`, or for a tuple one `{manual}` per leaf."""
    if not isinstance(t, TupleType):
        return ShardingAttr(Sharding("manual"))
    return ShardingAttr(Sharding("tuple", elements=(Sharding("manual"),) * _leaves(t)))


def _repack(value: SSAValue, before: Operation) -> SSAValue:
    """An identity copy of `value` (a tuple rebuilt from its elements, else `hlo.copy`)."""
    t = value.type
    if isinstance(t, TupleType):
        elements = [GetTupleElementOp(value, i) for i in range(len(t.types.data))]
        tup = TupleOp(elements)
        Rewriter.insert_op([*elements, tup], InsertPoint.before(before))
        return tup.result
    copy = CopyOp.create(operands=[value], result_types=[t])
    Rewriter.insert_op(copy, InsertPoint.before(before))
    return copy.results[0]


def _annotatable_roots(module: ModuleOp) -> None:
    """A computation whose ROOT would be a while or conditional (left unannotated) returns an
    identity copy of it instead: the partitioner needs the ROOT's sharding."""
    for ret in [op for op in module.walk() if isinstance(op, ReturnOp | HloReturnOp)]:
        for i, operand in enumerate(ret.operands):
            if isinstance(operand.owner, Operation) and operand.owner.name in _PROPAGATED:
                ret.operands[i] = _repack(operand, ret)


def mark_manual(module: ModuleOp) -> None:
    """Mark every instruction and function parameter of `module` `sharding={manual}` (in
    place; the parameters of regions have no attributes: `xla_case` marks them on the text):
    XLA's SPMD partitioner then leaves the per-partition program as it is. Whiles and
    conditionals are left to sharding propagation (see _PROPAGATED), and never made a ROOT."""
    manual = ShardingAttr.from_hlo_text("{manual}")
    _annotatable_roots(module)
    for op in module.walk():
        if isinstance(op, FuncOp):
            count = len(op.function_type.inputs.data)
            old = op.arg_attrs.data if op.arg_attrs is not None else [DictionaryAttr({})] * count
            op.arg_attrs = ArrayAttr([DictionaryAttr({**d.data, SHARDING: manual}) for d in old])
        elif not isinstance(op, _NOT_INSTRUCTIONS) and op.results and op.name not in _PROPAGATED:
            op.attributes[SHARDING] = _manual_for(op.results[0].type)
    _drop_spmd_config(module)


# --- cases and results ------------------------------------------------------------------------


@dataclass(frozen=True)
class XlaCase:
    """One program for XLA: HLO text, its mesh and per-device inputs (leading axis R*P)."""

    name: str
    text: str
    replicas: int
    partitions: int
    inputs: Sequence[Array]
    params: Sequence[str]
    """The numpy dtype name of each parameter as XLA takes it (`bfloat16`, `float32`, ...)."""
    spmd: bool = False
    parse_only: bool = False
    """Only parse (and verify) the text: the result is "ok" (no outputs) or "rejected"."""

    @property
    def devices(self) -> int:
        return self.replicas * self.partitions


Status = Literal["ok", "rejected", "error", "crash", "timeout"]


@dataclass(frozen=True)
class XlaResult:
    """What XLA made of one case: per output its per-device values (status "ok"), else why
    not (`stage`: "parse" or "compile" for "rejected")."""

    status: Status
    outputs: list[Array] = field(default_factory=list[Array])
    message: str = ""
    stage: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def parse_case(text: str, name: str = "text") -> XlaCase:
    """A case that only parses `text` (it may share a batch with cases that run)."""
    return XlaCase(name, text, 1, 1, [], [], parse_only=True)


def _xla_dtype(t: Attribute) -> str:
    return numpy_name(element_type_name(tensor_type(t).element_type))


def numpy_name(name: str) -> str:
    """The numpy dtype name of XLA element type `name` (`bf16` -> `bfloat16`, `s32` ->
    `int32`, `pred` -> `bool`)."""
    if name == "pred":
        return "bool"
    if name == "bf16":
        return "bfloat16"
    kind = {"s": "int", "u": "uint", "f": "float"}[name[0]]
    return f"{kind}{name[1:]}"


def xla_case(
    module: ModuleOp,
    inputs: Sequence[Array],
    name: str = "program",
    *,
    as_replicas: bool = False,
    exact_rewrites: bool = True,
    anonymous: bool = False,
) -> XlaCase:
    """The XLA case of `module` (not changed: a clone is rewritten) on `inputs`, the
    per-device entry arguments `neuron-run` takes. See the module docstring for the rewrites;
    `exact_rewrites=False` leaves out the split of variadic collectives, the explicit
    all_to_all groups and the unique channel ids (the program is then exported as it is).
    `anonymous` drops the value names (XLA-style names are given): structurally equal modules
    then have equal texts."""
    module = module.clone(clone_name_hints=not anonymous)
    if exact_rewrites:
        split_variadic_collectives(module)
        explicit_all_to_all_groups(module)
        unique_channel_ids(module)
    replicas, partitions = device_counts(module)
    spmd = False
    if as_replicas:
        partitions_to_replicas(module)
        replicas, partitions = partitions, 1
    elif partitions > 1:
        mark_manual(module)
        spmd = True
    params = [_xla_dtype(t) for t in entry_function(module).function_type.inputs.data]
    arrays = [np.asarray(a) for a in inputs]
    text = export_hlo(module)
    if spmd:
        text = _manual_parameters(text)
    return XlaCase(name, text, replicas, partitions, arrays, params, spmd)


_PARAMETER = re.compile(
    r"^(\s*(?:ROOT )?%\S+ = )(\S.*?) parameter\((\d+)\)((?:(?!sharding=).)*)$", re.M
)


def _manual_parameters(text: str) -> str:
    """Mark the parameters of every computation `sharding={manual}` (region arguments have no
    attributes in the IR, so this is done on the text)."""

    def mark(match: re.Match[str]) -> str:
        shape = match.group(2)
        leaves = shape.count("[") if shape.startswith("(") else 0
        sharding = "{" + ", ".join(["{manual}"] * leaves) + "}" if leaves else "{manual}"
        return f"{match.group(0)}, sharding={sharding}"

    return _PARAMETER.sub(mark, text)


# --- the worker process -----------------------------------------------------------------------


def _storage(array: Array) -> Array:
    return array.astype(np.float32) if array.dtype.name == "bfloat16" else array


def _write_batch(cases: Sequence[XlaCase], folder: Path, allow_excess_precision: bool) -> Path:
    records: list[dict[str, Any]] = []
    for i, case in enumerate(cases):
        hlo, inputs = folder / f"case{i}.hlo", folder / f"case{i}.in.npz"
        hlo.write_text(case.text)
        np.savez(inputs, **{f"arg{j}": _storage(a) for j, a in enumerate(case.inputs)})  # pyright: ignore[reportArgumentType]
        records.append(
            {
                "name": case.name,
                "hlo": str(hlo),
                "replicas": case.replicas,
                "partitions": case.partitions,
                "spmd": case.spmd,
                "inputs": str(inputs),
                "params": list(case.params),
                "outputs": str(folder / f"case{i}.out.npz"),
                "parse_only": case.parse_only,
            }
        )
    devices = max((c.devices for c in cases), default=1)
    batch = folder / "batch.json"
    batch.write_text(
        json.dumps(
            {"devices": devices, "allow_excess_precision": allow_excess_precision, "cases": records}
        )
    )
    return batch


def _read_log(log: Path, since: int = 0) -> tuple[dict[int, dict[str, Any]], int | None]:
    """The finished records by case, and the case started (after byte `since`: by the current
    worker) but not finished, if any."""
    done: dict[int, dict[str, Any]] = {}
    started: int | None = None
    if not log.exists():
        return done, None
    data = log.read_bytes()
    for offset, line in _lines(data):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a crash
        if record["event"] != "start":
            done[int(record["case"])] = record
        elif offset >= since:
            started = int(record["case"])
    return done, (started if started is not None and started not in done else None)


def _lines(data: bytes) -> list[tuple[int, bytes]]:
    """Every line of `data` with the byte offset it starts at."""
    lines: list[tuple[int, bytes]] = []
    offset = 0
    for line in data.splitlines(keepends=True):
        lines.append((offset, line))
        offset += len(line)
    return lines


def _death(code: int) -> str:
    if code < 0:
        try:
            return f"XLA crashed: {signal.Signals(-code).name}"
        except ValueError:
            return f"XLA crashed: signal {-code}"
    return f"XLA's worker exited with status {code}"


class _Worker:
    """One worker process over the cases `first...` of a batch, watched for hangs."""

    def __init__(self, batch: Path, log: Path, first: int, stderr: Path) -> None:
        self.log = log
        self.since = log.stat().st_size if log.exists() else 0
        self.stderr_path = stderr
        with stderr.open("w") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-P", str(WORKER), str(batch), str(log), str(first)],
                stdout=subprocess.DEVNULL,
                stderr=err,
            )

    def wait(self, case_timeout: float) -> tuple[int | None, str]:
        """Wait until the worker ends; (the case it died or hung in, why) or (None, "")."""
        current: int | None = None
        since = time.monotonic()
        while self.process.poll() is None:
            time.sleep(0.02)
            _, started = _read_log(self.log, self.since)
            if started != current:
                current, since = started, time.monotonic()
            elif current is not None and time.monotonic() - since > case_timeout:
                self.process.kill()
                self.process.wait()
                return current, f"timeout: no result after {case_timeout:.0f} s"
        code = self.process.returncode
        _, started = _read_log(self.log, self.since)
        if code == 0:
            return None, ""
        tail = self.stderr_path.read_text(errors="replace")[-2000:]
        return started, f"{_death(code)}\n{tail}".strip()


def _result(record: dict[str, Any]) -> XlaResult:
    status = record["status"]
    if status != "ok":
        return XlaResult(status, message=record.get("message", ""), stage=record.get("stage", ""))
    if "dtypes" not in record:  # a parse-only case
        return XlaResult("ok")
    data = np.load(record["outputs"])
    outputs = [np.asarray(data[f"out{j}"]) for j in range(len(record["dtypes"]))]
    return XlaResult("ok", outputs)


def _run_batch(
    cases: Sequence[XlaCase],
    folder: Path,
    allow_excess_precision: bool,
    case_timeout: float,
) -> list[dict[str, Any]]:
    batch = _write_batch(cases, folder, allow_excess_precision)
    log = folder / "log.jsonl"
    failures: dict[int, dict[str, Any]] = {}
    retried: set[int] = set()
    first, restarts = 0, 0
    while first < len(cases):
        worker = _Worker(batch, log, first, folder / f"stderr{restarts}.txt")
        culprit, why = worker.wait(case_timeout)
        done, _ = _read_log(log)
        if culprit is None:
            if why or len(done) + len(failures) < len(cases):
                raise RuntimeError(f"XLA worker failed outside any case: {why}")
            break
        restarts += 1
        if why.startswith("timeout") and culprit not in retried:
            retried.add(culprit)  # once more in a fresh worker: a loaded machine is slow
            first = culprit
            continue
        status = "timeout" if why.startswith("timeout") else "crash"
        failures[culprit] = {"status": status, "message": why}
        first = culprit + 1
    done, _ = _read_log(log)
    records: list[dict[str, Any]] = []
    for i, case in enumerate(cases):
        record = failures.get(i) or done.get(i)
        if record is None:
            raise RuntimeError(f"XLA worker left case {case.name!r} without a result")
        records.append({**record, "outputs": str(folder / f"case{i}.out.npz")})
    return records


def run_xla(
    cases: Sequence[XlaCase],
    *,
    allow_excess_precision: bool = False,
    case_timeout: float = 120.0,
    workdir: Path | None = None,
    workers: int = 1,
) -> list[XlaResult]:
    """Compile and run every case on XLA:CPU in one worker process (restarted after a crash),
    or with `workers` > 1 in that many processes side by side, each over its share of the
    cases; one result per case, in order. `workdir` keeps the batch files (default: a
    temporary folder, removed afterwards)."""
    require_xla()
    if not cases:
        return []
    shares = [list(range(k, len(cases), workers)) for k in range(min(workers, len(cases)))]
    results: dict[int, XlaResult] = {}
    errors: list[BaseException] = []

    def run_share(folder: Path, indices: list[int]) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            share = [cases[i] for i in indices]
            records = _run_batch(share, folder, allow_excess_precision, case_timeout)
            results.update(zip(indices, map(_result, records), strict=True))
        except BaseException as e:  # re-raised below
            errors.append(e)

    with _batch_folder(workdir) as root:
        threads = [
            threading.Thread(target=run_share, args=(root / f"worker{k}", indices))
            for k, indices in enumerate(shares)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if errors:
        raise errors[0]
    return [results[i] for i in range(len(cases))]


@contextmanager
def _batch_folder(workdir: Path | None) -> Generator[Path]:
    if workdir is not None:
        workdir.mkdir(parents=True, exist_ok=True)
        yield workdir
        return
    with tempfile.TemporaryDirectory(prefix="xla_oracle.") as folder:
        yield Path(folder)


@dataclass(frozen=True)
class XlaParse:
    """XLA's parser on one text: ok (with XLA's reprint and its instruction count per HloOpcode
    member name, e.g. `kAllReduce`) or rejected with its message."""

    ok: bool
    message: str = ""
    text: str = ""
    opcodes: Counter[str] = field(default_factory=Counter[str])


def parse_xla(texts: Sequence[str], *, case_timeout: float = 60.0) -> list[XlaParse]:
    """Parse every HLO text with XLA's parser and verifier (one worker process)."""
    require_xla()
    cases = [parse_case(t, f"text{i}") for i, t in enumerate(texts)]
    with tempfile.TemporaryDirectory(prefix="xla_parse.") as folder:
        records = _run_batch(cases, Path(folder), False, case_timeout)
        parsed: list[XlaParse] = []
        for record in records:
            if record["status"] != "ok":
                parsed.append(XlaParse(False, record.get("message", "")))
                continue
            text = Path(record["outputs"]).with_suffix(".txt").read_text()
            parsed.append(XlaParse(True, "", text, Counter(record["opcodes"])))
        return parsed


class XlaRun:
    """A batch running in the background (`start_xla`): a thread waits on the worker."""

    def __init__(self, cases: Sequence[XlaCase], options: dict[str, Any]) -> None:
        self._results: list[XlaResult] = []
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(list(cases), options), daemon=True)
        self._thread.start()

    def _run(self, cases: list[XlaCase], options: dict[str, Any]) -> None:
        try:
            self._results = run_xla(cases, **options)
        except BaseException as e:  # re-raised by results()
            self._error = e

    def results(self) -> list[XlaResult]:
        """Wait for the batch; one result per case, in order."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._results


def start_xla(
    cases: Sequence[XlaCase],
    *,
    allow_excess_precision: bool = False,
    workers: int = 1,
    case_timeout: float = 120.0,
) -> XlaRun:
    """`run_xla` in the background: the caller can run the interpreter meanwhile."""
    require_xla()
    options = {
        "allow_excess_precision": allow_excess_precision,
        "workers": workers,
        "case_timeout": case_timeout,
    }
    return XlaRun(cases, options)


# --- output comparison ------------------------------------------------------------------------

Tolerance = Literal["exact", "strict", "reassociated", "reassociated-bf16"]
"""How closely two runs must agree. Integers and predicates: always bit for bit. Floats:
"exact" - bit for bit (NaN equals NaN); "strict" - f32 within 1e-5 relative (plus 1e-5
absolute near zero), bf16 exact; "reassociated" - within `F32_REASSOCIATION` (f32 outputs) or
`BF16_REASSOCIATION` (bf16 outputs) of the output's largest finite magnitude (at least 1): a
moved sum is legitimately reassociated; "reassociated-bf16" - `BF16_REASSOCIATION` for every
float output (the program computes in bf16: T bf16 roundings of a sum, then converted to f32)."""

F32_RTOL = 1e-5
F32_REASSOCIATION = 1e-4
BF16_REASSOCIATION = 2.0**-4


def output_types(module: ModuleOp) -> list[str]:
    """XLA's element type name of every output (the entry's result tuple flattened)."""
    results: list[Attribute] = list(entry_function(module).function_type.outputs.data)
    if len(results) == 1 and isinstance(results[0], TupleType):
        results = list(results[0].types.data)
    return [element_type_name(tensor_type(t).element_type) for t in results]


def _close(a: Array, b: Array, element: str, tolerance: Tolerance) -> Array:
    if a.dtype.kind != "f":
        return a == b
    x, y = a.astype(np.float64), b.astype(np.float64)
    same = (x == y) | (np.isnan(x) & np.isnan(y))
    if tolerance == "exact" or (tolerance == "strict" and element != "f32"):
        return same
    if tolerance == "strict":
        return same | np.isclose(x, y, rtol=F32_RTOL, atol=F32_RTOL)
    scale = float(np.max(np.abs(y[np.isfinite(y)]), initial=1.0))
    in_bf16 = element == "bf16" or tolerance == "reassociated-bf16"
    bound = (BF16_REASSOCIATION if in_bf16 else F32_REASSOCIATION) * scale
    return same | (np.abs(x - y) <= bound)


def difference(
    expected: Sequence[Array], actual: Sequence[Array], types: Sequence[str], tolerance: Tolerance
) -> str | None:
    """Where `actual` first differs from `expected` (per output, leading device axis), or None."""
    if len(expected) != len(actual):
        return f"{len(actual)} outputs, expected {len(expected)}"
    for j, (e, a, t) in enumerate(zip(expected, actual, types, strict=True)):
        e, a = np.asarray(e), np.asarray(a)
        if e.shape != a.shape:
            return f"output {j} ({t}): shape {list(a.shape)}, expected {list(e.shape)}"
        close = _close(a.astype(e.dtype) if a.dtype != e.dtype else a, e, t, tolerance)
        if not bool(np.all(close)):
            bad = np.argwhere(~close)
            at = tuple(int(i) for i in bad[0])
            return (
                f"output {j} ({t}) differs in {len(bad)} elements, first on device {at[0]} at "
                f"{list(at[1:])}: {a[at]!r}, expected {e[at]!r}"
            )
    return None


# --- the differential checks ------------------------------------------------------------------

Reference = Callable[[str, Sequence[Array]], list[Array]]
"""An independent evaluation of HLO text on per-device inputs: per output, per-device values."""


@dataclass
class Subject:
    """One program for the differential checks: the module, its per-device inputs and, when
    known, an independent reference evaluation (to arbitrate disagreements)."""

    name: str
    module: ModuleOp
    inputs: list[Array]
    reference: Reference | None = None


def random_subject(seed: int, mesh: tuple[int, int] | None = None) -> Subject:
    """The random HLO program of `seed` (`neuron_cc.testing.random_hlo`) with its inputs and
    numpy reference."""
    from neuron_cc.testing.random_hlo import random_program, random_program_inputs

    program = random_program(seed, mesh)

    def reference(text: str, inputs: Sequence[Array]) -> list[Array]:
        return replace(program, text=_reference_text(text)).reference(inputs)

    module = import_hlo(program.text, f"random_program({seed})")
    return Subject(f"seed {seed}", module, random_program_inputs(program, seed), reference)


_LAYOUT = re.compile(r"\]\{[\d,]*\}")
_HEADER = re.compile(r"^(ENTRY )?(\S+) \(.*\{$", re.M)


def _reference_text(text: str) -> str:
    """Our export in the text subset random_hlo's evaluator reads: no `%` sigils, no layouts,
    bare computation headers (`name {`)."""
    return _HEADER.sub(r"\1\2 {", _LAYOUT.sub("]", text.replace("%", "")))


def corpus_subject(spmd: Path) -> Subject:
    """A corpus program (`tests/corpus/jax/<case>/spmd.hlo`) on the inputs of its oracle
    (`inputs.npz` next to it); no reference (neuron-run and XLA arbitrate each other)."""
    module = import_hlo(spmd.read_text(), str(spmd))
    with np.load(spmd.parent / "inputs.npz") as data:
        arrays = {k: data[k] for k in data.files}
    r, p = device_counts(module)
    inputs = inputs_from_npz(entry_function(module), arrays, r * p)
    return Subject(spmd.parent.name, module, [np.asarray(a) for a in inputs])


PassConfig = tuple[str, dict[str, Any]]

PASS_CONFIGS: list[PassConfig] = [
    ("hlo-dce", {}),
    ("decompose-cc-ops", {}),
    ("decompose-cc-ops", {"all_computations": True}),
    ("legalize-cpu-cc-ops", {}),
    ("legalize-cpu-cc-ops", {"all_computations": True}),
    ("legalize-ccops-for-tensorizer", {}),
    ("neuron-while-loop-all-reduce-code-motion", {}),
    (
        "neuron-while-loop-all-reduce-code-motion",
        {"enable_reduce_scatter": True, "run_setup_passes": True},
    ),
    ("neuron-move-reduce-scatter-while-loop", {}),
    ("neuron-move-all-gather-while-loop", {}),
    ("neuron-move-all-gather-while-loop", {"reference_replica_groups": "0,1,2,3;4,5,6,7"}),
    ("neuron-duplicate-parameter-all-gather-remover", {}),
    ("spmd-expand-reshard", {}),
    ("neuron-default-pipeline", {}),
]
"""Every hlo -> hlo pass of neuron-opt (with the option sets of tests/test_properties.py)."""

NOT_HLO_PASSES = {"convert-hlo-to-bir": "its result is BIR, which has no HLO export"}

REASSOCIATING = frozenset(
    {
        "neuron-while-loop-all-reduce-code-motion",
        "neuron-move-reduce-scatter-while-loop",
        "neuron-default-pipeline",
        "legalize-ccops-for-tensorizer",
    }
)
"""Passes whose sums are legitimately computed differently, compared with the "reassociated"
tolerance (every other pass bit for bit): the loop passes move an all-reduce / reduce-scatter of
a sum out of a loop (the sum is reassociated), and legalize-ccops-for-tensorizer computes a mixed
f32+s32 sum at f64 and rounds once (XLA:CPU adds the devices' f32 values one by one; HLO leaves
that order open, and one rounding is within the bound of any order's)."""


def config_id(config: PassConfig) -> str:
    name, options = config
    return name + "".join(f"[{k}={v}]" for k, v in sorted(options.items()))


FindingKind = Literal["interpreter", "pass", "xla", "export", "unresolved"]


@dataclass(frozen=True)
class Finding:
    """A disagreement, arbitrated. `kind`: "interpreter" (reference == XLA != neuron-run),
    "pass" (the pass changed what the program computes), "xla" (reference == neuron-run !=
    XLA: XLA's bug, recorded, not a failure), "export" (XLA cannot parse our export of a
    program it accepts, or rejects a pass result of a program it runs), "unresolved" (no
    reference to decide)."""

    program: str
    check: str
    kind: FindingKind
    detail: str
    evidence: str = ""
    """The differing output as each side computed it (for the findings file)."""

    def line(self) -> str:
        return f"{self.program}: {self.check}: {self.kind}: {self.detail}"


@dataclass
class Report:
    """What a differential run checked and found."""

    programs: int = 0
    rejected: Counter[str] = field(default_factory=Counter[str])
    """Programs XLA did not run, by reason (they are not compared)."""
    rejected_programs: list[str] = field(default_factory=list[str])
    """`name: reason` of every program XLA did not run."""
    refusals: Counter[str] = field(default_factory=Counter[str])
    """Pass configurations that refused a program (PassFailedException), by configuration."""
    agreed: Counter[str] = field(default_factory=Counter[str])
    """Comparisons that agreed, by check ("neuron-run", a pass configuration)."""
    unchanged: Counter[str] = field(default_factory=Counter[str])
    """Pass configurations whose result is the original program (up to value names and the
    oracle's exact rewrites): nothing to compare."""
    findings: list[Finding] = field(default_factory=list[Finding])

    def merge(self, other: Report) -> None:
        self.programs += other.programs
        self.rejected.update(other.rejected)
        self.rejected_programs.extend(other.rejected_programs)
        self.refusals.update(other.refusals)
        self.agreed.update(other.agreed)
        self.unchanged.update(other.unchanged)
        self.findings.extend(other.findings)

    @property
    def failures(self) -> list[Finding]:
        """The findings that are our bugs or undecided (everything but XLA's bugs)."""
        return [f for f in self.findings if f.kind != "xla"]

    def summary(self) -> list[str]:
        kinds = Counter(f.kind for f in self.findings)
        lines = [
            f"{self.programs} programs, {sum(self.rejected.values())} rejected by XLA, "
            f"{sum(self.agreed.values())} comparisons agreed "
            f"({sum(self.unchanged.values())} pass results unchanged), findings: "
            + (", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none")
        ]
        lines += [f"  rejected {n:4d}: {why}" for why, n in self.rejected.most_common()]
        lines += [f"  refused  {n:4d}: {what}" for what, n in sorted(self.refusals.items())]
        for what in sorted(set(self.agreed) | set(self.unchanged)):
            lines.append(
                f"  agreed   {self.agreed[what]:4d}: {what}"
                + (f" ({self.unchanged[what]} unchanged)" if self.unchanged[what] else "")
            )
        lines += [f"  finding: {f.line()}" for f in self.findings]
        return lines


def rejection_reason(result: XlaResult) -> str:
    """A short, program-independent reason for a result that is not "ok"."""
    first = result.message.strip().splitlines()[0] if result.message.strip() else ""
    first = first.removeprefix("jax.errors.JaxRuntimeError: ")
    first = re.sub(r"%[\w.\-]+|\b\d+\b", "N", first)[:110]
    return f"{result.status}{'/' + result.stage if result.stage else ''}: {first}"


_CONTEXT: list[Context] = []


def _context() -> Context:
    if not _CONTEXT:
        from neuron_cc.testing.ir import neuron_context

        _CONTEXT.append(neuron_context())
    return _CONTEXT[0]


PassRegistry = Mapping[str, Callable[[], type[ModulePass]]]


def apply_pass(
    config: PassConfig, module: ModuleOp, passes: PassRegistry | None = None
) -> tuple[ModuleOp | None, str]:
    """(the pass's result on a clone of `module`, "") or (None, its refusal message); the
    pass is looked up in `passes` (default: neuron-cc's registry)."""
    name, options = config
    result = module.clone()
    try:
        (passes or get_all_passes())[name]()(**options).apply(_context(), result)
    except PassFailedException as e:
        return None, str(e)
    return result, ""


@dataclass
class _Variant:
    """The original program or one pass's result, and its XLA case (index into the batch)."""

    check: str
    module: ModuleOp
    case: int


@dataclass
class _Plan:
    subject: Subject
    types: list[str]
    variants: list[_Variant]
    """The original first, then every pass result XLA gets (in configuration order)."""
    refusals: list[str]
    findings: list[Finding]
    bf16: bool = False
    """The original computes something in bf16."""


def _plan(
    subject: Subject,
    configs: Sequence[PassConfig],
    cases: list[XlaCase],
    verify: bool,
    passes: PassRegistry | None,
) -> _Plan:
    """Apply every configuration; add each distinct program (by anonymous text) to `cases`.
    A pass that crashes, or whose result does not verify or export, is a finding."""
    plan = _Plan(subject, output_types(subject.module), [], [], [])
    index: dict[str, int] = {}

    def add(check: str, module: ModuleOp) -> None:
        try:
            if verify:
                module.verify()
            case = xla_case(module, subject.inputs, f"{subject.name}: {check}", anonymous=True)
        except Exception as e:  # the module is broken: not a program XLA can be given
            kind: FindingKind = "export" if check == ORIGINAL else "pass"
            plan.findings.append(Finding(subject.name, check, kind, _error(e)))
            return
        if case.text not in index:
            index[case.text] = len(cases)
            cases.append(case)
        if check == ORIGINAL:
            plan.bf16 = "bf16[" in case.text
        plan.variants.append(_Variant(check, module, index[case.text]))

    add(ORIGINAL, subject.module)
    if not plan.variants:
        return plan
    for config in configs:
        try:
            result, _ = apply_pass(config, subject.module, passes)
        except Exception as e:  # a pass must never crash
            plan.findings.append(Finding(subject.name, config_id(config), "pass", _error(e)))
            continue
        if result is None:
            plan.refusals.append(config_id(config))
        else:
            add(config_id(config), result)
    return plan


ORIGINAL = "neuron-run"
"""The check of the original program: neuron-run's outputs against XLA's."""


def _error(e: BaseException) -> str:
    return f"{type(e).__name__}: {str(e).strip()[:500]}"


def _ours(module: ModuleOp, inputs: Sequence[Array]) -> list[Array] | str:
    """neuron-run's outputs, or why it failed."""
    try:
        result = run_module(module, [np.copy(a) for a in inputs])
    except InterpretationError as e:
        return f"neuron-run failed: {e}"
    return flatten_values(result.outputs)


def _reference(subject: Subject, module: ModuleOp) -> list[Array] | str:
    """The subject's reference evaluation of `module` (exported), or why there is none."""
    if subject.reference is None:
        return "no reference"
    try:
        return subject.reference(export_hlo(module), subject.inputs)
    except Exception as e:  # any failure of the independent evaluator: no arbitration
        return f"the reference failed: {type(e).__name__}: {e}"


def _agree(
    a: list[Array] | str, b: list[Array] | str, types: Sequence[str], tol: Tolerance
) -> bool:
    return (
        not isinstance(a, str) and not isinstance(b, str) and difference(a, b, types, tol) is None
    )


def _arbitrate(
    ours: list[Array] | str, xla: list[Array], reference: list[Array] | str, types: Sequence[str]
) -> FindingKind:
    if _agree(reference, xla, types, "strict"):
        return "interpreter"
    if _agree(reference, ours, types, "strict"):
        return "xla"
    return "unresolved"


Outputs = list[Array] | str
Sides = Mapping[str, Outputs | Callable[[], Outputs]]
"""What each side computed (or a function computing it, or why it could not)."""

_OUTPUT = re.compile(r"output (\d+)")


def evidence(sides: Sides, problem: str) -> str:
    """The output a `difference` message names, as every side computed it."""
    match = _OUTPUT.search(problem)
    j = int(match.group(1)) if match else None
    lines: list[str] = []
    for name, side in sides.items():
        value = side() if callable(side) else side
        if isinstance(value, str) or j is None or j >= len(value):
            shown = value if isinstance(value, str) else f"{len(value)} outputs"
        else:
            shown = np.array2string(np.asarray(value[j]), threshold=200, max_line_width=100)
        lines.append(f"{name}{'' if j is None else f' (output {j})'}:\n{shown}")
    return "\n".join(lines)


class _Judge:
    """The verdicts on one plan, given every XLA result of the batch."""

    def __init__(self, plan: _Plan, ours: list[Array] | str, results: Sequence[XlaResult]):
        self.plan = plan
        self.subject = plan.subject
        self.types = plan.types
        self.ours = ours
        self.results = results
        self.report = Report(programs=1)
        self.report.refusals.update(plan.refusals)
        self.report.findings.extend(plan.findings)
        self._reference: list[Array] | str | None = None

    def reference(self) -> list[Array] | str:
        if self._reference is None:
            self._reference = _reference(self.subject, self.subject.module)
        return self._reference

    def find(self, check: str, kind: FindingKind, detail: str, sides: Sides | None = None) -> None:
        shown = evidence(sides, detail) if sides is not None else ""
        self.report.findings.append(Finding(self.subject.name, check, kind, detail, shown))

    def run(self) -> Report:
        if not self.plan.variants:
            return self.report
        original, *variants = self.plan.variants
        xla = self.results[original.case]
        if self.original(xla):
            for variant in variants:
                if variant.case == original.case:
                    self.report.unchanged[variant.check] += 1
                else:
                    self.variant(variant, xla.outputs, self.results[variant.case])
        return self.report

    def original(self, xla: XlaResult) -> bool:
        """neuron-run against XLA on the original; False if XLA did not run it."""
        if not xla.ok:
            reason = rejection_reason(xla)
            self.report.rejected[reason] += 1
            self.report.rejected_programs.append(f"{self.subject.name}: {reason}")
            if xla.stage == "parse":
                self.find(ORIGINAL, "export", f"XLA cannot parse the export: {xla.message}")
            return False
        sides: Sides = {"neuron-run": self.ours, "XLA": xla.outputs, "reference": self.reference}
        if isinstance(self.ours, str):
            kind = _arbitrate(self.ours, xla.outputs, self.reference(), self.types)
            self.find(ORIGINAL, kind, self.ours, sides)
            return True
        problem = difference(xla.outputs, self.ours, self.types, "strict")
        if problem is None:
            self.report.agreed[ORIGINAL] += 1
        else:
            kind = _arbitrate(self.ours, xla.outputs, self.reference(), self.types)
            self.find(ORIGINAL, kind, f"neuron-run vs XLA: {problem}", sides)
        return True

    def variant(self, variant: _Variant, before: list[Array], xla: XlaResult) -> None:
        """XLA on a pass result against XLA on the original."""
        check = variant.check
        if not xla.ok:
            kind: FindingKind = "xla" if xla.status in ("crash", "timeout") else "unresolved"
            if xla.stage == "parse":
                kind = "export"
            self.find(check, kind, f"XLA runs the original, not the result: {xla.message}")
            return
        tolerance: Tolerance = "exact"
        if check.split("[")[0] in REASSOCIATING:
            tolerance = "reassociated-bf16" if self.plan.bf16 else "reassociated"
        problem = difference(before, xla.outputs, self.types, tolerance)
        if problem is None:
            self.report.agreed[check] += 1
            return
        ours = _ours(variant.module, self.subject.inputs)
        truth = _reference(self.subject, variant.module)
        kind = self.blame(ours, truth, before, xla.outputs, tolerance)
        sides: Sides = {
            "XLA, original": before,
            "XLA, pass result": xla.outputs,
            "neuron-run, original": self.ours,
            "neuron-run, pass result": ours,
            "reference, original": self.reference,
            "reference, pass result": truth,
        }
        self.find(check, kind, f"XLA on the result vs on the original: {problem}", sides)

    def blame(
        self,
        ours: list[Array] | str,
        truth: list[Array] | str,
        before: list[Array],
        after: list[Array],
        tolerance: Tolerance,
    ) -> FindingKind:
        """Who is wrong when XLA computes the pass result (`after`; neuron-run: `ours`, the
        reference: `truth`) differently from the original (`before`)."""
        types = self.types
        if isinstance(truth, str):
            # No reference: the pass is to blame when both executors see the same change.
            both = _agree(ours, after, types, "strict") and _agree(
                self.ours, before, types, "strict"
            )
            return "pass" if both else "unresolved"
        if _agree(truth, after, types, "strict") and _agree(
            self.reference(), before, types, "strict"
        ):
            return "pass"
        if _agree(truth, ours, types, "strict") and _agree(
            truth, self.reference(), types, tolerance
        ):
            return "xla"
        return "unresolved"


class Differential:
    """The differential checks on a list of subjects, in three steps around ONE XLA batch:

        checks = Differential(subjects)          # apply the passes, build `checks.cases`
        run = start_xla(checks.cases)            # (more cases may share the batch)
        checks.interpret()                       # neuron-run on the originals, meanwhile
        reports = checks.judge(run.results())    # one Report per subject

    The checks (`check_subjects` does all of it):

    - neuron-run's outputs equal XLA's on every output and device ("strict" tolerance);
    - for every pass configuration, XLA on the (exported) result equals XLA on the original
      (bit for bit; "reassociated" for the passes in REASSOCIATING);
    - XLA parses every export.

    Disagreements are arbitrated with the subject's reference (see `Finding`); programs XLA
    does not run are counted in `Report.rejected`, refusals of a pass in `Report.refusals`.
    `passes` replaces neuron-cc's pass registry (to check the checks with a broken pass).
    """

    def __init__(
        self,
        subjects: Sequence[Subject],
        configs: Sequence[PassConfig] = PASS_CONFIGS,
        *,
        verify: bool = True,
        passes: PassRegistry | None = None,
    ) -> None:
        self.cases: list[XlaCase] = []
        self.plans = [_plan(s, configs, self.cases, verify, passes) for s in subjects]
        self.ours: list[list[Array] | str] = []

    def interpret(self) -> None:
        """Run neuron-run on every original (once)."""
        if not self.ours:
            self.ours = [_ours(p.subject.module, p.subject.inputs) for p in self.plans]

    def judge(self, results: Sequence[XlaResult]) -> list[Report]:
        """One report per subject, given XLA's results of `cases` (in order, first)."""
        self.interpret()
        return [
            _Judge(plan, ours, results).run()
            for plan, ours in zip(self.plans, self.ours, strict=True)
        ]


def total(reports: Sequence[Report]) -> Report:
    """The reports merged into one."""
    merged = Report()
    for report in reports:
        merged.merge(report)
    return merged


def check_subjects(
    subjects: Sequence[Subject],
    configs: Sequence[PassConfig] = PASS_CONFIGS,
    *,
    verify: bool = True,
    passes: PassRegistry | None = None,
    case_timeout: float = 120.0,
) -> Report:
    """Every check of `Differential` on `subjects`, with one XLA batch; the merged report."""
    checks = Differential(subjects, configs, verify=verify, passes=passes)
    run = start_xla(checks.cases, case_timeout=case_timeout)
    checks.interpret()
    return total(checks.judge(run.results()))
