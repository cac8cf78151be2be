"""The Python API: what the command-line tools do, as functions returning plain values.

    import neuron_cc as nc

    module = nc.import_hlo("model.hlo")                # or HLO text; nc.parse_mlir for .mlir
    moved = nc.remarks(module, "neuron-default-pipeline")   # what moved, and why not
    before = nc.collective_stats(module)               # launches / bytes / alpha-beta per kind
    nc.run_pipeline(module, "neuron-default-pipeline")  # in place, as neuron-opt -p
    after = nc.collective_stats(module)
    text = nc.export_hlo(module)

Modules are xDSL `ModuleOp`s (verified on the way in and after every pipeline); arrays are numpy
arrays whose first axis is the device (as `neuron-run` takes them). Every failure - malformed
input, an invalid attribute, a pass refusing the module, a program the interpreter cannot run,
something XLA cannot express - is a `NeuronError` whose message starts with `file:line:col:`
where a place is known (`.file`, `.line`, `.col`; None otherwise), the same text the tools print.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import weakref
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import DiagnosticException, ParseError

from neuron_cc.analysis.remarks import forced_remarks
from neuron_cc.tools.driver import (
    SourceMap,
    UserError,
    check_module,
    gc_paused,
    parse_error_message,
    read_hlo,
    tool_context,
    verify_error_message,
)
from neuron_cc.tools.driver import parse_mlir as _parse_mlir
from neuron_cc.tools.registry import available_passes

Array = np.ndarray[Any, Any]
T = TypeVar("T")

_LOCATION = re.compile(r"^(?:error: )?(.+?):(\d+):(\d+): ")
_SOURCES: weakref.WeakKeyDictionary[ModuleOp, SourceMap] = weakref.WeakKeyDictionary()
"""Where each imported module's ops came from (to locate errors found later)."""


class NeuronError(Exception):
    """Every failure of the API; `file`, `line`, `col` say where, when the message starts with a
    location (`file:line:col: ...`)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        match = _LOCATION.match(message)
        self.file: str | None = match.group(1) if match else None
        self.line: int | None = int(match.group(2)) if match else None
        self.col: int | None = int(match.group(3)) if match else None


def _guarded(step: Callable[[], T]) -> T:
    """`step()`, every failure raised as a NeuronError with the tools' message."""
    from neuron_cc.interpreter.values import InterpretationError
    from neuron_cc.translate.bir_json import BirJsonError
    from neuron_cc.translate.hlo_text.exporter import ExportError

    try:
        return step()
    except NeuronError:
        raise
    except UserError as e:
        raise NeuronError(str(e)) from None
    except ParseError as e:
        raise NeuronError(parse_error_message(e)) from None
    except (DiagnosticException, ExportError, BirJsonError, InterpretationError, OSError) as e:
        raise NeuronError(str(e).strip().splitlines()[0] if str(e).strip() else repr(e)) from None
    except RecursionError:
        raise NeuronError("input is nested too deeply to process") from None


def _read(
    source: str | os.PathLike[str], looks_like_text: Callable[[str], bool]
) -> tuple[str, str]:
    """(text, name): a path (an `os.PathLike`, or a str that is not itself the program) is read."""
    if isinstance(source, str) and looks_like_text(source):
        return source, "<string>"
    path = Path(source)
    try:
        return path.read_text(encoding="utf-8"), str(path)
    except (OSError, UnicodeDecodeError) as e:
        raise NeuronError(f"{path}:1:1: cannot read: {e}") from None


def _verified(module: ModuleOp, source: SourceMap | None) -> ModuleOp:
    try:
        module.verify()
    except DiagnosticException as e:
        raise UserError(verify_error_message(module, e, source)) from e
    check_module(module, source)
    if source is not None:
        _SOURCES[module] = source
    return module


def import_hlo(
    source: str | os.PathLike[str],
    *,
    num_replicas: int | None = None,
    num_partitions: int | None = None,
    allow_elided_constants: bool = False,
) -> ModuleOp:
    """An XLA HLO module (text, or the path of a `.hlo` file) as a verified hlo-dialect module;
    the device counts override the module's own (as `--num-replicas` / `--num-partitions`)."""

    def step() -> ModuleOp:
        text, name = _read(source, lambda s: "\n" in s or s.lstrip().startswith("HloModule"))
        module, where = read_hlo(
            tool_context(), text, name, allow_elided_constants, num_replicas, num_partitions
        )
        return _verified(module, where)

    return _guarded(step)


def parse_mlir(source: str | os.PathLike[str]) -> ModuleOp:
    """A `.mlir` module (text, or a path), parsed with every neuron-cc dialect and verified."""

    def step() -> ModuleOp:
        text, name = _read(source, lambda s: "\n" in s or "{" in s)
        module, where = _parse_mlir(tool_context(), text, name)
        return _verified(module, where)

    return _guarded(step)


def run_pipeline(module: ModuleOp, passes: str) -> ModuleOp:
    """Apply a pass pipeline (`neuron-opt -p` syntax) to `module` IN PLACE and verify the
    result; returns `module`."""

    def step() -> ModuleOp:
        try:
            pipeline = PassPipeline.parse_spec(available_passes(), passes)
        except ValueError as e:
            raise UserError(f"invalid pass pipeline '{passes}': {e}") from e
        with gc_paused():
            pipeline.apply(tool_context(), module)
        return _verified(module, None)

    return _guarded(step)


def remarks(module: ModuleOp, pipeline: str) -> list[str]:
    """The optimisation remarks of `pipeline` on a copy of `module` (which is left as it is):
    one `remark: <pass>: <op>: <what happened>` line per collective a pass considered."""
    copy = module.clone()
    captured = io.StringIO()
    with contextlib.redirect_stderr(captured), forced_remarks():
        run_pipeline(copy, pipeline)
    return [line for line in captured.getvalue().splitlines() if line.startswith("remark: ")]


def export_hlo(module: ModuleOp) -> str:
    """XLA HLO text of `module` (what `neuron-opt --emit hlo` writes)."""
    from neuron_cc.translate.hlo_text.exporter import export_hlo as _export

    return _guarded(lambda: _export(module))


def to_bir_json(module: ModuleOp) -> Any:
    """The BIR JSON of a module lowered to bir ops (after `convert-hlo-to-bir`), as Python
    lists and dicts (what `neuron-opt --emit bir-json` writes)."""
    from neuron_cc.translate.bir_json import bir_to_json

    return json.loads(_guarded(lambda: bir_to_json(module)))


def _inputs(
    module: ModuleOp, inputs: Sequence[Array] | Mapping[str, Array] | None, seed: int
) -> list[Any]:
    from neuron_cc.dialects.replica_groups import device_counts
    from neuron_cc.interpreter.equivalence import random_inputs
    from neuron_cc.interpreter.runner import entry_function, inputs_from_npz

    if inputs is None:
        return random_inputs(module, seed)
    if isinstance(inputs, Mapping):
        r, p = device_counts(module)
        return inputs_from_npz(entry_function(module), dict(inputs), r * p)
    return list(inputs)


def _run(module: ModuleOp, inputs: Sequence[Array] | Mapping[str, Array] | None, seed: int) -> Any:
    from neuron_cc.interpreter.runner import run_module
    from neuron_cc.interpreter.values import InterpretationError

    def step() -> Any:
        try:
            return run_module(module, _inputs(module, inputs, seed))
        except InterpretationError as e:
            source = _SOURCES.get(module)
            where = source.location(e.op) if source is not None and e.op is not None else None
            raise NeuronError(f"{where}: {e}" if where else str(e)) from None

    return _guarded(step)


def run(
    module: ModuleOp,
    inputs: Sequence[Array] | Mapping[str, Array] | None = None,
    *,
    seed: int = 0,
) -> list[Any]:
    """Run the entry computation on the module's simulated devices. `inputs`: one array per
    parameter with the device axis first, or `neuron-run`'s npz names (`arg<I>`,
    `arg<I>_dev<D>`); None: seeded random inputs (as `--verify-equivalence` draws them).
    Returns one array per output (a tuple result's elements), device axis first."""
    result = _run(module, inputs, seed)
    return [np.asarray(o) if isinstance(o, np.ndarray) else o for o in result.outputs]


def collective_stats(
    module: ModuleOp,
    inputs: Sequence[Array] | Mapping[str, Array] | None = None,
    *,
    seed: int = 0,
    alpha_us: float = 10.0,
    bandwidth_gbps: float = 100.0,
) -> dict[str, dict[str, float]]:
    """Per collective kind that ran: `launches`, `bytes_per_device` and the alpha-beta estimate
    `time_us` (what `neuron-run --stats` prints), from one run as `run` does it."""
    from neuron_cc.interpreter.cost_model import AlphaBeta

    model = AlphaBeta(alpha_us, bandwidth_gbps)
    stats = _run(module, inputs, seed).state.stats
    return {
        kind: {
            "launches": record.launches,
            "bytes_per_device": float(record.bytes_per_device),
            "time_us": model.record_us(record),
        }
        for kind, record in sorted(stats.items())
    }


__all__ = [
    "NeuronError",
    "collective_stats",
    "export_hlo",
    "import_hlo",
    "parse_mlir",
    "remarks",
    "run",
    "run_pipeline",
    "to_bir_json",
]
