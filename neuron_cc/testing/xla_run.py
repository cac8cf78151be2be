"""Running XLA cases in worker processes for the XLA oracle (`neuron_cc.testing.xla_oracle`).

Whether jax is installed (`xla_available`, `require_xla`, `XlaUnavailable`); `run_xla` runs a
batch of `XlaCase`s in one or several worker processes (`xla_worker.py`, restarted after a
crash, a hanging case killed after `case_timeout` and retried once), `start_xla` in the
background (`XlaRun`), and `parse_xla` only parses (`XlaParse`).
"""

from __future__ import annotations

import importlib.util
import json
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Generator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from neuron_cc.testing.xla_cases import Array, XlaCase, XlaResult, parse_case

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
