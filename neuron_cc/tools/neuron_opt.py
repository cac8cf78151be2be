"""neuron-opt: xdsl-opt with neuron-cc's dialects and passes, and user-error discipline.

Same flags as xdsl-opt (`-p`, `-o`, `--split-input-file`, `--verify-diagnostics`,
`--parsing-diagnostics`, `--print-op-generic`, ...). Differences (docs/tools.md §8):
- every user error prints `error: file:line:col: message` and exits 1, never a traceback;
- `-o FILE` is written only when everything succeeded (never a partial file);
- the module is verified before the first pass and after the last one (`--verify-each`
  verifies between passes too), not after every pass.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from io import StringIO
from typing import IO, TYPE_CHECKING, NoReturn

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from neuron_cc.analysis.remarks import forced_remarks
from neuron_cc.tools.driver import (
    SourceMap,
    UserError,
    add_device_count_options,
    check_module,
    decode_text,
    exit_now,
    gc_paused,
    parse_mlir,
    read_hlo,
    run_guarded,
    verify_error_message,
    write_pieces,
)
from neuron_cc.tools.registry import available_dialects, available_passes
from neuron_cc.tools.stage_timer import StageTimer

if TYPE_CHECKING:
    from neuron_cc.interpreter.equivalence import Reference


class _BufferedOutput(StringIO):
    """Collects the output pieces (no StringIO buffer copy: a 100k-op module's text is tens
    of MB); `close()` is a no-op so the text survives xDSL's run()."""

    def __init__(self) -> None:
        super().__init__()
        self.pieces: list[str] = []

    def write(self, s: str) -> int:
        self.pieces.append(s)
        return len(s)

    def close(self) -> None:
        pass


class NeuronOptMain(xDSLOptMain):
    """The neuron-opt driver (an `xDSLOptMain` with neuron-cc's registrations)."""

    source: SourceMap | None = None
    buffer: _BufferedOutput | None = None
    reference: Reference | None = None
    """With --verify-equivalence: what the verified input computed (taken in the pipeline's
    first callback, before any pass)."""
    timer: StageTimer

    def register_all_dialects(self) -> None:
        for name, factory in available_dialects().items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        for name, factory in available_passes().items():
            self.register_pass(name, factory)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--verify-each",
            default=False,
            action="store_true",
            help="verify the module after every pass (default: before the first and after the last)",
        )

        arg_parser.add_argument(
            "--verify-equivalence",
            default=False,
            action="store_true",
            help="run the input and the result on random inputs (simulated devices) and fail "
            "if any output differs; inputs that decide control flow are the same on every device",
        )
        arg_parser.add_argument("--equivalence-seed", type=int, default=0)
        arg_parser.add_argument(
            "--equivalence-per-device-inputs",
            default=False,
            action="store_true",
            help="with --verify-equivalence, give every input per-device random values, also "
            "the inputs that decide control flow (loop bounds, branch predicates)",
        )
        arg_parser.add_argument(
            "--equivalence-rtol",
            type=float,
            default=1e-5,
            help="with --verify-equivalence, the relative tolerance of float outputs (a moved "
            "bf16 sum rounds differently: e.g. 1e-2); integers are always compared exactly",
        )
        arg_parser.add_argument(
            "--equivalence-atol",
            type=float,
            default=1e-6,
            help="with --verify-equivalence, the absolute tolerance of float outputs",
        )
        arg_parser.add_argument(
            "--pass-remarks",
            default=False,
            action="store_true",
            help="every pass prints its optimisation remarks (what moved, and why not) to stderr",
        )
        arg_parser.add_argument(
            "--input",
            choices=("mlir", "hlo"),
            default=None,
            help="input format (default: by file extension; .hlo is XLA HLO text)",
        )
        arg_parser.add_argument(
            "--emit",
            choices=("mlir", "hlo", "bir-json"),
            default="mlir",
            help="output format: MLIR (default), XLA HLO text, or BIR JSON (bir ops only)",
        )
        arg_parser.add_argument(
            "--allow-elided-constants",
            default=False,
            action="store_true",
            help="import HLO constants printed as '{...}' as zeros instead of failing",
        )
        add_device_count_options(arg_parser)

        def error(message: str) -> NoReturn:
            raise UserError(message)

        arg_parser.error = error

    def setup_pipeline(self) -> None:
        self.timer = StageTimer(bool(self.args.time_passes))
        pass_started = time.perf_counter()

        def callback(
            previous: ModulePass | None, module: ModuleOp, following: ModulePass | None
        ) -> None:
            nonlocal pass_started
            if previous is not None:
                self.timer.add(f"pass {previous.name}", time.perf_counter() - pass_started)
            first_or_last = previous is None or following is None
            if not self.args.disable_verify and (first_or_last or self.args.verify_each):
                # The input gets the checks xDSL lacks (defined-before-use, no recursion);
                # between and after passes they run only with --verify-each.
                what = "input" if previous is None else f"after {previous.name}"
                with self.timer.stage(f"verify ({what})"):
                    self.verify(module, previous is None or self.args.verify_each)
            if previous is None and self.args.verify_equivalence:
                # What the verified input computes, before the passes rewrite it in place.
                with self.timer.stage("equivalence: run the input"):
                    self.reference = reference_results(
                        module,
                        self.args.equivalence_seed,
                        per_device_inputs=self.args.equivalence_per_device_inputs,
                    )
            pass_started = time.perf_counter()

        try:
            self.pipeline = PassPipeline.parse_spec(
                self.available_passes, self.args.passes, callback
            )
        except (ValueError, ArgSpecParseError) as e:
            raise UserError(f"invalid pass pipeline '{self.args.passes}': {e}") from e

    def verify(self, module: ModuleOp, whole_graph: bool = True) -> None:
        try:
            module.verify()
        except DiagnosticException as e:
            if self.args.verify_diagnostics:
                raise
            raise UserError(verify_error_message(module, e, self.source)) from e
        if whole_graph and not self.args.verify_diagnostics:
            check_module(module, self.source)

    def prepare_input(self) -> tuple[list[tuple[IO[bytes], int]], str]:
        if self.args.input_file is not None and not os.path.isfile(self.args.input_file):
            raise UserError(f"no such input file: {self.args.input_file}")
        if self.args.input is not None and self.args.input_file is not None:
            # An explicit --input format accepts any file name.
            extension = os.path.splitext(self.args.input_file)[1].lstrip(".")
            self.available_frontends.setdefault(extension, _unused_hlo_frontend)
        try:
            return super().prepare_input()
        except ValueError as e:
            raise UserError(str(e)) from e

    def register_all_frontends(self) -> None:
        super().register_all_frontends()
        self.available_frontends["hlo"] = _unused_hlo_frontend

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        kind = self.args.input or ("hlo" if file_extension == "hlo" else "mlir")
        with self.timer.stage("import (hlo)" if kind == "hlo" else "parse (mlir)"):
            return self._parse_chunk(chunk, file_extension, start_offset, kind)

    def _parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int, kind: str
    ) -> ModuleOp | None:
        if kind == "hlo":
            text = decode_text(chunk.read(), self.get_input_name())
            module, self.source = read_hlo(
                self.ctx,
                text,
                self.get_input_name(),
                self.args.allow_elided_constants,
                self.args.num_replicas,
                self.args.num_partitions,
            )
            return module
        if self.args.frontend not in (None, "mlir"):
            return super().parse_chunk(chunk, file_extension, start_offset)
        text = decode_text(chunk.read(), self.get_input_name())
        module, self.source = parse_mlir(
            self.ctx,
            text,
            self.get_input_name(),
            start_offset,
            locate_errors=not self.args.parsing_diagnostics,
        )
        return module

    def apply_passes(self, prog: ModuleOp) -> None:
        self.reference = None
        with gc_paused(), forced_remarks(self.args.pass_remarks):
            self.pipeline.apply(self.ctx, prog)
        reference, self.reference = self.reference, None
        if reference is not None:
            with self.timer.stage("equivalence: run the result and compare"):
                check_against(
                    reference,
                    prog,
                    tolerance=(self.args.equivalence_rtol, self.args.equivalence_atol),
                )

    def prepare_output(self) -> IO[str]:
        if self.args.output_file is None:
            return sys.stdout
        self.buffer = _BufferedOutput()
        return self.buffer

    def commit_output(self) -> None:
        """Write `-o` atomically (temp file + rename) once everything succeeded."""
        if self.buffer is None or self.args.output_file is None:
            return
        write_pieces(self.args.output_file, self.buffer.pieces)

    def output_resulting_program(self, prog: ModuleOp) -> str:
        with self.timer.stage(f"output ({self.args.emit})"):
            return self._output(prog)

    def _output(self, prog: ModuleOp) -> str:
        # The module is verified: the source text and op locations are no longer needed
        # (releasing them lowers the peak memory of big modules).
        self.source = None
        if self.args.emit == "mlir":
            return super().output_resulting_program(prog)
        if self.args.emit == "bir-json":
            return _bir_json(prog, self.get_input_name())
        from neuron_cc.translate.hlo_text.exporter import ExportError, export_hlo_lines

        try:
            lines = export_hlo_lines(prog)
        except ExportError as e:
            raise UserError(f"{self.get_input_name()}:1:1: cannot export HLO: {e}") from e
        # Stream the lines instead of building one string of the whole module.
        stream: IO[str] = self.buffer if self.buffer is not None else sys.stdout
        for line in lines:
            stream.write(line)
            stream.write("\n")
        return ""


def _bir_json(prog: ModuleOp, name: str) -> str:
    from neuron_cc.translate.bir_json import BirJsonError, bir_to_json

    try:
        return bir_to_json(prog)
    except BirJsonError as e:
        raise UserError(f"{name}:1:1: cannot export BIR JSON: {e}") from e


def check_equivalence(
    before: ModuleOp,
    after: ModuleOp,
    seed: int,
    *,
    per_device_inputs: bool = False,
    tolerance: tuple[float, float] = (1e-5, 1e-6),
) -> None:
    """Raise a UserError if `after` computes something else than `before` (on random inputs,
    per device except those deciding control flow, unless `per_device_inputs`; float outputs
    within `tolerance` = (rtol, atol))."""
    reference = reference_results(before, seed, per_device_inputs=per_device_inputs)
    check_against(reference, after, tolerance=tolerance)


def reference_results(module: ModuleOp, seed: int, *, per_device_inputs: bool) -> Reference:
    """What `module` computes on seeded random inputs (the yardstick of `check_against`), run
    before the pipeline rewrites it in place (no clone of the module is kept)."""
    from neuron_cc.interpreter.equivalence import reference_run
    from neuron_cc.interpreter.values import InterpretationError

    try:
        return reference_run(module, seed=seed, per_device_inputs=per_device_inputs)
    except InterpretationError as e:
        raise UserError(f"cannot check equivalence: {e}") from None


def check_against(reference: Reference, after: ModuleOp, *, tolerance: tuple[float, float]) -> None:
    """Raise a UserError if `after` computes something else than the reference."""
    from neuron_cc.interpreter.equivalence import EquivalenceError, assert_matches
    from neuron_cc.interpreter.values import InterpretationError

    try:
        rtol, atol = tolerance
        assert_matches(reference, after, rtol=rtol, atol=atol)
    except EquivalenceError as e:
        raise UserError(f"the pipeline changed the program's results: {e}") from None
    except InterpretationError as e:
        raise UserError(f"cannot check equivalence: {e}") from None


def _unused_hlo_frontend(stream: IO[bytes]) -> ModuleOp:
    raise UserError("internal: the hlo frontend is handled by NeuronOptMain.parse_chunk")


def main(argv: Sequence[str] | None = None) -> int:
    def body() -> int:
        tool = NeuronOptMain(description="neuron-cc modular optimizer driver", args=argv)
        tool.run()
        with tool.timer.stage("write -o"):
            tool.commit_output()
        if tool.timer.enabled:
            sys.stderr.write(tool.timer.report("Execution time report"))
        return 0

    return run_guarded(body)


if __name__ == "__main__":
    sys.exit(main())


def entry() -> None:
    """Console-script entry point."""
    exit_now(main())
