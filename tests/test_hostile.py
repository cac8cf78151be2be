"""The hostile input corpus (issue 10): every file of tests/hostile (plus the big ones
tools/make_hostile.py generates at test time) goes through every CLI entry point that takes it.

Each run must end within CPU_SECONDS of CPU time (RLIMIT_CPU; WALL_SECONDS of wall time
catches hangs that do not compute) and MEMORY bytes of address space (RLIMIT_AS) with either
exit 0 (the input is actually valid) or exit 1 and `error: <file>:<line>:<col>: <message>` on
stderr; never a traceback, never a hang, never an output file on failure.
tests/hostile/MANIFEST.json says for each file what it exercises and the expected outcome
("ok", "error" or "any"; "tools" overrides it for single entry points, e.g. neuron-run of a
valid but huge program).

All runs happen once in a module fixture (forked from one zygote process, WORKERS at a time,
biggest inputs first); the parametrised tests then check one (file, entry point) each.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

from tests.conftest import BIN, ROOT, load_tool

HOSTILE = ROOT / "tests" / "hostile"
CPU_SECONDS = 10  # per run (RLIMIT_CPU): robust on a loaded 2-core machine
WALL_SECONDS = 30.0  # per run: catches hangs that do not burn CPU
MEMORY = 2 << 30  # RLIMIT_AS
WORKERS = max(2, min(4, os.cpu_count() or 2))

# entry point -> (input suffixes, tool module, argv after the tool name, output suffix)
ENTRY_POINTS: dict[str, tuple[tuple[str, ...], str, list[str], str]] = {
    "opt": (
        (".hlo", ".mlir"),
        "neuron_opt",
        ["{in}", "-p", "neuron-default-pipeline", "-o", "{out}"],
        ".mlir",
    ),
    "opt-emit-hlo": (
        (".hlo", ".mlir"),
        "neuron_opt",
        ["{in}", "-p", "neuron-default-pipeline", "--emit", "hlo", "-o", "{out}"],
        ".hlo",
    ),
    "opt-bir-json": (
        (".hlo", ".mlir"),
        "neuron_opt",
        ["{in}", "-p", "convert-hlo-to-bir", "--emit", "bir-json", "-o", "{out}"],
        ".json",
    ),
    "translate-import": (
        (".hlo",),
        "neuron_translate",
        ["--import-hlo", "{in}", "-o", "{out}"],
        ".mlir",
    ),
    "translate-export": (
        (".mlir",),
        "neuron_translate",
        ["--export-hlo", "{in}", "-o", "{out}"],
        ".hlo",
    ),
    "run": (
        (".hlo", ".mlir"),
        "neuron_run",
        ["{in}", "--random-inputs", "0", "--outputs", "{out}"],
        ".npz",
    ),
}
SCRIPTS = {
    "neuron_opt": "neuron-opt",
    "neuron_translate": "neuron-translate",
    "neuron_run": "neuron-run",
}


@dataclass
class Outcome:
    file: Path
    tool: str
    returncode: int | None  # None: killed after WALL_SECONDS
    stderr: str
    cpu_seconds: float
    wall_seconds: float
    output_written: bool
    stray_files: list[str]


# --- the zygote -------------------------------------------------------------------------------
# Hundreds of runs of ~0.5 s interpreter start-up each do not fit the test budget, so one
# subprocess (the zygote) imports the tools once and forks a child per run. The child is a fresh
# process like the console script: it sets RLIMIT_AS / RLIMIT_CPU (what a preexec_fn would),
# redirects stdout/stderr to files and calls the tool's `main(argv)` exactly as the console
# script's `entry()` does. `test_console_scripts_agree` checks real console-script runs give
# the same results on a sample.


def _child(job: dict[str, object]) -> NoReturn:
    code = 70
    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))
        for fd, path in ((1, job["stdout"]), (2, job["stderr"])):
            target = os.open(str(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(target, fd)
            os.close(target)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        module = importlib.import_module(f"neuron_cc.tools.{job['module']}")
        argv = [str(a) for a in job["argv"]]  # pyright: ignore[reportGeneralTypeIssues]
        sys.argv = [SCRIPTS[str(job["module"])], *argv]
        code = module.main(argv)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 70
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
        os._exit(code)


def zygote_main() -> None:
    """Read a JSON list of jobs on stdin, run them WORKERS at a time, print JSON results."""
    from neuron_cc.tools.driver import tool_context

    for module in SCRIPTS:
        importlib.import_module(f"neuron_cc.tools.{module}")

    tool_context()  # warm the dialect registry like every tool does first
    jobs: list[dict[str, object]] = json.load(sys.stdin)
    queue = list(range(len(jobs)))
    running: dict[int, tuple[int, float]] = {}
    results: dict[int, dict[str, object]] = {}
    while queue or running:
        while queue and len(running) < WORKERS:
            index = queue.pop(0)
            pid = os.fork()
            if pid == 0:
                _child(jobs[index])
            running[pid] = (index, time.monotonic())
        pid, status, usage = os.wait4(-1, os.WNOHANG)
        if pid == 0:
            now = time.monotonic()
            for child, (index, start) in running.items():
                if now - start > WALL_SECONDS and index not in results:
                    os.kill(child, signal.SIGKILL)
                    results[index] = {"code": None}
            time.sleep(0.002)
            continue
        index, start = running.pop(pid)
        result = results.setdefault(index, {"code": os.waitstatus_to_exitcode(status)})
        result["cpu"] = usage.ru_utime + usage.ru_stime
        result["wall"] = time.monotonic() - start
    json.dump([results[i] for i in range(len(jobs))], sys.stdout)


def _run_all(runs: list[tuple[Path, str]], workdir: Path) -> list[Outcome]:
    jobs: list[dict[str, object]] = []
    for index, (file, tool) in enumerate(runs):
        _, module, template, suffix = ENTRY_POINTS[tool]
        outdir = workdir / f"{index}-{tool}"
        outdir.mkdir()
        out = outdir / f"out{suffix}"
        argv = [a.format(**{"in": file, "out": out}) for a in template]
        jobs.append(
            {
                "module": module,
                "argv": argv,
                "stdout": str(workdir / f"{index}.stdout"),
                "stderr": str(workdir / f"{index}.stderr"),
            }
        )
    env = dict(os.environ, PYTHONWARNINGS="error", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    proc = subprocess.run(
        [sys.executable, "-c", f"from {__name__} import zygote_main; zygote_main()"],
        input=json.dumps(jobs),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    outcomes: list[Outcome] = []
    for index, ((file, tool), result) in enumerate(zip(runs, json.loads(proc.stdout), strict=True)):
        outdir = workdir / f"{index}-{tool}"
        out = outdir / f"out{ENTRY_POINTS[tool][3]}"
        code = result["code"]
        outcomes.append(
            Outcome(
                file,
                tool,
                code,
                Path(jobs[index]["stderr"]).read_text(errors="replace"),  # pyright: ignore[reportArgumentType]
                float(result.get("cpu", 0.0)),
                float(result.get("wall", 0.0)),
                out.exists(),
                sorted(p.name for p in outdir.iterdir() if p != out),
            )
        )
    return outcomes


def _corpus(generated: Path) -> dict[Path, dict[str, object]]:
    manifest: dict[str, dict[str, object]] = json.loads((HOSTILE / "MANIFEST.json").read_text())
    files = {HOSTILE / name: entry for name, entry in manifest.items()}
    for name, entry in load_tool("make_hostile").generate(generated).items():
        files[generated / name] = entry
    return files


def _jobs(files: dict[Path, dict[str, object]]) -> list[tuple[Path, str]]:
    jobs = [
        (path, tool)
        for path in files
        for tool, (suffixes, _, _, _) in ENTRY_POINTS.items()
        if path.suffix in suffixes
    ]
    # Longest first: the big generated inputs must not be the last jobs of the pool.
    jobs.sort(key=lambda job: -job[0].stat().st_size)
    return jobs


_STATIC = json.loads((HOSTILE / "MANIFEST.json").read_text())
_GENERATED = list(load_tool("make_hostile").GENERATORS)


def _ids() -> list[tuple[str, str]]:
    names = sorted(_STATIC) + _GENERATED
    return [
        (name, tool)
        for name in names
        for tool, (suffixes, _, _, _) in ENTRY_POINTS.items()
        if Path(name).suffix in suffixes
    ]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, dict[str, object]]:
    return _corpus(tmp_path_factory.mktemp("hostile-generated"))


@pytest.fixture(scope="module")
def outcomes(
    corpus: dict[Path, dict[str, object]], tmp_path_factory: pytest.TempPathFactory
) -> dict[tuple[str, str], Outcome]:
    workdir = tmp_path_factory.mktemp("hostile-runs")
    return {(r.file.name, r.tool): r for r in _run_all(_jobs(corpus), workdir)}


def test_corpus_size() -> None:
    assert len(_STATIC) >= 60
    names = {p.name for p in HOSTILE.iterdir()} - {"MANIFEST.json"}
    assert names == set(_STATIC), "tests/hostile and MANIFEST.json disagree"
    for entry in _STATIC.values():
        assert entry["expect"] in ("ok", "error", "any")


@pytest.mark.parametrize(("name", "tool"), _ids(), ids=[f"{n}-{t}" for n, t in _ids()])
def test_hostile_input(
    name: str,
    tool: str,
    corpus: dict[Path, dict[str, object]],
    outcomes: dict[tuple[str, str], Outcome],
) -> None:
    result = outcomes[(name, tool)]
    entry = corpus[result.file]
    overrides = entry.get("tools", {})
    assert isinstance(overrides, dict)
    expect = overrides.get(tool, entry["expect"])
    where = (
        f"{tool} {name} ({entry['exercises']}): exit {result.returncode}, "
        f"{result.cpu_seconds:.1f}s CPU, {result.wall_seconds:.1f}s wall\n{result.stderr[-3000:]}"
    )
    assert result.returncode is not None, f"hang (> {WALL_SECONDS}s wall): {where}"
    assert result.returncode != -signal.SIGXCPU, f"over {CPU_SECONDS}s of CPU: {where}"
    assert "Traceback" not in result.stderr, where
    assert result.stray_files == [], f"stray files {result.stray_files}: {where}"
    assert result.returncode in (0, 1), where
    if result.returncode == 0:
        assert expect in ("ok", "any"), f"unexpected success: {where}"
        assert result.output_written, f"no output file on success: {where}"
        return
    assert expect in ("error", "any"), f"unexpected failure: {where}"
    assert not result.output_written, f"output file written on failure: {where}"
    assert "internal error" not in result.stderr, where
    location = re.match(rf"error: {re.escape(str(result.file))}:(\d+):(\d+): \S", result.stderr)
    assert location is not None, f"error without a location: {where}"
    assert result.stderr.endswith("\n"), where


# A sample through the real console scripts (subprocess + preexec_fn limits): same results as
# the zygote's forked runs.
CONSOLE_SAMPLE = [
    ("valid_all_reduce.hlo", "opt"),
    ("valid_while.mlir", "run"),
    ("bad_utf8.hlo", "translate-import"),
    ("cycle.mlir", "opt-emit-hlo"),
    ("mutual_recursion.hlo", "opt-bir-json"),
    ("replica_id_duplicated.mlir", "translate-export"),
]


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))


@pytest.mark.parametrize(("name", "tool"), CONSOLE_SAMPLE)
def test_console_scripts_agree(
    name: str, tool: str, outcomes: dict[tuple[str, str], Outcome], tmp_path: Path
) -> None:
    _, module, template, suffix = ENTRY_POINTS[tool]
    out = tmp_path / f"out{suffix}"
    argv = [a.format(**{"in": HOSTILE / name, "out": out}) for a in template]
    proc = subprocess.run(
        [str(BIN / SCRIPTS[module]), *argv],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONWARNINGS="error"),
        timeout=WALL_SECONDS,
        preexec_fn=_limit,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    forked = outcomes[(name, tool)]
    assert (proc.returncode, proc.stderr) == (forked.returncode, forked.stderr)
    assert out.exists() == forked.output_written


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
