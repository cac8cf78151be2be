"""neuron-translate: convert between XLA HLO text and hlo-dialect MLIR.

    neuron-translate --import-hlo IN.hlo [-o OUT.mlir] [--allow-elided-constants]
    neuron-translate --export-hlo IN.mlir [-o OUT.hlo]
    neuron-translate --bir-to-json IN.mlir [-o OUT.json]

The module is verified after import / before export. Errors print `error: FILE:LINE:COL: ...`
and exit 1; `-o` is written atomically.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException

from neuron_cc.tools.driver import (
    SourceMap,
    ToolArgumentParser,
    UserError,
    add_device_count_options,
    check_module,
    exit_now,
    parse_mlir,
    read_hlo,
    read_text,
    run_guarded,
    tool_context,
    verify_error_message,
    write_output,
)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    cli = ToolArgumentParser(
        prog="neuron-translate", description="convert between XLA HLO text and hlo-dialect MLIR"
    )
    mode = cli.add_mutually_exclusive_group(required=True)
    mode.add_argument("--import-hlo", metavar="IN.hlo", help="XLA HLO text -> hlo-dialect MLIR")
    mode.add_argument("--export-hlo", metavar="IN.mlir", help="hlo-dialect MLIR -> XLA HLO text")
    mode.add_argument("--bir-to-json", metavar="IN.mlir", help="bir-dialect MLIR -> BIR JSON")
    cli.add_argument("-o", "--output", metavar="OUT", help="output file (default: stdout)")
    cli.add_argument("--allow-elided-constants", action="store_true")
    add_device_count_options(cli)
    cli.add_argument("--print-op-generic", action="store_true", help="print MLIR generically")
    return cli.parse_args(argv)


def _verify(module: ModuleOp, source: SourceMap) -> None:
    try:
        module.verify()
    except DiagnosticException as e:
        raise UserError(verify_error_message(module, e, source)) from e
    check_module(module, source)


def _print_mlir(module: ModuleOp, generic: bool) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    out.write("\n")
    return out.getvalue()


def translate(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    ctx = tool_context()
    if args.import_hlo is not None:
        text = read_text(args.import_hlo)
        module, source = read_hlo(
            ctx,
            text,
            args.import_hlo,
            args.allow_elided_constants,
            args.num_replicas,
            args.num_partitions,
        )
        _verify(module, source)
        write_output(args.output, _print_mlir(module, args.print_op_generic))
        return 0
    if args.bir_to_json is not None:
        return _bir_to_json(ctx, args.bir_to_json, args.output)
    from neuron_cc.translate.hlo_text.exporter import ExportError, export_hlo

    text = read_text(args.export_hlo)
    module, source = parse_mlir(ctx, text, args.export_hlo)
    _verify(module, source)
    try:
        hlo = export_hlo(module)
    except ExportError as e:
        raise UserError(f"{args.export_hlo}:1:1: cannot export HLO: {e}") from e
    write_output(args.output, hlo)
    return 0


def _bir_to_json(ctx: Context, path: str, output: str | None) -> int:
    from neuron_cc.translate.bir_json import BirJsonError, bir_to_json

    module, source = parse_mlir(ctx, read_text(path), path)
    _verify(module, source)
    try:
        text = bir_to_json(module)
    except BirJsonError as e:
        raise UserError(f"{path}:1:1: cannot export BIR JSON: {e}") from e
    write_output(output, text)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_guarded(lambda: translate(argv))


def entry() -> None:
    """Console-script entry point."""
    exit_now(main())


if __name__ == "__main__":
    sys.exit(main())
